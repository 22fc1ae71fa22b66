"""`sushigo train --finetune`: adapt the shipped models to a table's own photos.

The photos people corrected in review (exported by `sushigo corrections export`, in the
same layout as `sushigo synth` writes) are split into a part to train on and a held-out
part; the training part is mixed with freshly generated photos of the deck folder the
weights learnt (or `--faces DIR`), so that the models learn the table's own cards and
light without forgetting the rest; both models continue from the given weights;
and the held-out real photos are read before and after, so the user sees whether it helped.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from datasets.yolo_format import LabelledImage, prepare, read_all, write_scene


@dataclass(frozen=True)
class Finetuning:
    data: Path  # an exported corrections dataset
    weights: Path  # the weights folder to start from
    faces: Path  # the deck folder the synthetic photos are drawn from (datasets/deck.py)
    out: Path = Path("runs/finetune")
    synthetic: int = 300  # freshly generated photos mixed in
    holdout: float = 0.2  # share of the real photos kept for the before/after figures
    epochs: int = 5
    classifier_epochs: int = 4
    # The finder's rate (AdamW): ultralytics' automatic 0.002 undoes the shipped finder's
    # last step, which ran at 0.0005 (training.train.DetectorTraining.lr0).
    lr0: float = 0.0005
    imgsz: int = 640
    threads: int = 2
    seed: int = 0


def _copy(item: LabelledImage, root: Path, split: str, name: str) -> None:
    src_root = item.image.parents[2]
    src_split = item.image.parent.name
    shutil.copyfile(item.image, root / "images" / split / f"{name}.jpg")
    shutil.copyfile(
        src_root / "labels" / src_split / f"{item.image.stem}.txt",
        root / "labels" / split / f"{name}.txt",
    )
    (root / "tallies" / split / f"{name}.json").write_text(json.dumps(item.truth, sort_keys=True))


def mix(cfg: Finetuning) -> Path:
    """Build the mixed dataset: real train part + synthetic (train/val), real held-out = test."""
    from datasets.deck import deck_manifest
    from datasets.synth import generate

    real = read_all(cfg.data)
    if len(real) < 2:
        raise ValueError(
            f"{cfg.data} holds {len(real)} corrected photos; fine-tuning needs 2 or more"
        )
    order = np.random.default_rng(cfg.seed).permutation(len(real))
    n_held = max(1, round(cfg.holdout * len(real)))
    root = cfg.out / "data"
    if root.exists():
        shutil.rmtree(root)
    deck = {"folder": str(cfg.faces.resolve()), "sha256": deck_manifest(cfg.faces)}
    prepare(root, deck=deck)
    for rank, i in enumerate(order):
        _copy(real[i], root, "test" if rank < n_held else "train", f"real{rank:05d}")
    synthetic = generate(cfg.seed + 7919, cfg.synthetic, 640, workers=1, faces_dir=cfg.faces)
    for index, scene in synthetic:
        write_scene(root, "val" if index % 10 == 0 else "train", f"synth{index:05d}", scene)
    return root


def finetune(cfg: Finetuning) -> dict[str, Any]:
    """Train from cfg.weights on the mix; returns the before/after figures on held-out photos."""
    from vision.detector import load_detector, model_info
    from vision.training.evaluate import evaluate
    from vision.training.quantize import float_path
    from vision.training.train import (
        DetectorTraining,
        ship_models,
        train_classifier_run,
        train_detector,
    )

    start = model_info(cfg.weights)
    data = mix(cfg)
    before = evaluate(data, load_detector(cfg.weights), split="test").summary()
    pt = train_detector(
        DetectorTraining(
            data=data / "data.yaml",
            out=cfg.out / "detector",
            model=start.folder / "detector.pt",
            imgsz=cfg.imgsz,
            epochs=cfg.epochs,
            threads=cfg.threads,
            seed=cfg.seed,
            cache=False,
            lr0=cfg.lr0,
        )
    )
    init = start.folder / "classifier.pt"
    onnx = train_classifier_run(
        data,
        cfg.out / "classifier",
        epochs=cfg.classifier_epochs,
        threads=cfg.threads,
        seed=cfg.seed,
        init=init if init.exists() else None,
        lr=1e-3,
    )
    weights = cfg.out / "weights"
    # Corrections say nothing about what lies under a card: the stack check is kept.
    ship_models(
        weights,
        detector_pt=pt,
        classifier_onnx=onnx,
        imgsz=cfg.imgsz,
        stack_check_onnx=float_path(start.stack_check) if start.stack_check else None,
        step=f"fine-tuned from {cfg.weights} on {cfg.data} ({cfg.epochs} finder epochs, "
        f"{cfg.classifier_epochs} classifier epochs, {cfg.synthetic} synthetic photos)",
    )
    after = evaluate(data, load_detector(weights), split="test").summary()
    return {
        "weights": str(weights),
        "held_out_photos": before["subsets"]["all"]["photos"],
        "before": before,
        "after": after,
    }


def format_comparison(result: dict[str, Any]) -> str:
    b, a = result["before"]["subsets"]["all"], result["after"]["subsets"]["all"]
    lines = [
        f"held-out corrected photos: {result['held_out_photos']}",
        "figure               before   after",
    ]
    for key in ("exact_tally", "stacks_right", "maki_icons_right", "round_score_right"):
        lines.append(f"{key:<20} {b[key]:.3f}    {a[key]:.3f}")
    if a["exact_tally"] < b["exact_tally"]:
        # A fine-tune on few photos can unlearn more than it learns: say so, plainly.
        lines.append(
            f"new weights: {result['weights']} read the held-out photos worse than the "
            "weights they started from: keep serving those"
        )
    else:
        lines.append(f"new weights: {result['weights']} (serve them with --weights)")
    return "\n".join(lines)
