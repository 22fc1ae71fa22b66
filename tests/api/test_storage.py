"""The photo store's staged writes: a photo is written beside its place while it is
detected, and only a published one is ever seen."""

from __future__ import annotations

from pathlib import Path

from api.storage import PhotoStore, sha256_hex


def _files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file())


def test_a_published_photo_is_in_place_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    store = PhotoStore(tmp_path)
    data = b"\xff\xd8\xff photo bytes"
    digest = sha256_hex(data)
    staged = store.stage_photo(data, digest=digest)
    assert not store.photo_path(digest).exists()  # written, but not where anyone looks
    staged.publish()
    staged.discard()  # after publishing, discarding removes nothing
    assert store.read_photo(digest) == data
    assert _files(store.photos) == [store.photo_path(digest)]


def test_a_discarded_photo_leaves_nothing(tmp_path: Path) -> None:
    store = PhotoStore(tmp_path)
    staged = store.stage_photo(b"abc", digest=sha256_hex(b"abc"))
    assert len(_files(store.photos)) == 1  # the temporary file
    staged.discard()
    staged.discard()
    assert _files(store.photos) == []


def test_a_photo_stored_already_is_not_written_again(tmp_path: Path) -> None:
    store = PhotoStore(tmp_path)
    digest = sha256_hex(b"abc")
    store.stage_photo(b"abc", digest=digest).publish()
    before = store.photo_path(digest).stat().st_mtime_ns
    staged = store.stage_photo(b"abc", digest=digest)
    assert _files(store.photos) == [store.photo_path(digest)]
    staged.publish()
    staged.discard()
    assert store.photo_path(digest).stat().st_mtime_ns == before
    assert store.read_photo(digest) == b"abc"
