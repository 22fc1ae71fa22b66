"""Cartoon card illustrations from a second, independent renderer.

The detector trains on faces whose illustrations `datasets/faces.py` draws. These drawings
follow the same card-spec.md descriptions, but in another hand: flat cartoon shapes with dark
outlines, soft shadows and highlights, other proportions and arrangements. They measured how
well the detector carries over to card art it never saw, and were held out of training for
seven sessions; since the eighth they are training art (`--art hands`,
`datasets.commands.TRAINED_HAND_ART`).

`CARTOON_ILLUSTRATIONS[kind](img, cx, cy, s, rng)` has the same signature as the illustration
drawers in `datasets/faces.py`: it draws into the BGR face `img` in place, centred on
`(cx, cy)`, scaled by the size unit `s`, inside cx ± 1.5·s by cy ± 1.3·s, with all
randomness from `rng`.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import cv2
import numpy as np

from datasets.faces import Illustrate

BGR = tuple[int, int, int]
RGB = tuple[int, int, int]

# Sub-pixel bits for cv2's drawing calls, so curves stay smooth on small faces.
_SHIFT = 4
_ONE = 1 << _SHIFT

INK: RGB = (42, 30, 36)
NORI: RGB = (28, 44, 34)
RICE: RGB = (250, 249, 242)


def _arc(
    u: float,
    v: float,
    au: float,
    av: float,
    start: float = 0.0,
    end: float = 360.0,
    n: int = 48,
) -> np.ndarray:
    """Points along an axis-aligned ellipse, in units of s; angles in degrees, y down."""
    t = np.radians(np.linspace(start, end, n))
    return np.stack([u + au * np.cos(t), v + av * np.sin(t)], axis=1)


def _curve(
    p0: tuple[float, float], p1: tuple[float, float], p2: tuple[float, float], n: int = 16
) -> np.ndarray:
    """A quadratic Bézier from p0 to p2, pulled towards p1."""
    t = np.linspace(0.0, 1.0, n)[:, None]
    a, b, c = (np.asarray(p, np.float64) for p in (p0, p1, p2))
    return (1 - t) ** 2 * a + 2 * (1 - t) * t * b + t**2 * c


def _rounded_rect(w: float, h: float, r: float, n: int = 8) -> np.ndarray:
    """A rounded rectangle centred on the origin."""
    r = min(r, w / 2, h / 2)
    corners = [
        (w / 2 - r, h / 2 - r, 0),
        (-w / 2 + r, h / 2 - r, 90),
        (-w / 2 + r, -h / 2 + r, 180),
        (w / 2 - r, -h / 2 + r, 270),
    ]
    return np.concatenate([_arc(u, v, r, r, a, a + 90, n) for u, v, a in corners])


def _superellipse(u: float, v: float, au: float, av: float, power: float) -> np.ndarray:
    t = np.linspace(0, 2 * math.pi, 64, endpoint=False)
    c, s = np.cos(t), np.sin(t)
    e = 2 / power
    return np.stack([u + au * np.sign(c) * np.abs(c) ** e, v + av * np.sign(s) * np.abs(s) ** e], 1)


def _moved(uv: np.ndarray, du: float, dv: float) -> np.ndarray:
    return np.asarray(uv, np.float64) + np.array([du, dv])


def _turn(uv: np.ndarray, degrees: float, about: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    a = math.radians(degrees)
    m = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    o = np.asarray(about, np.float64)
    return (np.asarray(uv, np.float64) - o) @ m.T + o


def _fixed(px: np.ndarray) -> np.ndarray:
    return np.round(np.asarray(px, np.float64) * _ONE).astype(np.int32).reshape(-1, 1, 2)


class _Pen:
    """Draws shapes given in units of s around the illustration's centre."""

    def __init__(
        self, img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator
    ) -> None:
        self.img, self.cx, self.cy, self.s, self.rng = img, cx, cy, s, rng
        self.ink = self.tone(INK, 4)
        self.line = self.width(0.028)

    def tone(self, rgb: RGB, amount: int = 8) -> BGR:
        """`rgb` as BGR, shifted within the ±8 per channel the spec allows."""
        r, g, b = (int(np.clip(c + self.rng.integers(-amount, amount + 1), 0, 255)) for c in rgb)
        return (b, g, r)

    def width(self, frac: float) -> int:
        return max(1, round(self.s * frac))

    def px(self, uv: np.ndarray) -> np.ndarray:
        return np.asarray(uv, np.float64) * self.s + (self.cx, self.cy)

    def shape(self, uv: np.ndarray, fill: BGR | None, outline: bool = True) -> None:
        p = _fixed(self.px(uv))
        if fill is not None:
            cv2.fillPoly(self.img, [p], fill, cv2.LINE_AA, _SHIFT)
        if outline:
            cv2.polylines(self.img, [p], True, self.ink, self.line, cv2.LINE_AA, _SHIFT)

    def stroke(self, uv: np.ndarray, colour: BGR, frac: float, closed: bool = False) -> None:
        p = _fixed(self.px(uv))
        cv2.polylines(self.img, [p], closed, colour, self.width(frac), cv2.LINE_AA, _SHIFT)

    def dot(self, u: float, v: float, r: float, fill: BGR, outline: bool = False) -> None:
        self.shape(_arc(u, v, r, r, n=24), fill, outline)

    def _window(self, uv: np.ndarray) -> tuple[int, int, int, int]:
        p = self.px(uv)
        h, w = self.img.shape[:2]
        x0, y0 = np.floor(p.min(axis=0)).astype(int) - 2
        x1, y1 = np.ceil(p.max(axis=0)).astype(int) + 3
        return max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)

    def glaze(self, uv: np.ndarray, colour: BGR, alpha: float) -> None:
        """A translucent fill: shadows, glass."""
        x0, y0, x1, y1 = self._window(uv)
        roi = self.img[y0:y1, x0:x1]
        over = roi.copy()
        cv2.fillPoly(over, [_fixed(self.px(uv) - (x0, y0))], colour, cv2.LINE_AA, _SHIFT)
        roi[:] = cv2.addWeighted(over, alpha, roi, 1 - alpha, 0)

    def inside(self, uv: np.ndarray, paint: Callable[[_Pen], None]) -> None:
        """Runs `paint`, keeping only what it draws inside the shape `uv` (patterns, bands)."""
        mask = np.zeros(self.img.shape[:2], np.uint8)
        cv2.fillPoly(mask, [_fixed(self.px(uv))], 255, cv2.LINE_AA, _SHIFT)
        before = self.img.copy()
        paint(self)
        m = (mask.astype(np.float32) / 255)[:, :, None]
        self.img[:] = (self.img * m + before * (1 - m) + 0.5).astype(np.uint8)

    def shadow(self, u: float, v: float, au: float, av: float) -> None:
        self.glaze(_arc(u, v, au, av), (0, 0, 0), 0.22)

    def scatter(self, uv: np.ndarray, n: int, margin: float = 0.0) -> np.ndarray:
        """`n` random points inside the shape `uv`, at least `margin` from its edge."""
        contour = np.asarray(uv, np.float32).reshape(-1, 1, 2)
        lo, hi = contour.min(axis=(0, 1)), contour.max(axis=(0, 1))
        out: list[np.ndarray] = []
        for _ in range(n * 40):
            if len(out) == n:
                break
            p = self.rng.uniform(lo, hi)
            if cv2.pointPolygonTest(contour, (float(p[0]), float(p[1])), True) >= margin:
                out.append(p)
        return np.array(out).reshape(-1, 2)


def _stroker(uv: np.ndarray, colour: BGR, frac: float) -> Callable[[_Pen], None]:
    return lambda pen: pen.stroke(uv, colour, frac)


def _tempura(img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator) -> None:
    pen = _Pen(img, cx, cy, s, rng)
    pen.shadow(0.08, 0.8, 1.22, 0.3)
    pen.shape(_arc(0, 0.7, 1.25, 0.34), pen.tone((246, 244, 236)))
    pen.stroke(_arc(0, 0.68, 0.92, 0.2), pen.tone((168, 186, 204)), 0.02, closed=True)

    # The shrimp curls round (0.04, -0.06): thick end upper right, over the top, tail at the bottom.
    bend = rng.uniform(-8, 8)
    t = np.linspace(0, 1, 40)
    angles = np.radians(-30 - 232 * t + bend)
    spine = np.stack([0.04 + 0.58 * np.cos(angles), -0.06 + 0.56 * np.sin(angles)], axis=1)
    radii = 0.33 - 0.17 * t
    normals = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    heading = np.array([np.sin(angles[-1]), -np.cos(angles[-1])])
    tail = spine[-1]
    fan = pen.tone((226, 78, 48))
    for spread in (-40, 0, 40):
        a = _turn(heading, spread - 14) * 0.46 + tail
        b = _turn(heading, spread + 14) * 0.46 + tail
        pen.shape(np.array([tail, a, (a + b) / 2 + _turn(heading, spread) * 0.05, b]), fan)

    # Batter bumps on the rim make it read as fried. Drawing every blob first in ink, a line
    # wider, then in batter outlines their union without tracing it.
    blobs = list(zip(spine, radii, strict=True))
    for i in rng.choice(36, 14, replace=False):
        side = 1 if i % 3 else -1
        blobs.append((spine[i] + side * normals[i] * radii[i] * 0.96, 0.065))
    pad = pen.line / s
    batter, crumb, fold = (
        pen.tone((232, 168, 58)),
        pen.tone((250, 210, 116)),
        pen.tone((176, 110, 30)),
    )
    for colour, grow in ((pen.ink, pad), (batter, 0.0)):
        for (u, v), r in blobs:
            pen.dot(u, v, r + grow, colour)
    for i in (6, 13, 20, 27, 33):
        p, n, r = spine[i], normals[i], radii[i] * 0.85
        pen.stroke(_curve(p + n * r, p + _turn(n, 90) * 0.4 * r, p - n * r), fold, 0.025)
    for u, v in pen.scatter(_arc(0, 0, 1, 1), 14):
        i = int(rng.integers(0, 36))
        p = spine[i] + np.array([u, v]) * radii[i] * 0.6
        pen.dot(p[0], p[1], 0.035, crumb)


def _sashimi(img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator) -> None:
    pen = _Pen(img, cx, cy, s, rng)
    pen.shape(_moved(_rounded_rect(2.75, 0.55, 0.06), 0, 0.6), pen.tone((68, 72, 80)))
    flesh, skin, gloss = (
        pen.tone((244, 122, 142)),
        pen.tone((196, 58, 80)),
        pen.tone((255, 214, 220)),
    )
    tilt = rng.uniform(8, 15)
    for u in (-0.66, 0.0, 0.66):
        piece = _turn(_rounded_rect(0.62, 1.12, 0.17), tilt + rng.uniform(-3, 3))
        piece = _moved(piece, u + rng.uniform(-0.03, 0.03), -0.12 + rng.uniform(-0.04, 0.04))
        pen.glaze(_moved(piece, 0.07, 0.08), (0, 0, 0), 0.25)
        pen.shape(piece, flesh, outline=False)
        # The darker red edge is the side the slice was cut from the skin.
        right = piece[:, 0] > piece[:, 0].mean() + 0.17
        pen.inside(piece, _stroker(piece[right], skin, 0.09))
        pen.shape(piece, None)
        u, v = piece[np.argmin(piece[:, 1])]
        pen.stroke(
            _curve((u - 0.14, v + 0.16), (u - 0.2, v + 0.35), (u - 0.18, v + 0.55)), gloss, 0.04
        )


def _dumpling(img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator) -> None:
    pen = _Pen(img, cx, cy, s, rng)
    lean = rng.uniform(-4, 4)
    pen.shadow(0.06, 0.46, 1.2, 0.2)
    dough, fold, seared = (
        pen.tone((250, 246, 234)),
        pen.tone((205, 200, 190)),
        pen.tone((214, 160, 88)),
    )
    # A crescent gyoza: a crimped frill of scallops along the curved top, a flat seared base.
    crest = np.radians(np.linspace(196, 344, 15))
    for a in crest:
        u, v = 1.19 * math.cos(a), 0.3 + 1.03 * math.sin(a)
        tangent = math.degrees(math.atan2(1.03 * math.cos(a), -1.19 * math.sin(a)))
        pen.shape(_turn(_moved(_turn(_arc(0, 0, 0.15, 0.1, n=20), tangent), u, v), lean), dough)
    body = np.concatenate([_arc(0, 0.3, 1.15, 1.0, 180, 360), _arc(0, 0.3, 1.15, 0.16, 0, 180)])
    body = _turn(body, lean)
    pen.shape(body, dough, outline=False)
    pen.inside(body, lambda p: p.glaze(_turn(_arc(0, 0.5, 1.3, 0.24), lean), seared, 0.85))
    pen.shape(body, None)
    for a in crest[1:-1:2]:
        start = (1.05 * math.cos(a), 0.3 + 0.9 * math.sin(a))
        end = (0.55 * math.cos(a), 0.3 + 0.38 * math.sin(a))
        bulge = (0.85 * math.cos(a) + 0.08, 0.3 + 0.62 * math.sin(a))
        pen.stroke(_turn(_curve(start, bulge, end), lean), fold, 0.03)
    pen.shape(
        _turn(_turn(_arc(-0.45, -0.25, 0.22, 0.07), -35, (-0.45, -0.25)), lean), (255,) * 3, False
    )


def _roll(pen: _Pen, u: float, v: float, r: float) -> None:
    """One maki roll seen end-on: nori ring, white rice, red-orange centre."""
    pen.shadow(u + 0.08 * r, v + 0.12 * r, r, r)
    pen.dot(u, v, r, pen.tone(NORI), outline=True)
    pen.stroke(_arc(u, v, 0.88 * r, 0.88 * r, 200, 260, 12), pen.tone((70, 104, 80)), 0.035)
    pen.dot(u, v, 0.72 * r, pen.tone(RICE, 4), outline=True)
    grain = pen.tone((214, 214, 204))
    for gu, gv in pen.scatter(_arc(0, 0, 0.72 * r, 0.72 * r, n=24), 9, margin=0.1 * r):
        if math.hypot(gu, gv) > 0.36 * r:
            a = pen.rng.uniform(0, 180)
            pen.shape(
                _moved(_turn(_arc(0, 0, 0.09 * r, 0.045 * r, n=12), a), u + gu, v + gv),
                grain,
                False,
            )
    pen.dot(u, v, 0.26 * r, pen.tone((236, 84, 44)), outline=True)
    pen.dot(u - 0.08 * r, v - 0.08 * r, 0.07 * r, pen.tone((255, 190, 150)))


def _maki(layout: tuple[tuple[float, float], ...], r: float) -> Illustrate:
    def draw(img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator) -> None:
        pen = _Pen(img, cx, cy, s, rng)
        for u, v in layout:
            _roll(pen, u + rng.uniform(-0.03, 0.03), v + rng.uniform(-0.03, 0.03), r)

    return draw


def _nigiri_rice(pen: _Pen) -> None:
    bed = _superellipse(0, 0.52, 1.05, 0.4, 2.6)
    pen.shadow(0.06, 0.86, 1.0, 0.12)
    pen.shape(bed, pen.tone(RICE, 4))
    grain = pen.tone((222, 222, 212))
    for u, v in pen.scatter(bed, 16, margin=0.08):
        a = pen.rng.uniform(0, 180)
        pen.shape(_moved(_turn(_arc(0, 0, 0.08, 0.04, n=12), a), u, v), grain, False)


def _egg(img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator) -> None:
    pen = _Pen(img, cx, cy, s, rng)
    _nigiri_rice(pen)
    tilt = rng.uniform(-4, 4)
    block = _moved(_turn(_rounded_rect(2.3, 0.78, 0.12), tilt), 0, -0.06)
    omelette, layer = pen.tone((255, 236, 128)), pen.tone((224, 172, 52))
    pen.shape(block, omelette, outline=False)

    def layers(p: _Pen) -> None:
        # Rolled omelette shows its folded layers on the cut side.
        for v in (-0.3, -0.08, 0.14):
            wave = _curve((-1.3, v), (0, v + 0.07), (1.3, v - 0.02))
            p.stroke(_moved(_turn(wave, tilt), 0, -0.06), layer, 0.025)
        p.stroke(_turn(_curve((-1.3, -0.44), (0, -0.4), (1.3, -0.44)), tilt), layer, 0.07)

    pen.inside(block, layers)
    pen.shape(block, None)
    band = _moved(_turn(_rounded_rect(0.44, 1.48, 0.05), tilt * 0.5), rng.uniform(-0.1, 0.1), 0.22)
    pen.shape(band, pen.tone(NORI))
    pen.stroke(band[band[:, 0] < band[:, 0].mean() - 0.15], pen.tone((64, 92, 72)), 0.025)


def _salmon(img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator) -> None:
    pen = _Pen(img, cx, cy, s, rng)
    _nigiri_rice(pen)
    # A wedge: thick at the left end, thinning to the right, draped over the rice.
    top = _curve((-1.2, -0.42), (-0.1, -0.82), (1.32, 0.1))
    bottom = _curve((1.32, 0.24), (0, 0.16), (-1.22, 0.34))
    left = _curve((-1.3, 0.3), (-1.42, -0.02), (-1.2, -0.42))
    wedge = _turn(np.concatenate([top, bottom, left]), rng.uniform(-4, 4))
    flesh, fat = pen.tone((250, 126, 66)), pen.tone((255, 240, 226))
    pen.shape(wedge, flesh, outline=False)
    shift = rng.uniform(-0.08, 0.08)

    def stripes(p: _Pen) -> None:
        for k in range(6):
            u = -1.05 + 0.44 * k + shift
            p.stroke(_curve((u, -0.9), (u + 0.3, -0.2), (u - 0.02, 0.5)), fat, 0.055)

    pen.inside(wedge, stripes)
    pen.shape(wedge, None)
    pen.stroke(_curve((-1.05, -0.22), (-0.7, -0.44), (-0.25, -0.48)), (255,) * 3, 0.035)


def _squid(img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator) -> None:
    pen = _Pen(img, cx, cy, s, rng)
    _nigiri_rice(pen)
    # A pale slab draped over the rice, its ends hanging down either side.
    arch = np.concatenate([_arc(0, 0.54, 1.3, 0.84, 190, 350), _arc(0, 0.54, 1.13, 0.3, 350, 190)])
    arch = _turn(arch, rng.uniform(-4, 4), (0, 0.5))
    body, score, blush = (
        pen.tone((252, 230, 238)),
        pen.tone((214, 160, 180)),
        pen.tone((244, 196, 212)),
    )
    pen.glaze(_moved(arch, 0.02, 0.07), (0, 0, 0), 0.2)
    pen.shape(arch, body, outline=False)
    offset = rng.uniform(0, 0.2)

    def scoring(p: _Pen) -> None:
        # Squid for nigiri is scored in a criss-cross so it sits flat; the grid marks it as squid.
        p.stroke(_arc(0, 0.54, 1.15, 0.34, 190, 350), blush, 0.1)
        for k in range(-7, 8):
            u = 0.22 * k + offset
            p.stroke(np.array([(u - 0.9, -0.9), (u + 0.9, 0.9)]), score, 0.022)
            p.stroke(np.array([(u + 0.9, -0.9), (u - 0.9, 0.9)]), score, 0.022)

    pen.inside(arch, scoring)
    pen.shape(arch, None)
    pen.stroke(_arc(0, 0.54, 1.2, 0.72, 232, 262, 10), (255,) * 3, 0.045)


def _wasabi(img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator) -> None:
    pen = _Pen(img, cx, cy, s, rng)
    # A small square dish seen from above at an angle: a diamond with a little depth.
    top = np.array([(0, 0.2), (1.3, 0.6), (0, 1.0), (-1.3, 0.6)])
    side = np.array([(-1.3, 0.6), (0, 1.0), (1.3, 0.6), (1.3, 0.74), (0, 1.14), (-1.3, 0.74)])
    pen.shape(side, pen.tone((34, 52, 104)))
    pen.shape(top, pen.tone((52, 78, 146)))
    pen.shape((top - (0, 0.6)) * 0.78 + (0, 0.6), pen.tone((236, 238, 240)))
    # The mound: a cone of grated wasabi with a twisted peak.
    peak = (rng.uniform(0.0, 0.2), -0.72)
    mound = np.concatenate(
        [
            _curve((-0.7, 0.6), (-0.55, -0.12), peak),
            _curve(peak, (0.55, -0.05), (0.7, 0.6)),
            _arc(0, 0.6, 0.7, 0.18, 0, 180),
        ]
    )
    green, dark, light = (
        pen.tone((142, 192, 62)),
        pen.tone((96, 146, 40)),
        pen.tone((188, 226, 120)),
    )
    pen.glaze(_arc(0.08, 0.66, 0.72, 0.16), (0, 0, 0), 0.2)
    pen.shape(mound, green)
    for u, v in pen.scatter(mound, 22, margin=0.06):
        pen.dot(u, v, 0.03, dark if pen.rng.random() < 0.6 else light)
    for k, v in enumerate((-0.15, 0.18, 0.45)):
        w = 0.3 + 0.13 * k
        pen.stroke(_curve((-w, v), (0, v + 0.12), (w, v - 0.04)), dark, 0.025)
    pen.stroke(_curve((-0.42, 0.4), (-0.4, -0.1), (peak[0] - 0.1, -0.52)), light, 0.045)


def _pudding(img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator) -> None:
    pen = _Pen(img, cx, cy, s, rng)
    rim, base = -0.28, 0.92
    # A squat glass cup, a little wider at the rim, with a thick glass bottom.
    # Only the front of the cup is glazed, so the caramel dome above the rim stays clear.
    cup = np.concatenate([_arc(0, rim, 0.94, 0.16, 180, 0), _arc(0, base, 0.76, 0.14, 0, 180)])
    custard = np.concatenate(
        [_arc(0, rim, 0.86, 0.34, 180, 360), _arc(0, base - 0.16, 0.7, 0.12, 0, 180)]
    )
    glass, edge = pen.tone((236, 246, 252)), pen.tone((118, 126, 150))
    cream, caramel = pen.tone((255, 234, 168)), pen.tone((178, 92, 26))
    pen.shadow(0.08, base + 0.06, 0.86, 0.14)
    pen.stroke(_arc(0, rim, 0.94, 0.16, 180, 360), edge, 0.025)
    pen.shape(custard, cream, outline=False)
    drips = rng.uniform(-0.65, 0.65, 4)
    drop = rng.uniform(0.2, 0.45, 4)

    def cap(p: _Pen) -> None:
        # The caramel sits on the dome and runs down the sides.
        p.shape(_arc(0, rim + 0.06, 1.0, 0.14), caramel, outline=False)
        p.shape(_arc(0, rim - 0.4, 1.2, 0.4), caramel, outline=False)
        for u, d in zip(drips, drop, strict=True):
            p.shape(
                _moved(_rounded_rect(0.15, 2 * d, 0.075), u, rim + 0.05), caramel, outline=False
            )

    pen.inside(custard, cap)
    pen.shape(custard, None)
    pen.stroke(_arc(-0.1, rim - 0.05, 0.55, 0.2, 205, 250, 8), pen.tone((240, 170, 96)), 0.05)
    pen.glaze(cup, glass, 0.3)
    pen.glaze(_arc(0, base - 0.06, 0.74, 0.12), glass, 0.5)
    pen.stroke(cup, edge, 0.03, closed=True)
    pen.stroke(_curve((-0.8, -0.1), (-0.78, 0.3), (-0.66, 0.66)), (255,) * 3, 0.05)
    pen.stroke(_curve((0.76, -0.04), (0.76, 0.16), (0.72, 0.36)), (255,) * 3, 0.03)


def _chopstick(pen: _Pen, butt: np.ndarray, tip: np.ndarray, wood: BGR, paint: BGR) -> None:
    along = (tip - butt) / np.linalg.norm(tip - butt)
    across = np.array([-along[1], along[0]])
    stick = np.array([butt + across * 0.08, tip + across * 0.025, tip - across * 0.025])
    stick = np.concatenate([stick, [butt - across * 0.08]])
    pen.glaze(_moved(stick, 0.06, 0.08), (0, 0, 0), 0.2)
    pen.shape(stick, wood, outline=False)
    # The painted grip is the butt end; it shows which way the stick tapers.
    band = np.array([butt + across * 0.1, butt - across * 0.1])
    band = np.concatenate([band, band[::-1] + along * 0.62])
    pen.inside(stick, lambda p: p.shape(band, paint, outline=False))
    pen.shape(stick, None)
    pen.stroke(
        np.array([butt + along * 0.7, tip - along * 0.25]) + across * 0.02, (255,) * 3, 0.015
    )


def _chopsticks(img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator) -> None:
    pen = _Pen(img, cx, cy, s, rng)
    wood, paint = pen.tone((214, 160, 98)), pen.tone((150, 36, 44))
    # Crossed like an X, butts at the top.
    for side in (-1, 1):
        a = rng.uniform(-4, 4)
        butt = _turn(np.array([side * 1.15, -1.08]), a)
        tip = _turn(np.array([-side * 1.02, 1.06]), a)
        _chopstick(pen, butt, tip, wood, paint)


CARTOON_ILLUSTRATIONS: dict[str, Illustrate] = {
    "tempura": _tempura,
    "sashimi": _sashimi,
    "dumpling": _dumpling,
    "maki_1": _maki(((0.0, 0.0),), 0.86),
    "maki_2": _maki(((-0.68, 0.16), (0.68, -0.16)), 0.62),
    "maki_3": _maki(((0.0, -0.58), (-0.64, 0.5), (0.64, 0.5)), 0.55),
    "egg": _egg,
    "salmon": _salmon,
    "squid": _squid,
    "wasabi": _wasabi,
    "pudding": _pudding,
    "chopsticks": _chopsticks,
}
