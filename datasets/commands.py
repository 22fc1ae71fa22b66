"""`sushigo faces` and `sushigo synth`: card faces, real-scan import, datasets, previews.

Only argparse work happens at import; numpy, OpenCV and the generator load inside the
handlers, so that `sushigo --help` stays instant. Handlers raise ValueError / OSError for
the user's mistakes, which api.cli prints as one line.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scoring.cards import CARD_KINDS, NIGIRI

if TYPE_CHECKING:
    from collections.abc import Mapping

    from datasets.faces import FaceStyle, Illustrate

DEFAULT_PREVIEW_IMAGES = 6


def register(subparsers: Any) -> None:
    faces = subparsers.add_parser(
        "faces",
        help="import a photo of one of your cards into a deck folder",
        description="Write procedural card faces as DIR/<class>/NNN.png (RGBA, transparent "
        "rounded corners, 616 px tall):  sushigo faces --out DIR [--per-class K] [--seed S]\n"
        "Import a photo of one real card lying on a table as the next DIR/CLASS/NNN.png:  "
        "sushigo faces import PHOTO --as CLASS --out DIR",
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
        type=_positive,
        help=f"images to make (required with --out; {DEFAULT_PREVIEW_IMAGES} for --preview)",
    )
    synth.add_argument("--seed", type=int, default=0, help="random seed (0)")
    synth.add_argument(
        "--size", type=_positive, default=640, help="long side of each photo, px (640)"
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
    # The made-up deck's lettering and art: only for tests' procedural faces (no --faces).
    synth.add_argument(
        "--fonts",
        choices=("classic", "varied"),
        default="classic",
        help=argparse.SUPPRESS,
    )
    synth.add_argument(
        "--font-file",
        type=Path,
        nargs="+",
        metavar="TTF",
        help=argparse.SUPPRESS,
    )
    synth.add_argument(
        "--art",
        choices=("classic", "varied", "abstract", "rolls", "hands", "nigiri", *HAND_DRAWN_ART),
        default="classic",
        help=argparse.SUPPRESS,
    )
    synth.add_argument(
        "--scene",
        choices=("classic", "printed", "other"),
        default="classic",
        help="photo renderer: classic (what the detector trains on), printed (classic, on "
        "printed tablecloths only: stripes, gingham, dots) or other (an independent "
        "renderer written from card-spec.md alone, never trained on: a held-out test)",
    )
    synth.add_argument("--workers", type=_positive, help="processes (default: up to 2 CPU cores)")
    synth.set_defaults(handler=run_synth)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number of at least 1, got {value}")
    return value


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
    if args.faces is not None and (
        args.fonts != "classic" or args.art != "classic" or args.font_file
    ):
        raise ValueError(
            "--fonts, --font-file and --art draw the made-up procedural deck; a deck folder "
            "(--faces) is drawn as it is printed"
        )
    if args.preview is None and args.images is None:
        raise ValueError("synth --out needs --images N")
    if args.preview is not None:
        return _preview(args)
    # The style checks its font files first, so a bad flag is the only line printed.
    style = _face_style(args)
    _note_the_deck(args)
    from datasets.synth import write_dataset

    out = write_dataset(
        args.out,
        images=args.images,
        seed=args.seed,
        size=args.size,
        workers=args.workers,
        faces_dir=args.faces,
        style=style,
        held_out=_held_out(args),
        scene=args.scene,
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


def _held_out(args: argparse.Namespace) -> str | None:
    """What makes a set a held-out test, written into its data.yaml so training refuses it."""
    reasons = []
    if args.scene == "other":
        reasons.append("--scene other, a photo renderer never trained on")
    if args.printing == "another":
        reasons.append("--printing another, a printing never trained on")
    if args.art in HELD_OUT_ART:
        reasons.append(f"--art {args.art}, an art never trained on")
    if args.font_file:
        reasons.append("--font-file " + ", ".join(Path(f).name for f in args.font_file))
    return "; ".join(reasons) or None


def _face_style(args: argparse.Namespace) -> FaceStyle:
    from datasets.faces import FONTS, ILLUSTRATIONS, FaceStyle, font_files, varied_fonts

    if args.font_file:
        if args.fonts != "classic":
            raise ValueError("--font-file letters the faces in those files only; drop --fonts")
        fonts = font_files(args.font_file)
    else:
        fonts = varied_fonts() if args.fonts == "varied" else FONTS
    if args.art == "varied":
        from datasets.art import restyled_all

        # Restyling is where the variety is, so such a set draws more faces of each kind.
        return FaceStyle(fonts, restyled_all(ILLUSTRATIONS), per_kind=30)
    if args.art == "rolls":
        from datasets.art import any_rolls, restyled, restyled_all
        from datasets.faces import MAKI_ICONS

        miscounted = dict.fromkeys(MAKI_ICONS, restyled(any_rolls))
        return FaceStyle(fonts, restyled_all(ILLUSTRATIONS) | miscounted, per_kind=30)
    if args.art == "abstract":
        from datasets.art import abstract

        return FaceStyle(fonts, dict.fromkeys(ILLUSTRATIONS, abstract), per_kind=30)
    if args.art in ("hands", "nigiri"):
        from datasets.art import any_of, restyled

        arts = [hand_drawn_art(name) for name in TRAINED_HAND_ART]
        # Restyled copies too: each hand's drawing bent and recoloured as another renderer
        # might, so the classifier learns what is drawn rather than how each hand draws it.
        drawers = {
            kind: any_of([art[kind] for art in arts] + [restyled(art[kind]) for art in arts])
            for kind in CARD_KINDS
        }
        if args.art == "nigiri":
            # The three nigiri share a face colour, and in art never seen the drawing alone
            # was misread (glossy squid as salmon, pixel salmon as squid); the banner names
            # the card whoever drew it. Here the drawing says nothing, as `rolls` does for maki.
            anyone = any_of([drawers[kind] for kind in NIGIRI])
            drawers |= dict.fromkeys(NIGIRI, anyone)
        return FaceStyle(fonts, drawers, per_kind=60)
    if args.art in HAND_DRAWN_ART:
        return FaceStyle(fonts, hand_drawn_art(args.art))
    return FaceStyle(fonts)


# Illustrations written apart from the generator's, each by its own hand, from card-spec's
# table alone. Name -> the module and the drawers it holds (imported only when asked for).
_HAND_DRAWN_ART = {
    "cartoon": ("datasets.cartoon_art", "CARTOON_ILLUSTRATIONS"),
    "painted": ("datasets.painted_art", "PAINTED_ILLUSTRATIONS"),
    "sketch": ("datasets.sketch_art", "SKETCH_ILLUSTRATIONS"),
    "riso": ("datasets.riso_art", "RISO_ILLUSTRATIONS"),
    "plain": ("datasets.plain_art", "PLAIN_ILLUSTRATIONS"),
    "woodblock": ("datasets.woodblock_art", "WOODBLOCK_ILLUSTRATIONS"),
    "papercut": ("datasets.papercut_art", "PAPERCUT_ILLUSTRATIONS"),
    "glossy": ("datasets.glossy_art", "GLOSSY_ILLUSTRATIONS"),
    "watercolour": ("datasets.watercolour_art", "WATERCOLOUR_ILLUSTRATIONS"),
    "pixel": ("datasets.pixel_art", "PIXEL_ILLUSTRATIONS"),
    "lowpoly": ("datasets.lowpoly_art", "LOWPOLY_ILLUSTRATIONS"),
}
HAND_DRAWN_ART = tuple(_HAND_DRAWN_ART)
# The first six were held out for seven sessions, each until its lesson was learnt; since
# the eighth they are training art (`--art hands`), and the later ones measure how the
# detector carries over to art it never saw. Never train on a held-out art.
TRAINED_HAND_ART = ("cartoon", "painted", "sketch", "riso", "plain", "woodblock")
HELD_OUT_ART = tuple(name for name in HAND_DRAWN_ART if name not in TRAINED_HAND_ART)


def hand_drawn_art(name: str) -> Mapping[str, Illustrate]:
    module, drawers = _HAND_DRAWN_ART[name]
    return getattr(importlib.import_module(module), drawers)


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
            style=_face_style(args),
            scene=args.scene,
            printing=args.printing,
        )
    )
    write_preview(args.preview, scenes)
    print(f"wrote a preview of {count} images to {args.preview}")
    return 0
