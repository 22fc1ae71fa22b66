"""One photo in, one reading out: decode, detect (turning the photo where its cards do not
stand upright), map boxes to the original photo, tally."""

from __future__ import annotations

import dataclasses
from typing import Protocol

import numpy as np

from scoring.cards import HAND_SIZE
from vision import neighbours, notices
from vision.boxes import ious
from vision.detections import Detections
from vision.detector import NMS_IOU, zoom_region
from vision.notices import Notice, NoticeCode
from vision.photo import Photo, boxes_turned_back, card_slant
from vision.reading import (
    MIN_CONFIDENCE,
    Reading,
    Settled,
    as_plain,
    card_aspect,
    cards_among,
    noted,
    settle_hand_size,
    top_fragment,
)


class Detector(Protocol):
    """Image -> its cards (vision.detector.CardDetector); `size`, the finder's input size
    for one look, is asked only by the closer look, `conf`, the finder's threshold, only
    by a hand still short (`_doubtful_cards`)."""

    def __call__(
        self, image: np.ndarray, size: int | None = None, conf: float | None = None
    ) -> Detections: ...


# A phone held flat may leave the cards sideways or upside down (its EXIF tag cannot tell),
# and every network here reads upright cards more confidently than turned ones. A reading
# under TURN_BELOW is tried in the three other quarter turns: on the tuning set, photos
# read upright at 0.79 or more (95 %), turned at most 0.65 (benchmarks/probe_turns.py).
TURN_BELOW = 0.72
TURN_MARGIN = 0.02  # a turn is kept that reads this much more confidently,
TURN_FLOOR = 0.7  # at this or more (cards found upside down at 0.5 are no better a reading),
# and whose confidences add up to this share of the photo's as it lies: a turn that loses
# most of the cards is no better, but upside down cards are found in pieces.
TURN_KEEPS = 0.5
# The networks learned cards turned by less than about 30 degrees, so where the cards'
# edges (photo.card_slant) lie more than this off square the photo is read again turned
# straight, kept if at least as confident and keeping TURN_KEEPS.
SLANT_BEYOND = 20.0
# Where nothing is found confidently as the photo lies, turned a quarter or straightened,
# the cards may lie near 45 degrees off square while the table's edges (a striped cloth)
# decided the slant: the photo is read once more turned ASKEW, kept as a quarter turn is.
ASKEW = 45
# Where nothing is found as the photo lies, the collection may be too small in the frame
# for the finder's look at the whole photo: it is then looked at in 2 x 2 overlapping
# tiles, each this share of its width and height, and read again around what they found.
TILE_SPAN = 0.6
# Where the hand is short, a card was most often missed as a covered card's thin strip
# boxed with the card below it (or, long, a card found twice): the collection's region
# (CLOSER_MARGIN of the photo's long side around its cards) is looked at once more by the
# finder at each of CLOSER_SIZES px in turn, and the first reading that makes the hand
# right kept, with a note (not a warning: vision.notices.NOTE_CODES). On the four tuning sets
# (seeds 13000-13800, 1,200 photos), with the doubtful boxes below: 29 wrong photos -> 10
# (benchmarks/probe_closer.py).
CLOSER_SIZES = (416, 640)
CLOSER_MARGIN = 0.05
# A hand still short after the closer looks: the finder's boxes scored under its threshold
# (down to DOUBTFUL_CONF) that box no card already found are taken, likeliest first, where
# that makes the hand right. On the printed deck's other printing a covered dumpling's
# paled strip was found at 0.06-0.20 (benchmarks/probe_doubtful.py). A box overlapping a card
# found as much as the finder's NMS lets two cards overlap (NMS_IOU) is that card.
DOUBTFUL_CONF = 0.05
WHOLE_BELOW = 0.85  # of a card's height: a doubted strip's box holds a card below it
# Cards apart at the photo's edge are pointed out only in a hand still over its size: in
# a hand that adds up they are as often a loose collection's own, and pointed out there
# they warn photos read right (`python -m benchmarks.probe_neighbour --point-out-always
# --sets DIR ...` measures both ways).
POINT_OUT_APART_ALWAYS = False
# A photo's reading turned, to read some cards upright, is not kept where it loses
# LOST_AT_LEAST of the cards found sure (TURN_FLOOR) as the photo came (no box of it
# covering them at LOST_IOU): it had read the next player's collection, lying a quarter
# turn or a slant from this one's, in its place. Of 300 photos with a neighbour's
# collection beside (seed 19000) 2 were turned so: kept as they came, 275 read right,
# from 273, none more unwarned (`python -m benchmarks.probe_neighbour [--turn-anyway]`);
# the report set, another printing and tune-13000 turned every way (1,200 photos) read
# the same (`python -m benchmarks.probe_turn_keeps`).
LOST_IOU = 0.3
LOST_AT_LEAST = 2
# A photo under this on its long side is said to be too small, whatever was found: a
# collection of ten in it leaves each card a few dozen px, where the classifier reads a
# card's top-left icon at 96 (a 50 x 50 px photo had been read only as "no cards").
SMALL_PHOTO_PX = 300


def detect_photo(photo: Photo, detector: Detector) -> tuple[Photo, Detections]:
    """The photo turned so that its cards stand upright (itself, nearly always), and its
    detections with boxes in that photo's original pixels."""
    seen, detections, _ = look_at(photo, detector)
    return seen, detections


def look_at(photo: Photo, detector: Detector) -> tuple[Photo, Detections, list[Notice]]:
    """`detect_photo`'s photo and detections, and the warning of the cards a turn would
    have read that are not counted (`turned_away`), for `review_detections` to tell."""
    found = detector(photo.image)
    seen, detections = _upright_reading(photo, found, detector)
    degrees = (seen.turn - photo.turn) % 360
    if not degrees:
        return seen, detections, []
    as_it_came = found.scaled(photo.scale)
    turned = dataclasses.replace(
        detections, xyxy=boxes_turned_back(detections.xyxy, photo.original_size, degrees)
    )
    if len(_uncovered(as_it_came, turned)) < LOST_AT_LEAST:
        return seen, detections, []
    # The turn lost this photo's cards: kept as it came, with what the turn read named.
    away = [turned.labels[index] for index in _uncovered(turned, as_it_came)]
    return photo, as_it_came, [notices.turned_away(away)] if away else []


def _uncovered(ours: Detections, theirs: Detections) -> list[int]:
    """The indices of `ours` found sure (TURN_FLOOR) that no box of `theirs` covers (at
    LOST_IOU), boxes of both in the same pixels."""
    return [
        int(index)
        for index in np.flatnonzero(ours.confidence >= TURN_FLOOR)
        if not len(theirs) or ious(ours.xyxy[index], theirs.xyxy).max() < LOST_IOU
    ]


def _upright_reading(
    photo: Photo, found: Detections, detector: Detector
) -> tuple[Photo, Detections]:
    """`detect_photo`'s, from `found`, the detector's look at the photo as it came."""
    if not len(found):
        # A photo where nothing was found is looked at closer, in tiles, then turned a
        # quarter at a time and once ASKEW: the printed deck's finder can find nothing on
        # a photo on its side or upside down (tests/vision/test_pipeline.py).
        found = _small_collection(photo.image, detector)
        if _mean_confidence(found) >= TURN_FLOOR:
            return photo, found.scaled(photo.scale)
        turned, found = _upright(photo, Detections.empty(), detector)
        if len(found):
            return turned, found.scaled(turned.scale)
        askew, found = _read_turned_upright(photo, ASKEW, detector)
        if _clearly_better(found, Detections.empty()):
            return askew, found.scaled(askew.scale)
        return photo, Detections.empty()
    seen, detections = _upright(photo, found, detector)
    slant = round(card_slant(photo.image, found.xyxy))
    if abs(slant) > SLANT_BEYOND:
        # Straight may mean on their side: a slant is known only up to quarter turns.
        straight, found = _read_turned_upright(photo, slant, detector)
        # Kept only where it found cards: on an empty table the "slant" is the grain's.
        better = _mean_confidence(found) >= _mean_confidence(detections)
        if len(found) and better and _keeps(found, detections):
            seen, detections = straight, found
    if _mean_confidence(detections) < TURN_FLOOR:
        askew, found = _read_turned_upright(photo, ASKEW, detector)
        if _clearly_better(found, detections):
            seen, detections = askew, found
    return seen, detections.scaled(seen.scale)


def _small_collection(image: np.ndarray, detector: Detector) -> Detections:
    """The detections of a collection found only tile by tile (TILE_SPAN), read on the
    region around it; none where the tiles find nothing."""
    height, width = image.shape[:2]
    spans = ((0.0, TILE_SPAN), (1 - TILE_SPAN, 1.0))
    found = []
    for x_from, x_to in spans:
        for y_from, y_to in spans:
            x0, y0 = round(x_from * width), round(y_from * height)
            tile = image[y0 : round(y_to * height), x0 : round(x_to * width)]
            found.append(detector(tile).xyxy + np.array([x0, y0, x0, y0], np.float32))
    region = zoom_region(np.concatenate(found), (height, width))
    if region is None:
        return Detections.empty()
    return _read_region(image, region, detector)


def _read_region(
    image: np.ndarray,
    region: tuple[int, int, int, int],
    detector: Detector,
    size: int | None = None,
) -> Detections:
    """The detections of `image`'s region (x0, y0, x1, y1), read by `detector` (at `size`),
    with boxes in `image`'s pixels."""
    x0, y0, x1, y1 = region
    found = detector(image[y0:y1, x0:x1], size=size)
    return dataclasses.replace(found, xyxy=found.xyxy + np.array([x0, y0, x0, y0], np.float32))


def _read_turned_upright(
    photo: Photo, degrees: int, detector: Detector
) -> tuple[Photo, Detections]:
    """The photo turned `degrees` and read, then turned a quarter more where that reads
    clearly better (`_upright`)."""
    turned = photo.turned(degrees)
    return _upright(turned, detector(turned.image), detector)


def _upright(photo: Photo, detections: Detections, detector: Detector) -> tuple[Photo, Detections]:
    """The photo, or a quarter turn of it that reads clearly better, and its detections."""
    if _mean_confidence(detections) >= TURN_BELOW:
        return photo, detections
    turns = [photo.turned(quarters * 90) for quarters in (1, 2, 3)]
    readings = [(turned, detector(turned.image)) for turned in turns]
    better = [reading for reading in readings if _clearly_better(reading[1], detections)]
    if better:
        return max(better, key=lambda reading: _mean_confidence(reading[1]))
    return photo, detections


def _clearly_better(turned: Detections, as_it_lies: Detections) -> bool:
    """Whether a photo's reading turned some other way is worth keeping over its reading
    as it lies: at TURN_FLOOR or more, TURN_MARGIN more confident, keeping TURN_KEEPS."""
    confidence = _mean_confidence(turned)
    floor = max(_mean_confidence(as_it_lies) + TURN_MARGIN, TURN_FLOOR)
    return confidence >= floor and _keeps(turned, as_it_lies)


def _keeps(turned: Detections, as_it_lies: Detections) -> bool:
    return bool(turned.confidence.sum() >= TURN_KEEPS * as_it_lies.confidence.sum())


def _mean_confidence(detections: Detections) -> float:
    return float(detections.confidence.mean()) if len(detections) else 0.0


def settle(
    photo: Photo, detections: Detections, detector: Detector, players: int | None
) -> Settled:
    """The detector's detections of `photo` (as `detect_photo` read it, boxes in original
    pixels) with their stacks settled (reading.settle_hand_size: with the player count,
    the hand size's help), and, where the count is known, a hand short or long looked at
    again (`_look_again`), and a hand over its size read without cards lying apart (a
    neighbour's, `_without_cards_apart`), each kept where that makes the hand right; in a
    hand still over, the cards lying apart at the photo's edge are pointed out. A
    reviewer's boxes go to read_tally alone."""
    settled = _settled(photo, detections, detector, players)
    over = players is not None and settled.reading.cards > HAND_SIZE[players]
    return _apart_warned(settled, photo) if over or POINT_OUT_APART_ALWAYS else settled


def _settled(
    photo: Photo, detections: Detections, detector: Detector, players: int | None
) -> Settled:
    settled = settle_hand_size(detections, players)
    if players is None or not len(detections):
        return settled
    hand = HAND_SIZE[players]
    if settled.reading.cards != hand:
        looked = _look_again(photo, detections, detector, players, settled)
        if settled.reading.cards < hand:
            return looked
        # Over: a neighbour's cards, left out where that makes the hand right. Where a
        # closer look makes it right too, the cards left out must reach the photo's edge,
        # as a neighbour's do: a card boxed twice is more often what makes a hand over,
        # and leaving out a loose card of the player's own first had made 3 photos of the
        # report set and another printing wrong.
        without = _without_cards_apart(photo, detections, players, hand)
        if without is None:
            return looked
        left_out, at_the_edge = without
        return looked if looked.reading.cards == hand and not at_the_edge else left_out
    if NoticeCode.READ_ON_WASABI not in (note.code for note in settled.notices):
        return settled
    # A hand one card short was made right by reading a nigiri back on its wasabi; a card
    # the finder missed would make it right too, and is looked for first: on the tuning
    # sets 4 photos read right that way and 1 wrong (benchmarks/probe_read_back.py).
    short = settle_hand_size(detections, players, read_back=False)
    found = _look_again(photo, detections, detector, players, short, read_back=False)
    return found if found.reading.cards == hand else settled


def _without_cards_apart(
    photo: Photo, detections: Detections, players: int, hand: int
) -> tuple[Settled, bool] | None:
    """The reading of a hand over its size with the cards that lie apart from the
    collection left out (vision.neighbours: the next player's, caught in the photo; their
    boxes kept, for a reviewer to count), where leaving some of them out makes the hand
    right, and whether those reach the photo's edge; else None."""
    for apart in neighbours.choices(detections.xyxy, photo.original_size):
        trial = settle_hand_size(_left_out(detections, apart), players)
        if trial.reading.cards == hand:
            edge = neighbours.at_the_edge(detections.xyxy[apart], photo.original_size)
            cards = apart[cards_among(trial.detections[apart])]
            left_out = notices.left_out_apart(trial.detections[cards].labels).about(apart)
            return noted(trial, [left_out]), edge
    return None


def _left_out(detections: Detections, apart: np.ndarray) -> Detections:
    """`detections` with those at `apart` left out as another player's, a stack among them
    read as its plain nigiri: the stack check's word alone makes no stack, and no hand
    size speaks for another player's cards (reading.settle_hand_size). A person who
    counts one sees the nigiri, paired again with a wasabi box under it, as read_tally
    pairs any."""
    return as_plain(detections, apart).leaving_out(apart)


def _apart_warned(settled: Settled, photo: Photo) -> Settled:
    """`settled`, pointing out the cards it counts that lie apart from the rest at the
    photo's edge, where a neighbour's collection shows (vision.neighbours); the cards
    already left out are not pointed out again."""
    kept = np.flatnonzero(~settled.detections.is_left_out)
    boxes = settled.detections.xyxy[kept]
    edge = [
        group for group in neighbours.apart(boxes, photo.original_size)
        if neighbours.at_the_edge(boxes[group], photo.original_size)
    ]  # fmt: skip
    if not edge:
        return settled
    named = kept[np.sort(np.concatenate(edge))]
    return noted(settled, [notices.cards_apart(len(named)).about(named)])


def _look_again(
    photo: Photo,
    detections: Detections,
    detector: Detector,
    players: int,
    settled: Settled,
    read_back: bool = True,
) -> Settled:
    """`settled`, the reading of `detections` with a hand wrong, made right by a closer
    look at the collection (CLOSER_SIZES) or, a hand short, by the finder's doubtful
    boxes, where one of them does; else `settled`. Without `read_back`, no nigiri is read
    back on its wasabi on the way (reading.settle_hand_size)."""
    hand = HAND_SIZE[players]
    for size in CLOSER_SIZES:
        closer = settle_hand_size(
            _closer_look(photo, detections, detector, size), players, read_back=read_back
        )
        if closer.reading.cards == hand:
            return noted(closer, [notices.looked_closer(settled.reading.cards, hand)])
    if settled.reading.cards < hand:
        return _doubtful_cards(photo, settled, detector, players, hand, read_back)
    return settled


def _doubtful_cards(
    photo: Photo,
    settled: Settled,
    detector: Detector,
    players: int | None,
    hand: int,
    read_back: bool = True,
) -> Settled:
    """`settled`, a hand short, with the finder's doubtful boxes (under its threshold)
    added one at a time, likeliest first, each kept where it adds a card, when that makes
    the hand right; else `settled` as it was."""
    found = detector(photo.image, conf=DOUBTFUL_CONF).scaled(photo.scale)
    known = settled.detections
    new = [
        i for i in np.argsort(-found.confidence, kind="stable")
        if not len(known) or ious(found.xyxy[i], known.xyxy).max() < NMS_IOU
    ]  # fmt: skip
    # A box taken is read, here and on the review screen, at the reading's floor: the
    # hand's count vouches that it is a card; the notice says how it came.
    found = dataclasses.replace(found, confidence=np.maximum(found.confidence, MIN_CONFIDENCE))
    taken: list[int] = []
    cards = settled.reading.cards
    for i in new:
        cut = _cut_below(found.xyxy[i], known)
        trial = settle_hand_size(
            Detections.merge([cut, found[[*taken, i]]]), players, read_back=read_back
        )
        if trial.reading.cards > cards:
            taken.append(i)
            known, cards = cut, trial.reading.cards
        if cards >= hand:
            break
    if cards != hand:
        return settled
    # The boxes taken come last in the trial's detections, after those already known.
    added = range(len(known), len(known) + len(taken))
    return noted(trial, [notices.doubtful_cards(found[taken].labels).about(added)])


def _cut_below(strip: np.ndarray, known: Detections) -> Detections:
    """`known`, where `strip` is only the top of one of its boxes and that box holds a whole
    card below it (a covered card's strip boxed with the card under it), with that box cut
    to below the strip."""
    xyxy = known.xyxy.copy()
    aspect = card_aspect(known)
    for box in xyxy:
        if top_fragment(strip, box) and box[3] - strip[3] >= WHOLE_BELOW * aspect * (
            box[2] - box[0]
        ):
            box[1] = strip[3]
    return dataclasses.replace(known, xyxy=xyxy)


def _closer_look(photo: Photo, detections: Detections, detector: Detector, size: int) -> Detections:
    """The detections of one look at the collection's region (CLOSER_MARGIN around
    `detections`, original pixels) by the finder at `size` px, in original pixels."""
    height, width = photo.image.shape[:2]
    boxes = detections.xyxy / photo.scale
    margin = CLOSER_MARGIN * max(height, width)
    x0, y0 = np.maximum(boxes[:, :2].min(0) - margin, 0).astype(int)
    x1, y1 = np.minimum(boxes[:, 2:].max(0) + margin, [width, height]).astype(int)
    region = (int(x0), int(y0), int(x1), int(y1))
    return _read_region(photo.image, region, detector, size).scaled(photo.scale)


def review_detections(
    photo: Photo,
    detections: Detections,
    players: int,
    detector: Detector,
    told: list[Notice] | None = None,
) -> Settled:
    """What a game's review starts from, of a photo `detect_photo` read as `photo` (turned
    upright where its cards were not): the detections settled with the hand size's help
    (`settle`), their reading, and the notices a reviewer is shown (the hand size's, the
    closer look's, `told` by the look (`look_at`), the turn's)."""
    return _told(photo, detections, detector, players, told or [], photo.turn)


def read_photo(photo: Photo, detector: Detector, *, players: int | None = None) -> Reading:
    """The reading of a decoded photo, with boxes in the original photo's pixels, turned
    by `reading.turn` degrees clockwise where its cards did not stand upright."""
    return read_settled(photo, detector, players=players).reading


def read_settled(photo: Photo, detector: Detector, *, players: int | None = None) -> Settled:
    """`read_photo`'s reading, with the detections it was read from (the detector's, as
    the hand size settled them) and the notices."""
    seen, detections, told = look_at(photo, detector)
    return _told(seen, detections, detector, players, told, (seen.turn - photo.turn) % 360)


def _told(
    seen: Photo,
    detections: Detections,
    detector: Detector,
    players: int | None,
    told: list[Notice],
    degrees: int,
) -> Settled:
    """The detections of a photo read as `seen`, `degrees` turned from how it came,
    settled (`settle`), with what was `told` by the look, the small photo's warning and
    the turn's note."""
    settled = noted(_sized(settle(seen, detections, detector, players), seen), told)
    return _turned_back(settled, degrees)


def _sized(settled: Settled, photo: Photo) -> Settled:
    """`settled`, warned where its photo is too small to read (SMALL_PHOTO_PX)."""
    width, height = photo.original_size
    if max(width, height) >= SMALL_PHOTO_PX:
        return settled
    return noted(settled, [notices.small_photo(width, height)])


def _turned_back(settled: Settled, degrees: int) -> Settled:
    """`settled`, of a photo read turned `degrees` clockwise, with the turn's note among
    its reading's warnings and its notices (itself for none)."""
    if not degrees:
        return settled
    reading = read_turned(settled.reading, degrees)
    return Settled(settled.detections, reading, [*settled.notices, notices.turned(degrees)])


def read_turned(reading: Reading, degrees: int) -> Reading:
    """The reading of a photo read turned `degrees` clockwise from how it came, with the
    note that says so (itself for none)."""
    if not degrees:
        return reading
    return dataclasses.replace(
        reading, turn=degrees, remarks=[*reading.remarks, notices.turned(degrees)]
    )
