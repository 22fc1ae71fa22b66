"""Which crop network files a weights folder ships and runs (vision/training/quantize.py,
vision/training/export.py); the int8 copies themselves are checked in test_detector.py and made in
test_training_smoke.py."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from vision.training.export import write_model_card
from vision.training.quantize import float_path, int8_path


def test_an_int8_copy_sits_beside_its_float_network() -> None:
    onnx = Path("w/classifier.onnx")
    assert int8_path(onnx) == Path("w/classifier.int8.onnx")
    assert float_path(int8_path(onnx)) == onnx
    assert float_path(onnx) == onnx


def test_the_model_card_names_the_int8_copy_where_there_is_one(tmp_path: Path) -> None:
    for name in ("classifier.onnx", "classifier.int8.onnx", "stack_check.onnx"):
        (tmp_path / name).write_bytes(b"")
    card = json.loads(write_model_card(tmp_path, imgsz=640, trained="then").read_text())
    assert card["classifier"] == "classifier.int8.onnx"
    assert card["stack_check"] == "stack_check.onnx"
    assert card["trained"] == "then"
    (tmp_path / "stack_check.onnx").unlink()
    assert json.loads(write_model_card(tmp_path, imgsz=640).read_text())["stack_check"] is None


def test_quantizing_a_weights_folder_crops_for_each_networks_own_size(tmp_path: Path) -> None:
    """The shipped classifier takes 96 px crops, the shipped stack check 128 px: each is
    calibrated and checked on crops of its own size."""
    from datasets.synth import write_dataset
    from vision.detector import WEIGHTS_DIR
    from vision.training.quantize import crop_size, quantize_weights

    weights = tmp_path / "weights"
    shutil.copytree(WEIGHTS_DIR, weights)
    assert (crop_size(weights / "classifier.onnx"), crop_size(weights / "stack_check.onnx")) == (
        96,
        128,
    )
    data = write_dataset(tmp_path / "data", images=10, seed=5, size=640, workers=1, progress=False)
    agreement = quantize_weights(weights, [data])
    assert set(agreement) == {"classifier", "stack_check"}
    assert all(share >= 0.9 for share in agreement.values()), agreement


def test_the_model_card_says_what_its_figures_were_measured_with() -> None:
    """The int8 kernels differ by CPU and the photos by OpenCV: each figure set names both."""
    import onnxruntime

    from vision.training.model_card import environment

    measured_with = environment()
    assert measured_with["onnxruntime"] == onnxruntime.__version__
    assert set(measured_with) == {"onnxruntime", "openvino", "numpy", "opencv", "cpu"}
    assert "avx2 " in measured_with["cpu"] and "avx512_vnni " in measured_with["cpu"]
