"""End-to-end detection speed on 12 MP phone-size JPEGs of the printed deck, fast path vs
plain ultralytics, and how fast a photo with no cards in it is answered.

    python benchmarks/bench_detect.py [--photos 8] [--repeat 3] [--stages] [--faces DIR]

The photos are drawn from the deck folder `--faces` (default: the printed deck's scans,
../shared/decks/original beside the checkout).

Both paths read the same JPEG files from disk in the same run, interleaved, so the ratio
holds on a noisy machine even where the absolute times drift. The fast path runs in a
process of its own, as the service runs it (no torch there), and that process's peak RSS
after every photo is printed too.

`--stages` prints instead where the fast path's time goes on the same photos: each stage
timed inside the real `read_photo`, as a share of the photo's whole time.

`--warm N` reads each photo N more times, untimed, right before each path's timed read:
the time of a photo read back to back, its threads and caches warm. The service meets a
photo after seconds idle, as the default (0) measures.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from datasets.deck import CHECKOUT_DECK

if TYPE_CHECKING:
    from vision.detector import ModelInfo
    from vision.reading import Reading

os.environ.setdefault("YOLO_OFFLINE", "1")


# The fast path runs in a process of its own, as the service does: no torch, no
# ultralytics, nothing of the plain path's threads or memory beside it. It answers one
# request at a time on stdin ("read PATH", "find PATH", "zoom PATH", "rss"), so that the
# benchmark interleaves both paths photo by photo and the ratio holds on a noisy machine.
_SERVICE = """
import json, sys, time
from pathlib import Path
from vision.detector import load_detector, zoom_region
from vision.photo import load_photo_file
from vision.pipeline import read_photo
from vision.reading import NO_CARDS
detector = load_detector(Path(sys.argv[1]) if sys.argv[1] else None)
for line in sys.stdin:
    command, _, path = line.rstrip("\\n").partition(" ")
    start = time.perf_counter()
    if command == "read":
        reading = read_photo(load_photo_file(Path(path)), detector)
        seconds = time.perf_counter() - start
        answer = {"tally": reading.tally.to_dict(), "cards": reading.cards,
                  "no_cards": NO_CARDS in reading.remarks}
    elif command == "find":
        detector.find_cards(load_photo_file(Path(path)).image)
        seconds, answer = time.perf_counter() - start, {}
    elif command == "zoom":
        image = load_photo_file(Path(path)).image
        boxes = detector.find_cards(image)[0]
        seconds, answer = 0.0, {"zoom": zoom_region(boxes, image.shape[:2]) is not None}
    else:  # rss. VmHWM, not ru_maxrss: Linux carries ru_maxrss over exec from the parent.
        hwm = next(l for l in open("/proc/self/status") if l.startswith("VmHWM:"))
        seconds, answer = 0.0, {"mb": int(hwm.split()[1]) / 1024, "torch": "torch" in sys.modules}
    print(json.dumps({"seconds": seconds, **answer}), flush=True)
"""


class Service:
    """The fast path in its own process (`_SERVICE`): each call a request, answered with
    the seconds it took inside that process (decode to tally) and what it found."""

    def __init__(self, weights: Path | None) -> None:
        self._process = subprocess.Popen(
            [sys.executable, "-c", _SERVICE, str(weights or "")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=Path(__file__).resolve().parents[1],
        )

    def ask(self, command: str, path: Path | None = None) -> dict[str, Any]:
        assert self._process.stdin and self._process.stdout
        self._process.stdin.write(f"{command} {path or ''}\n")
        self._process.stdin.flush()
        line = self._process.stdout.readline()
        if not line:
            raise RuntimeError("the fast path's process ended; its error is printed above")
        return json.loads(line)

    def close(self) -> None:
        assert self._process.stdin
        self._process.stdin.close()
        self._process.wait()


def plain_reader(info: ModelInfo) -> Callable[[Path], Reading]:
    """The fast path's reading done the plain way, for a like-for-like comparison: the
    photo decoded in full (as `predict` does), ultralytics' `predict` for each look of the
    finder, the crop networks' float weights under torch. Same thresholds, second look,
    turns and reading (vision.pipeline.read_photo): the fast path's
    CardDetector with its three networks swapped."""
    import cv2
    import torch
    from ultralytics import YOLO

    from vision.classifier import CLASSES, to_input
    from vision.detector import CardDetector, zoom_size
    from vision.photo import Photo
    from vision.pipeline import read_photo
    from vision.training.crop_networks import build_network
    from vision.training.quantize import crop_size, float_path

    yolo = YOLO(str(info.folder / "detector.pt"))

    def network(onnx: Path, classes: int) -> torch.nn.Module:
        net = build_network(classes, crop_size(onnx))
        state = torch.load(float_path(onnx).with_suffix(".pt"), weights_only=True)
        net.load_state_dict(state)
        return net.eval()

    class PlainDetector(CardDetector):
        def __init__(self) -> None:  # no ONNX sessions: the plain way runs none
            assert info.stack_check is not None
            self.info = info
            self.stride = 32  # predict's own letterbox (auto=True)
            self.zoom_size = zoom_size(info.imgsz, self.stride)
            self._classifier = network(info.classifier, len(CLASSES))
            self._stack_check = network(info.stack_check, 2)
            self.stack_crop = crop_size(info.stack_check)
            self._lock = threading.Lock()

        def find_cards(
            self, image: np.ndarray, size: int | None = None, conf: float | None = None
        ) -> tuple[np.ndarray, np.ndarray]:
            (result,) = yolo.predict(
                image, imgsz=size or info.imgsz, iou=info.iou, device="cpu", verbose=False,
                conf=info.conf if conf is None else conf,
            )  # fmt: skip
            return result.boxes.xyxy.numpy(), result.boxes.conf.numpy()

        def _probabilities(self, network: Any, crops: np.ndarray) -> np.ndarray:
            with torch.no_grad():
                logits = network(torch.from_numpy(to_input(crops)))
            return torch.softmax(logits, 1).numpy()

    detector = PlainDetector()

    def read(path: Path) -> Reading:
        image = cv2.imread(str(path))  # in full, as predict reads it
        return read_photo(Photo(image, (image.shape[1], image.shape[0]), 1.0), detector)

    return read


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--photos", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--weights", type=Path, help="weights folder (default: the shipped one)")
    parser.add_argument("--stages", action="store_true", help="time each stage of the fast path")
    parser.add_argument("--faces", type=Path, default=CHECKOUT_DECK, help="the deck folder")
    parser.add_argument(
        "--warm", type=int, default=0, help="untimed reads of a photo before each timed one"
    )
    args = parser.parse_args()
    if not args.faces.is_dir():
        parser.error(f"no deck folder at {args.faces}: give the printed deck's scans as --faces")

    from datasets.deck import load_deck
    from datasets.scene import make_scene
    from vision.detector import model_info

    rng = np.random.default_rng(4032)
    faces = load_deck(args.faces)
    folder = Path(tempfile.mkdtemp(prefix="bench-detect-"))
    paths = []
    for i in range(args.photos):
        scene = make_scene(rng, faces, size=4032)
        path = folder / f"photo{i}.jpg"
        path.write_bytes(scene.jpeg)
        paths.append(path)

    if args.stages:
        from vision.detector import load_detector

        print_stage_times(load_detector(args.weights), paths, args.repeat)
        return
    info = model_info(args.weights)
    service = Service(args.weights)

    from ultralytics import YOLO

    plain = YOLO(str(info.folder / "detector.pt"))

    def predict(path: Path) -> None:  # the baseline, as a user of ultralytics would call it
        plain.predict(str(path), imgsz=info.imgsz, device="cpu", verbose=False)

    plain_read = plain_reader(info)
    # The finder compiles once for each input shape it meets (vision/finder.py): the
    # first photo of a new shape pays that, once per process; timed apart from the rest.
    first_of_shape: list[float] = []
    for path in paths:  # warm both paths up on every photo
        first_of_shape.append(service.ask("read", path)["seconds"])
        predict(path)
        plain_read(path)

    # Photos whose collection is small in the frame get a second look (zoom_region).
    closer = {path: bool(service.ask("zoom", path)["zoom"]) for path in paths}
    fast: list[float] = []
    fast_by_looks: dict[bool, list[float]] = {False: [], True: []}
    stage_one: list[float] = []
    baseline: list[float] = []
    plain_reading: list[float] = []
    same_tally = 0
    for _ in range(args.repeat):
        for path in paths:
            for _ in range(args.warm):
                service.ask("read", path)
            answer = service.ask("read", path)
            fast.append(answer["seconds"])
            fast_by_looks[closer[path]].append(fast[-1])
            stage_one.append(service.ask("find", path)["seconds"])
            for _ in range(args.warm):
                predict(path)
            t = time.perf_counter()
            predict(path)
            baseline.append(time.perf_counter() - t)
            t = time.perf_counter()
            same_tally += plain_read(path).tally.to_dict() == answer["tally"]
            plain_reading.append(time.perf_counter() - t)

    def row(name: str, times: list[float]) -> str:
        ms = sorted(t * 1000 for t in times)
        p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
        return f"{name:<44} median {statistics.median(ms):7.1f} ms   p95 {p95:7.1f} ms"

    print(
        f"{len(paths)} photos of 4032 px, {args.repeat} rounds; the fast path in a process of "
        f"its own (as the service runs it), plain predict here with torch threads as "
        f"ultralytics sets them"
        + (f"; each timed read after {args.warm} untimed of the same photo" if args.warm else "")
    )
    print(row("fast path (decode + find + classify + tally)", fast))
    for second_look, times in fast_by_looks.items():
        if times:
            looks = "two looks" if second_look else "one look"
            share = f"{len(times) // args.repeat} of {len(paths)} photos"
            print(row(f"  photos read with {looks} ({share})", times))
    print(row("fast path, finding cards only (one look)", stage_one))
    print(row("YOLO(weights).predict(path)", baseline))
    print(row("same reading the plain way (plain_reader)", plain_reading))
    print(
        f"speed-up, full fast path vs plain predict: "
        f"{statistics.median(baseline) / statistics.median(fast):.2f}x"
    )
    print(
        f"speed-up, card finding vs plain predict:   "
        f"{statistics.median(baseline) / statistics.median(stage_one):.2f}x"
    )
    print(
        f"speed-up, full fast path vs the same reading the plain way: "
        f"{statistics.median(plain_reading) / statistics.median(fast):.2f}x "
        f"(same tally on {same_tally} of {len(fast)} reads)"
    )
    print(
        f"fast path on a process's first photo of each shape (compiling the finder for it): "
        f"at most {max(first_of_shape) * 1000:.0f} ms"
    )
    empty_times, empty_cards, empty_warned = time_photos_without_cards(service, folder)
    print(
        row(f"a photo with no cards ({len(empty_cards)} tables, {args.repeat}x)", empty_times)
        + f"   max {max(empty_times) * 1000:.0f} ms (target < 300 ms)"
    )
    print(
        f"  cards found on them: {sum(empty_cards)}; warned 'no cards were found': "
        f"{sum(empty_warned)} of {len(empty_warned)}"
    )
    rss = service.ask("rss")
    service.close()
    print(
        f"peak RSS of the fast path's process, models loaded and every photo read: "
        f"{rss['mb']:.0f} MB (torch imported: {rss['torch']}; target < 1000 MB)"
    )
    print(
        f"peak RSS of this benchmark with ultralytics loaded: "
        f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB"
    )


def time_photos_without_cards(
    service: Service, folder: Path, repeat: int = 3
) -> tuple[list[float], list[int], list[bool]]:
    """Decode-to-reading times of 12 MP photos with no card in them (each table surface,
    bare), the cards found on each and whether it carries the no-cards warning."""
    import cv2

    from datasets.table import SURFACES, surface

    paths = []
    for i, kind in enumerate(SURFACES):
        path = folder / f"empty-{kind}.jpg"
        table = surface(np.random.default_rng(i), 3024, 4032, kind)
        cv2.imwrite(str(path), table, [cv2.IMWRITE_JPEG_QUALITY, 90])
        paths.append(path)
    for path in paths:
        service.ask("read", path)  # the finder compiled for the shape
    times = [service.ask("read", path)["seconds"] for _ in range(repeat) for path in paths]
    answers = [service.ask("read", path) for path in paths]
    return times, [a["cards"] for a in answers], [a["no_cards"] for a in answers]


# The stages `--stages` times: the detector's own steps, and what the pipeline does around
# them. Each is timed apart from the stages it calls (classify_stacked calls classify).
DETECTOR_STAGES = ("find_cards", "classify", "on_wasabi", "classify_stacked")
PIPELINE_STAGES = ("card_slant", "settle")


def print_stage_times(detector: Any, paths: list[Path], repeat: int) -> None:
    """Each photo read `repeat` times with every stage in a timer: per photo, the median of
    its whole time and of each stage's, the rest (crops, turns) beside."""
    import vision.pipeline as pipeline
    from vision.photo import load_photo_file

    spent: defaultdict[str, float] = defaultdict(float)
    calls: defaultdict[str, int] = defaultdict(int)
    inner: list[float] = []  # time spent in timed stages called by the running one

    def timed(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            inner.append(0.0)
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                elapsed = time.perf_counter() - start
                spent[name] += elapsed - inner.pop()
                calls[name] += 1
                if inner:
                    inner[-1] += elapsed

        return call

    originals = {name: getattr(pipeline, name) for name in PIPELINE_STAGES}
    for name in DETECTOR_STAGES:
        setattr(detector, name, timed(name, getattr(detector, name)))
    for name, fn in originals.items():
        setattr(pipeline, name, timed(name, fn))
    decode = timed("decode", load_photo_file)
    for path in paths:  # the finder compiles once for each input shape: not timed
        pipeline.read_photo(load_photo_file(path), detector)
    try:
        columns = ("decode", *DETECTOR_STAGES, *PIPELINE_STAGES, "rest")
        per_photo: list[dict[str, float]] = []
        for path in paths:
            runs: defaultdict[str, list[float]] = defaultdict(list)
            for _ in range(repeat):
                spent.clear()
                calls.clear()
                start = time.perf_counter()
                pipeline.read_photo(decode(path), detector)
                total = time.perf_counter() - start
                runs["total"].append(total)
                for name in columns[:-1]:
                    runs[name].append(spent[name])
                runs["rest"].append(total - sum(spent.values()))
            per_photo.append({name: statistics.median(t) * 1000 for name, t in runs.items()})
            per_photo[-1]["looks"] = calls["find_cards"]
    finally:
        for name, fn in originals.items():
            setattr(pipeline, name, fn)
        for name in DETECTOR_STAGES:
            delattr(detector, name)  # the instance's timers; its class's methods show again
    print(f"{len(paths)} photos of 4032 px, each read {repeat} times; medians in ms")
    print(f"{'photo':<6}{'looks':>6}{'total':>8}" + "".join(f"{c:>17}" for c in columns))
    for i, times in enumerate(per_photo):
        print(
            f"{i:<6}{times['looks']:>6.0f}{times['total']:>8.1f}"
            + "".join(f"{times[c]:>10.1f} ({times[c] / times['total']:>3.0%})" for c in columns)
        )
    medians = {c: statistics.median(t[c] for t in per_photo) for c in ("total", *columns)}
    print(
        f"{'median':<12}{medians['total']:>8.1f}"
        + "".join(f"{medians[c]:>10.1f} ({medians[c] / medians['total']:>3.0%})" for c in columns)
    )


if __name__ == "__main__":
    main()
