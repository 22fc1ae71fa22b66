"""A browser too old for the page (Safari before 15.4) is told so, instead of "Loading…" for
ever, and the page starts nothing there (api/web/browser-check.js). Each missing feature is
taken away from Chromium before the page loads."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import PHONE, Server, touch_phone

pytestmark = pytest.mark.browser

# What the page needs that Safari 15.4 brought, each taken away as an older browser lacks it.
TAKEN_AWAY = {
    "Object.hasOwn": "delete Object.hasOwn;",
    "Array.prototype.at": "delete Array.prototype.at;",
    "<dialog>": "delete HTMLDialogElement.prototype.showModal;",
    ":has()": "CSS.supports = () => false;",
}


@pytest.mark.parametrize("feature", list(TAKEN_AWAY))
def test_a_browser_without_it_is_told_to_update(server: Server, browser: Any, feature: str) -> None:
    for page in touch_phone(browser, PHONE["width"], PHONE["height"]):
        page.add_init_script(TAKEN_AWAY[feature])
        page.goto(server.url)
        told = page.get_by_test_id("too-old")
        told.wait_for()
        text = told.inner_text()
        assert "Safari on iOS 15.4 or later" in text and feature in text, text
        # Nothing else started: no home screen, no polling, no test hook.
        assert page.get_by_test_id("start-game").count() == 0
        assert page.evaluate("() => window.sushigo === undefined")
        assert "Loading" not in page.locator("#app").inner_text()


def test_a_browser_with_everything_is_not_told(server: Server, browser: Any) -> None:
    for page in touch_phone(browser, PHONE["width"], PHONE["height"]):
        page.goto(server.url)
        page.get_by_test_id("start-game").wait_for()
        assert page.get_by_test_id("too-old").count() == 0
        assert page.evaluate("() => window.sushigoTooOld === undefined")
