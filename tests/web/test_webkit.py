"""The table-side page in WebKit, Safari's engine (WebKitGTK driven by WebKitWebDriver, at a
375 x 812 phone's viewport, on an Xvfb display: tests/web/conftest.py): a 2-player game of
3 rounds from generated photos, each first-round photo corrected on the review screen by
touch (relabel a box through its sheet, draw a missed card's box) and by a + counter, every
standing checked against the scoring engine; and a big photo made smaller in the browser
before it is sent (photo.js's canvas). No page script may fail: errors are caught in the
page (window.onerror, unhandledrejection, console.error) and in WebKit's console log.

Two ways of WebDriver with WebKit are worked round here, not page bugs: WebKitWebDriver
does not scroll a button lying just below the fold into view (with the page's
scroll-padding), so `Page.click` scrolls the control to the screen's middle itself and taps
its centre; and a tap sent while the page redraws its counters can be lost between press
and release, so each tap waits for the page to settle (`window.sushigo.idle()`). WebKit's
innerText also ends in a newline where Chromium's does not, so texts are stripped.
WebKitWebDriver delivers touch actions as mouse pointer events (pointerType "mouse"), so
the touches here go the page's pointer paths; touch itself is the Chromium tests' part."""

from __future__ import annotations

import io
import time
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import pytest
from PIL import Image, ImageOps

from tests.web import test_page
from tests.web.conftest import WEBKIT_TIMEOUT_S, Server, WebKitPhone
from tests.web.test_page import (
    CONFIRM_SETTLED,
    FREE_AREA,
    HAND,
    NAMES,
    PLAIN,
    READ_COUNTS,
    READ_STANDINGS,
    TAPPABLE_BOXES,
    cards,
    expected_standings,
    hand_line,
    standings_as_scored,
)
from tests.web.test_photo_upload import LONG_SIDE

pytestmark = pytest.mark.browser

# test_page's photos fixture: its generated table photos, the fake detector primed for each.
photos = test_page.photos

ROUNDS = 3  # the fewest a game has (api/schemas.py), and the home page's choice

# Every error of the page kept in window.sushigoErrors, injected after each page load.
COLLECT_ERRORS = """() => { if (window.sushigoErrors) return;
  const errors = (window.sushigoErrors = []);
  addEventListener("error", (e) => errors.push(`${e.message} (${e.filename}:${e.lineno})`));
  addEventListener("unhandledrejection", (e) => errors.push(`unhandled: ${e.reason}`));
  const original = console.error.bind(console);
  console.error = (...args) => { errors.push(args.join(" ")); original(...args); }; }"""

# The middle of a control, scrolled to the screen's middle, where a tap there reaches it
# (else null: not there yet, or something lies over it).
TAP_POINT = """(selector) => {
  const el = document.querySelector(selector);
  if (!el) return null;
  el.scrollIntoView({ block: "center", inline: "center" });
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const hit = document.elementFromPoint(x, y);
  return r.width && r.height && hit && el.contains(hit) ? [x, y] : null;
}"""

# What the screen shows, for a failure's message.
SEEN = """() => { const text = (id) => document.getElementById(id)?.innerText.trim().slice(0, 300);
  return { url: location.href, app: text("app"), toast: text("toasts"),
           sheet: document.getElementById("sheet")?.open && text("sheet") }; }"""

# test_page's bare stretch of photo (FREE_AREA), as two points on the screen.
DRAG_AREA = f"""() => {{ const area = ({FREE_AREA})();
  const r = document.querySelector('[data-testid="photo"]').getBoundingClientRect();
  return area && [[r.x + area[0] * r.width, r.y + area[1] * r.height],
                  [r.x + area[2] * r.width, r.y + area[3] * r.height]]; }}"""


def tid(testid: str) -> str:
    return f'[data-testid="{testid}"]'


class Page:
    """The page in a WebKit phone, with Playwright-like helpers over Selenium."""

    def __init__(self, phone: WebKitPhone) -> None:
        self.driver = phone.driver
        self.errors: list[str] = []

    def js(self, function: str, *args: Any) -> Any:
        return self.driver.execute_script(f"return ({function}).apply(null, arguments)", *args)

    def wait(self, function: str, *args: Any, timeout: float = WEBKIT_TIMEOUT_S) -> Any:
        """The first truthy value of `function`, polled."""
        deadline = time.monotonic() + timeout
        while not (value := self.js(function, *args)):
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out: {function[:40]!r} {args}: {self.js(SEEN)}")
            time.sleep(0.05)
        return value

    def idle(self) -> None:
        self.wait("() => window.sushigo && window.sushigo.idle()")

    def goto(self, url: str) -> None:
        """Open `url`, keeping the errors the page had so far."""
        self.check_errors()
        self.driver.get(url)
        self.js(COLLECT_ERRORS)

    def check_errors(self) -> None:
        """The page's errors so far added to self.errors."""
        errors = self.js("() => window.sushigoErrors?.splice(0) ?? null")
        if errors is None and self.driver.current_url.startswith("http"):
            errors = ["the error collector is gone: the page loaded again unseen"]
        self.errors += errors or []

    def wait_for(self, selector: str) -> None:
        self.wait("(s) => document.querySelector(s)", selector)

    def text(self, testid: str) -> str:
        self.wait_for(tid(testid))
        return str(self.js("(s) => document.querySelector(s).innerText", tid(testid))).strip()

    def counts(self) -> dict[str, int]:
        self.idle()
        return dict(self.js(READ_COUNTS))

    def click(self, selector: str) -> None:
        """Scroll the control to the middle, tap its centre, wait for the page to settle."""
        x, y = self.wait(TAP_POINT, selector)
        self.pointer("mouse", [(x, y)])
        self.idle()

    def pointer(self, kind: str, path: list[tuple[float, float]]) -> None:
        """A mouse or a finger pressed at path's first point, moved along it, lifted."""
        from selenium.webdriver.common.actions.action_builder import ActionBuilder
        from selenium.webdriver.common.actions.pointer_input import PointerInput

        actions = ActionBuilder(self.driver, mouse=PointerInput(kind, kind))
        (x, y), *rest = [(round(x), round(y)) for x, y in path]
        actions.pointer_action.move_to_location(x, y).pointer_down()
        for x, y in rest:
            actions.pointer_action.move_to_location(x, y)
        actions.pointer_action.pointer_up()
        actions.perform()

    def find(self, testid: str) -> Any:
        """The element, for typing into it (a file input takes a file's path)."""
        self.wait_for(tid(testid))
        return self.driver.find_element("css selector", tid(testid))


def correct_a_photo(page: Page, start: dict[str, int]) -> dict[str, int]:
    """By touch, relabel a box through its sheet and draw a box over a missed card; then
    one more tempura by its + counter. The counters follow each; the counts at the end."""
    expected = dict(start)
    boxes = page.js(TAPPABLE_BOXES, list(PLAIN))
    assert boxes, f"no box labelled one of {PLAIN} to tap"
    box = boxes[0]
    page.pointer("touch", [(box["x"], box["y"])])
    page.wait_for(tid("box-sheet-title"))
    target = "sashimi" if box["label"] != "sashimi" else "tempura"
    page.click(f'#sheet [data-label="{target}"]')
    expected[box["label"]] -= 1
    expected[target] += 1
    page.wait_for(f'g.box[data-box-id="{box["id"]}"][data-label="{target}"]')
    assert page.counts() == expected

    page.click(tid("add-box"))
    # Where to drag, found once drawing mode is on and used at once: WebKit's
    # scrollIntoView({block: "center"}) centres an <svg>'s top edge, not its box, so the
    # photo stops near the top, partly under the top bar, at a place that moves with the
    # page's length (drawing mode adds a line): a spot bare before may be under the bar.
    drag = page.js(DRAG_AREA)
    assert drag, "no bare stretch of photo to draw on"
    (x0, y0), (x1, y1) = drag
    page.pointer("touch", [(x0 + (x1 - x0) * k / 6, y0 + (y1 - y0) * k / 6) for k in range(7)])
    page.click('#sheet [data-label="pudding"]')
    expected["pudding"] += 1
    assert page.counts() == expected
    assert page.js("() => document.querySelectorAll('g.box.reviewer').length") == 1

    page.click(tid("plus-tempura"))
    expected["tempura"] += 1
    assert page.counts() == expected
    assert "set by hand" in page.text("counter-tempura")
    assert hand_line(expected) in page.text("hand-check")
    return expected


def confirm(page: Page, seat: int, counted: dict[str, int]) -> None:
    """Confirm, and confirm anyway where the hand is not the hand size."""
    page.click(tid("confirm"))
    page.wait(CONFIRM_SETTLED)
    found = cards(counted)
    if found != HAND:
        words = f"{found} of {HAND} cards found" if found < HAND else f"{found} cards found"
        question = page.text("confirm-question")
        assert words in question and "confirm anyway?" in question, question
        page.click(tid("confirm-anyway"))
    assert "Confirmed" in page.text(f"player-status-{seat}")


def record(page: Page, number: int) -> None:
    page.click(tid("record-round"))
    if page.js("(s) => document.querySelector(s)", tid("record-problems")):
        page.click(tid("record-anyway"))  # what does not add up was said; record anyway
    page.wait_for(tid("round-scores"))
    assert page.text(f"round-tab-{number}").endswith("recorded")


def check_standings(page: Page, tallies: list[list[dict[str, int]]]) -> None:
    page.idle()
    standings_as_scored(page.js(READ_STANDINGS), tallies)


def test_a_game_on_a_phone_in_webkit(
    server: Server,
    webkit_phone: WebKitPhone,
    photos: list[list[bytes]],
    tmp_path: Path,
) -> None:
    page = Page(webkit_phone)
    page.goto(server.url + "/")
    page.wait_for(tid("start-game"))
    for seat, name in enumerate(NAMES, 1):
        page.find(f"player-name-{seat}").send_keys(name)
    assert page.js("(s) => document.querySelector(s).value", tid("rounds")) == str(ROUNDS)
    page.click(tid("start-game"))
    game_id = page.text("game-code").replace(" ", "")
    assert f"game={game_id}" in page.driver.current_url
    assert "edit" not in page.driver.current_url  # the token never sits in the address bar

    tallies: list[list[dict[str, int]]] = []
    for number in range(1, ROUNDS + 1):
        confirmed: list[dict[str, int]] = []
        for seat in (1, 2):
            path = tmp_path / f"round-{number}-seat-{seat}.jpg"
            path.write_bytes(photos[number - 1][seat - 1])
            page.idle()
            page.find(f"camera-{seat}").send_keys(str(path))
            page.wait_for(tid("hand-check"))
            counted = page.counts()
            assert hand_line(counted) in page.text("hand-check")
            if number == 1:
                counted = correct_a_photo(page, counted)
            confirm(page, seat, counted)
            confirmed.append(counted)
        tallies.append(confirmed)
        record(page, number)
        check_standings(page, tallies)
        if number < ROUNDS:
            page.click(tid("next-round"))

    # The finished game (places and pudding checked above): the winner and the chart.
    winner = expected_standings(tallies)[0]
    assert winner["name"] in page.text("winner") and winner["total"] in page.text("winner")
    lines = page.js("(s) => document.querySelectorAll(s).length", tid("totals-chart") + " path")
    assert lines == len(NAMES)

    page.check_errors()
    assert page.errors == []  # and the webkit_phone fixture fails on WebKit's console errors


def test_a_big_photo_is_made_smaller_in_the_browser(
    server: Server, webkit_phone: WebKitPhone, tmp_path: Path
) -> None:
    """photo.js draws a 3000 x 2000 JPEG on a canvas at LONG_SIDE px and sends that (the
    server keeps the bytes it is sent, as test_photo_upload shows), turned upright as its
    EXIF tag says: 6, as an iPhone held upright tags its photos."""
    big = tmp_path / "IMG_0001.JPG"
    y, x = np.mgrid[0:2000, 0:3000]
    pixels = np.stack([x * 255 // 3000, y * 255 // 2000, (x // 100 + y // 100) % 2 * 200], -1)
    exif = Image.Exif()
    exif[0x0112] = 6  # turn a quarter clockwise to show
    Image.fromarray(pixels.astype(np.uint8)).save(big, quality=95, exif=exif.tobytes())
    game = httpx.post(f"{server.url}/api/v1/games", json={"players": ["Al", "Bo"]}).json()
    page = Page(webkit_phone)
    page.goto(f"{server.url}/?game={game['id']}#edit={game['edit_token']}")
    page.idle()
    page.find("file-1").send_keys(str(big))
    page.wait_for(tid("hand-check"))
    page.idle()

    collection = httpx.get(f"{server.url}/api/v1/games/{game['id']}/rounds/1/players/1")
    sent = httpx.get(server.url + collection.json()["photo"]["image_url"]).content
    assert len(sent) < big.stat().st_size
    with Image.open(io.BytesIO(sent)) as image, Image.open(big) as original:
        assert (image.format, image.size) == ("JPEG", (round(LONG_SIDE * 2 / 3), LONG_SIDE))
        assert image.getexif().get(0x0112, 1) == 1  # the turn is in the pixels now
        upright = ImageOps.exif_transpose(original).resize(image.size, Image.Resampling.BOX)
        error = np.abs(np.asarray(image.convert("RGB"), int) - np.asarray(upright, int)).mean()
    assert error < 4, error  # the same picture, the right way up
    page.check_errors()
    assert page.errors == []
