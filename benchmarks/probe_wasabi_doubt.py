"""What the wasabi's doubt (vision.reading.WASABI_DOUBT: a wasabi, a stack's strip too,
that the classifier gave a nigiri these odds) warns that nothing else does: each set's
photos read once, as a game's upload reads them (with the player count); per threshold,
the photos read right and those read wrong that it alone would warn.

    python -m benchmarks.probe_wasabi_doubt data/report-14000 data/another-15000 ...
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import numpy as np

from datasets.yolo_format import read_all
from scoring import Tally
from vision.detector import load_detector
from vision.notices import NoticeCode, warns
from vision.photo import load_photo_file
from vision.pipeline import read_settled
from vision.reading import MIN_CONFIDENCE

THRESHOLDS = (0.05, 0.1, 0.15, 0.2)


def main() -> None:
    detector = load_detector()
    alone: Counter[tuple[float, bool]] = Counter()  # (threshold, read right)
    photos: Counter[bool] = Counter()
    for data in map(Path, sys.argv[1:]):
        for item in read_all(data):
            settled = read_settled(
                load_photo_file(item.image), detector, players=item.truth["players"]
            )
            reading = settled.reading
            right = reading.tally == Tally.from_mapping(item.truth["tally"])
            photos[right] += 1
            others = [
                r for r in reading.remarks if getattr(r, "code", None) != NoticeCode.WASABI_DOUBT
            ]
            if any(map(warns, others)):
                continue
            found = settled.detections
            asked = (
                (np.array(found.labels) == "wasabi")
                & (found.confidence >= MIN_CONFIDENCE)
                & ~found.is_left_out
                & np.isfinite(found.doubts)
            )
            most = float(found.doubts[asked].max()) if asked.any() else 0.0
            for threshold in THRESHOLDS:
                alone[(threshold, right)] += most >= threshold
        print(f"{data.name} read", flush=True)
    print(
        f"{photos[True]} photos read right, {photos[False]} wrong; "
        "warned by the wasabi's doubt alone:"
    )
    for threshold in THRESHOLDS:
        print(
            f"  at {threshold:.2f}: {alone[(threshold, True)]} read right, "
            f"{alone[(threshold, False)]} read wrong"
        )


if __name__ == "__main__":
    main()
