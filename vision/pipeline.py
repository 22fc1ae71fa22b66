"""One photo in, one reading out: decode, detect, map boxes to the original photo, tally."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from vision.detections import Detections
from vision.photo import Photo
from vision.reading import Reading, settle_hand_size

Detector = Callable[[np.ndarray], Detections]


def detect_photo(photo: Photo, detector: Detector) -> Detections:
    """Detections of a decoded photo, with boxes in the original (upright) photo's pixels."""
    return detector(photo.image).scaled(photo.scale)


def read_detections(detections: Detections, *, players: int | None = None) -> Reading:
    """The reading of the detector's own detections: the tally, with the hand size settling
    a doubtful stack when the player count is known (reading.settle_hand_size). A
    reviewer's boxes go to read_tally alone."""
    return settle_hand_size(detections, players).reading


def read_photo(photo: Photo, detector: Detector, *, players: int | None = None) -> Reading:
    """The reading of a decoded photo, with boxes in the original photo's pixels."""
    return read_detections(detect_photo(photo, detector), players=players)
