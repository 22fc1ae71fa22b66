"""Restyled illustrations: the classic drawings as other renderers might draw them.

card-spec.md lets every renderer choose an illustration's exact shape, size, position,
line widths and slight colour shifts, and the product is judged on photos from a renderer
we do not have. A classifier that saw one drawing per kind may learn that drawing's
pixels instead of what card-spec fixes (face colour, the name on the banner, maki icons)
and what the illustration depicts. So `restyled` draws a classic illustration onto a
transparent layer and then bends, turns, stretches and recolours it, and gives it an
outline, a shadow, shading, a painted softness or line-art fills, before it goes onto the
face. Every choice comes from the face's own random stream.

The other hands' arts (`datasets/*_art.py`) were drawn apart from this module. Those still
held out (`datasets.commands.HELD_OUT_ART`) are never used for training: they measure
whether this variety carries over. The rest are training art, drawn as they are or
restyled here (`any_of`, `sushigo synth --art hands`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import cv2
import numpy as np

from datasets.faces import Illustrate, maki_roll

# The illustration's zone around its centre, in size units s (card-spec's middle 62 %,
# less the centre's own +-5 % jitter): restyling never draws outside it.
ZONE_HALF_WIDTH = 1.5
ZONE_HALF_HEIGHT = 1.3


def restyled(draw: Illustrate) -> Illustrate:
    """`draw`, redrawn in a random style on every call."""

    def illustrate(
        img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator
    ) -> None:
        colour, alpha = _layer(draw, img.shape, cx, cy, s, rng)
        colour, alpha = _reshaped(colour, alpha, cx, cy, s, rng)
        colour = _recoloured(colour, alpha, rng)
        drawn = _composite(img, colour, alpha, s, rng)
        # Shadows, outlines and bends may reach past the zone; only the zone is drawn.
        zone = zone_of(img.shape, cx, cy, s)
        img[zone] = drawn[zone]

    return illustrate


def zone_of(shape: tuple[int, ...], cx: float, cy: float, s: float) -> tuple[slice, slice]:
    """The rows and columns an illustration centred at (cx, cy) with size unit s may use."""
    x0, x1 = round(cx - ZONE_HALF_WIDTH * s), round(cx + ZONE_HALF_WIDTH * s)
    y0, y1 = round(cy - ZONE_HALF_HEIGHT * s), round(cy + ZONE_HALF_HEIGHT * s)
    return slice(max(0, y0), min(shape[0], y1 + 1)), slice(max(0, x0), min(shape[1], x1 + 1))


def restyled_all(illustrations: Mapping[str, Illustrate]) -> dict[str, Illustrate]:
    return {kind: restyled(draw) for kind, draw in illustrations.items()}


def any_of(drawers: Sequence[Illustrate]) -> Illustrate:
    """One of `drawers` on each call, picked by the face's own random stream."""

    def illustrate(
        img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator
    ) -> None:
        drawers[int(rng.integers(len(drawers)))](img, cx, cy, s, rng)

    return illustrate


def abstract(img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator) -> None:
    """Shapes that depict nothing: blobs, slabs, bars and strokes, pale, dark or coloured.

    For the card finder, which boxes cards whatever they show: an illustration may hold a
    white slab or a dark bar as straight as a card's border, and the finder must not take
    it for the edge of a card lying over this one. The name, colour and icons still say
    the kind, so the faces keep their labels."""
    zone = zone_of(img.shape, cx, cy, s)
    canvas = img[zone].copy()
    x0, y0 = zone[1].start, zone[0].start
    for _ in range(int(rng.integers(2, 8))):
        colour = _any_colour(rng)
        centre = (cx - x0 + rng.uniform(-1.1, 1.1) * s, cy - y0 + rng.uniform(-0.9, 0.9) * s)
        size = (rng.uniform(0.15, 1.0) * s, rng.uniform(0.1, 0.7) * s)
        angle = rng.uniform(-30, 30) if rng.random() < 0.6 else 0.0
        shape = rng.random()
        if shape < 0.3:  # a slab or bar, straight-edged like a card's border
            box = cv2.boxPoints((centre, (2 * size[0], size[1]), angle))
            cv2.fillPoly(canvas, [np.round(box).astype(np.int32)], colour, cv2.LINE_AA)
        elif shape < 0.6:
            axes = (max(1, round(size[0])), max(1, round(size[1])))
            c = (round(centre[0]), round(centre[1]))
            cv2.ellipse(canvas, c, axes, angle, 0, 360, colour, -1, cv2.LINE_AA)
        elif shape < 0.85:  # a blob
            turns = np.sort(rng.uniform(0, 2 * math.pi, int(rng.integers(5, 10))))
            reach = rng.uniform(0.4, 1.0, turns.size)
            points = np.stack(
                [
                    centre[0] + np.cos(turns) * reach * size[0],
                    centre[1] + np.sin(turns) * reach * size[1],
                ],
                axis=1,
            )
            cv2.fillPoly(canvas, [np.round(points).astype(np.int32)], colour, cv2.LINE_AA)
        else:  # a stroke
            end = (centre[0] + rng.uniform(-1, 1) * s, centre[1] + rng.uniform(-0.6, 0.6) * s)
            width = max(1, round(s * rng.uniform(0.02, 0.12)))
            p0 = (round(centre[0]), round(centre[1]))
            cv2.line(canvas, p0, (round(end[0]), round(end[1])), colour, width, cv2.LINE_AA)
    img[zone] = canvas


def any_rolls(img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator) -> None:
    """One to three maki rolls in any arrangement: a row, a column, a triangle either way up,
    a diagonal or a scatter, whatever card the drawing is on.

    For the crop classifier: card-spec fixes the number of maki icons on the banner, not how
    an artist arranges the rolls below it. A classifier that saw three rolls only as a
    triangle read another artist's three rolls in a row as the classic maki_2's row. On these
    faces the drawing's count disagrees with the icons two times in three, so only the icons
    say which maki card it is."""
    count = int(rng.integers(1, 4))
    r = s * rng.uniform(0.45, 0.65) if count == 1 else s * rng.uniform(0.3, 0.48)
    layout = rng.choice(["row", "column", "triangle", "diagonal", "scatter"])
    steps = np.arange(count) - (count - 1) / 2
    if layout == "row":
        offsets = np.stack([steps, np.zeros(count)], axis=1)
    elif layout == "column":
        offsets = np.stack([np.zeros(count), steps], axis=1)
    elif layout == "diagonal":
        offsets = np.stack([steps, steps * rng.choice([-1.0, 1.0])], axis=1)
    elif layout == "triangle" and count == 3:
        up = rng.choice([-1.0, 1.0])
        offsets = np.array([[-0.55, 0.3 * up], [0.55, 0.3 * up], [0.0, -0.45 * up]]) * 1.9
    else:
        offsets = rng.uniform(-1, 1, (count, 2))
    centres = offsets * 2.1 * r + rng.uniform(-0.15, 0.15, 2) * s
    # Every roll whole inside the zone: shrink the arrangement, not the rolls, to fit.
    radii = r * rng.uniform(0.9, 1.1, count)
    # The antialiased rim reaches a pixel or two past the radius.
    room = np.array([ZONE_HALF_WIDTH * s, ZONE_HALF_HEIGHT * s]) - radii.max() - 2
    reach = np.abs(centres).max(axis=0)
    centres *= min(1.0, *(room / np.maximum(reach, 1e-6)))
    for i in rng.permutation(count):  # drawn in any order, so any may lie over another
        maki_roll(img, cx + centres[i, 0], cy + centres[i, 1], radii[i], rng)


def _any_colour(rng: np.random.Generator) -> tuple[int, int, int]:
    pick = rng.random()
    if pick < 0.35:  # pale: rice, plates, the white of a card's border
        return tuple(int(v) for v in rng.integers(205, 256, 3))  # type: ignore[return-value]
    if pick < 0.55:  # dark: nori, boards, ink
        return tuple(int(v) for v in rng.integers(0, 70, 3))  # type: ignore[return-value]
    return tuple(int(v) for v in rng.integers(0, 256, 3))  # type: ignore[return-value]


def _layer(
    draw: Illustrate,
    shape: tuple[int, ...],
    cx: float,
    cy: float,
    s: float,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray]:
    """The drawing as float colour and alpha in 0-1. It is drawn twice with the same
    random draws, on black and on white; how much a pixel differs between the two is how
    much the drawing left of the background (difference matting, exact for antialiased
    edges)."""
    state = rng.bit_generator.state
    on_black = np.zeros(shape, np.uint8)
    draw(on_black, cx, cy, s, rng)
    rng.bit_generator.state = state
    on_white = np.full(shape, 255, np.uint8)
    draw(on_white, cx, cy, s, rng)
    black = on_black.astype(np.float32) / 255
    white = on_white.astype(np.float32) / 255
    alpha = np.clip(1 - (white - black).mean(axis=2), 0, 1)
    colour = black / np.maximum(alpha, 1e-3)[..., None]
    return np.clip(colour, 0, 1), alpha


def _reshaped(
    colour: np.ndarray,
    alpha: np.ndarray,
    cx: float,
    cy: float,
    s: float,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray]:
    """Bent by a smooth random displacement, turned, stretched and moved, and shrunk back
    into the zone where that pushed it out."""
    h, w = alpha.shape
    if rng.random() < 0.6:  # bend: another hand draws the same shapes a little differently
        amount = s * rng.uniform(0.04, 0.12)
        cells = int(rng.integers(3, 6))
        dx = cv2.resize(rng.normal(0, 1, (cells, cells)).astype(np.float32), (w, h))
        dy = cv2.resize(rng.normal(0, 1, (cells, cells)).astype(np.float32), (w, h))
        xs, ys = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
        mx, my = xs + dx * amount, ys + dy * amount
        colour = cv2.remap(colour, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        alpha = cv2.remap(alpha, mx, my, cv2.INTER_LINEAR, borderValue=0)
    angle = rng.uniform(-25, 25)
    sx, sy = rng.uniform(0.8, 1.2), rng.uniform(0.8, 1.2)
    shift = rng.uniform(-0.12, 0.12, 2) * s
    matrix = _affine(cx, cy, angle, sx, sy, shift)
    warped = cv2.warpAffine(alpha, matrix, (w, h))
    fit = _fit_in_zone(warped, cx, cy, s)
    if fit < 1:
        matrix = _affine(cx, cy, angle, sx * fit, sy * fit, shift * fit)
        warped = cv2.warpAffine(alpha, matrix, (w, h))
    return cv2.warpAffine(colour, matrix, (w, h), borderMode=cv2.BORDER_REPLICATE), warped


def _affine(
    cx: float, cy: float, angle: float, sx: float, sy: float, shift: np.ndarray
) -> np.ndarray:
    turn = cv2.getRotationMatrix2D((0, 0), angle, 1.0)[:, :2]
    linear = turn @ np.diag([sx, sy])
    centre = np.array([cx, cy])
    offset = centre + shift - linear @ centre
    return np.hstack([linear, offset[:, None]]).astype(np.float32)


def _fit_in_zone(alpha: np.ndarray, cx: float, cy: float, s: float) -> float:
    """The scale that brings the drawing back inside the zone (1 when it is inside)."""
    ys, xs = np.nonzero(alpha > 0.02)
    if xs.size == 0:
        return 1.0
    reach_x = max(cx - xs.min(), xs.max() - cx, 1e-3)
    reach_y = max(cy - ys.min(), ys.max() - cy, 1e-3)
    return min(1.0, ZONE_HALF_WIDTH * s / reach_x, ZONE_HALF_HEIGHT * s / reach_y)


def _recoloured(colour: np.ndarray, alpha: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Another renderer's palette: each channel shifted, contrast and shading changed."""
    colour = colour + rng.uniform(-0.07, 0.07, 3).astype(np.float32)
    inside = alpha > 0.5
    if inside.any():
        mean = colour[inside].mean(axis=0)
        colour = mean + (colour - mean) * rng.uniform(0.75, 1.2)
    if rng.random() < 0.35:  # shading: lit from one side
        h, w = alpha.shape
        theta = rng.uniform(0, 2 * math.pi)
        xs, ys = np.meshgrid(np.linspace(-1, 1, w), np.linspace(-1, 1, h))
        ramp = (xs * math.cos(theta) + ys * math.sin(theta)).astype(np.float32)
        colour = colour * (1 + rng.uniform(0.08, 0.2) * ramp)[..., None]
    if rng.random() < 0.15:  # painted: soft edges inside the drawing
        colour = cv2.GaussianBlur(colour, (0, 0), rng.uniform(1.5, 4))
    if rng.random() < 0.2:  # printed grain
        colour = colour + rng.normal(0, rng.uniform(0.01, 0.04), colour.shape).astype(np.float32)
    return np.clip(colour, 0, 1)


def _composite(
    img: np.ndarray, colour: np.ndarray, alpha: np.ndarray, s: float, rng: np.random.Generator
) -> np.ndarray:
    """The face with the drawing on it, under an optional shadow and outline, filled or
    as line art."""
    out = img.astype(np.float32) / 255
    solid = (alpha > 0.5).astype(np.uint8)
    if rng.random() < 0.3:  # drop shadow
        offset = rng.uniform(-0.08, 0.08, 2) * s
        shift = np.float32([[1, 0, offset[0]], [0, 1, abs(offset[1])]])
        shadow = cv2.warpAffine(alpha, shift, alpha.shape[::-1])
        shadow = cv2.GaussianBlur(shadow, (0, 0), max(1.0, s * 0.04)) * rng.uniform(0.2, 0.45)
        out *= (1 - shadow)[..., None]
    line_art = rng.random() < 0.12
    if line_art or rng.random() < 0.45:  # outline, in ink or in a dark shade of the face
        width = max(1, round(s * rng.uniform(0.015, 0.06)))
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * width + 1, 2 * width + 1))
        ring = cv2.dilate(solid, kernel).astype(np.float32)
        ring = cv2.GaussianBlur(ring, (0, 0), 0.7)
        if rng.random() < 0.6:
            ink = np.full(3, rng.uniform(0.05, 0.25), np.float32)
        else:
            ink = out[img.shape[0] // 2, img.shape[1] // 2] * rng.uniform(0.25, 0.5)
        plain = out
        out = out * (1 - ring[..., None]) + ink * ring[..., None]
        if line_art:  # the silhouette's line only: the fill is mostly the face showing through
            inner = cv2.GaussianBlur(cv2.erode(solid, kernel).astype(np.float32), (0, 0), 0.7)
            out = out * (1 - inner[..., None]) + plain * inner[..., None]
            alpha = alpha * rng.uniform(0.15, 0.4)
    out = out * (1 - alpha[..., None]) + colour * alpha[..., None]
    return np.clip(out * 255 + 0.5, 0, 255).astype(np.uint8)
