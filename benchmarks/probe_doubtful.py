"""What the doubtful boxes (vision.pipeline._doubtful_cards: a hand still short takes the
finder's boxes under its threshold) change, on `sushigo synth` datasets: photos read
exactly with and without them, whether each photo they changed is warned, and the kind
and confidence of every box they took, in photos then read right and read wrong.

    python -m benchmarks.probe_doubtful data/tune-13000 data/another-15000 ...
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np

import vision.pipeline as pipeline
import vision.training.evaluate as evaluate
from vision.detector import load_detector
from vision.notices import NoticeCode
from vision.photo import Photo
from vision.reading import Settled


def codes(photo: evaluate.PhotoResult) -> list[str]:
    return [getattr(w, "code", "") for w in photo.remarks]


def main() -> None:
    detector = load_detector()
    with_them = pipeline._doubtful_cards
    # The boxes taken (kind, and confidence as the detector gave it, before the reading's
    # floor), one list per photo they made right, in the photos' order (evaluate settles
    # each photo once).
    taken: list[list[str]] = []

    def recording(photo: Photo, settled: Settled, *rest: Any) -> Settled:
        after = with_them(photo, settled, *rest)
        if after is not settled:
            doubted = detector(photo.image, conf=pipeline.DOUBTFUL_CONF).scaled(photo.scale)
            added = after.detections[np.arange(len(settled.detections), len(after.detections))]
            taken.append([
                f"{label} {doubted.confidence[(doubted.xyxy == box).all(1)].max():.3f}"
                for box, label in zip(added.xyxy, added.labels, strict=True)
            ])  # fmt: skip
        return after

    for data in map(Path, sys.argv[1:]):
        pipeline._doubtful_cards = lambda photo, settled, *rest: settled
        before = evaluate.evaluate(data, detector, split="all").photos
        taken.clear()
        pipeline._doubtful_cards = recording  # type: ignore[assignment]
        after = evaluate.evaluate(data, detector, split="all").photos
        pipeline._doubtful_cards = with_them
        acted = [i for i, photo in enumerate(after) if NoticeCode.DOUBTFUL_CARDS in codes(photo)]
        lost = sum(b.exact and not a.exact for b, a in zip(before, after, strict=True))
        right_before = sum(p.exact for p in before)
        right_after = sum(p.exact for p in after)
        print(
            f"{data.name}: exact {right_before} -> {right_after} of {len(after)}; the doubtful "
            f"boxes made {len(acted)} hands right: {sum(after[i].exact for i in acted)} of "
            f"them read right, {sum(after[i].warned for i in acted)} warned; read right "
            f"before and not after: {lost}"
        )
        for name, keep in (("right", True), ("wrong", False)):
            kinds = [
                kind for i, boxes in zip(acted, taken, strict=True) if after[i].exact == keep
                for kind in boxes
            ]  # fmt: skip
            print(f"  boxes taken in photos read {name}: {sorted(kinds)}")


if __name__ == "__main__":
    main()
