"""A fifth renderer's card illustrations ("riso"), drawn like a two- or three-colour risograph.

These drawings measured how well the detector carries over to card art it never saw, and were
held out of training for seven sessions; since the eighth they are training art (`--art hands`,
`datasets.commands.TRAINED_HAND_ART`). They follow card-spec.md's written description of each
illustration, drawn independently of the project's other renderers.

Each shape is printed as a flat spot ink from a small palette. Every ink has its own drum, so
its layer is misregistered by a few percent of s against the key line; inks overprint by
multiplying, tints are halftone dots, and solids carry the grain of uneven ink. Light shapes are
knocked out of the face's flood colour to the paper, so inks printed over them keep their hue.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from datasets.faces import Illustrate

RGB = tuple[int, int, int]

PAPER: RGB = (250, 247, 238)
KEY: RGB = (40, 36, 56)
NORI: RGB = (30, 50, 40)
RICE_GRAIN: RGB = (205, 204, 196)
INDIGO: RGB = (60, 84, 160)
GOLDEN: RGB = (240, 172, 52)
CRUST: RGB = (190, 100, 30)
SHRIMP_RED: RGB = (236, 84, 50)
FISH_PINK: RGB = (242, 128, 146)
FISH_DEEP: RGB = (200, 50, 80)
BLUE_GREY: RGB = (150, 170, 205)
MAKI_CENTRE: RGB = (240, 92, 40)
EGG: RGB = (255, 224, 92)
EGG_BROWN: RGB = (214, 130, 40)
SALMON: RGB = (246, 124, 58)
SALMON_DEEP: RGB = (220, 70, 40)
SQUID: RGB = (250, 222, 224)
SQUID_PINK: RGB = (232, 150, 170)
WASABI: RGB = (136, 190, 60)
WASABI_DEEP: RGB = (60, 120, 40)
CUSTARD: RGB = (252, 214, 110)
CARAMEL: RGB = (150, 78, 30)
GLASS: RGB = (170, 205, 225)
WOOD: RGB = (214, 156, 90)
LACQUER: RGB = (180, 36, 48)

_SHIFT = 4  # cv2 fixed-point bits, so small faces still get sub-pixel shapes
_SCALE = 1 << _SHIFT


def _ellipse(
    x: float, y: float, ax: float, ay: float, ang: float = 0.0, t0: float = 0, t1: float = 360
) -> np.ndarray:
    """Points on an ellipse (or an arc of it), in units of s around the centre."""
    t = np.radians(np.linspace(t0, t1, 64))
    c, sn = math.cos(math.radians(ang)), math.sin(math.radians(ang))
    ex, ey = ax * np.cos(t), ay * np.sin(t)
    return np.stack([x + ex * c - ey * sn, y + ex * sn + ey * c], axis=1)


def _poly(*pts: tuple[float, float]) -> np.ndarray:
    return np.array(pts, float)


def _smooth(pts: np.ndarray, rounds: int = 3, closed: bool = True) -> np.ndarray:
    """Chaikin corner cutting: a control polygon into a soft hand-cut stencil shape."""
    for _ in range(rounds):
        nxt = np.roll(pts, -1, axis=0) if closed else pts[1:]
        cur = pts if closed else pts[:-1]
        cut = np.empty((2 * len(cur), 2))
        cut[0::2] = 0.75 * cur + 0.25 * nxt
        cut[1::2] = 0.25 * cur + 0.75 * nxt
        pts = cut if closed else np.vstack([pts[:1], cut, pts[-1:]])
    return pts


def _rounded_rect(x0: float, y0: float, x1: float, y1: float, r: float) -> np.ndarray:
    corners = (
        (x1 - r, y1 - r, 0),
        (x0 + r, y1 - r, 90),
        (x0 + r, y0 + r, 180),
        (x1 - r, y0 + r, 270),
    )
    return np.vstack([_ellipse(x, y, r, r, 0, a, a + 90)[::4] for x, y, a in corners])


def _tube(spine: np.ndarray, radii: np.ndarray) -> np.ndarray:
    """A closed, round-ended outline around a spine with a radius at each of its points."""
    d = np.gradient(spine, axis=0)
    d /= np.linalg.norm(d, axis=1, keepdims=True)
    n = np.stack([-d[:, 1], d[:, 0]], axis=1)
    th = np.linspace(0, math.pi, 12)[:, None]
    left, right = spine + n * radii[:, None], spine - n * radii[:, None]
    tip = spine[-1] + radii[-1] * (n[-1] * np.cos(th) + d[-1] * np.sin(th))
    root = spine[0] - radii[0] * (n[0] * np.cos(th) + d[0] * np.sin(th))
    return np.vstack([left, tip, right[::-1], root])


class _Plate:
    """One ink's stencil: shapes drawn into a coverage mask, printed later with that ink."""

    def __init__(self, press: _Press, colour: RGB, tone: float, knock: bool) -> None:
        self.press, self.colour, self.tone, self.knock = press, colour, tone, knock
        self.mask = np.zeros(press.shape, np.uint8)
        self.offset = press.registration(colour)

    def fill(self, *shapes: np.ndarray, erase: bool = False) -> _Plate:
        for pts in shapes:
            cv2.fillPoly(
                self.mask,
                [self.press.px(pts, self.offset)],
                0 if erase else 255,
                cv2.LINE_AA,
                _SHIFT,
            )
        return self

    def stroke(
        self, *lines: np.ndarray, width: float = 0.045, closed: bool = False, erase: bool = False
    ) -> _Plate:
        px = max(1, round(width * self.press.s))
        cv2.polylines(
            self.mask,
            [self.press.px(p, self.offset) for p in lines],
            closed,
            0 if erase else 255,
            px,
            cv2.LINE_AA,
            _SHIFT,
        )
        return self


class _Press:
    """The illustration's zone of the face, printed plate by plate in the order plates were made.

    Shapes are given in units of s around the illustration's centre; the press turns and
    mirrors the whole composition a little per card.
    """

    def __init__(
        self, img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator
    ) -> None:
        h, w = img.shape[:2]
        x0, x1 = max(0, math.ceil(cx - 1.5 * s)), min(w, math.floor(cx + 1.5 * s))
        y0, y1 = max(0, math.ceil(cy - 1.3 * s)), min(h, math.floor(cy + 1.3 * s))
        self.img, self.window = img, (slice(y0, y1), slice(x0, x1))
        self.shape = (y1 - y0, x1 - x0)
        self.out = img[self.window].astype(np.float32) / 255
        self.s, self.rng = s, rng
        self.centre = (
            cx - x0 + rng.uniform(-0.03, 0.03) * s,
            cy - y0 + rng.uniform(-0.03, 0.03) * s,
        )
        turn = math.radians(rng.uniform(-5, 5))
        flip = -1.0 if rng.random() < 0.5 else 1.0
        self.matrix = s * np.array(
            [[flip * math.cos(turn), -math.sin(turn)], [flip * math.sin(turn), math.cos(turn)]]
        )
        self.inks: dict[RGB, tuple[np.ndarray, np.ndarray, float]] = {}
        self.plates: list[_Plate] = []
        self.grain = rng.random((self.shape[0] + 64, self.shape[1] + 64), dtype=np.float32)
        blotch = rng.normal(0, 1, (self.shape[0] // 12 + 2, self.shape[1] // 12 + 2))
        self.blotch = np.asarray(
            cv2.resize(
                blotch.astype(np.float32),
                (self.shape[1], self.shape[0]),
                interpolation=cv2.INTER_CUBIC,
            )
        )
        self.period = max(3.0, 0.075 * s)

    def registration(self, colour: RGB) -> np.ndarray:
        """Each ink's drum sits a little off the key line, the same way for all its shapes."""
        if colour not in self.inks:
            if colour == KEY:
                shift = np.zeros(2)
            else:
                a, r = self.rng.uniform(0, 2 * math.pi), self.rng.uniform(0.015, 0.045)
                shift = r * np.array([math.cos(a), math.sin(a)])
            tint = np.clip(np.array(colour[::-1]) + self.rng.integers(-6, 7, 3), 0, 255) / 255
            angle = math.radians(self.rng.choice([15.0, 45.0, 75.0]) + self.rng.uniform(-5, 5))
            self.inks[colour] = (shift, tint.astype(np.float32), angle)
        return self.inks[colour][0]

    def px(self, pts: np.ndarray, offset: np.ndarray) -> np.ndarray:
        xy = pts @ self.matrix.T + np.asarray(self.centre) + offset * self.s
        return np.round(xy * _SCALE).astype(np.int32)

    def plate(self, colour: RGB, tone: float = 1.0, knock: bool = False) -> _Plate:
        plate = _Plate(self, colour, tone, knock)
        self.plates.append(plate)
        return plate

    def _screen(self, box: tuple[slice, slice], tone: float, angle: float) -> np.ndarray:
        """Halftone dots covering a `tone` fraction of the box, on a screen turned by `angle`."""
        yy, xx = np.mgrid[box].astype(np.float32)
        k = 2 * math.pi / self.period
        u = (xx * math.cos(angle) + yy * math.sin(angle)) * k
        v = (yy * math.cos(angle) - xx * math.sin(angle)) * k
        dots = 0.5 + 0.25 * (np.cos(u) + np.cos(v))
        return np.clip((dots - (1 - tone)) * 4 + 0.5, 0, 1)

    def finish(self) -> None:
        out = self.out
        for plate in self.plates:
            ys, xs = np.nonzero(plate.mask)
            if len(ys) == 0:
                continue
            box = (slice(ys.min(), ys.max() + 1), slice(xs.min(), xs.max() + 1))
            cover = plate.mask[box].astype(np.float32) / 255
            _, ink, angle = self.inks[plate.colour]
            if plate.tone < 0.95:
                cover *= self._screen(box, plate.tone, angle)
            # Uneven ink: blotchy density, plus specks where the drum left paper bare.
            dy, dx = (int(v) for v in self.rng.integers(0, 64, 2))
            grain = self.grain[
                box[0].start + dy : box[0].stop + dy, box[1].start + dx : box[1].stop + dx
            ]
            if plate.knock:  # a knockout is bare paper: solid but for the odd speck
                cover *= np.where(grain < 0.015, 0.5, 1.0)
            else:
                density = np.clip(0.9 + 0.07 * self.blotch[box], 0.75, 1) * (0.88 + 0.12 * grain)
                cover *= np.where(grain < 0.03, 0.35, density)
            a = cover[..., None]
            if plate.knock:
                out[box] += a * (ink - out[box])
            else:
                out[box] *= 1 - a * (1 - ink)
        self.img[self.window] = np.clip(np.rint(out * 255), 0, 255).astype(np.uint8)


def _shadow(p: _Press, x: float, y: float, ax: float, ay: float) -> None:
    p.plate(KEY, tone=0.4).fill(_ellipse(x, y, ax, ay))


def _rice(p: _Press, rng: np.random.Generator) -> None:
    """A nigiri's rice bed, knocked out to the paper, with a scatter of grains. Its key line
    is printed before the topping so that the topping's knockout hides it."""
    bed = _smooth(_rounded_rect(-1.0, 0.05, 1.0, 0.75, 0.3), 1)
    grains = [
        _ellipse(x, y, 0.05, 0.018, a)
        for x, y, a in rng.uniform((-0.85, 0.3, -50), (0.85, 0.65, 50), (16, 3))
    ]
    p.plate(PAPER, knock=True).fill(bed)
    p.plate(RICE_GRAIN).stroke(*grains, width=0.015, closed=True)
    p.plate(KEY).stroke(bed, closed=True)


def _place(pts: np.ndarray, x: float, y: float, deg: float) -> np.ndarray:
    """Shape `pts`, turned by `deg` and moved to (x, y)."""
    c, sn = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return pts @ np.array([[c, sn], [-sn, c]]) + (x, y)


def _dir(deg: float) -> np.ndarray:
    return np.array([math.cos(math.radians(deg)), math.sin(math.radians(deg))])


def _draw_tempura(
    img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator
) -> None:
    p = _Press(img, cx, cy, s, rng)
    _shadow(p, 0.08, 0.74, 1.25, 0.34)
    dish = _ellipse(0, 0.62, 1.25, 0.36)
    p.plate(PAPER, knock=True).fill(dish)
    p.plate(INDIGO, tone=0.45).fill(dish).fill(_ellipse(0, 0.59, 1.0, 0.24), erase=True)
    p.plate(KEY).stroke(dish, closed=True)
    # A C-curled shrimp: its thick end lies on the dish, the body curls up to a fanned tail.
    t = np.radians(np.linspace(70, 70 + rng.uniform(195, 225), 40))
    spine = np.stack([0.68 * np.cos(t), 0.52 * np.sin(t) - 0.08], axis=1)
    radii = np.linspace(0.3, 0.1, 40) * (1 + 0.09 * np.abs(np.sin(np.linspace(0, 40, 40))))
    body = _tube(spine, radii)
    end, ahead = spine[-1], spine[-1] - spine[-3]
    ang = math.degrees(math.atan2(ahead[1], ahead[0]))
    tail = np.array(
        [end + r * _dir(ang + da) for r, da in ((-0.04, 0), (0.42, -40), (0.28, -6), (0.42, 32))]
    )
    crumbs = []
    for i in rng.integers(0, 36, 14):
        x, y = spine[i] + rng.uniform(-0.5, 0.5, 2) * radii[i]
        crumbs.append(_ellipse(x, y, 0.035, 0.035))
    p.plate(PAPER, knock=True).fill(tail, body)
    p.plate(SHRIMP_RED).fill(tail)
    p.plate(GOLDEN).fill(body)
    p.plate(CRUST, tone=0.3).fill(body)
    p.plate(CRUST).fill(*crumbs)
    p.plate(KEY).stroke(tail, body, closed=True)
    p.finish()


def _draw_sashimi(
    img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator
) -> None:
    p = _Press(img, cx, cy, s, rng)
    p.plate(KEY, tone=0.25).fill(_rounded_rect(-1.3, 0.38, 1.3, 0.8, 0.06))
    lean = rng.uniform(-18, -8)
    slab = _rounded_rect(-0.27, -0.56, 0.27, 0.56, 0.13)
    cut = _rounded_rect(-0.27, 0.22, 0.27, 0.56, 0.13)
    spots = [
        (x + rng.uniform(-0.04, 0.04), -0.05, lean + rng.uniform(-2, 2)) for x in (-0.72, 0, 0.72)
    ]
    slices = [_place(slab, *at) for at in spots]
    stripes = [
        _place(_smooth(_poly((-0.2, y), (0.0, y - 0.07), (0.2, y - 0.02)), 2, closed=False), *at)
        for at in spots
        for y in (-0.3, -0.08, 0.14)
    ]
    p.plate(PAPER, knock=True).fill(*slices)
    p.plate(FISH_PINK).fill(*slices).stroke(*stripes, width=0.04, erase=True)
    p.plate(FISH_DEEP, tone=0.4).fill(*(_place(cut, *at) for at in spots))
    p.plate(KEY).stroke(*slices, closed=True)
    p.finish()


def _draw_dumpling(
    img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator
) -> None:
    p = _Press(img, cx, cy, s, rng)
    _shadow(p, 0.08, 0.62, 1.1, 0.16)
    # Side view: a plump half-moon with a crimped ridge along its arch, folded one way.
    t = np.radians(np.linspace(180, 360, 61))
    rx, ry, base = 0.98, rng.uniform(0.72, 0.8), 0.35
    seam = np.stack([rx * np.cos(t), base + ry * np.sin(t)], axis=1)
    k, phase = 9.0, rng.uniform(0, math.pi)
    lift = 0.1 + 0.06 * np.abs(np.sin(k * t + phase))
    crest = np.stack([(rx + lift) * np.cos(t), base + (ry + lift) * np.sin(t)], axis=1)
    bottom = _ellipse(0, base, rx, 0.16, 0, 0, 180)
    body = _smooth(np.vstack([seam, bottom]), 1)
    ridge = np.vstack([crest, seam[::-1]])
    belly = np.vstack([_ellipse(0, base - 0.02, rx, 0.1, 0, 180, 360), bottom])
    folds = []
    for m in range(9, 30):
        valley = (m * math.pi - phase) / k  # where the crimping dips to the seam
        if math.pi + 0.25 < valley < 2 * math.pi - 0.25:
            i = round((valley - math.pi) / math.pi * 60)
            inward = 0.22 * ((0.0, base) - seam[i]) + (0.1, 0.0)
            folds.append(np.stack([crest[i], seam[i], seam[i] + inward]))
    steam = [
        _smooth(_poly((x, -0.72), (x + 0.1, -0.86), (x - 0.05, -0.98), (x + 0.06, -1.12)), 2, False)
        for x in (-0.35, 0.0, 0.35)
    ]
    p.plate(PAPER, knock=True).fill(body, ridge).stroke(*steam, width=0.05)
    p.plate(BLUE_GREY, tone=0.5).fill(belly)
    p.plate(BLUE_GREY, tone=0.3).fill(ridge)
    p.plate(KEY).stroke(body, ridge, closed=True).stroke(*folds, width=0.03)
    p.finish()


def _maki_roll(p: _Press, x: float, y: float, r: float, q: float, rng: np.random.Generator) -> None:
    """A roll seen from a little above: nori round the side, rice and filling on top."""
    depth = 0.22 * r
    can = np.vstack(
        [_ellipse(x, y, r, r * q, 0, 180, 360), _ellipse(x, y + depth, r, r * q, 0, 0, 180)]
    )
    lid = _ellipse(x, y, r, r * q)
    rice = _ellipse(x, y, 0.72 * r, 0.72 * r * q)
    grains = [
        _ellipse(
            x + 0.5 * r * math.cos(a),
            y + 0.5 * r * q * math.sin(a),
            0.07 * r,
            0.025 * r,
            math.degrees(a) + 90,
        )
        for a in rng.uniform(0, 2 * math.pi, 6)
    ]
    fx, fy = rng.uniform(-0.06, 0.06, 2) * r
    p.plate(NORI).fill(can)
    p.plate(KEY, tone=0.3).fill(can).fill(lid, erase=True)
    p.plate(PAPER, knock=True).fill(rice)
    p.plate(RICE_GRAIN).stroke(*grains, width=0.02, closed=True)
    p.plate(MAKI_CENTRE).fill(_ellipse(x + fx, y + fy, 0.27 * r, 0.27 * r * q))
    p.plate(KEY).stroke(can, lid, closed=True).stroke(rice, width=0.025, closed=True)


def _draw_maki(count: int) -> Illustrate:
    layouts = {
        1: [[(0.0, -0.12, 0.75)]],
        2: [
            [(-0.62, -0.08, 0.55), (0.62, -0.08, 0.55)],
            [(-0.5, -0.4, 0.52), (0.5, 0.2, 0.52)],
        ],
        3: [
            [(0.0, -0.5, 0.46), (-0.56, 0.3, 0.46), (0.56, 0.3, 0.46)],
            [(-0.9, -0.05, 0.41), (0.0, -0.05, 0.41), (0.9, -0.05, 0.41)],
        ],
    }

    def draw(img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator) -> None:
        p = _Press(img, cx, cy, s, rng)
        rolls = layouts[count][int(rng.integers(len(layouts[count])))]
        q = rng.uniform(0.72, 0.9)
        p.plate(KEY, tone=0.35).fill(
            *(_ellipse(x + 0.07, y + 0.42 * r, r, r * q) for x, y, r in rolls)
        )
        for x, y, r in rolls:
            _maki_roll(p, x, y, r, q, rng)
        p.finish()

    return draw


def _draw_egg(img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator) -> None:
    p = _Press(img, cx, cy, s, rng)
    _shadow(p, 0.06, 0.8, 1.1, 0.14)
    _rice(p, rng)
    back = rng.uniform(0.85, 0.95)
    lid = _poly((-1.05, -0.3), (1.05, -0.3), (back, -0.62), (-back, -0.62))
    side = _poly((-1.05, -0.3), (1.05, -0.3), (1.05, 0.2), (-1.05, 0.2))
    band = _poly(
        (-0.2, -0.62), (0.2, -0.62), (0.24, -0.3), (0.24, 0.78), (-0.24, 0.78), (-0.24, -0.3)
    )
    layers = [_poly((-1.0, y), (1.0, y)) for y in (-0.15, 0.02)]
    p.plate(PAPER, knock=True).fill(lid, side)
    p.plate(EGG).fill(lid, side)
    p.plate(EGG_BROWN, tone=0.35).fill(side)
    p.plate(EGG_BROWN).stroke(*layers, width=0.03)
    p.plate(NORI).fill(band)
    p.plate(KEY).stroke(lid, side, band, closed=True)
    p.finish()


def _nigiri_topping(thick: float, rng: np.random.Generator) -> np.ndarray:
    """A topping slice draped over the rice bed, overhanging its ends."""
    xs = np.linspace(-1.2, 1.2, 40)
    hump = 1 - (xs / 1.2) ** 2
    tilt = rng.uniform(-0.1, 0.1) * xs
    top = np.stack([xs, -0.12 - thick * hump + tilt], axis=1)
    bottom = np.stack([xs, 0.2 - 0.12 * hump + tilt], axis=1)[::-1]
    return _smooth(np.vstack([top, bottom]), 2)


def _draw_salmon(img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator) -> None:
    p = _Press(img, cx, cy, s, rng)
    _shadow(p, 0.06, 0.8, 1.1, 0.14)
    _rice(p, rng)
    slab = _nigiri_topping(0.42, rng)
    fat = [
        _smooth(_poly((x - 0.2, -0.7), (x + 0.02, -0.15), (x + 0.12, 0.35)), 2, closed=False)
        for x in np.linspace(-0.8, 0.8, 5) + rng.uniform(-0.05, 0.05)
    ]
    p.plate(PAPER, knock=True).fill(slab)
    p.plate(SALMON).fill(slab).stroke(*fat, width=0.07, erase=True)
    p.plate(SALMON_DEEP, tone=0.45).fill(_nigiri_topping(-0.05, rng))
    p.plate(KEY).stroke(slab, closed=True)
    p.finish()


def _draw_squid(img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator) -> None:
    p = _Press(img, cx, cy, s, rng)
    _shadow(p, 0.06, 0.8, 1.1, 0.14)
    _rice(p, rng)
    slab = _nigiri_topping(0.5, rng)
    # Criss-cross knife scoring, only where it lands on the slice.
    inside = slab.astype(np.float32)
    scores = [
        _poly((x - 0.07, y - 0.07 * d), (x + 0.07, y + 0.07 * d))
        for x in np.arange(-0.9, 0.95, 0.22)
        for y in np.arange(-0.5, 0.1, 0.18)
        if cv2.pointPolygonTest(inside, (float(x), float(y)), True) > 0.1
        for d in (-1, 1)
    ]
    p.plate(PAPER, knock=True).fill(slab)
    p.plate(SQUID).fill(slab)
    p.plate(SQUID_PINK, tone=0.3).fill(_nigiri_topping(0.05, rng))
    p.plate(SQUID_PINK).stroke(*scores, width=0.025)
    p.plate(KEY).stroke(slab, closed=True)
    p.finish()


def _draw_wasabi(img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator) -> None:
    p = _Press(img, cx, cy, s, rng)
    _shadow(p, 0.08, 0.62, 1.2, 0.42)
    dish, well = _ellipse(0, 0.5, 1.15, 0.42), _ellipse(0, 0.47, 0.88, 0.3)
    p.plate(PAPER, knock=True).fill(dish)
    p.plate(INDIGO, tone=0.5).fill(dish).fill(well, erase=True)
    p.plate(KEY).stroke(dish, well, closed=True)
    # A soft grated mound, its top twisted into a little curl.
    lean = rng.uniform(-0.12, 0.12)
    mound = _smooth(
        _poly(
            (-0.78, 0.56),
            (-0.74, 0.18),
            (-0.45, -0.12),
            (-0.1 + lean, -0.3),
            (-0.02 + lean, -0.62),
            (0.22 + lean, -0.52),
            (0.3, -0.2),
            (0.66, 0.06),
            (0.8, 0.56),
        )
        + rng.uniform(-0.03, 0.03, (9, 2)),
        3,
    )
    shade = mound.copy()
    shade[:, 0] = np.maximum(shade[:, 0], 0.2)
    gleam = _smooth(_poly((-0.5, 0.15), (-0.4, -0.04), (-0.2, -0.18)), 2, closed=False)
    twist = _smooth(_poly((-0.1 + lean, -0.3), (0.05 + lean, -0.36), (0.2 + lean, -0.3)), 2, False)
    gratings = [
        _ellipse(x, y, 0.025, 0.025)
        for x, y in rng.uniform((-0.5, -0.1), (0.55, 0.45), (20, 2))
        if cv2.pointPolygonTest(mound.astype(np.float32), (float(x), float(y)), True) > 0.05
    ]
    p.plate(PAPER, knock=True).fill(mound)
    p.plate(WASABI).fill(mound).stroke(gleam, width=0.07, erase=True)
    p.plate(WASABI_DEEP, tone=0.45).fill(shade)
    p.plate(WASABI_DEEP).fill(*gratings)
    p.plate(KEY).stroke(mound, closed=True).stroke(twist, width=0.035)
    p.finish()


def _draw_pudding(
    img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator
) -> None:
    p = _Press(img, cx, cy, s, rng)
    _shadow(p, 0.08, 0.95, 0.8, 0.14)
    rim = _ellipse(0, -0.05, 0.8, 0.16)
    p.plate(PAPER, knock=True).fill(rim)
    p.plate(GLASS, tone=0.7).fill(rim)
    top_y = rng.uniform(-0.68, -0.58)
    pudding = np.vstack(
        [_ellipse(0, top_y, 0.46, 0.1, 0, 180, 360), _ellipse(0, -0.05, 0.62, 0.13, 0, 0, 180)]
    )
    u = np.linspace(1, -1, 30)
    drips = 0.06 + 0.16 * np.maximum(0, np.sin(u * 5 + rng.uniform(0, 6))) ** 2
    flare = 0.16 * drips / (-0.05 - top_y)  # the pudding's sides widen as the caramel runs down
    caramel = np.vstack(
        [
            _ellipse(0, top_y, 0.46, 0.1, 0, 180, 360),
            np.stack([u * (0.46 + flare), top_y + drips + 0.1 * np.sqrt(1 - u**2)], axis=1),
        ]
    )
    cup = np.vstack(
        [
            _ellipse(0, -0.05, 0.8, 0.16, 0, 0, 180),
            _smooth(
                _poly((-0.8, -0.05), (-0.56, 0.92), (0.56, 0.92), (0.8, -0.05)), 2, closed=False
            ),
        ]
    )
    band = [_poly((-0.68, y), (0.68, y)) for y in (0.5, 0.62)]
    p.plate(PAPER, knock=True).fill(pudding)
    p.plate(CUSTARD).fill(pudding)
    p.plate(CARAMEL).fill(caramel)
    p.plate(KEY).stroke(pudding, closed=True)
    p.plate(PAPER, knock=True).fill(cup)
    p.plate(GLASS, tone=0.4).fill(cup)
    p.plate(INDIGO).stroke(*band, width=0.05)
    p.plate(KEY).stroke(cup, rim, closed=True)
    p.finish()


def _stick(a: np.ndarray, b: np.ndarray, w0: float, w1: float) -> np.ndarray:
    """A tapered stick from its thick end `a` to its tip `b`."""
    d = (b - a) / np.linalg.norm(b - a)
    n = np.array([-d[1], d[0]])
    return np.array([a + n * w0, b + n * w1, b - n * w1, a - n * w0])


def _draw_chopsticks(
    img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator
) -> None:
    p = _Press(img, cx, cy, s, rng)
    half = 1.3
    for ang in (rng.uniform(-48, -36), rng.uniform(216, 228)):
        centre = np.array([0.0, rng.uniform(-0.08, 0.08)])
        a, b = centre - half * _dir(ang), centre + half * _dir(ang)
        stick = _stick(a, b, 0.085, 0.035)
        lacquer = _stick(a, a + 0.22 * (b - a), 0.085, 0.078)
        p.plate(KEY, tone=0.35).fill(stick + np.array([0.06, 0.1]))
        p.plate(PAPER, knock=True).fill(stick)
        p.plate(WOOD).fill(stick)
        p.plate(LACQUER).fill(lacquer)
        p.plate(KEY).stroke(stick, closed=True)
    p.finish()


RISO_ILLUSTRATIONS: dict[str, Illustrate] = {
    "tempura": _draw_tempura,
    "sashimi": _draw_sashimi,
    "dumpling": _draw_dumpling,
    "maki_1": _draw_maki(1),
    "maki_2": _draw_maki(2),
    "maki_3": _draw_maki(3),
    "egg": _draw_egg,
    "salmon": _draw_salmon,
    "squid": _draw_squid,
    "wasabi": _draw_wasabi,
    "pudding": _draw_pudding,
    "chopsticks": _draw_chopsticks,
}
