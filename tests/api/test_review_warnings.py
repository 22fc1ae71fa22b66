"""A review's warnings: vision's notices and the photo's stored notes, never a second
wording of the collection's own problems (those come once, as `problems`)."""

from __future__ import annotations

from typing import Any

from api.review import RELABEL, UPLOAD, Event, assess, replay
from scoring import ProblemCode

SQUID = ["squid"] * 6 + ["tempura"] * 3


def records(labels: list[str], confidence: float = 0.9) -> list[dict[str, Any]]:
    """Whole cards side by side: one box each."""
    return [
        {"label": label, "confidence": confidence, "box": [700 * k, 0, 700 * k + 630, 880]}
        for k, label in enumerate(labels)
    ]


def uploaded(photo: list[dict[str, Any]]) -> Any:
    return replay([Event(1, UPLOAD, {"photo": 1})], {1: photo})


def test_six_squid_are_said_once_as_the_players_deck_problem() -> None:
    assessment = assess(uploaded(records(SQUID)), players=3, seat=2, round=1, name="Ben")
    assert assessment.warnings == []
    assert [p.code for p in assessment.problems] == [ProblemCode.DECK_LIMIT]
    assert assessment.problems[0].message == (
        "round 1: Ben's collection holds 6 squid nigiri (plain and on wasabi), the deck has only 5"
    )


def test_the_notices_stay_beside_the_problems() -> None:
    photo = [*records(SQUID[:-1]), *records(["egg"], 0.4)]
    photo[-1]["box"] = [700 * 9, 0, 700 * 9 + 630, 880]
    said = (
        "one salmon nigiri read as lying on a wasabi, to make up the hand's count: check that "
        "a wasabi is under it"
    )
    note = "the photo was read turned 90° clockwise: its cards lay on their side"
    assessment = assess(
        uploaded(photo), warnings=[said], notes=[note], players=3, seat=2, round=1, name="Ben"
    )
    assert assessment.warnings == [
        said,
        "1 card read with under 50% certainty (egg nigiri): check it",
    ]
    assert assessment.notes == [note]
    assert [p.code for p in assessment.problems] == [ProblemCode.DECK_LIMIT]


def test_the_boxes_warned_of_are_marked_by_their_own_ids() -> None:
    """A box under the reading's floor (uncounted) comes before the one read at 40 %: the
    mark lands on the 40 % box's id, not on the box at its place in the counted ones."""
    photo = records(["tempura", "egg", "sashimi", "pudding"])
    photo[0]["confidence"] = 0.1  # under the floor: not counted, never warned of
    photo[2]["confidence"] = 0.4
    assessment = assess(uploaded(photo), players=3)
    assert assessment.counted == frozenset({2, 3, 4})
    assert assessment.to_check == frozenset({3})
    assert assessment.asks == {3: ("1 card read with under 50% certainty (sashimi): check it",)}


def test_a_stack_seen_only_by_its_strip_is_warned_of_in_a_games_review() -> None:
    """The stack check's odds are stored with the photo's boxes: a wasabi strip above a
    salmon the check did not call on a wasabi is pointed out, and the salmon marked, until
    a person labels the salmon."""
    photo = [
        {"label": "wasabi", "confidence": 0.9, "box": [100, 100, 260, 150]},
        {"label": "salmon", "confidence": 0.9, "box": [100, 150, 260, 387], "under": 0.2},
        {"label": "tempura", "confidence": 0.9, "box": [400, 150, 560, 387]},
    ]
    assessment = assess(uploaded(photo), players=3)
    assert assessment.tally.salmon_on_wasabi == 1
    assert [w for w in assessment.warnings if "seen only by the strip" in w] == [
        "1 stack seen only by the strip above its nigiri (salmon nigiri): check that it is a "
        "wasabi's top (its green icon), not another yellow card's"
    ]
    assert assessment.to_check == frozenset({2})
    relabelled = replay(
        [
            Event(1, UPLOAD, {"photo": 1}),
            Event(2, RELABEL, {"detection": 2, "label": "salmon", "previous": "salmon"}),
        ],
        {1: photo},
    )
    after = assess(relabelled, players=3)
    assert after.warnings == [] and after.to_check == frozenset()


def test_a_warning_naming_two_boxes_stands_until_both_are_checked() -> None:
    """Two nigiri that may lie on a wasabi, named by one stored warning: the player checks
    the salmon; the squid, never looked at, is still marked and still warned of."""
    photo = records(["salmon", "tempura", "squid"])
    text = "2 nigiri read as plain, though they may lie on a wasabi (salmon nigiri, squid nigiri)"
    stored = [{"text": text, "boxes": [0, 2]}]
    before = assess(uploaded(photo), warnings=stored, players=3)
    assert before.warnings == [text] and before.to_check == frozenset({1, 3})
    salmon_checked = replay(
        [
            Event(1, UPLOAD, {"photo": 1}),
            Event(2, RELABEL, {"detection": 1, "label": "salmon", "previous": "salmon"}),
        ],
        {1: photo},
    )
    after = assess(salmon_checked, warnings=stored, players=3)
    assert after.warnings == [text] and after.to_check == frozenset({3})
    assert after.asks == {3: (text,)}
    both_checked = replay(
        [
            Event(1, UPLOAD, {"photo": 1}),
            Event(2, RELABEL, {"detection": 1, "label": "salmon", "previous": "salmon"}),
            Event(3, RELABEL, {"detection": 3, "label": "squid", "previous": "squid"}),
        ],
        {1: photo},
    )
    done = assess(both_checked, warnings=stored, players=3)
    assert done.warnings == [] and done.to_check == frozenset()
