"""Another player's cards caught in the photo (vision/neighbours.py, vision.pipeline.settle):
the groups of boxes, and what a group lying apart does to a reading."""

from __future__ import annotations

import numpy as np
import pytest

from vision import neighbours, pipeline
from vision.detections import Detections
from vision.labels import label_id
from vision.notices import NoticeCode
from vision.photo import Photo
from vision.pipeline import read_photo
from vision.reading import Settled, cards_among, read_tally

WIDTH, HEIGHT = 1000, 500  # the decoded photo; the original is twice as large


def row(count: int, x: float, y: float = 150.0) -> list[list[float]]:
    """`count` card boxes side by side (50 x 70 px, 10 px apart) from x."""
    return [[x + 60 * i, y, x + 50 + 60 * i, y + 70] for i in range(count)]


def test_boxes_close_together_are_one_group_the_collection_the_one_framed() -> None:
    size = (WIDTH, HEIGHT)
    boxes = np.array(row(3, 750) + row(5, 300), np.float32)
    assert neighbours.groups(boxes, size).tolist() == [1, 1, 1, 0, 0, 0, 0, 0]
    assert [g.tolist() for g in neighbours.apart(boxes, size)] == [[0, 1, 2]]
    # Half a card's gap (35 px) still joins them: a collection's own rows lie so.
    close = np.array(row(5, 100) + row(3, 100 + 5 * 60 + 25), np.float32)
    assert neighbours.apart(close, size) == []
    # The collection is the group off the photo's edge, nearest its middle, more cards or
    # fewer: a whole neighbour's hand at the edge is not it.
    framed = np.array(row(6, 0, 20) + row(4, 400, 200), np.float32)
    assert neighbours.groups(framed, size).tolist() == [1] * 6 + [0] * 4
    # Both off the edge: the one nearer the middle; both as near, the one with more cards.
    off_edge = np.array(row(2, 20, 20) + row(2, 450), np.float32)
    assert neighbours.groups(off_edge, size).tolist() == [1, 1, 0, 0]
    level = np.array(row(2, 460, 110) + row(3, 400, 320), np.float32)  # 70 px from the middle
    assert neighbours.groups(level, size).tolist() == [1, 1, 0, 0, 0]


def test_the_groups_apart_are_tried_alone_then_together_fewest_cards_first() -> None:
    boxes = np.array(row(6, 300) + row(2, 0) + row(1, 900), np.float32)
    tried = [sorted(c.tolist()) for c in neighbours.choices(boxes, (WIDTH, HEIGHT))]
    assert tried == [[8], [6, 7], [6, 7, 8]]
    # A hand no group apart makes right tries groups closer together next: a row 40 px
    # (0.57 of a card) from the collection joins it at first, then lies apart.
    near = np.array(row(6, 300, 200) + row(2, 300, 310), np.float32)
    assert [c.tolist() for c in neighbours.choices(near, (WIDTH, HEIGHT))] == [[6, 7]]


def test_a_group_at_the_edge_reaches_within_a_hundredth_of_the_long_side() -> None:
    boxes = np.array(row(2, 5), np.float32)
    assert neighbours.at_the_edge(boxes, (WIDTH, HEIGHT))
    assert not neighbours.at_the_edge(boxes + np.float32([20, 0, 20, 0]), (WIDTH, HEIGHT))
    assert neighbours.at_the_edge(np.array([[400, 100, 450, 496]], np.float32), (WIDTH, HEIGHT))


class Table:
    """Finds the given boxes (decoded photo px) as tempura, whatever it is asked."""

    def __init__(self, boxes: list[list[float]]) -> None:
        self.boxes = np.array(boxes, np.float32)
        self.sizes: list[int | None] = []

    def __call__(
        self, image: np.ndarray, size: int | None = None, conf: float | None = None
    ) -> Detections:
        self.sizes.append(size)
        n = len(self.boxes)
        return Detections(self.boxes.copy(), np.full(n, 0.9), [label_id("tempura")] * n)


def photo() -> Photo:
    image = np.full((HEIGHT, WIDTH, 3), 90, np.uint8)
    return Photo(image, (2 * WIDTH, 2 * HEIGHT), 2.0)


def codes(reading: object) -> list[str]:
    return [remark.code for remark in reading.remarks]  # type: ignore[attr-defined]


@pytest.mark.parametrize("where", [0.0, 700.0])  # at the photo's edge, or within it
def test_a_hand_over_its_size_leaves_out_the_cards_lying_apart(where: float) -> None:
    """Two players hold 10 cards; 12 are found, 2 of them apart (the next player's): the
    hand is read without them, and the reviewer told so, naming them."""
    detector = Table(row(10, 250 - 250 * (where == 0), 300) + row(2, where, 20))
    reading = read_photo(photo(), detector, players=2)
    assert reading.cards == 10 and not reading.problems
    assert codes(reading) == [NoticeCode.LEFT_OUT_APART]
    assert reading.warning_texts == [
        "2 cards lying apart from the rest (tempura, tempura) were left out as another "
        "player's, which made the hand's count right: if they are this player's, count them"
    ]
    # A closer look came first: a card boxed twice makes a hand over more often.
    assert set(pipeline.CLOSER_SIZES) <= set(detector.sizes)
    assert reading.detections.xyxy[:, 1].min() >= 2 * 300  # the row apart is not read


def test_the_cards_left_out_stay_for_the_reviewer_to_count() -> None:
    """What a game's review starts from keeps the boxes left out, marked so and stored so,
    and the warning names them: the reviewer sees which cards they are, and counts one by
    labelling it."""
    detector = Table(row(10, 250, 300) + row(2, 0, 20))
    seen = photo()
    detections, reading, told = pipeline.review_detections(
        seen, detector(seen.image).scaled(seen.scale), 2, detector
    )
    assert len(detections) == 12 and detections.is_left_out.tolist() == [False] * 10 + [True] * 2
    assert reading.cards == 10
    assert [n.boxes for n in told if n.code == NoticeCode.LEFT_OUT_APART] == [(10, 11)]
    records = detections.to_records(stored=True)
    assert [r.get("left_out", False) for r in records] == [False] * 10 + [True] * 2
    assert "left_out" not in records[0]  # stored only where true
    # The contract's shape (POST /detect) flags every box: a client that adds up its
    # labels must not count a neighbour's cards.
    assert [r["left_out"] for r in detections.to_records()] == [False] * 10 + [True] * 2
    settled = Settled(detections, reading, told)
    body = settled.to_json()  # POST /detect's: the reading's boxes, then those left out
    assert [d["left_out"] for d in body["detections"]] == [False] * 10 + [True] * 2
    assert body["cards"] == 10
    again = Detections.from_records(records)
    assert again.is_left_out.tolist() == detections.is_left_out.tolist()
    assert read_tally(again).cards == 10
    assert read_tally(Detections.from_records(r | {"left_out": False} for r in records)).cards == 12


def test_a_hand_over_its_size_keeps_cards_apart_that_would_not_make_it_right() -> None:
    """12 found, 3 apart: leaving them out makes 9 of a hand of 10, so every card stays,
    the hand's error says why the round cannot be recorded, and the cards apart are
    pointed out."""
    reading = read_photo(photo(), Table(row(9, 300, 300) + row(3, 0, 20)), players=2)
    assert reading.cards == 12
    assert [p.code for p in reading.problems] == ["too_many_cards"]
    apart = next(n for n in reading.notices if n.code == NoticeCode.CARDS_APART)
    assert apart.boxes == (9, 10, 11)
    assert (
        apart.text
        == "3 cards at the photo's edge lie apart from the rest: check that they are this player's"
    )


def test_a_hand_that_adds_up_is_not_warned_of_cards_apart() -> None:
    """A loose collection's own cards lie apart, at the edge too: where the hand adds up,
    or no player count says what it should be, nothing is said of them."""
    for players in (2, None):
        at_edge = read_photo(photo(), Table(row(9, 300, 300) + row(1, 0, 20)), players=players)
        assert at_edge.cards == 10 and codes(at_edge) == []


def test_one_collection_is_never_warned_of() -> None:
    reading = read_photo(photo(), Table(row(10, 0, 300)), players=2)
    assert reading.cards == 10 and codes(reading) == []


class BoxedTwice(Table):
    """As Table, but a closer look finds one box fewer: the collection's last card, boxed
    twice at first."""

    def __call__(
        self, image: np.ndarray, size: int | None = None, conf: float | None = None
    ) -> Detections:
        found = super().__call__(image, size, conf)
        return found[: len(found) - 1] if size in pipeline.CLOSER_SIZES else found


@pytest.mark.parametrize("edge", [True, False])
def test_where_a_closer_look_also_makes_the_hand_right_only_cards_at_the_edge_are_left_out(
    edge: bool,
) -> None:
    """11 found of a hand of 10, one card lying apart: a closer look that finds 10 is
    kept, unless the card apart reaches the photo's edge, as a neighbour's does (a loose
    card of the player's own had been left out so)."""
    apart = row(1, 0 if edge else 100, 20)
    reading = read_photo(photo(), BoxedTwice(apart + row(10, 250, 300)), players=2)
    assert reading.cards == 10
    left_out = NoticeCode.LEFT_OUT_APART in codes(reading)
    assert left_out == edge, codes(reading)
    assert (NoticeCode.LOOKED_CLOSER in codes(reading)) != edge


def test_cards_left_out_are_not_pointed_out_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """With every hand's cards apart pointed out (POINT_OUT_APART_ALWAYS), the cards left
    out are said once, as left out: not again as counted cards to check."""
    monkeypatch.setattr(pipeline, "POINT_OUT_APART_ALWAYS", True)
    reading = read_photo(photo(), Table(row(10, 250, 300) + row(2, 0, 20)), players=2)
    assert codes(reading) == [NoticeCode.LEFT_OUT_APART]
    loose = read_photo(photo(), Table(row(9, 300, 300) + row(1, 0, 20)), players=2)
    assert codes(loose) == [NoticeCode.CARDS_APART]


class Found(Table):
    """As Table, with each box's label and confidence given."""

    def __init__(self, boxes: list[list[float]], labels: list[str], confidence: list[float]):
        super().__init__(boxes)
        self.labels, self.confidence = labels, confidence

    def __call__(
        self, image: np.ndarray, size: int | None = None, conf: float | None = None
    ) -> Detections:
        self.sizes.append(size)
        ids = [label_id(label) for label in self.labels]
        return Detections(self.boxes.copy(), np.array(self.confidence), ids)


def test_the_cards_left_out_are_said_as_cards_and_a_stack_among_them_as_its_nigiri() -> None:
    """The next player's three boxes at the edge: a salmon the stack check put on a wasabi
    (its word alone, no wasabi box), a second box on it, and a box under the confidence
    floor. The warning names one card; the salmon is left out plain, so that counting it
    counts one card, not two; the export takes one card of the three."""
    apart = [[0, 20, 50, 90], [1, 21, 51, 91], [0, 100, 50, 170]]
    labels = ["tempura"] * 10 + ["salmon_on_wasabi", "salmon_on_wasabi", "egg"]
    detector = Found(row(10, 250, 300) + apart, labels, [0.9] * 11 + [0.8, 0.1])
    seen = photo()
    found = detector(seen.image).scaled(seen.scale)
    detections, reading, told = pipeline.review_detections(seen, found, 2, detector)
    assert reading.cards == 10 and detections.is_left_out.tolist() == [False] * 10 + [True] * 3
    assert detections.labels[10:] == ["salmon", "salmon", "egg"]
    (left_out,) = [n for n in told if n.code == NoticeCode.LEFT_OUT_APART]
    assert left_out.text.startswith("1 card lying apart from the rest (salmon nigiri) was left out")
    assert left_out.boxes == (10, 11, 12)  # all shown, the second box and the unsure too
    assert cards_among(detections[10:]).tolist() == [0]
