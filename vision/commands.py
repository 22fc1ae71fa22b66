"""`sushigo detect`, `sushigo train`, `sushigo eval`. Heavy imports stay inside handlers."""

from __future__ import annotations

import argparse
import dataclasses
import json
import shlex
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from datasets.commands import whole_number
from scoring.cards import TALLY_NAMES
from scoring.errors import cards_said
from vision import WEIGHTS_DIR

# `sushigo train` from scratch, in about two hours on this machine's two cores: the finder
# fitted into SCRATCH_HOURS at SCRATCH_IMGSZ, then the crop networks' epochs. Measured
# (eighteenth session, vision/README.md "Training"): 99 minutes in all with one thread and
# a 6-epoch stack check, and 93.6 % exact tallies on report set seed 4000 (the shipped,
# longer-trained weights: 99.0 %). The stack check was its weakest part: trained on the same
# 4,188 crops for 15 epochs instead of 6 (about 9 minutes more), it read 0.941 of its val
# crops against 0.879, and beside the shipped finder and classifier tuning set seed 3000 read
# 98.4 % exactly against 96.8 % (nineteenth session, vision/README.md "Training").
SCRATCH_IMGSZ = 416
SCRATCH_HOURS = 1.25
SCRATCH_CLASSIFIER_EPOCHS = 8
SCRATCH_STACK_CHECK_EPOCHS = 15


def register(subparsers: Any) -> None:
    detect = subparsers.add_parser("detect", help="read one photo of a collection into a tally")
    detect.add_argument("photo", type=Path, help="JPEG, PNG, WebP or HEIC photo")
    detect.add_argument(
        "--players",
        type=int,
        choices=range(2, 6),
        metavar="N",
        help="players at the table (2-5): checks the hand size, which also settles a "
        "nigiri the stack check alone put on a wasabi (read plain without it)",
    )
    detect.add_argument("--json", action="store_true", help="print the POST /api/v1/detect body")
    detect.add_argument(
        "--annotate",
        type=Path,
        metavar="OUT.jpg",
        help="write the photo with boxes, at the size it was read at (a 12 MP photo's "
        "side reduced 4x, as the game's annotated copy)",
    )
    detect.add_argument("--weights", type=Path, help="weights folder (default: the shipped one)")
    detect.set_defaults(handler=run_detect)

    train = subparsers.add_parser(
        "train",
        help="train the card finder, the card classifier and the stack check",
        description="Train the three networks on a `sushigo synth` dataset (or, with "
        "--finetune, on a corrections export) into --out: the card finder (detector/, its "
        "log in detector.log), the card classifier (classifier/) and the stack check "
        "(stack_check/). With --ship, the trained networks go into a weights folder.",
    )
    train.add_argument(
        "--data",
        type=Path,
        required=True,
        help="a dataset from `sushigo synth` (DIR with data.yaml)",
    )
    train.add_argument(
        "--stage",
        choices=("all", "detector", "classifier", "stack-check", "quantize"),
        default="all",
        help="quantize: re-make the int8 crop networks of --weights (default: the shipped "
        "ones) from their float ones, calibrated on crops of --classifier-data (or --data)",
    )
    train.add_argument("--out", type=Path, default=Path("runs/train"), help="run folder")
    train.add_argument(
        "--epochs",
        type=whole_number(1),
        help="detector epochs (default: as many as --hours allows from scratch, 5 with --finetune)",
    )
    train.add_argument(
        "--hours",
        type=_positive_hours,
        help="fit the detector's epochs into this wall-clock budget (ultralytics' time; "
        f"default from scratch without --epochs: {SCRATCH_HOURS}, a whole run in about two "
        "hours)",
    )
    train.add_argument(
        "--classifier-epochs",
        type=whole_number(1),
        default=SCRATCH_CLASSIFIER_EPOCHS,
        help=f"card classifier epochs ({SCRATCH_CLASSIFIER_EPOCHS})",
    )
    train.add_argument(
        "--stack-check-epochs",
        type=whole_number(1),
        default=SCRATCH_STACK_CHECK_EPOCHS,
        help=f"stack check epochs ({SCRATCH_STACK_CHECK_EPOCHS})",
    )
    train.add_argument(
        "--imgsz",
        type=whole_number(32, 4096),
        help=f"detector input size (default: {SCRATCH_IMGSZ} from scratch, the weights' own "
        "with --finetune)",
    )
    train.add_argument(
        "--batch", type=whole_number(1), default=16, help="detector images per batch (16)"
    )
    train.add_argument("--threads", type=whole_number(1), default=2, help="torch threads (2)")
    train.add_argument(
        "--fraction", type=_share, default=1.0, help="share of the dataset to use, in (0, 1]"
    )
    train.add_argument(
        "--device", default="cpu", help="detector training device: cpu (default) or a GPU, e.g. 0"
    )
    train.add_argument(
        "--classifier-data",
        type=Path,
        nargs="+",
        help="dataset for classifier and stack check crops (default: --data); larger images help",
    )
    train.add_argument("--resume", action="store_true", help="continue the run in --out")
    train.add_argument(
        "--false-alarms",
        action="store_true",
        help="classifier: also train on what the card finder of --weights (default: the "
        'shipped one) finds off every card, as "none"',
    )
    train.add_argument(
        "--finetune",
        action="store_true",
        help="start from --weights and train on --data, a corrections export, "
        "mixed with fresh synthetic photos; report before/after on held-out photos",
    )
    train.add_argument(
        "--weights",
        type=Path,
        help="weights folder to fine-tune or quantize, or whose finder --false-alarms asks "
        "(default: the shipped one)",
    )
    train.add_argument(
        "--from",
        dest="start_from",
        type=Path,
        nargs="?",
        # The shipped folder wherever the package lies: "vision/weights" named a folder
        # of the working directory, there only in the checkout.
        const=WEIGHTS_DIR,
        metavar="WEIGHTS",
        help="start each network from this weights folder's (detector.pt, classifier.pt, "
        "stack_check.pt) instead of from scratch (default when given: the shipped one): "
        "a new deck learnt from the shipped networks",
    )
    train.add_argument(
        "--faces",
        type=Path,
        metavar="DIR",
        help="with --finetune: the deck folder its synthetic photos show (default: the one "
        "model.json names)",
    )
    train.add_argument(
        "--synthetic",
        type=whole_number(0),
        default=300,
        help="with --finetune: synthetic photos mixed in (300)",
    )
    train.add_argument(
        "--ship",
        type=Path,
        nargs="?",
        const=WEIGHTS_DIR,
        help="write the trained models into this weights folder "
        "(default when given: the shipped one)",
    )
    train.set_defaults(handler=run_train)

    ev = subparsers.add_parser("eval", help="measure tally accuracy on generated photos")
    ev.add_argument("--data", type=Path, required=True, help="a dataset from `sushigo synth`")
    ev.add_argument(
        "--split",
        default="test",
        choices=("train", "val", "test", "all"),
        help="train, val, test, or all (test)",
    )
    ev.add_argument("--limit", type=whole_number(1), help="only the first N photos")
    ev.add_argument("--weights", type=Path, help="weights folder (default: the shipped one)")
    ev.add_argument("--json", type=Path, metavar="OUT.json", help="also write the figures as JSON")
    ev.add_argument(
        "--without-players",
        action="store_true",
        help="read without the player count, as `sushigo detect` does without --players",
    )
    ev.set_defaults(handler=run_eval)


def _share(text: str) -> float:
    """A share above 0 and at most 1 (ultralytics' own word on 5 had been "invalid. Use
    integer count >1 or ratio (0, 1]")."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a share such as 0.5, got {text!r}") from None
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"expected a share above 0 and at most 1, got {text}")
    return value


def _positive_hours(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of hours, got {text!r}") from None
    if not 0 < value < 1000:
        raise argparse.ArgumentTypeError(f"expected hours above 0 and under 1000, got {text}")
    return value


def _can_write(option: str, path: Path, *, read: Path) -> None:
    """Raise where the file an option names could not be written, or would overwrite what
    the command reads (`read`, a file or a folder: a photo annotated over itself had been
    lost, a dataset's data.yaml written over by its report): said before the work."""
    if path.is_dir():
        raise IsADirectoryError(f"{option} {path} is a folder: name the file to write")
    if not path.parent.is_dir():
        raise FileNotFoundError(f"{option}: no folder {path.parent} to write {path.name} in")
    target, source = path.resolve(), read.resolve()
    if target == source:
        raise ValueError(f"{option} {path} would overwrite the photo read: name another file")
    if source in target.parents and target.exists():
        raise ValueError(f"{option} {path} would overwrite a file of {read}: name another file")


def run_detect(args: argparse.Namespace) -> int:
    from vision.detector import load_detector
    from vision.photo import PhotoError, load_photo_file
    from vision.pipeline import read_settled

    if args.photo.is_dir():
        raise IsADirectoryError(f"{args.photo} is a folder: give the photo's file")
    if not args.photo.exists():
        raise FileNotFoundError(f"no such photo: {args.photo}")
    if not args.photo.is_file():
        raise ValueError(f"{args.photo} is not a file (a device or a pipe): give the photo's file")
    if args.annotate is not None:
        _can_write("--annotate", args.annotate, read=args.photo)
        if args.annotate.suffix.lower() not in (".jpg", ".jpeg"):
            # It had written JPEG bytes under whatever name it was given (OUT.png).
            raise ValueError(f"--annotate writes a JPEG: name it .jpg, not {args.annotate.name}")
    try:
        photo = load_photo_file(args.photo)
    except PhotoError as error:
        raise PhotoError(error.reason, f"{args.photo}: {error}") from None
    settled = read_settled(photo, load_detector(args.weights), players=args.players)
    reading = settled.reading
    if args.annotate:
        from vision.annotate import annotate, encode_jpeg
        from vision.photo import turn_image

        # Boxes are in the original photo's pixels, turned as it was read; draw on the
        # decoded image so turned, with black corners where a slant grew it (as a game
        # keeps it: the networks' smeared edges look like a fault to a person).
        shown = dataclasses.replace(reading, detections=reading.detections.scaled(1 / photo.scale))
        apart = settled.detections[settled.detections.is_left_out].scaled(1 / photo.scale)
        image = turn_image(photo.image, reading.turn, black_corners=True)
        args.annotate.write_bytes(encode_jpeg(annotate(image, shown, left_out=apart)))
    if args.json:
        json.dump(settled.to_json(), sys.stdout)
        print()
        return 0
    print(tally_said(reading.tally.to_dict(), reading.cards))
    for warning in reading.warning_texts:
        print(f"warning: {warning}")
    if args.players is None and reading.cards and reading.warning_texts:
        # Read without the player count, 92.8 % of the report set is exact; with it, 99.2 %.
        print(
            "hint: give --players N to check the hand size too: it settles a doubtful "
            "stack and looks again for a missed card"
        )
    for note in reading.note_texts:
        print(f"note: {note}")
    return 0


def tally_said(tally: Mapping[str, int], cards: int) -> str:
    """A tally as a player reads it: the cards' count, then a line for each kind held, in
    the names the annotated photo and the review page use ("Egg on wasabi", not the
    tally's key)."""
    held = [(TALLY_NAMES.get(key, key), count) for key, count in tally.items() if count]
    if not held:
        return "no cards"
    width = max(len(name) for name, _ in held)
    return "\n".join(
        [f"{cards_said(cards)}:", *(f"  {name:<{width}}  {count:>2}" for name, count in held)]
    )


def run_train(args: argparse.Namespace) -> int:
    from datasets.yolo_format import dataset_deck, refuse_for_training
    from vision.detector import default_weights, model_info
    from vision.training.train import (
        DEFAULT_DETECTOR_YAML,
        DetectorTraining,
        train_classifier_run,
        train_detector,
        train_stack_check_run,
    )

    if args.finetune:
        return run_finetune(args)
    if args.stage == "quantize":
        return run_quantize(args)
    data_yaml = args.data / "data.yaml"
    if not data_yaml.is_file():
        raise FileNotFoundError(f"{data_yaml} not found: make a dataset with `sushigo synth`")
    # Every stage's data checked before the first one runs for hours.
    for folder in [args.data, *(args.classifier_data or [])]:
        refuse_for_training(folder)
    last = args.out / "detector" / "weights" / "last.pt"
    if args.resume and (args.stage not in ("all", "detector") or not last.is_file()):
        # It had started a new run of hours from the start, saying only resume=False.
        raise FileNotFoundError(
            f"--resume: no card finder's run to continue in {args.out} (no {last}): "
            "leave --resume out to start one"
        )
    imgsz = args.imgsz or SCRATCH_IMGSZ
    pt = None
    if args.stage in ("all", "detector"):
        cfg = DetectorTraining(
            data=data_yaml,
            out=args.out / "detector",
            model=_start(args, "detector.pt") or DEFAULT_DETECTOR_YAML,
            # Given epochs are run as given; else as many as the budget holds.
            epochs=args.epochs or 15,
            imgsz=imgsz,
            batch=args.batch,
            threads=args.threads,
            fraction=args.fraction,
            device=args.device,
            hours=args.hours or (None if args.epochs else SCRATCH_HOURS),
        )
        pt = train_detector(cfg, resume=args.resume)
        print(f"detector weights: {pt}")
    onnx = None
    if args.stage in ("all", "classifier"):
        onnx = train_classifier_run(
            args.classifier_data or args.data,
            args.out / "classifier",
            epochs=args.classifier_epochs,
            threads=args.threads,
            init=_start(args, "classifier.pt"),
            false_alarms_of=(args.weights or default_weights()) if args.false_alarms else None,
        )
        print(f"classifier: {onnx}")
    stack_check = None
    if args.stage in ("all", "stack-check"):
        stack_check = train_stack_check_run(
            args.classifier_data or args.data,
            args.out / "stack_check",
            epochs=args.stack_check_epochs,
            threads=args.threads,
            init=_start(args, "stack_check.pt"),
        )
        print(f"stack check: {stack_check}")
    if args.ship:
        from vision.training.train import ship_models

        if pt is None and args.imgsz is None and (args.ship / "model.json").exists():
            imgsz = model_info(args.ship).imgsz  # the finder already there keeps its size
        deck = dataset_deck(args.data)
        ship_models(
            args.ship,
            detector_pt=pt,
            classifier_onnx=onnx,
            imgsz=imgsz,
            stack_check_onnx=stack_check,
            deck=deck if isinstance(deck, dict) else None,
            step=_this_command(),
        )
        print(_shipped(args.ship))
    return 0


def _this_command() -> str:
    """The command running, as the model card's recipe records a step."""
    return shlex.join(["sushigo", *sys.argv[1:]])


def _shipped(folder: Path) -> str:
    return (
        f"shipped into {folder}; its model card's figures were of the networks replaced and "
        f"are dropped: measure these with python -m vision.training.model_card --weights "
        f"{folder} --set NAME=DIR"
    )


def _start(args: argparse.Namespace, name: str) -> Path | None:
    """The network `name` of the --from weights folder, or None (from scratch)."""
    if args.start_from is None:
        return None
    if not args.start_from.is_dir():
        raise FileNotFoundError(f"--from {args.start_from}: no such weights folder")
    path = args.start_from / name
    if not path.is_file():
        raise FileNotFoundError(f"--from {args.start_from}: it holds no {name}")
    return path


def run_quantize(args: argparse.Namespace) -> int:
    from vision.detector import default_weights
    from vision.training.quantize import quantize_weights

    datasets = args.classifier_data or [args.data]
    for folder in datasets:
        if not (folder / "data.yaml").is_file():
            raise FileNotFoundError(f"{folder / 'data.yaml'} not found: make a dataset first")
    weights = args.weights or default_weights()
    for name, same in quantize_weights(weights, datasets).items():
        print(f"{name}: int8 copy picks the float network's class on {same:.2%} of val crops")
    return 0


def run_finetune(args: argparse.Namespace) -> int:
    from vision.detector import default_weights, model_info
    from vision.training.finetune import Finetuning, finetune, format_comparison

    if not args.data.is_dir():
        raise FileNotFoundError(f"no such dataset folder: {args.data}")
    weights = args.weights or default_weights()
    info = model_info(weights)
    imgsz = args.imgsz or info.imgsz
    cfg = Finetuning(
        data=args.data,
        weights=weights,
        faces=_finetune_deck(args.faces, info.meta.get("deck")),
        out=args.out,
        synthetic=args.synthetic,
        epochs=args.epochs or 5,
        classifier_epochs=min(args.classifier_epochs, 4),
        imgsz=imgsz,
        threads=args.threads,
    )
    result = finetune(cfg)
    print(format_comparison(result))
    if args.ship:
        from vision.training.quantize import float_path
        from vision.training.train import ship_models

        tuned = Path(result["weights"])
        stack_check = model_info(tuned).stack_check
        ship_models(
            args.ship,
            detector_pt=tuned / "detector.pt",
            classifier_onnx=tuned / "classifier.onnx",
            imgsz=imgsz,
            stack_check_onnx=float_path(stack_check) if stack_check else None,
            step=_this_command(),
        )
        print(_shipped(args.ship))
    return 0


def _finetune_deck(given: Path | None, learnt: Any) -> Path:
    """The deck folder fine-tuning draws its synthetic photos from: --faces, else the one
    the weights' model card names, where it is at hand."""
    if given is not None:
        from datasets.deck import require_deck_folder

        return require_deck_folder(given)
    folder = Path(learnt["folder"]) if isinstance(learnt, dict) and "folder" in learnt else None
    if folder is None or not folder.is_dir():
        raise ValueError(
            "--finetune mixes in photos of the deck the weights learnt, and its folder "
            f"({folder or 'not named in model.json'}) is not at hand: give it as --faces DIR"
        )
    return folder


def run_eval(args: argparse.Namespace) -> int:
    from vision.detector import load_detector
    from vision.training.evaluate import evaluate, format_report, write_report

    if not args.data.is_dir():
        raise FileNotFoundError(f"no such dataset folder: {args.data}")
    if args.json is not None:
        _can_write("--json", args.json, read=args.data)  # said before the photos are read
    detector = load_detector(args.weights)
    report = evaluate(
        args.data, detector, split=args.split, limit=args.limit, players=not args.without_players
    )
    summary = report.summary()
    if args.split != "all" and args.limit is None:
        # The test split is a tenth of a set: one photo of twelve had been read, unsaid.
        from datasets.yolo_format import SPLITS

        others = sum(
            1 for s in SPLITS if s != args.split for _ in (args.data / "images" / s).glob("*.jpg")
        )
        if others:
            read = len(report.photos)
            print(
                f"the {args.split} split's {read} photo{'' if read == 1 else 's'} only: "
                f"--split all reads the set's other {others} too\n"
            )
    print(format_report(summary))
    if args.json:
        write_report(summary, args.json)
    return 0
