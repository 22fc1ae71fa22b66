"""A plain nigiri the stack check called on a wasabi, in a photo that holds a stack: on
each set's photos, read with the player count as a game's upload reads them, the
highest odds the check gave any nigiri the reading kept plain (0 where there is no
stack or no plain nigiri), and, for each threshold, how many photos read wrong and
unwarned such a notice would warn, and how many read right and unwarned it would warn
needlessly. Where one wasabi could lie under either of two nigiri, the hand's count
holds whichever the reading picks.

    python -m benchmarks.probe_plain_called data/tune-13000 data/tune-13500 ...
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from datasets.yolo_format import read_all
from scoring import Tally
from vision.detector import load_detector
from vision.labels import STACK_LABELS
from vision.photo import load_photo_file
from vision.pipeline import read_photo
from vision.reading import NIGIRI, Reading
from vision.training.evaluate import PhotoResult

THRESHOLDS = (0.5, 0.8, 0.9, 0.95, 0.98)


def plain_called(reading: Reading) -> float:
    """The check's highest odds on a nigiri read plain, in a reading with a stack."""
    labels = reading.detections.labels
    if not any(label in STACK_LABELS for label in labels) and not reading.stacks:
        return 0.0
    in_stack = {n for _, n in reading.stacks}
    odds = [
        float(reading.detections.under[i])
        for i, label in enumerate(labels)
        if label in NIGIRI and i not in in_stack
    ]
    return float(np.nan_to_num(max(odds, default=0.0)))


def photos(data: Path) -> list[tuple[bool, bool, float]]:
    """(read right, warned, plain_called) for each photo of `data`."""
    detector = load_detector()
    found = []
    for item in read_all(data):
        reading = read_photo(load_photo_file(item.image), detector, players=item.truth["players"])
        result = PhotoResult(
            item.image.stem, Tally.from_mapping(item.truth["tally"]), reading.tally,
            item.truth["meta"], 0.0, tuple(reading.remarks), reading.turn,
        )  # fmt: skip
        found.append((result.exact, result.warned, plain_called(reading)))
    return found


def main() -> None:
    every: list[tuple[bool, bool, float]] = []
    for data in map(Path, sys.argv[1:]):
        read = photos(data)
        every += read
        wrong = [r for r in read if not r[0]]
        unwarned = ", ".join(f"{odds:.3f}" for _, warned, odds in wrong if not warned)
        print(
            f"{data.name}: {len(read)} photos, {len(wrong)} wrong; the unwarned ones' "
            f"plain nigiri's check odds: {unwarned or '(none unwarned)'}"
        )
    unwarned_right = [odds for exact, warned, odds in every if exact and not warned]
    unwarned_wrong = [odds for exact, warned, odds in every if not exact and not warned]
    print(f"all: {len(every)} photos; {len(every) - sum(not r[0] for r in every)} right")
    print("threshold   wrong and unwarned now warned   right and unwarned now warned")
    for t in THRESHOLDS:
        caught = sum(odds >= t for odds in unwarned_wrong)
        needless = sum(odds >= t for odds in unwarned_right)
        print(
            f"{t:9.2f}   {caught:>12} of {len(unwarned_wrong):<14}   {needless:>6} of "
            f"{len(unwarned_right)} ({needless / max(len(unwarned_right), 1):.1%})"
        )


if __name__ == "__main__":
    main()
