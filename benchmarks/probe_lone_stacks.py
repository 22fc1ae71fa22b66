"""How often a stack on the stack check's word alone is a stack: for every nigiri the
detector labelled on a wasabi with no wasabi box found under it (vision.reading.
checked_stacks, before settle_hand_size reads them), whether the photo's truth has a
wasabi under that card, by the check's odds. The reason settle_hand_size reads such a
nigiri as plain unless the hand size asks for the stack.

    python -m benchmarks.probe_lone_stacks data/tune-13000 data/tune-13500 ...
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import numpy as np

from datasets.yolo_format import read_all
from vision.boxes import ious
from vision.detector import load_detector
from vision.photo import load_photo_file
from vision.pipeline import detect_photo
from vision.reading import checked_stacks

BANDS = (0.95, 0.97, 0.98, 0.99, 1.0)  # the detector labels a stack at 0.95 or more
SAME_CARD = 0.5  # IoU of a detection and the true card it is


def lone_stacks(data: Path) -> list[tuple[float, bool]]:
    """(the check's odds, a wasabi truly under it) for each stack on the check's word
    alone in `data`'s photos read as they lie (a photo read turned has boxes the truth's
    do not match)."""
    detector = load_detector()
    found: list[tuple[float, bool]] = []
    for item in read_all(data):
        photo = load_photo_file(item.image)
        seen, detections = detect_photo(photo, detector)
        if seen.turn != photo.turn:
            continue
        cards = item.truth["cards"]
        truth = np.array([card["box"] for card in cards], np.float32).reshape(-1, 4)
        for i in checked_stacks(detections):
            overlaps = ious(detections.xyxy[i], truth)
            j = int(overlaps.argmax()) if len(overlaps) else -1
            stacked = j >= 0 and overlaps[j] >= SAME_CARD and cards[j]["on_wasabi"] is not None
            found.append((float(detections.under[i]), stacked))
    return found


def main() -> None:
    total: list[tuple[float, bool]] = []
    for data in map(Path, sys.argv[1:]):
        stacks = lone_stacks(data)
        total += stacks
        real = sum(stacked for _, stacked in stacks)
        print(f"{data.name}: {len(stacks)} on the check's word alone, {real} on a wasabi")
    print("the check's odds   stacks        on a wasabi")
    for low, high in itertools.pairwise(BANDS):
        band = [stacked for odds, stacked in total if low <= odds < high or odds == high == 1]
        print(f"{low:.2f}-{high:.2f}         {len(band):>11}   {sum(band):>11}")
    real = sum(stacked for _, stacked in total)
    print(f"all                {len(total):>11}   {real:>11} ({real / max(len(total), 1):.0%})")


if __name__ == "__main__":
    main()
