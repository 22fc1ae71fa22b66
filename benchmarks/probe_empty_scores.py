"""Could a score tell an empty photo's search looks off? The finder's best box score
(under its threshold) on empty tables, against photos of cards turned a quarter or a half
where its first look found nothing at the threshold: only a gap between the two would let
vision.pipeline skip the turned looks (an empty photo pays 12 looks).

    python -m benchmarks.probe_empty_scores --data data/tune-13500 [--photos 40] [--tables 8]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from datasets.table import SURFACES, surface
from vision.detector import CardDetector, load_detector
from vision.photo import load_photo, load_photo_file

LOWEST = 0.001  # every box the finder scores, near enough


def best_score(detector: CardDetector, image: np.ndarray) -> float:
    _, scores = detector.find_cards(image, conf=LOWEST)
    return float(scores.max()) if len(scores) else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, required=True, help="a sushigo synth dataset")
    parser.add_argument("--photos", type=int, default=40)
    parser.add_argument("--tables", type=int, default=8, help="seeds per table surface")
    args = parser.parse_args()
    detector = load_detector()
    empty = []
    for seed in range(args.tables):
        for kind in SURFACES:
            table = surface(np.random.default_rng(100 + seed), 1512, 2016, kind)
            ok, encoded = cv2.imencode(".jpg", table, [cv2.IMWRITE_JPEG_QUALITY, 90])
            assert ok
            empty.append(best_score(detector, load_photo(encoded.tobytes()).image))
    turned = []
    paths = sorted((args.data / "images").glob("*/*.jpg"))[: args.photos]
    turns = (cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_180, cv2.ROTATE_90_COUNTERCLOCKWISE)
    for path in paths:
        image = load_photo_file(path).image
        for code in turns:
            view = cv2.rotate(image, code)
            if not len(detector.find_cards(view)[0]):
                turned.append(best_score(detector, view))
    print(f"empty tables: {len(empty)}; best score: median {np.median(empty):.4f}, "
          f"highest {max(empty):.4f}")  # fmt: skip
    print(f"turned photos of cards where the first look found nothing: {len(turned)} of "
          f"{len(paths) * len(turns)}")  # fmt: skip
    if turned:
        print(f"  best score: lowest {min(turned):.4f}, 10th percentile "
              f"{np.percentile(turned, 10):.4f}, median {np.median(turned):.4f}")  # fmt: skip


if __name__ == "__main__":
    main()
