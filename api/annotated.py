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
from api.collections import CollectionView
from api.models import Photo
from api.storage import PhotoStore
from scoring import Tally
from vision.annotate import DRAWING, Told, annotate, encode_jpeg
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
    told: Told | None = None,
) -> Path:
    """The path of the JPEG of `photo` with `records` (boxes in original pixels) drawn,
    and `tally` (the reviewed one, counts set by hand included) in its panel; without
    `tally` the panel shows what the boxes read as. `told`: the review's warnings, notes
    and boxes asked about, drawn as the page shows them (`to_check` indexes `records`)."""
    said = None if told is None else [*told.warnings, *told.notes, sorted(told.to_check)]
    text = json.dumps([DRAWING, photo.sha256, list(records), players, tally, said], sort_keys=True)
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
        image = annotate(decoded.image, reading, told, left_out=boxes[boxes.is_left_out])
        return store.put_annotated(key, encode_jpeg(image))
    finally:
        memory.photo_done()


def review_told(view: CollectionView, box_ids: Sequence[int]) -> Told:
    """What the page shows of a review, to draw: the warnings kept with the photo and the
    problems, named; the notes; and the boxes asked about ("?"), by their place in
    `box_ids` (the order of the records drawn)."""
    assessment = view.assessment
    place = {box_id: index for index, box_id in enumerate(box_ids)}
    return Told(
        warnings=[*assessment.warnings, *(problem.message for problem in view.problems)],
        notes=assessment.notes,
        to_check=frozenset(place[box_id] for box_id in assessment.to_check),
    )
