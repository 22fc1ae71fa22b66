"""What the closer look (vision.pipeline.CLOSER_SIZES) changes: photos read exactly, and
photos read wrong without a warning, with and without it, on `sushigo synth` datasets.
"Without" is the hand size's settling alone: no closer look, and so no doubtful boxes
(vision.pipeline._doubtful_cards) for a hand still short either.

    python -m benchmarks.probe_closer data/tune-13000 data/tune-13500 ...
"""

from __future__ import annotations

import sys
from pathlib import Path

import vision.pipeline as pipeline
import vision.training.evaluate as evaluate
from vision.detections import Detections
from vision.detector import load_detector
from vision.photo import Photo
from vision.pipeline import Detector
from vision.reading import Settled, settle_hand_size


def without_closer(
    _photo: Photo, found: Detections, _detector: Detector, players: int | None
) -> Settled:
    """`vision.pipeline.settle` without the closer look: the hand size's settling alone."""
    return settle_hand_size(found, players)


def main() -> None:
    detector = load_detector()
    with_closer = pipeline.settle
    for data in map(Path, sys.argv[1:]):
        row = []
        for name, settle in (("without", without_closer), ("with", with_closer)):
            pipeline.settle = settle  # what pipeline.read_settled calls, for evaluate
            summary = evaluate.evaluate(data, detector, split="all").summary()
            wrong = summary["wrong_photos"]
            unwarned = sum(not photo["warnings"] for photo in wrong)
            row.append(f"{name}: {len(wrong)} wrong, {unwarned} of them unwarned")
        pipeline.settle = with_closer
        print(f"{data.name}: " + "; ".join(row))


if __name__ == "__main__":
    main()
