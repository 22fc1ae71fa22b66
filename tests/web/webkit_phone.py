#!/usr/bin/python3
"""A bare WebKitGTK browser for WebKitWebDriver, so that tests/web/test_webkit.py can drive
the page in Safari's engine at a phone's viewport.

Why not MiniBrowser, the browser the webkit2gtk-driver package drives by default: its
toolbar keeps its window 447 px wide or more, so it cannot show a 375 px phone. This one
puts a toolbar-less window round each web view WebKitWebDriver asks for, so the viewport is
exactly the window (375 x 812 CSS px, devicePixelRatio 1).

It runs under Debian's Python with its WebKit bindings (python3-gi, gir1.2-webkit2-4.1),
not the project's virtual environment. WebKitWebDriver starts it with `--automation`; the
session must ask for browserName PhoneBrowser, the name this browser gives its automation
sessions (WebKitWebDriver refuses the session otherwise). `--version` prints the name and
WebKit's version (the tests' fixture runs it to check the bindings are there).

* Each session is a fresh phone: its own throw-away data folder, so no two sessions share
  localStorage (the page keeps each game's edit token there). WebKitWebDriver kills the
  browser when its session ends, so under automation the caller makes the folder, passes
  it as `--data-dir DIR` and removes it; run by hand, the browser makes one of its own in
  the temporary folder and removes it when closed.
* Console messages, uncaught errors and unhandled promise rejections are written to
  stdout (WebKit's enable-write-console-messages-to-stdout), which WebKitWebDriver passes
  on to its own log, where the test reads them. (An ephemeral WebContext would also keep
  sessions apart, but with one WebKit was seen to write no console message.)

By hand, to look at a page: `python3 tests/web/webkit_phone.py http://127.0.0.1:8000/`.
"""

from __future__ import annotations

import argparse
import shutil
import signal
import sys
import tempfile

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("WebKit2", "4.1")
from gi.repository import GLib, Gtk, WebKit2  # noqa: E402

NAME = "PhoneBrowser"
WIDTH, HEIGHT = 375, 812


def version() -> tuple[int, int, int]:
    return WebKit2.get_major_version(), WebKit2.get_minor_version(), WebKit2.get_micro_version()


def settings() -> WebKit2.Settings:
    made = WebKit2.Settings()
    made.set_enable_write_console_messages_to_stdout(True)
    made.set_enable_developer_extras(True)
    made.set_javascript_can_open_windows_automatically(True)
    return made


class Phone:
    """The browser: one WebContext over one data folder, and a window per web view."""

    def __init__(self, data_dir: str, automation: bool) -> None:
        self.automation = automation
        manager = WebKit2.WebsiteDataManager(
            base_data_directory=data_dir, base_cache_directory=data_dir
        )
        self.context = WebKit2.WebContext(website_data_manager=manager)
        self.context.set_automation_allowed(True)
        self.context.connect("automation-started", self.automation_started)
        self.views: list[WebKit2.WebView] = []  # kept referenced while their windows live

    def automation_started(self, _context: WebKit2.WebContext, session: object) -> None:
        info = WebKit2.ApplicationInfo()
        info.set_name(NAME)
        info.set_version(*version())
        session.set_application_info(info)  # type: ignore[attr-defined]
        session.connect("create-web-view", self.create_web_view)  # type: ignore[attr-defined]

    def create_web_view(self, _session: object = None) -> WebKit2.WebView:
        view = WebKit2.WebView(
            web_context=self.context,
            settings=settings(),
            is_controlled_by_automation=self.automation,
        )
        self.adopt(view)
        self.show(view)
        return view

    def create_popup(self, view: WebKit2.WebView, _action: object) -> WebKit2.WebView:
        """window.open and target=_blank: a view of its own, shown once it is ready."""
        popup = WebKit2.WebView(
            related_view=view,
            settings=view.get_settings(),
            is_controlled_by_automation=self.automation,
        )
        self.adopt(popup)
        popup.connect("ready-to-show", self.show)
        return popup

    def adopt(self, view: WebKit2.WebView) -> None:
        view.connect("create", self.create_popup)
        self.views.append(view)

    def show(self, view: WebKit2.WebView) -> None:
        window = Gtk.Window()
        window.set_default_size(WIDTH, HEIGHT)
        window.add(view)
        view.connect("close", lambda _view: window.destroy())
        window.connect("destroy", lambda _window: self.forget(view))
        window.show_all()

    def forget(self, view: WebKit2.WebView) -> None:
        if view in self.views:
            self.views.remove(view)
        if not self.views and not self.automation:
            Gtk.main_quit()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="A bare WebKitGTK browser for WebKitWebDriver.")
    parser.add_argument("--version", action="store_true", help="print the name and version")
    parser.add_argument("--automation", action="store_true", help="run for WebKitWebDriver")
    parser.add_argument("--data-dir", help="the session's data folder (default: a new one)")
    parser.add_argument("url", nargs="?", help="a page to show (without --automation)")
    args, _unknown = parser.parse_known_args(argv)
    if args.version:
        print(NAME, ".".join(map(str, version())))
        return 0

    own_folder = args.data_dir is None
    data_dir = tempfile.mkdtemp(prefix="sushigo-phone-") if own_folder else args.data_dir
    try:
        phone = Phone(data_dir, args.automation)
        if not args.automation:
            phone.create_web_view().load_uri(args.url or "about:blank")
        # Closed by hand (the last window, Ctrl-C): leave the main loop, so that the
        # folder below is removed.
        for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, number, Gtk.main_quit)
        Gtk.main()
    finally:
        if own_folder:
            shutil.rmtree(data_dir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
