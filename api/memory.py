"""Giving freed memory back to the system after photos (issue 29: resident memory must come
back to within 200 MB of where the server started).

A photo's decode and detection allocate tens of megabytes on a worker thread, each worker
in its own glibc malloc arena; glibc keeps what is freed in an arena for reuse, so the
resident size only ever grows with the number of arenas touched. `malloc_trim(0)` hands
the free pages of every arena back. Elsewhere (musl, macOS) there is nothing to call.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import threading
import time
from collections.abc import Callable

# After a burst of uploads one trim, a moment after the last, does the work of all of them.
TRIM_DELAY_S = 1.0


def _glibc_trim() -> Callable[[], object] | None:
    """glibc's malloc_trim, or None where the C library has none."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return lambda: trim(0)


class MemoryReleaser:
    """Trims the heap once, `delay` seconds after the latest `photo_done()`: a trim takes
    milliseconds and locks each arena in turn, so it is kept out of the requests and
    done once per burst rather than once per photo."""

    def __init__(self, delay: float = TRIM_DELAY_S, trim: Callable[[], object] | None = None):
        self.delay = delay
        self._trim = trim if trim is not None else _glibc_trim()
        self._lock = threading.Lock()
        self._due = 0.0
        self._timer: threading.Timer | None = None
        self.trims = 0

    @property
    def available(self) -> bool:
        return self._trim is not None

    def photo_done(self) -> None:
        if self._trim is None:
            return
        with self._lock:
            self._due = time.monotonic() + self.delay
            if self._timer is None:
                self._start(self.delay)

    def _start(self, seconds: float) -> None:
        self._timer = threading.Timer(seconds, self._fire)
        self._timer.daemon = True  # never holds the server's exit
        self._timer.start()

    def _fire(self) -> None:
        with self._lock:
            wait = self._due - time.monotonic()
            if wait > 0:  # another photo came meanwhile: wait for the burst to end
                self._start(wait)
                return
            self._timer = None
        assert self._trim is not None
        self._trim()
        self.trims += 1

    def cancel(self) -> None:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None


# One per process: the heap is the process's, whichever app or request freed into it.
RELEASER = MemoryReleaser()


def photo_done() -> None:
    """A photo's decode and detection (or drawing) are over: trim soon."""
    RELEASER.photo_done()
