"""Stateless detection: a photo in, its tally and detections out (design.md)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from api import memory
from api.deps import DetectorDep, DetectUploadDep, SettingsDep
from api.limits import JsonBodyRoute
from api.schemas import DetectForm, DetectResponse
from api.uploads import PHOTO_ERRORS, decode_photo, multipart_openapi
from vision.pipeline import read_settled

router = APIRouter(tags=["detect"], route_class=JsonBodyRoute)


@router.post(
    "/detect",
    response_model=DetectResponse,
    responses=PHOTO_ERRORS,
    openapi_extra=multipart_openapi(
        DetectForm, title="Body_detect", file_description="a photo of one player's cards"
    ),
)
def detect(upload: DetectUploadDep, settings: SettingsDep, detector: DetectorDep) -> Any:
    """Detect the cards in a photo (multipart: `image`, optional `players`, which checks
    the hand size) and read them as a tally; nothing is stored.

    Boxes are in the pixels of the photo as uploaded (after its EXIF rotation), turned
    clockwise by `turned` degrees where its cards did not stand upright.
    """
    form = upload.valid()
    try:
        photo = decode_photo(
            form.data, max_bytes=settings.max_upload_bytes, max_pixels=settings.max_pixels
        )
        settled = read_settled(photo, detector, players=form.fields.players)
    finally:
        memory.photo_done()  # the photo's buffers go back to the system soon after
    return DetectResponse.model_validate(settled.to_json())
