"""Training the two models, fully offline: the card detector (ultralytics YOLO from a model
YAML, no pretrained weights) and the card classifier (vision/classifier.py).

Nothing here may wait on a download: YOLO_OFFLINE is set before ultralytics is imported,
plots (which fetch a font) and the AMP check (which fetches weights) are off.
"""

from __future__ import annotations

import functools
import logging
import os
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from datasets.yolo_format import refuse_for_training

MODELS_DIR = Path(__file__).parent / "models"
DEFAULT_DETECTOR_YAML = MODELS_DIR / "cardnet-p.yaml"


@dataclass(frozen=True)
class DetectorTraining:
    data: Path  # a data.yaml written by `sushigo synth`
    out: Path = Path("runs/detector")
    model: Path = DEFAULT_DETECTOR_YAML  # a YAML (from scratch) or a .pt (fine-tune)
    imgsz: int = 640
    epochs: int = 15
    batch: int = 16
    threads: int = 2
    mosaic: float = 0.3
    cache: bool = True
    fraction: float = 1.0
    seed: int = 0
    # None: ultralytics picks the optimizer and its rate. Given: AdamW at this rate (a
    # further fine-tune, where the automatic 0.002 undoes the previous stage's end).
    lr0: float | None = None
    # "cpu", or a CUDA device ("0") where one is lent: there the data loader gets worker
    # processes (ultralytics forces none on the CPU) and the batch can be larger.
    device: str = "cpu"
    workers: int = 8
    # A wall-clock budget in hours (ultralytics' `time`): the epochs are fitted into it.
    hours: float | None = None


def _offline() -> None:
    os.environ["YOLO_OFFLINE"] = "1"
    os.environ.setdefault("YOLO_VERBOSE", "True")


def _log_to(path: Path) -> logging.Handler:
    path.parent.mkdir(parents=True, exist_ok=True)
    handler = logging.FileHandler(path)
    handler.setFormatter(logging.Formatter("%(asctime)s %(message)s"))
    logging.getLogger("ultralytics").addHandler(handler)
    return handler


def train_detector(cfg: DetectorTraining, *, resume: bool = False) -> Path:
    """Train (or resume) the card detector; returns the path of the best weights."""
    refuse_for_training(cfg.data)
    _offline()
    import torch
    from ultralytics.models.yolo.detect import DetectionTrainer

    threads = cfg.threads

    class Trainer(DetectionTrainer):
        # Ultralytics pins torch to (cores - 1) threads; on two cores two threads train
        # about 1.5x faster (vision/README.md), so restore them after its setup.
        def _setup_train(self) -> None:
            super()._setup_train()
            torch.set_num_threads(threads)

    run_dir = cfg.out.resolve()
    last = run_dir / "weights" / "last.pt"
    log = _log_to(run_dir.parent / f"{run_dir.name}.log")
    overrides: dict[str, Any]
    if resume and last.exists():
        overrides = {"resume": str(last)}
    else:
        finetune = str(cfg.model).endswith(".pt")
        overrides = dict(
            model=str(cfg.model),
            data=str(cfg.data.resolve()),
            epochs=cfg.epochs,
            imgsz=cfg.imgsz,
            batch=cfg.batch,
            workers=0 if cfg.device == "cpu" else cfg.workers,
            device=cfg.device,
            # From a YAML: from scratch. From a .pt: ultralytics drops the checkpoint's
            # weights unless pretrained is true (fine-tuning starts from them).
            pretrained=finetune,
            amp=False,
            plots=False,
            single_cls=True,
            fliplr=0.0,
            mosaic=cfg.mosaic,
            close_mosaic=max(1, cfg.epochs // 5),
            # Warm-up exists for random weights; from a checkpoint it only costs an epoch.
            warmup_epochs=0.0 if finetune else 1.0,
            degrees=0.0,
            scale=0.3,
            translate=0.1,
            cache="ram" if cfg.cache else False,
            fraction=cfg.fraction,
            project=str(run_dir.parent),
            name=run_dir.name,
            exist_ok=True,
            seed=cfg.seed,
            deterministic=False,
            verbose=True,
            patience=100,
            **({"optimizer": "AdamW", "lr0": cfg.lr0} if cfg.lr0 else {}),
            **({"time": cfg.hours} if cfg.hours else {}),
        )
    trainer = Trainer(overrides=overrides)
    try:
        trainer.train()
    finally:
        # A later run in the same process (fine-tuning after training) logs to its own file.
        logging.getLogger("ultralytics").removeHandler(log)
        log.close()
    best = Path(trainer.best)
    return best if best.exists() else Path(trainer.last)


def _run_log(out: Path) -> Callable[[str], None]:
    out.mkdir(parents=True, exist_ok=True)
    log_path = out / "train.log"

    def log(line: str) -> None:
        print(line, flush=True)
        with log_path.open("a") as f:
            f.write(line + "\n")

    return log


def train_classifier_run(
    data: Path | Sequence[Path],
    out: Path,
    *,
    epochs: int = 12,
    threads: int = 2,
    seed: int = 0,
    init: Path | None = None,
    lr: float = 3e-3,
    false_alarms_of: Path | None = None,
) -> Path:
    """Crops from synth datasets -> trained classifier -> out/classifier.onnx (+ .pt).
    `false_alarms_of`: a weights folder whose card finder's false alarms on the datasets'
    photos are added as "none" crops."""
    from vision.classifier import CLASSES
    from vision.training.crop_networks import crops_from_dataset

    crops_from: Callable[..., Any] = crops_from_dataset
    if false_alarms_of is not None:
        from vision.detector import load_detector

        detector = load_detector(false_alarms_of, threads=threads)
        crops_from = functools.partial(
            crops_from_dataset, false_alarms=lambda image: detector.find_collection(image)[0]
        )
    return _train_on_crops(
        "classifier", crops_from, len(CLASSES), data, out,
        epochs=epochs, threads=threads, seed=seed, init=init, lr=lr,
    )  # fmt: skip


def train_stack_check_run(
    data: Path | Sequence[Path],
    out: Path,
    *,
    epochs: int = 8,
    threads: int = 2,
    seed: int = 0,
    init: Path | None = None,
    lr: float = 3e-3,
    size: int | None = None,
) -> Path:
    """Nigiri context crops from synth datasets -> the stack check -> out/stack_check.onnx.
    `size`: the crops' side in pixels (default: the shipped check's, stack_check.SIZE)."""
    from vision.stack_check import SIZE
    from vision.training.stack_crops import stack_crops_from_dataset

    crops_from = functools.partial(stack_crops_from_dataset, size=size or SIZE)
    return _train_on_crops(
        "stack check", crops_from, 2, data, out,
        epochs=epochs, threads=threads, seed=seed, init=init, lr=lr,
    )  # fmt: skip


def _train_on_crops(
    name: str,
    crops_from: Callable[..., Any],
    classes: int,
    data: Path | Sequence[Path],
    out: Path,
    *,
    epochs: int,
    threads: int,
    seed: int,
    init: Path | None,
    lr: float,
) -> Path:
    """One of the crop networks (vision/classifier.py's design) trained and exported to
    out/<name>.onnx, its state dict and int8 copy (vision/quantize.py) beside it."""
    from vision.training.crop_networks import export_onnx, train_and_val, train_classifier
    from vision.training.quantize import make_int8_copy

    folders = [data] if isinstance(data, Path) else list(data)
    for folder in folders:
        refuse_for_training(folder)
    log = _run_log(out)
    train, val = train_and_val(crops_from, folders, seed=seed)
    log(f"{name} crops: {len(train.labels)} train, {len(val.labels)} val")
    net, acc = train_classifier(
        train, val, epochs=epochs, threads=threads, seed=seed, log=log,
        init=init, lr=lr, classes=classes, name=name,
    )  # fmt: skip
    log(f"{name} best val accuracy {acc:.4f}")
    onnx = export_onnx(net, out / f"{name.replace(' ', '_')}.onnx", size=train.crops.shape[1])
    same = make_int8_copy(onnx, train, val, seed=seed)
    log(f"{name} int8 copy: same class as the float network on {same:.4f} of val crops")
    return onnx


def ship_models(
    folder: Path,
    *,
    detector_pt: Path | None,
    classifier_onnx: Path | None,
    imgsz: int,
    stack_check_onnx: Path | None = None,
    deck: dict[str, Any] | None = None,
    step: str,
) -> None:
    """Put freshly trained models into a weights folder and refresh its model.json
    (`deck`: the deck the training photos showed, as their data.yaml names it; `step`:
    the command that made them, added to its recipe). The figures measured with the
    networks they replace are dropped: none of them holds for these
    (vision.training.model_card measures them again)."""
    from vision.training.export import export_detector, write_model_card
    from vision.training.quantize import int8_path

    folder.mkdir(parents=True, exist_ok=True)
    if detector_pt is not None:
        export_detector(detector_pt, folder, imgsz=imgsz)
    for onnx, name in ((classifier_onnx, "classifier"), (stack_check_onnx, "stack_check")):
        if onnx is None:
            continue
        target = folder / f"{name}.onnx"
        if onnx.resolve() != target.resolve():
            shutil.copyfile(onnx, target)
        for source, copy in (
            (onnx.with_suffix(".pt"), target.with_suffix(".pt")),
            (int8_path(onnx), int8_path(target)),
        ):
            if source.exists() and source.resolve() != copy.resolve():
                shutil.copyfile(source, copy)
        if not int8_path(onnx).exists():
            int8_path(target).unlink(missing_ok=True)  # an older network's, not this one's
    write_model_card(folder, imgsz=imgsz, deck=deck, metrics={}, step=step)
