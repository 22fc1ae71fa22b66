"""Vision's notices carry codes; the collection's own problems stay the rules engine's
Problems; the words a client gets (to_json, in order) are the same either way."""

from __future__ import annotations

import dataclasses

import numpy as np

from scoring import Problem, ProblemCode
from tests.vision.test_reading import FOUR_CARDS, Table, boxes, leaning, settled_reading, spread
from vision.detections import Detections
from vision.notices import (
    NO_CARDS,
    Notice,
    NoticeCode,
    looked_closer,
    remark_text,
    turned,
    unsure_stacks,
    warns,
)
from vision.pipeline import read_turned
from vision.reading import read_tally, settle_hand_size


def codes(warnings: list[Notice | Problem]) -> list[str]:
    return [warning.code for warning in warnings]


def test_a_low_confidence_box_gives_a_low_confidence_notice_naming_it() -> None:
    """The notice names the egg by its index in the detections read (2), not in the
    reading's own (1: the box under the reading's floor is not read)."""
    reading = read_tally(
        boxes(
            ("dumpling", [0, 1000, 630, 1880], 0.1),
            ("tempura", [0, 0, 630, 880], 0.9),
            ("egg", [700, 0, 1330, 880], 0.4),
        )
    )
    assert codes(reading.remarks) == [NoticeCode.LOW_CONFIDENCE]
    (notice,) = reading.notices
    assert notice == Notice(
        NoticeCode.LOW_CONFIDENCE,
        "1 card read with under 50% certainty (egg nigiri): check it",
        boxes=(2,),
    )
    assert reading.to_check == [2] and reading.detections.labels[1] == "egg"
    assert reading.problems == []


def test_six_squid_are_one_deck_problem_and_no_notice() -> None:
    found = boxes(*((label, [700 * k, 0, 700 * k + 630, 880], 0.9)
                    for k, label in enumerate(["squid"] * 6 + ["tempura"] * 3)))  # fmt: skip
    reading = read_tally(found)
    (problem,) = reading.remarks
    assert isinstance(problem, Problem) and problem.code == ProblemCode.DECK_LIMIT
    assert problem.category == "squid" and problem.actual == 6
    assert reading.problems == [problem] and reading.notices == []
    assert reading.warning_texts == [
        "this collection holds 6 squid nigiri (plain and on wasabi), the deck has only 5"
    ]


def test_the_hand_size_is_a_problem_not_a_notice() -> None:
    reading = read_tally(spread(*FOUR_CARDS), players=5)
    assert codes(reading.remarks) == [ProblemCode.TOO_FEW_CARDS]
    assert all(isinstance(warning, Problem) for warning in reading.remarks)


def test_no_cards() -> None:
    reading = read_tally(Detections.empty(), players=2)
    assert codes(reading.remarks) == [NoticeCode.NO_CARDS, ProblemCode.TOO_FEW_CARDS]
    assert reading.notices == [NO_CARDS]


def test_doubts_and_a_stack_seen_only_by_its_strip_have_their_codes() -> None:
    found = boxes(
        ("salmon", [0, 0, 630, 880], 0.9),
        ("maki_2", [700, 0, 1330, 880], 0.9),
    )
    doubted = Detections(found.xyxy, found.confidence, found.class_id, doubt=[0.2, 0.3])
    assert codes(read_tally(doubted).remarks) == [NoticeCode.NIGIRI_DOUBT, NoticeCode.MAKI_DOUBT]
    stacked = Table().stack("salmon", 60, 50).detections()
    under = np.full(len(stacked), np.nan, np.float32)
    under[stacked.labels.index("salmon")] = 0.8
    asked = dataclasses.replace(stacked, wasabi_under=under)
    assert codes(read_tally(asked).remarks) == [NoticeCode.STRIP_ONLY_STACK]


def test_what_the_hand_size_settled_and_what_it_did_not_have_their_codes() -> None:
    lone = leaning(spread(*FOUR_CARDS, ("squid_on_wasabi", 0.8)), squid_on_wasabi=0.97)
    unsettled = settle_hand_size(lone, None)
    assert codes(unsettled.notices) == [NoticeCode.UNSURE_STACK]
    assert unsettled.reading.remarks == unsettled.notices  # no hand size: no problem
    stacked = leaning(spread(*FOUR_CARDS, ("egg", 0.9), ("salmon", 0.9)), egg=0.97, salmon=0.1)
    assert codes(settle_hand_size(stacked, 5).notices) == [NoticeCode.READ_ON_WASABI]


def test_to_json_says_each_warning_in_words_in_order_and_the_notes_apart() -> None:
    """Vision's notices, then the rules engine's problems, as strings; the turn, which
    asks for no check, among the notes."""
    found = spread(*FOUR_CARDS[:3], ("egg", 0.4))
    reading = read_turned(settled_reading(found, players=5), 90)
    assert codes(reading.remarks) == [
        NoticeCode.LOW_CONFIDENCE,
        ProblemCode.TOO_FEW_CARDS,
        NoticeCode.TURNED,
    ]
    body = reading.to_json()
    assert body["warnings"] == [
        "1 card read with under 50% certainty (egg nigiri): check it",
        "this collection has 4 cards, the hand size for 5 players is 7: "
        "3 cards were probably missed",
    ]
    assert body["notes"] == ["the photo was read turned 90° clockwise: its cards lay on their side"]
    assert all(type(text) is str for text in body["warnings"] + body["notes"])
    assert body["warnings"] == reading.warning_texts
    assert body["notes"] == reading.note_texts
    assert reading.warning_texts + reading.note_texts == [remark_text(w) for w in reading.remarks]


def test_only_the_turn_and_the_closer_look_are_notes() -> None:
    """A note asks for no check; every other notice, and every problem, warns."""
    notes = {code for code in NoticeCode if not Notice(code, "").warns}
    assert notes == {NoticeCode.TURNED, NoticeCode.LOOKED_CLOSER}
    assert not warns(turned(90)) and not warns(looked_closer(6, 7))
    too_few = settled_reading(spread(*FOUR_CARDS[:3]), players=5).problems
    assert too_few and all(map(warns, too_few))


def test_the_turn_notice() -> None:
    assert turned(180) == Notice(
        NoticeCode.TURNED, "the photo was read turned 180°: its cards stood upside down"
    )
    assert (
        turned(330).text == "the photo was read turned 30° anticlockwise: its cards lay at a slant"
    )
    assert turned(270).text == str(turned(270))


def test_a_stack_only_the_check_called_is_judged_by_the_settling() -> None:
    """No wasabi box under a stack box: read_tally counts the detector's stack as it
    stands, unwarned; settle_hand_size, which every machine reading passes through, reads
    it plain. A reviewer's stack box (never asked: NaN) is the reviewer's."""
    found = boxes(
        ("tempura", [0, 0, 630, 880], 0.9), ("salmon_on_wasabi", [700, 0, 1330, 880], 0.9)
    )
    asked = dataclasses.replace(found, wasabi_under=[np.nan, 0.96])
    assert read_tally(asked).remarks == [] and read_tally(asked).tally.salmon_on_wasabi == 1
    assert settle_hand_size(asked, None).reading.tally.salmon == 1
    reviewers = settle_hand_size(found, None)
    assert reviewers.reading.tally.salmon_on_wasabi == 1 and reviewers.notices == []


def test_nigiri_read_plain_that_may_lie_on_a_wasabi_are_said_in_a_players_words() -> None:
    """No "stack check" and no odds (its odds are not a wasabi's chance where no top of
    one was found): what may be so, and what to look at; for one nigiri and for more."""
    assert unsure_stacks(["squid"]).text == (
        "one squid nigiri read as plain, though it may lie on a wasabi whose top was not "
        "found: check whether a wasabi shows above it"
    )
    assert unsure_stacks(["squid", "egg"]).text == (
        "2 nigiri read as plain, though they may lie on a wasabi (squid nigiri, egg nigiri) "
        "whose top was not found: check whether a wasabi shows above each"
    )
