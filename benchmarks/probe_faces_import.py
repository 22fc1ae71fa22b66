"""What `sushigo faces import` makes of photos, both ways it can go wrong: photos of whole
collections (a `sushigo synth` set's photos, each many cards) that it imports as one
card, and photos of one card (the printed deck's scans on tables) that it refuses or
imports with a wrong outline.

    python -m benchmarks.probe_faces_import --data data/report-14000 [--limit 100]
        [--singles 240] [--seed 0] [--deck ../shared/decks/original]

Each photo is tried four ways: by the outlines alone (no card finder's count,
`datasets.scans._sure_cards`, and no whole-card check, `_whole_card`: the import before
both, but for find_card's guard on fitted sides, 1 of 500 collections apart), with the
finder's count (the import before the whole-card check), with the whole-card check (the
import before the graph cut, `_cut_from_table`), and as the import is now; the
collections also with no several-cards check at all. A single-card photo imported with
corners more than 2 % of the card's height off its true ones is counted apart: imported,
but a wrong face (mostly a part of the card: its colour field without the grey bands);
one imported on its head, apart again.

The single-card photos: every class's scan in turn, on each table of datasets/table.py
(the printed cloths too), 1050-2016 px, the card 0.3-0.85 of the photo's height (close-ups
included) at any turn, with perspective, a cast shadow, uneven coloured light, JPEG, and
in 4 of 10 one piece of clutter (a draw pile, a cup, coins, a pencil, a score sheet) beside
the card. `tests/datasets/test_scans.photo_of_card` lays the card down.
"""

from __future__ import annotations

import argparse
import functools
import math
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

import cv2
import numpy as np

from datasets import scans
from datasets.deck import BACK, CHECKOUT_DECK
from datasets.layout import CARD_H
from datasets.table import EXTENT_MM, PRINTED_CLOTHS, SURFACES, ClutterItem, draw_item, surface
from scoring.cards import CARD_KINDS

IMPORTED = "imported as one card"
UPSIDE_DOWN = "imported upside down"
WRONG_FACE = "imported, a wrong face"
SEVERAL = "refused: several cards"
NOT_WHOLE = "refused: card not whole"
NONE = "refused: no card found"
TABLES = (*SURFACES, *PRINTED_CLOTHS)
SIZES = ((1400, 1050), (1050, 1400), (2016, 1512), (1512, 2016), (2016, 1134))
TALL = (0.3, 0.45, 0.62, 0.75, 0.85)  # the card's height, a share of the photo's
CLUTTER = ("draw_pile", "cup", "coins", "pencil", "score_sheet")
Photo = tuple[np.ndarray, np.ndarray]  # BGR photo, the card's corners (TL TR BR BL)
WRONG_CORNERS = 0.02  # of the card's height: further off than a good import ever is


def outcome(image: np.ndarray, corners: np.ndarray | None = None) -> tuple[str, np.ndarray | None]:
    """What the import makes of `image`, and the card's corners where it imports one; with
    the card's true `corners`, whether the imported face is that card."""
    try:
        found = scans.find_card(image)
    except scans.SeveralCards:
        return SEVERAL, None
    except scans.CardNotWhole:
        return NOT_WHOLE, None
    except scans.CardNotFound:
        return NONE, None
    if corners is None:
        return IMPORTED, found
    height = float(np.linalg.norm(corners[3] - corners[0]))
    # Corners in card order, the card standing up: the true ones, or turned half round.
    off = float(np.abs(found - corners).max())
    if off > WRONG_CORNERS * height:
        turned = float(np.abs(np.roll(found, 2, 0) - corners).max())
        return (UPSIDE_DOWN if turned <= WRONG_CORNERS * height else WRONG_FACE), found
    return IMPORTED, found


def four_ways(
    image: np.ndarray, corners: np.ndarray | None = None
) -> tuple[tuple[str, str, str, str], np.ndarray | None]:
    """The outcome by the outlines alone, with the finder's count, with the whole-card
    check too (the three without the graph cut), and now; and the corners the import now
    finds, where it imports."""
    without_cut = mock.patch.object(scans, "_cut_from_table", lambda _: [])
    with without_cut:
        with mock.patch.object(scans, "_whole_card", lambda lab, small, f, quad: quad):
            with mock.patch.object(scans, "_sure_cards", lambda _: np.zeros((0, 4))):
                outlines, _ = outcome(image, corners)
            finder, _ = outcome(image, corners)
        whole, _ = outcome(image, corners)
    now, found = outcome(image, corners)
    return (outlines, finder, whole, now), found


def single_card_photos(
    deck: Path, count: int, seed: int = 0, first: int = 0
) -> Iterator[tuple[str, Photo]]:
    """`count` photos of one printed card each, from number `first` on: (the card's class,
    photo and corners)."""
    from tests.datasets.test_scans import read_png, scan_of

    faces = {kind: scan_of(deck, kind) for kind in CARD_KINDS}
    back = read_png(deck / f"{BACK}.png") if (deck / f"{BACK}.png").is_file() else None
    for i in range(first, first + count):
        kind = CARD_KINDS[i % len(CARD_KINDS)]
        table = TABLES[(i // len(CARD_KINDS)) % len(TABLES)]
        yield kind, single_card_photo(faces[kind], table, back, np.random.default_rng([seed, i]))


def single_card_photo(
    face: np.ndarray, table: str, back: np.ndarray | None, rng: np.random.Generator
) -> Photo:
    from tests.datasets.test_scans import photo_of_card

    width, height = SIZES[int(rng.integers(len(SIZES)))]
    for _ in range(50):  # a lie of the card with all four corners in view
        tall = float(rng.choice(TALL)) * rng.uniform(0.95, 1.05)
        lay = functools.partial(
            photo_of_card,
            face,
            table=table,
            turn_deg=float(rng.uniform(-35, 35) + 90 * rng.integers(4)),
            seed=int(rng.integers(2**31)),
            size=(width, height),
            centre=(float(rng.uniform(0.35, 0.6)), float(rng.uniform(0.4, 0.6))),
            tall=tall,
        )
        on = surface(rng, height, width, table, ppm=tall * height / CARD_H)
        photo, corners = lay(on=on)
        margin = 0.02 * min(width, height)
        if (corners >= margin).all() and (corners <= [width - margin, height - margin]).all():
            break
    if rng.random() < 0.4:  # a piece of clutter beside the card, clear of it
        what = str(rng.choice(CLUTTER))
        ppm = tall * height / CARD_H
        middle = corners.mean(0)
        clear = float(np.linalg.norm(corners - middle, axis=1).max()) + EXTENT_MM[what] * ppm
        for _ in range(30):
            x, y = rng.uniform(0, width), rng.uniform(0, height)
            if math.hypot(x - middle[0], y - middle[1]) > clear:
                angle = float(rng.uniform(0, math.pi))
                item = ClutterItem(what, float(x), float(y), angle, int(rng.integers(2**31)))
                draw_item(on, item, ppm, back=back)
                photo, corners = lay(on=on)
                break
    # Uneven light (brighter to one side) of some colour, then the phone's JPEG.
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    a = rng.uniform(0, 2 * math.pi)
    ramp = ((xx - width / 2) * math.cos(a) + (yy - height / 2) * math.sin(a)) / max(width, height)
    gain = rng.uniform(0.6, 1.1) * (1 + rng.uniform(0, 0.5) * ramp)
    lit = photo.astype(np.float32) * gain[..., None] * rng.uniform(0.88, 1.12, 3)
    quality = [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(80, 95))]
    _, jpeg = cv2.imencode(".jpg", np.clip(lit, 0, 255).astype(np.uint8), quality)
    decoded = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
    assert decoded is not None
    return decoded, corners


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, required=True, help="a `sushigo synth` dataset")
    parser.add_argument("--limit", type=int, default=100, help="collection photos")
    parser.add_argument("--singles", type=int, default=240, help="single-card photos")
    parser.add_argument("--seed", type=int, default=0, help="of the single-card photos")
    parser.add_argument("--deck", type=Path, default=CHECKOUT_DECK, help="the printed deck")
    args = parser.parse_args()

    paths = sorted(args.data.glob("images/*/*.jpg"))[: args.limit]
    columns = ("outlines", "+ finder", "+ whole", "+ cut")
    collections: dict[str, Counter[str]] = {name: Counter() for name in columns}
    unchecked: Counter[str] = Counter()
    for path in paths:
        image = scans.read_photo(path)
        for name, result in zip(columns, four_ways(image)[0], strict=True):
            collections[name][result] += 1
        with (
            mock.patch.object(scans, "_cut_from_table", lambda _: []),
            mock.patch.object(scans, "_ANOTHER_CARD", float("inf")),
            mock.patch.object(scans, "_sure_cards", lambda _: np.zeros((0, 4))),
            mock.patch.object(scans, "_whole_card", lambda lab, small, f, quad: quad),
        ):
            unchecked[outcome(image)[0]] += 1
    print(f"{len(paths)} photos of collections (none is one card: every import is wrong)")
    print(f"{'':<26}{'no check':>10}" + "".join(f"{name:>10}" for name in columns))
    for key in (IMPORTED, SEVERAL, NOT_WHOLE, NONE):
        counts = "".join(f"{collections[name][key]:>10}" for name in columns)
        print(f"{key:<26}{unchecked[key]:>10}{counts}")

    if not args.deck.is_dir():
        print(f"\nno single-card photos: the printed deck is not at hand ({args.deck})")
        return
    singles: dict[str, Counter[str]] = {name: Counter() for name in columns}
    changed: list[str] = []
    own_odds: list[float] = []  # the card reader's odds of each face's own class
    misread: list[str] = []
    wrong_read: list[str] = []  # the same, on the faces saved wrong
    for i, (kind, (image, corners)) in enumerate(
        single_card_photos(args.deck, args.singles, args.seed)
    ):
        results, found = four_ways(image, corners)
        for name, result in zip(columns, results, strict=True):
            singles[name][result] += 1
        if len(set(results)) > 1:
            changed.append(f"  photo {i} ({kind}): " + " -> ".join(results))
        if results[-1] in (IMPORTED, WRONG_FACE):  # the import's check of --as, on its face
            read, sure, own = scans._read_as(scans.warp_card(image, found), kind)
            if results[-1] == WRONG_FACE:
                said = f"read as {read}, {sure:.2f}; its own class {own:.2f}"
                wrong_read.append(f"  photo {i} ({kind}): {said}")
                continue
            own_odds.append(own)
            if read != kind:
                misread.append(f"  photo {i} ({kind}): read as {read}, {sure:.2f}")
    print(f"\n{args.singles} photos of one card (seed {args.seed})")
    print(f"{'':<26}" + "".join(f"{name:>10}" for name in columns))
    for key in (IMPORTED, UPSIDE_DOWN, WRONG_FACE, SEVERAL, NOT_WHOLE, NONE):
        print(f"{key:<26}" + "".join(f"{singles[name][key]:>10}" for name in columns))
    print("\n".join(changed))
    if own_odds:
        print(
            f"\nthe card reader on the {len(own_odds)} faces imported right: "
            f"{len(own_odds) - len(misread)} read as their own class, its odds at least "
            f"{min(own_odds):.2f} (refused as another class: sure >= {scans._READ_SURE}, "
            f"own < {scans._READ_UNLIKE})"
        )
        print("\n".join(misread))
    if wrong_read:
        print(f"\nthe card reader on the {len(wrong_read)} wrong faces:")
        print("\n".join(wrong_read))


if __name__ == "__main__":
    main()
