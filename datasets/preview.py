"""`sushigo synth --preview`: a contact sheet of generated photos with their labels drawn on.

It shows what the detector learns from: each card's label box (the visible part of the
card) with its kind, a line from every stacked nigiri to the wasabi under it, and under
each photo the ground-truth tally, player count and the photo's conditions.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from pathlib import Path

import cv2
import numpy as np

from datasets.scene import Scene
from scoring.cards import CARD_KINDS, TALLY_KEYS

# One colour per kind (BGR), bright enough to read on any table.
KIND_COLOUR: dict[str, tuple[int, int, int]] = dict(
    zip(
        CARD_KINDS,
        (
            (255, 80, 200),  # tempura
            (60, 230, 60),  # sashimi
            (255, 160, 40),  # dumpling
            (40, 40, 255),  # maki_1
            (0, 110, 255),  # maki_2
            (0, 200, 255),  # maki_3
            (0, 255, 255),  # egg
            (120, 170, 255),  # salmon
            (255, 255, 255),  # squid
            (0, 255, 140),  # wasabi
            (200, 120, 255),  # pudding
            (255, 255, 0),  # chopsticks
        ),
        strict=True,
    )
)
STACK_COLOUR = (0, 0, 255)
_FONT = cv2.FONT_HERSHEY_SIMPLEX


def draw_labels(scene: Scene) -> np.ndarray:
    """The scene's photo with every label box, its kind, and stack links drawn on."""
    image = scene.image.copy()
    scale = max(image.shape[:2]) / 640
    thick = max(1, round(1.5 * scale))
    font_scale = 0.4 * scale
    for card in scene.cards:
        x1, y1, x2, y2 = (round(v) for v in card.box)
        colour = KIND_COLOUR[card.kind]
        cv2.polylines(image, [card.quad.astype(np.int32)], True, colour, 1, cv2.LINE_AA)
        cv2.rectangle(image, (x1, y1), (x2 - 1, y2 - 1), colour, thick, cv2.LINE_AA)
        _label(image, card.kind, (x1 + thick, y1 + thick), colour, font_scale)
    for card in scene.cards:
        if card.on_wasabi is None:
            continue
        under = scene.cards[card.on_wasabi]
        a = _centre(card.box)
        b = _centre(under.box)
        cv2.line(image, a, b, STACK_COLOUR, thick + 1, cv2.LINE_AA)
        cv2.circle(image, b, thick * 3, STACK_COLOUR, -1, cv2.LINE_AA)
    return image


def _centre(box: tuple[float, float, float, float]) -> tuple[int, int]:
    return round((box[0] + box[2]) / 2), round((box[1] + box[3]) / 2)


def _label(
    image: np.ndarray, text: str, at: tuple[int, int], colour: tuple[int, int, int], scale: float
) -> None:
    """Text on a dark plate, so that it reads on any background."""
    (tw, th), base = cv2.getTextSize(text, _FONT, scale, 1)
    x, y = at
    cv2.rectangle(image, (x, y), (x + tw + 2, y + th + base + 2), (20, 20, 20), -1)
    cv2.putText(image, text, (x + 1, y + th + 1), _FONT, scale, colour, 1, cv2.LINE_AA)


def caption(scene: Scene) -> list[str]:
    """The lines printed under a photo: truth, and the conditions it was made under."""
    tally = scene.tally()
    counts = [f"{key} {tally[key]}" for key in TALLY_KEYS if tally.get(key)]
    meta = scene.meta
    lines = [
        f"{scene.collection.players} players, {len(scene.cards)} cards "
        f"(hand {scene.collection.hand_size}), {meta.get('style', '?')}",
    ]
    # Wrap the tally over lines of about 48 characters.
    line = ""
    for item in counts:
        if line and len(line) + len(item) + 2 > 48:
            lines.append(line)
            line = ""
        line = f"{line}, {item}" if line else item
    if line:
        lines.append(line)
    lines.append(
        f"tilt {meta.get('tilt', '?')} fill {meta.get('fill', '?')} "
        f"q{meta.get('jpeg_quality', '?')}"
        + (" glare" if meta.get("glare") else "")
        + (" shake" if meta.get("motion_blur") else "")
    )
    return lines


def contact_sheet(
    scenes: Iterable[Scene], *, cell: int = 480, columns: int | None = None
) -> np.ndarray:
    """A grid of labelled photos, each fitted into a `cell` px square, captions beneath."""
    tiles = [_tile(scene, cell) for scene in scenes]
    if not tiles:
        raise ValueError("a contact sheet needs at least one image")
    columns = columns or math.ceil(math.sqrt(len(tiles)))
    rows = math.ceil(len(tiles) / columns)
    th, tw = max(t.shape[0] for t in tiles), cell
    sheet = np.full((rows * th, columns * tw, 3), 40, np.uint8)
    for i, tile in enumerate(tiles):
        r, c = divmod(i, columns)
        sheet[r * th : r * th + tile.shape[0], c * tw : c * tw + tile.shape[1]] = tile
    return sheet


def _tile(scene: Scene, cell: int) -> np.ndarray:
    image = draw_labels(scene)
    h, w = image.shape[:2]
    f = (cell - 8) / max(h, w)
    image = cv2.resize(image, (round(w * f), round(h * f)), interpolation=cv2.INTER_AREA)
    lines = caption(scene)
    line_h = 16
    tile = np.full((cell + line_h * len(lines) + 6, cell, 3), 40, np.uint8)
    y0 = (cell - image.shape[0]) // 2
    x0 = (cell - image.shape[1]) // 2
    tile[y0 : y0 + image.shape[0], x0 : x0 + image.shape[1]] = image
    for k, text in enumerate(lines):
        y = cell + line_h * (k + 1)
        cv2.putText(tile, text, (6, y), _FONT, 0.4, (235, 235, 235), 1, cv2.LINE_AA)
    return tile


def write_preview(out: Path, scenes: Sequence[Scene] | Iterable[Scene], *, cell: int = 480) -> Path:
    """Write the contact sheet as an image file (PNG or JPEG by the name's extension)."""
    sheet = contact_sheet(scenes, cell=cell)
    if out.parent and not out.parent.exists():
        raise OSError(f"folder {out.parent} does not exist")
    try:
        ok = cv2.imwrite(str(out), sheet)
    except cv2.error as error:  # unknown extension
        raise ValueError(f"cannot write {out}: use a .png or .jpg name") from error
    if not ok:
        raise OSError(f"could not write {out}")
    return out
