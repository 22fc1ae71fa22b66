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

    def put_photo(self, data: bytes, *, digest: str | None = None) -> str:
        """Store the bytes (once); return their sha256 (`digest`, when already known)."""
        digest = digest or sha256_hex(data)
        path = self.photo_path(digest)
        if not path.exists():
            _write_atomically(path, data)
        return digest

    def read_photo(self, sha256: str) -> bytes:
        return self.photo_path(sha256).read_bytes()

    def annotated_path(self, key: str) -> Path:
        return self.annotated / key[:2] / f"{key}.jpg"

    def put_annotated(self, key: str, data: bytes) -> Path:
        path = self.annotated_path(key)
        _write_atomically(path, data)
        return path


def _write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".incoming-")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
