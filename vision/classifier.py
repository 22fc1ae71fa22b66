"""The card classifier: one crop of a detected card -> its kind (or "none").

The detector finds cards at low resolution; the kind, and above all the maki icon count,
is read from a crop of the photo at a higher resolution, where the top-left icon (on a maki
the one to three small rolls) and the dish stay legible. Crops are resized to CROP x CROP
whatever their shape: a covered card's crop is a wide strip, a whole card a tall one, and
the network sees both in training (vision/training/crop_networks.py trains it).
"""

from __future__ import annotations

import cv2
import numpy as np

from scoring.cards import CARD_KINDS

CROP = 96
CLASSES: tuple[str, ...] = (*CARD_KINDS, "none")  # "none": not a card (clutter, table)
NONE_ID = len(CLASSES) - 1
PAD = 0.06  # context around a box, as a share of its size


def crop_boxes(
    image: np.ndarray, boxes: np.ndarray, pad: float = PAD, size: int = CROP
) -> np.ndarray:
    """Crops (N, size, size, 3) uint8 BGR of the boxes (N, 4) xyxy, padded a little."""
    out = np.zeros((len(boxes), size, size, 3), np.uint8)
    for i, (x1, y1, x2, y2) in enumerate(boxes):
        bw, bh = x2 - x1, y2 - y1
        m = pad * max(bw, bh)
        src = np.array([[x1 - m, y1 - m], [x2 + m, y1 - m], [x1 - m, y2 + m]], np.float32)
        dst = np.array([[0, 0], [size, 0], [0, size]], np.float32)
        affine = cv2.getAffineTransform(src, dst)
        if max(bw, bh) > 2.5 * size:
            # warpAffine would alias a big shrink; INTER_AREA on the cut-out does not.
            out[i] = _downsampled_crop(image, (x1 - m, y1 - m, x2 + m, y2 + m), size)
            continue
        out[i] = cv2.warpAffine(
            image, affine, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
    return out


def _downsampled_crop(
    image: np.ndarray, box: tuple[float, float, float, float], size: int
) -> np.ndarray:
    h, w = image.shape[:2]
    x1, y1, x2, y2 = (round(float(v)) for v in box)
    cx1, cy1, cx2, cy2 = max(0, x1), max(0, y1), min(w, x2), min(h, y2)
    patch = image[cy1:cy2, cx1:cx2]
    patch = cv2.copyMakeBorder(patch, cy1 - y1, y2 - cy2, cx1 - x1, x2 - cx2, cv2.BORDER_REPLICATE)
    return cv2.resize(patch, (size, size), interpolation=cv2.INTER_AREA)


def to_input(images: np.ndarray) -> np.ndarray:
    """(N, H, W, 3) BGR uint8 -> (N, 3, H, W) float32 RGB in [0, 1], the networks' input.

    The channels are reordered while still bytes and scaled in one pass, so the strided
    view is never converted to float and divided after."""
    planes = np.ascontiguousarray(images[..., ::-1].transpose(0, 3, 1, 2))
    return np.multiply(planes, np.float32(1 / 255), dtype=np.float32)
