"""Turning a decoded photo: numpy's strided copies against OpenCV's, for the EXIF
orientations (vision.photo.orient) and the quarter turns the reading tries on a photo
it cannot read as it lies (vision.photo.turn_image). Both ways in one run, as ratios.

    python -m benchmarks.bench_turn [--runs 30]
"""

from __future__ import annotations

import argparse
import functools
import statistics
from collections.abc import Callable

import numpy as np

from benchmarks.bench_decode import time_ms
from vision.photo import orient, turn_image


def numpy_orient(image: np.ndarray, orientation: int) -> np.ndarray:
    """What orient did before: a transpose and flips as numpy views, then one copy."""
    if orientation >= 5:
        image = image.transpose(1, 0, 2)
    rows, columns = {2: (0, 1), 3: (1, 1), 4: (1, 0), 6: (0, 1), 7: (1, 1), 8: (1, 0)}.get(
        orientation, (0, 0)
    )
    return np.ascontiguousarray(image[:: -1 if rows else 1, :: -1 if columns else 1])


def numpy_turn(image: np.ndarray, quarters: int) -> np.ndarray:
    """What turn_image did before for a quarter turn: numpy's view, then one copy."""
    return np.ascontiguousarray(np.rot90(image, quarters))


def median_ms(work: Callable[[], object], runs: int) -> float:
    return statistics.median(time_ms(work, runs))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    # A 12 MP photo as the decoder leaves it (1/4 scale).
    image = np.random.default_rng(0).integers(0, 256, (756, 1008, 3), dtype=np.uint8)
    print(f"a {image.shape[1]} x {image.shape[0]} photo, median of {args.runs} runs")
    for orientation in (3, 6, 7, 8):
        assert np.array_equal(orient(image, orientation), numpy_orient(image, orientation))
        slow = median_ms(functools.partial(numpy_orient, image, orientation), args.runs)
        fast = median_ms(functools.partial(orient, image, orientation), args.runs)
        print(f"EXIF orientation {orientation}: numpy {slow:5.2f} ms, OpenCV {fast:5.2f} ms, "
              f"{slow / fast:5.1f}x")  # fmt: skip
    for degrees in (90, 180, 270):
        quarters = -(degrees // 90)
        assert np.array_equal(turn_image(image, degrees), np.rot90(image, quarters))
        slow = median_ms(functools.partial(numpy_turn, image, quarters), args.runs)
        fast = median_ms(functools.partial(turn_image, image, degrees), args.runs)
        print(f"turned {degrees:>3} degrees:   numpy {slow:5.2f} ms, OpenCV {fast:5.2f} ms, "
              f"{slow / fast:5.1f}x")  # fmt: skip


if __name__ == "__main__":
    main()
