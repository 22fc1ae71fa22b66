"""Two ways around the finder's share of a photo's time, measured on the CPU at hand:

1. The finder quantized to int8 (NNCF's post-training quantization, 7-bit weights where a
   CPU without VNNI would saturate) against the shipped f32 network, one look each,
   interleaved: `--int8` (needs `pip install nncf`; calibrated on --calibrate photos).
2. The finder fed by a 1/8 JPEG decode on this thread while another thread decodes the
   1/4 image the crops need, against decoding 1/4 and then finding: the two cores
   overlapped, at the cost of decoding twice.

    python -m benchmarks.probe_finder_speedups [--photos 6] [--int8 --calibrate 120]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from datasets.deck import CHECKOUT_DECK, load_deck
from datasets.scene import make_scene
from vision.detector import letterbox, model_info
from vision.finder import _with_image_input
from vision.photo import load_photo

_CONFIG = {
    "INFERENCE_PRECISION_HINT": "f32",
    "PERFORMANCE_HINT": "LATENCY",
    "NUM_STREAMS": 1,
    "ENABLE_CPU_PINNING": False,
}
_FLAGS = cv2.IMREAD_IGNORE_ORIENTATION


def compiled(model: Any, threads: int, shape: tuple[int, int] | None = None) -> Any:
    """An infer request for `model` as vision.finder compiles it, with `threads`."""
    import openvino as ov

    model = model.clone()
    if shape:
        model.reshape({0: [1, 3, *shape]})
    config = {**_CONFIG, "INFERENCE_NUM_THREADS": threads}
    return ov.Core().compile_model(_with_image_input(model), "CPU", config).create_infer_request()


def median_ms(times: list[float]) -> float:
    return statistics.median(times) * 1000


def interleaved(
    ways: dict[str, Callable[[Any], Any]], inputs: list[Any], rounds: int
) -> dict[str, float]:
    for item in inputs:  # warm up
        for way in ways.values():
            way(item)
    times: dict[str, list[float]] = {name: [] for name in ways}
    for _ in range(rounds):
        for item in inputs:
            for name, way in ways.items():
                start = time.perf_counter()
                way(item)
                times[name].append(time.perf_counter() - start)
    return {name: median_ms(t) for name, t in times.items()}


def int8_finder(model: Any, jpegs: list[bytes], imgsz: int, stride: int) -> Any:
    """The finder quantized by NNCF on the letterboxed calibration photos; the detect
    head's box arithmetic and sigmoids are left in f32, as ultralytics' own int8 export
    leaves them."""
    import nncf

    def network_input(jpeg: bytes) -> np.ndarray:
        padded = letterbox(load_photo(jpeg).image, imgsz, stride=stride)[0]
        return cv2.cvtColor(padded, cv2.COLOR_BGR2RGB).transpose(2, 0, 1)[None] / np.float32(255)

    head = r"/model\.\d+/"
    ignored = nncf.IgnoredScope(
        patterns=[rf".*{head}dfl/.*", rf"{head}(Add|Sub|Mul|Div)_?\d*$"],
        types=["Sigmoid"],
        validate=False,
    )
    return nncf.quantize(
        model,
        nncf.Dataset([network_input(jpeg) for jpeg in jpegs]),
        preset=nncf.QuantizationPreset.MIXED,
        subset_size=len(jpegs),
        ignored_scope=ignored,
        advanced_parameters=nncf.AdvancedQuantizationParameters(
            overflow_fix=nncf.OverflowFix.ENABLE
        ),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--photos", type=int, default=6, help="12 MP photos timed")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--faces", type=Path, default=CHECKOUT_DECK, help="the deck folder")
    parser.add_argument("--int8", action="store_true", help="also quantize the finder (nncf)")
    parser.add_argument("--calibrate", type=int, default=120, help="photos for --int8")
    args = parser.parse_args()
    import openvino as ov

    info = model_info(None)
    faces = load_deck(args.faces)
    rng = np.random.default_rng(4032)
    jpegs = [make_scene(rng, faces, size=4032).jpeg for _ in range(args.photos)]
    buffers = [np.frombuffer(jpeg, np.uint8) for jpeg in jpegs]
    model = ov.Core().read_model(str(info.detector))
    stride = int(model.get_rt_info(["framework", "stride"]).astype(str))

    print(f"{args.photos} photos of 4032 px, {args.rounds} rounds, medians")
    two, one = compiled(model, 2), compiled(model, 1)
    pool = ThreadPoolExecutor(1)

    def decode_then_find(data: np.ndarray) -> np.ndarray:
        image = cv2.imdecode(data, cv2.IMREAD_REDUCED_COLOR_4 | _FLAGS)
        two.infer({0: letterbox(image, info.imgsz, stride=stride)[0][None]})
        return image

    def find_beside_decoding(data: np.ndarray) -> np.ndarray:
        decoding = pool.submit(cv2.imdecode, data, cv2.IMREAD_REDUCED_COLOR_4 | _FLAGS)
        small = cv2.imdecode(data, cv2.IMREAD_REDUCED_COLOR_8 | _FLAGS)
        one.infer({0: letterbox(small, info.imgsz, stride=stride)[0][None]})
        return decoding.result()

    ways = {"decode 1/4, then find (2 threads)": decode_then_find,
            "find on 1/8 (1 thread) beside decoding 1/4": find_beside_decoding}  # fmt: skip
    found = interleaved(ways, buffers, args.rounds)
    for name, ms in found.items():
        print(f"  {name:<46} {ms:6.1f} ms")
    first, second = found.values()
    print(f"  overlapped / in turn: {second / first:.2f}")

    if args.int8:
        calibration = [make_scene(rng, faces, size=2016).jpeg for _ in range(args.calibrate)]
        quantized = int8_finder(model, calibration, info.imgsz, stride)
        with tempfile.TemporaryDirectory() as folder:  # saved and read back, as shipped
            ov.save_model(quantized, str(Path(folder) / "finder.xml"))
            quantized = ov.Core().read_model(str(Path(folder) / "finder.xml"))
        inputs = [
            letterbox(load_photo(jpeg).image, info.imgsz, stride=stride)[0][None] for jpeg in jpegs
        ]
        shape = inputs[0].shape[1:3]
        same_shape = [x for x in inputs if x.shape[1:3] == shape]
        for threads in (2, 1):
            requests = {
                "f32": compiled(model, threads, shape),
                "int8": compiled(quantized, threads, shape),
            }
            looks = interleaved({name: request.infer for name, request in requests.items()},
                                [{0: x} for x in same_shape], args.rounds)  # fmt: skip
            print(
                f"one look, {threads} thread(s): f32 {looks['f32']:.1f} ms, int8 "
                f"{looks['int8']:.1f} ms, f32 / int8 {looks['f32'] / looks['int8']:.2f}x"
            )


if __name__ == "__main__":
    main()
