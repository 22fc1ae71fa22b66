"""Annotated photos: boxes, labels and the tally drawn on the photo, cached by content.

The cache key is the photo's hash and the boxes drawn, so a correction gives a new image
and an unchanged review is drawn once.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from api import memory
from api.models import Photo
from api.storage import PhotoStore
from scoring import Tally
from vision.annotate import DRAWING, annotate, encode_jpeg
from vision.detections import Detections
from vision.photo import load_photo
from vision.reading import read_tally


def annotated_jpeg(
    store: PhotoStore,
    photo: Photo,
    records: Sequence[dict[str, Any]],
    *,
    players: int | None = None,
    tally: Mapping[str, int] | None = None,
) -> Path:
    """The path of the JPEG of `photo` with `records` (boxes in original pixels) drawn,
    and `tally` (the reviewed one, counts set by hand included) in its panel; without
    `tally` the panel shows what the boxes read as."""
    text = json.dumps([DRAWING, photo.sha256, list(records), players, tally], sort_keys=True)
    key = hashlib.sha256(text.encode()).hexdigest()
    path = store.annotated_path(key)
    if path.exists():
        return path
    data = store.read_photo(photo.sha256)
    # The photo passed the limits when it was uploaded; the limits may have changed since.
    decoded = load_photo(data, max_bytes=len(data), max_pixels=photo.width * photo.height)
    boxes = Detections.from_records(records).scaled(1.0 / decoded.scale)
    reading = read_tally(boxes, players=players)
    if tally is not None:
        final = Tally.from_mapping(tally)
        reading = dataclasses.replace(reading, tally=final, cards=final.cards)
    try:
        image = annotate(decoded.image, reading)
        return store.put_annotated(key, encode_jpeg(image))
    finally:
        memory.photo_done()
