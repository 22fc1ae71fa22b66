"""Reading an uploaded photo's bytes, within the size limit."""

from __future__ import annotations

from typing import Any

from fastapi import UploadFile

from api.errors import PayloadTooLarge

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
