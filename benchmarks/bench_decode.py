"""Decode speed of a 12 MP phone JPEG: a full cv2.imdecode against vision.photo.load_photo,
and the 1/8 DCT-scaled decode beside it (the floor of any decode: libjpeg's entropy
decoding of the whole file remains).

Both are timed in the same run on the same bytes, so the ratio is meaningful even when
the machine's absolute speed is not. Run: python -m benchmarks.bench_decode [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import cv2
import numpy as np

from vision.photo import load_photo


def synthesize_jpeg(width: int = 4032, height: int = 3024, seed: int = 0) -> bytes:
    """A phone-sized JPEG with gradients, shapes and sensor-like noise.

    Pure noise would make an unrealistically large file and a flat image an unrealistically
    small one; entropy decoding dominates JPEG time, so the content matters.
    """
    rng = np.random.default_rng(seed)
    ys, xs = np.mgrid[0:height, 0:width]
    image = np.stack([xs * 255 // width, ys * 255 // height, (xs + ys) * 255 // (width + height)])
    image = np.ascontiguousarray(image.transpose(1, 2, 0).astype(np.uint8))
    for _ in range(80):
        x, y = (int(v) for v in rng.integers(0, (width, height)))
        w, h = (int(v) for v in rng.integers(150, 700, 2))
        colour = tuple(int(v) for v in rng.integers(0, 256, 3))
        cv2.rectangle(image, (x, y), (x + w, y + h), colour, thickness=-1)
    image = cv2.add(image, rng.integers(0, 10, image.shape, dtype=np.uint8))
    ok, buffer = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    if not ok:
        raise RuntimeError("OpenCV could not encode the benchmark JPEG")
    return buffer.tobytes()


def time_ms(work: Callable[[], object], runs: int) -> list[float]:
    work()  # warm-up: first calls pay for library initialisation
    timings = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        timings.append((time.perf_counter() - start) * 1000)
    return timings


def summary(timings: list[float]) -> tuple[float, float]:
    ordered = sorted(timings)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered), p95


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args(argv)

    data = synthesize_jpeg()
    buffer = np.frombuffer(data, np.uint8)
    full = time_ms(lambda: cv2.imdecode(buffer, cv2.IMREAD_COLOR), args.runs)
    reduced = time_ms(lambda: load_photo(data), args.runs)
    eighth = time_ms(lambda: cv2.imdecode(buffer, cv2.IMREAD_REDUCED_COLOR_8), args.runs)
    quarter = time_ms(lambda: cv2.imdecode(buffer, cv2.IMREAD_REDUCED_COLOR_4), args.runs)
    photo = load_photo(data)

    ways = [
        ("cv2.imdecode (full)", full),
        ("load_photo (reduced)", reduced),
        ("cv2.imdecode (1/4)", quarter),
        ("cv2.imdecode (1/8)", eighth),
    ]
    # Another build of libjpeg-turbo (3.x), where simplejpeg is installed (not a dependency:
    # `pip install simplejpeg` to compare): the same DCT-scaled decode at 1/4.
    others = []
    try:
        import simplejpeg  # type: ignore[import-not-found]
    except ImportError:
        print("(simplejpeg not installed: its 1/4 decode not compared)")
    else:
        size = {"min_width": 1008, "min_height": 756, "colorspace": "BGR"}
        other = time_ms(lambda: simplejpeg.decode_jpeg(data, **size), args.runs)
        others.append((f"simplejpeg {simplejpeg.__version__} (1/4)", other))
    ways += others
    print(f"12 MP JPEG, {len(data) / 1e6:.1f} MB, {args.runs} runs each")
    print(f"{'path':<28}{'median ms':>10}{'p95 ms':>10}")
    for name, timings in ways:
        median, p95 = summary(timings)
        print(f"{name:<28}{median:>10.1f}{p95:>10.1f}")
    ratio = statistics.median(full) / statistics.median(reduced)
    height, width = photo.image.shape[:2]
    print(f"load_photo gives {width}x{height} (scale {photo.scale:g}); {ratio:.1f}x faster")
    floor = statistics.median(eighth) / statistics.median(reduced)
    print(f"the 1/8 decode takes {floor:.2f} of load_photo's time")
    for name, timings in others:
        share = statistics.median(timings) / statistics.median(quarter)
        print(f"{name} takes {share:.2f} of cv2's 1/4 decode's time")


if __name__ == "__main__":
    main()
