"""Which crop network files a weights folder ships and runs (vision/quantize.py,
vision/export.py); the int8 copies themselves are checked in test_detector.py and made in
test_training_smoke.py."""

from __future__ import annotations

import json
from pathlib import Path

from vision.export import write_model_card
from vision.quantize import float_path, int8_path


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
