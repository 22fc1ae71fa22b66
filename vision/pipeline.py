"""One photo in, one reading out: decode, detect (turning the photo where its cards do not
stand upright), map boxes to the original photo, tally."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np

from vision.detections import Detections
from vision.detector import zoom_region
from vision.photo import Photo, card_slant
from vision.reading import Reading, Settled, settle_hand_size

Detector = Callable[[np.ndarray], Detections]

# A phone held flat over the table cannot tell which way is up, so its EXIF tag may leave
# the cards sideways or upside down; every network here reads upright cards. Cards read
# upright have a mean confidence of 0.72-0.92 (5 % of photos under 0.84) on 500 held-out
# 12 MP photos; the same photos turned read 0.53 (90°), 0.62 (180°), 0.50 (270°) at the
# median, and upright won by at least 0.029 on every photo (HISTORY@3cd44f8, "Photos
# turned"). So a reading under TURN_BELOW is tried in the three other turns, and a turn
# that reads at least TURN_MARGIN more confidently, and at least TURN_FLOOR, is kept: on
# a photo where nothing was found upright (a small collection in pixel art), cards found
# upside down at 0.5 were no better a reading, and the photo would show the wrong way up.
# Nor is a turn that loses most of the cards: on a 640 px photo, two "cards" found on its
# side read at 0.80 against nine upright at 0.76. So a turn's confidences must add up to
# at least TURN_KEEPS of the photo's as it lies. Upside down, cards are found in pieces
# (16 boxes for 10 cards), so the right turn may add up to less: on 197 of 200 seed-9700
# photos tried upside down, it added up to 0.90 of the upside-down reading's or more.
TURN_BELOW = 0.84
TURN_MARGIN = 0.02
TURN_FLOOR = 0.7
TURN_KEEPS = 0.5
# A phone need not be held square to the cards either. Every network here learned cards
# turned by less than about 30 degrees, and another hand's photos (datasets/other_scene.py,
# taken from any side) read 60 of 90 exactly where the cards lay 30-45 degrees off square.
# So where the cards' edges (photo.card_slant) lie more than SLANT_BEYOND off square, the
# photo is read again turned straight, and that reading kept if it is at least as
# confident and keeps TURN_KEEPS of the summed confidence. On that set (300) and the pixel
# and seed-9700 tuning sets (200, 250): 264 / 195 / 248 exact without, 290 / 198 / 249 at
# 15 degrees, 289 / 197 / 249 at 20, 289 / 196 / 249 at 25. At 20, 6-9 % of the
# generator's photos pay the second reading (15-17 % at 15): HISTORY@3cd44f8, "Another
# hand's photos".
SLANT_BEYOND = 20.0
# Where nothing confidently (a mean under TURN_FLOOR) is found as the photo lies, a
# quarter turn off and straightened by its slant, the cards may lie near 45
# degrees off square while the table decided the slant: card_slant reads the whole frame
# where no card was found, and inside a few wrong boxes a striped cloth's edges still
# outvote the cards'. The photo is then read once more turned ASKEW (with its own quarter
# turns), and that reading kept as a quarter turn is: at TURN_FLOOR or more (so that an
# empty table stays empty), TURN_MARGIN better, keeping TURN_KEEPS. On the other
# renderer's seed 8400 one photo found nothing (10 cards at 145 degrees on red stripes)
# and one 2 of 7 cards at 0.3-0.43 (upside down at 45 degrees on stripes); turned ASKEW
# each read all its cards. None of 1,000 photos of our generator pays it (HISTORY@3cd44f8,
# "Printed tablecloths"). A photo where nothing at all is found is turned ASKEW only
# after the tiles (below) and its quarter turns found nothing either.
ASKEW = 45
# Where nothing is found as the photo lies, the collection may be too small in the frame
# for the finder's look at the whole photo (ten pixel-art cards in a corner of a red
# cloth, 0 found at 480 or 640 px, 10 in the photo's top-left quarter). The photo is
# then looked at in 2 x 2 tiles, each TILE_SPAN of its width and height (overlapping, so
# that a collection on a tile's edge lies whole in a neighbour), and read again on the
# region around what they found (detector.zoom_region, as the second look), kept at
# TURN_FLOOR or more.
TILE_SPAN = 0.6


def detect_photo(photo: Photo, detector: Detector) -> tuple[Photo, Detections]:
    """The photo turned so that its cards stand upright (itself, nearly always), and its
    detections with boxes in that photo's original pixels."""
    found = detector(photo.image)
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
            found.append(detector(tile).xyxy + np.float32([x0, y0, x0, y0]))
    region = zoom_region(np.concatenate(found), (height, width))
    if region is None:
        return Detections.empty()
    x0, y0, x1, y1 = region
    detections = detector(image[y0:y1, x0:x1])
    return dataclasses.replace(detections, xyxy=detections.xyxy + np.float32([x0, y0, x0, y0]))


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


def turn_note(degrees: int) -> str:
    """What a reviewer is told of a photo read turned `degrees` clockwise."""
    if degrees == 180:
        return "the photo was read turned 180°: its cards stood upside down"
    side = "clockwise" if degrees < 180 else "anticlockwise"
    by = degrees if degrees < 180 else 360 - degrees
    why = "lay on their side" if degrees % 90 == 0 else "lay at a slant"
    return f"the photo was read turned {by}° {side}: its cards {why}"


def read_detections(detections: Detections, *, players: int | None = None) -> Reading:
    """The reading of the detector's own detections: the tally, with the hand size settling
    a doubtful stack when the player count is known (reading.settle_hand_size). A
    reviewer's boxes go to read_tally alone."""
    return settle_hand_size(detections, players).reading


def review_detections(photo: Photo, detections: Detections, players: int) -> Settled:
    """What a game's review starts from, of a photo `detect_photo` read as `photo` (turned
    upright where its cards were not): the detections with stacks settled by the hand
    size, their reading, and the notes a reviewer is shown (the hand size's, the turn's)."""
    settled = settle_hand_size(detections, players)
    if not photo.turn:
        return settled
    reading = read_turned(settled.reading, photo.turn)
    return Settled(settled.detections, reading, [*settled.notes, turn_note(photo.turn)])


def read_photo(photo: Photo, detector: Detector, *, players: int | None = None) -> Reading:
    """The reading of a decoded photo, with boxes in the original photo's pixels, turned
    by `reading.turn` degrees clockwise where its cards did not stand upright."""
    seen, detections = detect_photo(photo, detector)
    return read_turned(read_detections(detections, players=players), (seen.turn - photo.turn) % 360)


def read_turned(reading: Reading, degrees: int) -> Reading:
    """The reading of a photo read turned `degrees` clockwise from how it came, with the
    note that says so (itself for none)."""
    if not degrees:
        return reading
    return dataclasses.replace(
        reading, turn=degrees, warnings=[*reading.warnings, turn_note(degrees)]
    )
