"""Files under the data folder: photos by content hash, annotated images as a cache.

A photo is stored as `photos/<first two hex>/<sha256>`: never under the client's file
name, and the same bytes uploaded twice are stored once. Writes go to a temporary file
first and are renamed into place, so a crash never leaves half a photo.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

# Leading bytes of the formats vision.photo decodes.
_MEDIA_TYPES: tuple[tuple[int, bytes, str], ...] = (
    (0, b"\xff\xd8\xff", "image/jpeg"),
    (0, b"\x89PNG\r\n\x1a\n", "image/png"),
    (8, b"WEBP", "image/webp"),
)
_HEIF_BRANDS = (b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1")


def media_type(data: bytes) -> str:
    """The MIME type of a photo's bytes, from its signature."""
    for offset, magic, name in _MEDIA_TYPES:
        if data[offset : offset + len(magic)] == magic:
            return name
    if data[4:8] == b"ftyp":
        return "image/heif" if data[8:12] in _HEIF_BRANDS else "image/avif"
    return "application/octet-stream"


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class PhotoStore:
    """Photos and annotated images under one data folder."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.photos = root / "photos"
        self.annotated = root / "annotated"
        for folder in (self.photos, self.annotated):
            folder.mkdir(parents=True, exist_ok=True)

    def photo_path(self, sha256: str) -> Path:
        return self.photos / sha256[:2] / sha256

    def stage_photo(self, data: bytes, *, digest: str) -> StagedPhoto:
        """Write the bytes to a temporary file beside their place (the slow part: a few
        milliseconds of fsync for a phone photo), to be put in place by `publish()` or
        removed by `discard()`. Nothing is written when the photo is stored already."""
        path = self.photo_path(digest)
        if path.exists():
            return StagedPhoto(path, None)
        return StagedPhoto(path, _write_temporary(path, data))

    def read_photo(self, sha256: str) -> bytes:
        return self.photo_path(sha256).read_bytes()

    def annotated_path(self, key: str) -> Path:
        return self.annotated / key[:2] / f"{key}.jpg"

    def put_annotated(self, key: str, data: bytes) -> Path:
        path = self.annotated_path(key)
        _write_atomically(path, data)
        return path


class StagedPhoto:
    """A photo written beside its place, not yet in it (PhotoStore.stage_photo)."""

    def __init__(self, path: Path, temporary: Path | None) -> None:
        self.path = path
        self._temporary = temporary

    def publish(self) -> None:
        if self._temporary is not None:
            os.replace(self._temporary, self.path)
            self._temporary = None

    def discard(self) -> None:
        """Remove the temporary file unless it was published (safe to call twice)."""
        if self._temporary is not None:
            self._temporary.unlink(missing_ok=True)
            self._temporary = None


def _write_temporary(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(dir=path.parent, prefix=".incoming-")
    temporary = Path(name)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return temporary


def _write_atomically(path: Path, data: bytes) -> None:
    StagedPhoto(path, _write_temporary(path, data)).publish()
