"""The stack check: is there a wasabi under this nigiri?

The finder boxes a wasabi under a nigiri by the strip of it that shows, a few pixels wide
at the finder's resolution, so a missed strip reads the stack as a plain nigiri. A second
look settles it: a two-class network of the classifier's design on a crop of the nigiri's
box at the photo's decoded resolution, padded by CONTEXT on every side so that a strip
sticking out on any side is in view.
The shipped check takes 128 px crops, the classifier 96 px: what tells a wasabi's top above
a nigiri from another yellow card's is its small green icon, a few pixels across at 96 px.
The detector feeds it crops of the size its ONNX file takes.

When the check says so, the detector labels the nigiri's box as the stack
("salmon_on_wasabi"); reading.py pairs a wasabi strip that was found with that box, as it
does a reviewer's stack box, so the stack counts once whether the strip was found or not.
"""

from __future__ import annotations

import numpy as np

from vision.classifier import CROP, crop_boxes

CONTEXT = 0.4  # of the box's longer side, each side: a strip sticks out 15-35 % of a card
ON_WASABI = 1  # class index; 0 = a plain nigiri
# The detector labels a nigiri as on a wasabi, and reads its kind again from trims
# (STRIP_KEEP), at these odds. Where no wasabi strip was found under it, the label alone
# does not make a stack: that is the hand size's word (vision.reading.settle_hand_size).
MIN_PROBABILITY = 0.95
# A stacked nigiri is often boxed with its wasabi's strip, which the one-card classifier
# misreads: its kind is also read from trims keeping STRIP_KEEP of it, one the nigiri alone.
STRIP_KEEP = 0.8


# The side of the crops `sushigo train` trains the check on (what ships): larger than the
# classifier's 96 px, where the strip of a wasabi's top that shows is only a few px tall.
SIZE = 128


def context_crops(image: np.ndarray, boxes: np.ndarray, size: int = CROP) -> np.ndarray:
    """What the check sees of each nigiri box (N, 4): (N, size, size, 3) BGR uint8; `size`
    is the network's input (the classifier's CROP unless trained otherwise)."""
    return crop_boxes(image, boxes, pad=CONTEXT, size=size)


def trimmed_boxes(box: np.ndarray) -> np.ndarray:
    """Four trims of a stacked nigiri's box (4,), each keeping STRIP_KEEP of its width or
    height: its left, right, top and bottom parts. (4, 4) float32."""
    x1, y1, x2, y2 = box
    w, h = (x2 - x1) * STRIP_KEEP, (y2 - y1) * STRIP_KEEP
    trims = [[x1, y1, x1 + w, y2], [x2 - w, y1, x2, y2], [x1, y1, x2, y1 + h], [x1, y2 - h, x2, y2]]
    return np.array(trims, np.float32)
