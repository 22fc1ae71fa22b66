"""Stateless detection: a photo in, its tally and detections out (design.md)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, File, Form, UploadFile

from api.deps import DetectorDep, SettingsDep
from api.schemas import DetectResponse
from api.uploads import PHOTO_ERRORS, decode_photo, read_upload
from vision.pipeline import read_photo

router = APIRouter(tags=["detect"])


@router.post("/detect", responses=PHOTO_ERRORS)
def detect(
    image: Annotated[UploadFile, File(description="a photo of one player's cards")],
    settings: SettingsDep,
    detector: DetectorDep,
    players: Annotated[
        int | None, Form(ge=2, le=5, description="players at the table: checks the hand size")
    ] = None,
) -> Any:
    """Detect the cards in a photo and read them as a tally; nothing is stored.

    Boxes are in the pixels of the photo as uploaded (after its EXIF rotation).
    """
    data = read_upload(image, settings.max_upload_bytes)
    photo = decode_photo(data, max_bytes=settings.max_upload_bytes, max_pixels=settings.max_pixels)
    reading = read_photo(photo, detector, players=players)
    return DetectResponse.model_validate(reading.to_json())
