"""What the check-only stack notice (vision.stack_check.SURE_ON_WASABI) changes: photos read
wrong that carry no other warning, and photos read right that it warns, on `sushigo synth`
datasets.

    python -m benchmarks.probe_check_only data/tune-13000 data/tune-13500 ...

Also prints the stack check's odds on every stack it alone called (no wasabi box under
it) in a photo read wrong with no other warning: where the threshold has to lie.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import numpy as np

import vision.training.evaluate as evaluate
from vision.detections import Detections
from vision.detector import load_detector
from vision.notices import Notice, NoticeCode
from vision.photo import Photo
from vision.pipeline import Detector, settle
from vision.reading import Settled


def main() -> None:
    detector = load_detector()
    odds: list[list[float]] = []

    def recording(photo: Photo, found: Detections, det: Detector, players: int | None) -> Settled:
        settled = settle(photo, found, det, players)
        reading = settled.reading
        odds.append([float(reading.detections.under[i]) for i in reading.lone_stacks])
        return settled

    evaluate.settle = recording
    for data in map(Path, sys.argv[1:]):
        odds.clear()
        photos = evaluate.evaluate(data, detector, split="all").photos
        # Warned without it: the same photo with every other warning it carries.
        others = [
            dataclasses.replace(photo, warnings=tuple(w for w in photo.warnings if not (
                isinstance(w, Notice) and w.code == NoticeCode.CHECK_ONLY_STACK))).warned
            for photo in photos
        ]  # fmt: skip
        wrong = [i for i, photo in enumerate(photos) if not photo.exact]
        unwarned_before = [i for i in wrong if not others[i]]
        unwarned_after = [i for i in unwarned_before if not photos[i].warned]
        newly = sum(
            photo.exact and photo.warned and not others[i] for i, photo in enumerate(photos)
        )
        right = len(photos) - len(wrong)
        print(
            f"{data.name}: {len(wrong)} wrong, unwarned {len(unwarned_before)} without the "
            f"notice -> {len(unwarned_after)} with it; {newly} of {right} photos read right "
            f"warned by it alone"
        )
        lone = sorted(round(p, 3) for i in unwarned_before for p in odds[i])
        if lone:
            print(f"  check-only stacks in the unwarned wrong photos, odds: {np.array(lone)}")


if __name__ == "__main__":
    main()
