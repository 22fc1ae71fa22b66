"""The stack check: is there a wasabi under this nigiri?

The finder boxes a wasabi under a nigiri by the strip of it that shows. Shifted sideways,
that strip is a few pixels wide at the finder's resolution, and missing it was the most
frequent error of the first models (22 of 41 wrong tallies on 300 held-out photos: the
stack read as a plain nigiri). A second look settles it: a two-class network of the
classifier's design on a crop of the nigiri's box at the photo's decoded resolution,
padded by CONTEXT on every side so that a strip sticking out on any side is in view.
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
# A stack only when the check is sure: a true stack's strip is usually found and paired by
# geometry anyway (vision/reading.py), so the check matters where no strip was found, and
# there its doubtful "on a wasabi" is mostly another yellow card's top above the nigiri.
# On the printed deck's tuning set (seed 13000, 300 photos) 0.7, 0.85 and 0.95 all read
# 98.0 % exactly; at 0.95 5 of its 6 wrong photos carry a warning (3 of 6 at 0.7) and 18 %
# of the right ones (41 % at 0.7), as the hand size then settles the doubtful stacks.
MIN_PROBABILITY = 0.95
# A nigiri shifted sideways (or down) on its wasabi is often boxed together with the strip
# of the wasabi that shows, and the classifier, which learned boxes of one card, then read
# the nigiri as another (squid as egg, mostly): 7 of the 19 wrong photos of five sets of
# art never trained on, with the nigiri in full view. So a stacked nigiri's kind is also
# read from the mean of the classifier's answers on its box and on the box trimmed to
# STRIP_KEEP of its width (left part, right part) and of its height (top, bottom): one of
# them holds the nigiri alone. On those sets' 848 stacked nigiri read un-turned the kind
# was wrong 7 times from the box alone, and 5 / 1 / 4 times from trims keeping 0.7 / 0.8 /
# 0.9; on the tuning sets' 594, never either way. Four fresh art sets (1,200 photos) then
# read 3 more photos exactly and none fewer (HISTORY@3cd44f8, "A stacked nigiri boxed
# with its strip").
STRIP_KEEP = 0.8


# The side of the crops `sushigo train` trains the check on: what ships. The word on a
# wasabi's banner is about 6 px tall at 96 px; at 128 px three fresh sets read 893 of 900
# photos exactly against 890 (tenth session, HISTORY@3cd44f8, "Photo sizes, three
# reading fixes and the hand size").
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
