"""One photo in, one reading out: decode, detect (turning the photo where its cards do not
stand upright), map boxes to the original photo, tally."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np

from vision.detections import Detections
from vision.photo import Photo
from vision.reading import Reading, settle_hand_size

Detector = Callable[[np.ndarray], Detections]

# A phone held flat over the table cannot tell which way is up, so its EXIF tag may leave
# the cards sideways or upside down; every network here reads upright cards. Cards read
# upright have a mean confidence of 0.72-0.92 (5 % of photos under 0.84) on 500 held-out
# 12 MP photos; the same photos turned read 0.53 (90°), 0.62 (180°), 0.50 (270°) at the
# median, and upright won by at least 0.029 on every photo (vision/README.md, "Photos
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


def detect_photo(photo: Photo, detector: Detector) -> tuple[Photo, Detections]:
    """The photo turned so that its cards stand upright (itself, nearly always), and its
    detections with boxes in that photo's original pixels."""
    detections = detector(photo.image)
    confidence = _mean_confidence(detections)
    if confidence < TURN_BELOW:
        turns = [photo.turned(quarters) for quarters in (1, 2, 3)]
        readings = [(_mean_confidence(found := detector(t.image)), t, found) for t in turns]
        least = TURN_KEEPS * detections.confidence.sum()
        readings = [reading for reading in readings if reading[2].confidence.sum() >= least]
        if readings:
            best, turned, found = max(readings, key=lambda reading: reading[0])
            if best >= max(confidence + TURN_MARGIN, TURN_FLOOR):
                photo, detections = turned, found
    return photo, detections.scaled(photo.scale)


def _mean_confidence(detections: Detections) -> float:
    return float(detections.confidence.mean()) if len(detections) else 0.0


def turn_note(quarters: int) -> str:
    """What a reviewer is told of a photo read turned."""
    if quarters == 2:
        return "the photo was read turned 180°: its cards stood upside down"
    side = "clockwise" if quarters == 1 else "anticlockwise"
    return f"the photo was read turned 90° {side}: its cards lay on their side"


def read_detections(detections: Detections, *, players: int | None = None) -> Reading:
    """The reading of the detector's own detections: the tally, with the hand size settling
    a doubtful stack when the player count is known (reading.settle_hand_size). A
    reviewer's boxes go to read_tally alone."""
    return settle_hand_size(detections, players).reading


def read_photo(photo: Photo, detector: Detector, *, players: int | None = None) -> Reading:
    """The reading of a decoded photo, with boxes in the original photo's pixels, turned
    by `reading.turn` quarter turns clockwise where its cards did not stand upright."""
    seen, detections = detect_photo(photo, detector)
    return read_turned(read_detections(detections, players=players), (seen.turn - photo.turn) % 4)


def read_turned(reading: Reading, quarters: int) -> Reading:
    """The reading of a photo read `quarters` quarter turns clockwise from how it came,
    with the note that says so (itself for none)."""
    if not quarters:
        return reading
    return dataclasses.replace(
        reading, turn=quarters, warnings=[*reading.warnings, turn_note(quarters)]
    )
