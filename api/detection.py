"""The detector as the service uses it: loaded lazily, once per process, shared by every
request thread; and the one function that turns a photo into detections in original
photo pixels.

vision.detector is imported only when the first photo arrives (or /model is asked), so
that importing or starting the API never loads a model runtime.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from api import memory
from api.errors import DetectorUnavailable
from vision.detections import Detections
from vision.labels import DETECTOR_LABELS
from vision.notices import Notice
from vision.photo import Photo
from vision.pipeline import Detector, look_at

# An upload's photo is decoded and detected on one of these threads while the request's
# own thread does the upload's database checks: the JPEG decode is single-threaded and
# takes tens of milliseconds, so on a second core the checks add nothing to an upload's
# latency (benchmarks/bench_api.py). Four bound the decoded photos held at once; the
# provider's slots bound the detections.
_photo_workers = ThreadPoolExecutor(max_workers=4, thread_name_prefix="photo")


def detect_in_background(
    decode: Callable[[], Photo], detector: Detector
) -> Future[tuple[Photo, Detections, list[Notice]]]:
    """Start decoding and detecting a photo; `.result()` gives the photo (turned where its
    cards did not stand upright), its detections and what the look tells
    (vision.pipeline.look_at), or raises what the decode raised (a PhotoError is the
    client's 4xx)."""

    def work() -> tuple[Photo, Detections, list[Notice]]:
        try:
            return look_at(decode(), detector)
        finally:
            memory.photo_done()

    return _photo_workers.submit(work)


@dataclass(frozen=True)
class ModelInfo:
    """What the service detects with: the weights, their hash, the classes, and whatever
    else the detector says about itself (files, when trained, metrics)."""

    available: bool
    weights: str | None
    sha256: str | None
    classes: list[str]
    details: dict[str, Any] | None = None
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "available": self.available,
            "weights": self.weights,
            "sha256": self.sha256,
            "classes": self.classes,
            "details": self.details,
            "error": self.error,
        }


class DetectorProvider:
    """Loads the detector on first use (one load even when requests race) and limits how
    many detections run at once. A failed load is remembered and reported; it is tried
    again after `retry_after` seconds (weights may arrive while the service runs)."""

    def __init__(
        self, weights: Path | None, *, concurrency: int = 2, retry_after: float = 30.0
    ) -> None:
        self.weights = weights
        self.retry_after = retry_after
        self._lock = threading.Lock()
        self._slots = threading.BoundedSemaphore(concurrency)
        self._detector: Detector | None = None
        self._error: str | None = None
        self._failed_at = 0.0
        # Describing the weights hashes ~10 MB of files: done once per loaded detector,
        # not on every upload that stamps its photo with it.
        self._info: ModelInfo | None = None

    def get(self) -> Detector:
        """The detector, loading it if needed; DetectorUnavailable if it cannot load."""
        if self._detector is not None:
            return self._limited(self._detector)
        with self._lock:
            stale = time.monotonic() - self._failed_at >= self.retry_after
            if self._detector is None and (self._error is None or stale):
                self._load()
        if self._detector is None:
            raise DetectorUnavailable(
                f"the card detector is not available: {self._error}", reason="detector"
            )
        return self._limited(self._detector)

    @classmethod
    def preloaded(cls, detector: Detector, *, concurrency: int = 2) -> DetectorProvider:
        """A provider around a detector built elsewhere (a benchmark's, an embedding app's)."""
        provider = cls(None, concurrency=concurrency)
        provider._detector = detector
        return provider

    @property
    def loaded(self) -> bool:
        return self._detector is not None

    def reset(self) -> None:
        with self._lock:
            self._detector = None
            self._error = None
            self._info = None

    def info(self) -> ModelInfo:
        """What is (or would be) loaded. Loads the detector if nothing tried yet."""
        try:
            detector = self.get()
        except DetectorUnavailable:
            return self._unavailable_info()
        cached = self._info
        if cached is None:
            cached = self._info = self._loaded_info(detector)
        return cached

    def _unavailable_info(self) -> ModelInfo:
        path = self._weights_path()
        details = self._describe_weights()
        return ModelInfo(
            available=False,
            weights=str(path) if path else None,
            sha256=((details or {}).get("detector") or {}).get("sha256") or _file_sha256(path),
            classes=list(DETECTOR_LABELS),
            details=details,
            error=self._error,
        )

    def _loaded_info(self, detector: Detector) -> ModelInfo:
        inner = getattr(detector, "__wrapped__", detector)
        details = _describe(getattr(inner, "info", None))
        path = (details or {}).get("folder") or getattr(inner, "weights", None)
        path = path or self._weights_path()
        sha = ((details or {}).get("detector") or {}).get("sha256")
        if sha is None:
            sha = _file_sha256(Path(path) if path else None)
        return ModelInfo(
            available=True,
            weights=str(path) if path else None,
            sha256=sha,
            classes=list((details or {}).get("classes") or DETECTOR_LABELS),
            details=details,
        )

    def _load(self) -> None:
        try:
            from vision.detector import load_detector

            self._detector = load_detector(self.weights)
            self._error = None
            self._info = None
        except Exception as error:  # any failure to load means "no detector", said so
            self._error = f"{type(error).__name__}: {error}"
            self._failed_at = time.monotonic()

    def _describe_weights(self) -> dict[str, Any] | None:
        """The weights' description read from their metadata, without loading them."""
        try:
            from vision.detector import model_info

            return _describe(model_info(self.weights))
        except Exception:
            return None

    def _weights_path(self) -> Path | None:
        if self.weights is not None:
            return self.weights
        try:
            from vision import detector as module
        except Exception:
            return None
        for name in ("DEFAULT_WEIGHTS", "default_weights"):
            found = getattr(module, name, None)
            if callable(found):
                try:
                    found = found()
                except Exception:
                    found = None
            if found is not None:
                return Path(found)
        return None

    def _limited(self, detector: Detector) -> Detector:
        slots = self._slots

        def run(
            image: np.ndarray, size: int | None = None, conf: float | None = None
        ) -> Detections:
            with slots:
                return detector(image, size=size, conf=conf)

        run.__wrapped__ = detector  # type: ignore[attr-defined]
        return run


def _describe(info: object) -> dict[str, Any] | None:
    """The weights' own account of themselves (vision.detector's `ModelInfo.describe()`)."""
    describe = getattr(info, "describe", None)
    if not callable(describe):
        return None
    try:
        details = describe()
    except Exception:  # a description must never break the route that asks for it
        return None
    return dict(details) if isinstance(details, dict) else None


_sha_cache: dict[tuple[str, int, int], str] = {}


def _file_sha256(path: Path | None) -> str | None:
    if path is None or not path.is_file():
        return None
    stat = path.stat()
    key = (str(path.resolve()), stat.st_size, stat.st_mtime_ns)
    if key not in _sha_cache:
        digest = hashlib.sha256()
        with path.open("rb") as file:
            for block in iter(lambda: file.read(1 << 20), b""):
                digest.update(block)
        _sha_cache[key] = digest.hexdigest()
    return _sha_cache[key]
