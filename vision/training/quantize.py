"""Int8 copies of the crop networks (the classifier and the stack check) for the fast path.

Static quantization (QDQ: int8 weights per channel, uint8 activations) calibrated on the
networks' own training crops, with weights in 7 bits (`reduce_range`): on a CPU without
VNNI (AVX2 only, as many AMD EPYC servers) onnxruntime multiplies uint8 by int8 in 16-bit
sums that saturate at full range, and the copies then pick other classes than their float
networks (benchmarks/probe_int8.py measures both ways on the CPU at hand). The card
finder stays in float: its boxes must equal ultralytics' own (tests/vision/test_detector.py).

`<name>.onnx` (float) stays beside `<name>.int8.onnx`: fine-tuning and re-quantizing
start from the float network; model.json names the file the fast path runs.
"""

from __future__ import annotations

import functools
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from vision.classifier import to_input

if TYPE_CHECKING:
    from vision.training.crop_networks import CropSet

CALIBRATION_CROPS = 1024
_BATCH = 16


def int8_path(onnx: Path) -> Path:
    """Where the int8 copy of a float network lives: classifier.onnx -> classifier.int8.onnx."""
    return onnx.with_name(f"{onnx.stem}.int8.onnx")


def float_path(onnx: Path) -> Path:
    """The float network an int8 copy was made from (a float network's own path as is)."""
    suffix = ".int8.onnx"
    return (
        onnx.with_name(onnx.name.removesuffix(suffix) + ".onnx")
        if onnx.name.endswith(suffix)
        else onnx
    )


def quantize_crop_network(
    onnx: Path,
    crops: np.ndarray,
    *,
    seed: int = 0,
    reduce_range: bool = True,
) -> Path:
    """Write the int8 copy of a float crop network beside it, calibrated on (a sample of)
    `crops` (N, CROP, CROP, 3) uint8 BGR; returns its path. `reduce_range=False` is only
    for measuring what it prevents (module docstring)."""
    from onnxruntime.quantization import (
        CalibrationDataReader,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    if not len(crops):
        raise ValueError(f"no calibration crops for {onnx.name}")
    rng = np.random.default_rng(seed)
    sample = crops[rng.permutation(len(crops))[:CALIBRATION_CROPS]]
    name = _input_name(onnx)

    class Batches(CalibrationDataReader):
        def __init__(self) -> None:
            self._batches = iter(
                [{name: to_input(sample[i : i + _BATCH])} for i in range(0, len(sample), _BATCH)]
            )

        def get_next(self) -> dict[str, np.ndarray] | None:
            return next(self._batches, None)

    target = int8_path(onnx)
    with tempfile.TemporaryDirectory() as scratch:
        prepared = Path(scratch) / "prepared.onnx"
        quant_pre_process(str(onnx), str(prepared))
        quantize_static(
            str(prepared),
            str(target),
            Batches(),
            quant_format=QuantFormat.QDQ,
            per_channel=True,
            reduce_range=reduce_range,
            activation_type=QuantType.QUInt8,
            weight_type=QuantType.QInt8,
        )
    return target


def agreement(first: Path, second: Path, crops: np.ndarray) -> float:
    """The share of crops on which two networks pick the same class."""
    if not len(crops):
        return 1.0
    picks = [_logits(path, crops).argmax(1) for path in (first, second)]
    return float((picks[0] == picks[1]).mean())


def make_int8_copy(
    onnx: Path, train: CropSet, val: CropSet, *, seed: int = 0, reduce_range: bool = True
) -> float:
    """Write a float crop network's int8 copy, calibrated on its train crops; returns the
    share of its val crops on which the copy picks the float network's class."""
    copy = quantize_crop_network(onnx, train.crops, seed=seed, reduce_range=reduce_range)
    return agreement(onnx, copy, val.crops)


def quantize_weights(
    folder: Path, datasets: Sequence[Path], *, seed: int = 0, reduce_range: bool = True
) -> dict[str, float]:
    """Re-make the int8 crop networks of a weights folder from its float ones, calibrated
    on crops of `datasets` (their train split); returns each network's agreement with its
    float original on the val split's crops, and points model.json at the int8 files.
    `reduce_range=False` only for measuring what it prevents (benchmarks/probe_int8.py)."""
    from vision.detector import model_info
    from vision.training.crop_networks import crops_from_dataset, train_and_val
    from vision.training.export import write_model_card
    from vision.training.stack_crops import stack_crops_from_dataset

    info = model_info(folder)
    sources = {"classifier": crops_from_dataset, "stack_check": stack_crops_from_dataset}
    result: dict[str, float] = {}
    for name, crops_from in sources.items():
        onnx = info.folder / f"{name}.onnx"
        if not onnx.exists():
            continue
        sized = functools.partial(crops_from, size=crop_size(onnx))
        train, val = train_and_val(sized, datasets, seed=seed)
        result[name] = make_int8_copy(onnx, train, val, seed=seed, reduce_range=reduce_range)
    write_model_card(
        info.folder,
        imgsz=info.imgsz,
        conf=info.conf,
        iou=info.iou,
        trained=info.meta.get("trained"),
    )
    return result


def crop_size(onnx: Path) -> int:
    """The side in pixels of the crops a crop network's ONNX file takes."""
    return int(_session(onnx).get_inputs()[0].shape[-1])


def _input_name(onnx: Path) -> str:
    return str(_session(onnx).get_inputs()[0].name)


def _session(onnx: Path) -> Any:
    import onnxruntime as ort

    return ort.InferenceSession(str(onnx), providers=["CPUExecutionProvider"])


def _logits(onnx: Path, crops: np.ndarray) -> np.ndarray:
    session = _session(onnx)
    name = session.get_inputs()[0].name
    out = [
        session.run(None, {name: to_input(crops[i : i + 256])})[0]
        for i in range(0, len(crops), 256)
    ]
    return np.concatenate(out)
