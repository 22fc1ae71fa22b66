"""From detections to a tally: duplicates merged, nigiri-on-wasabi stacks found, warnings.

The detector boxes the VISIBLE part of each card (vision.labels). Two things follow from
card-spec.md and drive everything here:

- A nigiri played on a wasabi lies on it shifted down (or sideways) by 15-35 % of a card,
  so the wasabi shows as a strip (its colour field and top-left icon) directly above or
  beside the nigiri; thin slivers along the other sides, where the nigiri sits a little
  askew, can stretch the wasabi's box up to a whole card. A plain nigiri is never laid
  over a wasabi, so that geometry is a stack whatever the wasabi's box looks like further
  down.
- In overlapped columns every covered card shows its top strip above the next card; a
  nigiri strip above a nigiri, or a wasabi strip above a wasabi, is therefore no stack.
  Only a wasabi sticking out from under a nigiri is.

All tolerances are fractions of a card measured where the pair lies (the nigiri's box
across the shift, the photo's card aspect along it), so they hold under perspective and
for cards turned up to about 15 degrees.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple

import numpy as np

from scoring import Problem, Tally, check_collection
from scoring.cards import HAND_SIZE, MAKI, NIGIRI, STACKS, TALLY_KEYS
from vision import notices
from vision.boxes import areas, intersections, pairwise_intersections
from vision.detections import Detections
from vision.labels import STACK_LABELS, label_id
from vision.notices import NO_CARDS, Notice, NoticeCode, Remark
from vision.stack_check import MIN_PROBABILITY

WASABI: Final[str] = "wasabi"
STACK_OF_NIGIRI: Final[dict[str, str]] = {nigiri: stack for stack, nigiri in STACKS.items()}
# A nigiri the classifier gave another nigiri kind at least these odds is pointed out: the
# three share a face colour, and that mistake leaves the card count right and the
# confidence high, so no other warning sees it.
NIGIRI_DOUBT: Final[float] = 0.1
# So is a maki the classifier gave another roll count at least these odds: its icons are a
# few pixels in a small or far collection.
MAKI_DOUBT: Final[float] = 0.1
# And a wasabi (a stack's strip too) it gave a nigiri at least these odds: the four share
# the yellow. A salmon's strip read as the wasabi under the next salmon made a stack of
# two plain salmon, the count holding: at 0.1 that one of 1,100 photos (another printing)
# is warned, and 3 read right (`python -m benchmarks.probe_wasabi_doubt`).
WASABI_DOUBT: Final[float] = 0.1

# Duplicate suppression: two boxes are one card when they overlap this much ...
SAME_CARD_IOU: Final[float] = 0.6
# ... and every edge of one lies within this share of the card's size of the other's.
# IoU alone cannot tell: slivers along the sides stretch a covered card's box to nearly
# a whole card, so boxes of different cards in a column (tops 20-40 % apart) or a stack
# (15-35 %) reach IoUs of 0.75, and nested strips share their centres. Two boxes around
# one card agree on all four edges.
SAME_CARD_EDGE: Final[float] = 0.1
# A box inside another that shares its top edge and spans its width is the top of that
# same card seen as a card of its own (a horizontal edge in the art read as the top of the
# next card in a column): no real card's visible part lies there. A covered card's strip
# sits above the card that covers it, and a fully shown card covers whatever is under it.
# Edges agree within SAME_CARD_EDGE of the larger box; the strip spans at least this much
# of its width ...
FRAGMENT_MIN_SPAN: Final[float] = 0.7
# ... and is at most this much of its height (two boxes of about one size are same_card's).
FRAGMENT_MAX_HEIGHT: Final[float] = 0.75
# The finder's box of a whole card may start a little below its top, so a strip of the
# same kind may stick out above it by this much of its height; a column's covered card
# shows more (at least 20 % of a card, a little less when turned).
FRAGMENT_RISE: Final[float] = 0.13
# A stack-label box (set by a reviewer) absorbs nigiri/wasabi boxes mostly inside it.
ABSORBED_INSIDE: Final[float] = 0.6

# Stack geometry, in card lengths along the shift and card widths across it.
# The wasabi's box sticks out this far beyond the nigiri's. card-spec says 15-35 %; a
# card turned 15 degrees and laid a little askew on its wasabi shows as little as 9 %.
SHIFT_RANGE: Final[tuple[float, float]] = (0.05, 0.50)
SHIFT_EXPECTED: Final[tuple[float, float]] = (0.15, 0.35)  # no penalty inside
# Across the shift the wasabi's box lies within the nigiri's span: it may stick out by
# this much on either side (a stack laid askew, or turned: the wasabi then sits off along
# the turned axis), and by less than it sticks out along the shift ...
MAX_OVERHANG: Final[float] = 0.20
# ... and covers at least this share of it (a turned wasabi's strip is narrower than the
# turned nigiri's box; a strip of a card in the next column covers none).
MIN_COVERAGE: Final[float] = 0.6
MAX_GAP: Final[float] = 0.12  # the wasabi's box may stop this short of the nigiri
# A wasabi's visible box is at most a card long (with room for perspective: `along` comes
# from the photo's typical card aspect, not this card's).
MAX_LENGTH: Final[float] = 1.35
# How far a sideways-shifted nigiri's box may rise above its wasabi's: a stack turned by
# 15 degrees (plus a 3-degree twist) rises by up to 0.19 of the box's height.
MAX_SIDEWAYS_RISE: Final[float] = 0.22
SIDEWAYS_PENALTY: Final[float] = 0.05  # card-spec: "down (or sideways)"; down first
# Exact assignment on components up to this many combinations, greedy beyond.
MAX_EXACT_COMBINATIONS: Final[int] = 20_000

# Height / width of a printed card seen from above (card-spec.md: the scans' 396 x 267 px).
DEFAULT_CARD_ASPECT: Final[float] = 396 / 267


@dataclass(frozen=True)
class Reading:
    """What one photo's detections say about a player's collection.

    tally: the collection's counts (scoring.Tally; to_json gives the 15 contract keys).
    detections: the boxes kept after confidence filtering and duplicate suppression.
    stacks: (wasabi index, nigiri index) into `detections`, one per stack found.
    remarks: what a reviewer is told, in order: vision's own notices (vision.notices),
        then the collection's own problems (hand size, deck) as the rules engine found
        them (scoring.check_collection's Problems), then the notices of what the hand size
        settled or left unsure (vision.reading.settle_hand_size, vision.pipeline.settle)
        and of the turn. Most warn; the notes among them (notices.NOTE_CODES) only tell.
        A review that checks the collection itself, with the player's name, keeps only
        the `notices`.
    cards: the number of cards, each stack counting 2.
    lone_stacks: indices into `detections` of stack boxes with no wasabi box found under
        them (a stack on the stack check's word, or a reviewer's, alone).
    source: for each of `detections`, its index in the detections that were read.
    strips: (index in the detections that were read, index into `detections`) of each
        wasabi strip taken as part of a stack box over it (not counted of its own).
    turn: degrees clockwise the photo was turned to read its cards upright
        (vision/pipeline.py); the boxes are in the photo so turned.
    """

    tally: Tally
    detections: Detections
    stacks: list[tuple[int, int]] = field(default_factory=list)
    remarks: list[Remark] = field(default_factory=list)
    cards: int = 0
    lone_stacks: list[int] = field(default_factory=list)
    source: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    strips: list[tuple[int, int]] = field(default_factory=list)
    turn: int = 0

    def to_json(self) -> dict[str, Any]:
        """The reading as POST /api/v1/detect answers it (design.md), with `turned`: the
        degrees clockwise the photo was turned to read it (0 nearly always); the boxes
        left out as another player's are its Settled's to add (`Settled.to_json`)."""
        return {
            "tally": self.tally.to_dict(),
            "cards": int(self.cards),
            "detections": self.detections.to_records(),
            "warnings": self.warning_texts,
            "notes": self.note_texts,
            "turned": self.turn,
        }

    @property
    def warning_texts(self) -> list[str]:
        """The warnings that ask the reviewer to check something, in words, in order."""
        return notices.warning_texts(self.remarks)

    @property
    def note_texts(self) -> list[str]:
        """The notes (what the reading did: a turn, a closer look), in words, in order."""
        return notices.note_texts(self.remarks)

    @property
    def notices(self) -> list[Notice]:
        """What vision alone noticed (the remarks less the collection's problems)."""
        return [remark for remark in self.remarks if isinstance(remark, Notice)]

    @property
    def to_check(self) -> list[int]:
        """The boxes a warning names (Notice.boxes: read with low confidence, a kind
        doubted, a stack's nigiri seen only by the strip above it, what the hand size
        settled or left unsure), by their index in the detections read, so that a review
        screen can mark them."""
        named = {box for notice in self.notices if notice.warns for box in notice.boxes}
        return sorted(named)

    @property
    def problems(self) -> list[Problem]:
        """The collection's own problems (hand size, deck), the rules engine's."""
        return [remark for remark in self.remarks if isinstance(remark, Problem)]


# Boxes under this confidence are not read (the finder's threshold times a sure kind).
MIN_CONFIDENCE = 0.25


def read_tally(
    detections: Detections,
    *,
    players: int | None = None,
    min_confidence: float = MIN_CONFIDENCE,
    low_confidence: float = 0.5,
) -> Reading:
    """Turn one photo's detections into a tally, finding stacks from box geometry. A box
    left out as another player's (Detections.left_out) is not read."""
    if players is not None and players not in HAND_SIZE:
        raise ValueError(f"players must be one of {sorted(HAND_SIZE)}, got {players}")
    readable = (detections.confidence >= min_confidence) & ~detections.is_left_out
    confident_source = np.flatnonzero(readable)
    confident = detections[confident_source]
    survivors = suppress_duplicates(confident)
    kept = confident[survivors]
    pairs = find_stacks(kept)
    # A wasabi matched to a reviewer's stack box is part of that box, not a card of its own.
    absorbed = {w for w, n in pairs if kept.labels[n] in STACK_LABELS}
    keep = np.array([i for i in range(len(kept)) if i not in absorbed], dtype=np.int64)
    new_index = {old: new for new, old in enumerate(keep.tolist())}
    final = kept[keep]
    stacks = sorted((new_index[w], new_index[n]) for w, n in pairs if w not in absorbed)
    kept_source = confident_source[survivors]
    strips = sorted((int(kept_source[w]), new_index[n]) for w, n in pairs if w in absorbed)
    paired = {n for _, n in pairs}
    lone = [
        new_index[i] for i in keep.tolist() if kept.labels[i] in STACK_LABELS and i not in paired
    ]
    tally = count_tally(final.labels, stacks)
    cards = tally.cards
    low = _low_confidence(final, low_confidence)
    under = dict(stacks)  # a stack's wasabi: the nigiri on it
    # A box already asked about for its low confidence is not asked again of its kind: two
    # percentages of one box, its certainty and another kind's odds, read as a contradiction.
    # Asked of the boxes kept, a stack's wasabi strip among them (`final` has it absorbed).
    asked = set(keep[low].tolist())
    doubted = [[i for i in _doubted(kept, doubt) if i not in asked] for doubt in _DOUBTS]
    strip_only = _strip_only(final, stacks)
    source = kept_source[keep]
    # Each notice names its boxes as the hand size's do: by their index in `detections`.
    warnings: list[Remark] = [
        *([NO_CARDS] if not cards else []),
        *(
            [
                notices.low_confidence(
                    [final.labels[i] for i in low],
                    low_confidence,
                    [final.labels[under[i]] if i in under else None for i in low],
                ).about(source[low])
            ]
            if len(low)
            else []
        ),
        *(
            notices.doubt(
                doubt.code, [(kept.labels[i], float(kept.doubts[i])) for i in boxes]
            ).about(kept_source[boxes])
            for doubt, boxes in zip(_DOUBTS, doubted, strict=True)
            if boxes
        ),
        *(
            [notices.strip_only([final.labels[n] for n in strip_only]).about(source[strip_only])]
            if strip_only
            else []
        ),
        *check_collection(tally, players=players),
    ]
    return Reading(
        tally=tally,
        detections=final,
        stacks=stacks,
        remarks=warnings,
        cards=cards,
        lone_stacks=lone,
        source=source,
        strips=strips,
    )


def cards_among(detections: Detections) -> np.ndarray:
    """The indices of the boxes read_tally would read as cards were none left out as
    another player's: over the confidence floor, one box a card."""
    return read_tally(dataclasses.replace(detections, left_out=None)).source


def cards_left_out(detections: Detections) -> np.ndarray:
    """The indices of the boxes left out as another player's that are cards (`cards_among`
    of those boxes alone), in order."""
    apart = np.flatnonzero(detections.is_left_out)
    return apart[cards_among(detections[apart])]


class Settled(NamedTuple):
    """The detector's detections after the hand size had its say, and their reading."""

    # As found, or with stacks relabelled as their plain nigiri, or some left out as another
    # player's (Detections.left_out: vision.pipeline).
    detections: Detections
    reading: Reading  # read_tally of `detections`, these notices last among its remarks
    # What the hand size (or the closer look, or the turn) changed or left unsure: stored
    # with a game's photo, since a review reads its boxes again without them.
    notices: list[Notice]

    def to_json(self) -> dict[str, Any]:
        """The body of POST /api/v1/detect: the reading's, its detections followed by the
        cards left out as another player's, flagged so, that a client can show them."""
        body = self.reading.to_json()
        # The cards the warning counts: over the floor, one box a card, as the reading's own.
        body["detections"] += self.detections[cards_left_out(self.detections)].to_records()
        return body


def settle_hand_size(
    detections: Detections, players: int | None, *, read_back: bool = True
) -> Settled:
    """The detector's detections with their stacks settled: a stack needs a wasabi box
    found under its nigiri, or the hand size's word. For the detector's boxes only: a
    reviewer's stacks are the reviewer's.

    A stack on the stack check's word alone (no wasabi box under it) is read as its plain
    nigiri: on the tuning sets five in six such stacks were a plain nigiri below another
    yellow card's top, whose yellow looks like a wasabi's (benchmarks/probe_lone_stacks.py).
    card-spec: a collection holds exactly the hand size, a wasabi under a nigiri counted
    as a card. So where the hand is then one card short, of the nigiri the check called
    on a wasabi (stack_check.MIN_PROBABILITY) the likeliest is read as the stack, when
    that makes the hand right, and a note says so: a hand short for a card the finder
    missed stays short, for the closer look (vision.pipeline.settle). On the tuning sets,
    any nigiri the check gave even odds had made 15 photos wrong, these 12. Where no hand
    size settles it (no player count, or a hand still wrong), a notice points out the
    nigiri read as plain. Without `read_back`, no nigiri is read back on its wasabi: the
    pipeline first looks for a card the finder missed (vision.pipeline.settle).
    """
    hand = HAND_SIZE.get(players) if players is not None else None
    detections, plain = _lone_stacks_as_plain(detections)
    reading = read_tally(detections, players=players)
    unsure = _still_plain(reading, plain)
    unsure_labels = [detections.labels[i] for i in unsure]
    unsettled = [notices.unsure_stacks(unsure_labels).about(unsure)] if unsure else []
    if hand is not None and reading.cards == hand:
        return Settled(detections, reading, [])  # the hand vouches for the plain nigiri
    if read_back and hand is not None and reading.cards == hand - 1:
        likeliest = _likeliest_stack(reading)
        if likeliest is not None:
            index = int(reading.source[likeliest])
            nigiri = detections.labels[index]
            class_id = detections.class_id.copy()
            class_id[index] = label_id(STACK_OF_NIGIRI[nigiri])
            stacked = detections.relabelled(class_id)
            stacked_reading = read_tally(stacked, players=players)
            if stacked_reading.cards == hand:
                note = notices.read_on_wasabi(nigiri).about([index])
                return noted(Settled(stacked, stacked_reading, []), [note])
    return noted(Settled(detections, reading, []), unsettled)


def noted(settled: Settled, notes: list[Notice]) -> Settled:
    """`settled` with `notes` last among its reading's remarks and its notices."""
    remarks: list[Remark] = [*settled.reading.remarks, *notes]
    reading = dataclasses.replace(settled.reading, remarks=remarks)
    return Settled(settled.detections, reading, [*settled.notices, *notes])


def _lone_stacks_as_plain(detections: Detections) -> tuple[Detections, list[int]]:
    """The detections with each of their `checked_stacks` read as its plain nigiri; and
    the indices of those nigiri."""
    lone = checked_stacks(detections)
    if not lone:
        return detections, []
    return as_plain(detections, lone), lone


def as_plain(detections: Detections, index: Iterable[int]) -> Detections:
    """The detections with each stack among those at `index` read as its plain nigiri."""
    labels, class_id = detections.labels, detections.class_id.copy()
    for i in index:
        class_id[i] = label_id(STACKS.get(labels[i], labels[i]))
    return detections.relabelled(class_id)


def _still_plain(reading: Reading, plain: list[int]) -> list[int]:
    """Of the nigiri read plain (indices into the detections read), those the reading
    kept plain and in no stack: a wasabi box beside one may pair it."""
    paired = {int(reading.source[nigiri]) for _, nigiri in reading.stacks}
    return [i for i in plain if i not in paired]


def checked_stacks(detections: Detections) -> list[int]:
    """Indices into `detections` of the stacks the stack check alone called: no wasabi
    box found under the nigiri, nor inside its box (a strip beside it boxed with it). A
    reviewer's stacks were never asked (their odds are NaN) and are none of them."""
    if not any(label in STACK_LABELS for label in detections.labels):
        return []
    reading = read_tally(detections)
    wasabi = np.array([label == WASABI for label in detections.labels])
    wasabi &= (detections.confidence >= MIN_CONFIDENCE) & ~detections.is_left_out
    holds_wasabi = (_absorbed(detections) & wasabi).any(1)
    lone = (int(reading.source[i]) for i in reading.lone_stacks)
    return [i for i in lone if np.isfinite(detections.under[i]) and not holds_wasabi[i]]


def _likeliest_stack(reading: Reading) -> int | None:
    """The plain nigiri (index into reading.detections, in no stack) the stack check gave
    the highest probability of a wasabi under it, if it called it on a wasabi."""
    in_stack = {i for pair in reading.stacks for i in pair}
    under = reading.detections.under
    candidates = [
        i
        for i, label in enumerate(reading.detections.labels)
        if label in NIGIRI and i not in in_stack and under[i] >= MIN_PROBABILITY
    ]
    return max(candidates, key=lambda i: float(under[i]), default=None)


def count_tally(labels: Sequence[str], stacks: Iterable[tuple[int, int]]) -> Tally:
    """The tally of boxes labelled `labels`: each (wasabi, nigiri) index pair is one
    `<nigiri>_on_wasabi`, every other box one card of its label."""
    counts: Counter[str] = Counter()
    in_stack: set[int] = set()
    for wasabi, nigiri in stacks:
        counts[f"{labels[nigiri]}_on_wasabi"] += 1
        in_stack.update((wasabi, nigiri))
    counts.update(label for i, label in enumerate(labels) if i not in in_stack)
    return Tally(**{key: counts[key] for key in TALLY_KEYS})


# --- duplicates -------------------------------------------------------------------------


def suppress_duplicates(detections: Detections) -> np.ndarray:
    """Indices (ascending) of the boxes to keep, one per card.

    A box that is only the top of another box's card (top_fragment) is dropped whatever
    its confidence. The rest are taken stack-label boxes first (a reviewer drew them, or
    they describe more than a single-card box does), then by confidence; a box is dropped
    when a kept box is the same card or is a stack box it lies inside.
    """
    labels = detections.labels
    fragments = np.any(top_fragments(detections.xyxy, labels), axis=1)
    order = sorted(
        (i for i in range(len(detections)) if not fragments[i]),
        key=lambda i: (labels[i] not in STACK_LABELS, -float(detections.confidence[i])),
    )
    # [i, k]: box i goes when box k is kept.
    goes_with = same_cards(detections.xyxy) | _absorbed(detections).T
    kept: list[int] = []
    for i in order:
        if not goes_with[i, kept].any():
            kept.append(i)
    return np.array(sorted(kept), dtype=np.int64)


def same_cards(boxes: np.ndarray) -> np.ndarray:
    """(n, n) booleans: [i, j] when boxes i and j (whatever their labels) are one card seen
    twice; the diagonal is false."""
    x0, y0, x1, y1 = (boxes[:, k] for k in range(4))
    overlap = pairwise_intersections(boxes)
    area = areas(boxes)
    union = area[:, None] + area - overlap
    iou = overlap / np.maximum(union, 1e-9)
    # Edges compared in the larger box's width or height.
    width = np.maximum(np.maximum.outer(x1 - x0, x1 - x0), 1e-9)
    height = np.maximum(np.maximum.outer(y1 - y0, y1 - y0), 1e-9)
    dx = np.maximum(np.abs(x0[:, None] - x0), np.abs(x1[:, None] - x1)) / width
    dy = np.maximum(np.abs(y0[:, None] - y0), np.abs(y1[:, None] - y1)) / height
    same = (overlap > 0) & (iou >= SAME_CARD_IOU) & (np.maximum(dx, dy) < SAME_CARD_EDGE)
    np.fill_diagonal(same, False)
    return same


def same_card(box_a: np.ndarray, box_b: np.ndarray) -> bool:
    """Whether two boxes (whatever their labels) are one card seen twice."""
    return bool(same_cards(np.stack([box_a, box_b]))[0, 1])


def top_fragments(boxes: np.ndarray, labels: Sequence[str] | None = None) -> np.ndarray:
    """(n, n) booleans: [i, j] when box i is only the top part of the card boxed by j.
    With `labels`, boxes that read the same kind (a stack as its nigiri) may rise further."""
    x0, y0, x1, y1 = (boxes[:, k] for k in range(4))
    width, height = x1 - x0, y1 - y0
    tolerance_x, tolerance_y = SAME_CARD_EDGE * width, SAME_CARD_EDGE * height
    inner = np.s_[:, None]
    rise = np.full((len(boxes), len(boxes)), SAME_CARD_EDGE)
    if labels is not None:
        kinds = np.array([STACKS.get(label, label) for label in labels])
        rise[kinds[inner] == kinds] = FRAGMENT_RISE
    fragment = (
        (y0[inner] >= y0 - rise * height)
        & (y0[inner] <= y0 + tolerance_y)
        & (height[inner] <= FRAGMENT_MAX_HEIGHT * height)
        & (x0[inner] >= x0 - tolerance_x)
        & (x1[inner] <= x1 + tolerance_x)
        & (width[inner] >= FRAGMENT_MIN_SPAN * width)
        & (width > 0)
        & (height > 0)
    )
    np.fill_diagonal(fragment, False)
    return fragment


def top_fragment(inner: np.ndarray, outer: np.ndarray) -> bool:
    """Whether `inner` is only the top part of the card boxed by `outer`."""
    return bool(top_fragments(np.stack([inner, outer]))[0, 1])


def _absorbed(detections: Detections) -> np.ndarray:
    """(n, n) booleans: [k, i] when stack box k absorbs the nigiri or wasabi box i."""
    boxes, labels = detections.xyxy, detections.labels
    stack = np.array([label in STACK_LABELS for label in labels], dtype=bool)
    card = np.array([label in (*NIGIRI, WASABI) for label in labels], dtype=bool)
    area = np.maximum(areas(boxes), 1e-9)
    inside = pairwise_intersections(boxes) >= ABSORBED_INSIDE * area
    return stack[:, None] & card & inside


# --- stacks -----------------------------------------------------------------------------


class StackFit(NamedTuple):
    """How a wasabi box and a nigiri box fit a stack: lower cost is a better fit."""

    cost: float
    frame: str  # the way the nigiri is shifted: "down", "right" or "left"
    shift: float  # how far the wasabi sticks out, in card lengths


def find_stacks(detections: Detections) -> list[tuple[int, int]]:
    """(wasabi, nigiri) index pairs: each wasabi holds one nigiri, each nigiri lies on one.

    Stack-label boxes take part as nigiri, so that the wasabi strip beside a box a
    reviewer relabelled as a stack is recognised as belonging to it.
    """
    labels = detections.labels
    wasabi = [i for i, label in enumerate(labels) if label == WASABI]
    nigiri = [i for i, label in enumerate(labels) if label in NIGIRI or label in STACK_LABELS]
    if not wasabi or not nigiri:
        return []
    aspect = card_aspect(detections)
    fits = {}
    for w, n in itertools.product(wasabi, nigiri):
        fit = stack_fit(detections.xyxy[w], detections.xyxy[n], aspect)
        if fit is not None:
            fits[w, n] = fit
    fits = _nearest_in_column(fits, detections.xyxy)
    # A stack box (a reviewer's, or the stack check's) is known to lie on a wasabi: it
    # claims the strip that fits it first, then a strip touching or under it that fits no
    # geometry, and only the strips left over can make a plain nigiri into a stack. In one
    # assignment a strip between a plain nigiri and a stack could fit the plain one
    # better, which then counted the stack's wasabi twice.
    stacked = {n for n in nigiri if labels[n] in STACK_LABELS}
    pairs = assign([(fit.cost, w, n) for (w, n), fit in fits.items() if n in stacked])
    pairs += _touching_leftovers(detections, wasabi, sorted(stacked), pairs)
    claimed = {w for w, _ in pairs}
    pairs += assign(
        [(fit.cost, w, n) for (w, n), fit in fits.items() if n not in stacked and w not in claimed]
    )
    return sorted(pairs + _touching_leftovers(detections, wasabi, nigiri, pairs))


# A wasabi left over after the assignment, showing less than this share of a whole card's
# box, is covered by something; touching a free nigiri, that nigiri is what covers it.
PARTIAL_AREA: Final[float] = 0.5
TOUCH: Final[float] = 0.03  # boxes this close (share of a card's width) touch
# A stack box (the stack check's, or a reviewer's) is known to lie on a wasabi: a bigger
# leftover wasabi box is its strip when at least this share of it lies inside the stack
# box (a turned strip under a stack lies half inside or more, a whole wasabi beside it not).
UNDER_STACK: Final[float] = 0.3


def _touching_leftovers(
    detections: Detections, wasabi: list[int], nigiri: list[int], pairs: list[tuple[int, int]]
) -> list[tuple[int, int]]:
    """Stacks turned too far for the frame-by-frame fit (loose cards up to 15 degrees plus a
    turned camera): a partly covered wasabi touching a nigiri that lies on nothing else, or
    a wasabi box reaching well under a stack box (under a steep camera the box around a
    turned strip grows to half a card, and counted apart it was a second wasabi).
    Stack boxes are served first, then the pairs that overlap most."""
    boxes, labels = detections.xyxy, detections.labels
    used_w = {w for w, _ in pairs}
    used_n = {n for _, n in pairs}
    sizes = areas(boxes)
    whole = float(np.median(sizes[sizes >= 0.5 * sizes.max()])) if len(sizes) else 0.0
    pad = TOUCH * float(np.sqrt(whole))
    candidates: list[tuple[bool, float, int, int]] = []
    for w in wasabi:
        if w in used_w:
            continue
        partial = sizes[w] < PARTIAL_AREA * whole
        grown = boxes[w] + np.array([-pad, -pad, pad, pad])
        for n in nigiri:
            if n in used_n or _intersection(grown, boxes[n]) <= 0:
                continue
            inside = _intersection(boxes[w], boxes[n]) / max(float(sizes[w]), 1e-9)
            stack = labels[n] in STACK_LABELS
            if partial or (stack and inside >= UNDER_STACK):
                candidates.append((not stack, -inside, w, n))
    extra: list[tuple[int, int]] = []
    for _, _, w, n in sorted(candidates):
        if w not in used_w and n not in used_n:
            extra.append((w, n))
            used_w.add(w)
            used_n.add(n)
    return extra


def _nearest_in_column(
    fits: dict[tuple[int, int], StackFit], boxes: np.ndarray
) -> dict[tuple[int, int], StackFit]:
    """Drop a nigiri that lies on another candidate nigiri of the same wasabi.

    In a column (wasabi, its nigiri, more cards) every nigiri below the wasabi's strip
    fits its geometry, and slivers or a neighbour covering the stacked nigiri can make a
    farther one fit better. The nigiri directly on the wasabi is the nearest one; those
    farther along, overlapping it, lie on it.
    """
    return {
        (w, n): fit
        for (w, n), fit in fits.items()
        if not any(
            v == w
            and other.frame == fit.frame
            and other.shift < fit.shift
            and _intersection(boxes[m], boxes[n]) > 0
            for (v, m), other in fits.items()
        )
    }


def stack_fit(wasabi: np.ndarray, nigiri: np.ndarray, aspect: float) -> StackFit | None:
    """How a wasabi box and a nigiri box fit a stack, or None when they cannot be one.

    Tried with the nigiri shifted down, right and left; each case is turned into the
    "down" frame, where the wasabi sticks out above the nigiri. `aspect` is the photo's
    card height / width (card_aspect).
    """
    fits = []
    for frame, penalty in (("down", 0.0), ("right", SIDEWAYS_PENALTY), ("left", SIDEWAYS_PENALTY)):
        w, n = _to_frame(wasabi, frame), _to_frame(nigiri, frame)
        # A card's width across the shift is the local scale. Either box may be narrower
        # than a card (a turned wasabi's strip; a nigiri partly covered by the next card
        # of a column), neither is much wider: take the wider.
        across = max(n[2] - n[0], w[2] - w[0])
        # A card's length along the shift: from the photo's typical aspect, or the nigiri's
        # own box where that is longer (on a steep photo the near cards are longer than
        # the typical one, and the nigiri on a wasabi usually shows whole).
        along = max(across * (aspect if frame == "down" else 1 / aspect), n[3] - n[1])
        # Shifted sideways, a nigiri's top stays level with its wasabi's; one rising well
        # above it is a card under the wasabi, higher in a column.
        if frame != "down" and (wasabi[1] - nigiri[1]) / across > MAX_SIDEWAYS_RISE:
            continue
        fit = _down_stack_fit(w, n, across, along)
        if fit is not None:
            fits.append(StackFit(fit[0] + penalty, frame, fit[1]))
    return min(fits, default=None)


def _to_frame(box: np.ndarray, frame: str) -> np.ndarray:
    """Box coordinates in a frame where the nigiri's shift points down (+y)."""
    x1, y1, x2, y2 = (float(v) for v in box)
    if frame == "right":  # wasabi sticks out on the left: transpose
        return np.array([y1, x1, y2, x2])
    if frame == "left":  # wasabi sticks out on the right: mirror, then transpose
        return np.array([y1, -x2, y2, -x1])
    return np.array([x1, y1, x2, y2])


def _down_stack_fit(
    w: np.ndarray, n: np.ndarray, across: float, along: float
) -> tuple[float, float] | None:
    """(cost, shift) of a wasabi box `w` sticking out above a nigiri box `n`, or None."""
    if across <= 0 or along <= 0:
        return None
    shift = (n[1] - w[1]) / along  # how far the wasabi sticks out above the nigiri
    if not SHIFT_RANGE[0] <= shift <= SHIFT_RANGE[1]:
        return None
    overhang = max(0.0, n[0] - w[0]) / across, max(0.0, w[2] - n[2]) / across
    coverage = (min(w[2], n[2]) - max(w[0], n[0])) / across
    if max(overhang) > min(MAX_OVERHANG, shift) or coverage < MIN_COVERAGE:
        return None
    reach = (w[3] - n[1]) / along  # where the wasabi's box ends, from the nigiri's top
    if reach < -MAX_GAP or (w[3] - w[1]) / along > MAX_LENGTH:
        return None
    outside = max(0.0, SHIFT_EXPECTED[0] - shift, shift - SHIFT_EXPECTED[1])
    gap = max(0.0, -reach)
    return outside + 0.5 * sum(overhang) + 0.25 * (1.0 - coverage) + gap, shift


def card_aspect(detections: Detections) -> float:
    """Height / width of a whole card's box in this photo (perspective flattens it).

    Taken from the boxes at least half as large as the largest card box, which are the
    cards showing whole; strips of covered cards are smaller than that.
    """
    singles = np.array([label not in STACK_LABELS for label in detections.labels], dtype=bool)
    boxes = detections.xyxy[singles]
    if len(boxes) == 0:
        return DEFAULT_CARD_ASPECT
    widths, heights = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
    areas = widths * heights
    whole = (areas >= 0.5 * areas.max()) & (widths > 0)
    if not whole.any():
        return DEFAULT_CARD_ASPECT
    aspect = float(np.median(heights[whole] / widths[whole]))
    return min(max(aspect, 0.5), 2.0)


def assign(candidates: Sequence[tuple[float, int, int]]) -> list[tuple[int, int]]:
    """Pairs (a, b) from (cost, a, b) candidates, each a and b used once: the most pairs,
    then the least total cost. Exact per connected group; greedy on a huge group."""
    pairs: list[tuple[int, int]] = []
    for group in _connected_groups(candidates):
        options: dict[int, list[tuple[float, int]]] = {}
        for cost, a, b in group:
            options.setdefault(a, []).append((cost, b))
        combinations = math.prod(len(o) + 1 for o in options.values())
        if combinations <= MAX_EXACT_COMBINATIONS:
            pairs += _assign_exact(options)
        else:
            pairs += _assign_greedy(group)
    return pairs


def _connected_groups(
    candidates: Sequence[tuple[float, int, int]],
) -> list[list[tuple[float, int, int]]]:
    parent: dict[tuple[str, int], tuple[str, int]] = {}

    def root(node: tuple[str, int]) -> tuple[str, int]:
        while parent.setdefault(node, node) != node:
            node = parent[node]
        return node

    for _, a, b in candidates:
        parent[root(("a", a))] = root(("b", b))
    groups: dict[tuple[str, int], list[tuple[float, int, int]]] = {}
    for candidate in candidates:
        groups.setdefault(root(("a", candidate[1])), []).append(candidate)
    return list(groups.values())


def _assign_exact(options: dict[int, list[tuple[float, int]]]) -> list[tuple[int, int]]:
    keys = sorted(options)
    best: tuple[int, float] = (0, 0.0)
    best_pairs: list[tuple[int, int]] = []

    def search(k: int, used: set[int], pairs: list[tuple[int, int]], cost: float) -> None:
        nonlocal best, best_pairs
        if k == len(keys):
            if (len(pairs), -cost) > (best[0], -best[1]):
                best, best_pairs = (len(pairs), cost), list(pairs)
            return
        search(k + 1, used, pairs, cost)  # this one takes no partner
        for option_cost, b in options[keys[k]]:
            if b not in used:
                used.add(b)
                pairs.append((keys[k], b))
                search(k + 1, used, pairs, cost + option_cost)
                pairs.pop()
                used.discard(b)

    search(0, set(), [], 0.0)
    return best_pairs


def _assign_greedy(candidates: Sequence[tuple[float, int, int]]) -> list[tuple[int, int]]:
    used_a: set[int] = set()
    used_b: set[int] = set()
    pairs = []
    for _, a, b in sorted(candidates):
        if a not in used_a and b not in used_b:
            used_a.add(a)
            used_b.add(b)
            pairs.append((a, b))
    return pairs


# --- warnings ---------------------------------------------------------------------------


def _low_confidence(detections: Detections, threshold: float) -> np.ndarray:
    """The boxes read at less than `threshold` confidence (indices)."""
    return np.flatnonzero(detections.confidence < threshold)


class _Doubt(NamedTuple):
    """A notice for boxes of a family of look-alike kinds whose doubt reaches threshold."""

    family: tuple[str, ...]  # a stack counts as its nigiri
    threshold: float
    code: NoticeCode


_DOUBTS: Final = (
    _Doubt(NIGIRI, NIGIRI_DOUBT, NoticeCode.NIGIRI_DOUBT),
    _Doubt(MAKI, MAKI_DOUBT, NoticeCode.MAKI_DOUBT),
    _Doubt((WASABI,), WASABI_DOUBT, NoticeCode.WASABI_DOUBT),
)


def _doubted(detections: Detections, doubt: _Doubt) -> list[int]:
    """The boxes of `doubt`'s family whose doubt reaches its threshold (indices)."""
    labels = detections.labels
    return [
        int(i)
        for i in np.flatnonzero(detections.doubts >= doubt.threshold)
        if STACKS.get(labels[i], labels[i]) in doubt.family
    ]


def _strip_only(detections: Detections, stacks: Sequence[tuple[int, int]]) -> list[int]:
    """The nigiri of stacks the geometry alone found (indices): a strip above a nigiri
    that the stack check, asked of that nigiri, did not call on a wasabi (a reviewer's
    boxes were never asked). A plain nigiri under another yellow card's top reads so,
    and the card count holds."""
    return [n for _, n in stacks if np.isfinite(detections.under[n])]


# --- box arithmetic ---------------------------------------------------------------------


def _intersection(a: np.ndarray, b: np.ndarray) -> float:
    return float(intersections(a, b)[0])
