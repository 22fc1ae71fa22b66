"""One data type for detections: boxes, confidences and label ids as numpy arrays.

Everything in the project that holds detections holds a `Detections`; the networks' raw
outputs (ultralytics', or OpenVINO's and onnxruntime's on the fast path) are converted
into it at one boundary each (vision/detector.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from vision.labels import LABELS, label_id


def _check(name: str, array: np.ndarray, shape: tuple[int | None, ...]) -> None:
    if array.ndim != len(shape) or any(
        want is not None and got != want for got, want in zip(array.shape, shape, strict=True)
    ):
        expected = "(" + ", ".join("N" if s is None else str(s) for s in shape) + ")"
        raise ValueError(f"{name} must have shape {expected}, got {array.shape}")


@dataclass(frozen=True)
class Detections:
    """N boxes in pixel coordinates of the photo they were found in.

    xyxy: (N, 4) float32, x1 y1 x2 y2; confidence: (N,) float32 in [0, 1];
    class_id: (N,) int64, an index into vision.labels.LABELS;
    wasabi_under: (N,) float32, the stack check's probability that a wasabi lies under
        a nigiri's box (vision/stack_check.py); NaN where it was not asked (another kind,
        a reviewer's box). Omitted: all NaN.
    """

    xyxy: np.ndarray
    confidence: np.ndarray
    class_id: np.ndarray
    wasabi_under: np.ndarray | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "xyxy", np.asarray(self.xyxy, dtype=np.float32).reshape(-1, 4))
        object.__setattr__(self, "confidence", np.asarray(self.confidence, dtype=np.float32))
        object.__setattr__(self, "class_id", np.asarray(self.class_id, dtype=np.int64))
        n = len(self.xyxy)
        under = np.full(n, np.nan) if self.wasabi_under is None else self.wasabi_under
        object.__setattr__(self, "wasabi_under", np.asarray(under, dtype=np.float32))
        _check("xyxy", self.xyxy, (n, 4))
        _check("confidence", self.confidence, (n,))
        _check("class_id", self.class_id, (n,))
        _check("wasabi_under", self.wasabi_under, (n,))
        if n and (self.class_id.min() < 0 or self.class_id.max() >= len(LABELS)):
            raise ValueError(f"class_id must lie in [0, {len(LABELS)}), got {self.class_id}")
        if n and not np.all(self.xyxy[:, 2:] >= self.xyxy[:, :2]):
            raise ValueError("every box needs x2 >= x1 and y2 >= y1")

    @classmethod
    def empty(cls) -> Detections:
        return cls(np.zeros((0, 4), np.float32), np.zeros(0, np.float32), np.zeros(0, np.int64))

    @classmethod
    def from_records(cls, records: Iterable[dict[str, Any]]) -> Detections:
        """From the JSON shape [{"label", "confidence", "box": [x1, y1, x2, y2]}, ...]."""
        rows = list(records)
        if not rows:
            return cls.empty()
        return cls(
            xyxy=np.array([r["box"] for r in rows], dtype=np.float32),
            confidence=np.array([r.get("confidence", 1.0) for r in rows], dtype=np.float32),
            class_id=np.array([label_id(r["label"]) for r in rows], dtype=np.int64),
        )

    def __len__(self) -> int:
        return len(self.xyxy)

    def __getitem__(self, index: np.ndarray | slice | Sequence[int] | int) -> Detections:
        if isinstance(index, int):
            index = [index]
        return Detections(
            self.xyxy[index], self.confidence[index], self.class_id[index], self.under[index]
        )

    @property
    def under(self) -> np.ndarray:
        """`wasabi_under`, typed as the array __post_init__ always makes it."""
        assert self.wasabi_under is not None
        return self.wasabi_under

    @property
    def labels(self) -> list[str]:
        return [LABELS[i] for i in self.class_id]

    def to_records(self) -> list[dict[str, Any]]:
        """The JSON shape of design.md: label, confidence (3 decimals), box (1 decimal)."""
        return [
            {
                "label": LABELS[int(c)],
                "confidence": round(float(p), 3),
                "box": [round(float(v), 1) for v in box],
            }
            for box, p, c in zip(self.xyxy, self.confidence, self.class_id, strict=True)
        ]

    def scaled(self, factor: float) -> Detections:
        return Detections(self.xyxy * factor, self.confidence, self.class_id, self.under)

    def relabelled(self, class_id: np.ndarray) -> Detections:
        """The same boxes with other labels."""
        return Detections(self.xyxy, self.confidence, class_id, self.under)

    @staticmethod
    def merge(parts: Sequence[Detections]) -> Detections:
        if not parts:
            return Detections.empty()
        return Detections(
            np.concatenate([p.xyxy for p in parts]),
            np.concatenate([p.confidence for p in parts]),
            np.concatenate([p.class_id for p in parts]),
            np.concatenate([p.under for p in parts]),
        )
