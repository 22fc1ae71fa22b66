"""Turning trained weights into the shipped model folder (vision/weights/ by default):

detector.pt            the ultralytics checkpoint (fine-tuning starts here)
detector.onnx          the same network for the fast path (OpenVINO, vision/finder.py)
classifier.pt/.onnx    the card classifier: state dict (fine-tuning) and float network
classifier.int8.onnx   its int8 copy, what the fast path runs (vision/quantize.py)
stack_check.*          the stack check, the same three files
model.json             what they are: files, image size, thresholds, when trained, figures
"""

from __future__ import annotations

import json
import os
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from vision.detector import DETECTION_CONF, MODEL_CARD, NMS_IOU


def export_detector(pt: Path, folder: Path, *, imgsz: int) -> Path:
    """Copy the checkpoint into `folder` and export it to ONNX beside it."""
    os.environ["YOLO_OFFLINE"] = "1"
    from ultralytics import YOLO

    folder.mkdir(parents=True, exist_ok=True)
    shipped = folder / "detector.pt"
    if pt.resolve() != shipped.resolve():
        shutil.copyfile(pt, shipped)
    onnx_path = Path(
        YOLO(str(shipped)).export(
            format="onnx",
            imgsz=imgsz,
            opset=17,
            simplify=False,
            # Dynamic shapes: photos run letterboxed to a multiple of the stride, not
            # padded to a square (vision/README.md, Speed).
            dynamic=True,
            device="cpu",
            verbose=False,
        )
    )
    target = folder / "detector.onnx"
    if onnx_path.resolve() != target.resolve():
        shutil.move(onnx_path, target)
    return target


def write_model_card(
    folder: Path,
    *,
    imgsz: int,
    conf: float = DETECTION_CONF,
    iou: float = NMS_IOU,
    metrics: dict[str, Any] | None = None,
    notes: str = "",
    trained: str | None = None,
    deck: dict[str, Any] | None = None,
    step: str | None = None,
) -> Path:
    """model.json: the files, the finder's size and thresholds, when trained, on which
    deck (each scan's sha256), the recipe (commands; `step` added to it) and every figure
    measured with it. What is not given is kept from the card already there."""
    path = folder / MODEL_CARD
    previous = json.loads(path.read_text()) if path.exists() else {}
    recipe = [*previous.get("recipe", []), *([step] if step else [])]
    card = {
        "detector": "detector.onnx",
        "detector_checkpoint": "detector.pt",
        "classifier": _fast_network(folder, "classifier"),
        # Optional (vision/stack_check.py): a folder trained before it existed has none.
        "stack_check": _fast_network(folder, "stack_check"),
        "imgsz": imgsz,
        "conf": conf,
        "iou": iou,
        "trained": trained or datetime.now(UTC).isoformat(timespec="seconds"),
        "deck": deck if deck is not None else previous.get("deck"),
        "recipe": recipe,
        "metrics": metrics if metrics is not None else previous.get("metrics", {}),
        "notes": notes or previous.get("notes", ""),
    }
    path.write_text(json.dumps(card, indent=1) + "\n")
    return path


def _fast_network(folder: Path, name: str) -> str | None:
    """The file the fast path runs for a crop network: its int8 copy where there is one."""
    for file in (f"{name}.int8.onnx", f"{name}.onnx"):
        if (folder / file).exists():
            return file
    return None
