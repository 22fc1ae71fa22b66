"""Pixel-art card art: a held-out illustration style for testing only.

The style imitates a small retro game sprite: each illustration is drawn on a coarse grid
of square cells (12 to 24 across the illustration zone, picked per face), every object in
a ramp of three or four flat colours with a 1-cell dark outline, shading by ordered
(Bayer) dithering between the ramp's steps, a highlight cell or two, and a darkened cell
shadow on the face beneath plates and dishes. The grid is scaled up by whole pixels with
nearest-neighbour sampling, so every cell stays a crisp hard-edged square.

This module was written independently of the training renderers' art: it was drawn from
the card table in card-spec alone (what each card shows and its face colour), without
reading the drawers in `datasets/faces.py`, `datasets/art.py` or any other
`datasets/*_art.py`. It exists to measure how a detector trained on other art carries
over to art it never saw, so it is a test set's art only and must never be used for
training.

Each drawer has the `Illustrate` signature: it paints one illustration in place into a
BGR uint8 face centred at (cx, cy) with size unit `s`, changes no pixel outside
`zone_of(img.shape, cx, cy, s)`, and takes all its randomness from `rng`.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from datasets.art import zone_of
from datasets.faces import Illustrate

__all__ = ["PIXEL_ILLUSTRATIONS"]

Mask = np.ndarray

# Classic 4x4 ordered-dither thresholds, centred on zero so that dithering shifts a shade
# both ways and a flat area keeps its mean step.
_BAYER = (
    np.array([[0, 8, 2, 10], [12, 4, 14, 6], [3, 11, 1, 9], [15, 7, 13, 5]], np.float32) + 0.5
) / 16.0 - 0.5
_LIGHT = (-0.55, -0.83)  # light from the upper left, as sprites are conventionally lit


def _bgr(rgb: str) -> np.ndarray:
    v = int(rgb.lstrip("#"), 16)
    return np.array([v & 255, (v >> 8) & 255, (v >> 16) & 255], np.float32)


class _Grid:
    """The cell grid of one face: colours, coverage and shadow, in cells, plus the mapping
    from cells to the drawing's own units (s, around a jittered and rescaled centre)."""

    def __init__(
        self,
        img: np.ndarray,
        cx: float,
        cy: float,
        s: float,
        rng: np.random.Generator,
        min_cells: int = 12,
    ) -> None:
        ys, xs = zone_of(img.shape, cx, cy, s)
        w, h = xs.stop - xs.start, ys.stop - ys.start
        # Whole-pixel cells keep every square the same size after upscaling.
        self.cell = max(1, w // int(rng.integers(min_cells, 25)))
        nx, ny = w // self.cell, h // self.cell
        self.x0 = xs.start + (w - nx * self.cell) // 2
        self.y0 = ys.start + (h - ny * self.cell) // 2
        scale = float(rng.uniform(0.88, 1.06))
        jx, jy = rng.uniform(-0.07, 0.07, 2)
        u = (self.x0 + (np.arange(nx) + 0.5) * self.cell - cx) / s
        v = (self.y0 + (np.arange(ny) + 0.5) * self.cell - cy) / s
        self.u, self.v = np.meshgrid((u - jx) / scale, (v - jy) / scale)
        self.unit = self.cell / (s * scale)  # one cell, in drawing units
        self.colour = np.zeros((ny, nx, 3), np.float32)
        self.filled = np.zeros((ny, nx), bool)
        self.shadow = np.zeros((ny, nx), bool)
        # Outlines need a free cell around every shape, so shapes keep off the grid's rim.
        self.inner = np.zeros((ny, nx), bool)
        self.inner[1:-1, 1:-1] = True
        self.bayer = np.tile(_BAYER, (ny // 4 + 1, nx // 4 + 1))[:ny, :nx]
        self.dither = float(rng.choice([0.0, 0.55, 0.9]))
        self.black_lines = bool(rng.random() < 0.4)
        self.shift = rng.uniform(-8.0, 8.0, 3).astype(np.float32)
        self.rng = rng

    # Shapes, as masks over the grid, in drawing units.
    def ellipse(self, x: float, y: float, rx: float, ry: float, angle: float = 0.0) -> Mask:
        c, s = math.cos(angle), math.sin(angle)
        du, dv = self.u - x, self.v - y
        a, b = (du * c + dv * s) / rx, (-du * s + dv * c) / ry
        return a * a + b * b <= 1.0

    def box(
        self, x: float, y: float, rx: float, ry: float, p: float = 4.0, angle: float = 0.0
    ) -> Mask:
        """A superellipse: p=2 an ellipse, larger p ever squarer corners."""
        c, s = math.cos(angle), math.sin(angle)
        du, dv = self.u - x, self.v - y
        a, b = np.abs((du * c + dv * s) / rx), np.abs((-du * s + dv * c) / ry)
        return a**p + b**p <= 1.0

    def stick(self, a: tuple[float, float], b: tuple[float, float], ra: float, rb: float) -> Mask:
        """A tapered capsule from a (radius ra) to b (radius rb), never under a cell wide."""
        ax, ay = a
        dx, dy = b[0] - ax, b[1] - ay
        t = np.clip(((self.u - ax) * dx + (self.v - ay) * dy) / (dx * dx + dy * dy), 0.0, 1.0)
        d = np.hypot(self.u - ax - t * dx, self.v - ay - t * dy)
        return d <= np.maximum(ra + (rb - ra) * t, 0.55 * self.unit)

    def hatch(self, period: int, phase: int) -> Mask:
        """Diagonal lines one cell wide, counted in cells so that none falls between them."""
        i, j = np.indices(self.u.shape)
        return np.mod(i + j + phase, period) == 0

    def stripes(self, angle: float, period: float, width: float, phase: float) -> Mask:
        along = self.u * math.cos(angle) + self.v * math.sin(angle)
        return np.mod(along / period + phase, 1.0) < width

    # Painting.
    def ramp(self, rgb: str | np.ndarray, jitter: float = 6.0) -> np.ndarray:
        """Outline, shadow, base, light and highlight of one object's colour: shadows lean
        cool and lights warm, the usual hue shift of a hand-picked sprite palette."""
        base = _bgr(rgb) if isinstance(rgb, str) else np.asarray(rgb, np.float32)
        base = np.clip(base + self.shift + self.rng.uniform(-jitter, jitter, 3), 0, 255)
        # Pale objects (rice, dough, porcelain) keep shallow shadows or they read as grey.
        depth = 0.8 if base.mean() > 200 else 0.7
        shadow = base * depth + np.array([18.0, -6.0, 6.0], np.float32)
        light = base + (255 - base) * 0.35 + np.array([-6.0, 3.0, 8.0], np.float32)
        high = base + (255 - base) * 0.82
        line = np.array([34.0, 26.0, 30.0], np.float32) if self.black_lines else base * 0.3
        return np.clip(np.stack([line, shadow, base, light, high]), 0, 255)

    def shade(self, mask: Mask) -> np.ndarray:
        """A light ramp across the mask's own extent: 1 at its upper left, 0 lower right."""
        us, vs = self.u[mask], self.v[mask]
        mu, mv = (us.min() + us.max()) / 2, (vs.min() + vs.max()) / 2
        hu, hv = max((us.max() - us.min()) / 2, 1e-3), max((vs.max() - vs.min()) / 2, 1e-3)
        t = 0.55 + 0.5 * ((self.u - mu) / hu * _LIGHT[0] + (self.v - mv) / hv * _LIGHT[1])
        return np.clip(t, 0.0, 1.0)

    def paint(
        self,
        mask: Mask,
        pal: np.ndarray,
        shade: np.ndarray | None = None,
        outline: bool = True,
        highlights: int = 1,
    ) -> Mask:
        mask = mask & self.inner
        if not mask.any():
            return mask
        t = self.shade(mask) if shade is None else shade
        step = np.clip(np.floor(t * 2.999 + self.bayer * self.dither), 0, 2).astype(int)
        self.colour[mask] = pal[1 + step[mask]]
        self.filled |= mask
        if highlights:
            lit = np.where(mask, t + 0.01 * self.bayer, -np.inf).ravel()
            for i in np.argsort(lit)[::-1][: min(highlights, int(mask.sum()))]:
                self.colour.reshape(-1, 3)[i] = pal[4]
        if outline:
            ring = self.ring(mask)
            self.colour[ring] = pal[0]
            self.filled |= ring
        return mask

    def ring(self, mask: Mask) -> Mask:
        """The cells just outside a mask, 4-connected so the outline has no diagonal gaps."""
        grown = mask.copy()
        grown[1:] |= mask[:-1]
        grown[:-1] |= mask[1:]
        grown[:, 1:] |= mask[:, :-1]
        grown[:, :-1] |= mask[:, 1:]
        return grown & ~mask

    def speckle(self, mask: Mask, colour: np.ndarray, share: float) -> None:
        """Scattered single cells (rice grains, batter crumbs) inside an object."""
        pick = mask & self.inner & (self.rng.random(mask.shape) < share)
        self.colour[pick] = colour

    def cast(self, mask: Mask) -> None:
        """Mark cells whose face colour is darkened where nothing is drawn on them."""
        self.shadow |= mask & self.inner

    def blit(self, img: np.ndarray) -> None:
        c = self.cell
        ny, nx = self.filled.shape
        region = img[self.y0 : self.y0 + ny * c, self.x0 : self.x0 + nx * c]
        filled = np.repeat(np.repeat(self.filled, c, 0), c, 1)
        shadow = np.repeat(np.repeat(self.shadow & ~self.filled, c, 0), c, 1)
        colour = np.repeat(np.repeat(self.colour, c, 0), c, 1)
        region[shadow] = (region[shadow].astype(np.float32) * 0.72).astype(np.uint8)
        region[filled] = np.clip(colour[filled] + 0.5, 0, 255).astype(np.uint8)


Draw = Callable[[_Grid], None]


def _drawer(draw: Draw, min_cells: int = 12) -> Illustrate:
    """An `Illustrate` that draws on a grid of at least `min_cells` across: small parts
    (three rolls side by side) need finer cells to stay apart than one big object does."""

    def illustrate(
        img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator
    ) -> None:
        grid = _Grid(img, cx, cy, s, rng, min_cells)
        draw(grid)
        grid.blit(img)

    return illustrate


def _u(g: _Grid, lo: float, hi: float) -> float:
    return float(g.rng.uniform(lo, hi))


def _plate(g: _Grid, y: float, rx: float, ry: float) -> None:
    """A flat plate or dish seen at a slant: rim, a lighter well, a cell shadow beneath."""
    colour = ["#F4F1EA", "#E8EEF4", "#EFE3CF", "#DDE6EE"][int(g.rng.integers(4))]
    g.cast(g.ellipse(0.1, y + 0.14, rx, ry))
    pal = g.ramp(colour)
    g.paint(g.ellipse(0, y, rx, ry), pal, highlights=0)
    well = g.ellipse(0, y - 0.02, rx * 0.66, ry * 0.6)
    g.paint(well, pal, shade=np.full(well.shape, 0.45), outline=False, highlights=0)


def _rice(g: _Grid, y: float, rx: float, ry: float) -> Mask:
    pal = g.ramp("#F7F5EE")
    rice = g.paint(g.box(0, y, rx, ry, p=_u(g, 2.6, 3.6)), pal, highlights=0)
    g.speckle(rice, pal[1], 0.12)  # grains
    g.cast(g.box(0.1, y + 0.12, rx, ry, p=3))
    return rice


def _tempura(g: _Grid) -> None:
    _plate(g, _u(g, 0.6, 0.72), _u(g, 1.0, 1.1), _u(g, 0.28, 0.36))
    # The shrimp: a thick curled arc of batter, tapering from the head to a red tail fan,
    # open enough that it reads as a C and not a ring.
    ox, oy, radius = _u(g, -0.08, 0.08), _u(g, -0.2, -0.08), _u(g, 0.55, 0.62)
    start, sweep = _u(g, 2.4, 3.0), _u(g, 3.3, 3.8)
    du, dv = g.u - ox, g.v - oy
    rel = np.mod(np.arctan2(dv, du) - start, 2 * math.pi)
    thick = _u(g, 0.36, 0.42) * (1 - 0.5 * np.clip(rel / sweep, 0, 1))
    body = (rel <= sweep) & (np.abs(np.hypot(du, dv) - radius) <= np.maximum(thick, g.unit))
    hx, hy = ox + radius * math.cos(start), oy + radius * math.sin(start)
    body |= g.ellipse(hx, hy, 0.38, 0.38)
    end = start + sweep
    tx, ty = ox + radius * math.cos(end), oy + radius * math.sin(end)
    # The fan flares out of the curl (half along it, half away from its centre), so it
    # shows past the body's outline instead of tucking into the gap by the head.
    fx, fy = math.cos(end) - math.sin(end), math.sin(end) + math.cos(end)
    fx, fy = fx / math.sqrt(2), fy / math.sqrt(2)
    heading = math.atan2(fy, fx)
    tail = g.ellipse(tx + 0.24 * fx, ty + 0.24 * fy, 0.3, 0.14, heading + 0.55)
    tail |= g.ellipse(tx + 0.24 * fx, ty + 0.24 * fy, 0.3, 0.14, heading - 0.55)
    g.paint(tail, g.ramp(["#E2442C", "#EA5A2A"][int(g.rng.integers(2))]))
    batter = g.ramp(["#E8A93A", "#F0B848", "#DFA02E"][int(g.rng.integers(3))])
    shrimp = g.paint(body, batter, highlights=2)
    g.speckle(shrimp, batter[1], 0.14)  # bumpy fried crust
    g.speckle(shrimp, batter[3], 0.1)


def _sashimi(g: _Grid) -> None:
    if g.rng.random() < 0.5:  # a slate or wooden board under the slices
        board = ["#3B3A40", "#B98B5A", "#F2EFE8"][int(g.rng.integers(3))]
        g.cast(g.box(0.12, 0.5, 1.2, 0.28, p=6))
        g.paint(g.box(0, 0.38, 1.2, 0.28, p=6), g.ramp(board), highlights=0)
    fish = ["#F27C8A", "#F0909A", "#E8697A"][int(g.rng.integers(3))]
    gap, tilt = _u(g, 0.68, 0.76), _u(g, -0.35, -0.15)
    stripe = _u(g, 0.5, 1.0)
    for i in (-1, 0, 1):
        x, y = i * gap + _u(g, -0.04, 0.04), _u(g, -0.12, 0.0)
        pal = g.ramp(fish, jitter=10)
        slice_ = g.paint(g.box(x, y, 0.34, _u(g, 0.72, 0.82), p=2.6, angle=tilt), pal)
        # Pale fat lines across the flesh, the way a cut fillet shows them.
        fat = slice_ & g.stripes(stripe + tilt, _u(g, 0.28, 0.36), 0.22, _u(g, 0, 1))
        g.colour[fat] = pal[3]


def _dumpling(g: _Grid) -> None:
    base, rx, ry = _u(g, 0.6, 0.7), _u(g, 1.06, 1.16), _u(g, 1.0, 1.1)
    g.cast(g.box(0.12, base + 0.06, rx * 0.95, 0.16, p=3))
    du, dv = g.u / rx, (g.v - base) / ry
    r, phi = np.hypot(du, dv), np.arctan2(dv, du) + math.pi
    pleats = int(g.rng.integers(4, 7))
    # The crimped seam along the top edge: alternating folds, one bump of outline each.
    fold = np.mod(np.floor(phi / math.pi * pleats * 2), 2) == 0
    moon = (r <= 1.0 + np.where(fold, 0.05, -0.02)) & (g.v <= base)
    pal = g.ramp(["#F6F2E6", "#F2EEE4", "#F8F0DE"][int(g.rng.integers(3))])
    moon = g.paint(moon, pal, highlights=2)
    seam = moon & (r > 1.0 - _u(g, 0.26, 0.34) / ry)
    g.colour[seam & fold] = pal[1]
    g.colour[seam & ~fold] = pal[3]
    # A crease runs from each fold into the dough; it is what makes the pleats read.
    for k in range(1, pleats * 2, 2):
        a = math.pi * k / (pleats * 2) - math.pi
        ca, sa = math.cos(a), math.sin(a)
        edge = (ca * rx * 0.98, base + sa * ry * 0.98)
        inner = (ca * rx * 0.62, base + sa * ry * 0.62)
        g.colour[moon & g.stick(edge, inner, 0.03, 0.02)] = pal[1] * 0.85
    if g.rng.random() < 0.5:  # pan-fried: a golden seared base
        g.colour[moon & (g.v > base - 0.18)] = g.ramp("#D9A256")[2]


def _roll(g: _Grid, x: float, y: float, r: float) -> None:
    """A maki roll end-on: nori ring, white rice disc, red-orange filling."""
    g.paint(g.ellipse(x, y, r, r), g.ramp("#1E3326"), highlights=1)
    rice = g.ramp("#F6F4EE")
    # At least one cell of nori must show around the rice, however coarse the grid.
    inner = r - max(0.24 * r, 1.05 * g.unit)
    grains = g.paint(g.ellipse(x, y, inner, inner), rice, outline=False, highlights=0)
    g.speckle(grains, rice[1], 0.12)
    # The filling keeps a ring of rice around it, and at least its centre cell.
    core = max(min(0.3 * r, 0.5 * inner), 0.7 * g.unit)
    fill = g.ellipse(x + _u(g, -0.04, 0.04), y, core, core)
    red = ["#E8482E", "#F0602A", "#D93A2E"][int(g.rng.integers(3))]
    g.paint(fill & grains, g.ramp(red), outline=False)


def _maki(count: int) -> Draw:
    def draw(g: _Grid) -> None:
        if count == 1:
            spots = [(0.0, 0.0, _u(g, 0.8, 0.9))]
        elif count == 2:
            r = _u(g, 0.52, 0.58)
            dy = _u(g, -0.15, 0.15)
            spots = [(-0.64, dy, r), (0.64, -dy, r)]
        elif g.rng.random() < 0.5:
            r = _u(g, 0.44, 0.48)
            spots = [(-0.56, 0.42, r), (0.56, 0.42, r), (0.0, -0.5, r)]
        else:
            # A staggered row: closer than a straight one, so the rolls can be larger.
            r, lift = _u(g, 0.39, 0.42), _u(g, 0.21, 0.26) * (1 if g.rng.random() < 0.5 else -1)
            spots = [(-0.8, lift, r), (0.0, -lift, r), (0.8, lift, r)]
        for x, y, r in spots:
            _roll(g, x + _u(g, -0.03, 0.03), y + _u(g, -0.03, 0.03), r)

    return draw


def _nigiri(topping: Callable[[_Grid, float], None]) -> Draw:
    def draw(g: _Grid) -> None:
        _rice(g, _u(g, 0.3, 0.4), _u(g, 0.92, 1.02), _u(g, 0.4, 0.48))
        topping(g, _u(g, -0.22, -0.12))

    return draw


def _egg(g: _Grid, y: float) -> None:
    pal = g.ramp(["#FFE45C", "#FFDD4A", "#FCE878"][int(g.rng.integers(3))])
    egg = g.paint(g.box(0, y, _u(g, 1.05, 1.14), _u(g, 0.32, 0.38), p=6), pal, highlights=2)
    # Folded layers of the rolled omelette show as lines along it.
    g.colour[egg & g.stripes(math.pi / 2, _u(g, 0.22, 0.28), 0.2, _u(g, 0, 1))] = pal[1]
    # The nori band wraps omelette and rice alike, so it is cut to their drawn outline.
    band = g.box(_u(g, -0.15, 0.15), y + 0.3, _u(g, 0.17, 0.22), 0.9, p=8) & g.filled
    g.paint(band, g.ramp("#1C2A22"), outline=False, highlights=0)


def _salmon(g: _Grid, y: float) -> None:
    pal = g.ramp(["#F5874A", "#F7955A", "#F07B3E"][int(g.rng.integers(3))])
    tilt = _u(g, -0.12, 0.12)
    fish = g.paint(g.box(0, y, _u(g, 1.08, 1.16), _u(g, 0.34, 0.4), p=3, angle=tilt), pal)
    g.colour[fish & g.stripes(_u(g, 0.7, 1.0), _u(g, 0.3, 0.38), 0.25, _u(g, 0, 1))] = (
        pal[4] * 0.7 + pal[3] * 0.3
    )


def _squid(g: _Grid, y: float) -> None:
    pal = g.ramp(["#F7E0E6", "#F9E6EA", "#F4DAE2"][int(g.rng.integers(3))])
    tilt = _u(g, -0.12, 0.12)
    body = g.paint(g.box(0, y, _u(g, 1.06, 1.14), _u(g, 0.3, 0.36), p=3, angle=tilt), pal)
    # Scored cross-hatch, tinted pink, so it reads as squid and not bare rice.
    pink = g.ramp("#EE9FB2")[2]
    period = max(3, round(0.34 / g.unit))
    cross = g.hatch(period, int(g.rng.integers(period)))
    cross |= np.fliplr(g.hatch(period, int(g.rng.integers(period))))
    g.colour[body & cross & (g.rng.random(body.shape) < 0.8)] = pink


def _wasabi(g: _Grid) -> None:
    _plate(g, _u(g, 0.42, 0.52), _u(g, 1.0, 1.12), _u(g, 0.36, 0.44))
    x, base = _u(g, -0.08, 0.08), _u(g, 0.38, 0.48)
    w, h = _u(g, 0.56, 0.68), _u(g, 0.72, 0.86)
    mound = g.ellipse(x, base, w, h) & (g.v <= base + 0.08)
    mound |= g.ellipse(x + _u(g, -0.1, 0.1), base - h * 0.85, 0.16, 0.2)  # the peak
    pal = g.ramp(["#8DC63F", "#9ACD45", "#7FBF3A"][int(g.rng.integers(3))])
    paste = g.paint(mound, pal, highlights=2)
    g.speckle(paste, pal[1], 0.1)


def _pudding(g: _Grid) -> None:
    rim, foot = _u(g, -0.1, 0.0), _u(g, 0.78, 0.86)
    top_w, foot_w = _u(g, 0.82, 0.92), _u(g, 0.56, 0.66)
    g.cast(g.box(0.12, foot + 0.02, foot_w * 1.15, 0.12, p=3))
    frac = (g.v - rim) / (foot - rim)
    cup = (frac >= 0) & (frac <= 1) & (np.abs(g.u) <= top_w + (foot_w - top_w) * frac)
    cup_pal = g.ramp(["#E6F0F6", "#FFFFFF", "#CFE3F2", "#D8ECF4"][int(g.rng.integers(4))])
    g.paint(cup, cup_pal, highlights=2)
    # The custard rises from the cup as a dome; caramel coats its top and drips down.
    dome_h = _u(g, 0.82, 0.96)
    dome = g.box(0, rim, top_w * 0.88, dome_h, p=2.4) & (g.v <= rim + 0.06)
    custard = g.paint(dome, g.ramp("#F8D66A"), highlights=0)
    cap = rim - dome_h * _u(g, 0.45, 0.55)
    caramel = custard & (g.v <= cap)
    for _ in range(int(g.rng.integers(2, 4))):
        dx = _u(g, -0.6, 0.6) * top_w
        caramel |= custard & g.stick((dx, cap), (dx, cap + _u(g, 0.12, 0.3)), 0.09, 0.07)
    brown = ["#7A3A12", "#8A4516", "#6E3210"][int(g.rng.integers(3))]
    g.paint(caramel, g.ramp(brown), highlights=2, outline=False)
    # The cup's lip in front of the custard is what puts the pudding in the cup.
    lip = g.box(0, rim + 0.02, top_w + 0.05, 0.08, p=6)
    g.paint(lip, cup_pal, shade=np.full(lip.shape, 0.8), highlights=0)


def _chopsticks(g: _Grid) -> None:
    wood = ["#C99558", "#B5342E", "#2E2A2C", "#D8B27A"][int(g.rng.integers(4))]
    spread, lean = _u(g, 0.9, 1.02), _u(g, -0.1, 0.1)
    if g.rng.random() < 0.4:  # a porcelain rest between the tips, as set down on a table
        g.paint(g.box(0, 0.78, 0.34, 0.12, p=3), g.ramp("#EDEDE6"), highlights=0)
    for side in (-1, 1):
        top = (side * spread + lean, -0.86 + _u(g, -0.04, 0.04))
        tip = (-side * spread * 0.86 + lean, 0.8 + _u(g, -0.04, 0.04))
        g.paint(g.stick(top, tip, 0.11, 0.05), g.ramp(wood), highlights=2)


PIXEL_ILLUSTRATIONS: dict[str, Illustrate] = {
    "tempura": _drawer(_tempura),
    "sashimi": _drawer(_sashimi),
    "dumpling": _drawer(_dumpling),
    "maki_1": _drawer(_maki(1)),
    "maki_2": _drawer(_maki(2), min_cells=14),
    "maki_3": _drawer(_maki(3), min_cells=16),
    "egg": _drawer(_nigiri(_egg)),
    "salmon": _drawer(_nigiri(_salmon)),
    "squid": _drawer(_nigiri(_squid)),
    "wasabi": _drawer(_wasabi),
    "pudding": _drawer(_pudding),
    "chopsticks": _drawer(_chopsticks),
}
