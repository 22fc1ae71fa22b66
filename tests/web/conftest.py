"""Fixtures for the web page tests: the real app served by uvicorn on a free port over a
temporary data folder, with the detector replaced by a fake that returns the boxes
registered for each photo; and a headless Debian Chromium driven by Playwright.

The browser tests are skipped only when /usr/bin/chromium is absent, and then loudly
(`apt-get install -y chromium`); with Chromium there, a missing Playwright is an error.
"""

from __future__ import annotations

import socket
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


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives the page in headless Chromium")


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not CHROMIUM.exists():
        terminalreporter.write_sep("!", MISSING, red=True, bold=True)


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
