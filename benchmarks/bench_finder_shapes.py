"""The finder as shipped (vision/finder.py: compiled for the first FIXED_SHAPES shapes, once
for every other), compiled only once for every shape (dynamic), and compiled per input
shape (what it did before): memory after photos of many shapes, and the time to read a
table's photos each way, as ratios.

    python -m benchmarks.bench_finder_shapes [--shapes 40] [--repeat 3]

Memory: each way in a process of its own (memory is the process's), reading 8 synthetic
photos of the deck beside the checkout (the procedural one where no scans are at hand)
as a table's photos come first, then crops of random sizes of them, a shape each.
Time: the 8 photos read through vision.pipeline.read_photo in this process by one
detector for each way, the ways interleaved photo by photo, so that the ratios hold on
a noisy machine.
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
import json, sys
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
for photo in same + varied:  # a table's photos come first: their shapes are compiled for
    read_photo(photo, detector)
print(json.dumps({"start": start, "loaded": loaded, "after": rss_mb()}))
"""

# The shapes each way compiles for on their own, for the time (None: as shipped; per
# shape: as many as it meets).
TIMED_WAYS = {"shipped": None, "dynamic": 0, "per_shape": 1 << 30}


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


def read_times(repeat: int) -> dict[str, float]:
    """Median ms to read the 8 photos of `photos` with a detector for each of TIMED_WAYS,
    interleaved photo by photo."""
    from vision.detector import CardDetector, model_info
    from vision.pipeline import read_photo

    detectors = {way: CardDetector(model_info()) for way in TIMED_WAYS}  # as the service
    for way, fixed in TIMED_WAYS.items():
        if fixed is not None:
            detectors[way]._finder.fixed_shapes = fixed
    _, same = photos(0)
    times: dict[str, list[float]] = {way: [] for way in TIMED_WAYS}
    for round_ in range(repeat + 1):  # the first round compiles: not timed
        for photo in same:
            for way, detector in detectors.items():
                t = time.perf_counter()
                read_photo(photo, detector)
                if round_:
                    times[way].append(time.perf_counter() - t)
    return {way: 1000 * float(np.median(t)) for way, t in times.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shapes", type=int, default=40, help="photos of as many shapes")
    parser.add_argument("--repeat", type=int, default=3, help="reads of the 8 timed photos")
    args = parser.parse_args(argv)
    memory = {}
    for way in ("shipped", "dynamic", "per_shape"):
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", ONE_WAY, way, str(args.shapes)],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        memory[way] = json.loads(done.stdout.strip().splitlines()[-1])
        print(f"{way:>9}: {memory[way]} ({time.perf_counter() - started:.0f} s)")
    grown = {way: r["after"] - r["loaded"] for way, r in memory.items()}
    ms = read_times(args.repeat)
    print(
        f"memory grown over {args.shapes} shapes: shipped {grown['shipped']:.0f} MB, dynamic "
        f"{grown['dynamic']:.0f} MB, per shape {grown['per_shape']:.0f} MB"
    )
    print(
        f"a table's photo read in: shipped {ms['shipped']:.1f} ms, dynamic "
        f"{ms['dynamic']:.1f} ms, per shape {ms['per_shape']:.1f} ms; against per shape: "
        f"shipped {ms['shipped'] / ms['per_shape']:.2f}, dynamic "
        f"{ms['dynamic'] / ms['per_shape']:.2f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
