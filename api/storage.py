"""Files under the data folder: photos by content hash, annotated images as a cache.

A photo is stored as `photos/<first two hex>/<sha256>`: never under the client's file
name, and the same bytes uploaded twice are stored once. Writes go to a temporary file
first and are renamed into place, so a crash never leaves half a photo; the temporary
files a crash leaves are removed when the service starts (`remove_incoming`).
"""

from __future__ import annotations

import hashlib
import logging
import os
import secrets
import tempfile
import time
from pathlib import Path

log = logging.getLogger(__name__)

INCOMING_PREFIX = ".incoming-"
# A temporary file lives for one upload's request (seconds). One this old is a crash's
# even where its writer's process id has been given to another process since.
ABANDONED_AFTER_S = 3600
# This run of the service, beside its process id in a temporary file's name: a service
# restarted in a container often gets the same process id as the run that crashed.
RUN_ID = secrets.token_hex(4)

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
    # The writer in the name: a service starting beside another one on the same data
    # folder (uvicorn --workers) removes only the files of runs that are gone.
    prefix = f"{INCOMING_PREFIX}{os.getpid()}.{RUN_ID}-"
    handle, name = tempfile.mkstemp(dir=path.parent, prefix=prefix)
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


def remove_incoming(root: Path) -> int:
    """Remove the temporary files under `root` that no running process is writing: those
    of a service killed mid-upload. Nothing refers to them (the database names photos by
    their hash, and a photo is in place only once renamed). Returns how many went."""
    removed = 0
    now = time.time()
    for path in root.glob(f"*/**/{INCOMING_PREFIX}*"):
        try:
            if _writer_alive(path.name) and now - path.stat().st_mtime < ABANDONED_AFTER_S:
                continue
            path.unlink()
        except FileNotFoundError:  # its writer published or discarded it meanwhile
            continue
        removed += 1
    if removed:
        log.info("removed %d temporary upload file(s) left by an earlier run", removed)
    return removed


def _writer_alive(name: str) -> bool:
    writer = name.removeprefix(INCOMING_PREFIX).partition("-")[0]
    pid_text, _, run = writer.partition(".")
    if not pid_text.isdigit():
        return False  # an older version's name, without its writer
    pid = int(pid_text)
    if pid == os.getpid():
        return run == RUN_ID  # else an earlier run that had this process id
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):
        return False
    except PermissionError:
        return True  # another user's process: alive
    return True
