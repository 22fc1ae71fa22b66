"""Overlap of axis-aligned boxes (x1, y1, x2, y2), one against many or every pair: the one
place NMS, duplicate suppression, stack pairing, crop sampling and evaluation measure it."""

from __future__ import annotations

import numpy as np


def areas(boxes: np.ndarray) -> np.ndarray:
    """(N, 4) -> (N,); an inverted box has area 0."""
    boxes = np.asarray(boxes, float).reshape(-1, 4)
    return np.clip(boxes[:, 2] - boxes[:, 0], 0, None) * np.clip(boxes[:, 3] - boxes[:, 1], 0, None)


def enclosing(box: np.ndarray, other: np.ndarray) -> np.ndarray:
    """The smallest box (4,) holding both boxes (4,): a nigiri and its wasabi's strip."""
    box, other = np.asarray(box, float), np.asarray(other, float)
    return np.concatenate([np.minimum(box[:2], other[:2]), np.maximum(box[2:], other[2:])])


def intersections(box: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """The area box (4,) shares with each of boxes (N, 4): (N,)."""
    boxes = np.asarray(boxes, float).reshape(-1, 4)
    width = np.minimum(box[2], boxes[:, 2]) - np.maximum(box[0], boxes[:, 0])
    height = np.minimum(box[3], boxes[:, 3]) - np.maximum(box[1], boxes[:, 1])
    return np.clip(width, 0, None) * np.clip(height, 0, None)


def pairwise_intersections(boxes: np.ndarray) -> np.ndarray:
    """The area each of boxes (N, 4) shares with each other: (N, N)."""
    boxes = np.asarray(boxes, float).reshape(-1, 4)
    width = np.minimum.outer(boxes[:, 2], boxes[:, 2]) - np.maximum.outer(boxes[:, 0], boxes[:, 0])
    height = np.minimum.outer(boxes[:, 3], boxes[:, 3]) - np.maximum.outer(boxes[:, 1], boxes[:, 1])
    return np.clip(width, 0, None) * np.clip(height, 0, None)


def ious(box: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Intersection over union of box (4,) with each of boxes (N, 4): (N,)."""
    inter = intersections(box, boxes)
    return inter / (areas(np.asarray(box)[None])[0] + areas(boxes) - inter + 1e-9)
