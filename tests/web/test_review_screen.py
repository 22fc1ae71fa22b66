"""The review screen and its surroundings at a real table (issue 30), on a phone with a
touch screen (Playwright's touch emulation) at 390 and 320 px wide: notifications that
never stand in a tap's way, uploads that fail in plain words, stacks read as one thing."""

from __future__ import annotations

import datetime
import io
import itertools
import os
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from PIL import Image

from scoring.cards import TALLY_KEYS
from tests.api.conftest import LEFT_OUT_TWO, NEIGHBOUR_PHOTO, TWO_STACKS, WITH_NEIGHBOURS, boxes_for
from tests.web.conftest import ON_SCREEN, TIMEOUT_MS, TOLD_SO_FAR, Server, touch_drag, touch_phone

pytestmark = pytest.mark.browser

WIDTHS = (390, 320)
HEIGHT = 844
# As test_page's: a temporary folder, or docs/ with SUSHIGO_SCREENSHOT_DIR=docs.
SCREENSHOTS = Path(
    os.environ.get("SUSHIGO_SCREENSHOT_DIR", Path(tempfile.gettempdir()) / "sushigo-screenshots")
)


def shot(page: Any, name: str) -> None:
    """The screen as the player sees it, at 390 px wide only (one picture per name)."""
    if page.viewport_size["width"] == WIDTHS[0]:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / name))


# The controls a visible notification covers: its box overlaps theirs, or a tap at their
# centre reaches it.
COVERED_CONTROLS = """() => {
  const toasts = [...document.querySelectorAll(".toast")].map((t) => t.getBoundingClientRect());
  const out = [];
  const controls = "#app button, #app a, #app input, #app label.button, .topbar a";
  for (const el of document.querySelectorAll(controls)) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || el.offsetParent === null) continue;
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (y < 0 || y > innerHeight) continue;
    const hit = document.elementFromPoint(x, y);
    const overlaps = toasts.some(
      (t) => t.left < r.right && r.left < t.right && t.top < r.bottom && r.top < t.bottom);
    if (overlaps || (hit && hit.closest(".toasts"))) out.push(el.textContent.trim());
  }
  return out;
}"""

CENTRE_HITS = """(testid) => {
  const el = document.querySelector(`[data-testid="${testid}"]`);
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return Boolean(hit && (hit === el || el.contains(hit)));
}"""


@pytest.fixture(autouse=True)
def answers_of_this_test_only(server: Server) -> None:
    """Each test registers the photos it reads: one another test registered would
    answer the turned look at this test's photo (a 750 x 1000 photo turned is 1000 x 750)."""
    server.detector.forget()


@pytest.fixture(params=WIDTHS, ids=lambda w: f"{w}px")
def phone(request: pytest.FixtureRequest, browser: Any) -> Iterator[Any]:
    """A page in a touch phone's browser, failing the test on any script error."""
    yield from touch_phone(browser, request.param, HEIGHT)


def new_game(server: Server, players: list[str]) -> dict[str, Any]:
    created = httpx.post(f"{server.url}/api/v1/games", json={"players": players, "rounds": 3})
    created.raise_for_status()
    return created.json()


def edit_url(server: Server, game: dict[str, Any]) -> str:
    return f"{server.url}/?game={game['id']}#edit={game['edit_token']}"


def confirm_counts(server: Server, game: dict[str, Any], seat: int, counts: dict[str, int]) -> None:
    """Round 1's counts entered and confirmed through the API, as another phone would."""
    enter_hand(server, game, 1, seat, counts)


def idle(page: Any) -> None:
    page.wait_for_function("() => window.sushigo && window.sushigo.idle()")


def jpeg(size: tuple[int, int]) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (40, 90, 60)).save(out, "JPEG")
    return out.getvalue()


# --- notifications -------------------------------------------------------------------


def record_round_one(server: Server, page: Any, short: int = 0) -> dict[str, Any]:
    """A new two-player game whose round 1 the page records, both hands confirmed, each
    `short` cards short of the hand size."""
    game = new_game(server, ["Ana", "Ben"])
    hand = {"tempura": 4, "sashimi": 3, "dumpling": 3 - short}
    confirm_counts(server, game, 1, hand)
    confirm_counts(server, game, 2, {**hand, "tempura": 2, "pudding": 2})
    page.goto(edit_url(server, game))
    page.get_by_test_id("record-round").tap()
    page.get_by_test_id("round-scores").wait_for()
    idle(page)
    return game


def test_notifications_after_recording_cover_no_control_and_go(server: Server, phone: Any) -> None:
    page = phone
    record_round_one(server, page)
    toast = page.locator(".toast")
    assert "Round 1 is recorded" in toast.inner_text()

    # The buttons the issue saw covered take a tap at their centre while it shows.
    for testid in ("reopen", "next-round"):
        page.get_by_test_id(testid).scroll_into_view_if_needed()
        assert page.evaluate(CENTRE_HITS, testid), f"{testid} is covered"
    page.evaluate("() => window.scrollTo(0, 0)")
    assert page.evaluate(COVERED_CONTROLS) == []
    # The notification lies over the top bar and no lower.
    bar = page.locator(".topbar").bounding_box()
    box = toast.bounding_box()
    assert box["y"] + box["height"] <= bar["y"] + bar["height"] + 0.5, (box, bar)

    # A tap on the top of the page goes through it, and it goes by itself.
    assert (
        page.evaluate("() => getComputedStyle(document.querySelector('.toast')).pointerEvents")
        == "none"
    )
    page.get_by_test_id("reopen").tap()
    page.get_by_test_id("reopen-yes").wait_for()
    toast.wait_for(state="detached", timeout=6_000)


def test_the_recorded_notification_counts_the_hands_off_their_size(
    server: Server, phone: Any
) -> None:
    """Two hands short: counted in the notification's three short lines, not each named
    with its count (that had been cut off with "...")."""
    record_round_one(server, phone, short=1)
    assert phone.locator(".toast").inner_text() == (
        "Round 1 is recorded. 2 hands were not the hand size."
    )


def test_record_tapped_after_another_phone_recorded_is_no_error(server: Server, phone: Any) -> None:
    """Two phones tapping Record together: the later one is told the round was recorded
    on another phone, as news, where it had been a red "re-open it to change it"."""
    page = phone
    game = new_game(server, ["Ana", "Ben"])
    hand = {"tempura": 4, "sashimi": 3, "dumpling": 3}
    confirm_counts(server, game, 1, hand)
    confirm_counts(server, game, 2, {**hand, "tempura": 2, "pudding": 2})
    page.goto(edit_url(server, game))
    page.get_by_test_id("record-round").wait_for()
    idle(page)
    base = f"{server.url}/api/v1/games/{game['id']}/rounds/1"
    version = httpx.get(base).json()["version"]
    headers = {"X-Edit-Token": game["edit_token"]}
    httpx.post(f"{base}/record", json={"version": version}, headers=headers).raise_for_status()
    page.get_by_test_id("record-round").tap()
    page.locator(".toast").wait_for()
    idle(page)
    assert page.locator(".toast").inner_text() == "Round 1 was recorded on another phone."
    assert page.locator(".toast.error").count() == 0
    page.get_by_test_id("round-scores").wait_for()


def test_the_last_record_tapped_after_another_phones_opens_the_final_results(
    server: Server, phone: Any
) -> None:
    """The last round recorded on another phone first: Record here opens the game's final
    results, as this phone's own record would have, not round 3's table."""
    page = phone
    game = new_game(server, ["Ana", "Ben"])
    hands = [{"tempura": 4, "sashimi": 3, "pudding": 3}, {"dumpling": 5, "maki_3": 4, "egg": 1}]
    play_through_the_api(server, game, hands, numbers=(1, 2))
    for seat, hand in enumerate(hands, start=1):
        enter_hand(server, game, 3, seat, hand)
    page.goto(edit_url(server, game))
    page.get_by_test_id("record-round").wait_for()
    idle(page)
    base = f"{server.url}/api/v1/games/{game['id']}/rounds/3"
    body = {"version": httpx.get(base).json()["version"], "accept_problems": True}
    headers = {"X-Edit-Token": game["edit_token"]}
    httpx.post(f"{base}/record", json=body, headers=headers).raise_for_status()
    page.get_by_test_id("record-round").tap()
    page.get_by_test_id("winner").wait_for()
    assert "round=" not in page.url
    assert page.locator(".toast").first.inner_text() == "Round 3 was recorded on another phone."


FOCUSED = "() => document.activeElement?.dataset?.testid ?? document.activeElement?.tagName"


def test_the_keyboard_focus_stays_put_when_its_control_goes(server: Server, phone: Any) -> None:
    """A − pressed down to 0 (then disabled), Undo with nothing left to undo, and "Fix
    this round" (its question asked in its place): the focus had fallen to the page's
    body, the next Tab starting again from the top. It goes to the next control, or to
    the question."""
    page = phone
    open_review(server, page, boxes_for(["tempura"] * 10, width=750, height=1000), (750, 1000))
    page.get_by_test_id("plus-egg").focus()
    page.keyboard.press("Enter")
    idle(page)
    assert page.evaluate(FOCUSED) == "plus-egg"
    page.get_by_test_id("minus-egg").focus()
    page.keyboard.press("Enter")
    idle(page)
    assert page.get_by_test_id("count-egg").inner_text() == "0"
    assert page.evaluate(FOCUSED) == "plus-egg"  # the next control, − being disabled
    page.get_by_test_id("undo").focus()
    page.keyboard.press("Enter")  # back to 1 egg
    page.keyboard.press("Enter")  # back to none
    idle(page)
    assert page.get_by_test_id("count-egg").inner_text() == "0"
    assert page.evaluate(FOCUSED) not in ("BODY", None)

    record_round_one(server, page)
    page.get_by_test_id("reopen").focus()
    page.keyboard.press("Enter")
    assert page.evaluate(FOCUSED) == "reopen-yes"


def test_a_control_tabbed_to_comes_out_above_the_confirm_bar(server: Server, phone: Any) -> None:
    """Tab through the review: every control the focus reaches is in sight, between the
    top bar and the Confirm bar (a control low on the page had stopped under the bar, the
    focus out of sight)."""
    page = phone
    open_review(server, page, boxes_for(["tempura"] * 10, width=750, height=1000), (750, 1000))
    page.evaluate("() => window.scrollTo(0, 0)")
    seen = []
    for _ in range(40):
        page.keyboard.press("Tab")
        where = page.evaluate(
            """() => {
              const e = document.activeElement;
              const target = e.matches('.photo-button input') ? e.parentElement : e;
              const r = target.getBoundingClientRect();
              const top = document.querySelector('.topbar').getBoundingClientRect().bottom;
              const bar = document.querySelector('.confirm-bar').getBoundingClientRect().top;
              const inBars = e.closest('.topbar, .confirm-bar') !== null;
              return [e.dataset.testid || e.getAttribute('aria-label') || e.tagName,
                      inBars || (r.top >= top - 1 && r.bottom <= bar + 1)];
            }"""
        )
        if where[0] == "BODY":  # past the last control
            break
        seen.append(where[0])
        assert where[1], (where[0], seen)
    assert "camera-1" in seen and "plus-tempura" in seen and "confirm" in seen, seen
    # "Add a missed card" is left with Escape, as a sheet is.
    add = page.get_by_test_id("add-box")
    add.focus()
    page.keyboard.press("Enter")
    assert add.get_attribute("aria-pressed") == "true"
    page.keyboard.press("Escape")
    assert add.get_attribute("aria-pressed") == "false"


def test_a_lead_on_puddings_says_who_is_level_on_points(server: Server, phone: Any) -> None:
    """Ana and Ben on 5 after round 1, Ana with a pudding: "Leading: Ana" alone beside two
    equal totals had read as a mistake; the tie-break is said."""
    page = phone
    game = new_game(server, ["Ana", "Ben"])
    play_through_the_api(server, game, [{"tempura": 2, "pudding": 1}, {"tempura": 2}], (1,))
    page.goto(edit_url(server, game))
    assert page.get_by_test_id("leading").inner_text() == (
        "Leading: Ana, level on points with Ben but with more puddings. "
        "Pudding is scored after the last round."
    )
    # The chart draws both level lines, side by side: Ben's had lain hidden under Ana's.
    lines = page.get_by_test_id("totals-chart").locator("path")
    ana, ben = (lines.nth(i).get_attribute("d") for i in range(2))
    assert ana.split() != ben.split() and len(ana.split()) == 2, (ana, ben)
    ends = [float(line.split()[-1].split(",")[1]) for line in (ana, ben)]  # R1, 5 points each
    assert 2 <= abs(ends[0] - ends[1]) <= 4, ends  # apart, about the same height


def test_a_win_on_puddings_says_the_puddings_that_decided_it(server: Server, phone: Any) -> None:
    """Level on 21 points, Ana's 2 puddings to Ben's 1: on a 320 px phone the table's
    pudding column lay scrolled out of sight under the totals, and the sentence did not
    say the counts that decided it."""
    page = phone
    game = new_game(server, ["Ana", "Ben"])
    rounds = [
        ({"tempura": 2, "pudding": 2}, {"tempura": 2, "pudding": 1}),
        ({"tempura": 2}, {"sashimi": 3}),
        ({"tempura": 2}, {"salmon": 3}),
    ]  # Ana 15 + 6 for the most puddings, Ben 21
    for number, hands in enumerate(rounds, start=1):
        play_through_the_api(server, game, list(hands), (number,))
    page.goto(edit_url(server, game))
    assert page.get_by_test_id("winner").inner_text() == "Ana wins with 21 points!"
    assert page.get_by_test_id("tie-break").inner_text() == (
        "Tied on points: the most puddings breaks the tie (Ana 2 puddings and Ben 1 pudding)."
    )


def test_five_long_names_keep_the_game_as_wide_as_the_phone(server: Server, phone: Any) -> None:
    """A 40-character name in the heading had held it wider than the phone (395 px at 390
    and at 320): the page scrolled sideways under the Share button."""
    page = phone
    names = ["Ann", "Bartholomew Maximilian Featherstonehaugh", "Sushi Fan", "Dan", "Eve"]
    page.goto(edit_url(server, new_game(server, names)))
    page.get_by_test_id("standings").wait_for()
    # (A phone's browser widens its window to the page: the page is measured against the
    # screen's own width.)
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= page.viewport_size["width"], wide


# Each standings row's name as the eye sees it: the name's own line (shown, and whole),
# or the name beside the points (shown, and whether cut short).
SHOWN_NAMES = """() => [...document.querySelectorAll('[data-testid^="standing-"]')].map((tr) => {
  const line = tr.previousElementSibling;
  const beside = tr.querySelector("th .name");
  const seen = (e) => e.getBoundingClientRect().width > 1 && getComputedStyle(e).display !== "none";
  return {
    line: seen(line) ? line.textContent : null,
    whole: line.scrollWidth <= line.clientWidth,
    beside: seen(beside) ? beside.textContent : null,
    cut: beside.scrollWidth > beside.clientWidth,
  };
})"""


def final_names(
    server: Server, page: Any, names: list[str], hands: list[dict[str, int]] | None = None
) -> list[dict[str, Any]]:
    """A game of `names` played through (its `hands`, else play_through_the_api's), its
    final standings opened on `page`: each row's name as SHOWN_NAMES reads it."""
    game = new_game(server, names)
    play_through_the_api(server, game, hands)
    page.goto(edit_url(server, game))
    page.get_by_test_id("winner").wait_for()
    shown: list[dict[str, Any]] = page.evaluate(SHOWN_NAMES)
    return shown


def test_long_names_stand_whole_in_the_standings(server: Server, phone: Any) -> None:
    """At 320 px the final standings of five long names had read "Si…", "Je…", "M…": cut
    to make room for the points, at 390 px to four letters. A table with a long name
    puts each name whole on a line of its own above its points; short names stay
    beside them."""
    page = phone
    names = ["Siobhán Ní Mhaolagáin", "Jean-Baptiste Charpentier", "Bo"]
    hands = [{"tempura": 2, "sashimi": 3}, {"dumpling": 5}, {"maki_3": 2, "egg": 1}]
    shown = final_names(server, page, names, hands)
    assert sorted(row["line"] for row in shown) == sorted(names), shown
    assert all(row["whole"] and row["beside"] is None for row in shown), shown
    # Still each row's header, read aloud with its points; the line above is not.
    row = page.get_by_test_id("standing-1")
    assert row.get_by_role("rowheader").inner_text().endswith(names[0])
    assert page.get_by_test_id("name-line-1").get_attribute("aria-hidden") == "true"
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= page.viewport_size["width"], wide

    shown = final_names(server, page, ["Ana", "Ben"])
    assert sorted(row["beside"] for row in shown) == ["Ana", "Ben"], shown
    assert all(row["line"] is None and not row["cut"] for row in shown), shown
    # Four letters are more than 320 px leaves beside the points ("Emma" needs 59 px).
    shown = final_names(server, page, ["Emma", "Ben"])
    assert sorted(row["line"] for row in shown) == ["Ben", "Emma"], shown


def test_a_name_cut_at_its_limit_is_said_so(server: Server, phone: Any) -> None:
    """A long name had been cut at 40 characters without a word."""
    page = phone
    page.goto(server.url)
    name = page.get_by_test_id("player-name-1")
    name.fill("Bartholomew Maximilian Featherstonehaugh-Smythe III")
    assert len(name.input_value()) == 40
    assert page.get_by_test_id("name-limit").inner_text() == "A name holds at most 40 characters."
    name.fill("Bartholomew")
    assert page.get_by_test_id("name-limit").is_hidden()


def test_what_another_phone_did_to_the_game_is_told(server: Server, phone: Any) -> None:
    """Seen by polling: the game over with its winner (it had sat 1.7 screens down the
    round's table, unannounced), a recorded round opened to fix it, and recorded again;
    the games on this phone keep the winner's points as the fix left them."""
    page = phone
    game = new_game(server, ["Ana", "Ben"])
    hands = [{"tempura": 4, "sashimi": 3, "pudding": 3}, {"dumpling": 5, "maki_3": 4, "egg": 1}]
    play_through_the_api(server, game, hands, numbers=(1, 2))
    base = f"{server.url}/api/v1/games/{game['id']}"
    headers = {"X-Edit-Token": game["edit_token"]}
    for seat, hand in enumerate(hands, start=1):
        enter_hand(server, game, 3, seat, hand)
    page.goto(edit_url(server, game))
    page.get_by_test_id("record-round").wait_for()
    idle(page)
    page.evaluate(TOLD_SO_FAR)

    def told(said: str) -> None:
        page.wait_for_function("(said) => window.toldSoFar.includes(said)", arg=said)

    def record(number: int) -> None:
        version = httpx.get(f"{base}/rounds/{number}").json()["version"]
        body = {"version": version, "accept_problems": True}
        httpx.post(f"{base}/rounds/{number}/record", json=body, headers=headers).raise_for_status()

    record(3)
    winner = httpx.get(f"{base}/standings").json()["winners"][0]
    told(f"The game is over: {winner} wins.")
    assert page.evaluate("() => window.toldCut") == []  # each whole in the toast's lines
    version = httpx.get(f"{base}/rounds/1").json()["version"]
    opened = httpx.post(f"{base}/rounds/1/reopen", json={"version": version}, headers=headers)
    opened.raise_for_status()
    told("Round 1 was opened on another phone, to fix it.")
    enter_hand(server, game, 1, 1, {"tempura": 2, "sashimi": 3, "pudding": 3, "egg": 2})
    record(1)
    told("Round 1 was recorded again on another phone.")
    standings = httpx.get(f"{base}/standings").json()
    top = next(p for p in standings["players"] if p["name"] == standings["winners"][0])
    recent = page.evaluate("() => JSON.parse(localStorage.getItem('sushigo:recent'))")
    kept = next(g for g in recent if g["id"] == game["id"])
    assert kept["winners"] == standings["winners"] and kept["points"] == top["total"], kept
    assert page.evaluate("() => window.toldCut") == []


def correct_elsewhere(server: Server, page: Any, correction: dict[str, Any]) -> None:
    """A correction of the cards the page is reviewing (round 1, seat 1), sent through the
    API with the page's edit token, as another phone would."""
    game_id = re.search(r"game=(\w+)", page.url)[1]
    url = f"{server.url}/api/v1/games/{game_id}/rounds/1/players/1"
    token = page.evaluate(f"() => localStorage.getItem('sushigo:token:{game_id}')")
    body = {**correction, "version": httpx.get(url).json()["version"]}
    httpx.post(f"{url}/corrections", json=body, headers={"X-Edit-Token": token}).raise_for_status()


def test_a_list_opened_stays_open_as_another_phones_change_arrives(
    server: Server, phone: Any
) -> None:
    """The box list closed when any phone's change was drawn, 1-5 s after it, and what
    lay under it moved under the player's finger (a tap meant for a box hit + Tempura)."""
    page = phone
    open_review(server, page, STACK_BOXES, STACK_PHOTO)
    page.get_by_test_id("box-list-button").tap()
    assert page.get_by_test_id("box-list").get_attribute("open") is not None
    correct_elsewhere(server, page, {"action": "set_counts", "counts": {"pudding": 2}})
    page.wait_for_function(
        """() => document.querySelector('[data-testid="count-pudding"]')?.textContent === "2" """
    )
    assert page.get_by_test_id("box-list").get_attribute("open") is not None


def test_undo_is_in_reach_of_the_last_counter(server: Server, phone: Any) -> None:
    """Undo sits in the bar at the screen's foot, beside Confirm: a player who has just
    tapped the last counter reaches it without scrolling (by the photo, it had lain about
    1,000 px above), and the bar keeps to one line."""
    page = phone
    open_review(server, page, STACK_BOXES, STACK_PHOTO)
    page.get_by_test_id("plus-pudding").tap()
    idle(page)
    undo = page.get_by_test_id("undo")
    box, height = undo.bounding_box(), page.viewport_size["height"]
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, (box, height)
    assert page.locator(".confirm-bar").bounding_box()["height"] < 75
    # Opaque: nothing under the bar shows through its count and Undo.
    background = page.locator(".confirm-bar").evaluate("(b) => getComputedStyle(b).backgroundColor")
    assert background.startswith("rgb("), background  # rgba(...) had let the page through
    undo.tap()
    idle(page)
    assert page.get_by_test_id("count-pudding").inner_text() == "0"
    assert undo.is_disabled()


def test_undo_says_which_counts_it_moved(server: Server, phone: Any) -> None:
    """Undo takes back the cards' last change, whichever phone made it; it says which
    counts that moved (another phone's + had been undone in silence, the player's own
    tap left standing)."""
    page = phone
    open_review(server, page, STACK_BOXES, STACK_PHOTO)
    tempura = int(page.get_by_test_id("count-tempura").inner_text())
    page.get_by_test_id("plus-tempura").tap()
    idle(page)
    correct_elsewhere(server, page, {"action": "adjust_count", "category": "pudding", "delta": 1})
    page.wait_for_function(
        """() => document.querySelector('[data-testid="count-pudding"]')?.textContent === "1" """
    )
    page.evaluate(TOLD_SO_FAR)
    page.get_by_test_id("undo").tap()
    idle(page)
    assert page.evaluate("() => window.toldSoFar") == ["Undone: Pudding 1 → 0."]
    assert page.get_by_test_id("count-tempura").inner_text() == str(tempura + 1)
    page.get_by_test_id("undo").tap()
    idle(page)
    told = page.evaluate("() => window.toldSoFar")
    assert told[-1] == f"Undone: Tempura {tempura + 1} → {tempura}.", told
    assert page.evaluate("() => window.toldCut") == []


def test_the_next_screen_opens_at_its_top(server: Server, phone: Any) -> None:
    """ "Go to round 2", tapped with round 1 scrolled down, opens round 2 at its top, and a
    player's photo sent from there opens the review at its top (the hand check and the
    warnings in view); before, each kept the page scrolled as far as it had been."""
    page = phone
    record_round_one(server, page)
    page.evaluate("() => scrollTo(0, document.body.scrollHeight)")
    assert page.evaluate("() => scrollY") > 100
    page.get_by_test_id("next-round").evaluate("(b) => b.click()")  # where it lies
    page.wait_for_url("**round=2**")
    idle(page)
    assert page.evaluate("() => scrollY") == 0
    page.evaluate("() => scrollTo(0, document.body.scrollHeight)")
    server.detector.register((700, 900), boxes_for(["tempura"] * 10, width=700, height=900))
    page.get_by_test_id("camera-1").set_input_files(
        {"name": "cards.jpg", "mimeType": "image/jpeg", "buffer": jpeg((700, 900))}
    )
    page.get_by_test_id("hand-check").wait_for()
    idle(page)
    assert page.evaluate("() => scrollY") == 0


# --- a new photo over cards a person has checked ------------------------------------------


def test_a_round_that_does_not_add_up_says_so_once(server: Server, phone: Any) -> None:
    """Two hands of 10 tempura: the deck has 14. The round lists the problem; once Record
    is refused, its box says it, and the list above goes."""
    game = new_game(server, ["Ana", "Ben"])
    confirm_counts(server, game, 1, {"tempura": 10})
    confirm_counts(server, game, 2, {"tempura": 10})
    page = phone
    page.goto(edit_url(server, game))
    page.get_by_test_id("record-round").wait_for()
    idle(page)
    assert page.locator("ul.problems").count() == 1
    said = page.locator("ul.problems li").all_inner_texts()
    assert said and any("tempura" in text.lower() for text in said), said
    page.get_by_test_id("record-round").tap()
    page.get_by_test_id("record-problems").wait_for()
    idle(page)
    assert page.locator("ul.problems").count() == 1
    assert page.get_by_test_id("record-problems").locator("li").all_inner_texts() == said


def test_the_replace_question_names_the_player(server: Server, phone: Any) -> None:
    """One phone goes round the table: the question before a new photo replaces checked
    cards names whose cards they are, not "your"."""
    page = phone
    game = new_game(server, ["Ana", "Ben"])
    confirm_counts(server, game, 2, {"tempura": 2, "sashimi": 3})  # Ben's, by hand
    server.detector.register(COLUMN_PHOTO, COLUMN_BOXES)
    photo = {"name": "cards.jpg", "mimeType": "image/jpeg", "buffer": jpeg(COLUMN_PHOTO)}
    page.goto(edit_url(server, game))
    page.get_by_test_id("round-panel").wait_for()
    idle(page)
    question = page.get_by_test_id("replace-question")
    page.get_by_test_id("camera-2").set_input_files(photo)
    question.wait_for()
    assert question.inner_text() == (
        "Replace Ben's confirmed cards? The cards counted by hand are kept and can be restored."
    )
    # The safe answer has the focus: Enter keeps the cards.
    focused = "() => document.activeElement && document.activeElement.dataset.testid"
    assert page.evaluate(focused) == "replace-no"
    page.get_by_test_id("replace-no").tap()
    page.wait_for_function("() => !document.querySelector('#sheet').open")

    # Ana's photo, one card added by hand: a new photo would replace her corrected cards.
    page.get_by_test_id("camera-1").set_input_files(photo)
    page.get_by_test_id("hand-check").wait_for()
    idle(page)
    page.get_by_test_id("plus-tempura").tap()
    idle(page)
    page.get_by_test_id("camera-1").set_input_files(photo)
    question.wait_for()
    assert question.inner_text() == (
        "Replace Ana's corrected cards? The earlier photo is kept and can be restored."
    )
    shot(page, "replace-question.png")
    page.get_by_test_id("replace-no").tap()


# --- uploads that fail -----------------------------------------------------------------


def test_a_bad_file_says_what_happened_and_offers_another_photo(server: Server, phone: Any) -> None:
    game = new_game(server, ["Ana", "Ben"])
    page = phone
    page.goto(edit_url(server, game))
    page.get_by_test_id("file-1").set_input_files(
        {"name": "notes.txt", "mimeType": "text/plain", "buffer": b"not a photo at all\n"}
    )
    error = page.get_by_test_id("upload-error")
    error.wait_for()
    assert error.inner_text() == (
        "That file is not a photo. Choose a JPEG, PNG, WebP or HEIC photo."
    )
    sheet = page.get_by_test_id("sheet")
    assert "not an image" not in sheet.inner_text()  # not the server's own words
    assert page.get_by_test_id("upload-retry").count() == 0  # it would send the same file
    assert page.get_by_test_id("choose-another").is_visible()
    assert page.get_by_test_id("upload-cancel").is_visible()

    # Another photo, from the same sheet: an empty file this time.
    calls = server.detector.calls
    page.get_by_test_id("choose-another-input").set_input_files(
        {"name": "empty.jpg", "mimeType": "image/jpeg", "buffer": b""}
    )
    page.wait_for_function(
        "() => document.querySelector('[data-testid=upload-error]')?.textContent.includes('empty')"
    )
    assert error.inner_text() == "That file is empty. Choose a photo of the cards."
    assert page.get_by_test_id("upload-retry").count() == 0
    assert server.detector.calls == calls

    # And a real photo: it is read, and the review opens.
    size = (704, 528)
    server.detector.register(
        size, [{"label": "tempura", "confidence": 0.9, "box": [40, 40, 200, 260]}]
    )
    page.get_by_test_id("choose-another-input").set_input_files(
        {"name": "cards.jpg", "mimeType": "image/jpeg", "buffer": jpeg(size)}
    )
    page.get_by_test_id("hand-check").wait_for()
    assert page.get_by_test_id("count-tempura").inner_text() == "1"


def refuse(status: int, body: dict[str, Any]) -> Any:
    def handler(route: Any) -> None:
        route.fulfill(status=status, json=body)

    return handler


def test_the_page_says_why_the_server_refused_a_photo(server: Server, phone: Any) -> None:
    """The server's refusals, each in a sentence: an empty file the server saw, a damaged
    photo, one over the size limit; the connection's fault offers the same file again."""
    game = new_game(server, ["Ana", "Ben"])
    page = phone
    page.goto(edit_url(server, game))
    page.get_by_test_id("file-1").wait_for(state="attached")
    cases = [
        (415, {"detail": "the file is empty", "reason": "not_an_image"}, "That file is empty."),
        (
            422,
            {"detail": "the image is truncated or corrupt", "reason": "truncated"},
            "That photo is damaged",
        ),
        # The limit is read from `limit_bytes`, never from the sentence.
        (
            413,
            {
                "detail": "the file is over the size limit",
                "reason": "too_large",
                "limit_bytes": 30_000_000,
            },
            "That photo is too large (limit 30 MB). Choose a smaller one.",
        ),
        (
            413,
            {
                "detail": "the request is over 9,999,999 bytes, the limit",
                "reason": "too_large",
                "limit_bytes": 5_100_000,
            },
            "That photo is too large (limit 5.1 MB).",
        ),
        # A 413 without the number (a proxy's, say): no limit made up.
        (413, {"detail": "the request is over 30,000,000 bytes"}, "That photo is too large."),
        (
            503,
            {"detail": "the card detector is not available"},
            "The server cannot look at photos just now",
        ),
    ]
    for status, body, words in cases:
        page.route("**/photos", refuse(status, body))
        page.get_by_test_id("file-1").set_input_files(
            {"name": "cards.jpg", "mimeType": "image/jpeg", "buffer": jpeg((300, 200))}
        )
        error = page.get_by_test_id("upload-error")
        error.wait_for()
        assert words in error.inner_text(), (status, body, error.inner_text())
        assert body["detail"] not in error.inner_text()
        retry = page.get_by_test_id("upload-retry").count()
        assert retry == (1 if status == 503 else 0), status
        page.get_by_test_id("upload-cancel").tap()
        error.wait_for(state="detached")
        page.unroute("**/photos")
        idle(page)
    if page.viewport_size["width"] != WIDTHS[0]:
        return
    # And the server's own: a file over the test server's photo limit (5,000,000 bytes)
    # that the browser cannot decode, so that it goes as it is.
    page.get_by_test_id("file-1").set_input_files(
        {"name": "cards.jpg", "mimeType": "image/jpeg", "buffer": bytes(5_030_000)}
    )
    error = page.get_by_test_id("upload-error")
    error.wait_for()
    assert "That photo is too large (limit 5 MB)." in error.inner_text()


# --- stacks ------------------------------------------------------------------------------

STACK_PHOTO = (800, 600)
STACK_BOXES = TWO_STACKS  # tests/api/conftest.py

PAGE_WORDS = """() => [
  document.querySelector("#app").innerText,
  ...[...document.querySelectorAll("#app [aria-label]")].map((e) => e.getAttribute("aria-label")),
  ...[...document.querySelectorAll("#app svg text")].map((e) => e.textContent),
].join("\\n")"""


def open_review(
    server: Server,
    page: Any,
    boxes: list[dict[str, Any]],
    size: tuple[int, int],
    players: tuple[str, str] = ("Ana", "Ben"),
) -> None:
    game = new_game(server, list(players))
    server.detector.register(size, boxes)
    page.goto(edit_url(server, game))
    page.get_by_test_id("camera-1").set_input_files(
        {"name": "cards.jpg", "mimeType": "image/jpeg", "buffer": jpeg(size)}
    )
    page.get_by_test_id("hand-check").wait_for()
    idle(page)


def test_a_stack_reads_as_one_thing_in_human_words(server: Server, phone: Any) -> None:
    page = phone
    open_review(server, page, STACK_BOXES, STACK_PHOTO)
    assert page.get_by_test_id("count-salmon_on_wasabi").inner_text() == "1"
    assert page.get_by_test_id("count-squid_on_wasabi").inner_text() == "1"
    assert page.get_by_test_id("count-wasabi").inner_text() == "0"

    # On the photo: each stack's tag names the stack; its wasabi has no tag of its own.
    tags = page.locator("svg g.tag text").evaluate_all("(ts) => ts.map((t) => t.textContent)")
    # The squid stack, read at 40 %, is what the reading's warning points at.
    assert sorted(tags) == ["Salmon on wasabi", "Squid on wasabi ?", "Tempura", "Tempura"]
    assert page.locator("g.box.strip").count() == 2
    assert page.locator("g.box.uncounted").count() == 0

    # The list: a visible button, each stack one line, boxes and cards explained.
    button = page.get_by_test_id("box-list-button")
    style = button.evaluate(
        "(e) => [getComputedStyle(e).borderTopWidth, getComputedStyle(e).color]"
    )
    assert style[0] != "0px", style
    assert button.bounding_box()["height"] >= 44
    assert button.inner_text().endswith("List the boxes (4 boxes, 6 cards)")
    button.tap()
    items = page.locator('[data-testid^="box-item-"]').all_inner_texts()
    assert len(items) == 4, items
    assert sum("Salmon on wasabi · one box, two cards" in i for i in items) == 1, items
    assert sum("Squid on wasabi · one box, two cards" in i for i in items) == 1, items
    assert not any("Wasabi" in i or "not counted" in i for i in items), items
    assert page.get_by_test_id("box-count-note").inner_text() == (
        "4 boxes, 6 cards: a nigiri on a wasabi is one box and two cards."
    )

    # No card named in snake_case anywhere (the reading's warning names the squid stack).
    words = page.evaluate(PAGE_WORDS)
    assert "squid on wasabi" in words.lower()
    assert not re.search(r"\b[a-z]+_[a-z0-9_]+\b", words), re.findall(r"\b\w+_\w+\b", words)
    assert "no nigiri on it" not in words.replace("Wasabi (no nigiri on it)\n", "")

    # A tap on a stack's wasabi strip opens the stack.
    page.locator("g.box.strip").first.evaluate("(g) => g.scrollIntoView({ block: 'center' })")
    strip = page.locator("g.box.strip rect.frame").first.bounding_box()
    page.touchscreen.tap(strip["x"] + strip["width"] / 2, strip["y"] + strip["height"] / 2)
    title = page.get_by_test_id("box-sheet-title")
    title.wait_for()
    assert title.inner_text() in ("This stack: Salmon on wasabi", "This stack: Squid on wasabi")
    # Its likeliest mend in view without scrolling the sheet (it had come after the cards).
    in_view = page.get_by_test_id("delete-strip").evaluate(
        """(b) => { const s = document.getElementById('sheet').getBoundingClientRect();
          const r = b.getBoundingClientRect();
          return r.height >= 44 && r.top >= s.top && r.bottom <= s.bottom
            && r.bottom <= innerHeight; }"""
    )
    assert in_view

    # "No wasabi under it" makes each stack its plain nigiri: the salmon on a counted
    # wasabi loses that wasabi, the box labelled as a squid stack its absorbed strip.
    page.get_by_test_id("delete-strip").tap()
    idle(page)
    for _ in range(2):
        if not page.locator("g.box.strip").count():
            break
        page.locator("g.box.strip").first.evaluate("(g) => g.scrollIntoView({ block: 'center' })")
        strip = page.locator("g.box.strip rect.frame").first.bounding_box()
        page.touchscreen.tap(strip["x"] + strip["width"] / 2, strip["y"] + strip["height"] / 2)
        page.get_by_test_id("delete-strip").tap()
        idle(page)
    counts = {k: page.get_by_test_id(f"count-{k}").inner_text() for k in
              ("salmon", "squid", "salmon_on_wasabi", "squid_on_wasabi", "wasabi")}  # fmt: skip
    assert counts == {"salmon": "1", "squid": "1", "salmon_on_wasabi": "0",
                      "squid_on_wasabi": "0", "wasabi": "0"}, counts  # fmt: skip
    assert page.locator("g.box.strip").count() == 0


def test_a_stacks_sheet_opens_at_its_top(server: Server, phone: Any) -> None:
    """A tap on a stack's nigiri opens its sheet at the top: its title and "No wasabi
    under it" in view. Focused on the box's own card, the sheet had opened scrolled down
    to it, those above the screen."""
    page = phone
    open_review(server, page, STACK_BOXES, STACK_PHOTO)
    box = page.locator('g.box[data-label="squid_on_wasabi"]').first
    box.evaluate("(g) => g.scrollIntoView({ block: 'center' })")
    frame = box.locator("rect.frame").bounding_box()
    page.touchscreen.tap(frame["x"] + frame["width"] / 2, frame["y"] + frame["height"] / 2)
    page.get_by_test_id("box-sheet-title").wait_for()
    idle(page)
    assert page.evaluate("() => document.getElementById('sheet').scrollTop") == 0
    in_view = """(e) => { const s = document.getElementById('sheet').getBoundingClientRect();
        const r = e.getBoundingClientRect(); return r.top >= s.top && r.bottom <= s.bottom; }"""
    assert page.get_by_test_id("box-sheet-title").evaluate(in_view)
    assert page.get_by_test_id("delete-strip").evaluate(in_view)


def test_a_boxs_delete_and_cancel_are_in_reach_on_a_small_phone(
    server: Server, browser: Any
) -> None:
    """At 320 x 640 the cards' grid had pushed "Delete this box" and Cancel below the
    screen, nothing saying the sheet scrolled (a walk-through): they stay at its foot,
    over the grid, and a tap on Delete deletes."""
    for page in touch_phone(browser, 320, 640):
        open_review(server, page, boxes_for(["tempura"] * 10, width=750, height=1000), (750, 1000))
        page.locator('g.box[data-label="tempura"]').first.tap()
        title = page.get_by_test_id("box-sheet-title")
        title.wait_for()
        idle(page)
        sheet = page.locator("#sheet")
        assert sheet.evaluate("(s) => s.scrollHeight > s.clientHeight + 40")  # it scrolls
        in_view = """(e) => { const s = document.getElementById('sheet').getBoundingClientRect();
            const r = e.getBoundingClientRect();
            return r.top >= s.top && r.bottom <= Math.min(s.bottom, innerHeight)
              && document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === e; }"""
        delete = page.get_by_test_id("delete-box")
        cancel = page.get_by_role("button", name="Cancel")
        assert title.evaluate(in_view)  # opened at its top
        assert delete.evaluate(in_view) and cancel.evaluate(in_view)
        assert delete.bounding_box()["y"] == cancel.bounding_box()["y"]  # on one line
        # A card reached with the keys comes out above the foot, not under it.
        for index in range(page.locator(".label-choice").count()):
            choice = page.locator(".label-choice").nth(index)
            choice.focus()
            assert choice.evaluate(in_view), index
        sheet.evaluate("(s) => s.scrollTo(0, s.scrollHeight)")
        assert delete.evaluate(in_view) and cancel.evaluate(in_view)
        delete.tap()
        idle(page)
        assert page.get_by_test_id("count-tempura").inner_text() == "9"


def test_confirmed_cards_offer_no_undo(server: Server, phone: Any) -> None:
    """Beside Done, Undo took back a change made before the confirmation, and the
    confirmation with it, unsaid: confirmed cards offer Done alone."""
    page = phone
    open_review(server, page, STACK_BOXES, STACK_PHOTO)
    page.get_by_test_id("plus-tempura").tap()
    idle(page)
    assert page.get_by_test_id("undo").is_enabled()
    page.get_by_test_id("confirm").click()
    page.get_by_test_id("confirm-anyway").click()  # 7 cards of a hand of 10
    page.wait_for_url("**round=1")
    page.get_by_test_id("review-1").click()
    page.get_by_test_id("done").wait_for()
    assert page.get_by_test_id("undo").count() == 0


def test_what_to_check_is_on_the_first_screen_and_nothing_widens_the_review(
    server: Server, phone: Any
) -> None:
    """A doubtful card's warning sits under the hand check, above the photo, where a
    reviewer sees it before the Confirm bar; a bold long card name (Chopsticks) does not
    push the review past the screen's margin."""
    page = phone
    labels = ["chopsticks", "tempura", "tempura", "sashimi", "pudding", "egg", "squid", "maki_2"]
    boxes = boxes_for(labels, width=750, height=1000)
    boxes[-1]["confidence"] = 0.4
    open_review(server, page, boxes, (750, 1000))
    page.evaluate("() => window.scrollTo(0, 0)")
    warning = page.get_by_test_id("warnings").locator("li.warning").first
    assert "under 50% certainty (maki of 2 rolls): check it" in warning.inner_text()
    bar = page.locator(".confirm-bar").bounding_box()
    box = warning.bounding_box()
    assert box["y"] + box["height"] <= bar["y"], (box, bar)
    # The bar keeps to one line at 320 px too ("Confirm", the name in its accessible name).
    assert bar["height"] < 75, bar
    assert page.get_by_role("button", name="Confirm Ana's cards").count() == 1
    assert box["y"] < page.get_by_test_id("photo").bounding_box()["y"]
    # The box it points at asks on the photo too: its tag ends in "?", the others do not.
    asking = page.locator("g.box.check")
    assert asking.count() == 1 and asking.get_attribute("data-label") == "maki_2"
    tag = page.locator(f'g.tag[data-box-id="{asking.get_attribute("data-box-id")}"]')
    assert tag.get_attribute("class") == "tag check"
    assert tag.locator("text").text_content().endswith(" ?")
    assert "check it" in asking.get_attribute("aria-label")
    others = page.locator("g.tag:not(.check) text").all_text_contents()
    assert others and not any(text.endswith("?") for text in others), others
    width = page.viewport_size["width"]
    right = page.evaluate(
        "() => Math.max(...[...document.querySelectorAll('.review *')].map("
        "(e) => e.getBoundingClientRect().right))"
    )
    assert right <= width - 10, (right, width)


def test_a_small_phones_first_screen_reaches_the_photo(server: Server, browser: Any) -> None:
    """At 320 x 640 the hand check (four bold lines) and two warnings had filled the first
    screen, the photo under the Confirm bar: its reason is said smaller, and the photo's
    top shows above the bar."""
    for page in touch_phone(browser, 320, 640):
        kinds = ["sashimi", "egg", "squid", "pudding", "dumpling"]
        boxes = boxes_for(["chopsticks"] * 5 + kinds * 2 + ["maki_2"], width=750, height=1000)
        boxes[-1]["confidence"] = 0.4
        open_review(server, page, boxes, (750, 1000), players=("Ana", "Ben", "Cy", "Di", "Ed"))
        page.evaluate("() => window.scrollTo(0, 0)")
        check = page.get_by_test_id("hand-check")
        said = "16 found: 9 cards may be a neighbour's, or counted twice"
        assert check.inner_text().endswith(said)
        sizes = check.evaluate(
            "(c) => [c, c.querySelector('.why')]"
            ".map((e) => parseFloat(getComputedStyle(e).fontSize))"
        )
        assert sizes[1] < sizes[0], sizes
        photo = page.locator("svg.photo, .photo svg").first.bounding_box()
        bar = page.locator(".confirm-bar").bounding_box()
        assert bar["y"] - photo["y"] >= 40, (photo, bar)


def columns_of(labels_by_column: list[list[str]], strip: int = 40) -> list[dict[str, Any]]:
    """Boxes of cards laid in columns on a 1000 x 750 photo, each covered card showing a
    strip of its top, the last card whole."""
    boxes = []
    for c, labels in enumerate(labels_by_column):
        x1 = 60 + c * 180
        for i, label in enumerate(labels):
            y1 = 60 + i * strip
            y2 = y1 + (222 if i == len(labels) - 1 else strip)
            boxes.append({"label": label, "confidence": 0.9, "box": [x1, y1, x1 + 150, y2]})
    return boxes


def test_a_covered_makis_tag_is_placed_before_others(server: Server, phone: Any) -> None:
    """In tight columns a covered maki's tag had been crowded out (a walk-through): its
    count is in icons too small to see, and the three maki's frames are alike reds. Its
    tag now takes its place before another kind's, whose frame's colour tells it."""
    page = phone
    labels = [
        ["tempura", "maki_2", "sashimi", "maki_3", "egg"],
        ["dumpling", "maki_1", "pudding", "tempura"],
        ["squid", "maki_2", "maki_1", "chopsticks"],
        ["salmon", "sashimi", "maki_3", "dumpling"],
    ]
    open_review(server, page, columns_of(labels), (1000, 750), players=("Ana", "Ben", "Cy"))
    shown = page.evaluate(
        """() => [...document.querySelectorAll('g.tag')].map((t) => [
          document.querySelector(`g.box[data-box-id="${t.dataset.boxId}"]`).dataset.label,
          t.style.display !== 'none'])"""
    )
    makis = [seen for label, seen in shown if label.startswith("maki_")]
    assert len(makis) == 6 and all(makis), shown
    assert not all(seen for _, seen in shown), shown  # room is short: another kind's gave way


def test_a_warning_about_cards_shows_them_on_the_photo(server: Server, phone: Any) -> None:
    """A warning that asks about cards is a button: a tap brings those cards between the
    top bar and the Confirm bar, closer, drawn thicker a moment. With warnings above it the photo
    starts under the bar (at 320 px wholly, on a printed-deck photo), the card asked
    about with it."""
    page = phone
    kinds = ["sashimi", "egg", "squid", "pudding", "dumpling"]
    labels = ["chopsticks"] * 5 + kinds * 2 + ["maki_2"]
    boxes = boxes_for(labels, width=750, height=1000)
    boxes[-1]["confidence"] = 0.4
    open_review(server, page, boxes, (750, 1000), players=("Ana", "Ben", "Cy", "Di", "Ed"))
    page.evaluate("() => window.scrollTo(0, 0)")
    frame = page.locator("g.box.check rect.frame")
    hidden = frame.bounding_box()
    assert hidden["y"] + hidden["height"] > page.locator(".confirm-bar").bounding_box()["y"]
    warnings = page.get_by_test_id("warnings")
    asking = re.compile(r"under 50% certainty .*Show it on the photo$")
    button = warnings.get_by_role("button", name=asking)
    assert button.count() == 1
    button.tap()
    box = frame.bounding_box()
    # Closer, to read its icons: on the collection's view a card is some 50 px wide.
    assert box["width"] > 1.5 * hidden["width"], (box, hidden)
    assert page.locator("svg.photo.zoomed, svg.zoomed").count() == 1
    top = page.locator(".topbar").bounding_box()
    bar = page.locator(".confirm-bar").bounding_box()
    assert top["y"] + top["height"] <= box["y"] and box["y"] + box["height"] <= bar["y"], (
        box, top, bar,
    )  # fmt: skip
    assert page.locator("g.box.shown").count() == 1
    assert page.locator("g.box.shown").get_attribute("data-label") == "maki_2"
    page.locator("g.box.shown").wait_for(state="detached", timeout=5_000)
    # What is about no card in particular (more chopsticks than the deck holds) is words.
    words = warnings.locator("li", has_text="chopsticks")
    assert words.count() == 1 and words.locator("button").count() == 0, words.all_inner_texts()


@pytest.mark.parametrize("size", [(1024, 768), (1366, 768), (768, 1024)], ids=str)
def test_on_a_tablet_or_a_laptop_the_photo_fits_above_the_confirm_bar(
    server: Server, browser: Any, size: tuple[int, int]
) -> None:
    """The photo's frame, and every card in it, above the Confirm bar on the first screen
    (3-5 cards had lain under it on a tablet held sideways and a laptop); beside the photo,
    what to check sits over the counters."""
    screen = touch_phone(browser, *size)
    page = next(screen)
    boxes = boxes_for(["tempura", "sashimi", "egg", "squid", "pudding"] * 2, width=750, height=1000)
    boxes[-1]["confidence"] = 0.4
    open_review(server, page, boxes, (750, 1000))
    page.evaluate("() => window.scrollTo(0, 0)")
    frame = page.get_by_test_id("photo").bounding_box()
    bar = page.locator(".confirm-bar").bounding_box()["y"]
    assert frame["y"] + frame["height"] <= bar, (frame, bar)
    cards = page.locator("g.box rect.frame").evaluate_all(
        "(rs) => rs.map((r) => r.getBoundingClientRect().bottom)"
    )
    assert len(cards) == 10 and max(cards) <= bar, (cards, bar)
    assert frame["width"] >= 280
    if size[0] > 900:  # side by side: the warnings over the counters, right of the photo
        warnings = page.get_by_test_id("warnings").bounding_box()
        assert warnings["x"] >= frame["x"] + frame["width"], (warnings, frame)
        # A box's sheet beside the photo, from under the top bar: every choice and Delete
        # in sight, where the room below the box had cut them off. The page stays put, the
        # box in sight (it had scrolled the box to the top, the photo jumping).
        scrolled = page.evaluate("() => window.scrollY")
        page.locator('g.box[data-label="tempura"]').first.tap()
        delete = page.get_by_role("button", name="Delete this box")
        delete.wait_for()
        assert page.evaluate("() => window.scrollY") == scrolled
        sheet = page.locator("#sheet")
        assert sheet.evaluate("(s) => s.scrollHeight <= s.clientHeight + 1")
        box = delete.bounding_box()
        assert box["y"] + box["height"] <= size[1], box
    next(screen, None)


def test_a_long_name_keeps_the_confirm_bar_to_one_line(server: Server, phone: Any) -> None:
    """ "Confirm Bartholomew's cards" had wrapped onto two lines at 390 px: the name is cut
    short instead (whole in the button's accessible name)."""
    page = phone
    boxes = boxes_for(["tempura"] * 10, width=750, height=1000)
    open_review(server, page, boxes, (750, 1000), players=("Bartholomew Fitzgerald", "Ben"))
    bar = page.locator(".confirm-bar").bounding_box()
    assert bar["height"] < 75, bar
    button = page.get_by_role("button", name="Confirm Bartholomew Fitzgerald's cards")
    assert button.evaluate("(b) => b.getClientRects().length") == 1
    box = button.bounding_box()
    assert box["height"] < 50 and box["x"] + box["width"] <= page.viewport_size["width"], box
    # The heading's round is whole on one line, never a "·" left at a line's end.
    small = page.locator(".review-head h1 small")
    assert small.text_content() == "round 1"
    tops = small.evaluate("(s) => [...s.getClientRects()].map((r) => Math.round(r.top))")
    assert len(set(tops)) == 1, tops


def test_a_short_name_is_whole_in_the_confirm_bar(server: Server, phone: Any) -> None:
    """At 390 px "Confirm Ana's cards" had been cut to "Confirm A…" beside Undo and
    "10/10 cards": the bar says "10/10" on a phone, and the name fits whole."""
    page = phone
    open_review(server, page, boxes_for(["tempura"] * 10, width=750, height=1000), (750, 1000))
    check = page.get_by_test_id("bar-check")
    assert check.text_content() == "10/10 cards"  # what a screen reader says
    assert check.locator(".unit").bounding_box()["width"] <= 1  # "cards" unseen
    whose = page.locator(".confirm-bar .whose")
    if page.viewport_size["width"] <= 340:
        assert not whose.is_visible()  # "Confirm" alone, as before
        return
    assert whose.evaluate("(w) => w.scrollWidth <= w.clientWidth"), whose.bounding_box()
    assert page.get_by_test_id("undo").is_visible()


def test_the_box_list_counts_the_cards_set_by_hand(server: Server, phone: Any) -> None:
    """Two dumplings added with + show on no box: the list's button says so, so that its
    count and the counters' agree."""
    page = phone
    open_review(server, page, boxes_for(["tempura"] * 8, width=750, height=1000), (750, 1000))
    for _ in range(2):
        page.get_by_test_id("plus-dumpling").click()
        idle(page)
    button = page.get_by_test_id("box-list-button")
    assert button.inner_text().endswith("List the boxes (8 boxes, 8 cards; 2 more set by hand)")


def test_choosing_a_boxs_own_card_counts_it_or_says_it_is_right(server: Server, phone: Any) -> None:
    """A box not counted (too unsure) is counted, and a box asked about ("?") is taken as
    read, by choosing the card it already names: before, that choice did nothing."""
    page = phone
    # Ten cards counted, the hand of two players: no search for a missed card takes the
    # dumpling read at 10 % before the player does.
    labels = ["tempura", "tempura", "sashimi", "sashimi", "sashimi", "pudding", "pudding"]
    labels += ["egg", "maki_2", "squid", "dumpling"]
    boxes = boxes_for(labels, width=750, height=1000)
    boxes[-1]["confidence"] = 0.1  # under the reading's floor: not counted
    boxes[-2]["confidence"] = 0.4  # counted, and asked about
    open_review(server, page, boxes, (750, 1000))
    assert page.get_by_test_id("count-dumpling").inner_text() == "0"
    assert page.locator("g.box.check").get_attribute("data-label") == "squid"
    page.locator("g.box.check").focus()
    page.keyboard.press("Enter")
    assert page.get_by_test_id("box-asks").inner_text() == (
        "1 card read with under 50% certainty (squid nigiri): check it"
    )
    # Its certainty written as the warnings write theirs ("40%", not "40 %").
    assert "Found by the detector (40% sure)." in page.get_by_test_id("sheet").inner_text()
    close_sheet(page)
    for label in ("dumpling", "squid"):
        page.locator(f'g.box[data-label="{label}"]').focus()
        page.keyboard.press("Enter")
        page.locator(f'.label-grid [data-label="{label}"]').click()
        idle(page)
    assert page.get_by_test_id("count-dumpling").inner_text() == "1"
    assert page.locator("g.box.check").count() == 0
    assert page.get_by_test_id("warnings").count() == 0
    # The list says the two are set by the player, not how sure the detector was.
    page.get_by_test_id("box-list-button").tap()
    items = page.locator('[data-testid^="box-item-"]').all_inner_texts()
    assert [i for i in items if "set by you" in i] == [
        "Squid nigiri (set by you)",
        "Dumpling (set by you)",
    ]


def test_cards_left_out_as_another_players_are_shown_and_counted_by_a_tap(
    server: Server, phone: Any
) -> None:
    """Two cards at the photo's edge left out as the next player's: the warning shows
    them on the photo, each not counted and saying why, with no "?" (leaving them out is
    what it did); choosing its own card counts it."""
    page = phone
    open_review(server, page, WITH_NEIGHBOURS, NEIGHBOUR_PHOTO)
    assert page.get_by_test_id("count-tempura").inner_text() == "0"
    assert page.get_by_test_id("show-asked-0").inner_text().startswith(LEFT_OUT_TWO)
    assert page.locator("g.box.check").count() == 0
    left_out = page.locator("g.box.uncounted")
    assert left_out.count() == 2
    assert left_out.first.get_attribute("aria-label") == (
        "Tempura (left out as another player's): change or delete"
    )
    tags = page.locator("svg g.tag text").evaluate_all("(ts) => ts.map((t) => t.textContent)")
    assert sorted(tags)[-2:] == ["Tempura", "Tempura"]
    left_out.first.focus()
    page.keyboard.press("Enter")
    assert (
        "It is not counted: it was left out as another player's card. If it is this "
        "player's, tap its card to count it" in page.get_by_test_id("sheet").inner_text()
    )
    page.locator('.label-grid [data-label="tempura"]').click()
    idle(page)
    assert page.get_by_test_id("count-tempura").inner_text() == "1"
    assert page.locator("g.box.uncounted").count() == 1
    page.get_by_test_id("box-list-button").click()
    items = page.locator('[data-testid^="box-item-"]').all_inner_texts()
    assert items[-2:] == ["Tempura (set by you)", "Tempura 90% · left out"]
    assert page.get_by_test_id("box-count-note").inner_text() == (
        "12 boxes, 11 cards: 1 box left out as another player's."
    )


def test_another_players_card_counted_is_left_out_from_its_sheet(
    server: Server, phone: Any
) -> None:
    """The reading counted a card of the next player's: its sheet's last choice leaves it
    out, and it stays on the photo, not counted; Undo counts it again."""
    page = phone
    records = [
        *WITH_NEIGHBOURS[:9],
        {"label": "tempura", "confidence": 0.9, "box": [0, 400, 80, 518]},
    ]
    open_review(server, page, records, NEIGHBOUR_PHOTO)
    assert page.get_by_test_id("count-tempura").inner_text() == "1"
    page.locator('g.box[data-label="tempura"]').focus()
    page.keyboard.press("Enter")
    page.get_by_test_id("leave-out").click()
    idle(page)
    assert page.get_by_test_id("count-tempura").inner_text() == "0"
    assert page.locator('g.box.uncounted[data-label="tempura"]').count() == 1
    page.locator('g.box[data-label="tempura"]').focus()
    page.keyboard.press("Enter")
    assert page.get_by_test_id("leave-out").count() == 0  # left out already
    close_sheet(page)
    page.get_by_test_id("undo").click()
    idle(page)
    assert page.get_by_test_id("count-tempura").inner_text() == "1"


def test_the_cards_left_out_are_swapped_for_those_counted_with_one_tap(
    server: Server, phone: Any
) -> None:
    """Where the reading took the next player's collection for this one, the warning that
    cards were left out offers to count them and leave out the rest: one tap, where each
    card had taken two; Undo turns both sides back."""
    page = phone
    open_review(server, page, WITH_NEIGHBOURS, NEIGHBOUR_PHOTO)
    assert page.get_by_test_id("count-sashimi").inner_text() == "6"
    swap = page.get_by_test_id("swap-left-out")
    assert swap.inner_text() == "Count them instead"
    box = swap.bounding_box()
    assert box is not None and box["height"] >= 44  # a finger's tap
    assert box["x"] + box["width"] <= page.viewport_size["width"]
    swap.dblclick()  # a double tap swaps once (the second would be refused)
    idle(page)
    counts = {k: page.get_by_test_id(f"count-{k}").inner_text() for k in ("tempura", "sashimi")}
    assert counts == {"tempura": "2", "sashimi": "0"}
    assert page.locator("g.box.uncounted").count() == 10
    assert page.get_by_test_id("swap-left-out").count() == 0  # its warning seen to
    page.get_by_test_id("undo").click()
    idle(page)
    assert page.get_by_test_id("count-sashimi").inner_text() == "6"
    assert page.locator("g.box.uncounted").count() == 2
    assert page.get_by_test_id("swap-left-out").count() == 1


def test_a_hand_with_a_neighbours_cards_left_out_confirms_at_once(
    server: Server, phone: Any
) -> None:
    """The hand right once the next player's cards were left out: Confirm asks nothing."""
    page = phone
    open_review(server, page, WITH_NEIGHBOURS, NEIGHBOUR_PHOTO)
    page.get_by_test_id("confirm").click()
    page.wait_for_url("**round=1")
    assert page.get_by_test_id("confirm-question").count() == 0


def test_confirm_asks_first_while_a_card_is_still_marked(server: Server, phone: Any) -> None:
    """The hand right but a card still marked "?": Confirm asks first, naming it; Keep
    reviewing confirms nothing; once the card is taken as read, Confirm confirms at once."""
    page = phone
    labels = ["tempura", "tempura", "sashimi", "sashimi", "sashimi", "pudding", "pudding"]
    boxes = boxes_for([*labels, "egg", "maki_2", "squid"], width=750, height=1000)
    boxes[-1]["confidence"] = 0.4
    open_review(server, page, boxes, (750, 1000))
    page.get_by_test_id("confirm").click()
    question = page.get_by_test_id("confirm-question")
    assert question.inner_text() == "1 card still marked “?”: confirm anyway?"
    page.get_by_test_id("confirm-cancel").click()
    idle(page)
    assert page.get_by_test_id("confirm").is_visible()  # not confirmed
    page.locator("g.box.check").focus()
    page.keyboard.press("Enter")
    page.locator('.label-grid [data-label="squid"]').click()
    idle(page)
    page.get_by_test_id("confirm").click()
    page.wait_for_url("**round=1")  # confirmed: back to the round
    assert question.count() == 0
    # The confirmed review's bar keeps to one line, at 320 px too (it had taken two
    # lines, three at 320 px, over the photo's bottom).
    page.get_by_test_id("review-1").click()
    done = page.get_by_test_id("done")
    done.wait_for()
    assert page.locator(".confirm-bar").bounding_box()["height"] < 75
    wide = page.viewport_size["width"] >= 390
    said = " ".join(done.inner_text().split())
    assert said == ("Done · back to the round" if wide else "Done"), said
    assert "Confirmed" in page.get_by_test_id("review-status").inner_text()


def test_a_stack_the_hand_size_read_back_is_marked_and_can_be_taken_as_read(
    server: Server, phone: Any
) -> None:
    """The hand one card short, the egg the stack check called on a wasabi is read as the
    stack: the warning says so, the stack asks with "?", the hand check names its tag
    (a plain nigiri may ask with "?" too), and choosing the stack it names
    takes it as read, so that the warning goes."""
    page = phone
    labels = ["tempura", "tempura", "sashimi", "sashimi", "dumpling", "pudding", "maki_2"]
    boxes = boxes_for([*labels, "squid", "egg"], width=750, height=1000)
    boxes[-1]["wasabi_under"] = 0.97
    open_review(server, page, boxes, (750, 1000))  # two players: a hand of 10, 9 found
    told = page.get_by_test_id("warnings").locator("li.warning").all_inner_texts()
    assert any("read as lying on a wasabi" in text for text in told), told
    # The count holds only on the supposed stack: no green tick (it had shown one).
    check = page.get_by_test_id("hand-check")
    assert check.get_attribute("class") == "hand-check supposed"
    said = " ".join(check.inner_text().split())
    assert said == "? 10 cards expected, 10 found if the stack tagged “Egg on wasabi ?” is right"
    tags = page.locator("g.tag.check text").all_text_contents()
    assert tags == ["Egg on wasabi ?"], tags  # the tag it names
    assert "supposed" in page.get_by_test_id("bar-check").get_attribute("class")
    asking = page.locator("g.box.check")
    assert asking.count() == 1 and asking.get_attribute("data-label") == "egg_on_wasabi"
    asking.focus()
    page.keyboard.press("Enter")
    said = page.get_by_test_id("sheet").inner_text()
    assert "If the stack is right, tap it below; if not, what it really is:" in said
    # The sheet says what to check of it, as the warning does.
    asked = page.get_by_test_id("box-asks").locator("li").all_inner_texts()
    assert len(asked) == 1 and "read as lying on a wasabi" in asked[0], asked
    page.locator('.label-grid [data-label="egg_on_wasabi"]').click()
    idle(page)
    assert page.locator("g.box.check").count() == 0
    assert page.get_by_test_id("warnings").count() == 0
    assert page.get_by_test_id("count-egg_on_wasabi").inner_text() == "1"
    assert check.get_attribute("class") == "hand-check ok"  # the player's own stack
    assert " ".join(check.inner_text().split()) == "✓ 10 cards expected, 10 found"
    assert page.get_by_test_id("bar-check").get_attribute("class") == "bar-check ok"


def test_a_note_is_told_apart_from_the_warnings(server: Server, phone: Any) -> None:
    """A photo whose cards lay on their side is read turned: the page says so as a note
    (quiet, last), not as a warning that asks for a check."""
    page = phone
    game = new_game(server, ["Ana", "Ben"])
    labels = ["tempura", "tempura", "sashimi", "dumpling", "pudding", "maki_2", "egg", "squid"]
    doubtful = [{**record, "confidence": 0.5} for record in boxes_for(labels)]
    server.detector.register((900, 700), doubtful)  # as sent: doubtful, so turned
    server.detector.register((700, 900), boxes_for(labels, width=700, height=900))
    page.goto(edit_url(server, game))
    page.get_by_test_id("camera-1").set_input_files(
        {"name": "cards.jpg", "mimeType": "image/jpeg", "buffer": jpeg((900, 700))}
    )
    page.get_by_test_id("hand-check").wait_for()
    idle(page)
    told = page.get_by_test_id("warnings")
    notes = told.locator("li.note").all_inner_texts()
    assert len(notes) == 1 and "read turned 90° clockwise" in notes[0], notes
    assert told.locator("li.warning", has_text="read turned").count() == 0
    assert told.locator("li").last.inner_text() == notes[0]  # after any warning
    colours = page.evaluate(
        """() => [getComputedStyle(document.querySelector(".problems li.note")).color,
                  getComputedStyle(document.documentElement).getPropertyValue("--warn")]"""
    )
    assert colours[0] != "rgb(138, 90, 0)" and colours[1].strip() == "#8a5a00", colours


def test_back_with_a_card_sheet_open_closes_the_sheet_alone(server: Server, phone: Any) -> None:
    """A phone's Back while a box's sheet is open closes the sheet, as Back closes any
    dialog on a phone, and the review stays (it had left the review). The next Back leaves
    the review; so does the first Back after a sheet closed by a tap, in one step."""
    page = phone
    open_review(server, page, STACK_BOXES, STACK_PHOTO)
    review = page.url
    sheet_open = "() => document.getElementById('sheet').open"

    def open_sheet() -> None:
        page.locator("g.box.strip").first.evaluate("(g) => g.scrollIntoView({ block: 'center' })")
        strip = page.locator("g.box.strip rect.frame").first.bounding_box()
        page.touchscreen.tap(strip["x"] + strip["width"] / 2, strip["y"] + strip["height"] / 2)
        page.get_by_test_id("box-sheet-title").wait_for()

    open_sheet()
    page.go_back(wait_until="commit")
    page.wait_for_function(f"() => !({sheet_open})()")
    idle(page)
    assert page.url == review
    assert page.get_by_test_id("hand-check").is_visible()
    # The box's mark goes with the dialog's close event, a moment after it closed.
    page.wait_for_function("() => !document.querySelector('g.box.chosen')")
    # Closed by its Cancel, the sheet takes its history entry with it.
    open_sheet()
    page.locator("#sheet button", has_text="Cancel").tap()
    page.wait_for_function(f"() => !({sheet_open})()")
    idle(page)
    page.wait_for_function("() => !history.state?.sheet")
    page.go_back(wait_until="commit")
    page.wait_for_function("(review) => location.href !== review", arg=review)
    idle(page)
    assert page.get_by_test_id("hand-check").count() == 0
    assert page.evaluate(sheet_open) is False


# --- tapping crowded boxes -----------------------------------------------------------------

COLUMN_PHOTO = (1000, 750)
# A column of overlapped cards as a phone sees it from across the table: each covered
# card shows its top strip above the next, 50 photo px (about 18 CSS px at 390 px wide),
# their centres 47 px (17 CSS px) apart; a wasabi strip above a salmon is a stack. Beside
# it, a few whole cards in a row, close together.
COLUMN_BOXES = [
    {"label": "wasabi", "confidence": 0.9, "box": [420, 120, 580, 170]},
    {"label": "salmon", "confidence": 0.9, "box": [420, 167, 580, 217]},
    {"label": "tempura", "confidence": 0.9, "box": [420, 214, 580, 264]},
    {"label": "sashimi", "confidence": 0.9, "box": [420, 261, 580, 311]},
    {"label": "dumpling", "confidence": 0.9, "box": [420, 308, 580, 358]},
    {"label": "squid", "confidence": 0.9, "box": [420, 355, 580, 592]},
    {"label": "maki_2", "confidence": 0.9, "box": [100, 400, 260, 637]},
    {"label": "chopsticks", "confidence": 0.9, "box": [262, 400, 418, 637]},
    {"label": "pudding", "confidence": 0.9, "box": [600, 400, 760, 637]},
    {"label": "egg", "confidence": 0.9, "box": [762, 400, 922, 637]},
]

BOX_RECTS = """() => [...document.querySelectorAll("g.box")].map((g) => {
  const r = g.querySelector("rect.frame").getBoundingClientRect();
  return { id: Number(g.dataset.boxId), label: g.dataset.label,
           strip: g.classList.contains("strip"), x: r.left, y: r.top, w: r.width, h: r.height };
})"""

TAG_RECTS = """() => {
  const svg = document.querySelector('[data-testid="photo"]').getBoundingClientRect();
  const tags = [...document.querySelectorAll("g.tag")]
    .filter((t) => getComputedStyle(t).display !== "none")
    .map((t) => {
      const r = t.querySelector("rect").getBoundingClientRect();
      const s = t.querySelector("text").getBoundingClientRect();
      return { name: t.textContent, x1: Math.min(r.left, s.left), y1: Math.min(r.top, s.top),
               x2: Math.max(r.right, s.right), y2: Math.max(r.bottom, s.bottom) };
    });
  return { svg: { x1: svg.left, y1: svg.top, x2: svg.right, y2: svg.bottom }, tags,
           hidden: document.querySelectorAll("g.tag[data-names]").length - tags.length };
}"""

# The frames painted over a tag (later in document order) where they cross it, by name:
# a frame drawn over a tag crosses its words out ("Tempu|ra").
FRAMES_OVER_TAGS = """() => {
  const meets = (a, b) =>
    a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const crossed = [];
  for (const tag of document.querySelectorAll("g.tag")) {
    if (getComputedStyle(tag).display === "none") continue;
    const r = tag.querySelector("rect").getBoundingClientRect();
    for (const frame of document.querySelectorAll("g.box rect.frame")) {
      const later = tag.compareDocumentPosition(frame) & Node.DOCUMENT_POSITION_FOLLOWING;
      if (later && meets(r, frame.getBoundingClientRect())) {
        crossed.push(`${tag.textContent} by ${frame.parentNode.dataset.label}`);
      }
    }
  }
  return crossed;
}"""

# The tags that lie over their own box's top-left corner, where the card's icon is (tells
# the look-alikes apart), though half the box's width would hold them (boxes whole in
# view: a tag keeps to the part of its box in view).
ICONS_COVERED = """() => {
  const fitting = [...document.querySelectorAll("g.tag")]
    .filter((tag) => getComputedStyle(tag).display !== "none")
    .map((tag) => {
      const t = tag.querySelector("rect").getBoundingClientRect();
      const frame = `g.box[data-box-id="${tag.dataset.boxId}"] rect.frame`;
      const b = document.querySelector(frame).getBoundingClientRect();
      const onIcon = t.left < b.left + b.width / 3 && t.bottom > b.top && t.top < b.top + t.height;
      const shown = document.querySelector('[data-testid="photo"]').getBoundingClientRect();
      const whole = b.left >= shown.left && b.right <= shown.right;  // not cut by the view
      return { name: tag.textContent, fits: whole && t.width < b.width / 2, onIcon };
    })
    .filter((tag) => tag.fits);
  return { fitting: fitting.length, covered: fitting.filter((t) => t.onIcon).map((t) => t.name) };
}"""

CENTRE_COLUMN = """() => {
  const g = document.querySelector("g.box.strip") || document.querySelector("g.box");
  g.querySelector("rect.frame").scrollIntoView({ block: "center" });
}"""


CHOSEN = """() => {
  const title = document.querySelector('[data-testid=box-sheet-title]').textContent;
  const chosen = [...document.querySelectorAll('g.box.chosen')].map((g) => g.outerHTML);
  const g = document.querySelector('g.box.chosen:not(.strip)');
  if (!g) throw new Error(`nothing marked: ${title} ${chosen}`);
  return Number(g.dataset.boxId);
}"""


def close_sheet(page: Any) -> None:
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('#sheet').open")


def tap_means(page: Any, x: float, y: float) -> list[int]:
    """The box ids a tap at (x, y) offers: the one whose sheet opens, or the chooser's."""
    page.touchscreen.tap(x, y)
    page.wait_for_function(
        "() => document.querySelector('#sheet[open]')"
        "  ?.querySelector('[data-testid=box-sheet-title], [data-testid=chooser]')"
    )
    chooser = page.get_by_test_id("chooser")
    if chooser.count():
        shot(page, "chooser.png")
        ids = chooser.locator("button").evaluate_all(
            "(bs) => bs.map((b) => Number(b.dataset.testid.split('-').pop()))"
        )
    else:
        ids = [page.evaluate(CHOSEN)]
    close_sheet(page)
    return ids


def test_every_box_of_a_column_can_be_tapped(server: Server, phone: Any) -> None:
    page = phone
    open_review(server, page, COLUMN_BOXES, COLUMN_PHOTO)
    page.evaluate(CENTRE_COLUMN)
    boxes = page.evaluate(BOX_RECTS)
    assert min(b["h"] for b in boxes) < 24  # as crowded as the issue's photo
    by_id = {b["id"]: b for b in boxes}
    stack_top = {
        b["id"]: page.evaluate(
            "(id) => { const s = document.querySelector(`g.box[data-box-id='${id}']`);"
            " return s.dataset.stack ? Number([...document.querySelectorAll('g.box:not(.strip)')]"
            ".find((g) => g.dataset.stack === s.dataset.stack).dataset.boxId) : id; }",
            b["id"],
        )
        for b in boxes
    }
    # What a tap means: a box, or a stack with its wasabi strip as one (their union).
    things: dict[int, list[float]] = {}
    for b in boxes:
        x1, y1, x2, y2 = b["x"], b["y"], b["x"] + b["w"], b["y"] + b["h"]
        u = things.get(stack_top[b["id"]], [x1, y1, x2, y2])
        things[stack_top[b["id"]]] = [min(u[0], x1), min(u[1], y1), max(u[2], x2), max(u[3], y2)]
    assert len(things) == 9, things  # ten boxes, one stack
    area = {i: (u[2] - u[0]) * (u[3] - u[1]) for i, u in things.items()}
    for meant, (x1, y1, x2, y2) in things.items():
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        # At its centre, and 21 CSS px above, below, left and right of it (the edges of
        # a 44 px target), whatever its own size.
        for dx, dy in ((0, 0), (0, -21), (0, 21), (-21, 0), (21, 0)):
            page.evaluate(CENTRE_COLUMN)
            offered = tap_means(page, cx + dx, cy + dy)
            assert meant in offered, (meant, dx, dy, offered)
            if len(offered) > 1:  # the chooser: largest first
                sizes = [area[i] for i in offered]
                assert all(a >= 0.99 * b for a, b in itertools.pairwise(sizes)), offered
    assert set(stack_top.values()) <= set(by_id)


FRAME_EDGE = """(id) => {
  const r = document.querySelector(`g.box[data-box-id="${id}"] rect.frame`);
  r.scrollIntoView({ block: "center" });
  const b = r.getBoundingClientRect();
  return { x: b.left, y: b.top + b.height / 2 };
}"""


def frame_width(page: Any, box_id: int) -> int:
    """The on-screen width, in device px, of a box's frame: the run of pixels across its
    left edge, at its middle, that are not the photo's plain green."""
    edge = page.evaluate(FRAME_EDGE, box_id)
    clip = {"x": edge["x"] - 12, "y": edge["y"] - 1, "width": 24, "height": 2}
    shot = Image.open(io.BytesIO(page.screenshot(clip=clip))).convert("RGB")
    row = [shot.getpixel((x, shot.height // 2)) for x in range(shot.width)]
    return sum(max(abs(c - g) for c, g in zip(px, (40, 90, 60), strict=True)) > 50 for px in row)


def test_frames_keep_their_width_as_the_photo_zooms(server: Server, phone: Any) -> None:
    """A box's frame is as wide on screen zoomed in as out (zoomed in it had grown with
    the photo, over the card's edge it marks)."""
    page = phone
    boxes = [
        {"label": "tempura", "confidence": 0.9, "box": [440, 250, 560, 470]},
        {"label": "squid", "confidence": 0.9, "box": [300, 250, 420, 470]},
    ]
    open_review(server, page, boxes, (1000, 750))
    box_id = page.locator('g.box[data-label="tempura"]').get_attribute("data-box-id")
    opened = frame_width(page, int(box_id))
    for _ in range(3):
        page.get_by_test_id("zoom-in").tap()
    idle(page)
    zoomed = frame_width(page, int(box_id))
    assert 4 <= opened <= 8 and 4 <= zoomed <= 8, (opened, zoomed)  # 3 CSS px, at 2x
    assert abs(zoomed - opened) <= 1, (opened, zoomed)


def test_the_chooser_tells_boxes_of_one_name_apart(server: Server, phone: Any) -> None:
    """Three tempura in a column under one finger: the buttons come top to bottom, each
    saying where its box lies, and the one a warning points at asks with "?", as its tag
    does."""
    page = phone
    column = [
        {"label": "tempura", "confidence": 0.9, "box": [420, 120, 580, 170]},
        {"label": "tempura", "confidence": 0.4, "box": [420, 167, 580, 217]},
        {"label": "tempura", "confidence": 0.9, "box": [420, 214, 580, 451]},
        {"label": "sashimi", "confidence": 0.9, "box": [100, 400, 260, 637]},
    ]
    open_review(server, page, column, COLUMN_PHOTO)
    page.get_by_test_id("zoom-whole").tap()  # the strips 17 CSS px apart, under one finger
    page.evaluate(CENTRE_COLUMN)
    middle = next(b for b in page.evaluate(BOX_RECTS) if b["id"] == 2)
    page.touchscreen.tap(middle["x"] + middle["w"] / 2, middle["y"] + middle["h"] / 2)
    chooser = page.get_by_test_id("chooser")
    chooser.wait_for()
    said = list(
        zip(
            chooser.locator("button").evaluate_all(
                "(bs) => bs.map((b) => Number(b.dataset.testid.split('-').pop()))"
            ),
            chooser.locator("button").all_inner_texts(),
            strict=True,
        )
    )
    # Box ids here count down the column: the offered ones, in order, top to bottom.
    words = {2: ["top", "bottom"], 3: ["top", "middle", "bottom"]}[len(said)]
    ids = sorted(ident for ident, _ in said)
    expected = [
        (ident, f"Tempura, the {word} one" + (" ?" if ident == 2 else ""))
        for ident, word in zip(ids, words, strict=True)
    ]
    assert 2 in ids and said == expected, said
    # The box chosen, its sheet takes the chooser's place, the focus on the box's card (it
    # had fallen to the page under the sheet).
    chooser.locator("button").first.click()
    page.get_by_test_id("box-sheet-title").wait_for()
    pressed = "() => [document.activeElement.dataset.label, document.activeElement.ariaPressed]"
    assert page.evaluate(pressed) == ["tempura", "true"]
    close_sheet(page)


def test_the_chooser_orders_four_of_one_name_in_words(server: Server, phone: Any) -> None:
    """Four tempura strips under one finger: "the second from the top one" and so on, not
    "number 2 from the top one"."""
    page = phone
    column = [
        {"label": "tempura", "confidence": 0.9, "box": [420, 120 + 30 * k, 580, 152 + 30 * k]}
        for k in range(4)
    ]
    open_review(server, page, column, COLUMN_PHOTO)
    page.get_by_test_id("zoom-whole").tap()  # each strip a few CSS px: all four in reach
    page.evaluate(CENTRE_COLUMN)
    rects = {b["id"]: b for b in page.evaluate(BOX_RECTS)}
    x = rects[2]["x"] + rects[2]["w"] / 2
    y = (rects[2]["y"] + rects[3]["y"] + rects[3]["h"]) / 2
    page.touchscreen.tap(x, y)
    chooser = page.get_by_test_id("chooser")
    chooser.wait_for()
    assert chooser.locator("button").all_inner_texts() == [
        "Tempura, the top one",
        "Tempura, the second from the top one",
        "Tempura, the third from the top one",
        "Tempura, the bottom one",
    ]
    close_sheet(page)


def tags_apart_and_inside(page: Any) -> dict[str, Any]:
    found = page.evaluate(TAG_RECTS)
    svg, tags = found["svg"], found["tags"]
    for tag in tags:
        assert svg["x1"] - 0.5 <= tag["x1"] and tag["x2"] <= svg["x2"] + 0.5, (tag, svg)
        assert svg["y1"] - 0.5 <= tag["y1"] and tag["y2"] <= svg["y2"] + 0.5, (tag, svg)
    for i, a in enumerate(tags):
        for b in tags[i + 1 :]:
            apart = (
                a["x2"] <= b["x1"] or b["x2"] <= a["x1"] or a["y2"] <= b["y1"] or b["y2"] <= a["y1"]
            )
            assert apart, (a, b)
    return found


def test_tags_do_not_overlap_or_leave_the_photo(server: Server, phone: Any) -> None:
    page = phone
    open_review(server, page, COLUMN_BOXES, COLUMN_PHOTO)
    page.evaluate(CENTRE_COLUMN)
    page.wait_for_function("() => document.querySelector('g.tag rect').getAttribute('width')")
    # As it opens, on the cards: every box keeps its tag, in full.
    assert page.evaluate(FRAMES_OVER_TAGS) == []
    assert page.evaluate(ICONS_COVERED)["covered"] == []
    found = tags_apart_and_inside(page)
    assert found["hidden"] == 0, found
    names = sorted(t["name"] for t in found["tags"])
    every = ["Squid", "Maki 2", "Pudding", "Egg", "Chopsticks", "Salmon on wasabi"]
    assert names == sorted([*every, "Tempura", "Sashimi", "Dumpling"]), found
    # The whole photo, where the column is tighter still: beside their boxes, all fit. (A
    # tag that fits nowhere is left out, the list naming its box, never drawn over another.)
    page.get_by_test_id("zoom-whole").tap()
    page.wait_for_function(f"() => ({VIEW})()[2] === {COLUMN_PHOTO[0]}")
    found = tags_apart_and_inside(page)
    assert found["hidden"] == 0, found
    # Close, where half a box holds its tag, no tag lies on its card's top-left icon.
    for _ in range(3):
        page.get_by_test_id("zoom-in").tap()
    page.evaluate(CENTRE_COLUMN)
    page.wait_for_timeout(100)  # the tags are laid out on the next frame
    icons = page.evaluate(ICONS_COVERED)
    assert icons["fitting"] >= 2 and icons["covered"] == [], icons
    # A box out of view has no tag (kept inside the view, it had lain on another card).
    out = page.evaluate(
        """() => {
          const [vx, vy, vw, vh] = document.querySelector('[data-testid="photo"]')
            .getAttribute("viewBox").split(" ").map(Number);
          return [...document.querySelectorAll("g.tag")].map((tag) => {
            const g = document.querySelector(`g.box[data-box-id="${tag.dataset.boxId}"]`);
            const [x1, y1, x2, y2] = JSON.parse(g.dataset.xyxy);
            const seen = x1 < vx + vw && vx < x2 && y1 < vy + vh && vy < y2;
            return [seen, tag.style.display !== "none"];
          });
        }"""
    )
    assert any(not seen for seen, _ in out), out  # some boxes lie out of view
    assert all(shown == seen for seen, shown in out if not seen), out


def test_the_box_being_changed_stays_in_view_and_marked(server: Server, phone: Any) -> None:
    page = phone
    open_review(server, page, COLUMN_BOXES, COLUMN_PHOTO)
    page.get_by_test_id("box-list-button").tap()
    egg = next(b for b in COLUMN_BOXES if b["label"] == "egg")
    item = page.locator('[data-testid^="box-item-"]', has_text="Egg")
    item.tap()
    page.get_by_test_id("box-sheet-title").wait_for()
    # The card's whole name, as the counters say it (it had said "Egg", the tag's word).
    assert page.get_by_test_id("box-sheet-title").inner_text() == "This card: Egg nigiri"
    chosen = page.locator("g.box.chosen")
    assert chosen.count() == 1 and chosen.get_attribute("data-label") == egg["label"]
    frame = chosen.locator("rect.frame").bounding_box()
    sheet = page.get_by_test_id("sheet").bounding_box()
    bar = page.locator(".topbar").bounding_box()
    assert frame["y"] >= bar["y"] + bar["height"], (frame, bar)
    assert frame["y"] + frame["height"] <= sheet["y"], (frame, sheet)
    close_sheet(page)
    page.wait_for_function("() => !document.querySelector('g.box.chosen')")

    # On a desktop's screen the sheet goes beside the photo.
    page.set_viewport_size({"width": 1280, "height": 800})
    item.click()
    page.get_by_test_id("box-sheet-title").wait_for()
    frame = page.locator("g.box.chosen rect.frame").bounding_box()
    sheet = page.get_by_test_id("sheet").bounding_box()
    assert frame["x"] + frame["width"] <= sheet["x"] or frame["y"] + frame["height"] <= sheet["y"]
    assert frame["y"] >= 0 and frame["y"] + frame["height"] <= 800, frame


def test_a_change_leaves_the_page_where_it_was(server: Server, phone: Any) -> None:
    """The sheet scrolls its box up under the top bar; when it closes, the page is back
    where the player had it, the photo and the hand check in sight, not left with the
    photo above the screen (a tap there then met nothing)."""
    page = phone
    open_review(server, page, COLUMN_BOXES, COLUMN_PHOTO)
    egg = next(b for b in COLUMN_BOXES if b["label"] == "egg")
    x1, y1, x2, y2 = egg["box"]
    spot = page.evaluate(ON_SCREEN, [(x1 + x2) / 2, (y1 + y2) / 2])
    before = page.evaluate("() => window.scrollY")
    page.touchscreen.tap(spot["x"], spot["y"])
    page.get_by_test_id("box-sheet-title").wait_for()
    assert page.evaluate("() => window.scrollY") != before  # the egg shown above the sheet
    page.locator('.label-grid [data-label="salmon"]').click()
    idle(page)
    page.wait_for_function("() => !document.querySelector('#sheet').open")
    assert page.get_by_test_id("count-salmon").inner_text() == "1"
    assert page.evaluate("() => window.scrollY") == before


def test_a_box_being_drawn_stays_in_view_and_marked(server: Server, phone: Any) -> None:
    """The sheet asking what a drawn box is leaves the box in view above it, marked, as
    the sheet for changing a box does."""
    page = phone
    open_review(server, page, COLUMN_BOXES, COLUMN_PHOTO)
    # The photo stays put under the finger about to draw (its hint's longer words had
    # moved it up a line, the page held by the button).
    page.get_by_test_id("add-box").evaluate("(b) => b.scrollIntoView({ block: 'center' })")
    photo_top = "() => document.querySelector('[data-testid=photo]').getBoundingClientRect().top"
    before = page.evaluate(photo_top)
    page.get_by_test_id("add-box").tap()
    idle(page)
    assert page.evaluate(photo_top) == before
    # A bare stretch of the photo, left of the column, above the row of whole cards.
    start, end = (page.evaluate(ON_SCREEN, c) for c in ([130, 140], [380, 380]))
    touch_drag(page, start, end)
    page.get_by_role("heading", name="What card is this?").wait_for()
    shot(page, "drawn-box-sheet.png")
    drawn = page.locator("g.drawing rect.new-box")
    assert drawn.count() == 1
    assert "chosen" in (drawn.get_attribute("class") or "").split()
    stroke = drawn.evaluate("(r) => getComputedStyle(r).stroke")
    assert stroke == "rgb(255, 255, 255)", stroke
    frame = drawn.bounding_box()
    sheet = page.get_by_test_id("sheet").bounding_box()
    bar = page.locator(".topbar").bounding_box()
    width = page.viewport_size["width"]
    assert frame["width"] > 50 and frame["height"] > 50, frame
    assert frame["x"] >= 0 and frame["x"] + frame["width"] <= width, frame
    assert frame["y"] >= bar["y"] + bar["height"], (frame, bar)
    assert frame["y"] + frame["height"] <= sheet["y"], (frame, sheet)
    assert sheet["y"] + sheet["height"] <= HEIGHT + 1, sheet
    # Naming it adds it; the mark goes with the sheet.
    page.wait_for_timeout(400)  # a tap just after a finger's lift joins its gesture
    page.locator('#sheet [data-label="tempura"]').tap()
    page.wait_for_function("() => document.querySelectorAll('g.box.reviewer').length === 1")
    assert page.locator("g.drawing rect").count() == 0
    assert page.locator(".chosen").count() == 0


# --- zoom --------------------------------------------------------------------------------

# A collection in the middle of a table photo: its cards fill a fifth of its width.
SMALL_COLLECTION = [
    {"label": "tempura", "confidence": 0.9, "box": [400, 300, 500, 448]},
    {"label": "sashimi", "confidence": 0.9, "box": [505, 300, 605, 448]},
    {"label": "pudding", "confidence": 0.9, "box": [400, 455, 500, 603]},
]

VIEW = """() => document.querySelector('[data-testid="photo"]')
  .getAttribute("viewBox").split(" ").map(Number)"""


def touches(cdp: Any, kind: str, points: list[tuple[float, float]]) -> None:
    """Raw touch events (several fingers at once), as a phone's screen sends them."""
    cdp.send(
        "Input.dispatchTouchEvent",
        {
            "type": kind,
            "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)],
        },
    )


def test_an_upright_photos_zoom_buttons_are_on_the_first_screen(server: Server, phone: Any) -> None:
    """A phone's photo stands upright: its zoom buttons, once under it, fell behind the
    confirm bar before any scroll."""
    page = phone
    open_review(server, page, SMALL_COLLECTION, (750, 1000))
    page.evaluate("() => window.scrollTo(0, 0)")
    for testid in ("zoom-out", "zoom-in", "zoom-cards", "zoom-whole"):
        assert page.evaluate(CENTRE_HITS, testid), testid


def test_a_counter_stays_under_the_finger(server: Server, phone: Any) -> None:
    """The photo scrolled out of sight, a tap on a counter's + leaves that + where it was
    on the screen, though a note appears above it ("1 more set by hand"). The page had
    jumped by the photo's height (the browser followed a counter while the screen was
    built anew), and a second tap there had hit another card's +."""
    page = phone
    open_review(server, page, COLUMN_BOXES, COLUMN_PHOTO)
    plus = page.get_by_test_id("plus-egg")
    plus.evaluate("(b) => b.scrollIntoView({ block: 'center' })")
    assert page.get_by_test_id("photo").bounding_box()["y"] < 0  # out of sight above
    before = plus.bounding_box()
    count = int(page.get_by_test_id("count-egg").inner_text())
    for taps in (1, 2):
        page.touchscreen.tap(before["x"] + 24, before["y"] + 24)
        idle(page)
        assert page.get_by_test_id("count-egg").inner_text() == str(count + taps)
        after = plus.bounding_box()
        assert abs(after["y"] - before["y"]) <= 1, (before, after)


def test_the_keyboard_keeps_its_place(server: Server, phone: Any) -> None:
    """Enter on a counter's +, twice, counts twice, the focus kept on that +; a card
    chosen in a box's sheet leaves the focus on the box. The focus had fallen to the
    page's body after each, the next Tab starting from the top."""
    page = phone
    open_review(server, page, COLUMN_BOXES, COLUMN_PHOTO)
    focused = "() => document.activeElement?.dataset?.testid || document.activeElement?.tagName"
    count = int(page.get_by_test_id("count-egg").inner_text())
    page.get_by_test_id("plus-egg").focus()
    for presses in (1, 2):
        page.keyboard.press("Enter")
        idle(page)
        assert page.get_by_test_id("count-egg").inner_text() == str(count + presses)
        assert page.evaluate(focused) == "plus-egg"
    box = page.locator('g.box[data-label="tempura"]').first
    box_id = box.get_attribute("data-box-id")
    box.focus()
    page.keyboard.press("Enter")
    page.get_by_test_id("box-sheet-title").wait_for()
    page.locator('.label-grid [data-label="squid"]').focus()
    page.keyboard.press("Enter")
    idle(page)
    now = page.evaluate(
        "() => [document.activeElement.dataset.boxId, document.activeElement.dataset.label]"
    )
    assert now == [box_id, "squid"], now


FOCUSED_BOX = """() => { const e = document.activeElement;
  if (e === document.body) return null;
  return e.dataset.label ? `box:${e.dataset.label}` : e.dataset.testid || e.tagName; }"""


def test_the_photo_is_one_tab_stop_and_the_arrows_walk_its_boxes(
    server: Server, phone: Any
) -> None:
    """Every box had been a Tab stop of its own, in the order they were drawn (largest
    first, jumping about the photo): nine cards were nine Tabs between the photo and the
    counters. The photo is one Tab stop; the arrow keys walk a column (Up, Down) and go
    across (Left, Right); the photo is come back to on the box last left."""
    page = phone
    open_review(server, page, COLUMN_BOXES, COLUMN_PHOTO)
    stops = []
    for _ in range(60):
        page.keyboard.press("Tab")
        stop = page.evaluate(FOCUSED_BOX)
        if stop is None:  # past the last control
            break
        stops.append(stop)
    assert [stop for stop in stops if stop.startswith("box:")] == ["box:salmon"], stops  # the stack
    assert "photo" not in stops, stops  # no stop on the photo itself, where keys did nothing

    page.locator('g.box[data-label="salmon"]').focus()
    walked = []
    keys = ["ArrowDown"] * 5 + ["ArrowRight"] * 2 + ["ArrowLeft"] * 4
    for key in keys:
        before = page.evaluate("() => window.scrollY")
        page.keyboard.press(key)
        walked.append(page.evaluate(FOCUSED_BOX))
        assert page.evaluate("() => window.scrollY") == before, key  # the page does not scroll
    assert walked == [
        "box:tempura", "box:sashimi", "box:dumpling", "box:squid",
        "box:squid",  # the column's foot: nothing below
        "box:pudding", "box:egg", "box:pudding", "box:squid", "box:chopsticks", "box:maki_2",
    ], walked  # fmt: skip
    page.keyboard.press("Tab")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(FOCUSED_BOX) == "box:maki_2"

    # Zoomed in, a box walked to off the view is brought into it, whole (the egg, taller
    # than the zoomed view, had been shown cut).
    for _ in range(3):
        page.get_by_test_id("zoom-in").click()
    page.locator('g.box[data-label="maki_2"]').focus()
    for _ in range(4):  # by the chopsticks, the squid (nearer than the pudding), the pudding
        page.keyboard.press("ArrowRight")
    assert page.evaluate(FOCUSED_BOX) == "box:egg"
    in_view = """() => {
      const svg = document.querySelector('[data-testid="photo"]').getBoundingClientRect();
      const r = document.activeElement.querySelector('rect.frame').getBoundingClientRect();
      return r.left >= svg.left - 1 && r.right <= svg.right + 1
        && r.top >= svg.top - 1 && r.bottom <= svg.bottom + 1; }"""
    assert page.evaluate(in_view)
    page.keyboard.press("Enter")
    page.get_by_test_id("box-sheet-title").wait_for()
    # Its sheet opens on its own card (it had opened on the first, Tempura); the arrows
    # walk its choices as they stand on screen, as on the photo.
    pressed = "() => [document.activeElement.dataset.label, document.activeElement.ariaPressed]"
    assert page.evaluate(pressed) == ["egg", "true"]
    grid = page.locator("#sheet .label-grid button").evaluate_all(
        "(bs) => bs.map((b) => { const r = b.getBoundingClientRect();"
        " return [b.dataset.label, Math.round(r.left), Math.round(r.top)]; })"
    )
    at = {label: (x, y) for label, x, y in grid}
    egg_x, egg_y = at["egg"]
    page.keyboard.press("ArrowRight")
    x, y = at[page.evaluate(pressed)[0]]
    assert y == egg_y and x > egg_x, grid  # the next one in its row
    page.locator('#sheet .label-grid [data-label="egg"]').focus()
    page.keyboard.press("ArrowDown")
    x, y = at[page.evaluate(pressed)[0]]
    assert x == egg_x and y > egg_y, grid  # the one below it


def test_a_new_screen_takes_the_focus_to_its_heading(server: Server, phone: Any) -> None:
    """Upload -> review and confirm -> round: the focus goes to the new screen's heading,
    and the next Tab to what follows it. It had stayed on the page's body, the next Tab
    starting from the top."""
    page = phone
    labels = ["tempura", "tempura", "sashimi", "sashimi", "sashimi", "pudding", "egg"]
    open_review(
        server,
        page,
        boxes_for([*labels, "maki_2", "squid", "dumpling"], width=750, height=1000),
        (750, 1000),
    )
    heading = "() => document.activeElement.tagName === 'H1' && document.activeElement.textContent"
    after_heading = """() => {
      const h1 = document.querySelector('#app h1'), now = document.activeElement;
      return h1 !== now && document.getElementById('app').contains(now)
        && Boolean(h1.compareDocumentPosition(now) & Node.DOCUMENT_POSITION_FOLLOWING);
    }"""
    assert page.evaluate(heading) == "Ana's cards round 1"
    page.keyboard.press("Tab")
    assert page.evaluate(after_heading)
    page.get_by_test_id("confirm").click()
    page.wait_for_url("**round=1")
    idle(page)
    assert page.evaluate(heading) == "Ana and Ben"
    page.keyboard.press("Tab")
    assert page.evaluate(after_heading)


def test_an_upright_photo_opens_with_its_cards_above_the_confirm_bar(
    server: Server, phone: Any
) -> None:
    """A phone's upright photo, its cards low in it: the photo's frame is square, not the
    photo's shape, so that the frame and every card in it lie above the Confirm bar on the
    first screen (in a frame of the photo's shape the cards lay under the bar). The whole
    photo shows all of it, with dark bands at its sides, and no tag in a band."""
    page = phone
    row = [
        {"label": label, "confidence": 0.9, "box": [30 + 90 * i, 800, 110 + 90 * i, 948]}
        for i, label in enumerate(["tempura", "tempura", "sashimi", "egg", "squid", "maki_1"])
    ]
    open_review(server, page, row, (750, 1000))
    page.evaluate("() => window.scrollTo(0, 0)")
    frame = page.get_by_test_id("photo").bounding_box()
    bar = page.locator(".confirm-bar").bounding_box()
    assert frame["width"] == pytest.approx(frame["height"], abs=1), frame
    assert frame["y"] + frame["height"] <= bar["y"], (frame, bar)
    cards = page.locator("g.box rect.frame").evaluate_all(
        "(rs) => rs.map((r) => { const b = r.getBoundingClientRect(); return [b.top, b.bottom]; })"
    )
    assert len(cards) == len(row)
    assert all(top >= frame["y"] and bottom <= bar["y"] for top, bottom in cards), (cards, bar)
    page.get_by_test_id("zoom-whole").tap()
    x, y, w, h = page.evaluate(VIEW)
    assert x <= 0 and y <= 0 and x + w >= 750 and y + h >= 1000, (x, y, w, h)
    assert w == pytest.approx(h) and y == pytest.approx(0), (x, y, w, h)  # bands at the sides
    tags = page.locator("g.tag:not([style*='none']) rect").evaluate_all(
        "(rs) => rs.map((r) => [r.x.baseVal.value, r.x.baseVal.value + r.width.baseVal.value])"
    )
    assert tags and all(x0 >= 0 and x1 <= 750 for x0, x1 in tags), tags
    # Zoomed in, the view is a square inside the photo; the cards' view comes back to them.
    page.get_by_test_id("zoom-in").tap()
    x, y, w, h = page.evaluate(VIEW)
    assert x >= 0 and x + w <= 750 + 0.5 and w == pytest.approx(h), (x, y, w, h)
    page.get_by_test_id("zoom-cards").tap()
    x, y, w, h = page.evaluate(VIEW)
    assert x <= 30 and x + w >= 560 and y <= 800 and y + h >= 948, (x, y, w, h)


@pytest.mark.parametrize("shape", ["tall", "wide"])
def test_a_landscape_photo_opens_in_a_frame_of_its_cards_shape(
    server: Server, phone: Any, shape: str
) -> None:
    """A 16:9 photo of three short columns had opened in a 16:9 frame, the cards a third
    of its width (30 px wide on a phone), their tags over their pictures. The frame takes
    the cards' shape, no taller than square: the cards twice as large. A row of cards
    keeps the photo's wide frame."""
    page = phone

    def card(label: str, x: int, y: int) -> dict[str, Any]:
        return {"label": label, "confidence": 0.9, "box": [x, y, x + 120, y + 170]}

    if shape == "tall":  # three columns of five, 380 x 410 photo px
        labels = ["tempura", "sashimi", "egg", "pudding", "dumpling"]
        cards = [
            card(label, 600 + 130 * c, 150 + 60 * r)
            for c in range(3)
            for r, label in enumerate(labels)
        ]
    else:
        cards = [card("tempura", 100 + 130 * i, 400) for i in range(10)]
    open_review(server, page, cards, (1600, 900))
    frame = page.get_by_test_id("photo").bounding_box()
    widths = page.locator("g.box rect.frame").evaluate_all(
        "(rs) => rs.map((r) => r.getBoundingClientRect().width)"
    )
    if shape == "tall":
        assert frame["width"] == pytest.approx(frame["height"], abs=1), frame
        # The cards' region, with its margins, fills the square frame.
        assert min(widths) >= 0.22 * frame["width"], (widths, frame)
    else:
        assert frame["width"] / frame["height"] == pytest.approx(16 / 9, abs=0.02), frame
    page.get_by_test_id("zoom-whole").tap()
    x, y, w, h = page.evaluate(VIEW)
    assert x <= 0 and y <= 0 and x + w >= 1600 and y + h >= 900, (x, y, w, h)


def test_zooming_in_from_the_whole_photo_goes_toward_the_cards(server: Server, phone: Any) -> None:
    page = phone
    corner = [
        {"label": "tempura", "confidence": 0.9, "box": [50, 50, 150, 198]},
        {"label": "sashimi", "confidence": 0.9, "box": [155, 50, 255, 198]},
    ]
    open_review(server, page, corner, COLUMN_PHOTO)
    page.get_by_test_id("zoom-whole").tap()
    page.get_by_test_id("zoom-in").tap()
    x, y, w, h = page.evaluate(VIEW)
    assert w == pytest.approx(COLUMN_PHOTO[0] / 1.6, rel=0.01)
    assert x <= 50 and y <= 50 and x + w >= 255 and y + h >= 198, (x, y, w, h)


def test_zooming_in_from_the_cards_view_keeps_them_in_sight(server: Server, phone: Any) -> None:
    """Cards along the photo's edge: the view of them is kept inside the photo, so they lie
    off its middle; + zooms toward them, not toward the view's middle (which had pushed
    them out of sight)."""
    page = phone
    column = [  # a column of cards along the photo's left edge
        {"label": "tempura", "confidence": 0.9, "box": [10, 100, 110, 248]},
        {"label": "sashimi", "confidence": 0.9, "box": [10, 250, 110, 398]},
    ]
    open_review(server, page, column, COLUMN_PHOTO)
    for _ in range(3):
        page.get_by_test_id("zoom-in").tap()
        x, y, w, h = page.evaluate(VIEW)
        assert x <= 10 and x + w >= 110, (x, y, w, h)  # the column's width in sight
        assert 100 <= y + h / 2 <= 398, (x, y, w, h)
    assert w < COLUMN_PHOTO[0] / 5


def test_the_photo_opens_on_the_cards_and_zooms(server: Server, phone: Any) -> None:
    page = phone
    open_review(server, page, SMALL_COLLECTION, COLUMN_PHOTO)
    width, height = COLUMN_PHOTO
    x, y, w, h = page.evaluate(VIEW)
    # The cards' region [400, 300, 605, 603] with a margin, at the frame's aspect: the
    # region's own, as tall as wide (zoom.frameAspect).
    assert x <= 400 and y <= 300 and x + w >= 605 and y + h >= 603, (x, y, w, h)
    assert w < 0.6 * width and abs(w / h - 1) < 0.01, (w, h)
    assert (603 - 300) / h > 0.7  # the cards fill most of the view
    page.evaluate(CENTRE_COLUMN)
    shot(page, "review-zoomed.png")
    # The zoom's buttons: one row over the photo, each a finger's size.
    rows = page.locator(".zoom-tools button").evaluate_all(
        "(bs) => bs.map((b) => [b.getBoundingClientRect().top, b.getBoundingClientRect().width,"
        " b.getBoundingClientRect().height])"
    )
    assert len({round(top) for top, _, _ in rows}) == 1, rows
    assert all(w >= 44 and h >= 44 for _, w, h in rows), rows
    photo_top = page.get_by_test_id("photo").bounding_box()["y"]
    assert rows[0][0] + rows[0][2] <= photo_top, (rows, photo_top)

    page.get_by_test_id("zoom-in").tap()
    assert page.evaluate(VIEW)[2] == pytest.approx(w / 1.6, rel=0.01)
    page.get_by_test_id("zoom-out").tap()
    page.get_by_test_id("zoom-out").tap()
    assert page.evaluate(VIEW)[2] == pytest.approx(w * 1.6, rel=0.01)
    page.get_by_test_id("zoom-whole").tap()
    # All of the photo, with bands above and below it in the square frame.
    assert page.evaluate(VIEW) == [0, (height - width) / 2, width, width]
    page.get_by_test_id("zoom-cards").tap()
    assert page.evaluate(VIEW) == pytest.approx([x, y, w, h])

    # A double tap where no box is zooms in there, twice as close.
    page.evaluate(CENTRE_COLUMN)
    photo = page.get_by_test_id("photo").bounding_box()
    bare = (photo["x"] + 8, photo["y"] + 8)
    page.touchscreen.tap(*bare)
    page.touchscreen.tap(*bare)
    page.wait_for_function(f"() => ({VIEW})()[2] < {w * 0.51}")
    assert page.get_by_test_id("sheet").evaluate("(d) => d.open") is False

    # Two fingers apart zoom in; one finger drags the view; neither opens a box.
    page.get_by_test_id("zoom-cards").tap()
    page.evaluate(CENTRE_COLUMN)
    photo = page.get_by_test_id("photo").bounding_box()
    cx, cy = photo["x"] + photo["width"] / 2, photo["y"] + photo["height"] / 2
    cdp = page.context.new_cdp_session(page)
    touches(cdp, "touchStart", [(cx - 20, cy), (cx + 20, cy)])
    for step in range(1, 6):  # 40 px apart to 100: 2.5x closer, short of the closest view
        touches(cdp, "touchMove", [(cx - 20 - 6 * step, cy), (cx + 20 + 6 * step, cy)])
    touches(cdp, "touchEnd", [])
    pinched = page.evaluate(VIEW)
    assert pinched[2] == pytest.approx(w * 40 / 100, rel=0.05), pinched
    touches(cdp, "touchStart", [(cx, cy)])
    for step in range(1, 6):
        touches(cdp, "touchMove", [(cx + 10 * step, cy)])
    touches(cdp, "touchEnd", [])
    dragged = page.evaluate(VIEW)
    per_px = pinched[2] / photo["width"]
    assert dragged[0] == pytest.approx(pinched[0] - 50 * per_px, rel=0.02), (pinched, dragged)
    assert dragged[2] == pytest.approx(pinched[2])
    idle(page)
    assert page.get_by_test_id("sheet").evaluate("(d) => d.open") is False
    # ... and the next tap on a box opens it.
    page.wait_for_timeout(400)
    page.get_by_test_id("zoom-cards").tap()
    page.evaluate(CENTRE_COLUMN)
    tempura = page.locator('g.box[data-label="tempura"] rect.frame').bounding_box()
    page.touchscreen.tap(tempura["x"] + tempura["width"] / 2, tempura["y"] + tempura["height"] / 2)
    page.get_by_test_id("box-sheet-title").wait_for()
    assert page.get_by_test_id("box-sheet-title").inner_text() == "This card: Tempura"
    close_sheet(page)

    # On the whole photo too, two fingers zoom in.
    # (A tap within a moment of the last finger's lift is taken as part of that gesture
    # by Chromium's touch emulation: a finger waits a moment, as a hand does.)
    page.wait_for_timeout(400)
    page.get_by_test_id("zoom-whole").tap()
    page.evaluate(CENTRE_COLUMN)
    photo = page.get_by_test_id("photo").bounding_box()
    cx, cy = photo["x"] + photo["width"] / 2, photo["y"] + photo["height"] / 2
    touches(cdp, "touchStart", [(cx - 20, cy), (cx + 20, cy)])
    for step in range(1, 6):
        touches(cdp, "touchMove", [(cx - 20 - 4 * step, cy), (cx + 20 + 4 * step, cy)])
    touches(cdp, "touchEnd", [])
    assert page.evaluate(VIEW)[2] == pytest.approx(width * 40 / 80, rel=0.05)


# --- the share panel -----------------------------------------------------------------------

# Where a control lies with the page at its top: on the first screen, or below it.
FIRST_SCREEN = """(el) => {
  const r = el.getBoundingClientRect();
  return { top: r.top + scrollY, bottom: r.bottom + scrollY, width: r.width, height: r.height,
           screen: innerHeight };
}"""


def take_photo_button(page: Any, seat: int) -> Any:
    """The *Take photo* button (a label around the hidden camera input)."""
    return page.get_by_test_id(f"camera-{seat}").locator("xpath=..")


def on_first_screen(page: Any, seat: int) -> bool:
    where = take_photo_button(page, seat).evaluate(FIRST_SCREEN)
    return where["height"] > 0 and where["top"] >= 0 and where["bottom"] <= where["screen"]


def test_what_is_typed_or_chosen_is_in_plain_weight(server: Server, phone: Any) -> None:
    """The game's name sat in a bold label and came out bold, its placeholder "Friday
    night" read as typed (a walk-through): every field is in the players' names' weight."""
    page = phone
    page.goto(server.url + "/")
    page.get_by_test_id("start-game").wait_for()
    weights = page.evaluate(
        """() => [
          '[data-testid=player-name-1]', 'input[name=title]', 'select#rounds'
        ].map((s) => getComputedStyle(document.querySelector(s)).fontWeight)"""
    )
    assert weights == ["400", "400", "400"], weights


def test_a_name_given_twice_marks_both_fields(server: Server, phone: Any) -> None:
    """ "Ana" and "ana" are one name: both fields are marked and the first focused, the
    message names it, and mending a field takes its mark away. An empty field is marked
    the same way. No game is made meanwhile."""
    page = phone
    page.goto(server.url + "/")
    for seat, name in enumerate(["Ana", "Ben", "ana "], start=1):
        if seat == 3:
            page.get_by_text("+ Add a player").tap()
        page.get_by_test_id(f"player-name-{seat}").fill(name)
    marked = """() => [...document.querySelectorAll('.names input')]
      .map((i) => [i.getAttribute('aria-invalid') === 'true', i === document.activeElement])"""
    page.get_by_test_id("start-game").tap()
    error = page.get_by_test_id("start-error")
    error.wait_for()
    assert error.inner_text() == "Two players are called Ana: make the names different."
    assert page.evaluate(marked) == [[True, True], [False, False], [True, False]]
    colours = page.evaluate(
        "() => [...document.querySelectorAll('.names input')]"
        ".map((i) => getComputedStyle(i).borderColor)"
    )
    assert colours[0] == colours[2] != colours[1]
    # Mending one of the two takes both marks away, and the words with them.
    page.get_by_test_id("player-name-3").fill("Cy")
    assert page.evaluate(marked) == [[False, False], [False, False], [False, True]]
    assert error.is_hidden()
    # An empty name: the page's own words (not the browser's bubble), the field in view
    # below the top bar.
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    page.get_by_test_id("player-name-2").fill("")
    page.get_by_test_id("start-game").tap()
    page.wait_for_function("() => document.activeElement?.dataset.testid === 'player-name-2'")
    assert error.inner_text() == "Give every player a name (or remove the empty row)."
    assert [m[0] for m in page.evaluate(marked)] == [False, True, False]
    field = page.get_by_test_id("player-name-2").bounding_box()
    bar = page.locator(".topbar").bounding_box()
    assert field["y"] >= bar["y"] + bar["height"], (field, bar)
    assert page.url.rstrip("/") == server.url.rstrip("/")


def test_the_share_panel_leaves_the_camera_buttons_on_the_first_screen(
    server: Server, phone: Any
) -> None:
    """A new game opens with its share panel; once a photo is in it folds behind the
    Share button, the players' *Take photo* buttons on the first screen (at 390 x 844)."""
    page = phone
    # As on a phone: the browser can send a link (one more button in the panel).
    page.add_init_script("navigator.share = () => Promise.resolve();")
    page.goto(server.url + "/")
    for seat, name in enumerate(["Ana", "Ben", "Cy"], start=1):
        if seat == 3:
            page.get_by_text("+ Add a player").tap()
        page.get_by_test_id(f"player-name-{seat}").fill(name)
    page.get_by_test_id("start-game").tap()
    share = page.get_by_test_id("share-panel")
    share.wait_for()
    assert page.get_by_test_id("share").get_attribute("aria-expanded") == "true"
    assert "#edit=" in page.get_by_test_id("edit-link").input_value()
    idle(page)

    # Ana's photo: the game has started.
    server.detector.register(COLUMN_PHOTO, COLUMN_BOXES)
    page.get_by_test_id("camera-1").set_input_files(
        {"name": "cards.jpg", "mimeType": "image/jpeg", "buffer": jpeg(COLUMN_PHOTO)}
    )
    page.get_by_test_id("hand-check").wait_for()
    idle(page)
    page.get_by_test_id("back").tap()
    page.get_by_test_id("round-panel").wait_for()
    idle(page)
    shot(page, "round-after-first-photo.png")
    assert share.count() == 0
    assert page.get_by_test_id("share").get_attribute("aria-expanded") == "false"
    if page.viewport_size["width"] == WIDTHS[0]:
        assert on_first_screen(page, 1), take_photo_button(page, 1).evaluate(FIRST_SCREEN)
        assert on_first_screen(page, 2), take_photo_button(page, 2).evaluate(FIRST_SCREEN)

    # One tap opens it again, links and all; another folds it.
    page.get_by_test_id("share").tap()
    share.wait_for()
    assert page.get_by_test_id("share").get_attribute("aria-expanded") == "true"
    assert "#edit=" in page.get_by_test_id("edit-link").input_value()
    assert "#edit" not in page.get_by_test_id("view-link").input_value()
    page.get_by_test_id("share").tap()
    page.wait_for_function("() => !document.querySelector('[data-testid=share-panel]')")
    # Opened by hand, it stays open from round to round.
    page.get_by_test_id("share").tap()
    share.wait_for()
    page.get_by_test_id("round-tab-2").tap()
    page.get_by_test_id("round-tab-1").tap()
    share.wait_for()


# --- the games on this phone ---------------------------------------------------------------


def enter_hand(
    server: Server, game: dict[str, Any], number: int, seat: int, hand: dict[str, int]
) -> None:
    """A hand's counts set and confirmed through the API, as another phone would."""
    headers = {"X-Edit-Token": game["edit_token"]}
    url = f"{server.url}/api/v1/games/{game['id']}/rounds/{number}/players/{seat}"
    version = httpx.get(url).json()["version"]
    body = {"action": "set_counts", "counts": hand, "version": version}
    changed = httpx.post(f"{url}/corrections", json=body, headers=headers)
    changed.raise_for_status()
    confirmed = httpx.post(
        f"{url}/confirm", json={"version": changed.json()["version"]}, headers=headers
    )
    confirmed.raise_for_status()


def play_through_the_api(
    server: Server,
    game: dict[str, Any],
    hands: list[dict[str, int]] | None = None,
    numbers: tuple[int, ...] = (1, 2, 3),
) -> None:
    """Rounds of a game (every one by default) confirmed and recorded (a hand a player,
    two by default), as another phone would."""
    headers = {"X-Edit-Token": game["edit_token"]}
    base = f"{server.url}/api/v1/games/{game['id']}"
    if hands is None:
        hands = [
            {"tempura": 4, "sashimi": 3, "pudding": 3},
            {"dumpling": 5, "maki_3": 4, "egg": 1},
        ]
    for number in numbers:
        for seat, hand in enumerate(hands, start=1):
            enter_hand(server, game, number, seat, hand)
        version = httpx.get(f"{base}/rounds/{number}").json()["version"]
        recorded = httpx.post(
            f"{base}/rounds/{number}/record",
            json={"version": version, "accept_problems": True},
            headers=headers,
        )
        recorded.raise_for_status()


def test_a_game_code_read_aloud_and_typed_by_eye_opens_its_game(server: Server, phone: Any) -> None:
    """The code is shown in groups of four, on one line, with no look-alikes in it; typed
    back in capitals, with an O for each 0, an I for each 1 and its spaces, it opens the
    game; what is no code is said to be none."""
    page = phone
    game = new_game(server, ["Ana", "Ben"])
    page.goto(f"{server.url}/?game={game['id']}")
    shown = page.get_by_test_id("game-code")
    assert shown.inner_text() == " ".join(game["id"][k : k + 4] for k in (0, 4, 8))
    assert shown.evaluate("(e) => e.getClientRects().length") == 1  # one line
    grouped = shown.inner_text()
    typed = grouped.upper().replace("0", "O").replace("1", "I")
    page.goto(server.url)
    page.get_by_test_id("join-code").fill(f"  {typed} ")
    page.get_by_test_id("join").click()
    page.wait_for_url(f"**game={game['id']}**")
    page.get_by_test_id("game-code").wait_for()
    page.goto(server.url)
    page.get_by_test_id("join-code").fill("-".join(grouped.split()))  # with dashes
    page.get_by_test_id("join").click()
    page.wait_for_url(f"**game={game['id']}**")
    page.get_by_test_id("game-code").wait_for()
    page.goto(server.url)
    page.get_by_test_id("join-code").fill("not a code!")
    page.get_by_test_id("join").click()
    assert page.get_by_test_id("join-error").inner_text() == "That is not a game code or link."
    # A code of no game: said beside the field it was typed in, in view, the code kept.
    wrong = game["id"][:-1] + ("x" if game["id"][-1] != "x" else "y")
    page.get_by_test_id("join-code").fill(wrong)
    page.get_by_test_id("join").click()
    told = page.get_by_test_id("join-error")
    told.wait_for()
    assert told.inner_text() == f"There is no game with the code {wrong}. Check the code or link."
    assert page.get_by_test_id("join-code").input_value() == wrong
    box = told.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"], box


def test_the_home_page_lists_this_phones_games(server: Server, phone: Any) -> None:
    page = phone
    finished = httpx.post(
        f"{server.url}/api/v1/games",
        json={"players": ["Ana", "Ben"], "rounds": 3, "title": "Friday night"},
    ).json()
    play_through_the_api(server, finished)
    standings = httpx.get(f"{server.url}/api/v1/games/{finished['id']}/standings").json()
    winner = standings["winners"][0]
    points = next(p["total"] for p in standings["players"] if p["name"] == winner)
    playing = new_game(server, ["Cy", "Di", "Ed"])
    never_opened = new_game(server, ["Fay", "Gus"])

    # This phone looks at a game by its link alone (no edit token), opens the finished
    # game on round 2's second player, and the other game.
    watched = new_game(server, ["Hal", "Ivy"])
    page.goto(f"{server.url}/?game={watched['id']}")
    page.get_by_test_id("round-panel").wait_for()
    page.goto(f"{server.url}/?game={finished['id']}&round=2&seat=2#edit={finished['edit_token']}")
    page.get_by_test_id("counters").wait_for()
    page.goto(edit_url(server, playing))
    page.get_by_test_id("round-panel").wait_for()
    idle(page)

    # The tab is closed; a new one opens the home page.
    other = page.context.new_page()
    page.close()
    page = other
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(server.url + "/")
    listed = page.get_by_test_id("recent-games")
    listed.wait_for()
    links = listed.locator("a")
    assert links.count() == 3  # never the game this phone was not given
    assert page.get_by_test_id(f"recent-{never_opened['id']}").count() == 0
    newest, older = links.nth(0).inner_text(), links.nth(1).inner_text()
    # Only the game it can only look at says so.
    assert links.nth(2).inner_text().endswith(" · view only"), links.nth(2).inner_text()
    assert "view only" not in newest + older
    assert newest.splitlines()[0] == "Cy, Di and Ed"
    assert "Not started" in newest
    assert older.splitlines()[:2] == ["Friday night", "Ana and Ben"]
    assert f"{winner} won with {points} points" in older
    year = str(datetime.date.today().year)
    assert year in older and year in newest

    # Each reopens where it was, with its edit token.
    page.get_by_test_id(f"recent-{finished['id']}").tap()
    page.get_by_test_id("counters").wait_for()
    assert "Ben's cards" in page.locator("h1").inner_text()
    assert "round=2" in page.url and "seat=2" in page.url
    page.get_by_test_id("home-link").tap()
    page.get_by_test_id(f"recent-{playing['id']}").tap()
    page.get_by_test_id("round-panel").wait_for()
    assert page.get_by_test_id("view-only").count() == 0
    assert page.get_by_test_id("camera-1").count() == 1


def test_the_home_page_sums_up_players_who_played_more_than_one_listed_game(
    server: Server, phone: Any
) -> None:
    """Games, wins, average and best total across the finished games this phone lists, for
    a name met in two of them (spaces and letter case aside); a name met in one game
    only, a game still being played and a game this phone was never given stay out."""
    page = phone
    first = new_game(server, ["Ana", "Ben"])
    play_through_the_api(server, first)
    second = new_game(server, ["Cy", "ANA "])  # the same Ana, typed otherwise
    short = {"egg": 1, "sashimi": 3, "chopsticks": 4, "wasabi": 2}  # 11 points a round
    play_through_the_api(server, second, [{"tempura": 10}, short])
    playing = new_game(server, ["ana", "Di"])  # listed, not finished: not counted
    elsewhere = new_game(server, ["Ana", "Ben"])  # finished, never given to this phone
    play_through_the_api(server, elsewhere, [{"tempura": 10}, {"sashimi": 9, "wasabi": 1}])

    totals = []
    for game in (first, second):
        st = httpx.get(f"{server.url}/api/v1/games/{game['id']}/standings").json()
        ana = next(p for p in st["players"] if p["name"].strip().lower() == "ana")
        totals.append((ana["total"], ana["name"] in st["winners"]))
    assert totals == [(66, True), (33, False)]  # the hands above, scored by the server

    for game in (first, second, playing):
        page.goto(edit_url(server, game))
        page.locator("[data-testid=round-panel], [data-testid=standings-table]").first.wait_for()
        idle(page)
    page.goto(server.url + "/")
    stats = page.get_by_test_id("player-stats")
    stats.wait_for()
    idle(page)
    rows = stats.locator("tbody tr")
    assert rows.count() == 1  # Ben and Cy played one finished game each here; Di none
    row = page.get_by_test_id("stat-1")
    cells = {
        col: row.locator(f"[data-col={col}]").inner_text()
        for col in ("name", "games", "wins", "average", "best")
    }
    assert cells == {"name": "ANA", "games": "2", "wins": "1", "average": "49.5", "best": "66"}
    assert "From the 2 finished games on this phone" in stats.inner_text()
    # The list and the statistics, for the README.
    page.get_by_test_id("recent-games").evaluate(
        "(el) => scrollBy(0, el.getBoundingClientRect().top - 64)"  # below the top bar
    )
    shot(page, "games.png")


def test_a_shared_place_fits_its_mark(server: Server, phone: Any) -> None:
    """Three players level on points and puddings share first place: each mark reads
    "=1" inside its pill, clear of the name beside it (it had spilled out of the dot)."""
    game = httpx.post(
        f"{server.url}/api/v1/games", json={"players": ["Ana", "Ben", "Cy"], "rounds": 3}
    ).json()
    play_through_the_api(server, game, hands=[{"tempura": 2, "egg": 1}] * 3)
    page = phone
    page.goto(f"{server.url}/?game={game['id']}")
    page.get_by_test_id("standings-table").wait_for()
    marks = page.locator(".standings-table tbody th").evaluate_all(
        """(cells) => cells.map((th) => {
          const mark = th.querySelector(".place"), name = th.querySelector(".name");
          return [mark.textContent, mark.scrollWidth <= mark.clientWidth,
                  mark.getBoundingClientRect().right <= name.getBoundingClientRect().left];
        })"""
    )
    assert marks == [["=1", True, True]] * 3, marks
    assert "share the win" in page.get_by_test_id("winner").inner_text()


def test_the_standings_offer_the_score_sheet(server: Server, phone: Any) -> None:
    """A "Score sheet (CSV)" link under the standings, there for the view link too: it
    downloads the game's sheet, every round and total in it."""
    game = httpx.post(
        f"{server.url}/api/v1/games", json={"players": ["Ana", "Bartholomew"], "rounds": 3}
    ).json()
    play_through_the_api(server, game)
    standings = httpx.get(f"{server.url}/api/v1/games/{game['id']}/standings").json()
    page = phone
    page.goto(f"{server.url}/?game={game['id']}")  # the view link: no token
    page.get_by_test_id("standings-table").wait_for()
    link = page.get_by_test_id("sheet-link")
    assert link.inner_text() == "Score sheet (CSV)"
    assert link.get_attribute("href") == f"/api/v1/games/{game['id']}/sheet.csv"
    assert link.bounding_box()["height"] >= 44
    # Each recorded round's head opens that round: a tap 21 px above or below its centre
    # reaches it (a finger's height), and 15 px either side (its narrow column's width;
    # 13 px under 390 px, where the columns narrow to keep the pudding in sight), once
    # scrolled into view between the names and the totals.
    side = 15 if page.viewport_size["width"] >= 390 else 13
    reached = page.locator(".standings-table th .link").evaluate_all(
        """(ls, side) => ls.map((l) => {
          l.scrollIntoView({ block: "center", inline: "center" });
          const r = l.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
          return [[x - side, y], [x + side, y], [x, y - 21], [x, y + 21]].every(
            ([px, py]) => document.elementFromPoint(px, py) === l);
        })""",
        side,
    )
    assert reached == [True, True, True], reached
    page.locator(".standings-table").evaluate("(t) => t.parentElement.scrollTo(0, 0)")
    # At 390 px and at 320 the table fits whole, a long name cut short, its pudding in
    # sight (at 320 the totals had covered it: "Pud." there, and narrower gaps).
    frame = ".table-frame:has(.standings-table)"
    assert not scrolls_with_shades(page, frame)
    head = page.locator(f"{frame} thead th[data-col=dessert]")
    assert head.text_content() == "PuddingPud."  # "Pudding" read aloud at either width
    narrow = page.viewport_size["width"] < 390
    assert head.locator(".short").is_visible() == narrow
    assert (head.locator(".long").bounding_box()["width"] <= 1) == narrow
    long = page.locator(f"{frame} tbody th[title=Bartholomew]")
    assert long.locator(".name").evaluate("(n) => n.scrollWidth > n.clientWidth")  # cut
    with page.expect_download() as download:
        link.tap()
    text = Path(download.value.path()).read_bytes().decode("utf-8-sig")
    rows = [line.split(",") for line in text.splitlines()]
    for player in standings["players"]:
        row = next(r for r in rows if r[1] == player["name"])
        assert [int(v) for v in row[2:5]] == player["rounds"]
        assert int(row[-2]) == player["total"]
        assert row[-1] == ("winner" if player["name"] in standings["winners"] else "")


@pytest.mark.parametrize("width", [320, 340, 360, 375, 390, 412])
def test_a_three_round_games_standings_fit_a_phone(
    server: Server, browser: Any, width: int
) -> None:
    """At 360 and 375 px, the commonest phones, as at 320, the totals had covered part of
    the pudding column (the table 11-24 px wider than its frame). Five long names and a
    pudding of "−6 (0)": beside the points a name kept what the columns left it ("Ba…"
    at 320 px, "Bart…" at 390); each now stands whole on its own line above them."""
    names = ["Bartholomew", "Anastasia", "Maximilian", "Li", "Jo"]
    game = httpx.post(f"{server.url}/api/v1/games", json={"players": names, "rounds": 3}).json()
    hands = [{"tempura": 4, "sashimi": 3, "pudding": p} for p in (0, 1, 2, 3, 3)]
    play_through_the_api(server, game, hands=hands)
    for page in touch_phone(browser, width, 800):
        page.goto(f"{server.url}/?game={game['id']}")
        page.get_by_test_id("standings-table").wait_for()
        sizes = page.locator(".table-scroll:has(.standings-table)").evaluate(
            "(s) => [s.scrollWidth, s.clientWidth]"
        )
        assert sizes[0] <= sizes[1], sizes
        shown = page.evaluate(SHOWN_NAMES)
        assert sorted(row["line"] for row in shown) == sorted(names), shown
        assert all(row["whole"] and row["beside"] is None for row in shown), shown


def test_standings_wider_than_the_phone_scroll_between_names_and_totals(
    server: Server, phone: Any
) -> None:
    """Five rounds, wider than a phone: the table scrolls between the names and the
    totals, both kept in view, each shaded at its edge while more of it lies beyond."""
    game = httpx.post(
        f"{server.url}/api/v1/games", json={"players": ["Ana", "Bartholomew"], "rounds": 5}
    ).json()
    play_through_the_api(server, game, numbers=(1, 2, 3, 4, 5))
    page = phone
    page.goto(f"{server.url}/?game={game['id']}")
    page.get_by_test_id("standings-table").wait_for()
    frame = ".table-frame:has(.standings-table)"
    assert scrolls_with_shades(page, frame)
    # Scrolled to the totals, each name on its own line stays in view, whole.
    inside = page.locator(frame).evaluate(
        "(f) => { const box = f.getBoundingClientRect();"
        "  return [...f.querySelectorAll('tr.name-line .name')].map((n) => {"
        "    const r = n.getBoundingClientRect();"
        "    return r.width > 1 && r.left >= box.left && r.right <= box.right; }); }"
    )
    assert inside == [True, True], inside


def scrolls_with_shades(page: Any, frame: str) -> bool:
    """Whether the standings in `frame` are wider than it; where they are, that they
    scroll with the names and totals in view, each shaded while more lies beyond it."""
    scroller = page.locator(f"{frame} .table-scroll")
    wider: bool = scroller.evaluate("(s) => s.scrollWidth > s.clientWidth")
    shaded = (
        "([frame, more, names_shaded, totals_shaded]) => {"
        "  const f = document.querySelector(frame), box = f.getBoundingClientRect();"
        "  const names = f.querySelector('tbody th'), total = f.querySelector('td.total');"
        "  const shade = (cell, side) => getComputedStyle(cell, side).opacity;"
        "  return f.dataset.more === more"
        "    && shade(names, '::after') === names_shaded"
        "    && shade(total, '::before') === totals_shaded"
        "    && names.getBoundingClientRect().left >= box.left"
        "    && total.getBoundingClientRect().right <= box.right"
        "    && box.right <= innerWidth;"
        "}"
    )
    if wider:
        page.wait_for_function(shaded, arg=[frame, "right", "0", "1"], timeout=2000)
        scroller.evaluate("(s) => s.scrollTo(s.scrollWidth, 0)")
        page.wait_for_function(shaded, arg=[frame, "left", "1", "0"], timeout=2000)
    else:
        page.wait_for_function(shaded, arg=[frame, "", "0", "0"], timeout=2000)
    return wider


def test_plus_zooms_toward_the_card_a_warning_asks_about(server: Server, phone: Any) -> None:
    """+ keeps the card marked "?" in view and goes toward it: toward the middle of the
    cards it had pushed a doubtful card at their edge out of sight."""
    page = phone
    size = (1000, 752)
    row = [
        {"label": label, "confidence": 0.9, "box": [x, 300, x + 95, 440]}
        for label, x in (("tempura", 200), ("sashimi", 300), ("dumpling", 400), ("egg", 500))
    ]
    row += [
        {"label": "tempura", "confidence": 0.9, "box": [x, 460, x + 95, 600]}
        for x in (200, 300, 400, 500, 600)
    ]
    doubtful = {"label": "squid", "confidence": 0.35, "box": [880, 300, 975, 440]}
    open_review(server, page, [*row, doubtful], size)
    assert page.locator("g.box.check").get_attribute("data-label") == "squid"
    for _ in range(2):
        page.get_by_test_id("zoom-in").tap()
        x, y, w, h = page.evaluate(VIEW)
        assert x <= 880 and x + w >= 975 and y <= 300 and y + h >= 440, (x, y, w, h)
    assert w < 0.5 * size[0]


def test_a_round_recorded_anyway_says_what_did_not_add_up(server: Server, phone: Any) -> None:
    """The recorded round's banner lists what the table accepted, not only that it did."""
    game = new_game(server, ["Ana", "Ben"])
    confirm_counts(server, game, 1, {"tempura": 10})
    confirm_counts(server, game, 2, {"tempura": 10})  # 20 of the deck's 14
    base = f"{server.url}/api/v1/games/{game['id']}/rounds/1"
    version = httpx.get(base).json()["version"]
    headers = {"X-Edit-Token": game["edit_token"]}
    body = {"version": version, "accept_problems": True}
    httpx.post(f"{base}/record", json=body, headers=headers).raise_for_status()
    phone.goto(f"{server.url}/?game={game['id']}&round=1")
    banner = phone.get_by_test_id("record-accepted")
    banner.wait_for()
    said = banner.locator("li").all_inner_texts()
    assert len(said) == 1 and "tempura" in said[0].lower() and "14" in said[0], said


def test_a_long_name_keeps_the_review_as_wide_as_the_phone(server: Server, phone: Any) -> None:
    """ "Bartholomew's cards" beside the back button had held the page 7 px wider than a
    320 px phone: the page shifted sideways, the Confirm button's edge off the screen."""
    page = phone
    open_review(server, page, STACK_BOXES, STACK_PHOTO, players=("Bartholomew", "Ana"))
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= page.viewport_size["width"], wide
    heading = page.locator(".review-head h1")
    assert heading.inner_text().startswith("Bartholomew")
    box = heading.bounding_box()
    assert box["x"] + box["width"] <= page.viewport_size["width"], box
    bar = page.get_by_test_id("confirm").bounding_box()
    assert bar["x"] + bar["width"] <= page.viewport_size["width"], bar


def test_a_five_player_round_fits_a_phone(server: Server, phone: Any) -> None:
    """Five players' points beside a round's row names fit the phone whole: the last
    player's column had lain under the shade that says more is beyond (at 320 px too, since
    the names stand on end)."""
    names = ["Zoë", "Ana", "Ana B.", "Bjørn", "José"]
    game = httpx.post(f"{server.url}/api/v1/games", json={"players": names}).json()
    hands = [{"tempura": 2, "sashimi": 3, "dumpling": 1, "maki_3": 1}] * 5
    play_through_the_api(server, game, hands)
    phone.goto(f"{server.url}/?game={game['id']}&round=1")
    table = phone.get_by_test_id("round-scores")
    table.wait_for()
    wider = table.evaluate("(t) => t.parentElement.scrollWidth > t.parentElement.clientWidth")
    assert not wider


@pytest.mark.parametrize("players", [5, 4, 3])
@pytest.mark.parametrize("width", [320, 360, 390, 600])
def test_long_names_share_a_rounds_table(
    server: Server, browser: Any, width: int, players: int
) -> None:
    """Players as people type them: the round's tables are as wide as the phone, each
    name whole in its heading (on end for four or five players, across for three). Across,
    "Bartholomew" and the others had held the table at 524 px on a 360 px phone, four
    players' points off to the side."""
    names = ["Bartholomew", "Maximiliane", "Anne-Sophie", "Christopher", "Jo"][-players:]
    game = httpx.post(f"{server.url}/api/v1/games", json={"players": names}).json()
    hands = [{"tempura": 2, "sashimi": 3, "maki_3": 1}] * players
    play_through_the_api(server, game, hands, (1,))
    for page in touch_phone(browser, width, HEIGHT):
        page.goto(f"{server.url}/?game={game['id']}&round=1")
        page.get_by_test_id("cards-counted").locator("summary").click()
        for table in (page.get_by_test_id("round-scores"), page.locator(".tallies table")):
            table.wait_for()
            wide, room = table.evaluate("(t) => [t.parentElement.scrollWidth, t.parentElement.clientWidth]")  # noqa: E501 # fmt: skip
            assert wide <= room, (width, wide, room)
            heads = table.locator("thead th").evaluate_all(
                "(ths) => ths.map((th) => [th.textContent, th.scrollWidth <= th.clientWidth])"
            )
            assert [name for name, _ in heads[1:]] == names
            assert all(whole for _, whole in heads[1:]), heads  # (the first has its shade)
            # On end, each on one line, where four or five share the table.
            modes = table.locator("thead th:not(:first-child)").evaluate_all(
                "(ths) => ths.map((th) => getComputedStyle(th).writingMode)"
            )
            assert set(modes) == ({"vertical-rl"} if players >= 4 else {"horizontal-tb"})


def test_puddings_all_equal_are_said_to_score_nothing(server: Server, phone: Any) -> None:
    """Every player kept as many puddings: the standings say why pudding gave 0 each,
    rather than only that "ties split"."""
    game = new_game(server, ["Ana", "Ben"])
    hands = [{"tempura": 4, "sashimi": 3, "pudding": 3}, {"dumpling": 5, "maki_3": 2, "pudding": 3}]
    play_through_the_api(server, game, hands)
    phone.goto(f"{server.url}/?game={game['id']}")
    phone.get_by_test_id("standings-table").wait_for()
    hint = phone.locator(".table-frame:has(.standings-table) + p.hint").inner_text()
    assert hint == (
        "Pudding: points (puddings kept). Everyone kept as many puddings: nobody gains or "
        "loses points."
    )


def test_an_edit_link_opened_over_its_view_link_can_edit(server: Server, phone: Any) -> None:
    """The edit link opened in a tab that shows the same game's view link differs only
    in its fragment: the page takes its token then too, without a reload."""
    page = phone
    game = new_game(server, ["Ana", "Ben"])
    page.goto(f"{server.url}/?game={game['id']}")
    page.get_by_test_id("view-only").wait_for()
    page.evaluate("(url) => { window.stayed = true; location.href = url; }", edit_url(server, game))
    page.get_by_test_id("camera-1").wait_for(state="attached")  # a player's photo input
    assert page.get_by_test_id("view-only").count() == 0
    assert page.evaluate("() => window.stayed") is True  # the same page: no reload
    assert "#edit" not in page.url  # the token is kept on the phone, not in the address


def test_a_change_made_elsewhere_meanwhile_says_so_within_the_bar(
    server: Server, phone: Any
) -> None:
    """A write with a version another phone moved on: a short sentence over the top bar
    (not the server's words), and the cards as they now are."""
    game = new_game(server, ["Ana", "Ben"])
    page = phone
    page.goto(edit_url(server, game))
    page.get_by_text("Count by hand").first.tap()
    page.get_by_test_id("counters").wait_for()
    idle(page)
    base = f"{server.url}/api/v1/games/{game['id']}/rounds/1/players/1"
    body = {"action": "set_counts", "counts": {"egg": 2}, "version": 0}
    httpx.post(f"{base}/corrections", json=body, headers={"X-Edit-Token": game["edit_token"]})
    page.get_by_test_id("plus-tempura").tap()
    toast = page.locator(".toast.error")
    toast.wait_for()
    # That the tap did not count, whole in the toast's three lines (it had been cut off
    # before "Try again").
    assert toast.inner_text() == "Not saved: changed on another phone first. Try again."
    assert toast.locator(".toast-text").evaluate("(t) => t.scrollHeight <= t.clientHeight")
    idle(page)
    assert page.get_by_test_id("count-egg").inner_text() == "2"
    assert page.get_by_test_id("count-tempura").inner_text() == "0"
    bar = page.locator(".topbar").bounding_box()
    box = toast.bounding_box()
    assert box["y"] + box["height"] <= bar["y"] + bar["height"] + 0.5, (box, bar)
    assert page.evaluate(COVERED_CONTROLS) == []


@pytest.mark.parametrize("size", [(1366, 768), (390, 844)], ids=str)
def test_counting_by_hand_on_a_laptop_the_counters_take_the_page(
    server: Server, browser: Any, size: tuple[int, int]
) -> None:
    """No photo on a wide screen: the counters had stood in the right-hand column beside an
    empty one, twelve rows down the page. They go across, in two columns of whole groups,
    under the hand check and the photo buttons; on a phone, in one."""
    screen = touch_phone(browser, *size)
    page = next(screen)
    game = new_game(server, ["Ana", "Ben"])
    page.goto(edit_url(server, game))
    page.get_by_text("Count by hand").first.tap()
    page.get_by_test_id("counters").wait_for()
    idle(page)
    boxes = {cat: page.get_by_test_id(f"counter-{cat}").bounding_box() for cat in TALLY_KEYS}
    left = {key: box["x"] for key, box in boxes.items()}
    camera = page.get_by_test_id("camera-1").bounding_box()
    counters = page.get_by_test_id("counters").bounding_box()
    if size[0] > 900:
        columns = sorted(set(left.values()))
        assert len(columns) == 2 and columns[1] - columns[0] > 300, left
        groups = [("tempura", "dumpling"), ("egg", "squid")]
        assert all(left[a] == left[b] for a, b in groups), left  # a group kept whole
        # Each column's first row level with the other's (the second's had stood higher).
        tops = [min(b["y"] for b in boxes.values() if b["x"] == x) for x in columns]
        assert abs(tops[0] - tops[1]) <= 1, boxes
        assert counters["width"] > 0.7 * size[0], counters
        assert camera["y"] + camera["height"] <= counters["y"], (camera, counters)
    else:
        assert len(set(left.values())) == 1, left
    next(screen, None)


# --- a photo that is not this hand's -------------------------------------------------------


def test_a_photo_over_its_hand_may_hold_a_neighbours_cards(server: Server, phone: Any) -> None:
    page = phone
    labels = ["tempura", "sashimi", "dumpling", "egg", "squid", "pudding"] * 2
    open_review(server, page, boxes_for(labels, width=900, height=706), (900, 706))
    said = page.get_by_test_id("hand-check").inner_text()
    assert said.endswith(
        "10 cards expected, 12 found: 2 cards may be a neighbour's, or counted twice"
    )
    # The round's list says it as plainly ("12 of 10" read as a slip).
    page.get_by_role("button", name="Round 1").first.tap()
    status = page.get_by_test_id("player-status-1").inner_text()
    assert status == "To review · 12 cards, 10 expected", status


def test_a_card_set_by_hand_over_the_hand_is_said_as_such(server: Server, phone: Any) -> None:
    """Ten cards on the photo and one more added with +: the hand check had blamed the
    photo ("a neighbour's, or counted twice"); the card over the hand was set by hand."""
    page = phone
    open_review(server, page, boxes_for(["tempura"] * 10, width=750, height=1000), (750, 1000))
    page.get_by_test_id("plus-dumpling").click()
    idle(page)
    said = page.get_by_test_id("hand-check").inner_text()
    assert said.endswith("10 cards expected, 11 found: a card set by hand may be counted twice")


def test_one_photo_sent_for_two_players_is_said_on_the_review(server: Server, phone: Any) -> None:
    """Ben picks Ana's photo from the shared album: his review says whose it is."""
    page = phone
    labels = ["tempura", "sashimi", "dumpling", "egg", "squid"] * 2
    size = (900, 708)
    open_review(server, page, boxes_for(labels, width=size[0], height=size[1]), size)
    assert page.get_by_test_id("warnings").count() == 0
    page.get_by_role("button", name="Round 1").first.tap()
    page.get_by_test_id("camera-2").set_input_files(
        {"name": "cards.jpg", "mimeType": "image/jpeg", "buffer": jpeg(size)}
    )
    page.get_by_test_id("hand-check").wait_for()
    idle(page)
    told = page.get_by_test_id("warnings").locator("li.error").all_inner_texts()
    assert told == [
        "Ben's photo is the same file as Ana's: each player photographs their own cards; "
        "retake the one that is not"
    ], told
