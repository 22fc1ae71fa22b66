"""Fixtures for the web page tests: the real app served by uvicorn on a free port over a
temporary data folder, with the detector replaced by a fake that returns the boxes
registered for each photo; a headless Debian Chromium driven by Playwright; and WebKitGTK
(Safari's engine) driven by WebKitWebDriver through Selenium, on an Xvfb display of its own.

The browser tests are skipped only when /usr/bin/chromium is absent, and then loudly
(`apt-get install -y chromium`); with Chromium there, a missing Playwright is an error.
Likewise the WebKit tests skip, loudly, only without WebKitWebDriver or Xvfb; with them
there, a missing selenium or WebKit Python binding (python3-gi) is an error.
"""

from __future__ import annotations

import os
import re
import select
import shlex
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from api.deps import get_detector
from api.main import create_app
from api.settings import Settings
from tests.api.conftest import FakeDetector

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
# A phone's viewport, and a step's timeout for the page tests. Generous: CI machines are
# small and may be busy; a passing run takes a few seconds a step.
PHONE = {"width": 375, "height": 812}
TIMEOUT_MS = 60_000
MISSING = (
    f"BROWSER TESTS SKIPPED: {CHROMIUM} is missing. Install Debian's Chromium "
    "(apt-get install -y chromium) to run the web page tests."
)

# WebKitGTK, Safari's engine (tests/web/test_webkit.py): WebKitWebDriver drives the bare
# browser tests/web/webkit_phone.py, run by Debian's Python with its WebKit binding, on an
# Xvfb display (WebKitGTK has no headless mode).
WEBKIT_DRIVER = Path("/usr/bin/WebKitWebDriver")
XVFB = Path("/usr/bin/Xvfb")
SYSTEM_PYTHON = Path("/usr/bin/python3")
WEBKIT_PHONE = Path(__file__).with_name("webkit_phone.py")
WEBKIT_PACKAGES = "webkit2gtk-driver xvfb gir1.2-webkit2-4.1 python3-gi"
WEBKIT_TIMEOUT_S = TIMEOUT_MS / 1000


def webkit_missing() -> str | None:
    """Why the WebKit tests skip, in one line, or None when they run."""
    absent = [str(path) for path in (WEBKIT_DRIVER, XVFB) if not path.exists()]
    if not absent:
        return None
    return (
        f"WEBKIT TESTS SKIPPED: {' and '.join(absent)} missing. Install them "
        f"(apt-get install -y {WEBKIT_PACKAGES}) to run the page in WebKit, Safari's engine."
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "browser: drives the page in a real browser (Chromium, or WebKitGTK)"
    )


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not CHROMIUM.exists():
        terminalreporter.write_sep("!", MISSING, red=True, bold=True)
    webkit = webkit_missing()
    if webkit:
        terminalreporter.write_sep("!", webkit, red=True, bold=True)


@dataclass
class Server:
    url: str
    detector: FakeDetector
    data_dir: Path


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The app as `sushigo serve` runs it, in a thread of this process."""
    data_dir = tmp_path_factory.mktemp("web") / "data"
    detector = FakeDetector()
    app = create_app(Settings(data_dir=data_dir, max_upload_bytes=5_000_000))
    app.dependency_overrides[get_detector] = lambda: detector
    port = _free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    uvicorn_server = uvicorn.Server(config)
    thread = threading.Thread(target=uvicorn_server.run, name="web-test-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not uvicorn_server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield Server(f"http://127.0.0.1:{port}", detector, data_dir)
    finally:
        uvicorn_server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip(MISSING)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as error:  # Chromium is here, so the test must run: say what is missing
        raise RuntimeError(
            "the web tests need the Python package playwright (pip install playwright); "
            "never `playwright install`: they drive /usr/bin/chromium"
        ) from error
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def touch_phone(browser: Any, width: int, height: int) -> Iterator[Any]:
    """A page in a touch phone's browser of `width` x `height` CSS px, failing the test on
    any script error (of this page or one it opens). For a fixture to yield from."""
    context = browser.new_context(
        viewport={"width": width, "height": height},
        device_scale_factor=2,
        has_touch=True,
        is_mobile=True,
    )
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    context.on("page", lambda p: p.on("pageerror", lambda e: errors.append(str(e))))
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, errors


# The screen point of a spot on the review photo (photo px), the photo scrolled to the
# screen's middle; and whether it lies inside the photo's view as zoomed.
# Every toast kept as it comes, in window.toldSoFar (each goes by itself after seconds),
# and in window.toldCut each one its three lines cut short.
TOLD_SO_FAR = """() => { window.toldSoFar = []; window.toldCut = [];
  new MutationObserver(() => document.querySelectorAll(".toast-text").forEach((t) => {
    if (window.toldSoFar.includes(t.textContent)) return;
    window.toldSoFar.push(t.textContent);
    if (t.scrollHeight > t.clientHeight) window.toldCut.push(t.textContent);
  })).observe(document.getElementById("toasts"), { childList: true, subtree: true }); }"""

ON_SCREEN = """([x, y]) => {
  const svg = document.querySelector('[data-testid="photo"]');
  svg.scrollIntoView({ block: "center" });
  const p = svg.createSVGPoint();
  p.x = x; p.y = y;
  const q = p.matrixTransform(svg.getScreenCTM());
  const r = svg.getBoundingClientRect();
  return { x: q.x, y: q.y,
           inside: q.x > r.left && q.x < r.right && q.y > r.top && q.y < r.bottom };
}"""


def touch_drag(page: Any, start: dict[str, float], end: dict[str, float]) -> None:
    """One finger across the screen from start to end, in small steps."""
    cdp = page.context.new_cdp_session(page)
    steps = [
        (start["x"] + (end["x"] - start["x"]) * k / 6, start["y"] + (end["y"] - start["y"]) * k / 6)
        for k in range(7)
    ]
    for kind, (x, y) in zip(["touchStart"] + ["touchMove"] * 6, steps, strict=True):
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


# --- WebKitGTK, Safari's engine -----------------------------------------------------------


@dataclass
class WebKitHost:
    """An X display for WebKitGTK, and the program WebKitWebDriver starts as its browser:
    tests/web/webkit_phone.py under Debian's Python."""

    display: str
    launcher: Path
    folder: Path  # removed at the end of the run, with each phone's folder in it

    def env(self) -> dict[str, str]:
        env = {key: value for key, value in os.environ.items() if key != "WAYLAND_DISPLAY"}
        env.update(DISPLAY=self.display, GDK_BACKEND="x11", NO_AT_BRIDGE="1")
        return env


def _xvfb_display(xvfb: subprocess.Popen[bytes], read_fd: int, log: Path) -> str:
    """The display number Xvfb chose (-displayfd writes it once it accepts clients)."""
    got = b""
    deadline = time.monotonic() + 30
    while not got.endswith(b"\n"):
        left = deadline - time.monotonic()
        ready, _, _ = select.select([read_fd], [], [], max(left, 0))
        chunk = os.read(read_fd, 64) if ready else b""
        if not chunk:
            xvfb.kill()
            raise RuntimeError(f"Xvfb did not start: {log.read_text(errors='replace')[-2000:]}")
        got += chunk
    return ":" + got.decode().strip()


@pytest.fixture(scope="session")
def webkit_host() -> Iterator[WebKitHost]:
    """Xvfb on a display it picks free, for the whole run; skipped (loudly) only where
    WebKitWebDriver or Xvfb is missing."""
    missing = webkit_missing()
    if missing:
        pytest.skip(missing)
    try:
        import selenium  # noqa: F401
    except ImportError as error:  # WebKit is here, so the test must run: say what is missing
        raise RuntimeError(
            "the WebKit tests need the Python package selenium (pip install -e '.[test]')"
        ) from error
    folder = Path(tempfile.mkdtemp(prefix="sushigo-webkit-"))
    log = folder / "xvfb.log"
    read_fd, write_fd = os.pipe()
    with log.open("wb") as out:
        xvfb = subprocess.Popen(
            [XVFB, "-displayfd", str(write_fd), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
            pass_fds=(write_fd,),
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    os.close(write_fd)
    try:
        host = WebKitHost(_xvfb_display(xvfb, read_fd, log), folder / "webkit-phone", folder)
        command = f"{shlex.quote(str(SYSTEM_PYTHON))} {shlex.quote(str(WEBKIT_PHONE))}"
        host.launcher.write_text(f'#!/bin/sh\nexec {command} "$@"\n')
        host.launcher.chmod(0o755)
        # The browser itself: Debian's Python with its WebKit binding, as WebKitWebDriver
        # will start it.
        probe = subprocess.run(
            [host.launcher, "--version"],
            capture_output=True,
            text=True,
            env=host.env(),
            timeout=WEBKIT_TIMEOUT_S,
        )
        if probe.returncode or not probe.stdout.startswith("PhoneBrowser"):
            raise RuntimeError(
                f"{WEBKIT_PHONE.name} does not start under {SYSTEM_PYTHON}: it needs Debian's "
                f"WebKit binding (apt-get install -y python3-gi gir1.2-webkit2-4.1).\n"
                + probe.stderr[-2000:]
            )
        yield host
    finally:
        xvfb.terminate()
        try:
            xvfb.wait(timeout=10)
        except subprocess.TimeoutExpired:
            xvfb.kill()
            xvfb.wait()
        os.close(read_fd)
        shutil.rmtree(folder, ignore_errors=True)


# What WebKit writes for a console.error, an uncaught error ("CONSOLE JS ERROR"), an
# unhandled rejection, a refused request ("CONSOLE SECURITY ERROR") and the like.
CONSOLE_ERROR = re.compile(r"CONSOLE (?:\w+ )?ERROR")
CAPTURE_CHECK = "sushigo-console-capture-check"


@dataclass
class WebKitPhone:
    """One WebKitWebDriver session: a fresh 375 x 812 phone (no storage shared with any
    other), its Selenium driver, and the log its console messages are written to."""

    driver: Any
    log: Path

    def console(self) -> list[str]:
        """The console messages so far (the capture check's left out)."""
        lines = self.log.read_text(errors="replace").splitlines() if self.log.exists() else []
        return [line for line in lines if "CONSOLE" in line and CAPTURE_CHECK not in line]


@pytest.fixture
def webkit_phone(webkit_host: WebKitHost) -> Iterator[WebKitPhone]:
    """A phone in WebKitGTK, driven through Selenium; its console messages are printed at
    the end (pytest shows them with a failure), and any error among them fails the test."""
    from selenium import webdriver
    from selenium.webdriver.webkitgtk.options import Options
    from selenium.webdriver.webkitgtk.service import Service

    # (In the run's folder: a browser being killed may still write to it after quit.)
    folder = Path(tempfile.mkdtemp(prefix="phone-", dir=webkit_host.folder))
    options = Options()
    options.binary_location = str(webkit_host.launcher)
    options.add_argument("--automation")
    options.add_argument(f"--data-dir={folder / 'data'}")
    options.set_capability("browserName", "PhoneBrowser")  # webkit_phone.py's name
    service = Service(
        str(WEBKIT_DRIVER), log_output=str(folder / "driver.log"), env=webkit_host.env()
    )
    try:
        driver = webdriver.WebKitGTK(options=options, service=service)
    except Exception:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    phone = WebKitPhone(driver, folder / "driver.log")
    try:
        driver.set_script_timeout(WEBKIT_TIMEOUT_S)
        driver.set_page_load_timeout(WEBKIT_TIMEOUT_S)
        # The console capture works (else no error could be seen there), at a phone's size.
        driver.get(f"data:text/html,<script>console.error('{CAPTURE_CHECK}')</script>")
        deadline = time.monotonic() + 10
        while CAPTURE_CHECK not in phone.log.read_text(errors="replace"):
            if time.monotonic() > deadline:
                raise RuntimeError(f"WebKit's console messages do not reach {phone.log}")
            time.sleep(0.05)
        viewport = driver.execute_script("return [innerWidth, innerHeight]")
        assert viewport == [PHONE["width"], PHONE["height"]], viewport
        yield phone
    finally:
        driver.quit()
        console = phone.console()
        shutil.rmtree(folder, ignore_errors=True)
    print("\n".join(["WebKit console:", *console]) if console else "WebKit console: empty")
    assert not [line for line in console if CONSOLE_ERROR.search(line)], console
