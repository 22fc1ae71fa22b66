"""`sushigo faces` and `sushigo synth`: card faces, real-scan import, datasets, previews.

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
        description="Import a photo of one real card lying on a table as the next "
        "DIR/CLASS/NNN.png:  sushigo faces import PHOTO --as CLASS --out DIR\n"
        "Write procedural card faces (the retired made-up deck's, for tests without the "
        "scans) as DIR/<class>/NNN.png (RGBA, transparent rounded corners, 616 px tall):  "
        "sushigo faces --out DIR [--per-class K] [--seed S]",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    # `faces` takes an optional action word, so that both `faces --out DIR` and
    # `faces import PHOTO --as CLASS --out DIR` parse; the handler checks the combination.
    faces.add_argument("action", nargs="?", choices=["import"], help="import a real card's photo")
    faces.add_argument("photo", nargs="?", type=Path, help="(import) the photo of one card")
    faces.add_argument("--out", type=Path, required=True, help="folder of DIR/<class>/*.png")
    faces.add_argument("--per-class", type=_positive, help="faces per class to render (6)")
    faces.add_argument("--seed", type=int, help="random seed of the rendered faces (0)")
    faces.add_argument(
        "--as",
        dest="kind",
        metavar="CLASS",
        help=f"(import) the card's class: {', '.join(CARD_KINDS)}",
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
        type=_within(1, MOST_IMAGES),
        help=f"images to make (required with --out; {DEFAULT_PREVIEW_IMAGES} for --preview; "
        f"at most {MOST_IMAGES:,})",
    )
    synth.add_argument(
        "--seed", type=_within(0, 2**63 - 1), default=0, help="random seed, 0 or more (0)"
    )
    synth.add_argument(
        "--size",
        type=_within(*SIZES),
        default=640,
        help=f"long side of each photo, px, {SIZES[0]} to {SIZES[1]} (640)",
    )
    synth.add_argument(
        "--faces",
        type=Path,
        metavar="DIR",
        help="the deck to draw: DIR/<class>/*.png and DIR/back.png (the printed deck's scans, "
        "e.g. ../shared/decks/original, or your own from `sushigo faces import`). Without "
        "it, a made-up procedural deck for tests, which `sushigo train` refuses",
    )
    synth.add_argument(
        "--printing",
        choices=("varied", "another"),
        default="varied",
        help="how the deck is printed: varied (a print run per photo, what training uses) or "
        "another (one printing outside training's ranges: a held-out test)",
    )
    synth.add_argument("--workers", type=_positive, help="processes (default: up to 2 CPU cores)")
    synth.set_defaults(handler=run_synth)


# Beyond these a run only fills memory: a million photo plans are queued at once, and a
# photo 100,000 px long takes gigabytes (a phone's is 4,032).
MOST_IMAGES = 1_000_000
SIZES = (160, 8192)


def _positive(text: str) -> int:
    return _within(1, None)(text)


def _within(least: int, most: int | None) -> Any:
    """An argparse type: a whole number from `least` to `most` (no upper bound: None)."""

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
    if args.action == "import":
        if args.photo is None:
            raise ValueError(
                "faces import needs a PHOTO: sushigo faces import PHOTO --as CLASS --out DIR"
            )
        if args.kind is None:
            raise ValueError(f"faces import needs --as CLASS, one of: {', '.join(CARD_KINDS)}")
        if args.per_class is not None or args.seed is not None:
            raise ValueError("--per-class and --seed are for rendering faces, not for import")
        from datasets.scans import import_scan

        path = import_scan(args.photo, args.kind, args.out)
        print(f"saved {args.kind} face {path}")
        return 0
    if args.photo is not None:
        raise ValueError(
            f"unexpected argument {str(args.photo)!r} (did you mean: faces import PHOTO?)"
        )
    if args.kind is not None:
        raise ValueError(
            "--as is for importing a photo: sushigo faces import PHOTO --as CLASS --out DIR"
        )
    from datasets.faces import write_faces

    per_class = 6 if args.per_class is None else args.per_class
    paths = write_faces(args.out, per_kind=per_class, seed=0 if args.seed is None else args.seed)
    print(f"wrote {len(paths)} faces ({per_class} per class) under {args.out}")
    return 0


def run_synth(args: argparse.Namespace) -> int:
    if args.faces is not None and not args.faces.is_dir():
        raise FileNotFoundError(f"no such deck folder: {args.faces}")
    if args.preview is None and args.images is None:
        raise ValueError("synth --out needs --images N")
    # A stopped run stops its workers too (the pool is closed on the way out).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if args.preview is not None:
        return _preview(args)
    if args.out.is_file():
        raise ValueError(f"{args.out} is a file: --out names a folder for the dataset")
    if args.out.is_dir() and any(args.out.iterdir()):
        # Another seed's photos under the same names would make one set of two.
        raise ValueError(f"{args.out} is not empty: write the dataset into a new or empty folder")
    _note_the_deck(args)
    from datasets.synth import write_dataset

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
    print(f"wrote {args.images} images to {out} (data.yaml, images/, labels/, tallies/)")
    return 0


def _note_the_deck(args: argparse.Namespace) -> None:
    if args.faces is None:
        print(
            "note: no --faces DIR: drawing a made-up procedural deck (for tests; training "
            "refuses it). For the printed deck: --faces ../shared/decks/original",
            file=sys.stderr,
        )
    else:
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
