"""One data type for detections: boxes, confidences and label ids as numpy arrays.

Everything in the project that holds detections holds a `Detections`; the networks' raw
outputs (ultralytics', or OpenVINO's and onnxruntime's on the fast path) are converted
into it at one boundary each (vision/detector.py).
"""

from __future__ import annotations

import dataclasses
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


# What only some boxes carry (a nigiri's wasabi_under, a nigiri's or maki's doubt): field,
# dtype, the value where it was not asked.
_ASKED_OF_SOME: tuple[tuple[str, type, float], ...] = (
    ("wasabi_under", np.float32, np.nan),
    ("doubt", np.float32, np.nan),
)


@dataclass(frozen=True)
class Detections:
    """N boxes in pixel coordinates of the photo they were found in.

    xyxy: (N, 4) float32, x1 y1 x2 y2; confidence: (N,) float32 in [0, 1];
    class_id: (N,) int64, an index into vision.labels.LABELS;
    wasabi_under: (N,) float32, the stack check's probability that a wasabi lies under
        a nigiri's box (vision/stack_check.py); NaN where it was not asked (another kind,
        a reviewer's box). Omitted: all NaN.
    doubt: (N,) float32, for a nigiri's box, the probability the classifier gave the
        likeliest other nigiri kind, for a maki's the likeliest other roll count, for a
        wasabi's the likeliest nigiri; NaN where not asked. Omitted: all NaN.
    left_out: (N,) bool, a box the tally leaves out as another player's card: it lies
        apart from the collection, as the next player's do (vision.pipeline). Omitted: none.
    """

    xyxy: np.ndarray
    confidence: np.ndarray
    class_id: np.ndarray
    wasabi_under: np.ndarray | None = None
    doubt: np.ndarray | None = None
    left_out: np.ndarray | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "xyxy", np.asarray(self.xyxy, dtype=np.float32).reshape(-1, 4))
        object.__setattr__(self, "confidence", np.asarray(self.confidence, dtype=np.float32))
        object.__setattr__(self, "class_id", np.asarray(self.class_id, dtype=np.int64))
        n = len(self.xyxy)
        for name, dtype, missing in _ASKED_OF_SOME:
            given = getattr(self, name)
            array = np.full(n, missing) if given is None else given
            object.__setattr__(self, name, np.asarray(array, dtype=dtype))
        left_out = np.zeros(n, bool) if self.left_out is None else self.left_out
        object.__setattr__(self, "left_out", np.asarray(left_out, dtype=bool))
        _check("xyxy", self.xyxy, (n, 4))
        _check("confidence", self.confidence, (n,))
        _check("class_id", self.class_id, (n,))
        for name in [*(name for name, _, _ in _ASKED_OF_SOME), "left_out"]:
            _check(name, getattr(self, name), (n,))
        if n and (self.class_id.min() < 0 or self.class_id.max() >= len(LABELS)):
            raise ValueError(f"class_id must lie in [0, {len(LABELS)}), got {self.class_id}")
        if n and not np.all(self.xyxy[:, 2:] >= self.xyxy[:, :2]):
            raise ValueError("every box needs x2 >= x1 and y2 >= y1")

    @classmethod
    def empty(cls) -> Detections:
        return cls(np.zeros((0, 4), np.float32), np.zeros(0, np.float32), np.zeros(0, np.int64))

    @classmethod
    def from_records(cls, records: Iterable[dict[str, Any]]) -> Detections:
        """From the JSON shape [{"label", "confidence", "box": [x1, y1, x2, y2]}, ...],
        with a nigiri's or maki's "doubt", a nigiri's "under" and a box's "left_out"
        where `to_records(stored=True)` kept them."""
        rows = list(records)
        if not rows:
            return cls.empty()
        return cls(
            xyxy=np.array([r["box"] for r in rows], dtype=np.float32),
            confidence=np.array([r.get("confidence", 1.0) for r in rows], dtype=np.float32),
            class_id=np.array([label_id(r["label"]) for r in rows], dtype=np.int64),
            doubt=np.array([r.get("doubt", np.nan) for r in rows], dtype=np.float32),
            wasabi_under=np.array([r.get("under", np.nan) for r in rows], dtype=np.float32),
            left_out=np.array([bool(r.get("left_out", False)) for r in rows], dtype=bool),
        )

    def __len__(self) -> int:
        return len(self.xyxy)

    def __getitem__(self, index: np.ndarray | slice | Sequence[int] | int) -> Detections:
        if isinstance(index, int):
            index = [index]
        return Detections(**{name: array[index] for name, array in self._arrays()})

    def _arrays(self) -> list[tuple[str, np.ndarray]]:
        """Every per-box array by field name (all arrays once __post_init__ has run)."""
        return [(f.name, getattr(self, f.name)) for f in dataclasses.fields(self)]

    @property
    def under(self) -> np.ndarray:
        """`wasabi_under`, typed as the array __post_init__ always makes it."""
        assert self.wasabi_under is not None
        return self.wasabi_under

    @property
    def doubts(self) -> np.ndarray:
        """`doubt`, typed as the array __post_init__ always makes it."""
        assert self.doubt is not None
        return self.doubt

    @property
    def is_left_out(self) -> np.ndarray:
        """`left_out`, typed as the array __post_init__ always makes it."""
        assert self.left_out is not None
        return self.left_out

    @property
    def labels(self) -> list[str]:
        return [LABELS[i] for i in self.class_id]

    def to_records(self, *, stored: bool = False) -> list[dict[str, Any]]:
        """The JSON shape of design.md: label, confidence (3 decimals), box (1 decimal),
        and "left_out": whether the tally leaves the box out as another player's card.
        `stored`: the form a game stores, so that its review still sees what the reading
        warned of (not the contract's): a nigiri's or maki's box also keeps its "doubt",
        a nigiri's the stack check's odds of a wasabi "under" it, and "left_out" is
        written only where true."""
        records: list[dict[str, Any]] = [
            {
                "label": LABELS[int(c)],
                "confidence": round(float(p), 3),
                "box": [round(float(v), 1) for v in box],
            }
            for box, p, c in zip(self.xyxy, self.confidence, self.class_id, strict=True)
        ]
        if stored:
            for record, doubt, under in zip(records, self.doubts, self.under, strict=True):
                if not np.isnan(doubt):
                    record["doubt"] = round(float(doubt), 3)
                if not np.isnan(under):
                    record["under"] = round(float(under), 3)
        for record, left_out in zip(records, self.is_left_out, strict=True):
            if left_out or not stored:
                record["left_out"] = bool(left_out)
        return records

    def scaled(self, factor: float) -> Detections:
        return dataclasses.replace(self, xyxy=self.xyxy * factor)

    def relabelled(self, class_id: np.ndarray) -> Detections:
        """The same boxes with other labels."""
        return dataclasses.replace(self, class_id=class_id)

    def leaving_out(self, index: np.ndarray | Sequence[int]) -> Detections:
        """The same boxes with those at `index` left out as another player's."""
        left_out = self.is_left_out.copy()
        left_out[np.asarray(index, dtype=np.int64)] = True
        return dataclasses.replace(self, left_out=left_out)

    @staticmethod
    def merge(parts: Sequence[Detections]) -> Detections:
        if not parts:
            return Detections.empty()
        columns = zip(*(part._arrays() for part in parts), strict=True)
        return Detections(**{c[0][0]: np.concatenate([array for _, array in c]) for c in columns})
