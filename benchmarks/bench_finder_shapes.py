"""The finder as shipped (vision/finder.py: compiled for the first FIXED_SHAPES shapes, once
for every other), compiled only once for every shape (dynamic), and compiled per input
shape (what it did before): memory after photos of many shapes, and the time to read a
photo, each way in one run, as ratios.

    python -m benchmarks.bench_finder_shapes [--shapes 40] [--repeat 3]

Each way runs in its own process (memory is the process's), on the same photos: crops of
random sizes of synthetic photos of the deck beside the checkout (the procedural one where
no scans are at hand), read through vision.pipeline.read_photo.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from typing import Any

import numpy as np

ONE_WAY = """
import json, sys, time
import numpy as np
from benchmarks.bench_finder_shapes import photos, per_shape, rss_mb
from vision import finder
from vision.detector import load_detector
from vision.pipeline import read_photo

if sys.argv[1] == "per_shape":
    finder.FinderNetwork.__call__ = per_shape
elif sys.argv[1] == "dynamic":
    finder.FIXED_SHAPES = 0
start = rss_mb()
detector = load_detector(threads=1)
loaded = rss_mb()
varied, same = photos(int(sys.argv[2]))
for photo in varied:
    read_photo(photo, detector)
after = rss_mb()
times = []
for _ in range(int(sys.argv[3])):
    for photo in same:
        t = time.perf_counter()
        read_photo(photo, detector)
        times.append(time.perf_counter() - t)
print(json.dumps({"start": start, "loaded": loaded, "after": after,
                  "median_ms": 1000 * float(np.median(times))}))
"""


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        line = next(x for x in status if x.startswith("VmRSS"))
    return int(line.split()[1]) / 1024


def photos(shapes: int) -> tuple[list[Any], list[Any]]:
    """`shapes` crops of random sizes (a shape each), and 8 whole photos of one size."""
    import cv2

    from datasets.deck import table_faces
    from datasets.scene import make_scene
    from vision.photo import Photo, load_photo

    rng = np.random.default_rng(7)
    faces = table_faces()
    scenes = [make_scene(rng, faces, size=1280) for _ in range(8)]
    same = [load_photo(scene.jpeg) for scene in scenes]
    varied = []
    for k in range(shapes):
        image = cv2.imdecode(np.frombuffer(scenes[k % 8].jpeg, np.uint8), cv2.IMREAD_COLOR)
        h, w = image.shape[:2]
        ch, cw = int(h * rng.uniform(0.4, 1)), int(w * rng.uniform(0.4, 1))
        varied.append(Photo(np.ascontiguousarray(image[:ch, :cw]), (cw, ch), 1.0))
    return varied, same


def per_shape(self: Any, image: np.ndarray) -> np.ndarray:
    """FinderNetwork.__call__ as it was: the network reshaped and compiled per input shape
    (kept up to 16)."""
    from vision.finder import _with_image_input

    cache = self.__dict__.setdefault("_per_shape", {})
    with self._lock:
        request = cache.get(image.shape)
        if request is None:
            model = self._model.clone()
            batch, height, width, _ = image.shape
            model.reshape({0: [batch, 3, height, width]})
            compiled = self._core.compile_model(_with_image_input(model), "CPU", self._config)
            request = cache[image.shape] = compiled.create_infer_request()
            if len(cache) > 16:
                cache.pop(next(iter(cache)))
        return np.array(request.infer({0: image})[0], copy=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shapes", type=int, default=40, help="photos of as many shapes")
    parser.add_argument("--repeat", type=int, default=3, help="reads of the 8 timed photos")
    args = parser.parse_args(argv)
    result = {}
    for way in ("shipped", "dynamic", "per_shape"):
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", ONE_WAY, way, str(args.shapes), str(args.repeat)],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        result[way] = json.loads(done.stdout.strip().splitlines()[-1])
        print(f"{way:>9}: {result[way]} ({time.perf_counter() - started:.0f} s)")
    grown = {way: r["after"] - r["loaded"] for way, r in result.items()}
    ms = {way: r["median_ms"] for way, r in result.items()}
    print(
        f"memory grown over {args.shapes} shapes: shipped {grown['shipped']:.0f} MB, dynamic "
        f"{grown['dynamic']:.0f} MB, per shape {grown['per_shape']:.0f} MB; read time against "
        f"per shape: shipped {ms['shipped'] / ms['per_shape']:.2f}, dynamic "
        f"{ms['dynamic'] / ms['per_shape']:.2f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
