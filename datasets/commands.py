"""`sushigo faces import` and `sushigo synth`: a deck folder of your own cards, datasets
drawn from a deck folder, previews.

Only argparse work happens at import; numpy, OpenCV and the generator load inside the
handlers, so that `sushigo --help` stays instant. Handlers raise ValueError / OSError for
the user's mistakes, which api.cli prints as one line.
"""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path
from typing import Any

from scoring.cards import CARD_KINDS

DEFAULT_PREVIEW_IMAGES = 6


def register(subparsers: Any) -> None:
    faces = subparsers.add_parser(
        "faces",
        help="import a photo of one of your cards into a deck folder",
        description="Build a deck folder from your own cards, one photo of a card at a time.",
    )
    faces_actions = faces.add_subparsers(dest="action", required=True, metavar="ACTION")
    imported = faces_actions.add_parser(
        "import",
        help="save photos of one card each, lying on a table, as the next DIR/CLASS/NNN.png",
        description="Find the one card in each PHOTO, straighten it and save it as the next "
        "DIR/CLASS/NNN.png of the deck folder DIR (what `sushigo synth --faces DIR` draws). "
        "A card the shipped card reader surely reads as another class is refused. Several "
        "photos of one class can be given at once: a photo refused is said, the others saved.",
        # PHOTO and --as are needed: said so here, and checked in run_faces (one line).
        usage="sushigo faces import PHOTO [PHOTO ...] --as CLASS --out DIR [--force]",
    )
    imported.add_argument(
        "photos", nargs="*", type=Path, metavar="PHOTO", help="a photo of one card"
    )
    imported.add_argument("--out", type=Path, required=True, help="the deck folder")
    imported.add_argument(
        "--as",
        dest="kind",
        metavar="CLASS",
        # "back": datasets.deck.BACK, named here without loading OpenCV for --help.
        help=f"the card's class: {', '.join(CARD_KINDS)}; or back, the back of a card (the "
        "draw pile's)",
    )
    imported.add_argument(
        "--force",
        action="store_true",
        help="save it as --as says even where the card reader reads another class",
    )
    faces.set_defaults(handler=run_faces)

    synth = subparsers.add_parser(
        "synth",
        help="write a synthetic YOLO dataset with ground-truth tallies, or a preview sheet",
        description="Write a ready ultralytics dataset (data.yaml, images/, labels/, "
        "tallies/ split 80/10/10); the same seed gives byte-identical files. With "
        "--preview, draw a contact sheet of a few images with their labels instead.",
    )
    target = synth.add_mutually_exclusive_group(required=True)
    target.add_argument("--out", type=Path, help="dataset folder to write")
    target.add_argument("--preview", type=Path, metavar="OUT.png", help="contact sheet to write")
    synth.add_argument(
        "--images",
        type=whole_number(1, MOST_IMAGES),
        help=f"images to make (required with --out; {DEFAULT_PREVIEW_IMAGES} for --preview; "
        f"at most {MOST_IMAGES:,})",
    )
    synth.add_argument(
        "--seed", type=whole_number(0, 2**63 - 1), default=0, help="random seed, 0 or more (0)"
    )
    synth.add_argument(
        "--size",
        type=whole_number(*SIZES),
        default=640,
        help=f"long side of each photo, px, {SIZES[0]} to {SIZES[1]} (640)",
    )
    synth.add_argument(
        "--faces",
        type=Path,
        metavar="DIR",
        required=True,
        help="the deck to draw: DIR/<class>/*.png and DIR/back.png (the printed deck's scans, "
        "e.g. ../shared/decks/original, or your own from `sushigo faces import`)",
    )
    synth.add_argument(
        "--printing",
        choices=("varied", "another"),
        default="varied",
        help="how the deck is printed: varied (a print run per photo, what training uses) or "
        "another (one printing outside training's ranges: a held-out test)",
    )
    synth.add_argument(
        "--workers", type=whole_number(1), help="processes (default: up to 2 CPU cores)"
    )
    synth.set_defaults(handler=run_synth)


# Beyond these a run only fills memory: a million photo plans are queued at once, and a
# photo 100,000 px long takes gigabytes (a phone's is 4,032).
MOST_IMAGES = 1_000_000
SIZES = (160, 8192)


def whole_number(least: int, most: int | None = None) -> Any:
    """An argparse type: a whole number from `least` to `most` (no upper bound: None).
    Every command's counts and sizes use it, so that a bad one is named before any work."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"expected at least {least:,}, got {value:,}")
        if most is not None and value > most:
            raise argparse.ArgumentTypeError(f"expected at most {most:,}, got {value:,}")
        return value

    return parse


def run_faces(args: argparse.Namespace) -> int:
    if not args.photos:
        raise ValueError(
            "faces import needs a PHOTO: sushigo faces import PHOTO --as CLASS --out DIR"
        )
    from datasets.scans import FACE_CLASSES, check_face_class, import_scan

    if args.kind is None:
        raise ValueError(f"faces import needs --as CLASS, one of: {', '.join(FACE_CLASSES)}")
    check_face_class(args.kind)  # before any photo: said once, not for each
    if len(args.photos) == 1:  # one photo: its refusal is the command's error, as ever
        path = import_scan(args.photos[0], args.kind, args.out, force=args.force)
        print(f"saved {args.kind} face {path}")
        return 0
    # Several: a photo refused (no card, several, another class, not there) does not lose
    # the faces of the others; a folder that cannot be written stops them all, as an error.
    refused = 0
    for photo in args.photos:
        try:
            path = import_scan(photo, args.kind, args.out, force=args.force)
        except (ValueError, FileNotFoundError, IsADirectoryError) as error:
            refused += 1
            print(f"sushigo faces: refused: {error}", file=sys.stderr)
            continue
        print(f"saved {args.kind} face {path}")
    saved = len(args.photos) - refused
    print(f"{saved} of {len(args.photos)} photos saved as {args.kind} faces in {args.out}")
    return 2 if refused else 0


def run_synth(args: argparse.Namespace) -> int:
    # A stopped run stops its workers too (datasets.synth stops them on the way out):
    # SIGTERM as SystemExit, for the command's run only (a test's process keeps its own).
    previous = signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        return _synth(args)
    finally:
        signal.signal(signal.SIGTERM, previous)


def _synth(args: argparse.Namespace) -> int:
    from datasets.deck import require_deck_folder

    require_deck_folder(args.faces)
    if args.preview is None and args.images is None:
        raise ValueError("synth --out needs --images N")
    if args.preview is not None:
        return _preview(args)
    from datasets.yolo_format import check_new_folder

    check_new_folder(args.out, "dataset")
    _note_the_deck(args)
    from datasets.synth import write_dataset

    try:
        out = write_dataset(
            args.out,
            images=args.images,
            seed=args.seed,
            size=args.size,
            workers=args.workers,
            faces_dir=args.faces,
            held_out=_held_out(args),
            printing=args.printing,
        )
    except (KeyboardInterrupt, SystemExit, ChildProcessError):
        # Stopped (Ctrl-C, SIGTERM, a worker lost): it had left a part of a dataset without
        # a word, and the next run into the folder was refused as "not empty".
        written = sum(1 for _ in args.out.glob("images/*/*.jpg"))
        print(
            f"sushigo synth: stopped: {args.out} holds a part of the dataset ({written} of "
            f"{args.images} images): remove it before writing there again",
            file=sys.stderr,
        )
        raise
    print(f"wrote {args.images} images to {out} (data.yaml, images/, labels/, tallies/)")
    return 0


def _note_the_deck(args: argparse.Namespace) -> None:
    from datasets.deck import BACK, deck_files

    if BACK not in deck_files(args.faces):
        print(
            f"note: {args.faces} has no {BACK}.png: the photos show no draw pile (a scan "
            f"of the card's back, saved as {BACK}.png in the deck folder, gives one)",
            file=sys.stderr,
        )


def _held_out(args: argparse.Namespace) -> str | None:
    """What makes a set a held-out test, written into its data.yaml so training refuses it."""
    if args.printing == "another":
        return "--printing another, a printing never trained on"
    return None


def _preview(args: argparse.Namespace) -> int:
    from datasets.preview import write_preview
    from datasets.synth import generate

    if args.preview.suffix.lower() not in (".png", ".jpg", ".jpeg"):
        raise ValueError(
            f"the preview is an image: name it .png or .jpg, not {args.preview.name!r}"
        )
    _note_the_deck(args)
    count = DEFAULT_PREVIEW_IMAGES if args.images is None else args.images
    scenes = (
        scene
        for _, scene in generate(
            args.seed,
            count,
            args.size,
            workers=args.workers,
            faces_dir=args.faces,
            printing=args.printing,
        )
    )
    write_preview(args.preview, scenes)
    print(f"wrote a preview of {count} images to {args.preview}")
    return 0
