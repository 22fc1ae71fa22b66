"""A review's warnings: vision's notices and the photo's stored notes, never a second
wording of the collection's own problems (those come once, as `problems`)."""

from __future__ import annotations

from typing import Any

from api.review import UPLOAD, Event, assess, replay
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
    said = "one salmon nigiri read as on a wasabi: the stack check called it on one (0.97)"
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
