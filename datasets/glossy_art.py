"""Glossy 3D-render card art: a held-out illustration style for testing only.

The style imitates a commercial stock icon or game asset: every object is a smooth,
rounded solid shaded from a height map (key light from the upper left, Phong specular
highlights, a cool rim light on the lower-right edges), sits on a soft blurred drop
shadow, and uses saturated colours with no outlines anywhere.

This module was written independently of the training renderers' art: it was drawn from
the card table alone (what each card shows and its face colour), without reading the
drawers in `datasets/faces.py`, `datasets/art.py` or any other `datasets/*_art.py`. It
exists to measure how a detector trained on other art carries over to art it never saw,
so it is a test set's art only and must never be used for training.

Each drawer has the `Illustrate` signature: it paints one illustration in place into a
BGR uint8 face centred at (cx, cy) with size unit `s`, changes no pixel outside
`zone_of(img.shape, cx, cy, s)`, and takes all its randomness from `rng`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

from datasets.art import zone_of
from datasets.faces import Illustrate

__all__ = ["GLOSSY_ILLUSTRATIONS"]

_SHIFT = 4
_ONE = float(1 << _SHIFT)
_TAU = 2.0 * math.pi


def _unit(*v: float) -> np.ndarray:
    a = np.asarray(v, np.float64)
    return (a / np.linalg.norm(a)).astype(np.float32)


_LIGHT = _unit(-0.45, -0.62, 0.64)  # key light: upper left, towards the viewer
_HALF = _unit(*(_LIGHT + np.array([0.0, 0.0, 1.0], np.float32)))
_RIM_DIR = (0.78, 0.62)  # rim light from behind, lower right (image x, y)
_RIM_BGR = np.array([255.0, 246.0, 232.0], np.float32)  # cool white
_WHITE = np.array([255.0, 255.0, 255.0], np.float32)

# A drawing instruction in units of s around the drawing centre:
#   ("fill", polygons, value)          each polygon filled on its own (a union),
#   ("many", k x n x 2 array, value)   all in one call (overlaps cancel; for small specks),
#   ("line", points, value, width)     an open polyline `width` units of s thick.
Stroke = tuple[Any, ...]
Point = Sequence[float] | np.ndarray


def _hex(rgb: str) -> np.ndarray:
    v = int(rgb.lstrip("#"), 16)
    return np.array([v & 255, (v >> 8) & 255, (v >> 16) & 255], np.float32)


# ----------------------------------------------------------------------------- shapes
# All shapes are polygons (N x 2 float arrays) in units of s around the drawing centre.


def _ells(
    x: Any, y: Any, rx: Any, ry: Any, ang: Any = 0.0, n: int = 40, a0: float = 0.0, a1: float = _TAU
) -> np.ndarray:
    """Ellipses (or arcs a0..a1) as a k x n x 2 array; arguments broadcast over k."""
    full = abs(a1 - a0) >= _TAU - 1e-6
    t = np.linspace(a0, a1, n, endpoint=not full)
    x, y, rx, ry, ang = (
        np.atleast_1d(np.asarray(v, np.float64))[:, None] for v in (x, y, rx, ry, ang)
    )
    ex, ey = rx * np.cos(t), ry * np.sin(t)
    c, s = np.cos(ang), np.sin(ang)
    return np.stack(np.broadcast_arrays(x + ex * c - ey * s, y + ex * s + ey * c), -1)


def _ell(
    x: float,
    y: float,
    rx: float,
    ry: float,
    ang: float = 0.0,
    n: int = 40,
    a0: float = 0.0,
    a1: float = _TAU,
) -> np.ndarray:
    full = abs(a1 - a0) >= _TAU - 1e-6
    t = np.linspace(a0, a1, n, endpoint=not full)
    ex, ey = rx * np.cos(t), ry * np.sin(t)
    c, s = math.cos(ang), math.sin(ang)
    return np.stack([x + ex * c - ey * s, y + ex * s + ey * c], 1)


def _sup(
    x: float, y: float, rx: float, ry: float, p: float, ang: float = 0.0, n: int = 56
) -> np.ndarray:
    """A superellipse: p = 2 is an ellipse, larger p a rounded rectangle."""
    t = np.linspace(0.0, _TAU, n, endpoint=False)
    ct, st = np.cos(t), np.sin(t)
    ex = rx * np.sign(ct) * np.abs(ct) ** (2.0 / p)
    ey = ry * np.sign(st) * np.abs(st) ** (2.0 / p)
    c, s = math.cos(ang), math.sin(ang)
    return np.stack([x + ex * c - ey * s, y + ex * s + ey * c], 1)


def _rod(p0: Point, p1: Point, r0: float, r1: float, n: int = 10) -> np.ndarray:
    """A tapered capsule from p0 (radius r0) to p1 (radius r1)."""
    a = np.asarray(p0, np.float64)
    b = np.asarray(p1, np.float64)
    phi = math.atan2(b[1] - a[1], b[0] - a[0])
    t1 = np.linspace(phi - math.pi / 2, phi + math.pi / 2, n)
    t0 = np.linspace(phi + math.pi / 2, phi + 1.5 * math.pi, n)
    cap1 = b + r1 * np.stack([np.cos(t1), np.sin(t1)], 1)
    cap0 = a + r0 * np.stack([np.cos(t0), np.sin(t0)], 1)
    return np.vstack([cap1, cap0])


def _wobble(poly: np.ndarray, amp: float, rng: np.random.Generator, waves: int = 5) -> np.ndarray:
    """Perturb a closed polygon radially with a smooth random wave (lumpy food edges)."""
    c = poly.mean(0)
    t = np.linspace(0.0, _TAU, len(poly), endpoint=False)
    k = np.arange(2, 2 + waves)[:, None]
    ph = rng.uniform(0.0, _TAU, (waves, 1))
    w = rng.uniform(-1.0, 1.0, (waves, 1)) / np.sqrt(k)
    f = 1.0 + amp * (w * np.sin(k * t + ph)).sum(0)
    return c + (poly - c) * f[:, None]


def _bezier(p0: Point, c: Point, p1: Point, n: int) -> np.ndarray:
    t = np.linspace(0.0, 1.0, n)[:, None]
    a, b, e = (np.asarray(v, np.float64) for v in (p0, c, p1))
    return (1 - t) ** 2 * a + 2 * (1 - t) * t * b + t**2 * e


def _soft(m: np.ndarray, sigma: float) -> np.ndarray:
    """Gaussian blur; wide blurs run on a downsized copy (cheap, and smooth anyway)."""
    f = int(sigma / 1.4)
    if f < 2:
        return cv2.GaussianBlur(m, (0, 0), max(sigma, 0.5))
    h, w = m.shape[:2]
    small = cv2.resize(m, (max(w // f, 1), max(h // f, 1)), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), sigma / f)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def _slopes(hgt: np.ndarray, sigma: float) -> tuple[np.ndarray, np.ndarray]:
    """Sobel slopes (8x the true slope) of a height map blurred by `sigma` pixels.

    Wide blurs run on a downsized copy and the slopes (not the heights) are scaled back up,
    so the shading stays smooth instead of faceted.
    """
    f = sigma / 1.4
    if f < 2.0:
        hgt = cv2.GaussianBlur(hgt, (0, 0), max(sigma, 0.5))
        return cv2.Sobel(hgt, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(hgt, cv2.CV_32F, 0, 1, ksize=3)
    h, w = hgt.shape
    sw, sh = max(round(w / f), 3), max(round(h / f), 3)
    small = cv2.resize(hgt, (sw, sh), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), sigma * sw / w)
    gx = cv2.Sobel(small, cv2.CV_32F, 1, 0, ksize=3) * (sw / w)
    gy = cv2.Sobel(small, cv2.CV_32F, 0, 1, ksize=3) * (sh / h)
    up = (w, h)
    return (
        cv2.resize(gx, up, interpolation=cv2.INTER_LINEAR),
        cv2.resize(gy, up, interpolation=cv2.INTER_LINEAR),
    )


_LUT_N = 97
_MATCAPS: dict[tuple[float, ...], tuple[np.ndarray, np.ndarray]] = {}


def _matcap(
    gloss: float, shine: float, amb: float, diff: float, rim: float
) -> tuple[np.ndarray, np.ndarray]:
    """Lighting as a function of the surface normal, tabulated over (nx, ny).

    Returns (mul, add), both N x N x 3: a lit surface of colour c shows c * mul + add.
    mul is ambient + Lambert diffuse (less what the rim light replaces); add is the rim
    light plus Phong specular with a broad sheen.
    """
    key = (gloss, shine, amb, diff, rim)
    if key not in _MATCAPS:
        g = np.linspace(-1.0, 1.0, _LUT_N, dtype=np.float32)
        nx, ny = np.meshgrid(g, g)
        r = np.maximum(np.sqrt(nx * nx + ny * ny), 1.0)
        nx, ny = (nx / r).astype(np.float32), (ny / r).astype(np.float32)
        nz = np.sqrt(np.maximum(1.0 - nx * nx - ny * ny, 0.0))
        ndl = np.clip(nx * _LIGHT[0] + ny * _LIGHT[1] + nz * _LIGHT[2], 0.0, 1.0)
        ndh = np.clip(nx * _HALF[0] + ny * _HALF[1] + nz * _HALF[2], 0.0, 1.0)
        edge = 1.0 - nz
        rimv = np.clip(nx * _RIM_DIR[0] + ny * _RIM_DIR[1], 0.0, 1.0) * edge * edge * rim
        spec = (ndh**shine + 0.12 * ndh**6) * (gloss * 255.0)
        mul = (amb + diff * ndl) * (1.0 - rimv)
        add = rimv[..., None] * _RIM_BGR + spec[..., None]
        _MATCAPS[key] = (
            np.ascontiguousarray(np.repeat(mul[..., None], 3, 2), np.float32),
            np.ascontiguousarray(add, np.float32),
        )
    return _MATCAPS[key]


def _reach(mapped: list[tuple[str, list[np.ndarray], Any, int]]) -> float:
    """How far (pixels) mapped strokes reach beyond their points: half the widest line."""
    return 1.0 + max((m[3] for m in mapped), default=0) * 0.5


def _three(a: np.ndarray) -> np.ndarray:
    return cv2.merge([a, a, a])


# ------------------------------------------------------------------------------ pen


class _Pen:
    """A float copy of the illustration zone, a unit-to-pixel transform and the renderers."""

    def __init__(
        self,
        img: np.ndarray,
        cx: float,
        cy: float,
        s: float,
        rng: np.random.Generator,
        *,
        dy: float = 0.0,
        size: float = 1.0,
    ) -> None:
        self.img = img
        self.zone = zone_of(img.shape, cx, cy, s)
        ys, xs = self.zone
        self.f = img[self.zone].astype(np.float32)
        self.rng = rng
        self.k = s * size * rng.uniform(0.9, 1.08)
        th = math.radians(rng.uniform(-3.0, 3.0))
        c, sn = math.cos(th) * self.k, math.sin(th) * self.k
        self.m = np.array([[c, sn], [-sn, c]], np.float64)  # row-vector form of the rotation
        self.o = np.array(
            [
                cx - xs.start + (rng.uniform(-0.04, 0.04) - 0.05) * s,
                cy - ys.start + (dy + rng.uniform(-0.04, 0.04)) * s,
            ]
        )

    def u(self, lo: float, hi: float) -> float:
        return float(self.rng.uniform(lo, hi))

    def col(self, rgb: str, j: float = 8.0) -> np.ndarray:
        return np.clip(_hex(rgb) + self.rng.uniform(-j, j, 3).astype(np.float32), 0, 255)

    def map(self, pts: np.ndarray) -> np.ndarray:
        return pts @ self.m + self.o

    def _box(self, pts: list[np.ndarray], pad: float) -> tuple[int, int, int, int] | None:
        lo = np.min([p.reshape(-1, 2).min(0) for p in pts], 0) - pad
        hi = np.max([p.reshape(-1, 2).max(0) for p in pts], 0) + pad
        h, w = self.f.shape[:2]
        x0, y0 = max(int(lo[0]), 0), max(int(lo[1]), 0)
        x1, y1 = min(int(hi[0]) + 2, w), min(int(hi[1]) + 2, h)
        if x1 - x0 < 3 or y1 - y0 < 3:
            return None
        return x0, y0, x1, y1

    def _mapped(self, strokes: Sequence[Stroke]) -> list[tuple[str, list[np.ndarray], Any, int]]:
        out = []
        for st in strokes:
            if st[0] == "line":
                out.append(("line", [self.map(st[1])], st[2], max(1, round(st[3] * self.k))))
            elif st[0] == "many":
                out.append(("many", [self.map(np.asarray(st[1]))], st[2], 0))
            else:
                out.append((st[0], [self.map(p) for p in st[1]], st[2], 0))
        return out

    @staticmethod
    def _draw(
        canvas: np.ndarray,
        mapped: list[tuple[str, list[np.ndarray], Any, int]],
        off: np.ndarray,
        scale: float,
        aa: bool,
    ) -> None:
        kind = cv2.LINE_AA if aa else cv2.LINE_8
        for op, pts, value, width in mapped:
            v = tuple(float(c) for c in value) if np.ndim(value) else float(value)
            ints = [np.round((p - off) * (scale * _ONE)).astype(np.int32) for p in pts]
            if op == "fill":
                for p in ints:
                    cv2.fillPoly(canvas, [p], v, kind, _SHIFT)
            elif op == "many":
                cv2.fillPoly(canvas, list(ints[0]), v, kind, _SHIFT)
            else:
                th = max(1, round(width * scale))
                cv2.polylines(canvas, ints, False, v, th, kind, _SHIFT)

    def shadow(self, strokes: Sequence[Stroke], strength: float = 0.45, blur: float = 0.1) -> None:
        """Darken the face under the strokes' shapes with a soft blurred drop shadow."""
        sig = max(blur * self.k, 0.8)
        mapped = self._mapped(strokes)
        box = self._box([p for m in mapped for p in m[1]], 3.0 * sig + _reach(mapped))
        if box is None:
            return
        x0, y0, x1, y1 = box
        f = max(1, int(sig / 1.4))
        h, w = (y1 - y0 + f - 1) // f, (x1 - x0 + f - 1) // f
        m: np.ndarray = np.zeros((h, w), np.float32)
        off = np.array([x0, y0]) + 0.5 * (f - 1)
        self._draw(m, mapped, off, 1.0 / f, aa=False)
        m = cv2.GaussianBlur(m, (0, 0), sig / f)
        if f > 1:
            m = cv2.resize(m, (w * f, h * f), interpolation=cv2.INTER_LINEAR)
        m = m[: y1 - y0, : x1 - x0]
        reg = self.f[y0:y1, x0:x1]
        reg *= _three(1.0 - strength * m)

    def glaze(
        self, strokes: Sequence[Stroke], color: np.ndarray, alpha: float, soft: float = 0.02
    ) -> None:
        """Blend a translucent, softly edged layer (glass highlights, reflections)."""
        mapped = self._mapped(strokes)
        box = self._box([p for m in mapped for p in m[1]], 3 * soft * self.k + _reach(mapped))
        if box is None:
            return
        x0, y0, x1, y1 = box
        m = np.zeros((y1 - y0, x1 - x0), np.float32)
        self._draw(m, mapped, np.array([x0, y0], np.float64), 1.0, aa=False)
        m = _soft(m, max(soft * self.k, 0.6)) * np.float32(alpha)
        reg = self.f[y0:y1, x0:x1]
        reg += _three(m) * (color - reg)

    def solid(
        self,
        polys: Sequence[np.ndarray],
        base: np.ndarray,
        *,
        bevel: float,
        bulge: float = 1.0,
        paint: Sequence[Stroke] = (),
        bumps: Sequence[Stroke] = (),
        bump_blur: float = 0.03,
        noise: float = 0.0,
        gloss: float = 0.8,
        shine: float = 40.0,
        amb: float = 0.52,
        diff: float = 0.62,
        rim: float = 0.55,
    ) -> None:
        """Render a rounded, lit solid whose silhouette is the union of `polys`.

        The height map is a circular bevel `bevel` (units of s) in from the silhouette,
        scaled by `bulge`, plus `bumps` (raised strokes, heights in units of s) and blurred
        noise; normals come from its gradient. `paint` strokes colour the surface first.
        """
        px = [self.map(p) for p in polys]
        box = self._box(px, 2.0)
        if box is None:
            return
        x0, y0, x1, y1 = box
        off = np.array([x0, y0], np.float64)
        h, w = y1 - y0, x1 - x0
        mask = np.zeros((h, w), np.uint8)
        for p in px:
            cv2.fillPoly(
                mask, [np.round((p - off) * _ONE).astype(np.int32)], 255, cv2.LINE_AA, _SHIFT
            )
        r = max(bevel * self.k, 1.0)
        inside = cv2.threshold(mask, 127, 255, cv2.THRESH_BINARY)[1]
        d = cv2.distanceTransform(inside, cv2.DIST_L2, 3)
        t = 1.0 - np.minimum(d * (1.0 / r), 1.0)
        hgt = cv2.sqrt(1.0 - t * t) * (r * bulge)
        gx, gy = _slopes(hgt, max(0.2 * r, 0.7))
        if bumps or noise:
            b = np.zeros((h, w), np.float32)
            if bumps:
                self._draw(b, self._mapped(bumps), off, 1.0, aa=False)
            if noise:
                # white noise whose blurred heights have a standard deviation of `noise`
                amp = noise * 12.3 * max(bump_blur * self.k, 0.6)
                b += (self.rng.random((h, w), dtype=np.float32) - 0.5) * amp
            bx, by = _slopes(b * self.k, max(bump_blur * self.k, 0.6))
            gx += bx
            gy += by
        if paint:
            c8 = np.empty((h, w, 3), np.uint8)
            c8[:] = np.clip(base, 0, 255).astype(np.uint8)
            self._draw(c8, self._mapped(paint), off, 1.0, aa=True)
            col = c8.astype(np.float32)
        else:
            col = np.empty((h, w, 3), np.float32)
            col[:] = base
        # normal (nx, ny) -> matcap coordinates; Sobel slopes are 8x the true slope
        half = (_LUT_N - 1) * 0.5
        inv = cv2.sqrt(gx * gx + gy * gy + 64.0)
        cv2.divide(-half, inv, dst=inv)
        mx = gx * inv + half
        my = gy * inv + half
        mul, add = _matcap(gloss, shine, amb, diff, rim)
        out = col * cv2.remap(mul, mx, my, cv2.INTER_LINEAR)
        out += cv2.remap(add, mx, my, cv2.INTER_LINEAR)
        a = mask.astype(np.float32) * (1.0 / 255.0)
        reg = self.f[y0:y1, x0:x1]
        reg[:] = cv2.blendLinear(out, reg, a, 1.0 - a)

    def finish(self) -> None:
        # every value is >= 0, so this is a rounding, saturating cast
        self.img[self.zone] = cv2.convertScaleAbs(self.f)


# -------------------------------------------------------------------------- helpers


def _fill(*polys: np.ndarray) -> list[Stroke]:
    return [("fill", list(polys), 1.0)]


def _grains(
    pen: _Pen, x: float, y: float, rx: float, ry: float, n: int, h: float, size: float = 0.11
) -> Stroke:
    """Raised rice grains scattered over an ellipse (a bump stroke)."""
    rng = pen.rng
    t = rng.uniform(0.0, _TAU, n)
    rr = np.sqrt(rng.uniform(0.0, 1.0, n))
    z = rng.uniform(0.85, 1.15, n) * size
    polys = _ells(
        x + rx * rr * np.cos(t), y + ry * rr * np.sin(t), z, 0.5 * z, rng.uniform(0, math.pi, n), 10
    )
    return ("many", polys, h)


def _rice(pen: _Pen, y: float = 0.4, rx: float = 0.95, ry: float = 0.42) -> None:
    x = pen.u(-0.03, 0.03)
    pen.shadow(_fill(_ell(x + 0.06, y + 0.12, rx * 1.02, ry * 0.9)), 0.5, 0.1)
    body = _wobble(_sup(x, y, rx, ry, pen.u(2.4, 2.9), n=48), 0.05, pen.rng)
    pen.solid(
        [body],
        pen.col("#FBF9F2", 4),
        bevel=0.34,
        bulge=0.85,
        bumps=[_grains(pen, x, y, rx * 0.95, ry * 0.9, 34, 0.018, 0.13)],
        bump_blur=0.025,
        gloss=0.35,
        shine=30.0,
        amb=0.6,
        diff=0.5,
    )


def _stripes(
    x: float, y: float, half: float, ang: float, offs: Point, slope: float, bend: float
) -> list[np.ndarray]:
    """Gently curved lines across a slice (the fat lines of fish), in unit coordinates."""
    c, s = math.cos(ang), math.sin(ang)
    u = np.linspace(-1.0, 1.0, 7)
    out = []
    for o in offs:
        lx = o + slope * u + bend * (1 - u * u)
        ly = u * half
        out.append(np.stack([x + lx * c - ly * s, y + lx * s + ly * c], 1))
    return out


# -------------------------------------------------------------------------- drawers


def _tempura(img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator) -> None:
    pen = _Pen(img, cx, cy, s, rng, dy=-0.12, size=0.92)
    py = 0.64
    pen.shadow(_fill(_ell(0.07, py + 0.1, 1.24, 0.42)), 0.45, 0.1)
    pen.solid(
        [_ell(0.0, py, 1.24, 0.42, n=56)],
        pen.col("#F6F6F2", 4),
        bevel=0.12,
        bulge=0.5,
        paint=[("fill", [_ell(0.0, py - 0.02, 0.98, 0.3, n=48)], pen.col("#E4E9F1", 4))],
        gloss=0.7,
        shine=60.0,
    )
    # the shrimp follows a curve that curls up at the tail
    p0 = (-0.98 + pen.u(-0.05, 0.05), 0.36 + pen.u(-0.06, 0.06))
    c = (0.05 + pen.u(-0.1, 0.1), 0.52 + pen.u(-0.05, 0.08))
    p1 = (0.7 + pen.u(-0.05, 0.05), -0.42 + pen.u(-0.06, 0.06))
    n = 13
    path = _bezier(p0, c, p1, n)
    tang = np.asarray(p1) - np.asarray(c)
    tang /= np.linalg.norm(tang)
    nrm = np.array([-tang[1], tang[0]])
    # tail fan, behind the body
    tail = np.asarray(p1) + tang * 0.16
    ang0 = math.atan2(tang[1], tang[0])
    fan = np.array([-1.0, 0.0, 1.0])
    lobe_c = tail + tang * 0.12 + nrm * fan[:, None] * 0.06
    lobes = _ells(lobe_c[:, 0], lobe_c[:, 1], 0.24, 0.1, ang0 + fan * 0.45, 24)
    tip_c = tail + tang * 0.3 + nrm * fan[:, None] * 0.14
    tips = _ells(tip_c[:, 0], tip_c[:, 1], 0.13, 0.12, 0.0, 16)
    radii = 0.34 * (1.0 - 0.5 * np.linspace(0.0, 1.0, n)) * rng.uniform(0.93, 1.07, n)
    blobs = _ells(path[:, 0], path[:, 1], radii, radii, 0.0, 24)
    # crunchy lumps of batter along the outline
    k = 12
    i = rng.integers(0, n, k)
    dirs = np.gradient(path, axis=0)
    dirs /= np.linalg.norm(dirs, axis=1, keepdims=True)
    side = rng.choice([-1.0, 1.0], k)[:, None]
    lc = path[i] + side * radii[i, None] * 0.85 * np.stack([-dirs[i, 1], dirs[i, 0]], 1)
    lr = rng.uniform(0.08, 0.13, k)
    lumps = _ells(lc[:, 0], lc[:, 1], lr, lr, 0.0, 14)
    pen.shadow(
        [
            ("line", path + np.array([0.07, 0.13]), 1.0, 0.5),
            ("fill", list(lobes + np.array([0.06, 0.12])), 1.0),
        ],
        0.5,
        0.08,
    )
    pen.solid(
        list(lobes),
        pen.col("#EE5A24"),
        bevel=0.08,
        bulge=0.6,
        paint=[("many", tips, pen.col("#B3141E"))],
        gloss=0.9,
        shine=50.0,
    )
    m = 24
    at = rng.integers(0, n, m)
    fc = path[at] + rng.uniform(-0.2, 0.2, (m, 2))
    fr = rng.uniform(0.05, 0.09, m)
    fleck = _ells(fc[:, 0], fc[:, 1], fr, fr * 0.8, rng.uniform(0, 3, m), 10)
    pen.solid(
        [*blobs, *lumps],
        pen.col("#F2A93B"),
        bevel=0.3,
        bulge=0.9,
        paint=[
            ("many", fleck[: m // 2], pen.col("#FFD57E")),
            ("many", fleck[m // 2 :], pen.col("#D58420")),
        ],
        bumps=[("many", fleck, 0.03)],
        noise=0.015,
        bump_blur=0.03,
        gloss=0.75,
        shine=35.0,
    )
    pen.finish()


def _sashimi(img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator) -> None:
    pen = _Pen(img, cx, cy, s, rng, dy=-0.1, size=0.9)
    tilt = math.radians(pen.u(-22.0, -10.0))
    gap = pen.u(0.66, 0.74)
    body = pen.col("#F0637E")
    fat = pen.col("#FFC4CF")
    for i in (-1, 0, 1):
        x = i * gap + pen.u(-0.04, 0.04)
        y = pen.u(-0.06, 0.06) + 0.05 * i
        rx, ry = pen.u(0.34, 0.4), pen.u(0.78, 0.86)
        ang = tilt + math.radians(pen.u(-5.0, 5.0))
        pen.shadow(_fill(_sup(x + 0.08, y + 0.1, rx, ry, 3.2, ang, n=32)), 0.5, 0.08)
        lines = _stripes(
            x, y, ry, ang + math.pi / 2, [-0.25, 0.05, 0.35], pen.u(0.15, 0.25), pen.u(-0.1, 0.1)
        )
        pen.solid(
            [_sup(x, y, rx, ry, 3.2, ang, n=48)],
            np.clip(body + rng.uniform(-6, 6, 3).astype(np.float32), 0, 255),
            bevel=0.16,
            bulge=0.8,
            paint=[("line", p, fat, 0.07) for p in lines],
            bumps=[("line", p, 0.03, 0.06) for p in lines],
            gloss=0.95,
            shine=45.0,
        )
    pen.finish()


def _dumpling(img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator) -> None:
    pen = _Pen(img, cx, cy, s, rng, dy=-0.25, size=0.95)
    w = pen.u(1.22, 1.32)
    tall = pen.u(0.98, 1.08)
    base = 0.58
    # a crescent: the bottom edge smiles, the pleated crest arcs over it
    u = np.linspace(-1.0, 1.0, 49)
    low = base - 0.3 * u**2
    crest = low - tall * (1.0 - u**2) ** 0.7
    frill = 0.05 * np.abs(np.sin((u + 1.0) * math.pi * 4.5)) * (1.0 - u**2)
    shape = np.vstack([np.stack([w * u, low], 1), np.stack([w * u, crest - frill], 1)[::-1]])
    pen.shadow(_fill(_ell(0.08, base + 0.02, w * 0.9, 0.2)), 0.55, 0.1)
    # pleats: folds from the crest down the front, leaning towards the middle
    k = 7
    folds = []
    for j in range(k):
        v = -0.78 + 1.56 * j / (k - 1) + pen.u(-0.03, 0.03)
        top = np.array([w * v, base - 0.3 * v * v - tall * (1.0 - v * v) ** 0.7 + 0.04])
        end = top + np.array([-0.2 * v, pen.u(0.32, 0.42) * (1.0 - 0.4 * v * v)])
        folds.append(_bezier(top, (top + end) / 2 + (0.07, 0.0), end, 6))
    pen.solid(
        [shape],
        pen.col("#FBF6EA", 5),
        bevel=0.6,
        bulge=0.85,
        paint=[("line", p, pen.col("#E4D6BC", 4), 0.05) for p in folds],
        bumps=[("line", p, 0.09, 0.1) for p in folds],
        bump_blur=0.035,
        gloss=0.7,
        shine=30.0,
        amb=0.56,
    )
    pen.finish()


def _roll(pen: _Pen, x: float, y: float, r: float) -> None:
    ry = r * 0.8
    depth = r * 0.42
    top = _ell(x, y, r, ry, n=36, a0=math.pi, a1=_TAU)
    low = _ell(x, y + depth, r, ry, n=36, a0=0.0, a1=math.pi)
    pen.solid(
        [np.vstack([top, low])],
        pen.col("#1E3527", 5),
        bevel=0.3 * r,
        bulge=0.8,
        paint=[("fill", [_ell(x, y, r, ry, n=40)], pen.col("#2E4D39", 5))],
        gloss=0.55,
        shine=28.0,
        rim=0.8,
    )
    rr, rry = r * 0.8, ry * 0.8
    fx, fy = x + pen.u(-0.05, 0.05) * r, y + pen.u(-0.05, 0.05) * r
    fill = _wobble(_ell(fx, fy, 0.32 * r, 0.32 * ry, n=24), 0.1, pen.rng)
    pen.solid(
        [_wobble(_ell(x, y, rr, rry, n=40), 0.04, pen.rng)],
        pen.col("#FBF9F2", 4),
        bevel=0.3 * r,
        bulge=0.7,
        paint=[("fill", [fill], pen.col("#EB4A2C"))],
        bumps=[
            _grains(pen, x, y, rr * 0.95, rry * 0.95, 22, 0.025, 0.13 * r),
            ("fill", [fill], 0.14 * r),
        ],
        bump_blur=0.025,
        gloss=0.55,
        shine=40.0,
        amb=0.58,
        diff=0.52,
    )


def _maki(count: int) -> Illustrate:
    def draw(img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator) -> None:
        pen = _Pen(img, cx, cy, s, rng, dy=-0.12, size=0.95)
        if count == 1:
            spots = [(0.0, -0.15, 0.95)]
        elif count == 2:
            sgn = 1.0 if rng.random() < 0.5 else -1.0
            spots = [(-0.47 * sgn, -0.36, 0.68), (0.47 * sgn, 0.14, 0.68)]
        else:
            spots = [(0.0, -0.42, 0.6), (-0.6, 0.2, 0.6), (0.6, 0.2, 0.6)]
        rolls = [
            (x + pen.u(-0.04, 0.04), y + pen.u(-0.03, 0.03), r * pen.u(0.95, 1.04))
            for x, y, r in spots
        ]
        # one soft shadow under all the rolls, then the rolls from back to front
        under = [_ell(x + 0.08, y + 0.5 * r + 0.1, r * 1.02, r * 0.72, n=24) for x, y, r in rolls]
        pen.shadow(_fill(*under), 0.5, 0.09)
        for x, y, r in rolls:
            _roll(pen, x, y, r)
        pen.finish()

    return draw


def _egg(img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator) -> None:
    pen = _Pen(img, cx, cy, s, rng, dy=-0.25, size=1.0)
    _rice(pen)
    y = -0.12 + pen.u(-0.03, 0.03)
    rx, ry = pen.u(1.02, 1.12), pen.u(0.36, 0.42)
    ang = math.radians(pen.u(-4, 4))
    pen.shadow(_fill(_sup(0.05, y + 0.12, rx, ry, 5.0, ang, n=32)), 0.45, 0.07)
    layers = [np.array([[-rx, y + f * ry], [rx, y + f * ry]]) for f in (-0.05, 0.4)]
    pen.solid(
        [_sup(0.0, y, rx, ry, 5.0, ang, n=56)],
        pen.col("#FFE04A"),
        bevel=0.2,
        bulge=0.7,
        paint=[("line", p, pen.col("#F7BE22"), 0.05) for p in layers],
        bumps=[("line", p, -0.02, 0.05) for p in layers],
        gloss=0.85,
        shine=40.0,
    )
    bx, bw = pen.u(-0.08, 0.08), pen.u(0.2, 0.25)
    pen.shadow(_fill(_sup(bx + 0.06, 0.25, bw, 0.7, 8.0, ang, n=32)), 0.4, 0.05)
    pen.solid(
        [_sup(bx, 0.18, bw, 0.72, 8.0, ang, n=40)],
        pen.col("#1F3A2B", 5),
        bevel=0.12,
        bulge=0.8,
        noise=0.005,
        bump_blur=0.02,
        gloss=0.5,
        shine=30.0,
        rim=0.9,
    )
    pen.finish()


def _salmon(img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator) -> None:
    pen = _Pen(img, cx, cy, s, rng, dy=-0.25, size=1.0)
    _rice(pen)
    y = -0.1 + pen.u(-0.03, 0.03)
    rx, ry = pen.u(1.1, 1.2), pen.u(0.36, 0.42)
    ang = math.radians(pen.u(-8, 2))
    pen.shadow(_fill(_sup(0.06, y + 0.13, rx, ry, 2.6, ang, n=32)), 0.45, 0.07)
    offs = np.linspace(-0.8, 0.8, 5) + pen.u(-0.08, 0.08)
    lines = _stripes(0.0, y, ry, ang, offs, pen.u(0.18, 0.3), pen.u(-0.08, 0.08))
    pen.solid(
        [_sup(0.0, y, rx, ry, 2.6, ang, n=56)],
        pen.col("#FF7A3C"),
        bevel=0.24,
        bulge=0.85,
        paint=[("line", p, pen.col("#FFD9C2"), 0.07) for p in lines],
        bumps=[("line", p, 0.03, 0.06) for p in lines],
        gloss=0.95,
        shine=50.0,
    )
    pen.finish()


def _squid(img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator) -> None:
    pen = _Pen(img, cx, cy, s, rng, dy=-0.25, size=1.0)
    _rice(pen)
    y = -0.1 + pen.u(-0.03, 0.03)
    rx, ry = pen.u(1.08, 1.18), pen.u(0.36, 0.42)
    ang = math.radians(pen.u(-4, 4))
    pen.shadow(_fill(_sup(0.06, y + 0.13, rx, ry, 3.0, ang, n=32)), 0.45, 0.07)
    scores = []
    for o in np.arange(-1.2, 1.3, 0.28) + pen.u(0.0, 0.2):
        scores.append(np.array([[o - 0.35, y - 0.6], [o + 0.35, y + 0.6]]))
        scores.append(np.array([[o + 0.35, y - 0.6], [o - 0.35, y + 0.6]]))
    pen.solid(
        [_sup(0.0, y, rx, ry, 3.0, ang, n=56)],
        pen.col("#F3C9D8", 4),
        bevel=0.22,
        bulge=0.9,
        paint=[
            ("fill", [_sup(0.0, y - 0.04, rx * 0.88, ry * 0.6, 3.0, ang)], pen.col("#FBEAF0", 4)),
            *[("line", p, pen.col("#E9AFC4", 4), 0.035) for p in scores],
        ],
        bumps=[("line", p, -0.02, 0.04) for p in scores],
        bump_blur=0.015,
        gloss=1.0,
        shine=60.0,
        amb=0.6,
    )
    pen.finish()


def _wasabi(img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator) -> None:
    pen = _Pen(img, cx, cy, s, rng, dy=-0.33, size=1.0)
    dy = 0.5
    pen.shadow(_fill(_ell(0.07, dy + 0.12, 1.12, 0.42)), 0.5, 0.1)
    pen.solid(
        [_ell(0.0, dy, 1.12, 0.42, n=56)],
        pen.col("#F7F8FA", 4),
        bevel=0.16,
        bulge=0.55,
        paint=[
            ("fill", [_ell(0.0, dy, 1.12, 0.42, n=56)], pen.col("#3562A8", 6)),
            ("fill", [_ell(0.0, dy - 0.02, 1.0, 0.35, n=56)], pen.col("#F7F8FA", 4)),
            ("fill", [_ell(0.0, dy - 0.01, 0.8, 0.26, n=48)], pen.col("#DDE5EF", 4)),
        ],
        gloss=0.8,
        shine=60.0,
    )
    w = pen.u(0.68, 0.76)
    hgt = pen.u(0.92, 1.02)
    base = dy + 0.02
    lean = pen.u(-0.08, 0.12)
    u = np.linspace(-1.0, 1.0, 41)
    prof = 0.82 * (1.0 - np.abs(u) ** 1.8) ** 0.8 + 0.18 * np.exp(-((u / 0.25) ** 2))
    topline = np.stack([w * u + lean * prof**3, base - hgt * prof], 1)
    bottom = _ell(0.0, base, w, 0.14, n=24, a0=0.0, a1=math.pi)
    tip = _ell(lean + 0.08, base - hgt + 0.07, 0.11, 0.09, n=16)
    mound = np.vstack([topline[::-1], bottom[1:-1]])
    pen.shadow(_fill(_ell(0.05, base + 0.03, w * 0.95, 0.16)), 0.55, 0.05)
    swirls = []
    for f in (0.28, 0.55, 0.8):
        yy = base - hgt * f
        half = w * (1 - f**1.4) * 0.95
        xs = np.linspace(-half, half, 9)
        swirls.append(
            np.stack([xs + lean * f**3, yy + 0.09 * (1 - (xs / half) ** 2) - 0.08 * xs], 1)
        )
    pen.solid(
        [mound, tip],
        pen.col("#86C440"),
        bevel=0.45,
        bulge=0.9,
        paint=[("line", p, pen.col("#6AA82E"), 0.05) for p in swirls],
        bumps=[("line", p, 0.06, 0.08) for p in swirls],
        noise=0.006,
        bump_blur=0.035,
        gloss=0.75,
        shine=30.0,
    )
    pen.finish()


def _pudding(img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator) -> None:
    pen = _Pen(img, cx, cy, s, rng, dy=-0.25, size=1.0)
    ty, by = -0.5, 0.82
    tw, bw = pen.u(0.74, 0.82), pen.u(0.55, 0.62)
    ery = 0.2
    pen.shadow(_fill(_ell(0.08, by + 0.1, bw * 1.25, 0.22)), 0.55, 0.09)
    rim_top = _ell(0.0, ty, tw, ery, n=32, a0=math.pi, a1=_TAU)
    bottom = _ell(0.0, by, bw, ery * 0.8, n=32, a0=0.0, a1=math.pi)
    cl = ty + pen.u(0.28, 0.36)  # where the caramel ends
    xs = np.linspace(-1.0, 1.0, 25)
    drip = cl + 0.06 * np.sin(xs * pen.u(7, 9) + pen.u(0, 6.28)) + 0.1 * (1 - xs**2)
    caramel = np.vstack([np.stack([xs * 1.2, drip], 1), [[1.2, ty - 0.3], [-1.2, ty - 0.3]]])
    glass_base = np.array([[-1.0, by - 0.12], [1.0, by - 0.12], [1.0, by + 0.4], [-1.0, by + 0.4]])
    pen.solid(
        [np.vstack([rim_top, bottom])],
        pen.col("#FBD66A"),
        bevel=0.3,
        bulge=0.8,
        paint=[
            ("fill", [caramel], pen.col("#A4511C")),
            ("fill", [glass_base], pen.col("#E9EEF0", 4)),
        ],
        gloss=0.9,
        shine=50.0,
        rim=0.8,
    )
    pen.solid(
        [_ell(0.0, ty, tw * 0.93, ery * 0.85, n=40)],
        pen.col("#7C3611"),
        bevel=0.1,
        bulge=0.5,
        gloss=1.0,
        shine=70.0,
    )
    pen.glaze([("line", _ell(0.0, ty, tw, ery, n=40), 1.0, 0.04)], _WHITE, 0.8, 0.01)
    streak = np.array(
        [
            [-tw * 0.72, ty + 0.12],
            [-tw * 0.5, ty + 0.12],
            [-bw * 0.6, by - 0.1],
            [-bw * 0.8, by - 0.1],
        ]
    )
    pen.glaze(_fill(streak), _WHITE, 0.45, 0.03)
    pen.finish()


def _chopsticks(img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator) -> None:
    pen = _Pen(img, cx, cy, s, rng, dy=-0.03, size=0.93)
    lacquer = pen.col("#D3232F")
    band = pen.col("#F0B93E")
    cap = pen.col("#241A1A")
    ends = []
    for sgn in (-1.0, 1.0):
        lean = math.radians(pen.u(40.0, 50.0))
        length = pen.u(1.25, 1.36)
        ox, oy = pen.u(-0.06, 0.06), pen.u(-0.06, 0.06)
        dx, dy = length * math.cos(lean), length * math.sin(lean) * 0.95
        ends.append(((ox + sgn * dx, oy - dy), (ox - sgn * dx, oy + dy)))
    if rng.random() < 0.5:
        ends.reverse()
    for top, tip in ends:
        a, b = np.asarray(top), np.asarray(tip)
        drop = np.array([0.1, 0.14])
        pen.shadow(_fill(_rod(a + drop, b + drop, 0.1, 0.05)), 0.5, 0.06)
        pen.solid(
            [_rod(a, b, 0.1, 0.045, n=12)],
            lacquer,
            bevel=0.11,
            bulge=1.0,
            paint=[
                ("line", np.vstack([a + (b - a) * 0.2, a + (b - a) * 0.27]), band, 0.2),
                ("fill", [_rod(a, a + (b - a) * 0.2, 0.12, 0.12)], cap),
            ],
            gloss=1.0,
            shine=60.0,
            rim=0.8,
        )
    pen.finish()


GLOSSY_ILLUSTRATIONS: dict[str, Illustrate] = {
    "tempura": _tempura,
    "sashimi": _sashimi,
    "dumpling": _dumpling,
    "maki_1": _maki(1),
    "maki_2": _maki(2),
    "maki_3": _maki(3),
    "egg": _egg,
    "salmon": _salmon,
    "squid": _squid,
    "wasabi": _wasabi,
    "pudding": _pudding,
    "chopsticks": _chopsticks,
}
