"""Detections to a tally: stacks from geometry, duplicates, maki, warnings.

The detections are made the way a detector sees a table: cards are placed as (possibly
turned) rectangles of 63 x 88 units in z-order, drawn into a label map, and each card's
box is the bounding box of the pixels where it lies on top (its visible part), as
vision/labels.py defines the detector's boxes.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections import Counter
from dataclasses import dataclass, field

import cv2
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from scoring import ProblemCode, Tally, check_collection
from scoring.cards import DECK, HAND_SIZE, NIGIRI, TALLY_KEYS
from vision.boxes import intersections, pairwise_intersections
from vision.detections import Detections
from vision.labels import label_id
from vision.notices import NoticeCode
from vision.reading import (
    MAKI_DOUBT,
    NIGIRI_DOUBT,
    NO_CARDS,
    WASABI_DOUBT,
    Reading,
    count_tally,
    read_tally,
    same_card,
    settle_hand_size,
    stack_fit,
    top_fragment,
)

CARD_W, CARD_H = 63.0, 88.0
PX = 3.0  # label-map pixels per card unit
CONFIDENCE = 0.9


def settled_reading(detections: Detections, players: int | None = None) -> Reading:
    """The hand size's settling alone (no pixels, so no closer look)."""
    return settle_hand_size(detections, players).reading


def card_corners(cx: float, cy: float, angle: float) -> np.ndarray:
    """Corners (TL, TR, BR, BL) of a card centred at (cx, cy), turned `angle` degrees."""
    a = math.radians(angle)
    rotation = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    half = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], float) * [CARD_W / 2, CARD_H / 2]
    return half @ rotation.T + [cx, cy]


def along(angle: float, dx: float, dy: float) -> tuple[float, float]:
    """A displacement in a turned card's own frame, in table coordinates."""
    a = math.radians(angle)
    return dx * math.cos(a) - dy * math.sin(a), dx * math.sin(a) + dy * math.cos(a)


@dataclass
class Table:
    """Cards on a table in z-order (later ones lie on top)."""

    cards: list[tuple[str, np.ndarray]] = field(default_factory=list)

    def card(self, label: str, cx: float, cy: float, angle: float = 0.0) -> Table:
        self.cards.append((label, card_corners(cx, cy, angle)))
        return self

    def stack(
        self,
        nigiri: str,
        cx: float,
        cy: float,
        *,
        shift: float = 0.25,
        direction: str = "down",
        angle: float = 0.0,
        slide: float = 0.0,
        twist: float = 0.0,
    ) -> Table:
        """A wasabi at (cx, cy) with a nigiri on it, shifted by `shift` of a card."""
        self.card("wasabi", cx, cy, angle)
        dx, dy = {
            "down": (slide, shift * CARD_H),
            "right": (shift * CARD_W, slide),
            "left": (-shift * CARD_W, slide),
        }[direction]
        ox, oy = along(angle, dx, dy)
        return self.card(nigiri, cx + ox, cy + oy, angle + twist)

    def column(
        self, labels: list[str], cx: float, cy: float, *, step: float = 0.3, angle: float = 0.0
    ) -> Table:
        """Overlapped cards: each covers all but the top `step` of the one before."""
        for k, label in enumerate(labels):
            ox, oy = along(angle, 0.0, k * step * CARD_H)
            self.card(label, cx + ox, cy + oy, angle)
        return self

    def detections(
        self,
        *,
        homography: np.ndarray | None = None,
        confidence: float = CONFIDENCE,
        jitter: float = 0.0,
        rng: np.random.Generator | None = None,
    ) -> Detections:
        """Boxes around each card's visible pixels (optionally seen through a homography,
        with edges jittered by up to `jitter` of a card as a detector would)."""
        quads = [corners for _, corners in self.cards]
        if homography is not None:
            quads = [cv2.perspectiveTransform(q[None], homography)[0] for q in quads]
        points = np.concatenate(quads) * PX
        origin = points.min(axis=0) - 4
        width, height = np.ceil(points.max(axis=0) - origin + 8).astype(int)
        label_map = np.zeros((height, width), np.int32)
        pixel_quads = [np.round(quad * PX - origin).astype(np.int32) for quad in quads]
        for i, quad in enumerate(pixel_quads):
            cv2.fillPoly(label_map, [quad], i + 1)
        boxes, ids = [], []
        for i, ((label, _), quad) in enumerate(zip(self.cards, pixel_quads, strict=True)):
            (x0, y0), (x1, y1) = quad.min(axis=0), quad.max(axis=0) + 1
            ys, xs = np.nonzero(label_map[y0:y1, x0:x1] == i + 1)  # a card's pixels lie
            if len(xs):  # within its own outline
                boxes.append([x0 + xs.min(), y0 + ys.min(), x0 + xs.max() + 1, y0 + ys.max() + 1])
                ids.append(label_id(label))
        xyxy = (np.array(boxes, np.float64).reshape(-1, 4) + np.tile(origin, 2)) / PX
        if jitter and rng is not None:
            xyxy += rng.uniform(-jitter, jitter, xyxy.shape) * CARD_W
            xyxy[:, 2:] = np.maximum(xyxy[:, 2:], xyxy[:, :2] + 1)
        scale = 10.0  # photo pixels per card unit: boxes in a plausible pixel range
        return Detections(xyxy * scale, np.full(len(ids), confidence), np.array(ids))


def boxes(*rows: tuple[str, list[float], float]) -> Detections:
    """Detections written out by hand: (label, [x1, y1, x2, y2], confidence)."""
    if not rows:
        return Detections.empty()
    return Detections(
        np.array([box for _, box, _ in rows], np.float32),
        np.array([p for _, _, p in rows], np.float32),
        np.array([label_id(label) for label, _, _ in rows]),
    )


def nonzero(reading: Reading) -> dict[str, int]:
    return {key: count for key, count in reading.tally.to_dict().items() if count}


# --- layouts ----------------------------------------------------------------------------


def test_a_row_of_cards_is_counted_card_by_card() -> None:
    table = Table()
    for k, label in enumerate(["tempura", "tempura", "sashimi", "dumpling", "pudding"]):
        table.card(label, 40 + k * 70, 50)
    reading = read_tally(table.detections())
    assert nonzero(reading) == {"tempura": 2, "sashimi": 1, "dumpling": 1, "pudding": 1}
    assert reading.cards == 5
    assert reading.stacks == []
    assert reading.remarks == []


def test_a_column_of_three_salmon_is_three_salmon_not_a_stack() -> None:
    for step in (0.2, 0.3, 0.4):
        reading = read_tally(Table().column(["salmon"] * 3, 40, 50, step=step).detections())
        assert nonzero(reading) == {"salmon": 3}, step
        assert reading.cards == 3


def test_a_column_of_wasabi_is_no_stack() -> None:
    reading = read_tally(Table().column(["wasabi"] * 3, 40, 50).detections())
    assert nonzero(reading) == {"wasabi": 3}


@pytest.mark.parametrize("shift", [0.15, 0.25, 0.35])
@pytest.mark.parametrize("nigiri", NIGIRI)
def test_a_wasabi_strip_above_a_nigiri_is_a_stack(nigiri: str, shift: float) -> None:
    reading = read_tally(Table().stack(nigiri, 50, 50, shift=shift).detections())
    assert nonzero(reading) == {f"{nigiri}_on_wasabi": 1}
    assert reading.cards == 2
    assert [reading.detections.labels[i] for i in reading.stacks[0]] == ["wasabi", nigiri]


@pytest.mark.parametrize("direction", ["right", "left"])
@pytest.mark.parametrize("shift", [0.15, 0.25, 0.35])
def test_a_sideways_stack(direction: str, shift: float) -> None:
    table = Table().stack("squid", 50, 50, shift=shift, direction=direction)
    assert nonzero(read_tally(table.detections())) == {"squid_on_wasabi": 1}


@pytest.mark.parametrize("slide", [-3.0, 3.0])
@pytest.mark.parametrize("twist", [-3.0, 3.0])
def test_a_stack_laid_askew_is_a_stack(slide: float, twist: float) -> None:
    """Slivers along the wasabi's side stretch its box to a whole card; still a stack."""
    table = Table().stack("salmon", 50, 50, shift=0.2, slide=slide, twist=twist)
    detections = table.detections()
    wasabi_box = detections.xyxy[0]
    assert wasabi_box[3] - wasabi_box[1] > 0.9 * CARD_H * 10  # a whole card long
    assert nonzero(read_tally(detections)) == {"salmon_on_wasabi": 1}


@pytest.mark.parametrize("angle", [-15, -8, 8, 15])
@pytest.mark.parametrize("direction", ["down", "right", "left"])
@pytest.mark.parametrize("shift", [0.15, 0.35])
def test_a_turned_stack_is_a_stack(angle: float, direction: str, shift: float) -> None:
    table = Table().stack("egg", 80, 80, shift=shift, direction=direction, angle=angle, twist=2)
    assert nonzero(read_tally(table.detections())) == {"egg_on_wasabi": 1}


@pytest.mark.parametrize("angle", [-15, 15])
def test_a_turned_column_of_nigiri_and_a_turned_row_hold_no_stack(angle: float) -> None:
    table = Table().column(["salmon", "egg", "squid"], 60, 60, angle=angle)
    table.card("wasabi", 160, 60, angle).card("salmon", 240, 60, angle)
    reading = read_tally(table.detections())
    assert nonzero(reading) == {"salmon": 2, "egg": 1, "squid": 1, "wasabi": 1}


def test_two_wasabi_in_a_column_hold_one_nigiri() -> None:
    """Column wasabi, wasabi, egg: the egg lies on the second wasabi only."""
    reading = read_tally(Table().column(["wasabi", "wasabi", "egg"], 40, 50).detections())
    assert nonzero(reading) == {"egg_on_wasabi": 1, "wasabi": 1}
    assert reading.cards == 3


def test_two_wasabi_and_one_nigiri_side_by_side() -> None:
    table = Table().card("wasabi", 40, 60).stack("salmon", 120, 50)
    reading = read_tally(table.detections())
    assert nonzero(reading) == {"salmon_on_wasabi": 1, "wasabi": 1}


@pytest.mark.parametrize("gap", [-4.0, 0.0, 3.0, 12.0])
def test_an_unfilled_wasabi_next_to_a_nigiri_in_a_row_is_no_stack(gap: float) -> None:
    """A whole wasabi beside a nigiri (even slightly under it) is an unfilled wasabi."""
    for nigiri_first in (False, True):
        left, right = ("salmon", "wasabi") if nigiri_first else ("wasabi", "salmon")
        table = Table().card(left, 40, 50).card(right, 40 + CARD_W + gap, 52)
        reading = read_tally(table.detections())
        assert nonzero(reading) == {"salmon": 1, "wasabi": 1}, (gap, nigiri_first)


def test_an_unfilled_wasabi_above_a_nigiri_in_the_next_row_is_no_stack() -> None:
    table = Table().card("wasabi", 40, 50).card("egg", 40, 50 + CARD_H + 5)
    assert nonzero(read_tally(table.detections())) == {"wasabi": 1, "egg": 1}


def test_a_stack_heading_a_column_of_nigiri() -> None:
    """Wasabi, its nigiri, then more nigiri over that one: only the first is on the wasabi."""
    table = Table().stack("salmon", 40, 50, shift=0.25)
    for k in (1, 2):
        table.card("squid", 40, 50 + 0.25 * CARD_H + k * 0.3 * CARD_H)
    reading = read_tally(table.detections())
    assert nonzero(reading) == {"salmon_on_wasabi": 1, "squid": 2}


def test_a_nigiri_under_a_wasabi_in_a_column_is_no_stack() -> None:
    """Played before the wasabi, the egg lies under it: the wasabi covers the egg."""
    reading = read_tally(Table().column(["egg", "wasabi"], 40, 50).detections())
    assert nonzero(reading) == {"egg": 1, "wasabi": 1}


def test_a_photo_taken_at_an_angle() -> None:
    table = Table().stack("salmon", 50, 60).column(["tempura"] * 3, 150, 50)
    table.card("wasabi", 250, 60).card("egg", 330, 60)
    src = np.float32([[0, 0], [400, 0], [400, 200], [0, 200]])
    dst = np.float32([[40, 0], [360, 0], [400, 150], [0, 150]])  # far edge narrower
    homography = cv2.getPerspectiveTransform(src, dst)
    reading = read_tally(table.detections(homography=homography))
    assert nonzero(reading) == {"salmon_on_wasabi": 1, "tempura": 3, "wasabi": 1, "egg": 1}


def test_a_full_hand() -> None:
    """Eight cards for four players: rows, a column, a stack and an unfilled wasabi."""
    table = Table().column(["maki_2", "maki_3"], 40, 50).stack("squid", 120, 50)
    table.card("wasabi", 200, 50).card("pudding", 280, 50).card("chopsticks", 360, 50)
    reading = read_tally(table.detections(), players=4)
    assert nonzero(reading) == {
        "maki_2": 1,
        "maki_3": 1,
        "squid_on_wasabi": 1,
        "wasabi": 1,
        "pudding": 1,
        "chopsticks": 1,
    }
    assert reading.cards == 7
    assert reading.warning_texts == [
        "this collection has 7 cards, the hand size for 4 players is 8: a card was probably missed"
    ]
    assert reading.problems == reading.remarks


@dataclass(frozen=True)
class Pile:
    cards: tuple[str, ...]  # one card, or ("wasabi", nigiri)

    @property
    def key(self) -> str:
        return f"{self.cards[1]}_on_wasabi" if len(self.cards) == 2 else self.cards[0]


def random_table(rng: np.random.Generator) -> tuple[Table, Counter[str]]:
    """A collection laid out as people do (card-spec.md), and its true tally."""
    kinds = [k for k in DECK if k != "wasabi"]
    table, truth = Table(), Counter()
    x, y, row_height = 0.0, 0.0, 0.0
    for _ in range(rng.integers(2, 7)):
        angle = float(rng.uniform(-12, 12))
        style = rng.choice(["card", "column", "stack", "stack_column", "wasabi"])
        width, height = 1.6 * CARD_W, 1.4 * CARD_H
        cx, cy = x + 0.8 * CARD_W, y + 0.7 * CARD_H
        if style == "card":
            kind = str(rng.choice(kinds))
            table.card(kind, cx, cy, angle)
            truth[kind] += 1
        elif style == "wasabi":
            count = int(rng.integers(1, 3))
            table.column(["wasabi"] * count, cx, cy, angle=angle, step=rng.uniform(0.2, 0.4))
            truth["wasabi"] += count
            height += CARD_H * 0.4 * (count - 1)
        elif style == "column":
            kind, count = str(rng.choice(kinds)), int(rng.integers(2, 5))
            step = float(rng.uniform(0.2, 0.4))
            table.column([kind] * count, cx, cy, step=step, angle=angle)
            truth[kind] += count
            height += CARD_H * step * (count - 1)
        else:
            nigiri = str(rng.choice(NIGIRI))
            direction = "down" if style == "stack_column" else str(rng.choice(["down", "right"]))
            shift = float(rng.uniform(0.15, 0.35))
            slide, twist = float(rng.uniform(-2, 2)), float(rng.uniform(-3, 3))
            table.stack(nigiri, cx, cy, shift=shift, direction=direction, angle=angle,
                        slide=slide, twist=twist)  # fmt: skip
            truth[f"{nigiri}_on_wasabi"] += 1
            if style == "stack_column":  # more nigiri laid over the stacked one
                extra = str(rng.choice(NIGIRI))
                for k in range(1, int(rng.integers(2, 4))):
                    ox, oy = along(angle, 0.0, (shift + 0.3 * k) * CARD_H)
                    table.card(extra, cx + ox, cy + oy, angle)
                    truth[extra] += 1
                    height += 0.3 * CARD_H
            else:
                width += 0.4 * CARD_W
                height += 0.4 * CARD_H
        x += width
        row_height = max(row_height, height)
        if x > 4 * CARD_W:
            x, y, row_height = 0.0, y + row_height, 0.0
    return table, truth


@settings(max_examples=100, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), tilted=st.booleans())
@example(seed=3696, tilted=True)  # a stacked nigiri narrowed by the egg laid over it
def test_random_layouts_read_exactly(seed: int, tilted: bool) -> None:
    """Rows, columns, stacks (down or sideways, askew), turned up to 12 degrees, seen from
    above or at an angle, with detector jitter: the tally is exactly the collection's."""
    rng = np.random.default_rng(seed)
    table, truth = random_table(rng)
    homography = None
    if tilted:
        corners = np.concatenate([c for _, c in table.cards])
        (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
        squeeze, depth = rng.uniform(0.03, 0.12) * (x1 - x0), rng.uniform(0.7, 0.95)
        src = np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
        dst = np.float32(
            [[x0 + squeeze, y0], [x1 - squeeze, y0], [x1, y0 + (y1 - y0) * depth],
             [x0, y0 + (y1 - y0) * depth]]
        )  # fmt: skip
        homography = cv2.getPerspectiveTransform(src, dst)
    detections = table.detections(homography=homography, jitter=0.01, rng=rng)
    reading = read_tally(detections)
    assert nonzero(reading) == {k: v for k, v in truth.items() if v}


# --- duplicates and reviewer labels -----------------------------------------------------


def test_two_classes_on_one_card_count_once() -> None:
    card = [100, 100, 730, 980]
    reading = read_tally(
        boxes(
            ("salmon", card, 0.8),
            ("egg", [108, 95, 725, 990], 0.6),
            ("wasabi", [95, 110, 735, 970], 0.55),
        )
    )
    assert nonzero(reading) == {"salmon": 1}
    assert reading.detections.labels == ["salmon"]
    assert reading.cards == 1


def test_a_duplicate_keeps_the_more_confident_label() -> None:
    reading = read_tally(
        boxes(("maki_2", [0, 0, 630, 880], 0.4), ("maki_3", [5, 5, 630, 880], 0.9))
    )
    assert nonzero(reading) == {"maki_3": 1}


def test_same_card_needs_matching_edges_not_only_overlap() -> None:
    whole = np.array([0, 0, 63, 88], float)
    assert same_card(whole, np.array([2, -3, 64, 90], float))
    # The next card of a column, its box stretched by slivers: IoU 0.67, tops 20 % apart.
    assert not same_card(whole, np.array([0, 17.6, 63, 105.6]))


def test_the_top_of_a_card_boxed_as_a_card_of_its_own_counts_once() -> None:
    """The finder boxed the top 30-45 % of a card again (held-out glossy, painted and
    cartoon art: an edge in the illustration read as the top of the next card in a
    column), more confidently than the whole card; the classifier read both alike."""
    reading = read_tally(
        boxes(
            ("dumpling", [1151, 136, 1268, 290], 0.47),
            ("dumpling", [1152, 136, 1267, 183], 0.78),
            ("tempura", [1300, 136, 1417, 290], 0.9),
        )
    )
    assert nonzero(reading) == {"dumpling": 1, "tempura": 1}
    assert reading.cards == 2


def test_a_strip_of_the_same_kind_may_rise_a_little_above_the_whole_cards_box() -> None:
    """Held-out pixel photo 264: the finder's box of the whole sashimi starts 11 % of a
    card below the strip's top; a wasabi strip that high above a nigiri stays a stack."""
    whole, strip = [822, 746, 895, 811], [818, 739, 893, 781]
    reading = read_tally(boxes(("sashimi", whole, 0.81), ("sashimi", strip, 0.42)))
    assert nonzero(reading) == {"sashimi": 1}
    stack = read_tally(boxes(("salmon", whole, 0.81), ("wasabi", strip, 0.42)))
    assert nonzero(stack) == {"salmon_on_wasabi": 1}


def test_a_covered_cards_strip_is_no_fragment_of_the_card_over_it() -> None:
    whole = np.array([0, 26.4, 63, 114.4])  # the next card of a column, 30 % down
    assert not top_fragment(np.array([0, 0, 63, 26.4]), whole)
    assert top_fragment(np.array([1, 27, 62, 60]), whole)
    assert not top_fragment(np.array([1, 27, 30, 60]), whole)  # half its width: no strip
    assert not top_fragment(whole, np.array([0, 26.4, 63, 60]))  # the whole card: the outer


def test_a_stack_box_takes_the_wasabi_touching_it_however_big_its_box() -> None:
    """Seed-3000 photo 42 (40 degrees of tilt): the stack check read the squid as on a
    wasabi, but the turned wasabi strip's box, half a card, fitted no stack geometry and
    counted as a second wasabi. A plain nigiri touching such a box stays plain."""
    cards = (
        ("tempura", [437, 570, 716, 830], 0.92),
        ("dumpling", [288, 765, 550, 976], 0.88),
        ("wasabi", [670, 508, 811, 752], 0.83),
        ("pudding", [102, 847, 351, 1034], 0.86),
    )
    stacked = read_tally(boxes(("squid_on_wasabi", [728, 429, 998, 726], 0.9), *cards))
    assert nonzero(stacked) == {"tempura": 1, "dumpling": 1, "squid_on_wasabi": 1, "pudding": 1}
    assert stacked.cards == 5
    plain = read_tally(boxes(("squid", [728, 429, 998, 726], 0.9), *cards))
    assert nonzero(plain) == {"tempura": 1, "dumpling": 1, "squid": 1, "wasabi": 1, "pudding": 1}


def test_a_whole_wasabi_beside_a_stack_is_not_its_strip() -> None:
    """Seed-3000 photo 275: a whole wasabi card touches the stack's box at a corner; the
    stack's own strip, which fits no stack geometry either, lies mostly under it."""
    reading = read_tally(
        boxes(
            ("salmon_on_wasabi", [711, 865, 1043, 1150], 0.9),
            ("wasabi", [376, 669, 706, 978], 0.9),
            ("wasabi", [857, 847, 1062, 943], 0.8),
            ("tempura", [1100, 600, 1420, 900], 0.9),
        )
    )
    assert nonzero(reading) == {"salmon_on_wasabi": 1, "wasabi": 1, "tempura": 1}
    assert reading.cards == 4


@settings(max_examples=50, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_pair_overlaps_as_one_against_many(seed: int) -> None:
    rng = np.random.default_rng(seed)
    corners = rng.uniform(0, 100, (int(rng.integers(1, 9)), 2))
    boxes = np.hstack([corners, corners + rng.uniform(-5, 40, corners.shape)])
    pairs = pairwise_intersections(boxes)
    for i, box in enumerate(boxes):
        np.testing.assert_allclose(pairs[i], intersections(box, boxes))


def test_a_reviewers_stack_box_absorbs_the_boxes_inside_it() -> None:
    reading = read_tally(
        boxes(
            ("salmon_on_wasabi", [100, 100, 740, 1200], 1.0),
            ("wasabi", [105, 105, 735, 330], 0.9),
            ("salmon", [102, 320, 738, 1195], 0.95),
            ("tempura", [900, 100, 1530, 980], 0.9),
        )
    )
    assert nonzero(reading) == {"salmon_on_wasabi": 1, "tempura": 1}
    assert reading.detections.labels == ["salmon_on_wasabi", "tempura"]
    assert reading.cards == 3
    assert reading.stacks == []


@pytest.mark.parametrize("direction", ["down", "right", "left"])
def test_a_nigiri_the_stack_check_calls_stacked_counts_once_with_or_without_its_strip(
    direction: str,
) -> None:
    """The detector labels a nigiri's box as the stack when the stack check is sure; the
    finder may or may not have boxed the wasabi's strip beside it."""
    records = Table().stack("squid", 50, 50, shift=0.2, direction=direction).detections()
    records = records.to_records()
    next(r for r in records if r["label"] == "squid")["label"] = "squid_on_wasabi"
    with_strip = read_tally(Detections.from_records(records))
    without = read_tally(Detections.from_records([r for r in records if r["label"] != "wasabi"]))
    assert nonzero(with_strip) == nonzero(without) == {"squid_on_wasabi": 1}
    assert with_strip.cards == without.cards == 2


@pytest.mark.parametrize("direction", ["right", "left"])
def test_a_strip_between_a_plain_nigiri_and_a_stack_belongs_to_the_stack(direction: str) -> None:
    """A row: a plain squid, then a salmon on a wasabi whose strip shows on the squid's
    side. The strip fits the squid as well (a squid shifted the other way), but the salmon
    is known to lie on a wasabi: the strip is its, and the squid stays plain."""
    side = 1 if direction == "right" else -1
    table = Table().card("squid", 50, 50)
    table.stack("salmon", 50 + side * CARD_W, 50, shift=0.25, direction=direction)
    records = table.detections().to_records()
    next(r for r in records if r["label"] == "salmon")["label"] = "salmon_on_wasabi"
    reading = read_tally(Detections.from_records(records))
    assert nonzero(reading) == {"squid": 1, "salmon_on_wasabi": 1}
    assert reading.cards == 3


# Size-1280 photo 201 (seed 8400): an egg, a wasabi's strip, and a squid shifted right
# on that wasabi, in a row; the strip also fits the egg shifted left, by less.
ROW_201 = (
    ("sashimi", [383, 1041, 580, 1224], 0.92),
    ("chopsticks", [606, 778, 839, 1028], 0.92),
    ("egg", [70, 836, 333, 1069], 0.92),
    ("tempura", [589, 1019, 793, 1212], 0.91),
    ("maki_2", [161, 1062, 389, 1245], 0.90),
    ("wasabi", [281, 833, 369, 1035], 0.79),
)


@pytest.mark.parametrize("squid", ["squid", "squid_on_wasabi"])
def test_a_nigiri_beside_a_stack_is_not_read_as_lying_under_it(squid: str) -> None:
    """The strip fits the egg with the smaller shift, and the two nigiri's boxes touch;
    that made the squid "a nigiri lying on the egg", dropped, which only means something
    for two nigiri shifted the same way (a column). The squid fits better: it is the stack,
    whether or not the stack check said so."""
    reading = read_tally(boxes((squid, [320, 811, 562, 1053], 0.91), *ROW_201))
    assert nonzero(reading) == {
        "sashimi": 1, "chopsticks": 1, "egg": 1, "tempura": 1, "maki_2": 1, "squid_on_wasabi": 1,
    }  # fmt: skip
    assert reading.cards == 7


def test_a_leftover_strip_goes_to_the_stack_before_a_plain_nigiri() -> None:
    """Size-1280 photo 183 (seed 8400): a turned column of an egg, a wasabi, and a salmon
    the stack check calls stacked. The wasabi's strip fits no stack geometry, and more of it
    lies under the egg's box above it (38 %) than under the stack's (33 %). The stack is
    known to lie on a wasabi; the egg is not: the strip is the stack's."""
    reading = read_tally(
        boxes(
            ("sashimi", [777, 19, 1052, 309], 0.93),
            ("pudding", [686, 381, 925, 603], 0.91),
            ("dumpling", [887, 285, 1144, 527], 0.91),
            ("tempura", [559, 128, 847, 401], 0.90),
            ("maki_2", [343, 238, 612, 484], 0.90),
            ("salmon_on_wasabi", [567, 553, 800, 744], 0.90),
            ("wasabi", [527, 497, 700, 596], 0.86),
            ("egg", [500, 461, 664, 545], 0.85),
        )
    )
    assert nonzero(reading) == {
        "sashimi": 1, "pudding": 1, "dumpling": 1, "tempura": 1, "maki_2": 1,
        "salmon_on_wasabi": 1, "egg": 1,
    }  # fmt: skip
    assert reading.cards == 8


def test_a_stack_takes_the_strip_under_it_before_a_plain_nigiri_fits_that_strip() -> None:
    """Pixel photo 151: a salmon the stack check calls stacked, its wasabi sticking out on
    the left and rising a little too far for the sideways fit; the same strip fits the
    plain salmon to its left. The stack claims the strip lying under it (57 %) first."""
    reading = read_tally(
        boxes(
            ("pudding", [572, 514, 809, 798], 0.91),
            ("tempura", [816, 435, 1057, 732], 0.92),
            ("maki_1", [361, 585, 592, 858], 0.91),
            ("salmon", [622, 804, 839, 1053], 0.92),
            ("maki_2", [168, 652, 413, 919], 0.9),
            ("salmon", [447, 859, 668, 1100], 0.9),
            ("salmon_on_wasabi", [849, 735, 1078, 998], 0.85),
            ("egg", [280, 907, 512, 1147], 0.91),
            ("wasabi", [807, 795, 913, 1010], 0.84),
        )
    )
    assert nonzero(reading) == {
        "pudding": 1, "tempura": 1, "maki_1": 1, "salmon": 2, "maki_2": 1,
        "salmon_on_wasabi": 1, "egg": 1,
    }  # fmt: skip
    assert reading.cards == 9


def test_a_nigiri_relabelled_as_a_stack_takes_its_wasabi_strip_along() -> None:
    """A reviewer relabels the nigiri's box as a stack: the wasabi strip above is part of
    it, not an unfilled wasabi."""
    detections = Table().stack("egg", 50, 50).card("wasabi", 150, 50).detections()
    records = detections.to_records()
    records[1]["label"] = "egg_on_wasabi"
    reading = read_tally(Detections.from_records(records))
    assert nonzero(reading) == {"egg_on_wasabi": 1, "wasabi": 1}
    assert reading.cards == 3


def test_maki_cards_count_by_icons() -> None:
    table = Table()
    for k, label in enumerate(["maki_1", "maki_2", "maki_2", "maki_3", "maki_3", "maki_3"]):
        table.card(label, 40 + k * 70, 50)
    reading = read_tally(table.detections())
    assert nonzero(reading) == {"maki_1": 1, "maki_2": 2, "maki_3": 3}
    icons = reading.tally.maki_icons
    assert icons == 14


# --- warnings ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", sorted(HAND_SIZE))
def test_hand_size_warning(players: int) -> None:
    hand = HAND_SIZE[players]
    table = Table()
    for k in range(hand - 1):
        table.card("tempura" if k < 8 else "sashimi", 40 + k * 70, 50)
    reading = read_tally(table.detections(), players=players)
    assert reading.warning_texts == [
        f"this collection has {hand - 1} cards, the hand size for {players} players is {hand}: "
        "a card was probably missed"
    ]
    assert read_tally(table.card("dumpling", 0, 200).detections(), players=players).remarks == []


def test_a_stack_counts_two_cards_toward_the_hand() -> None:
    table = Table().stack("salmon", 50, 50)
    for k in range(5):
        table.card("pudding", 150 + 70 * k, 50)
    assert read_tally(table.detections(), players=5).remarks == []


def spread(*cards: tuple[str, float], y: float = 0.0) -> Detections:
    """Whole cards side by side, none touching: (label, confidence) each."""
    return boxes(
        *((label, [120 * k, y, 120 * k + 63, y + 88], p) for k, (label, p) in enumerate(cards))
    )


FOUR_CARDS = (("tempura", 0.9), ("tempura", 0.9), ("sashimi", 0.9), ("dumpling", 0.9))


def test_a_stack_on_the_checks_word_alone_is_read_plain_where_the_hand_vouches() -> None:
    """Five players hold 7 cards. Five cards and a nigiri the check called on a wasabi
    (0.96), with no wasabi box anywhere near it, make 8 as a stack (it counts 2): read as
    the plain nigiri the hand is right, and nothing is said of it."""
    found = spread(*FOUR_CARDS, ("pudding", 0.9), ("squid_on_wasabi", 0.8), ("egg", 0.9))
    detections = leaning(found, squid_on_wasabi=0.96)
    assert read_tally(detections, players=5).cards == 8
    settled = settle_hand_size(detections, 5)
    assert nonzero(settled.reading) == {"tempura": 2, "sashimi": 1, "dumpling": 1, "pudding": 1,
                                        "squid": 1, "egg": 1}  # fmt: skip
    assert settled.reading.cards == 7
    assert settled.reading.remarks == settled.notices == []
    assert settled.detections.labels[-2] == "squid"


def test_without_the_hand_size_a_stack_on_the_checks_word_alone_is_read_plain_and_said() -> None:
    """However sure the check was: on the tuning sets most such stacks were a plain nigiri
    below another yellow card. The reviewer is told where to look, and no odds: the
    check's, however high, are not a wasabi's chance where no wasabi's top was found."""
    for odds in (0.96, 0.999):
        detections = leaning(spread(*FOUR_CARDS, ("salmon_on_wasabi", 0.8)), salmon_on_wasabi=odds)
        settled = settle_hand_size(detections, None)
        assert nonzero(settled.reading)["salmon"] == 1 and settled.reading.cards == 5
        assert settled.reading.warning_texts == [
            "one salmon nigiri read as plain, though it may lie on a wasabi whose top was not "
            "found: check whether a wasabi shows above it"
        ]
        assert settled.notices == settled.reading.remarks


def test_a_stack_box_holding_a_wasabi_box_is_not_on_the_checks_word_alone() -> None:
    """A wasabi strip beside its nigiri may be boxed mostly inside the stack's box (which
    then absorbs it): a wasabi was found, and the stack stands."""
    found = boxes(
        ("tempura", [0, 0, 630, 880], 0.9),
        ("salmon_on_wasabi", [700, 0, 1330, 880], 0.8),
        ("wasabi", [690, 10, 1000, 860], 0.6),
    )
    detections = leaning(found, salmon_on_wasabi=0.99)
    settled = settle_hand_size(detections, None)
    assert nonzero(settled.reading) == {"tempura": 1, "salmon_on_wasabi": 1}
    assert settled.notices == []


def test_of_two_stacks_on_the_checks_word_the_one_it_leaned_most_to_makes_the_hand() -> None:
    """Five players hold 7 cards. Four cards and two nigiri the check called on a wasabi
    make 6 read plain: one card short, the squid it gave the higher odds is the stack."""
    found = spread(*FOUR_CARDS, ("salmon_on_wasabi", 0.7), ("squid_on_wasabi", 0.8))
    detections = leaning(found, salmon_on_wasabi=0.96, squid_on_wasabi=0.99)
    reading = settled_reading(detections, players=5)
    assert nonzero(reading) == {
        "tempura": 2, "sashimi": 1, "dumpling": 1, "salmon": 1, "squid_on_wasabi": 1,
    }  # fmt: skip
    assert reading.warning_texts == [
        "one squid nigiri read as lying on a wasabi, to make up the hand's count: check that "
        "a wasabi is under it"
    ]


def test_a_hand_the_size_cannot_settle_keeps_the_plain_nigiri_and_says_so() -> None:
    """Four players hold 8 cards. Five cards and two nigiri the check called make 7 read
    plain, one short: the egg it gave the higher odds makes 8. Nine read plain (one too many)
    stay plain, with the hand's problem and the notice beside it."""
    found = spread(*FOUR_CARDS, ("pudding", 0.9), ("salmon_on_wasabi", 0.9), ("egg_on_wasabi", 0.9))
    detections = leaning(found, salmon_on_wasabi=0.96, egg_on_wasabi=0.97)
    assert nonzero(settled_reading(detections, players=4)) == {"tempura": 2, "sashimi": 1,
        "dumpling": 1, "pudding": 1, "salmon": 1, "egg_on_wasabi": 1}  # fmt: skip
    more = spread(*FOUR_CARDS, ("pudding", 0.9), ("pudding", 0.9), ("chopsticks", 0.9),
                  ("salmon_on_wasabi", 0.9), ("egg_on_wasabi", 0.9))  # fmt: skip
    more = leaning(more, salmon_on_wasabi=0.96, egg_on_wasabi=0.97)
    assert read_tally(more, players=4).cards == 11
    reading = settled_reading(more, players=4)
    assert reading.cards == 9 and reading.tally.salmon == reading.tally.egg == 1
    assert [w.code for w in reading.remarks] == [
        ProblemCode.TOO_MANY_CARDS, NoticeCode.UNSURE_STACK,
    ]  # fmt: skip


def leaning(detections: Detections, **under: float) -> Detections:
    """The same detections with the stack check's probability set for these labels."""
    probabilities = np.array([under.get(label, np.nan) for label in detections.labels])
    return Detections(detections.xyxy, detections.confidence, detections.class_id, probabilities)


def test_one_card_too_few_settles_the_nigiri_the_stack_check_leaned_towards_a_wasabi() -> None:
    """Five players hold 7 cards. Four cards and two plain nigiri make 6: the check called
    the egg on a wasabi (0.97), the salmon not (0.1); the egg is read as the stack, and
    the reading says so."""
    found = spread(*FOUR_CARDS, ("egg", 0.9), ("salmon", 0.9))
    detections = leaning(found, egg=0.97, salmon=0.1)
    assert read_tally(detections, players=5).cards == 6
    reading = settled_reading(detections, players=5)
    assert nonzero(reading) == {"tempura": 2, "sashimi": 1, "dumpling": 1, "egg_on_wasabi": 1,
                                "salmon": 1}  # fmt: skip
    assert reading.cards == 7
    assert reading.warning_texts == [
        "one egg nigiri read as lying on a wasabi, to make up the hand's count: check that "
        "a wasabi is under it"
    ]
    settled = settle_hand_size(detections, 5)
    assert settled.notices == reading.remarks
    assert settled.detections.labels[-2] == "egg_on_wasabi"
    # The notice names the box it read back, for a game to mark it.
    assert settled.notices[0].boxes == (len(detections) - 2,)


def test_one_card_too_few_stays_where_the_check_did_not_lean_towards_a_wasabi() -> None:
    found = spread(*FOUR_CARDS, ("egg", 0.9), ("salmon", 0.9))
    # The check gave the egg fair odds (0.9) but did not call it: a card the finder missed
    # is likelier, and the hand stays short for the closer look.
    for detections in (leaning(found, egg=0.9, salmon=0.1), found):  # found: never asked
        assert settled_reading(detections, players=5).to_json() == (
            read_tally(detections, players=5).to_json()
        )
    # Two cards short: one stack would not make the hand.
    two_short = leaning(spread(*FOUR_CARDS, ("egg", 0.9)), egg=0.99)
    assert settled_reading(two_short, players=5).cards == 5


def test_a_nigiri_already_on_a_wasabi_strip_is_not_settled_again() -> None:
    """The salmon lies on a wasabi strip that was found (a stack by geometry): only the
    plain egg beside it may be read as a stack, though the check leaned more to the salmon."""
    stack = Table().stack("salmon", 50, 50).detections()
    row = spread(*FOUR_CARDS[:3], ("egg", 0.9), y=5000)
    detections = leaning(Detections.merge([stack, row]), salmon=0.99, egg=0.96)
    assert read_tally(detections, players=5).cards == 6
    assert nonzero(settled_reading(detections, players=5)) == {
        "tempura": 2, "sashimi": 1, "salmon_on_wasabi": 1, "egg_on_wasabi": 1,
    }  # fmt: skip


def test_the_hand_size_leaves_alone_what_it_cannot_settle() -> None:
    """A reviewer's stack box (never asked: NaN odds) with no player count, a hand one card
    short or two too many; a stack whose wasabi strip was found: the reading stays as
    read_tally has it."""
    lone = spread(*FOUR_CARDS, ("pudding", 0.9), ("squid_on_wasabi", 0.8), ("egg", 0.9))
    assert settled_reading(lone).to_json() == read_tally(lone).to_json()
    short = spread(*FOUR_CARDS, ("squid_on_wasabi", 0.8))
    assert settled_reading(short, players=5).to_json() == read_tally(short, players=5).to_json()
    two_over = spread(*FOUR_CARDS, ("pudding", 0.9), ("pudding", 0.9), ("squid_on_wasabi", 0.8),
                      ("egg", 0.9))  # fmt: skip
    assert (
        settled_reading(two_over, players=5).to_json() == read_tally(two_over, players=5).to_json()
    )
    records = Table().stack("squid", 50, 50).detections().to_records()
    next(r for r in records if r["label"] == "squid")["label"] = "squid_on_wasabi"
    row = spread(*FOUR_CARDS, ("pudding", 0.9), ("egg", 0.9), y=5000)
    found = Detections.merge([Detections.from_records(records), row])
    assert read_tally(found, players=5).cards == 8
    assert read_tally(found, players=5).lone_stacks == []
    assert settled_reading(found, players=5).to_json() == read_tally(found, players=5).to_json()


def test_unknown_player_count_is_refused() -> None:
    with pytest.raises(ValueError, match="players"):
        read_tally(Detections.empty(), players=6)


def test_low_confidence_warning_and_threshold() -> None:
    reading = read_tally(
        boxes(
            ("tempura", [0, 0, 630, 880], 0.9),
            ("salmon", [700, 0, 1330, 880], 0.45),
            ("maki_2", [1400, 0, 2030, 880], 0.3),
            ("pudding", [2100, 0, 2730, 880], 0.2),  # below min_confidence: dropped
        )
    )
    assert nonzero(reading) == {"tempura": 1, "salmon": 1, "maki_2": 1}
    assert reading.warning_texts == [
        "2 cards read with under 50% certainty (salmon nigiri, maki of 2 rolls): check them"
    ]
    one = read_tally(boxes(("egg", [0, 0, 630, 880], 0.49)))
    assert one.warning_texts == ["1 card read with under 50% certainty (egg nigiri): check it"]


def test_an_unsure_wasabi_under_a_nigiri_is_named_by_its_nigiri() -> None:
    """A stack's wasabi read unsure beside a lone wasabi: a bare "(wasabi)" had sent the
    player to the lone one, which the photo tags "Wasabi"; it is the one under the egg."""
    stacked = Table().stack("egg", 50, 50).card("wasabi", 160, 50).detections()
    confidence = stacked.confidence.copy()
    confidence[stacked.labels.index("wasabi")] = 0.4  # the stack's strip, drawn first
    reading = read_tally(Detections(stacked.xyxy, confidence, stacked.class_id))
    assert nonzero(reading) == {"egg_on_wasabi": 1, "wasabi": 1}
    assert reading.warning_texts == [
        "1 card read with under 50% certainty (the wasabi under the egg nigiri): check it"
    ]


def test_a_nigiri_read_with_doubt_between_nigiri_kinds_is_pointed_out() -> None:
    found = boxes(
        ("salmon", [0, 0, 630, 880], 0.84),
        ("egg", [700, 0, 1330, 880], 0.95),
        ("squid", [1400, 0, 2030, 880], 0.9),
        ("tempura", [2100, 0, 2730, 880], 0.9),
    )
    doubted = Detections(
        found.xyxy,
        found.confidence,
        found.class_id,
        doubt=[0.14, NIGIRI_DOUBT - 0.01, NIGIRI_DOUBT, np.nan],
    )
    reading = read_tally(doubted)
    assert reading.warning_texts == [
        "2 nigiri may be another kind: one read as salmon nigiri (another kind 14% likely), "
        "one read as squid nigiri (another kind 10% likely); "
        "check the dishes in their top-left corners"
    ]
    assert read_tally(found).remarks == []  # a reviewer's boxes carry no doubt


def test_a_maki_read_with_doubt_about_its_rolls_is_pointed_out_apart_from_nigiri() -> None:
    found = boxes(
        ("maki_2", [0, 0, 630, 880], 0.9),
        ("maki_3", [700, 0, 1330, 880], 0.95),
        ("egg", [1400, 0, 2030, 880], 0.9),
        ("maki_1", [2100, 0, 2730, 880], 0.9),
    )
    doubt = [0.18, MAKI_DOUBT - 0.01, 0.12, MAKI_DOUBT]
    reading = read_tally(Detections(found.xyxy, found.confidence, found.class_id, doubt=doubt))
    assert reading.warning_texts == [
        "1 nigiri may be another kind: read as egg nigiri, another kind 12% likely; "
        "check the dish in its top-left corner",
        "2 maki may show another number of rolls: "
        "one read as maki of 2 rolls (another number 18% likely), "
        "one read as maki of 1 roll (another number 10% likely); "
        "count the small rolls in their top-left corners",
    ]
    one = Detections(found.xyxy[:2], found.confidence[:2], found.class_id[:2], doubt=[0.3, 0])
    assert read_tally(one).warning_texts == [
        "1 maki may show another number of rolls: read as maki of 2 rolls, "
        "another number 30% likely; "
        "count the small rolls in its top-left corner"
    ]


def test_a_wasabi_read_with_doubt_of_a_nigiri_is_pointed_out_a_stacks_strip_too() -> None:
    """The four yellow cards share a colour: a salmon's strip read as the wasabi under the
    next salmon made a stack of two plain salmon, the card count holding. A wasabi the
    classifier gave a nigiri WASABI_DOUBT is pointed out, where it lies under a nigiri
    read as a stack (its box then no card of its own) as well as where it lies alone."""
    table = Table().stack("salmon", 50, 50).card("wasabi", 160, 50).card("tempura", 270, 50)
    found = table.detections()
    strip, lone = (i for i, label in enumerate(found.labels) if label == "wasabi")
    doubt = np.full(len(found), np.nan)
    doubt[strip], doubt[lone] = 0.12, WASABI_DOUBT - 0.01
    reading = read_tally(Detections(found.xyxy, found.confidence, found.class_id, doubt=doubt))
    assert nonzero(reading) == {"salmon_on_wasabi": 1, "wasabi": 1, "tempura": 1}
    said = (
        "1 wasabi may be a nigiri: read as wasabi, a nigiri 12% likely; "
        "check the dish in its top-left corner"
    )
    assert reading.warning_texts == [said]
    assert reading.to_check == [strip]
    # The nigiri read as the stack itself (the stack check's call): its strip is absorbed.
    ids = found.class_id.copy()
    ids[found.labels.index("salmon")] = label_id("salmon_on_wasabi")
    stacked = read_tally(Detections(found.xyxy, found.confidence, ids, doubt=doubt))
    assert nonzero(stacked) == {"salmon_on_wasabi": 1, "wasabi": 1, "tempura": 1}
    assert stacked.warning_texts == [said] and stacked.to_check == [strip]
    doubt[strip] = WASABI_DOUBT - 0.01
    sure = read_tally(Detections(found.xyxy, found.confidence, ids, doubt=doubt))
    assert sure.warning_texts == []


def test_a_box_asked_about_for_its_low_confidence_is_not_asked_of_its_kind_too() -> None:
    """A salmon read at 30 % that the classifier gave another kind 12 % is asked about
    once, as read with low confidence: beside it, "another kind 12% likely" read as a
    contradiction of the box's own 30 %. A sure egg's doubt is still said; both are marked."""
    found = boxes(("salmon", [0, 0, 630, 880], 0.3), ("egg", [700, 0, 1330, 880], 0.9))
    reading = read_tally(
        Detections(found.xyxy, found.confidence, found.class_id, doubt=[0.12, 0.2])
    )
    assert reading.warning_texts == [
        "1 card read with under 50% certainty (salmon nigiri): check it",
        "1 nigiri may be another kind: read as egg nigiri, another kind 20% likely; "
        "check the dish in its top-left corner",
    ]
    assert reading.to_check == [0, 1]


def test_thresholds_are_options() -> None:
    detections = boxes(("egg", [0, 0, 630, 880], 0.2))
    assert read_tally(detections).cards == 0
    reading = read_tally(detections, min_confidence=0.1, low_confidence=0.15)
    assert reading.cards == 1
    assert reading.remarks == []


def test_deck_warnings() -> None:
    table = Table()
    for k in range(5):
        table.card("wasabi", 40 + k * 70, 50)
    table.stack("salmon", 40, 200).stack("egg", 120, 200)
    for k in range(5):
        table.card("chopsticks", 40 + k * 70, 400)
    reading = read_tally(table.detections())
    assert nonzero(reading) == {
        "wasabi": 5,
        "salmon_on_wasabi": 1,
        "egg_on_wasabi": 1,
        "chopsticks": 5,
    }
    assert reading.warning_texts == [
        "this collection holds 7 wasabi (loose and under a nigiri), the deck has only 6",
        "this collection holds 5 chopsticks, the deck has only 4",
    ]


def test_empty_detections() -> None:
    reading = read_tally(Detections.empty())
    assert reading.tally == Tally()
    assert reading.cards == 0
    assert reading.stacks == []
    assert reading.remarks == [NO_CARDS]
    assert read_tally(Detections.empty(), players=2).warning_texts == [
        NO_CARDS.text,
        "this collection has 0 cards, the hand size for 2 players is 10: "
        "10 cards were probably missed",
    ]


def test_to_json_is_the_detect_body() -> None:
    reading = read_tally(Table().stack("squid", 50, 50).card("tempura", 150, 50).detections())
    body = reading.to_json()
    assert list(body) == ["tally", "cards", "detections", "warnings", "notes", "turned"]
    assert body["turned"] == 0
    assert list(body["tally"]) == list(TALLY_KEYS)
    assert body["tally"]["squid_on_wasabi"] == 1 and body["cards"] == 3
    assert [d["label"] for d in body["detections"]] == ["wasabi", "squid", "tempura"]
    assert body["detections"][0]["left_out"] is False
    assert set(body["detections"][0]) == {"label", "confidence", "box", "left_out"}
    assert json.loads(json.dumps(body)) == body
    assert all(type(v) is int for v in body["tally"].values())
    assert json.dumps(body["tally"]) == (
        '{"tempura": 1, "sashimi": 0, "dumpling": 0, "maki_1": 0, "maki_2": 0, "maki_3": 0, '
        '"egg": 0, "salmon": 0, "squid": 0, "egg_on_wasabi": 0, "salmon_on_wasabi": 0, '
        '"squid_on_wasabi": 1, "wasabi": 0, "chopsticks": 0, "pudding": 0}'
    )


def test_the_tally_is_the_rules_engines() -> None:
    """count_tally gives a scoring.Tally, which the reading carries and checks as it is."""
    labels = ["wasabi", "egg", "egg", "maki_3", "wasabi"]
    tally = count_tally(labels, [(0, 1)])
    assert tally == Tally(egg_on_wasabi=1, egg=1, maki_3=1, wasabi=1)
    reading = read_tally(Table().stack("egg", 50, 50).card("maki_3", 150, 50).detections())
    assert type(reading.tally) is Tally
    assert reading.tally == Tally(egg_on_wasabi=1, maki_3=1)
    assert reading.cards == reading.tally.cards == 3
    assert reading.problems == []
    assert read_tally(Table().card("egg", 50, 50).detections(), players=5).problems == (
        check_collection(Tally(egg=1), players=5)
    )


def test_cards_count_each_stack_twice() -> None:
    reading = read_tally(Table().stack("egg", 50, 50).stack("salmon", 150, 50).detections())
    assert reading.cards == 4
    assert reading.tally.stacks == 2


def test_a_stack_near_the_camera_of_a_steep_photo_fits_by_its_own_length() -> None:
    # From a held-out photo tilted 39 degrees: the typical card there is flattened to 0.76
    # of its width, but this salmon, near the camera, shows whole at 1.11; measured in
    # typical card lengths its wasabi stuck out 0.53 (beyond any stack), in its own 0.38.
    wasabi = np.array([808, 942, 1031, 1058], np.float32)
    salmon = np.array([821, 1032, 1032, 1267], np.float32)
    fit = stack_fit(wasabi, salmon, 0.76)
    assert fit is not None and fit.frame == "down"
    assert 0.35 < fit.shift < 0.4


def test_a_stack_seen_only_by_its_strip_is_pointed_out() -> None:
    """A strip paired with a nigiri that the stack check did not call on a wasabi (0.8):
    the count holds either way, so the reviewer is asked to look; a stack the check
    confirmed, or a reviewer's boxes (never asked), are not pointed out."""
    found = Table().stack("salmon", 60, 50).card("tempura", 200, 50).detections()
    nigiri = found.labels.index("salmon")
    under = np.full(len(found), np.nan, np.float32)
    under[nigiri] = 0.8
    asked = dataclasses.replace(found, wasabi_under=under)
    reading = read_tally(asked)
    assert nonzero(reading) == {"salmon_on_wasabi": 1, "tempura": 1}
    assert reading.warning_texts == [
        "1 stack seen only by the strip above its nigiri (salmon nigiri): check that it is "
        "a wasabi's top (its green icon), not another yellow card's"
    ]
    assert read_tally(found).remarks == []
