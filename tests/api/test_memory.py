"""Freed memory goes back to the system once per burst of photos (api.memory), off the
requests; where the C library has no malloc_trim nothing is called."""

from __future__ import annotations

import threading
import time

import pytest

from api import memory
from tests.api.conftest import FakeDetector, Table, boxes_for, make_photo


def test_a_burst_of_photos_is_one_trim_after_the_last() -> None:
    trimmed: list[float] = []
    done = threading.Event()

    def trim() -> None:
        trimmed.append(time.monotonic())
        done.set()

    releaser = memory.MemoryReleaser(delay=0.2, trim=trim)
    started = time.monotonic()
    for _ in range(5):
        releaser.photo_done()
        last = time.monotonic()
        time.sleep(0.05)
    assert done.wait(5)
    time.sleep(0.3)  # no second trim follows
    assert len(trimmed) == 1 and releaser.trims == 1
    assert trimmed[0] - last >= 0.19 and trimmed[0] - started >= 0.4
    releaser.photo_done()  # a later photo is trimmed after in its turn
    time.sleep(0.5)
    assert releaser.trims == 2


def test_without_malloc_trim_nothing_is_called() -> None:
    releaser = memory.MemoryReleaser(delay=0.01, trim=None)
    releaser._trim = None  # as on musl or macOS
    releaser.photo_done()
    time.sleep(0.05)
    assert not releaser.available and releaser.trims == 0


def test_glibc_trim_is_found_and_runs() -> None:
    trim = memory._glibc_trim()
    assert trim is not None  # the machines this runs on use glibc
    trim()


def test_an_upload_asks_for_a_trim(
    table: Table, detector: FakeDetector, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []
    monkeypatch.setattr(memory, "photo_done", lambda: calls.append(1))
    records = boxes_for(["egg"], width=640, height=480)
    detector.register((640, 480), records)
    assert table.upload(1, 1, make_photo((640, 480), records)).status_code == 201
    assert calls
