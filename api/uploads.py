"""Reading an uploaded photo's bytes, within the size limit."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import UploadFile

from api.errors import PayloadTooLarge
from vision.photo import Photo, PhotoError, load_photo

log = logging.getLogger(__name__)

PHOTO_ERRORS: dict[int | str, dict[str, Any]] = {
    413: {"description": "the file or the image is over the size limit"},
    415: {"description": "the file is not an image in a supported format"},
    422: {"description": "the image is truncated or corrupt, or a field is invalid"},
    503: {"description": "the card detector is not available"},
}


def read_upload(upload: UploadFile, max_bytes: int) -> bytes:
    """The file's bytes; 413 when there are more than `max_bytes`."""
    data = upload.file.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise PayloadTooLarge(
            f"the file is over {max_bytes:,} bytes, the limit for a photo", reason="too_large"
        )
    return data


def decode_photo(data: bytes, *, max_bytes: int, max_pixels: int) -> Photo:
    """vision.photo's decode, with a last line of defence: whatever else a decoder raises
    on a hostile file (a library patched by another, a codec bug) is a 415, not a 500."""
    try:
        return load_photo(data, max_bytes=max_bytes, max_pixels=max_pixels)
    except PhotoError:
        raise
    except Exception as error:
        log.exception("decoding an uploaded photo failed unexpectedly")
        raise PhotoError(
            "unsupported", f"the image could not be decoded ({type(error).__name__})"
        ) from error
