"""Plain clip-art card illustrations from another renderer.

These drawings were written independently of the training renderers' art, from the card table
alone, so that a detector could be measured on cards whose illustrations it had never seen.
They were held out of training for seven sessions; since the eighth they are training art (`--art
hands`, `datasets.commands.TRAINED_HAND_ART`).

The style is deliberately plain vector clip-art: solid antialiased polygons and ellipses, thin
outlines and simple highlight shapes, no texture and no blur.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

import cv2
import numpy as np

from datasets.faces import Illustrate

# cv2 takes fixed-point coordinates; four fractional bits keep small (s = 40) shapes smooth.
_SHIFT = 4
_ONE = 1 << _SHIFT

Point = tuple[float, float]
Colour = tuple[int, ...]


def _rotate(points: Sequence[Point], centre: Point, degrees: float) -> list[Point]:
    a = np.deg2rad(degrees)
    c, s = np.cos(a), np.sin(a)
    arr = np.asarray(points, dtype=np.float64) - centre
    us = (centre[0] + arr[:, 0] * c - arr[:, 1] * s).tolist()
    vs = (centre[1] + arr[:, 0] * s + arr[:, 1] * c).tolist()
    return list(zip(us, vs, strict=True))


def _arc(
    u: float, v: float, a: float, b: float, start: float, stop: float, n: int = 24
) -> list[Point]:
    """Points on an ellipse from `start` to `stop` degrees, y pointing down like the image."""
    t = np.deg2rad(np.linspace(start, stop, n))
    return list(zip((u + a * np.cos(t)).tolist(), (v + b * np.sin(t)).tolist(), strict=True))


def _bezier(p0: Point, p1: Point, p2: Point, n: int = 16) -> list[Point]:
    t = np.linspace(0.0, 1.0, n)
    return [
        (
            float((1 - x) ** 2 * p0[0] + 2 * (1 - x) * x * p1[0] + x**2 * p2[0]),
            float((1 - x) ** 2 * p0[1] + 2 * (1 - x) * x * p1[1] + x**2 * p2[1]),
        )
        for x in t
    ]


def _rounded_rect(u: float, v: float, w: float, h: float, r: float) -> list[Point]:
    r = min(r, w / 2, h / 2)
    x0, x1, y0, y1 = u - w / 2 + r, u + w / 2 - r, v - h / 2 + r, v + h / 2 - r
    return (
        _arc(x1, y0, r, r, 270, 360, 6)
        + _arc(x1, y1, r, r, 0, 90, 6)
        + _arc(x0, y1, r, r, 90, 180, 6)
        + _arc(x0, y0, r, r, 180, 270, 6)
    )


class _Pen:
    """Draws in units of the (jittered) size around the (jittered) centre, into a copy of
    the zone only, so nothing outside the zone can ever change."""

    def __init__(
        self, img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator
    ) -> None:
        self.img = img
        self.rng = rng
        h, w = img.shape[:2]
        self.x0 = max(0, round(cx - 1.5 * s))
        self.y0 = max(0, round(cy - 1.3 * s))
        self.x1 = min(w - 1, round(cx + 1.5 * s))
        self.y1 = min(h - 1, round(cy + 1.3 * s))
        self.empty = self.x1 < self.x0 or self.y1 < self.y0
        self.buf = img[self.y0 : self.y1 + 1, self.x0 : self.x1 + 1].copy()
        self.k = s * rng.uniform(0.87, 1.13)
        self.cx = cx + rng.uniform(-0.07, 0.07) * s
        self.cy = cy + rng.uniform(-0.06, 0.06) * s
        self.spin = 0.0
        self.edge = max(1, round(s * rng.uniform(0.022, 0.036)))

    def hue(self, hex_rgb: str) -> Colour:
        """The sRGB colour as BGR, shifted a little so no two cards match exactly."""
        r, g, b = (int(hex_rgb[i : i + 2], 16) for i in (1, 3, 5))
        shift = self.rng.integers(-8, 9, size=3)
        bgr = [int(np.clip(c + d, 0, 255)) for c, d in zip((b, g, r), shift, strict=True)]
        if self.buf.ndim == 3 and self.buf.shape[2] == 4:
            bgr.append(255)
        return tuple(bgr)

    def px(self, units: float) -> int:
        return max(1, round(units * self.k))

    def _fix(self, points: Sequence[Point]) -> np.ndarray:
        arr = np.asarray(points, dtype=np.float64)
        if self.spin:
            a = np.deg2rad(self.spin)
            c, s = np.cos(a), np.sin(a)
            arr = np.stack([arr[:, 0] * c - arr[:, 1] * s, arr[:, 0] * s + arr[:, 1] * c], 1)
        arr = arr * self.k
        arr[:, 0] += self.cx - self.x0
        arr[:, 1] += self.cy - self.y0
        return np.round(arr * _ONE).astype(np.int32)

    def poly(
        self,
        points: Sequence[Point],
        fill: Colour | None,
        edge: Colour | None = None,
        width: int | None = None,
    ) -> None:
        pts = self._fix(points)
        if fill is not None:
            cv2.fillPoly(self.buf, [pts], fill, cv2.LINE_AA, _SHIFT)
        if edge is not None:
            w = self.edge if width is None else width
            cv2.polylines(self.buf, [pts], True, edge, w, cv2.LINE_AA, _SHIFT)

    def oval(
        self,
        u: float,
        v: float,
        a: float,
        b: float,
        fill: Colour | None,
        edge: Colour | None = None,
        angle: float = 0.0,
        width: int | None = None,
    ) -> None:
        # a polygon rather than cv2.ellipse keeps one code path for rotation and clipping
        points = _rotate(_arc(u, v, a, b, 0, 360, 48)[:-1], (u, v), angle)
        self.poly(points, fill, edge, width)

    def stroke(self, points: Sequence[Point], colour: Colour, width: int) -> None:
        cv2.polylines(self.buf, [self._fix(points)], False, colour, width, cv2.LINE_AA, _SHIFT)

    @contextmanager
    def clipped(self, points: Sequence[Point]) -> Iterator[None]:
        """Whatever is drawn inside the block shows only within the polygon `points`."""
        before = self.buf.copy()
        yield
        pts = self._fix(points)
        h, w = self.buf.shape[:2]
        # only the polygon's bounding box can differ, which keeps the blend cheap
        x0, y0 = (max(0, int(c) - 1) for c in pts.min(axis=0) >> _SHIFT)
        x1, y1 = (int(c) + 2 for c in pts.max(axis=0) >> _SHIFT)
        x1, y1 = min(w, x1), min(h, y1)
        if x1 <= x0 or y1 <= y0:
            self.buf[:] = before
            return
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        pts = pts - np.array([x0, y0], np.int32) * _ONE
        cv2.fillPoly(mask, [pts], 255, cv2.LINE_AA, _SHIFT)
        alpha = mask[..., None].astype(np.float32) / 255.0
        old = before[y0:y1, x0:x1].astype(np.float32)
        mixed = old + (self.buf[y0:y1, x0:x1].astype(np.float32) - old) * alpha
        self.buf[:] = before
        self.buf[y0:y1, x0:x1] = np.clip(np.round(mixed), 0, 255).astype(np.uint8)

    def finish(self) -> None:
        if not self.empty:
            self.img[self.y0 : self.y1 + 1, self.x0 : self.x1 + 1] = self.buf


def _illustration(body: Callable[[_Pen], None], spin: float = 6.0) -> Illustrate:
    def draw(img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator) -> None:
        pen = _Pen(img, cx, cy, s, rng)
        if pen.empty:
            return
        pen.spin = rng.uniform(-spin, spin)
        body(pen)
        pen.finish()

    draw.__name__ = f"draw_{body.__name__.lstrip('_')}"
    return draw


def _tempura(p: _Pen) -> None:
    r = p.rng
    plate, plate_edge = p.hue("#F3F0E8"), p.hue("#A9A39B")
    if r.random() < 0.5:
        p.oval(0, 0.6, 1.22, 0.36, plate, plate_edge)
        p.oval(0, 0.6, 0.82, 0.2, None, p.hue("#D2CCC2"), width=max(1, p.edge - 1))
    else:
        # a flat rectangular tray seen from above the front: the far edge is narrower
        p.poly([(-1.22, 0.78), (1.22, 0.78), (1.18, 0.88), (-1.18, 0.88)], plate_edge)
        p.poly([(-1.0, 0.38), (1.0, 0.38), (1.22, 0.78), (-1.22, 0.78)], plate, plate_edge)

    # The body is a chain of circles along a curl, fat at the head and thin at the tail;
    # drawing every circle twice (outline colour first, slightly larger) outlines the union.
    radius = r.uniform(0.48, 0.56)
    start, stop = r.uniform(185, 200), r.uniform(385, 405)
    n = 10
    angles = np.deg2rad(np.linspace(start, stop, n))
    sizes = np.linspace(r.uniform(0.3, 0.36), 0.12, n)
    centre = (r.uniform(-0.1, 0.1), r.uniform(0.0, 0.08))
    spine = [
        (centre[0] + radius * float(np.cos(t)), centre[1] + radius * float(np.sin(t)))
        for t in angles
    ]
    bumps = []
    for (u, v), size, t in zip(spine, sizes, angles, strict=True):
        for _ in range(2):
            off = float(t) + r.uniform(-0.6, 0.6)
            bumps.append((u + size * 0.85 * np.cos(off), v + size * 0.85 * np.sin(off), 0.3 * size))

    # tail fan first so the last body segment sits over its root
    tail_u, tail_v = spine[-1]
    tangent = float(angles[-1]) + np.pi / 2
    fan = p.hue("#E2572B")
    for spread in (-0.55, 0.0, 0.55):
        a = tangent + spread
        tip = (tail_u + 0.38 * np.cos(a), tail_v + 0.38 * np.sin(a))
        side = (-np.sin(a) * 0.09, np.cos(a) * 0.09)
        p.poly(
            [(tail_u + side[0], tail_v + side[1]), tip, (tail_u - side[0], tail_v - side[1])],
            fan,
            p.hue("#8E2A14"),
        )

    edge, batter = p.hue("#8C5A17"), p.hue("#E9AE3E")
    grow = p.edge / p.k
    for (u, v), size in zip(spine, sizes, strict=True):
        p.oval(u, v, size + grow, size + grow, edge)
    for u, v, size in bumps:
        p.oval(u, v, size + grow, size + grow, edge)
    for (u, v), size in zip(spine, sizes, strict=True):
        p.oval(u, v, size, size, batter)
    for u, v, size in bumps:
        p.oval(u, v, size, size, batter)

    shine = p.hue("#FBDD8C")
    for (u, v), size in list(zip(spine, sizes, strict=True))[1:-2:2]:
        p.oval(u - size * 0.2, v - size * 0.3, size * 0.35, size * 0.18, shine, angle=-30)


def _sashimi(p: _Pen) -> None:
    r = p.rng
    flesh, edge, stripe = p.hue("#EE7F8E"), p.hue("#A8404F"), p.hue("#FBC4CB")
    gap = r.uniform(0.62, 0.72)
    tilt = r.uniform(12, 26) * (1 if r.random() < 0.5 else -1)
    for i in (-1, 0, 1):
        u = i * gap + r.uniform(-0.03, 0.03)
        v = r.uniform(-0.06, 0.06)
        w, h = r.uniform(0.48, 0.56), r.uniform(1.35, 1.55)
        slab = _rotate(_rounded_rect(u, v, w, h, r.uniform(0.14, 0.22)), (u, v), tilt)
        p.poly(slab, flesh)
        with p.clipped(slab):
            # the white connective lines of raw fish cross the slice in shallow curves
            for k in (-0.4, 0.05, 0.45):
                band = _bezier((u - 0.6, v + k - 0.1), (u, v + k + 0.12), (u + 0.6, v + k - 0.1))
                p.stroke(_rotate(band, (u, v), tilt), stripe, p.px(0.06))
        p.poly(slab, None, edge)
        shine = _rotate([(u - w * 0.2, v - h * 0.3)], (u, v), tilt)[0]
        p.oval(*shine, w * 0.1, h * 0.1, p.hue("#FFF1F2"), angle=tilt)


def _dumpling(p: _Pen) -> None:
    r = p.rng
    width, height = r.uniform(0.95, 1.08), r.uniform(0.85, 1.0)
    base = 0.48
    p.oval(0, base + 0.12, width * 1.02, 0.16, p.hue("#3B63A6"))
    body = _arc(0, base, width, height, 180, 360, 32) + _arc(0, base, width, 0.16, 0, 180, 16)
    skin, line = p.hue("#F7F3E9"), p.hue("#857D70")
    p.poly(body, skin, line)

    # a crimped crest along the top, then pleat creases fanning down from it
    crest = r.uniform(0.1, 0.13)
    angles = np.linspace(215, 325, 8)
    fold = p.hue("#BDB4A4")
    for t in angles:
        a = np.deg2rad(t)
        top = (width * 0.93 * np.cos(a), base + height * 0.93 * np.sin(a))
        end = (top[0] * 0.72, base + (top[1] - base) * 0.45)
        p.stroke([top, end], fold, p.px(0.04))
    for t in angles:
        a = np.deg2rad(t)
        u, v = width * 0.97 * np.cos(a), base + height * 0.97 * np.sin(a)
        p.oval(u, v, crest, crest * 0.8, skin, line)
    p.oval(-width * 0.5, base - height * 0.3, 0.16, 0.08, p.hue("#FFFFFF"), angle=-35)


def _maki_roll(p: _Pen, u: float, v: float, radius: float) -> None:
    ring = radius * p.rng.uniform(0.92, 1.0)
    squash = p.rng.uniform(0.9, 1.0)
    p.oval(u, v, radius, radius * squash, p.hue("#1B2A1F"), p.hue("#F4F1EA"))
    p.oval(u, v, ring * 0.76, ring * 0.76 * squash, p.hue("#F8F7F1"))
    du, dv = p.rng.uniform(-0.06, 0.06) * radius, p.rng.uniform(-0.06, 0.06) * radius
    p.oval(u + du, v + dv, radius * 0.27, radius * 0.25, p.hue("#E6532C"), p.hue("#9E2E15"))
    p.oval(u - radius * 0.35, v - radius * 0.4, radius * 0.14, radius * 0.08, p.hue("#FFFFFF"))


_MAKI_LAYOUTS: dict[int, list[tuple[float, list[Point]]]] = {
    1: [(0.85, [(0.0, 0.0)]), (0.8, [(0.1, 0.05)])],
    2: [
        (0.56, [(-0.64, 0.0), (0.64, 0.0)]),
        (0.52, [(-0.55, 0.32), (0.55, -0.32)]),
        (0.52, [(-0.55, -0.3), (0.55, 0.3)]),
    ],
    3: [
        (0.4, [(-0.86, 0.0), (0.0, 0.0), (0.86, 0.0)]),
        (0.44, [(-0.5, 0.4), (0.5, 0.4), (0.0, -0.44)]),
        (0.44, [(-0.5, -0.4), (0.5, -0.4), (0.0, 0.44)]),
        (0.36, [(-0.8, 0.5), (0.0, 0.0), (0.8, -0.5)]),
    ],
}


def _maki(count: int) -> Callable[[_Pen], None]:
    def body(p: _Pen) -> None:
        layouts = _MAKI_LAYOUTS[count]
        radius, spots = layouts[int(p.rng.integers(len(layouts)))]
        for u, v in spots:
            size = radius * p.rng.uniform(0.95, 1.05)
            _maki_roll(p, u + p.rng.uniform(-0.03, 0.03), v + p.rng.uniform(-0.03, 0.03), size)

    body.__name__ = f"_maki_{count}"
    return body


def _rice(p: _Pen) -> tuple[float, float]:
    """The white rice block the nigiri sit on; returns its width and top edge."""
    w, h = p.rng.uniform(1.8, 2.05), p.rng.uniform(0.6, 0.72)
    v = 0.55 - h / 2
    p.poly(_rounded_rect(0, v, w, h, h * 0.45), p.hue("#FAF8F1"), p.hue("#9C9484"))
    return w, v - h / 2


def _egg(p: _Pen) -> None:
    r = p.rng
    w, top = _rice(p)
    ow, oh = w * r.uniform(1.02, 1.1), r.uniform(0.62, 0.75)
    ov = top - oh / 2 + 0.16
    block = _rounded_rect(0, ov, ow, oh, 0.08)
    p.poly(block, p.hue("#FFE57E"))
    with p.clipped(block):
        # the folded layers of a rolled omelette show as faint seams
        for k in (0.25, 0.55):
            y = ov - oh / 2 + oh * k
            p.stroke([(-ow, y), (ow, y)], p.hue("#E8C24E"), p.px(0.04))
        p.poly(_rounded_rect(0, ov - oh / 2, ow, 0.14, 0.05), p.hue("#FFF3B8"))
    p.poly(block, None, p.hue("#B58416"))
    band_u, band_w = r.uniform(-0.2, 0.2), r.uniform(0.36, 0.46)
    band = _rounded_rect(band_u, 0.08, band_w, 1.5, 0.06)
    p.poly(band, p.hue("#1D2922"), p.hue("#0E1410"))
    p.stroke(
        [(band_u - band_w * 0.25, -0.5), (band_u - band_w * 0.25, 0.6)],
        p.hue("#3A4A3E"),
        p.px(0.04),
    )


def _topping(p: _Pen, top: float, w: float) -> list[Point]:
    """A draped nigiri topping: a low dome over the rice, a little wider than it."""
    r = p.rng
    a, lift = w * r.uniform(0.55, 0.6), r.uniform(0.55, 0.7)
    base = top + r.uniform(0.2, 0.28)
    return _arc(0, base, a, lift, 180, 360, 32) + _arc(0, base, a, 0.14, 0, 180, 16)


def _salmon(p: _Pen) -> None:
    w, top = _rice(p)
    slice_ = _topping(p, top, w)
    p.poly(slice_, p.hue("#F6793C"))
    with p.clipped(slice_):
        stripe, lean = p.hue("#FFE3CF"), p.rng.uniform(0.35, 0.55)
        for u in np.arange(-1.4, 1.4, p.rng.uniform(0.3, 0.36)):
            p.stroke([(u, 0.7), (u + lean, -1.0)], stripe, p.px(0.07))
    p.poly(slice_, None, p.hue("#B2441A"))


def _squid(p: _Pen) -> None:
    r = p.rng
    w, top = _rice(p)
    body = _topping(p, top, w)
    flesh, score, edge = p.hue("#F7E9E8"), p.hue("#E6B9BF"), p.hue("#BB8A91")
    # tentacles hang off one end, drawn first so the mantle covers their roots
    side = 1 if r.random() < 0.5 else -1
    for i in range(3):
        u0 = side * (w * 0.5 - 0.1 * i)
        curl = _bezier(
            (u0, top + 0.2), (u0 + side * 0.3, top + 0.45 + 0.1 * i), (u0 + side * 0.15, 0.85)
        )
        p.stroke(curl, edge, p.px(0.11))
        p.stroke(curl, p.hue("#F2D6D9"), p.px(0.06))
    p.poly(body, flesh)
    with p.clipped(body):
        step = r.uniform(0.2, 0.26)
        for u in np.arange(-1.4, 1.4, step):
            p.stroke([(u, 0.8), (u + 0.6, -1.0)], score, p.px(0.035))
            p.stroke([(u, -1.0), (u + 0.6, 0.8)], score, p.px(0.035))
    p.poly(body, None, edge)
    p.oval(-0.35, top - 0.15, 0.22, 0.06, p.hue("#FFFFFF"), angle=-12)


def _wasabi(p: _Pen) -> None:
    r = p.rng
    dish, rim = p.hue("#EDF1F0"), p.hue("#6E7877")
    if r.random() < 0.5:
        p.oval(0, 0.55, 1.1, 0.36, dish, rim)
        p.oval(0, 0.52, 0.82, 0.24, p.hue("#D6DEDD"))
    else:
        p.poly(_rounded_rect(0, 0.6, 2.2, 0.5, 0.12), dish, rim)
        p.poly(_rounded_rect(0, 0.58, 1.8, 0.3, 0.08), p.hue("#D6DEDD"))
    half = r.uniform(0.6, 0.72)
    tip = (r.uniform(-0.15, 0.2), r.uniform(-0.55, -0.4))
    left = _bezier((-half, 0.55), (-half * 1.05, -0.3), tip)
    right = _bezier(tip, (half * 1.05, -0.25), (half, 0.55))
    mound = left + right[1:] + _arc(0, 0.55, half, 0.1, 0, 180, 12)[1:-1]
    green, dark = p.hue("#74B23A"), p.hue("#2C5519")
    p.poly(mound, green)
    with p.clipped(mound):
        for k in (0.05, 0.3):
            ridge = _bezier((-half, k + 0.1), (0.0, k - 0.15), (half, k + 0.05))
            p.stroke(ridge, p.hue("#4F8A27"), p.px(0.05))
    p.poly(mound, None, dark)
    p.oval(tip[0] - 0.22, tip[1] + 0.45, 0.09, 0.18, p.hue("#BFE38A"), angle=20)


def _pudding(p: _Pen) -> None:
    r = p.rng
    rim_v, top_w = r.uniform(-0.08, 0.02), r.uniform(0.8, 0.9)
    foot_w, foot_v = top_w * r.uniform(0.62, 0.72), 0.95
    cup, line = p.hue("#F4F2EE"), p.hue("#857981")
    walls = [(top_w, rim_v), (-top_w, rim_v), (-foot_w, foot_v), (foot_w, foot_v)]
    p.oval(0, foot_v, foot_w, 0.12, cup, line)
    p.poly(walls, cup, line)
    p.oval(0, rim_v, top_w, 0.2, p.hue("#DCD6D2"), line)

    dome_w, dome_h = top_w * 0.82, r.uniform(0.5, 0.62)
    dome = _arc(0, rim_v, dome_w, dome_h, 180, 360, 28) + _arc(0, rim_v, dome_w, 0.14, 0, 180, 12)
    p.poly(dome, p.hue("#F8D777"))
    with p.clipped(dome):
        # caramel covers the crown and runs down in a few drips
        edge_v = rim_v - dome_h * r.uniform(0.45, 0.55)
        drips = [(-1.0, edge_v)]
        for u in np.linspace(-dome_w * 0.7, dome_w * 0.7, 4):
            depth = r.uniform(0.12, 0.28)
            drips += [(u - 0.09, edge_v), (u - 0.06, edge_v + depth), (u + 0.06, edge_v + depth)]
            drips += [(u + 0.09, edge_v)]
        cap = [*drips, (1.0, edge_v), (1.0, -1.5), (-1.0, -1.5)]
        p.poly(cap, p.hue("#7B3D13"))
    p.poly(dome, None, p.hue("#9A6A2A"))
    p.oval(-dome_w * 0.35, rim_v - dome_h * 0.8, 0.14, 0.06, p.hue("#C88A52"), angle=-20)
    p.stroke(
        [(top_w * 0.7, rim_v + 0.3), (foot_w * 0.75, foot_v - 0.15)], p.hue("#FFFFFF"), p.px(0.06)
    )


def _across(head: Point, tip: Point, t: float, half: float) -> list[Point]:
    """The two edge points of a stick a fraction `t` of the way from head to tip."""
    du, dv = tip[0] - head[0], tip[1] - head[1]
    length = float(np.hypot(du, dv))
    nu, nv = -dv / length * half, du / length * half
    u, v = head[0] + du * t, head[1] + dv * t
    return [(u + nu, v + nv), (u - nu, v - nv)]


def _stick_piece(head: Point, tip: Point, t0: float, t1: float) -> list[Point]:
    # chopsticks taper from a square head to a fine tip
    a = _across(head, tip, t0, 0.08 - 0.045 * t0)
    b = _across(head, tip, t1, 0.08 - 0.045 * t1)
    return [a[0], b[0], b[1], a[1]]


def _chopsticks(p: _Pen) -> None:
    r = p.rng
    palettes = [("#C98A4B", "#5A3518", "#E7B77F"), ("#B3322B", "#4E1210", "#E8C9A0")]
    wood, edge, tipc = (p.hue(c) for c in palettes[int(r.integers(len(palettes)))])
    cross = (r.uniform(-0.15, 0.15), r.uniform(-0.1, 0.1))
    for sign in (1, -1):
        angle = np.deg2rad(sign * r.uniform(24, 36) + (0 if sign > 0 else 180))
        d = (float(np.cos(angle)), float(np.sin(angle)))
        back, front = r.uniform(1.1, 1.25), r.uniform(1.05, 1.2)
        head = (cross[0] - d[0] * back, cross[1] - d[1] * back)
        tip = (cross[0] + d[0] * front, cross[1] + d[1] * front)
        p.poly(_stick_piece(head, tip, 0.0, 1.0), wood, edge)
        p.poly(_stick_piece(head, tip, 0.78, 1.0), tipc, edge)
        p.poly(_stick_piece(head, tip, 0.06, 0.12), edge)
        shine = [_across(head, tip, 0.15, 0.03)[0], _across(head, tip, 0.75, 0.02)[0]]
        p.stroke(shine, tipc, p.px(0.03))


PLAIN_ILLUSTRATIONS: dict[str, Illustrate] = {
    "tempura": _illustration(_tempura),
    "sashimi": _illustration(_sashimi),
    "dumpling": _illustration(_dumpling),
    "maki_1": _illustration(_maki(1), spin=0.0),
    "maki_2": _illustration(_maki(2), spin=0.0),
    "maki_3": _illustration(_maki(3), spin=0.0),
    "egg": _illustration(_egg),
    "salmon": _illustration(_salmon),
    "squid": _illustration(_squid),
    "wasabi": _illustration(_wasabi),
    "pudding": _illustration(_pudding),
    "chopsticks": _illustration(_chopsticks, spin=0.0),
}
