"""`sushigo eval`'s figures and its list of the photos read wrong (vision/training/evaluate.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from datasets.synth import write_dataset
from datasets.yolo_format import read_all
from scoring import Tally, check_collection
from scoring.cards import CARD_KINDS
from vision import notices
from vision.detections import Detections
from vision.labels import LABEL_ID
from vision.photo import load_photo_file
from vision.training.evaluate import WRONG_PRINTED, PhotoResult, Report, evaluate, format_report

TRUTH = Tally(tempura=3, egg_on_wasabi=1, pudding=2)


def result(name: str, read: Tally, meta: dict | None = None, **kw: object) -> PhotoResult:
    return PhotoResult(name, TRUTH, read, meta or {}, 0.04, **kw)  # type: ignore[arg-type]


def test_the_photos_read_wrong_are_listed_with_what_was_wrong_and_what_was_said() -> None:
    read = Tally(tempura=2, egg=1, pudding=2)
    problems = check_collection(read, players=5)  # a hand-size problem, in the rules' words
    assert [problem.message for problem in problems] == [
        "this collection has 5 cards, the hand size for 5 players is 7: 2 cards were "
        "probably missed"
    ]
    report = Report(
        photos=[
            result("000001", TRUTH),
            result(
                "000441",
                read,
                {"fill": 0.3, "tilt": 10},
                remarks=(*problems, notices.looked_closer(4, 5)),
            ),
        ]
    )
    summary = report.summary()
    assert summary["subsets"]["all"]["exact_tally"] == 0.5
    assert summary["wrong_photos"] == [
        {
            "photo": "000441",
            "read_and_true": {"tempura": [2, 3], "egg": [1, 0], "egg_on_wasabi": [0, 1]},
            "hard": ["small_in_frame"],
            "warnings": [problems[0].message],
            "notes": [
                "the photo was looked at closer to find the hand's 5 cards (4 were found at first)"
            ],
        }
    ]
    assert summary["warned"] == {"wrong": 1.0, "right": 0.0}
    printed = format_report(summary)
    assert "photos read wrong: 1" in printed
    said = "with a warning: 1.000 of the photos read wrong, 0.000 of the photos read right"
    assert said in printed
    line = next(line for line in printed.splitlines() if line.startswith("000441"))
    assert "tempura 2 (3)" in line and "small_in_frame" in line and "probably missed" in line
    assert line.endswith(
        "; note: the photo was looked at closer to find the hand's 5 cards (4 were found at first)"
    )
    assert "000001" not in printed


def test_the_printed_report_keeps_its_columns_where_a_share_is_of_no_photos() -> None:
    """A subset with no photos had printed "nan   nan" out of line, and the confusion's
    headers had been cut ("tempur", "(misse")."""
    summary = Report(photos=[result("000001", TRUTH)]).summary()
    summary["confusion"] = {kind: {kind: 3} for kind in (*CARD_KINDS, "(none)")}
    printed = format_report(summary)
    assert "nan" not in printed
    lines = printed.splitlines()
    start = lines.index("subset            photos  exact   stacks  maki    score   cards")
    rows = lines[start + 1 : lines.index("", start)]
    assert len(rows) > 1 and len({len(row) for row in rows}) == 1, rows  # all in line
    assert any(row.split()[1] == "0" and "  -  " in row for row in rows), rows
    confusion = lines[lines.index(next(x for x in lines if x.startswith("confusion"))) + 1 :]
    assert confusion[0].split() == [str(n) for n in range(1, 14)]
    assert confusion[1].split() == ["1", "tempura", "3", *["0"] * 12]
    assert confusion[13].split() == ["(none)", *["0"] * 13]


def test_a_long_list_of_wrong_photos_is_cut_in_print_but_not_in_the_json() -> None:
    wrong = [result(f"{n:06d}", Tally()) for n in range(WRONG_PRINTED + 5)]
    summary = Report(photos=wrong).summary()
    assert summary["warned"]["wrong"] == 0.0  # none carries a warning
    assert len(summary["wrong_photos"]) == WRONG_PRINTED + 5
    printed = format_report(summary)
    assert f"{WRONG_PRINTED - 1:06d}" in printed and f"{WRONG_PRINTED:06d}" not in printed
    assert "and 5 more" in printed


def test_a_photo_read_turned_is_warned_only_by_more_than_its_turn_notice() -> None:
    turn = notices.turned(330)
    low = notices.low_confidence(["egg"], 0.5)
    hand = check_collection(Tally(egg=1), players=5)[0]
    report = Report(
        photos=[
            result("000001", TRUTH, remarks=(turn,), turned=330),
            result("000002", TRUTH, remarks=(turn, low), turned=330),
            result("000003", TRUTH),
            result("000004", TRUTH, remarks=(hand, turn), turned=330),
        ]
    )
    assert report.summary()["warned"]["right"] == 0.5


class ReadsOnItsSide:
    """Finds every card exactly, but confidently only in each photo turned a quarter
    clockwise: as a detector does cards that lay on their side."""

    def __init__(self, data: Path) -> None:
        self.truths: dict[bytes, Detections] = {}
        for item in read_all(data):
            photo = load_photo_file(item.image)
            boxes = np.array([box for _, *box in item.boxes], np.float32) / photo.scale
            ids = [LABEL_ID[kind] for kind, *_ in item.boxes]
            height = photo.image.shape[0]
            turned = np.stack(
                [height - boxes[:, 3], boxes[:, 0], height - boxes[:, 1], boxes[:, 2]], 1
            )
            self.truths[photo.image.tobytes()] = Detections(boxes, np.full(len(ids), 0.3), ids)
            quarter = np.ascontiguousarray(np.rot90(photo.image, -1))
            self.truths[quarter.tobytes()] = Detections(turned, np.full(len(ids), 0.95), ids)

    def __call__(
        self, image: np.ndarray, size: int | None = None, conf: float | None = None
    ) -> Detections:
        return self.truths.get(image.tobytes(), Detections.empty())


def test_a_photo_read_turned_is_scored_against_its_cards_where_they_lie(tmp_path: Path) -> None:
    data = write_dataset(tmp_path / "data", images=3, seed=3, size=320, workers=1, progress=False)
    report = evaluate(data, ReadsOnItsSide(data), split="all")
    assert all(result.turned == 90 for result in report.photos)
    assert report.ap and all(ap["map50_95"] == 1.0 for ap in report.ap.values())
    assert not report.confusion["(none)"]


class MissesACard:
    """Finds every card of each photo but its first, confidently."""

    def __init__(self, data: Path) -> None:
        self.truths: dict[bytes, Detections] = {}
        for item in read_all(data):
            photo = load_photo_file(item.image)
            boxes = np.array([box for _, *box in item.boxes[1:]], np.float32) / photo.scale
            ids = [LABEL_ID[kind] for kind, *_ in item.boxes[1:]]
            self.truths[photo.image.tobytes()] = Detections(boxes, np.full(len(ids), 0.95), ids)

    def __call__(
        self, image: np.ndarray, size: int | None = None, conf: float | None = None
    ) -> Detections:
        return self.truths.get(image.tobytes(), Detections.empty())


def test_without_the_player_count_no_hand_size_is_checked(tmp_path: Path) -> None:
    """`sushigo eval --without-players` reads as `sushigo detect` without --players: a hand
    a card short is then read wrong without a word."""
    data = write_dataset(tmp_path / "data", images=3, seed=5, size=320, workers=1, progress=False)
    detector = MissesACard(data)
    with_count = evaluate(data, detector, split="all").summary()
    without = evaluate(data, detector, split="all", players=False).summary()
    assert with_count["subsets"]["all"]["exact_tally"] == 0.0
    assert without["subsets"]["all"]["exact_tally"] == 0.0
    assert with_count["warned"]["wrong"] == 1.0
    assert without["warned"]["wrong"] == 0.0


@pytest.mark.parametrize(("players", "words"), [(True, "with"), (False, "without")])
def test_the_report_says_whether_the_player_count_was_given(players: bool, words: str) -> None:
    summary = Report(photos=[result("000001", TRUTH)], players=players).summary()
    assert summary["with_players"] is players
    first = format_report(summary).splitlines()[0]
    assert first == f"read {words} the player count (the hand-size check)"
