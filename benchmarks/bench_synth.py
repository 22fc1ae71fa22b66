"""Synthesis speed and memory: images per second at 640 px with 1 and 2 worker processes,
measured in the same run, and the peak memory of writing N and 2N images.

Speed counts whole images written to disk (render, JPEG, labels, tally JSON). Each run
starts by rendering its face pool in every worker; that start-up is reported apart, and
the steady rate is taken from the timestamps of the images after the first few. Memory is
measured in fresh processes, one per N, so that one run cannot inflate the other's peak:
the peak must not grow with N (scenes stream to disk; nothing accumulates).

Run: python -m benchmarks.bench_synth [--images N] [--size PX] [--memory-images N]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from datasets.synth import generate
from datasets.yolo_format import PROCEDURAL_DECK, prepare, split_of, write_scene

WARM_UP = 8  # images not counted in the steady rate: two chunks of 4 per worker start-up


def timed_run(
    images: int, size: int, workers: int, *, seed: int = 0, faces_dir: Path | None = None
) -> dict[str, float]:
    """Write `images` images with `workers` processes; time start-up and steady rate."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        prepare(out, deck=PROCEDURAL_DECK if faces_dir is None else str(faces_dir))
        start = time.perf_counter()
        stamps = []
        for index, scene in generate(seed, images, size, workers=workers, faces_dir=faces_dir):
            write_scene(out, split_of(index, images), f"{index:06d}", scene)
            stamps.append(time.perf_counter())
    total = stamps[-1] - start
    skip = min(WARM_UP, images // 2)
    steady = (len(stamps) - 1 - skip) / (stamps[-1] - stamps[skip])
    return {
        "workers": workers,
        "images": images,
        "total_s": total,
        "first_image_s": stamps[0] - start,
        "steady_per_s": steady,
        "overall_per_s": images / total,
    }


def peak_rss_mib(images: int, size: int, workers: int) -> dict[str, float]:
    """Peak resident memory of a fresh process writing `images` images (and of its workers)."""
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "benchmarks.bench_synth",
            "--child",
            str(images),
            str(size),
            str(workers),
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(result.stdout.strip().splitlines()[-1])


def _high_water_mib() -> float:
    """This process's peak resident memory. Linux keeps ru_maxrss across exec, so a child
    started by a big parent would report the parent's peak; VmHWM belongs to the new image."""
    try:
        status = Path("/proc/self/status").read_text()
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    line = next(x for x in status.splitlines() if x.startswith("VmHWM:"))
    return int(line.split()[1]) / 1024


def _child(images: int, size: int, workers: int) -> None:
    from datasets.synth import write_dataset

    with tempfile.TemporaryDirectory() as folder:
        write_dataset(
            Path(folder), images=images, seed=1, size=size, workers=workers, progress=False
        )
    own = _high_water_mib()
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(
        json.dumps({"images": images, "main_mib": round(own, 1), "worker_mib": round(children, 1)})
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--images", type=int, default=48, help="images per speed run (48)")
    parser.add_argument("--size", type=int, default=640, help="long side, px (640)")
    parser.add_argument("--memory-images", type=int, default=40, help="N of the memory runs (40)")
    parser.add_argument("--child", nargs=3, type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child(*args.child)
        return

    print(f"speed at {args.size} px, {args.images} images per run")
    runs = {w: timed_run(args.images, args.size, w) for w in (1, 2)}
    for w, r in runs.items():
        print(
            f"  {w} worker{'s' if w > 1 else ' '}: {r['steady_per_s']:6.1f} img/s steady, "
            f"{r['overall_per_s']:5.1f} img/s overall ({r['total_s']:.1f} s, first image after "
            f"{r['first_image_s']:.1f} s)"
        )
    print(
        f"  2 workers / 1 worker (steady): {runs[2]['steady_per_s'] / runs[1]['steady_per_s']:.2f}x"
    )

    n = args.memory_images
    print(f"peak memory, fresh process per run, 1 worker, {args.size} px")
    peaks = [peak_rss_mib(k, args.size, 1) for k in (n, 2 * n)]
    for p in peaks:
        print(f"  {p['images']:5d} images: {p['main_mib']:7.1f} MiB")
    print(f"  {2 * n} / {n} images: {peaks[1]['main_mib'] / peaks[0]['main_mib']:.3f}x")
    two = [peak_rss_mib(k, args.size, 2) for k in (n, 2 * n)]
    print(
        f"peak memory, 2 workers: main {two[0]['main_mib']:.1f} / {two[1]['main_mib']:.1f} MiB, "
        f"largest worker {two[0]['worker_mib']:.1f} / {two[1]['worker_mib']:.1f} MiB "
        f"for {n} / {2 * n} images"
    )


if __name__ == "__main__":
    main()
