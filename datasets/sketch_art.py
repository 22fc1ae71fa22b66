"""A fourth renderer's card illustrations ("sketch"): pen-and-ink with watercolour washes.

Drawn independently from card-spec.md's written description, the way another artist would
draw it: loose, wobbly ink lines that overshoot or stop short, hatching for shade, over
translucent washes that drift off the ink, with soft edges and paper showing through.

These illustrations measured how well the detector carries over to card art it never saw, and
were held out of training for seven sessions; since the eighth they are training art (`--art
hands`, `datasets.commands.TRAINED_HAND_ART`). Each drawer has the `render_face` illustration
signature and touches only the zone cx ± 1.5·s by cy ± 1.3·s.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import cv2
import numpy as np

from datasets.faces import Illustrate

RGB = tuple[int, int, int]

_SHIFT = 4  # fractional bits for cv2's sub-pixel drawing
_ONE = 1 << _SHIFT

INK: RGB = (40, 33, 30)
RICE: RGB = (251, 250, 244)
NORI: RGB = (34, 50, 38)
SHADOW: RGB = (70, 55, 80)
GRAIN: RGB = (120, 116, 110)


# --- paths, in units of s around the illustration's centre (y down) ------------------------


def _ellipse(
    x: float, y: float, rx: float, ry: float, a0: float = 0.0, a1: float = 360.0
) -> np.ndarray:
    t = np.radians(np.linspace(a0, a1, max(8, int(abs(a1 - a0) / 5))))
    return np.column_stack([x + rx * np.cos(t), y + ry * np.sin(t)])


def _smooth(p: np.ndarray | Sequence, rounds: int = 3, closed: bool = True) -> np.ndarray:
    """Chaikin corner cutting: a hand-placed polygon becomes a smooth outline."""
    p = np.asarray(p, np.float64)
    for _ in range(rounds):
        a, b = (p, np.roll(p, -1, 0)) if closed else (p[:-1], p[1:])
        cut = np.empty((2 * len(a), 2))
        cut[0::2] = 0.75 * a + 0.25 * b
        cut[1::2] = 0.25 * a + 0.75 * b
        p = cut if closed else np.vstack([p[:1], cut, p[-1:]])
    return p


def _rotate(p: np.ndarray, deg: float, about: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    o = np.asarray(about)
    return (p - o) @ np.array([[c, s], [-s, c]]) + o


def _superellipse(x: float, y: float, rx: float, ry: float, n: float) -> np.ndarray:
    t = np.linspace(0, 2 * np.pi, 56)
    c, s = np.cos(t), np.sin(t)
    e = 2 / n
    return np.column_stack(
        [x + rx * np.sign(c) * np.abs(c) ** e, y + ry * np.sign(s) * np.abs(s) ** e]
    )


def _moved(p: np.ndarray, dx: float, dy: float) -> np.ndarray:
    return p + np.array([dx, dy])


def _unit(v: np.ndarray) -> np.ndarray:
    return v / max(float(np.hypot(*v)), 1e-9)


def _jitter(rgb: RGB, rng: np.random.Generator, amount: int = 8) -> np.ndarray:
    """BGR float colour, each channel shifted by up to ±amount."""
    bgr = np.array(rgb[::-1], np.float32) + rng.integers(-amount, amount + 1, 3)
    return np.clip(bgr, 0, 255)


# --- the sheet: the illustration's zone, copied out, painted on, written back -------------


class _Sheet:
    def __init__(
        self,
        img: np.ndarray,
        cx: float,
        cy: float,
        s: float,
        rng: np.random.Generator,
        tilt: float,
        mirror: bool,
    ) -> None:
        h, w = img.shape[:2]
        self.x0, self.y0 = max(0, math.ceil(cx - 1.5 * s)), max(0, math.ceil(cy - 1.3 * s))
        self.x1 = min(w, math.floor(cx + 1.5 * s) + 1)
        self.y1 = min(h, math.floor(cy + 1.3 * s) + 1)
        self.img, self.s, self.rng = img, s, rng
        self.buf = img[self.y0 : self.y1, self.x0 : self.x1].astype(np.float32)
        self.origin = np.array([cx - self.x0, cy - self.y0])
        a = math.radians(rng.uniform(-tilt, tilt))
        f = -1.0 if mirror and rng.random() < 0.5 else 1.0
        self.m = s * np.array([[f * math.cos(a), -math.sin(a)], [f * math.sin(a), math.cos(a)]])
        self.layer = np.zeros(self.buf.shape[:2], np.uint8)
        self.pen = _jitter(INK, rng, 10)
        self.layer_colour = self.pen
        self.layer_rgb: RGB | None = None
        self.dirty: tuple[int, int, int, int] | None = None

    def px(self, pts: np.ndarray | Sequence) -> np.ndarray:
        return np.asarray(pts, np.float64).reshape(-1, 2) @ self.m.T + self.origin

    @staticmethod
    def _fixed(p: np.ndarray, off: tuple[int, int] = (0, 0)) -> np.ndarray:
        return np.round((p - off) * _ONE).astype(np.int32)

    def _box(self, p: np.ndarray, pad: float) -> tuple[int, int, int, int] | None:
        """The pixel box around points `p`, padded and cut to the sheet; None if empty."""
        h, w = self.buf.shape[:2]
        x0, y0 = max(0, int(p[:, 0].min() - pad)), max(0, int(p[:, 1].min() - pad))
        x1, y1 = min(w, int(p[:, 0].max() + pad) + 1), min(h, int(p[:, 1].max() + pad) + 1)
        return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None

    def _touch(self, p: np.ndarray, pad: float) -> None:
        box = self._box(p, pad)
        if box is not None:
            d = self.dirty or box
            self.dirty = (
                min(d[0], box[0]),
                min(d[1], box[1]),
                max(d[2], box[2]),
                max(d[3], box[3]),
            )

    def _noise(self, shape: tuple[int, int], cell: float) -> np.ndarray:
        h, w = shape
        c = max(2.0, cell * self.s)
        grid = self.rng.random((int(h / c) + 2, int(w / c) + 2), dtype=np.float32)
        return np.clip(cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC), 0, 1)

    def _mask(
        self, polys: Sequence[np.ndarray], box: tuple[int, int, int, int], stroke: int = 0
    ) -> np.ndarray:
        """A uint8 mask, in `box`, of polygons (or polylines `stroke` px wide) given in px."""
        x0, y0, x1, y1 = box
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        fixed = [self._fixed(p, (x0, y0)) for p in polys]
        if stroke:
            cv2.polylines(mask, fixed, False, 255, stroke, cv2.LINE_AA, _SHIFT)
        else:
            cv2.fillPoly(mask, fixed, 255, cv2.LINE_AA, _SHIFT)
        return mask

    def wash(
        self,
        polys: Sequence[np.ndarray],
        rgb: RGB,
        alpha: float = 0.9,
        *,
        multiply: bool = False,
        soft: float = 0.015,
        drift: float = 0.03,
        blotch: float = 0.18,
        dry: float = 0.35,
        stroke: float = 0.0,
        clip: np.ndarray | None = None,
    ) -> None:
        """A translucent wash over `polys` (or along them, `stroke` wide), drifted off the ink."""
        self.flush()
        rng, s = self.rng, self.s
        shift = rng.normal(0, drift, 2)
        pts = [self.px(np.asarray(p) + shift) for p in polys]
        sigma = max(0.7, soft * s * rng.uniform(0.6, 1.4))
        thick = max(1, round(stroke * s * rng.uniform(0.8, 1.2))) if stroke else 0
        box = self._box(np.vstack(pts), 9 * sigma + thick + 2)
        if box is None:
            return
        mask = self._mask(pts, box, thick)
        if clip is not None:
            mask = np.minimum(mask, self._mask([self.px(clip)], box))
        a = cv2.GaussianBlur(mask.astype(np.float32) / 255, (0, 0), sigma)
        rim = np.clip(a - cv2.GaussianBlur(a, (0, 0), 3 * sigma), 0, 1)
        a *= alpha * (1 - blotch * self._noise(a.shape, 0.3))
        # dry-brush skips: specks where the paper shows through
        a *= np.clip((0.95 - self._noise(a.shape, 0.05)) * 10, 1 - dry, 1)
        col = _jitter(rgb, rng)
        region = self.buf[box[1] : box[3], box[0] : box[2]]
        if multiply:
            region *= 1 - a[..., None] * (1 - col / 255)
        else:
            region += (col - region) * a[..., None]
        # pigment pools where a wash dries, darkening its edge
        region *= 1 - 0.3 * alpha * rim[..., None]

    def _use_colour(self, rgb: RGB | None) -> None:
        """Strokes of one colour share a layer; a new colour lays the pending one down."""
        if rgb != self.layer_rgb:
            self.flush()
            self.layer_rgb = rgb
            self.layer_colour = self.pen if rgb is None else _jitter(rgb, self.rng, 6)

    def ink(
        self,
        paths: Sequence[np.ndarray],
        *,
        closed: bool = False,
        width: float = 0.013,
        wobble: float = 0.012,
        passes: int = 2,
        overshoot: float = 0.07,
        rgb: RGB | None = None,
    ) -> None:
        """Pen strokes along `paths`, each gone over 1..passes times, never quite the same."""
        self._use_colour(rgb)
        for path in paths:
            for _ in range(int(self.rng.integers(1, passes + 1))):
                q = self.px(self._wobbly(np.asarray(path, np.float64), closed, wobble, overshoot))
                t = max(1, round(width * self.s * self.rng.uniform(0.6, 1.3)))
                cv2.polylines(self.layer, [self._fixed(q)], False, 255, t, cv2.LINE_AA, _SHIFT)
                self._touch(q, t + 2)

    def hatch(
        self,
        region: np.ndarray,
        angle: float,
        *,
        spacing: float = 0.07,
        width: float = 0.009,
        rgb: RGB | None = None,
        clip: np.ndarray | None = None,
    ) -> None:
        """Parallel strokes filling `region` (and `clip`), their ends ragged as a hand's are."""
        self._use_colour(rgb)
        rng, s = self.rng, self.s
        reg = np.asarray(region, np.float64)
        box = self._box(self.px(reg), 3)
        if box is None:
            return
        a = math.radians(angle)
        d, n = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
        along, across = reg @ d, reg @ n
        half = (along.max() - along.min()) / 2 + 0.1
        lines = []
        for o in np.arange(across.min() + spacing * rng.uniform(0.2, 0.8), across.max(), spacing):
            tilt = d + n * rng.normal(0, 0.05)
            mid = n * o + d * (along.min() + along.max()) / 2
            lines.append(self.px([mid - tilt * half, mid + tilt * half]))
        if not lines:
            return
        strokes = self._mask(lines, box, max(1, round(width * s)))
        keep = self._mask([self.px(reg)], box)
        if clip is not None:
            keep = np.minimum(keep, self._mask([self.px(clip)], box))
        soft = cv2.GaussianBlur(keep.astype(np.float32) / 255, (0, 0), max(0.7, 0.04 * s))
        ragged = soft + (self._noise(soft.shape, 0.08) - 0.5) * 0.6 > 0.5
        view = self.layer[box[1] : box[3], box[0] : box[2]]
        np.maximum(view, np.where(ragged, strokes, 0).astype(np.uint8), out=view)
        self._touch(self.px(reg), 3)

    def _wobbly(self, p: np.ndarray, closed: bool, wobble: float, overshoot: float) -> np.ndarray:
        rng = self.rng
        if closed:
            p = np.vstack([p, p[:1]])
        t = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(p, axis=0).T))])
        length = t[-1]
        if length <= 0:
            return p
        n = max(4, int(length / 0.02))
        tt = np.linspace(0, length, n)
        q = np.column_stack([np.interp(tt, t, p[:, 0]), np.interp(tt, t, p[:, 1])])
        k = max(3, int(length / 0.3) + 2)
        knots = rng.normal(0, wobble, (k, 2))
        u = np.linspace(0, 1, k)
        q += np.column_stack([np.interp(tt / length, u, knots[:, i]) for i in (0, 1)])
        if closed:
            m = max(1, int(n * rng.uniform(0.02, 0.08)))
            return np.vstack([q, q[1 : m + 1]]) if rng.random() < 0.6 else q[:-m]
        over = overshoot * rng.uniform(0, 1, 2)
        start = q[0] - _unit(q[1] - q[0]) * over[0]
        end = q[-1] + _unit(q[-1] - q[-2]) * over[1]
        return np.vstack([start, q, end])

    def flush(self) -> None:
        if self.dirty is None:
            return
        x0, y0, x1, y1 = self.dirty
        ink = self.layer[y0:y1, x0:x1]
        region = self.buf[y0:y1, x0:x1]
        region += (self.layer_colour - region) * (ink.astype(np.float32)[..., None] * (0.9 / 255))
        ink[:] = 0
        self.dirty = None

    def done(self) -> None:
        self.flush()
        self.img[self.y0 : self.y1, self.x0 : self.x1] = np.clip(self.buf + 0.5, 0, 255)


def _illustration(
    draw: Callable[[_Sheet], None], *, tilt: float = 6.0, mirror: bool = False
) -> Illustrate:
    def illustrate(
        img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator
    ) -> None:
        sheet = _Sheet(img, cx, cy, s, rng, tilt, mirror)
        if sheet.buf.size:
            draw(sheet)
            sheet.done()

    return illustrate


# --- shared pieces ----------------------------------------------------------------------


def _ticks(
    sh: _Sheet, centres: np.ndarray, size: float, *, sweep: float = 160.0, rgb: RGB | None = None
) -> None:
    """Little marks: rice grains (sweep 360), batter crumbs, grated texture."""
    rng = sh.rng
    marks = []
    for x, y in centres:
        a0 = rng.uniform(0, 360)
        mark = _ellipse(x, y, size, size * rng.uniform(0.35, 0.55), a0, a0 + sweep)
        marks.append(_rotate(mark, rng.uniform(0, 180), (x, y)))
    sh.ink(marks, width=0.008, wobble=0.002, passes=1, overshoot=0.0, rgb=rgb)


def _scatter(
    rng: np.random.Generator, n: int, x: float, y: float, rx: float, ry: float
) -> np.ndarray:
    r = np.sqrt(rng.uniform(0, 1, n))
    t = rng.uniform(0, 2 * np.pi, n)
    return np.column_stack([x + rx * r * np.cos(t), y + ry * r * np.sin(t)])


def _rice_mound(sh: _Sheet) -> np.ndarray:
    """The nigiri's rice, seen from the front and a little above; returns its outline."""
    rng = sh.rng
    t = np.linspace(0, 2 * np.pi, 40, endpoint=False)
    lumps = 1 + 0.035 * rng.standard_normal(t.size)
    rice = np.column_stack([1.05 * lumps * np.cos(t), 0.38 + 0.48 * lumps * np.sin(t)])
    sh.wash([_ellipse(0.08, 0.82, 1.1, 0.16)], SHADOW, 0.35, multiply=True, soft=0.05)
    sh.wash([rice], RICE, 0.95, dry=0.4)
    sh.wash([_ellipse(0.1, 0.62, 1.0, 0.28)], (205, 208, 222), 0.45, multiply=True, clip=rice)
    sh.ink([rice], closed=True)
    _ticks(sh, _scatter(rng, 14, 0.0, 0.55, 0.8, 0.22), 0.045, sweep=360, rgb=GRAIN)
    return rice


def _maki_roll(sh: _Sheet, x: float, y: float, r: float) -> None:
    """Top-down: nori ring, rice disc, a red-orange centre."""
    rng = sh.rng
    sh.wash([_ellipse(x + 0.07 * r, y + 0.1 * r, r, r)], SHADOW, 0.35, multiply=True, soft=0.04)
    sh.wash([_ellipse(x, y, r, r)], NORI, 0.93, blotch=0.15, dry=0.25, drift=0.015)
    sh.wash(
        [_ellipse(x - 0.2 * r, y - 0.2 * r, 0.8 * r, 0.8 * r, 190, 260)],
        (120, 150, 125),
        0.45,
        stroke=0.035,
        drift=0.01,
    )
    sh.wash([_ellipse(x, y, 0.68 * r, 0.68 * r)], RICE, 0.96, drift=0.012, dry=0.35)
    a = np.linspace(0, 2 * np.pi, 8, endpoint=False)
    core = np.column_stack([x + 0.24 * r * np.cos(a), y + 0.24 * r * np.sin(a)])
    core = _smooth(core + rng.normal(0, 0.03 * r, core.shape), 2)
    sh.wash([core], (236, 84, 44), 0.92, drift=0.01, dry=0.2)
    sh.ink([_ellipse(x, y, r, r)], closed=True)
    sh.ink([_ellipse(x, y, 0.68 * r, 0.68 * r)], closed=True, width=0.012, passes=1)
    sh.ink([core], closed=True, width=0.01, passes=1, wobble=0.006)
    ring = rng.uniform(0.36, 0.56, 8) * r
    ang = rng.uniform(0, 2 * np.pi, 8)
    grains = np.column_stack([x + ring * np.cos(ang), y + ring * np.sin(ang)])
    _ticks(sh, grains, 0.09 * r, sweep=360, rgb=GRAIN)


# --- the twelve drawers ------------------------------------------------------------------


def _tempura(sh: _Sheet) -> None:
    rng = sh.rng
    plate = _ellipse(0, 0.6, 1.3, 0.46)
    sh.wash([_moved(plate, 0.05, 0.08)], SHADOW, 0.35, multiply=True, soft=0.05)
    sh.wash([plate], (248, 246, 240), 0.93, dry=0.4)
    sh.wash([_ellipse(0, 0.62, 0.9, 0.29)], (200, 212, 232), 0.4, multiply=True)
    sh.ink([plate], closed=True)
    sh.ink([_ellipse(0, 0.62, 0.92, 0.3, 150, 390)], width=0.011, passes=1)

    # A fried shrimp lying bent across the plate: thick at the head end, thin to the tail.
    t = np.linspace(0, 1, 34)[:, None]
    p0 = np.array([-0.98, 0.42])
    p1 = np.array([rng.uniform(-0.45, -0.25), rng.uniform(-0.85, -0.7)])
    p2 = np.array([0.7, rng.uniform(-0.4, -0.3)])
    ctr = (1 - t) ** 2 * p0 + 2 * t * (1 - t) * p1 + t**2 * p2
    knots = np.interp(t[:, 0], np.linspace(0, 1, 9), rng.uniform(0.95, 1.1, 9))
    lumps = knots + 0.1 * np.abs(np.sin(t[:, 0] * 26 + rng.uniform(0, 6)))
    half = ((0.3 - 0.17 * t[:, 0] ** 1.5) * lumps)[:, None]
    tang = np.gradient(ctr, axis=0)
    tang /= np.hypot(tang[:, 0], tang[:, 1])[:, None]
    nrm = np.column_stack([-tang[:, 1], tang[:, 0]])
    upper, lower = ctr - nrm * half, ctr + nrm * half
    phi = np.linspace(0, np.pi, 10)[:, None]
    cap = ctr[0] + half[0] * (nrm[0] * np.cos(phi) - tang[0] * np.sin(phi))
    body = np.vstack([cap, upper[1:], lower[::-1]])
    e, d, n = ctr[-1], tang[-1], nrm[-1]
    fan = [(0, 0.09), (0.2, 0.25), (0.4, 0.13), (0.31, 0.0), (0.4, -0.12), (0.2, -0.22), (0, -0.09)]
    tail = np.array([e + d * a + n * b for a, b in fan])
    sh.wash([tail], (226, 70, 44), 0.92)
    sh.ink([tail], closed=True, width=0.012)
    sh.ink([np.array([e, e + d * 0.3 + n * b]) for b in (0.16, -0.15)], width=0.008, passes=1)
    sh.wash([body], (240, 178, 70), 0.93)
    sh.wash([np.vstack([ctr, lower[::-1]])], (222, 140, 60), 0.5, multiply=True, clip=body)
    sh.ink([body], closed=True)
    sh.hatch(np.vstack([ctr[4:30], lower[29:3:-1]]), 50, spacing=0.09)
    segs = [np.array([upper[i], ctr[i] + d * 0.04, lower[i]]) for i in (25, 29)]
    sh.ink(segs, width=0.009, passes=1, overshoot=0.02)
    picks = rng.integers(1, 26, 14)
    crumbs = ctr[picks] + nrm[picks] * half[picks] * rng.uniform(-0.75, 0.4, (14, 1))
    _ticks(sh, crumbs, 0.028)


def _sashimi(sh: _Sheet) -> None:
    rng = sh.rng
    plate = _smooth([(-1.38, 0.2), (1.38, 0.1), (1.33, 1.0), (-1.33, 1.08)], 3)
    sh.wash([_moved(plate, 0.04, 0.07)], SHADOW, 0.3, multiply=True, soft=0.05)
    sh.wash([plate], (58, 74, 128), 0.92)
    sh.wash([plate * 0.9 + (0, 0.06)], (96, 118, 176), 0.6, soft=0.06)
    sh.ink([plate], closed=True)
    for i in range(3):
        x = (i - 1) * 0.78 + rng.uniform(-0.04, 0.04)
        ang = -18 + (i - 1) * 10 + rng.uniform(-5, 5)
        slab = _rotate(_superellipse(x, -0.18, 0.3, 0.6, 3.2), ang, (x, -0.18))
        sh.wash([slab], (244, 140, 152), 0.9, dry=0.5)
        fat = [
            _rotate(
                _smooth([(x - 0.4, y), (x, y + 0.08), (x + 0.4, y - 0.02)], 2, False),
                ang,
                (x, -0.18),
            )
            for y in (-0.6, -0.36, -0.12, 0.12)
        ]
        sh.wash(fat, (255, 236, 238), 0.75, stroke=0.045, drift=0.01, clip=slab)
        sh.ink([slab], closed=True)
        edge = _rotate(
            np.array([(x + 0.12, -0.8), (x + 0.32, 0.42), (x + 0.45, 0.42), (x + 0.45, -0.8)]),
            ang,
            (x, -0.18),
        )
        sh.hatch(edge, ang + 60, spacing=0.065, clip=slab)


def _dumpling(sh: _Sheet) -> None:
    rng = sh.rng
    top = _ellipse(0, 0.45, 1.2, 1.02, 180, 360)
    frill = 1 + 0.03 * np.abs(np.sin(np.linspace(0, 9 * np.pi, len(top))))
    top = (top - (0, 0.45)) * frill[:, None] + (0, 0.45)
    body = np.vstack([top, _ellipse(0, 0.45, 1.2, 0.2, 0, 180)])
    sh.wash([_ellipse(0.08, 0.64, 1.25, 0.2)], SHADOW, 0.4, multiply=True, soft=0.05)
    sh.wash([body], (250, 246, 234), 0.94, dry=0.4)
    sh.wash([_ellipse(0.15, 0.62, 1.3, 0.5)], (196, 198, 222), 0.5, multiply=True, clip=body)
    sh.wash([_ellipse(0, 0.65, 1.2, 0.15)], (214, 160, 96), 0.5, multiply=True, clip=body)
    sh.ink([body], closed=True)
    ridge = _ellipse(0, 0.45, 0.98, 0.86, 200, 340)
    sh.ink([ridge], width=0.012, passes=1)
    pleats = []
    for a in np.linspace(212, 328, 7) + rng.uniform(-3, 3, 7):
        on = np.array([0.98 * math.cos(math.radians(a)), 0.45 + 0.86 * math.sin(math.radians(a))])
        down = on + (np.array([0.0, 0.45]) - on) * rng.uniform(0.3, 0.42)
        bend = (on + down) / 2 + (0.06 * math.cos(math.radians(a)), 0)
        pleats.append(_smooth([on, bend, down], 2, False))
    sh.ink(pleats, width=0.013, overshoot=0.03)
    sh.hatch(
        np.array([(0.2, 0.35), (1.2, 0.2), (1.2, 0.7), (0.2, 0.7)]), -35, spacing=0.07, clip=body
    )


def _maki(count: int) -> Callable[[_Sheet], None]:
    def draw(sh: _Sheet) -> None:
        rng = sh.rng
        if count == 1:
            _maki_roll(
                sh, rng.uniform(-0.05, 0.05), rng.uniform(-0.05, 0.05), rng.uniform(0.78, 0.86)
            )
        elif count == 2:
            dy = rng.uniform(-0.15, 0.15)
            for sx in (-1, 1):
                _maki_roll(sh, sx * rng.uniform(0.68, 0.72), sx * dy, 0.6)
        else:
            flip = 1 if rng.random() < 0.5 else -1
            for x, y in ((-0.62, 0.45), (0.62, 0.45), (0.0, -0.55)):
                _maki_roll(sh, x + rng.uniform(-0.03, 0.03), flip * y, 0.5)

    return draw


def _egg(sh: _Sheet) -> None:
    _rice_mound(sh)
    front = _smooth([(-1.2, -0.3), (1.2, -0.3), (1.2, 0.12), (-1.2, 0.12)], 1)
    top = np.array([(-1.2, -0.3), (1.2, -0.3), (1.04, -0.66), (-1.04, -0.66)])
    sh.wash([front], (236, 162, 38), 0.92)
    sh.wash([top], (255, 234, 140), 0.92, drift=0.02)
    sh.wash([top[[0, 1]], front[-3:]], (190, 110, 50), 0.5, stroke=0.05, multiply=True)
    sh.ink([front, top], closed=True)
    layers = [np.array([(-1.15, y), (1.15, y + 0.01)]) for y in (-0.18, -0.05)]
    sh.ink(layers, width=0.009, passes=1, rgb=(170, 100, 40))
    band = np.array(
        [(-0.2, -0.67), (0.2, -0.67), (0.25, -0.3), (0.25, 0.78), (-0.25, 0.78), (-0.25, -0.3)]
    )
    sh.wash([band], NORI, 0.93, dry=0.3, drift=0.015)
    sh.ink([band], closed=True, width=0.012)
    sh.hatch(band[2:], 80, spacing=0.06, rgb=(90, 120, 100))


def _salmon(sh: _Sheet) -> None:
    _rice_mound(sh)
    fish = _rotate(_superellipse(0, -0.12, 1.32, 0.4, 2.6), -7)
    sh.wash([fish], (250, 126, 64), 0.92)
    stripes = [
        _smooth([(x, -0.62), (x + 0.2, -0.15), (x + 0.32, 0.35)], 2, False)
        for x in np.arange(-1.15, 1.2, 0.42)
    ]
    sh.wash(stripes, (255, 238, 222), 0.8, stroke=0.05, drift=0.01, clip=fish)
    sh.ink([fish], closed=True)
    sh.hatch(_ellipse(0.1, 0.18, 1.2, 0.22), -30, spacing=0.08, rgb=(170, 70, 40), clip=fish)


def _squid(sh: _Sheet) -> None:
    rng = sh.rng
    _rice_mound(sh)
    squid = _rotate(_superellipse(0, -0.15, 1.3, 0.42, 3.4), rng.uniform(-8, -3))
    sh.wash([_ellipse(0.05, 0.22, 1.2, 0.14)], (150, 150, 170), 0.4, multiply=True, soft=0.04)
    sh.wash([squid], (244, 206, 214), 0.9)
    sh.wash([squid * 0.84 + (0, -0.03)], (253, 246, 244), 0.85, soft=0.05)
    sh.ink([squid], closed=True)
    inside = squid * 0.8 + (0, -0.03)
    sh.hatch(inside, 35, spacing=0.16, width=0.008, rgb=(180, 140, 150))
    sh.hatch(inside, -35, spacing=0.16, width=0.008, rgb=(180, 140, 150))
    shine = _smooth([(-0.8, -0.38), (-0.2, -0.46), (0.5, -0.43)], 2, False)
    sh.wash([shine], (255, 255, 255), 0.85, stroke=0.05, drift=0.01)


def _wasabi(sh: _Sheet) -> None:
    rng = sh.rng
    dish = _ellipse(0, 0.5, 1.25, 0.55)
    sh.wash([_moved(dish, 0.05, 0.09)], SHADOW, 0.35, multiply=True, soft=0.05)
    sh.wash([dish], (236, 241, 246), 0.93, dry=0.4)
    sh.wash([_ellipse(0, 0.5, 1.08, 0.45)], (60, 80, 160), 0.6, stroke=0.04)
    sh.ink([dish], closed=True)
    sh.ink([_ellipse(0, 0.52, 0.8, 0.32, 160, 380)], width=0.01, passes=1)
    lean = rng.uniform(-0.12, 0.12)
    mound = _smooth(
        [
            (-0.66, 0.55),
            (-0.55, 0.2),
            (-0.32, -0.12),
            (-0.12 + lean, -0.48),
            (0.08 + lean, -0.74),
            (0.22 + lean, -0.8),
            (0.2 + lean, -0.6),
            (0.3, -0.35),
            (0.5, -0.05),
            (0.64, 0.25),
            (0.7, 0.55),
            (0.0, 0.66),
        ],
        3,
    )
    sh.wash([mound], (140, 196, 70), 0.92)
    sh.wash([_moved(mound, 0.3, 0.05)], (90, 140, 50), 0.45, multiply=True, clip=mound)
    sh.ink([mound], closed=True)
    swirls = [
        _smooth([(-0.45, 0.3), (-0.1, 0.12), (0.4, 0.22)], 2, False),
        _smooth([(-0.3, -0.05), (0.0, -0.2), (0.3, -0.1)], 2, False),
    ]
    sh.ink(swirls, width=0.011, passes=1, overshoot=0.02)
    sh.hatch(
        np.array([(0.25, -0.2), (0.75, 0.1), (0.75, 0.6), (0.25, 0.6)]),
        70,
        spacing=0.07,
        clip=mound,
    )
    _ticks(sh, _scatter(rng, 14, 0.0, 0.15, 0.45, 0.35), 0.03, rgb=(60, 100, 40))


def _pudding(sh: _Sheet) -> None:
    rng = sh.rng

    def wall(y0: float, y1: float) -> np.ndarray:
        """The cup's outline from y0 down to its bottom at y1, bowed a little."""
        ys = np.linspace(y0, y1, 12)
        half = 0.9 - 0.3 * ((ys + 0.6) / 1.3) ** 1.4
        return np.vstack(
            [
                np.column_stack([-half, ys]),
                _ellipse(0, y1, 0.6, 0.14, 180, 0)[::-1],
                np.column_stack([half, ys])[::-1],
            ]
        )

    cup = np.vstack([wall(-0.6, 0.7), _ellipse(0, -0.6, 0.9, 0.2, 0, 180)[::-1]])
    base = _ellipse(0, 1.0, 0.58, 0.13)
    stem = np.array([(-0.16, 0.78), (0.16, 0.78), (0.22, 0.98), (-0.22, 0.98)])
    sh.wash([_ellipse(0.08, 1.05, 0.75, 0.14)], SHADOW, 0.35, multiply=True, soft=0.04)
    sh.wash([base, stem], (232, 238, 246), 0.7)
    sh.wash([wall(-0.38, 0.7)], (250, 226, 150), 0.92)
    # The caramel: the custard's top surface, with a band running down the front in drips.
    xs = np.linspace(0.84, -0.84, 43)
    drips = sum(
        rng.uniform(0.06, 0.16) * np.exp(-(((xs - x) / 0.05) ** 2))
        for x in rng.uniform(-0.6, 0.6, 3)
    )
    front = np.column_stack([xs, -0.36 + 0.17 * np.sqrt(1 - (xs / 0.845) ** 2) + 0.08 + drips])
    caramel = np.vstack([_ellipse(0, -0.36, 0.84, 0.17, 180, 360), front])
    sh.wash([caramel], (150, 78, 26), 0.95, drift=0.015, dry=0.3)
    sh.wash([_ellipse(-0.1, -0.4, 0.5, 0.08)], (205, 132, 60), 0.6, soft=0.04)
    sh.ink([front], width=0.01, passes=1, rgb=(100, 50, 20))
    sh.wash([cup], (205, 220, 240), 0.25, soft=0.03)
    sh.ink([cup, _ellipse(0, -0.6, 0.9, 0.2), base, stem], closed=True)
    sh.ink([_ellipse(0, -0.38, 0.83, 0.17, 0, 180)], width=0.01, passes=1)
    glints = [np.array([(-0.7, -0.35), (-0.55, 0.4)]), np.array([(-0.55, -0.3), (-0.45, 0.1)])]
    sh.wash(glints, (255, 255, 255), 0.8, stroke=0.04, drift=0.01)
    shade = np.array([(0.35, -0.1), (0.85, -0.3), (0.62, 0.7), (0.35, 0.7)])
    sh.hatch(shade, 60, spacing=0.07, clip=cup)


def _chopsticks(sh: _Sheet) -> None:
    rng = sh.rng
    sticks = []
    for sx in (-1, 1):
        back = np.array([sx * 1.22, -0.95]) + rng.uniform(-0.06, 0.06, 2)
        tip = np.array([-sx * 1.12, 0.98]) + rng.uniform(-0.06, 0.06, 2)
        d = _unit(tip - back)
        n = np.array([-d[1], d[0]])
        sticks.append((back, tip, d, n))
    for back, tip, d, n in sticks:
        shape = np.array([back + n * 0.08, tip + n * 0.03, tip - n * 0.03, back - n * 0.08])
        sh.wash([_moved(shape, 0.06, 0.09)], SHADOW, 0.3, multiply=True, soft=0.04)
        sh.wash([shape], (214, 158, 96), 0.92, drift=0.02, dry=0.5)
        band_end = back + d * 0.5
        band = np.array(
            [back + n * 0.08, band_end + n * 0.07, band_end - n * 0.07, back - n * 0.08]
        )
        sh.wash([band], (150, 36, 40), 0.85, drift=0.01)
        sh.ink([shape], closed=True, width=0.013)
        grain = [np.array([back + d * 0.6 + n * 0.02, tip - d * 0.4 + n * 0.01])]
        sh.ink(
            [np.array([band_end + n * 0.08, band_end - n * 0.08]), *grain], width=0.009, passes=1
        )


SKETCH_ILLUSTRATIONS: dict[str, Illustrate] = {
    "tempura": _illustration(_tempura, mirror=True),
    "sashimi": _illustration(_sashimi, mirror=True),
    "dumpling": _illustration(_dumpling, mirror=True),
    "maki_1": _illustration(_maki(1)),
    "maki_2": _illustration(_maki(2)),
    "maki_3": _illustration(_maki(3)),
    "egg": _illustration(_egg, tilt=4.0),
    "salmon": _illustration(_salmon, tilt=4.0, mirror=True),
    "squid": _illustration(_squid, tilt=4.0, mirror=True),
    "wasabi": _illustration(_wasabi, mirror=True),
    "pudding": _illustration(_pudding, tilt=4.0),
    "chopsticks": _illustration(_chopsticks, mirror=True),
}
