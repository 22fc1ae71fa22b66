"""How confidently the shipped detector reads photos as they lie against the same photos
turned a quarter, a half and three quarters: what `vision.pipeline.TURN_BELOW` is chosen
from.

    python -m benchmarks.probe_turns --data data/tune-13500 [--limit 150]

A photo read upright under TURN_BELOW pays three more readings (its quarter turns); a
photo lying on its side or upside down is turned back only where its reading as it lies
falls under TURN_BELOW. For each threshold this prints both shares.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from vision.detector import load_detector
from vision.photo import load_photo_file

THRESHOLDS = (0.6, 0.65, 0.7, 0.72, 0.75, 0.78, 0.8, 0.84)


def mean_confidence(confidence: np.ndarray) -> float:
    return float(confidence.mean()) if len(confidence) else 0.0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, required=True, help="a `sushigo synth` dataset")
    parser.add_argument("--limit", type=int, default=150)
    parser.add_argument("--weights", type=Path)
    args = parser.parse_args()
    detector = load_detector(args.weights, threads=1)
    paths = sorted(args.data.glob("images/*/*.jpg"))[: args.limit]
    upright, turned = [], []
    for path in paths:
        photo = load_photo_file(path)
        upright.append(mean_confidence(detector(photo.image).confidence))
        for degrees in (90, 180, 270):
            turned.append(mean_confidence(detector(photo.turned(degrees).image).confidence))
    up, tu = np.array(upright), np.array(turned)
    print(f"{len(paths)} photos of {args.data}")
    low = np.quantile(up, 0.05)
    print(f"mean confidence upright: median {np.median(up):.3f}, 5 % under {low:.3f}")
    high = np.quantile(tu, 0.95)
    print(f"turned (x3): median {np.median(tu):.3f}, 95 % under {high:.3f}, max {tu.max():.3f}")
    print("TURN_BELOW  upright photos that pay the turns  turned photos tried turned back")
    for threshold in THRESHOLDS:
        paying, tried = np.mean(up < threshold), np.mean(tu < threshold)
        print(f"{threshold:10.2f}  {paying:31.1%}  {tried:30.1%}")


if __name__ == "__main__":
    main()
