"""Card illustrations in the manner of a Japanese woodblock print (ukiyo-e).

This is another renderer's art: it was drawn independently of every other illustration set in
this package, so that a detector trained on those could be measured on cards it had never seen
the like of. It was held out of training for seven sessions; since the eighth it is training
art (`--art hands`, `datasets.commands.TRAINED_HAND_ART`).

The look is built as a print is: flat colour blocks, each laid down slightly out of register,
with bokashi (a colour fading toward the paper within its shape) and wood-grain streaks, and
then a bold black key block of tapered, brush-like lines printed on top.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import cv2
import numpy as np

from datasets.faces import Illustrate

Colour = tuple[float, float, float]  # BGR, 0..255

# cv2 draws polygons on a fixed-point grid; 3 fractional bits keep AA edges smooth when small.
_SHIFT = 3
_ONE = 1 << _SHIFT


def _bgr(rgb: tuple[int, int, int]) -> Colour:
    return (float(rgb[2]), float(rgb[1]), float(rgb[0]))


# A muted, traditional palette: what the pigments of an Edo print look like after two centuries.
INK = _bgr((32, 27, 26))  # sumi black of the key block
SUMI = _bgr((112, 106, 100))  # diluted sumi grey
PAPER = _bgr((244, 235, 214))  # warm washi, the tone of every pale shape
PAPER_SHADE = _bgr((214, 199, 172))
INDIGO = _bgr((46, 66, 112))
INDIGO_PALE = _bgr((150, 170, 200))
VERMILION = _bgr((206, 74, 46))
VERMILION_DEEP = _bgr((150, 40, 34))
OCHRE = _bgr((206, 146, 54))
GOLD = _bgr((232, 184, 88))
GOLD_PALE = _bgr((246, 222, 150))
BROWN = _bgr((150, 86, 38))
CARAMEL = _bgr((112, 58, 26))
NORI = _bgr((34, 48, 38))
NORI_DEEP = _bgr((18, 26, 22))
PINK = _bgr((222, 104, 118))
PINK_PALE = _bgr((246, 196, 196))
SALMON = _bgr((232, 112, 58))
SALMON_PALE = _bgr((246, 176, 122))
SQUID = _bgr((247, 232, 226))
SQUID_PINK = _bgr((236, 184, 182))
EGG = _bgr((246, 206, 72))
EGG_EDGE = _bgr((200, 130, 40))
WASABI = _bgr((120, 160, 66))
WASABI_PALE = _bgr((190, 214, 130))
WASABI_DEEP = _bgr((70, 104, 44))
CUSTARD = _bgr((242, 210, 118))
LACQUER = _bgr((60, 40, 36))

Fade = tuple[tuple[float, float], Colour, float]  # direction (units), colour reached, strength


def _ellipse(
    cx: float,
    cy: float,
    rx: float,
    ry: float,
    n: int = 56,
    a0: float = 0.0,
    a1: float | None = None,
) -> np.ndarray:
    """Points on an ellipse (whole when a1 is None, else the arc a0..a1, ends included)."""
    if a1 is None:
        t = np.linspace(a0, a0 + 2 * math.pi, n, endpoint=False)
    else:
        t = np.linspace(a0, a1, n)
    return np.stack([cx + rx * np.cos(t), cy + ry * np.sin(t)], axis=1)


def _superellipse(cx: float, cy: float, a: float, b: float, p: float, n: int = 64) -> np.ndarray:
    """A rounded rectangle-like outline: rice blocks and toppings are soft-cornered slabs."""
    t = np.linspace(0, 2 * math.pi, n, endpoint=False)
    c, s = np.cos(t), np.sin(t)
    x = cx + a * np.sign(c) * np.abs(c) ** (2 / p)
    y = cy + b * np.sign(s) * np.abs(s) ** (2 / p)
    return np.stack([x, y], axis=1)


def _bend(pts: np.ndarray, half_width: float, arch: float) -> np.ndarray:
    """Lift the middle of a shape by `arch`, so slabs drape instead of lying ruler-straight."""
    out = pts.copy()
    u = np.clip(pts[:, 0] / half_width, -1.0, 1.0)
    out[:, 1] -= arch * (1 - u**2)
    return out


def _normals(p: np.ndarray, closed: bool) -> np.ndarray:
    # A closed outline wraps round, so its ends take their tangent from each other.
    tangent = np.roll(p, -1, axis=0) - np.roll(p, 1, axis=0) if closed else np.gradient(p, axis=0)
    norm = np.maximum(np.hypot(tangent[:, 0], tangent[:, 1]), 1e-9)
    return np.stack([tangent[:, 1], -tangent[:, 0]], axis=1) / norm[:, None]


def _wobble(
    pts: np.ndarray, rng: np.random.Generator, amp: float, closed: bool = True
) -> np.ndarray:
    """Nudge an outline along its normals by smooth noise: a knife-cut block is never true."""
    n = len(pts)
    t = np.linspace(0, 2 * math.pi, n, endpoint=not closed)
    d = np.zeros(n)
    for k in (2, 3, 5, 7):
        d += rng.uniform(-1, 1) * amp / math.sqrt(k) * np.sin(k * t + rng.uniform(0, 2 * math.pi))
    return pts + _normals(pts, closed) * d[:, None]


def _smoothstep(x: np.ndarray) -> np.ndarray:
    x = np.clip(x, 0.0, 1.0)
    return x * x * (3 - 2 * x)


class _Print:
    """One illustration being printed over the zone of a face.

    Everything is composed on a float copy of the zone alone and copied back at the end, so
    nothing outside the zone can change whatever a block does near its edge."""

    def __init__(
        self, img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator
    ) -> None:
        h, w = img.shape[:2]
        self.x0 = max(0, round(cx - 1.5 * s))
        self.y0 = max(0, round(cy - 1.3 * s))
        self.x1 = min(w - 1, round(cx + 1.5 * s))
        self.y1 = min(h - 1, round(cy + 1.3 * s))
        self.rng = rng
        self.empty = self.x1 < self.x0 or self.y1 < self.y0
        zone = img[self.y0 : self.y1 + 1, self.x0 : self.x1 + 1]
        self.canvas = zone.astype(np.float32)
        self.h, self.w = self.canvas.shape[:2]

        # The renderer's freedom: size, a small offset, a slight tilt of the whole print.
        self.scale = s * rng.uniform(0.87, 1.13)
        angle = rng.uniform(-0.07, 0.07)
        ca, sa = math.cos(angle), math.sin(angle)
        self.rot = np.array([[ca, -sa], [sa, ca]])
        self.origin = np.array(
            [
                cx + rng.uniform(-0.05, 0.05) * s - self.x0,
                cy + rng.uniform(-0.05, 0.05) * s - self.y0,
            ]
        )
        self.line = rng.uniform(0.8, 1.25)
        self.ink = self.colour(INK)
        # Each colour block is registered by hand against the key block and misses a little.
        self.register = rng.normal(0, 1, 2) * 0.018 * s
        self.grain_amp = rng.uniform(9, 16)
        self.grain = self._wood_grain(s) if not self.empty else np.zeros((1, 1), np.float32)

    def _wood_grain(self, s: float) -> np.ndarray:
        """Streaks along one direction, wavering: the grain of the cherry block shows in flat
        areas because its soft and hard rings take up different amounts of pigment."""
        h, w = self.h, self.w
        rng = self.rng
        coarse = rng.standard_normal((max(2, h // 2), max(2, w // 30))).astype(np.float32)
        streaks = cv2.resize(coarse, (w, h), interpolation=cv2.INTER_LINEAR)
        bends = rng.standard_normal((3, 3)).astype(np.float32)
        warp = cv2.resize(bends, (w, h), interpolation=cv2.INTER_CUBIC)
        tilt = rng.uniform(-0.12, 0.12)
        period = max(2.5, 0.06 * s * rng.uniform(0.8, 1.3))
        k = np.float32(2 * math.pi / period)
        ys = np.arange(h, dtype=np.float32)[:, None] * k
        xs = np.arange(w, dtype=np.float32)[None, :] * np.float32(tilt) * k
        phase = ys + xs + 2.5 * warp
        rings = np.sin(phase, out=phase)
        # Cubing sharpens the rings into thin late-wood lines with a paler ground between.
        return 0.55 * streaks + 0.45 * rings * rings * rings

    # --- geometry ----------------------------------------------------------------------------

    def px(self, pts: np.ndarray) -> np.ndarray:
        return pts @ self.rot.T * self.scale + self.origin

    def colour(self, c: Colour, spread: float = 8.0) -> Colour:
        j = self.rng.uniform(-spread, spread, 3)
        return (c[0] + j[0], c[1] + j[1], c[2] + j[2])

    def _bbox(self, p: np.ndarray, pad: float) -> tuple[int, int, int, int] | None:
        x0 = max(0, math.floor(p[:, 0].min() - pad))
        y0 = max(0, math.floor(p[:, 1].min() - pad))
        x1 = min(self.w, math.ceil(p[:, 0].max() + pad) + 1)
        y1 = min(self.h, math.ceil(p[:, 1].max() + pad) + 1)
        if x1 <= x0 or y1 <= y0:
            return None
        return x0, y0, x1, y1

    @staticmethod
    def _fixed(p: np.ndarray) -> np.ndarray:
        return np.round(p * _ONE).astype(np.int32)

    # --- printing ----------------------------------------------------------------------------

    def _lay(self, local: np.ndarray, box: tuple[int, int, int, int], field: np.ndarray) -> None:
        """Print `field` through `local`, a coverage mask the size of `box`."""
        x0, y0, x1, y1 = box
        a = local[..., None].astype(np.float32) * np.float32(1 / 255)
        region = self.canvas[y0:y1, x0:x1]
        region += (field - region) * a

    def _local(self, polys: Sequence[np.ndarray], box: tuple[int, int, int, int]) -> np.ndarray:
        x0, y0, x1, y1 = box
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        origin = np.array([x0, y0], np.float64)
        cv2.fillPoly(mask, [self._fixed(q - origin) for q in polys], 255, cv2.LINE_AA, _SHIFT)
        return mask

    def fill(
        self,
        pts: np.ndarray,
        colour: Colour,
        *,
        fade: Fade | None = None,
        radial: tuple[Colour, float] | None = None,
        grain: float = 1.0,
        clip: np.ndarray | None = None,
    ) -> np.ndarray:
        """Print one colour block; returns its zone-sized mask so later blocks can be cut to
        fit inside it."""
        base = np.array(self.colour(colour), np.float32)
        shift = self.register + self.rng.normal(0, 0.004 * self.scale, 2)
        p = self.px(pts) + shift
        full = np.zeros((self.h, self.w), np.uint8)
        box = self._bbox(p, 2)
        if box is None:
            return full
        x0, y0, x1, y1 = box
        local = self._local([p], box)
        if clip is not None:
            local = cv2.min(local, clip[y0:y1, x0:x1])
        full[y0:y1, x0:x1] = local
        weight: np.ndarray | float = 0.0
        to = base
        if fade is not None or radial is not None:
            ys = np.arange(y0, y1, dtype=np.float32)[:, None]
            xs = np.arange(x0, x1, dtype=np.float32)[None, :]
        if fade is not None:
            d = self.rot @ np.asarray(fade[0], float)
            d = d / max(np.hypot(*d), 1e-9)
            proj = p @ d
            lo, hi = float(proj.min()), float(proj.max())
            t = (xs * np.float32(d[0]) + ys * np.float32(d[1]) - lo) / max(hi - lo, 1e-6)
            # Bokashi is wiped onto one edge of the block, so the fade starts part-way across.
            weight = fade[2] * _smoothstep((t - 0.3) / 0.7)
            to = np.array(self.colour(fade[1]), np.float32)
        elif radial is not None:
            c = p.mean(axis=0)
            r = np.sqrt((xs - np.float32(c[0])) ** 2 + (ys - np.float32(c[1])) ** 2)
            rmax = float(np.hypot(*(p - c).T).max())
            weight = radial[1] * _smoothstep((r / max(rmax, 1e-6) - 0.35) / 0.65)
            to = np.array(self.colour(radial[0]), np.float32)
        g = (self.grain_amp * grain) * self.grain[y0:y1, x0:x1, None]
        if isinstance(weight, np.ndarray):
            field = base + (to - base) * weight[..., None] + g
        else:
            field = base + g
        self._lay(local, box, field)
        return full

    def _print_ink(
        self,
        solid: Sequence[np.ndarray],
        bands: Sequence[tuple[np.ndarray, np.ndarray]],
        colour: Colour | None,
        clip: np.ndarray | None,
    ) -> None:
        """Print filled outlines (`solid`) and closed bands between two outlines in one colour."""
        everything = list(solid) + [o for band in bands for o in band]
        if not everything:
            return
        box = self._bbox(np.concatenate(everything), 2)
        if box is None:
            return
        x0, y0, x1, y1 = box
        mask = self._local(solid, box) if solid else np.zeros((y1 - y0, x1 - x0), np.uint8)
        for outer, inner in bands:
            # A closed line is the band between its two offset outlines.
            mask = cv2.max(mask, cv2.absdiff(self._local([outer], box), self._local([inner], box)))
        if clip is not None:
            mask = cv2.min(mask, clip[y0:y1, x0:x1])
        ink = np.array(self.colour(colour) if colour is not None else self.ink, np.float32)
        # Sumi never prints perfectly flat either: a faint grain shows in the black.
        field = ink + 0.3 * self.grain_amp * self.grain[y0:y1, x0:x1, None]
        self._lay(mask, box, field)

    def strokes(
        self,
        lines: Sequence[np.ndarray],
        width: float,
        *,
        closed: bool = False,
        colour: Colour | None = None,
        taper: float = 0.3,
        press: float = 0.35,
        clip: np.ndarray | None = None,
    ) -> None:
        """Key-block lines: brush-like, swelling and thinning, tapered to points at open ends."""
        rng = self.rng
        solid: list[np.ndarray] = []
        bands: list[tuple[np.ndarray, np.ndarray]] = []
        for pts in lines:
            if len(pts) < 2:
                continue
            p = self.px(pts)
            n = len(p)
            w = max(0.9, width * self.scale * self.line * rng.uniform(0.85, 1.15))
            if closed:
                t = np.linspace(0, 1, n, endpoint=False)
                k = int(rng.integers(1, 4))
                prof = 1 + press * np.sin(2 * math.pi * k * t + rng.uniform(0, 2 * math.pi))
            else:
                t = np.linspace(0, 1, n)
                # A brush lands and lifts off: thin at both ends, heavier where it was pressed.
                head = rng.uniform(0.6, 1.4) * taper
                tail = rng.uniform(0.6, 1.4) * taper
                ends = np.minimum(np.minimum(t / max(head, 1e-3), (1 - t) / max(tail, 1e-3)), 1)
                prof = 0.12 + 0.88 * np.sqrt(np.clip(ends, 0, 1))
                prof *= 1 + press * 0.5 * np.sin(math.pi * t * rng.uniform(1, 3))
            half = (np.maximum(w * prof, 0.7) / 2)[:, None]
            nrm = _normals(p, closed)
            left, right = p + nrm * half, p - nrm * half
            if closed:
                bands.append((left, right))
            else:
                solid.append(np.concatenate([left, right[::-1]]))
        self._print_ink(solid, bands, colour, clip)

    def outline(self, pts: np.ndarray, width: float = 0.05, press: float = 0.45) -> None:
        self.strokes([pts], width, closed=True, press=press)

    def specks(
        self,
        centre: tuple[float, float],
        spread: tuple[float, float],
        count: int,
        length: float,
        width: float,
        colour: Colour,
        clip: np.ndarray | None = None,
    ) -> None:
        """Short cut marks (rice grains, crumbs, grated texture) scattered over an area: each a
        small bowed lens, pointed at both ends like a single knife nick."""
        rng = self.rng
        x = centre[0] + rng.uniform(-1, 1, count) * spread[0]
        y = centre[1] + rng.uniform(-1, 1, count) * spread[1]
        a = rng.uniform(0, math.pi, count)
        ln = length * rng.uniform(0.6, 1.3, count)
        bow = rng.uniform(-0.3, 0.3, count) * ln
        wd = width * self.line * rng.uniform(0.8, 1.2, count)
        u = np.stack([np.cos(a), np.sin(a)], 1)
        v = np.stack([-u[:, 1], u[:, 0]], 1)
        c = np.stack([x, y], 1)
        # Tip, upper flank, tip, lower flank: the bow bends the lens, the width fattens it.
        pts = np.stack(
            [
                c - u * (ln / 2)[:, None],
                c + v * (bow + wd / 2)[:, None],
                c + u * (ln / 2)[:, None],
                c + v * (bow - wd / 2)[:, None],
            ],
            1,
        )
        flat = self.px(pts.reshape(-1, 2)).reshape(count, 4, 2)
        self._print_ink(list(flat), [], colour, clip)

    def commit(self, img: np.ndarray) -> None:
        img[self.y0 : self.y1 + 1, self.x0 : self.x1 + 1] = np.clip(
            self.canvas + 0.5, 0, 255
        ).astype(np.uint8)


# --- the dishes: each draws in units of the size unit, centred at (0, 0), y pointing down ----


def _plate(pr: _Print, cx: float, cy: float, rx: float, ry: float) -> None:
    """A shallow blue-and-white dish seen from the side and a little above."""
    rng = pr.rng
    foot = _ellipse(cx, cy + 0.09, rx * 0.62, ry * 0.6)
    pr.fill(foot, INDIGO, fade=((0, 1), INDIGO_PALE, 0.5))
    pr.outline(foot, 0.035)
    rim = _wobble(_ellipse(cx, cy, rx, ry), rng, 0.01)
    pr.fill(rim, INDIGO, fade=((0, -1), INDIGO_PALE, 0.7))
    well = _ellipse(cx, cy - 0.02, rx * 0.84, ry * 0.72)
    pr.fill(well, PAPER, radial=(INDIGO_PALE, 0.5), grain=0.7)
    pr.outline(rim, 0.05)
    pr.strokes([well[len(well) // 2 :]], 0.025, taper=0.25)


def _tempura(pr: _Print) -> None:
    rng = pr.rng
    _plate(pr, 0.0, 0.55, 1.12 * rng.uniform(0.93, 1.05), 0.38 * rng.uniform(0.9, 1.1))
    flip = 1 if rng.random() < 0.5 else -1
    # An arched centreline: the battered body rests head-end on the plate, curls up and over,
    # and comes down on the far side, where the tail flicks up.
    a0 = math.radians(rng.uniform(195, 215))
    a1 = math.radians(rng.uniform(-8, 12))
    cx, cy = rng.uniform(-0.08, 0.08), rng.uniform(0.02, 0.1)
    r = 0.62 * rng.uniform(0.93, 1.06)
    t = np.linspace(0, 1, 44)
    ang = a0 + (a1 - a0) * t
    spine = np.stack([cx + flip * r * np.cos(ang), cy - 0.85 * r * np.sin(ang)], axis=1)
    thick = 0.56 * (1 - 0.5 * t**1.2) * rng.uniform(0.9, 1.1)
    thick[:4] *= np.array([0.5, 0.78, 0.92, 0.98])  # a rounded, blunt head end
    nrm = _normals(spine, closed=False)
    # Batter is lumpy: a ragged edge of small bumps on both sides.
    lumps = 1 + 0.16 * np.abs(np.sin(t * rng.uniform(22, 30) + rng.uniform(0, 6)))
    side_a = spine + nrm * (thick * lumps / 2)[:, None]
    lumps = 1 + 0.16 * np.abs(np.sin(t * rng.uniform(22, 30) + rng.uniform(0, 6)))
    side_b = spine - nrm * (thick * lumps / 2)[:, None]
    body = np.concatenate([side_a, side_b[::-1]])

    # The tail fan: two or three vermilion blades fanning up and out from the thin end.
    end = spine[-3]
    tang = np.array([flip * 0.75, -0.65]) + 0.4 * (spine[-1] - spine[-5]) / max(
        float(np.hypot(*(spine[-1] - spine[-5]))), 1e-9
    )
    tang = tang / max(np.hypot(*tang), 1e-9)
    perp = np.array([-tang[1], tang[0]])
    blades = []
    for spread in (-0.55, 0.0, 0.55) if rng.random() < 0.6 else (-0.4, 0.4):
        d = tang + perp * spread * rng.uniform(0.8, 1.2)
        d = d / np.hypot(*d)
        q = np.array([-d[1], d[0]])
        ln = 0.46 * rng.uniform(0.85, 1.15)
        tip = end + d * ln
        blades.append(
            np.array(
                [
                    end - d * 0.05 + q * 0.05,
                    tip + q * 0.08,
                    tip + d * 0.04,
                    tip - q * 0.08,
                    end - d * 0.05 - q * 0.05,
                ]
            )
        )
    m = pr.fill(body, GOLD, radial=(OCHRE, 0.85), grain=1.1)
    # Crumbs of fried batter: flecks of pale gold and brown cut into the block.
    pr.specks((cx, cy - 0.2), (0.75, 0.5), 20, 0.08, 0.035, GOLD_PALE, clip=m)
    pr.specks((cx, cy - 0.2), (0.75, 0.5), 14, 0.07, 0.03, BROWN, clip=m)
    pr.outline(body, 0.055)
    for b in blades:
        pr.fill(b, VERMILION, fade=((-tang[0], -tang[1]), VERMILION_DEEP, 0.8), grain=0.6)
    pr.strokes([np.concatenate([b, b[:1]]) for b in blades], 0.03, taper=0.15)

    # Segment creases across the curl.
    creases = []
    for u in np.linspace(0.28, 0.78, int(rng.integers(3, 5))):
        i = int(u * (len(spine) - 1))
        half = thick[i] * 0.38
        creases.append(np.array([spine[i] + nrm[i] * half, spine[i] - nrm[i] * half * 0.2]))
    pr.strokes(creases, 0.03, taper=0.4)


def _sashimi(pr: _Print) -> None:
    rng = pr.rng
    lean = rng.uniform(-0.35, -0.1) * (1 if rng.random() < 0.7 else -1)
    gap = 0.62 * rng.uniform(0.92, 1.06)
    y_base = rng.uniform(-0.05, 0.08)
    if rng.random() < 0.5:
        # Sometimes they rest on a narrow lacquer tray.
        tray = _superellipse(0.0, 0.78, 1.18, 0.14, 6)
        pr.fill(tray, LACQUER, fade=((0, 1), INK, 0.6), grain=1.4)
        pr.outline(tray, 0.04)
    for i in (-1, 0, 1):
        x = i * gap + rng.uniform(-0.04, 0.04)
        h = 0.72 * rng.uniform(0.9, 1.08)
        w = 0.3 * rng.uniform(0.9, 1.1)
        ca, sa = math.cos(lean), math.sin(lean)
        # A slice is a thick, soft-cornered slab standing slightly tilted on its cut side.
        core = _superellipse(0.0, 0.0, w, h, 3.2, 56)
        core[:, 0] += 0.1 * np.sin(core[:, 1] / h * math.pi / 2)  # a gentle S of knife cut
        rot = np.array([[ca, -sa], [sa, ca]])
        slab = core @ rot.T + np.array([x, y_base + rng.uniform(-0.05, 0.05)])
        slab = _wobble(slab, rng, 0.012)
        m = pr.fill(slab, PINK, fade=((sa, -ca), PINK_PALE, 0.8), grain=1.0)
        # Fat lines: pale curving bands running across the grain of the flesh.
        bands = []
        for v in np.linspace(-0.55, 0.55, int(rng.integers(3, 5))):
            u = np.linspace(-1.2, 1.2, 12)
            local = np.stack(
                [u * w, (v + 0.22 * u + rng.uniform(-0.05, 0.05)) * h + 0.05 * np.sin(u * 3)], 1
            )
            bands.append(local @ rot.T + slab.mean(axis=0))
        pr.strokes(bands, 0.045, colour=PAPER, taper=0.35, clip=m)
        pr.outline(slab, 0.05)


def _dumpling(pr: _Print) -> None:
    rng = pr.rng
    w = 1.08 * rng.uniform(0.93, 1.05)
    top = -0.62 * rng.uniform(0.9, 1.1)
    base = 0.45
    # A half-moon: a flat-ish belly below, a high arch above crimped into pleats.
    t = np.linspace(0, math.pi, 60)
    pleats = int(rng.integers(5, 8))
    arch = np.stack([-w * np.cos(t), base + (top - base) * np.sin(t) ** 0.8], axis=1)
    # Pinched pleats make the seam a row of scallops, deepest at the crown.
    crimp = 0.08 * np.abs(np.sin(t * pleats)) ** 0.6 * np.sin(t) ** 0.7
    arch[:, 1] -= crimp
    belly_t = np.linspace(0, 1, 24)[1:-1]
    belly = np.stack(
        [
            w * (1 - 2 * belly_t),
            base + 0.1 * np.sin(belly_t * math.pi) + 0.02 * np.sin(belly_t * 9),
        ],
        axis=1,
    )
    shape = np.concatenate([arch, belly])
    shape = _wobble(shape, rng, 0.012)
    m = pr.fill(shape, PAPER, fade=((0, 1), OCHRE, 0.35), grain=0.9)
    # A pale indigo shade along the top gives the skin its thickness.
    ridge = np.concatenate(
        [arch[8:-8], (arch[8:-8] + np.array([0, 0.16 * rng.uniform(0.8, 1.2)]))[::-1]]
    )
    pr.fill(ridge, INDIGO_PALE, fade=((0, 1), PAPER, 0.9), grain=0.5, clip=m)
    pr.outline(shape, 0.06)
    # Pleat folds: tapered strokes from each notch of the seam, fanning toward the belly.
    folds = []
    focus = np.array([rng.uniform(-0.1, 0.1), base + 0.35])
    for k in range(1, pleats):
        tk = k * math.pi / pleats
        start = np.array([-w * math.cos(tk), base + (top - base) * math.sin(tk) ** 0.8])
        d = focus - start
        ln = 0.42 * rng.uniform(0.85, 1.15) * math.sin(tk) ** 0.6
        d = d / np.hypot(*d) * ln
        u = np.linspace(0, 1, 8)[:, None]
        bend = np.array([-d[1], d[0]]) * 0.12
        folds.append(start + d * u + bend * np.sin(u * math.pi))
    pr.strokes(folds, 0.045, taper=0.45)


def _maki_roll(pr: _Print, x: float, y: float, r: float) -> None:
    rng = pr.rng
    # The roll's side shows as a darker crescent below: a short cylinder seen from the front.
    depth = np.array([rng.uniform(-0.05, 0.08), rng.uniform(0.12, 0.2)]) * r
    side = _wobble(_ellipse(x + depth[0], y + depth[1], r, r * 0.97), rng, 0.015 * r)
    pr.fill(side, NORI_DEEP, grain=1.2)
    pr.outline(side, 0.05)
    face = _wobble(_ellipse(x, y, r, r * rng.uniform(0.94, 1.0)), rng, 0.02 * r)
    pr.fill(face, NORI, fade=((-1, 1), NORI_DEEP, 0.6), grain=1.6)
    rice = _wobble(_ellipse(x, y, r * 0.79, r * 0.77), rng, 0.035 * r)
    m = pr.fill(rice, PAPER, fade=((1, 1), PAPER_SHADE, 0.7), grain=0.8)
    pr.specks((x, y), (0.55 * r, 0.55 * r), 12, 0.14 * r, 0.05 * r, SUMI, clip=m)
    heart = _wobble(
        _ellipse(
            x + rng.uniform(-0.06, 0.06) * r,
            y + rng.uniform(-0.06, 0.06) * r,
            r * 0.3 * rng.uniform(0.85, 1.1),
            r * 0.27 * rng.uniform(0.85, 1.1),
            32,
        ),
        rng,
        0.05 * r,
    )
    pr.fill(heart, VERMILION, radial=(VERMILION_DEEP, 0.7), grain=0.6)
    pr.outline(heart, 0.035)
    pr.strokes([rice], 0.03, closed=True, press=0.5)
    pr.outline(face, 0.06)


def _maki(count: int) -> Callable[[_Print], None]:
    def draw(pr: _Print) -> None:
        rng = pr.rng
        j = 0.05
        if count == 1:
            spots = [(0.0, -0.05, 0.82)]
        elif count == 2:
            if rng.random() < 0.5:
                spots = [(-0.6, 0.0, 0.56), (0.6, 0.0, 0.56)]
            else:
                spots = [(-0.5, 0.3, 0.56), (0.52, -0.32, 0.56)]
        else:
            pick = rng.random()
            if pick < 0.4:
                # A pile: two on the bottom, one resting between them.
                spots = [(-0.52, 0.38, 0.5), (0.52, 0.38, 0.5), (0.0, -0.5, 0.5)]
            elif pick < 0.7:
                spots = [(-0.78, 0.45, 0.42), (0.0, 0.0, 0.42), (0.78, -0.45, 0.42)]
            else:
                spots = [(-0.8, 0.0, 0.38), (0.0, 0.0, 0.38), (0.8, 0.0, 0.38)]
        if rng.random() < 0.5:
            spots = [(-x, y, r) for x, y, r in spots]
        # Back to front, so nearer rolls (lower on the card) overlap those behind.
        for x, y, r in sorted(spots, key=lambda q: q[1]):
            _maki_roll(
                pr, x + rng.uniform(-j, j), y + rng.uniform(-j, j), r * rng.uniform(0.95, 1.05)
            )

    return draw


def _rice(pr: _Print) -> tuple[np.ndarray, float]:
    """A block of nigiri rice; returns its outline and the y of its top in the middle."""
    rng = pr.rng
    a = 0.92 * rng.uniform(0.95, 1.05)
    b = 0.34 * rng.uniform(0.92, 1.08)
    cy = 0.4
    block = _wobble(_bend(_superellipse(0.0, cy, a, b, 3.0), a, 0.08), rng, 0.015)
    m = pr.fill(block, PAPER, fade=((0, 1), PAPER_SHADE, 0.8), grain=0.8)
    pr.specks((0.0, cy + 0.08), (a * 0.85, b * 0.6), 22, 0.09, 0.03, SUMI, clip=m)
    pr.outline(block, 0.055)
    return block, cy - b - 0.08


def _topping(pr: _Print, rice_top: float, thick: float, arch: float) -> np.ndarray:
    rng = pr.rng
    a = 1.05 * rng.uniform(0.95, 1.04)
    cy = rice_top - thick * 0.45
    slab = _superellipse(0.0, cy, a, thick, 4.5)
    # The ends drape down over the rice; the middle rides high.
    slab = _bend(slab, a, arch)
    slab[:, 1] += 0.1 * (np.abs(slab[:, 0]) / a) ** 3
    return _wobble(slab, rng, 0.012)


def _egg(pr: _Print) -> None:
    rng = pr.rng
    _, top = _rice(pr)
    slab = _topping(pr, top, 0.3 * rng.uniform(0.9, 1.1), 0.08)
    m = pr.fill(slab, EGG, fade=((0, -1), EGG_EDGE, 0.75), grain=1.3)
    # The layers of a rolled omelette, seen on its cut face.
    ys = slab[:, 1]
    layers = []
    for f in (0.35, 0.62):
        y = ys.min() + f * (ys.max() - ys.min())
        u = np.linspace(-1.1, 1.1, 14)
        layers.append(np.stack([u, y + 0.03 * np.sin(u * 2.5 + rng.uniform(0, 6))], axis=1))
    pr.strokes(layers, 0.03, colour=EGG_EDGE, taper=0.3, clip=m)
    pr.outline(slab, 0.055)
    # The nori belt wraps omelette and rice together.
    bx = rng.uniform(-0.18, 0.18)
    bw = 0.2 * rng.uniform(0.85, 1.15)
    y0, y1 = ys.min() - 0.05, 0.82
    belt = np.array(
        [
            [bx - bw, y0 + 0.02],
            [bx, y0 - 0.01],
            [bx + bw, y0 + 0.02],
            [bx + bw * 1.04, (y0 + y1) / 2],
            [bx + bw, y1],
            [bx, y1 + 0.03],
            [bx - bw, y1],
            [bx - bw * 1.04, (y0 + y1) / 2],
        ]
    )
    pr.fill(belt, NORI, fade=((1, 0), NORI_DEEP, 0.7), grain=1.8)
    pr.outline(belt, 0.045, press=0.3)


def _salmon(pr: _Print) -> None:
    rng = pr.rng
    _, top = _rice(pr)
    slab = _topping(pr, top, 0.3 * rng.uniform(0.9, 1.1), 0.12)
    m = pr.fill(slab, SALMON, fade=((0, 1), SALMON_PALE, 0.6), grain=1.1)
    # The white fat stripes run diagonally across the slice.
    slope = rng.uniform(0.5, 0.9) * (1 if rng.random() < 0.5 else -1)
    count = int(rng.integers(5, 7))
    stripes = []
    for x in np.linspace(-1.0, 1.0, count) + rng.uniform(-0.08, 0.08):
        v = np.linspace(-0.5, 0.5, 8)
        stripes.append(np.stack([x + slope * v * 0.6 + 0.03 * np.sin(v * 6), top - 0.2 + v], 1))
    pr.strokes(stripes, 0.06, colour=PAPER, taper=0.2, press=0.3, clip=m)
    pr.outline(slab, 0.055)


def _squid(pr: _Print) -> None:
    rng = pr.rng
    _, top = _rice(pr)
    slab = _topping(pr, top, 0.27 * rng.uniform(0.9, 1.1), 0.1)
    side = 1 if rng.random() < 0.5 else -1
    m = pr.fill(slab, SQUID, fade=((side, -0.3), SQUID_PINK, 0.9), grain=0.7)
    # Scored criss-cross cuts, as a sushi chef scores squid so it can be bitten through.
    cuts = []
    for x in np.linspace(-1.0, 1.0, 9) + rng.uniform(-0.05, 0.05):
        cuts.append(np.array([[x - 0.14, top - 0.45], [x + 0.14, top + 0.1]]))
    for x in np.linspace(-1.0, 1.0, 9) + rng.uniform(-0.05, 0.05):
        cuts.append(np.array([[x + 0.14, top - 0.45], [x - 0.14, top + 0.1]]))
    pr.strokes(cuts, 0.018, colour=SQUID_PINK, taper=0.3, clip=m)
    pr.outline(slab, 0.05)


def _wasabi(pr: _Print) -> None:
    rng = pr.rng
    dy = rng.uniform(0.42, 0.52)
    rx, ry = 0.98 * rng.uniform(0.93, 1.05), 0.34 * rng.uniform(0.9, 1.1)
    _plate(pr, 0.0, dy, rx, ry)
    # A grated mound: a soft dome pinched up into a little peak, as it is served.
    h = 0.95 * rng.uniform(0.9, 1.08)
    half = 0.62 * rng.uniform(0.9, 1.1)
    lean = rng.uniform(-0.12, 0.12)
    u = np.linspace(-1, 1, 48)
    rise = 0.8 * (1 - np.abs(u) ** 2.2) ** 0.6 + 0.2 * np.exp(-((u / 0.2) ** 2))
    top = np.stack([u * half + lean * rise**3, dy - h * rise], axis=1)
    v = np.linspace(1, -1, 14)[1:-1]
    bottom = np.stack([v * half, dy + 0.07 * np.sqrt(1 - v**2)], axis=1)
    mound = _wobble(np.concatenate([top, bottom]), rng, 0.018)
    m = pr.fill(mound, WASABI, fade=((0, -1), WASABI_PALE, 0.85), grain=1.0)
    pr.specks(
        (lean * 0.3, dy - h * 0.4), (half * 0.6, h * 0.3), 16, 0.06, 0.025, WASABI_DEEP, clip=m
    )
    pr.outline(mound, 0.055)
    # Folds of the pinched peak, running down the shoulders inside the outline.
    folds = []
    for side in (-1, 1):
        lo, hi = sorted((side * rng.uniform(0.05, 0.12), side * rng.uniform(0.5, 0.7)))
        w = np.linspace(lo, hi, 10)
        r = 0.8 * (1 - np.abs(w) ** 2.2) ** 0.6 + 0.2 * np.exp(-((w / 0.2) ** 2))
        inset = rng.uniform(0.12, 0.2)
        folds.append(np.stack([w * half * 0.8 + lean * r**3, dy - h * r + inset], axis=1))
    pr.strokes(folds, 0.035, taper=0.45)


def _pudding(pr: _Print) -> None:
    rng = pr.rng
    rim_y = 0.0 + rng.uniform(-0.05, 0.05)
    top_w, bot_w = 0.82 * rng.uniform(0.95, 1.05), 0.6 * rng.uniform(0.95, 1.05)
    foot = 0.95
    # The pudding stands above the cup's rim: custard sides, a caramel cap dripping down.
    p_top = rim_y - 0.72 * rng.uniform(0.9, 1.08)
    p_tw, p_bw = 0.5 * rng.uniform(0.92, 1.08), top_w * 0.88
    custard = np.concatenate(
        [
            _ellipse(0.0, p_top, p_tw, 0.12, 24, math.pi, 2 * math.pi),
            _ellipse(0.0, rim_y, p_bw, 0.16, 24, 0.0, math.pi),
        ]
    )
    m = pr.fill(custard, CUSTARD, fade=((0, -1), GOLD_PALE, 0.5), grain=0.9)
    # The cap's lower edge hangs in uneven lobes; thin runs of syrup reach further down.
    cap = np.concatenate(
        [
            _ellipse(0.0, p_top, p_tw * 1.04, 0.14, 26, math.pi, 2 * math.pi),
            _ellipse(0.0, p_top, p_tw * 1.04, 0.14, 26, 0.0, math.pi),
        ]
    )
    lobes = np.abs(np.sin(np.linspace(0, rng.uniform(6, 9), 26) + rng.uniform(0, 3)))
    cap[26:, 1] += 0.05 + 0.05 * lobes
    drips = []
    for _ in range(int(rng.integers(3, 6))):
        x = rng.uniform(-0.85, 0.85) * p_tw
        ln = rng.uniform(0.15, 0.38)
        v = np.linspace(0, 1, 6)
        drips.append(np.stack([x * (1 + 0.2 * v), p_top + 0.05 + (ln - 0.05) * v], axis=1))
    pr.fill(cap, CARAMEL, fade=((0, 1), BROWN, 0.8), grain=1.2)
    pr.strokes(drips, 0.07, colour=CARAMEL, taper=0.6, press=0.2, clip=m)
    pr.outline(custard, 0.05)
    pr.strokes([cap[26:]], 0.03, taper=0.2)

    cup = np.concatenate(
        [
            np.array([[-top_w, rim_y], [top_w, rim_y]]),
            np.stack([np.linspace(top_w, bot_w, 10), np.linspace(rim_y, foot - 0.1, 10)], 1)[1:],
            _ellipse(0.0, foot - 0.1, bot_w, 0.1, 16, 0.0, math.pi)[1:-1],
            np.stack([np.linspace(-bot_w, -top_w, 10), np.linspace(foot - 0.1, rim_y, 10)], 1)[:-1],
        ]
    )
    cup = _wobble(cup, rng, 0.01)
    m = pr.fill(cup, INDIGO, fade=((1, 0.3), INDIGO_PALE, 0.8), grain=1.3)
    # A paper-white band round the cup with an indigo wave pattern, like sometsuke ware.
    band_y = rim_y + 0.32 * rng.uniform(0.9, 1.1)
    band = np.array(
        [[-1.2, band_y - 0.1], [1.2, band_y - 0.1], [1.2, band_y + 0.1], [-1.2, band_y + 0.1]]
    )
    pr.fill(band, PAPER, grain=0.6, clip=m)
    u = np.linspace(-1.0, 1.0, 40)
    pr.strokes(
        [np.stack([u, band_y + 0.045 * np.sin(u * 14 + rng.uniform(0, 6))], 1)],
        0.025,
        colour=INDIGO,
        taper=0.1,
        clip=m,
    )
    rim = _ellipse(0.0, rim_y, top_w, 0.1, 40)
    pr.outline(cup, 0.055)
    pr.strokes([rim[: len(rim) // 2 + 1]], 0.04, taper=0.1)


def _chopsticks(pr: _Print) -> None:
    rng = pr.rng
    palette = [
        (VERMILION, VERMILION_DEEP, INK),
        (OCHRE, BROWN, VERMILION),
        (LACQUER, INK, GOLD),
    ][int(rng.integers(3))]
    cross = np.array([rng.uniform(-0.15, 0.15), rng.uniform(-0.15, 0.1)])
    spread = math.radians(rng.uniform(45, 75))
    turn = math.radians(rng.uniform(-15, 15))
    order = (-1, 1) if rng.random() < 0.5 else (1, -1)
    for side in order:
        a = turn + side * spread / 2
        d = np.array([math.cos(a), math.sin(a)])
        q = np.array([-d[1], d[0]])
        ln = 2.3 * rng.uniform(0.93, 1.04)
        # The thick end sits past the crossing; the tips reach further the other way.
        start = cross - d * ln * rng.uniform(0.38, 0.5)
        end = start + d * ln
        wb, wt = 0.085 * rng.uniform(0.9, 1.1), 0.035
        stick = np.array(
            [start + q * wb, end + q * wt, end + d * 0.02, end - q * wt, start - q * wb]
        )
        pr.fill(stick, palette[0], fade=((d[0], d[1]), palette[1], 0.7), grain=1.2)
        # A decorative band near the top, printed from its own block.
        b0 = start + d * ln * 0.12
        b1 = start + d * ln * 0.22
        band = np.array([b0 + q * wb, b1 + q * wb * 0.93, b1 - q * wb * 0.93, b0 - q * wb])
        pr.fill(band, palette[2], grain=0.6)
        pr.outline(stick, 0.04, press=0.5)


def _printed(draw: Callable[[_Print], None]) -> Illustrate:
    def illustrate(
        img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator
    ) -> None:
        pr = _Print(img, cx, cy, s, rng)
        if pr.empty:
            return
        draw(pr)
        pr.commit(img)

    return illustrate


WOODBLOCK_ILLUSTRATIONS: dict[str, Illustrate] = {
    "tempura": _printed(_tempura),
    "sashimi": _printed(_sashimi),
    "dumpling": _printed(_dumpling),
    "maki_1": _printed(_maki(1)),
    "maki_2": _printed(_maki(2)),
    "maki_3": _printed(_maki(3)),
    "egg": _printed(_egg),
    "salmon": _printed(_salmon),
    "squid": _printed(_squid),
    "wasabi": _printed(_wasabi),
    "pudding": _printed(_pudding),
    "chopsticks": _printed(_chopsticks),
}
