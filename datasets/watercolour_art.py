"""Watercolour card illustrations: a held-out test art style.

Every illustration is painted as a stack of soft, translucent washes whose edges
wobble irregularly; pigment pools darker just inside each wash's edge, the paper
granulates the pigment, neighbouring washes bleed slightly into each other in
random wet patches, and small details (pleats, grains, fat lines, scoring) are
only suggested by single tapered brush strokes. There are almost no outlines.

This module was written independently of the training renderers' art: it was
drawn from the card table alone (what each card shows, the face colours),
without reading or importing any other illustration code. It is a test set's
art only, used to measure how a detector trained on other art carries over to
art it never saw. It must never be used for training.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

import cv2
import numpy as np

from datasets.art import zone_of
from datasets.faces import Illustrate

__all__ = ["WATERCOLOUR_ILLUSTRATIONS"]

Colour = tuple[float, float, float]


def _bgr(hex_rgb: str) -> Colour:
    """An sRGB hex colour as a BGR float triple."""
    v = int(hex_rgb.lstrip("#"), 16)
    return float(v & 255), float((v >> 8) & 255), float(v >> 16)


# Palette (sRGB hex, converted to BGR).
RICE = _bgr("#FBF8F1")
RICE_SHADE = _bgr("#B9BDC9")
NORI = _bgr("#1C3024")
MAKI_FILL = _bgr("#EE6A2E")
SHRIMP = _bgr("#E9A93E")
SHRIMP_DARK = _bgr("#B8701F")
SHRIMP_TAIL = _bgr("#E2502F")
PLATE = _bgr("#EEF1F8")
PLATE_RIM = _bgr("#8FA6CC")
SASHIMI = _bgr("#F0707E")
SASHIMI_FAT = _bgr("#FFE4E6")
DUMPLING = _bgr("#FBF7EC")
DUMPLING_SHADE = _bgr("#A9A9C4")
DUMPLING_BROWN = _bgr("#C98A45")
OMELETTE = _bgr("#FFF08A")
OMELETTE_EDGE = _bgr("#D99A22")
SALMON = _bgr("#F47A3C")
SALMON_FAT = _bgr("#FFE8D8")
SQUID = _bgr("#FCEFF0")
SQUID_MARK = _bgr("#D9A3AE")
WASABI = _bgr("#6FAE3A")
WASABI_DARK = _bgr("#3E7A26")
WASABI_LIGHT = _bgr("#C4E38A")
DISH = _bgr("#E6EEF8")
DISH_RIM = _bgr("#6F8FC4")
CUSTARD = _bgr("#FBE39A")
CARAMEL = _bgr("#8A4A16")
CUP = _bgr("#F2F6FC")
CUP_SHADE = _bgr("#9FB0D0")
WOOD = _bgr("#D69A5C")
WOOD_DARK = _bgr("#8E5A2E")


@lru_cache(maxsize=128)
def _closed(n: int) -> np.ndarray:
    """n angles around a closed outline (cached, read-only)."""
    t = np.linspace(0.0, 2.0 * math.pi, n, endpoint=False)
    t.flags.writeable = False
    return t


@lru_cache(maxsize=128)
def _unit(n: int) -> np.ndarray:
    """n evenly spaced values from 0 to 1 (cached, read-only)."""
    t = np.linspace(0.0, 1.0, n)
    t.flags.writeable = False
    return t


def _ticks(
    xs: np.ndarray, ys: np.ndarray, angles: np.ndarray, length: float, width: float
) -> list[np.ndarray]:
    """Short lens-shaped brush ticks (grains, crumbs, scoring) centred on the given points."""
    c, s = np.cos(angles), np.sin(angles)
    dx, dy = c * (0.5 * length), s * (0.5 * length)
    nx, ny = -s * (0.5 * width), c * (0.5 * width)
    fx = np.array([-1.0, -0.4, 0.4, 1.0, 0.4, -0.4])
    fn = np.array([0.0, 1.0, 1.0, 0.0, -1.0, -1.0])
    px = xs[:, None] + dx[:, None] * fx + nx[:, None] * fn
    py = ys[:, None] + dy[:, None] * fx + ny[:, None] * fn
    return list(np.stack([px, py], axis=2))


def _ellipse(
    cx: float, cy: float, rx: float, ry: float, angle: float = 0.0, n: int = 56
) -> np.ndarray:
    t = _closed(n)
    x, y = rx * np.cos(t), ry * np.sin(t)
    c, s = math.cos(angle), math.sin(angle)
    return np.stack([cx + c * x - s * y, cy + s * x + c * y], axis=1)


def _superellipse(
    cx: float, cy: float, w: float, h: float, power: float = 4.0, angle: float = 0.0, n: int = 64
) -> np.ndarray:
    """A rounded box of width w and height h (power 2 is an ellipse, larger is boxier)."""
    t = _closed(n)
    ct, st = np.cos(t), np.sin(t)
    e = 2.0 / power
    x = 0.5 * w * np.sign(ct) * np.abs(ct) ** e
    y = 0.5 * h * np.sign(st) * np.abs(st) ** e
    c, s = math.cos(angle), math.sin(angle)
    return np.stack([cx + c * x - s * y, cy + s * x + c * y], axis=1)


def _droop(pts: np.ndarray, cx: float, cy: float, amount: float) -> np.ndarray:
    """Bend a shape so its ends hang down, as a topping draped over rice."""
    out = pts.copy()
    out[:, 1] += amount * (pts[:, 0] - cx) ** 2 - amount * 0.1
    return out


_HARMONICS = np.arange(2, 7, dtype=np.float64)


class _Sheet:
    """A float, channel-planar copy of the card's illustration zone that washes are painted onto."""

    def __init__(
        self, img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator
    ) -> None:
        self.img = img
        self.zone = zone_of(img.shape, cx, cy, s)
        self.buf = np.ascontiguousarray(img[self.zone].transpose(2, 0, 1), dtype=np.float32)
        self.h, self.w = self.buf.shape[1:]
        self.rng = rng
        rows, cols = self.zone
        self.k = float(s * rng.uniform(0.88, 1.09))
        self.ox = float(cx - cols.start + rng.uniform(-0.04, 0.04) * s)
        self.oy = float(cy - rows.start + rng.uniform(-0.04, 0.04) * s)
        ang = float(rng.uniform(-0.07, 0.07))
        self.rot = np.array(
            [[math.cos(ang), -math.sin(ang)], [math.sin(ang), math.cos(ang)]], np.float64
        )
        self.tint = rng.uniform(-5.0, 5.0, 3).astype(np.float32)
        self.union = np.zeros((self.h, self.w), np.float32)
        # Paper: broad blotches in the pigment density plus fine granulation.
        self.blotch = self._noise(14)
        gh, gw = max(2, self.h // 2 + 1), max(2, self.w // 2 + 1)
        fine = rng.random((gh, gw), dtype=np.float32)
        fine -= 0.5
        fine *= 3.4
        self.grain = cv2.resize(fine, (self.w, self.h), interpolation=cv2.INTER_LINEAR)
        self.pits = np.maximum(self.grain, 0.0)
        # Back-runs ("blooms"): where a wet wash was disturbed, pigment is pushed out into a
        # dark, wavering tide line around a paler patch.
        large = self._noise(50)
        level = float(rng.uniform(0.9, 1.3))
        self.tide = np.clip(1.0 - np.abs(large - level) * 4.0, 0.0, 1.0)
        self.tide += self.blotch * 0.12
        self.pale = (large > level).astype(np.float32)

    def _noise(self, cell: int) -> np.ndarray:
        """Smooth unit noise over the zone with features about `cell` pixels apart."""
        small = self.rng.standard_normal(
            (max(2, self.h // cell + 2), max(2, self.w // cell + 2)), dtype=np.float32
        )
        mid = cv2.resize(
            small, (max(2, self.w // 4), max(2, self.h // 4)), interpolation=cv2.INTER_CUBIC
        )
        return cv2.resize(mid, (self.w, self.h), interpolation=cv2.INTER_LINEAR)

    # -- geometry -----------------------------------------------------------------

    def px(self, pts: np.ndarray) -> np.ndarray:
        """Illustration units (s, centred) to pixel coordinates in the zone."""
        return pts @ self.rot.T * self.k + (self.ox, self.oy)

    def wobble(self, pts: np.ndarray, low: float = 0.03, high: float = 0.008) -> np.ndarray:
        """Displace a closed outline along its normals by smooth plus ragged noise (s units)."""
        n = len(pts)
        u = self.rng.random(10 + n)
        amp = (2.0 * low) * (u[:5] - 0.5) / _HARMONICS**0.6
        d = amp @ np.sin(np.outer(_HARMONICS, _closed(n)) + (2.0 * math.pi) * u[5:10, None])
        d += (2.0 * high) * (u[10:] - 0.5)
        tangent = np.empty_like(pts)
        tangent[1:-1] = pts[2:] - pts[:-2]
        tangent[0] = pts[1] - pts[-1]
        tangent[-1] = pts[0] - pts[-2]
        norm = np.hypot(tangent[:, 0], tangent[:, 1]) + 1e-9
        return pts + np.stack([tangent[:, 1], -tangent[:, 0]], axis=1) * (d / norm)[:, None]

    def jitter(self, colour: Colour, amount: float = 3.0) -> np.ndarray:
        col = (
            np.asarray(colour, np.float32)
            + self.tint
            + self.rng.uniform(-amount, amount, 3).astype(np.float32)
        )
        return col[:, None, None]

    # -- painting -----------------------------------------------------------------

    def wash(
        self,
        shape: np.ndarray | list[np.ndarray],
        colour: Colour,
        alpha: float = 0.8,
        *,
        pool: float = 0.45,
        dark: float = 0.35,
        soft: float = 0.018,
        spread: float = 0.07,
        gran: float = 0.25,
        holes: tuple[np.ndarray, ...] = (),
        wobble: bool = True,
        bloom: float = 1.0,
    ) -> None:
        """Lay one translucent wash (one or more shapes); pigment pools along its wobbling edge."""
        shapes = shape if isinstance(shape, list) else [shape]
        if wobble:
            shapes = [self.wobble(sh) for sh in shapes]
        polys = [self.px(sh) for sh in shapes]
        hole_pts = [self.px(self.wobble(h, 0.015) if wobble else h) for h in holes]
        pts = np.vstack(polys)
        soft_px = max(0.4, soft * self.k)
        pad = int(3.0 * soft_px) + 2
        x0 = max(math.floor(pts[:, 0].min()) - pad, 0)
        y0 = max(math.floor(pts[:, 1].min()) - pad, 0)
        x1 = min(math.ceil(pts[:, 0].max()) + pad + 1, self.w)
        y1 = min(math.ceil(pts[:, 1].max()) + pad + 1, self.h)
        if x1 - x0 < 2 or y1 - y0 < 2:
            return
        off = np.array([x0, y0], np.float64)
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        for q in polys:  # one call each: a single fillPoly would XOR overlapping shapes
            cv2.fillPoly(mask, [np.round((q - off) * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
        if hole_pts:
            cut = np.zeros_like(mask)
            for h in hole_pts:
                cv2.fillPoly(cut, [np.round((h - off) * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
            mask = cv2.subtract(mask, cut)
        hard = mask.astype(np.float32)
        hard *= 1.0 / 255.0
        m: np.ndarray = cv2.GaussianBlur(hard, (0, 0), soft_px)
        # Pigment pooling: what is left of the wash after subtracting a blurred copy of it
        # is a band just inside the edge (two box passes approximate a Gaussian).
        box = max(3, int(math.sqrt(6.0 * (spread * self.k) ** 2 + 1.0)) | 1)
        ring: np.ndarray = m - cv2.blur(cv2.blur(m, (box, box)), (box, box))
        ring *= 2.2
        np.clip(ring, 0.0, 1.0, out=ring)
        a = self.blotch[y0:y1, x0:x1] * (0.12 * alpha)
        a -= self.pale[y0:y1, x0:x1] * (0.12 * alpha * bloom)
        a += self.grain[y0:y1, x0:x1] * (0.05 * gran * alpha)
        a += alpha
        a += ring * pool
        a *= m
        np.clip(a, 0.0, 1.0, out=a)
        # Pigment settles darker in the paper's pits and pools at the edge.
        shade = ring * -dark
        shade -= self.pits[y0:y1, x0:x1] * (0.3 * gran)
        shade -= self.tide[y0:y1, x0:x1] * (0.16 * bloom)
        shade += 1.0
        shade *= a
        region = self.buf[:, y0:y1, x0:x1]
        region *= 1.0 - a
        region += self.jitter(colour) * shade
        np.maximum(self.union[y0:y1, x0:x1], a, out=self.union[y0:y1, x0:x1])

    def _ribbon(
        self, path: np.ndarray, width: float, taper: float, closed: bool
    ) -> tuple[np.ndarray, np.ndarray]:
        n = len(path)
        if closed:
            tangent = np.roll(path, -1, axis=0) - np.roll(path, 1, axis=0)
            profile = np.ones(n)
        else:
            tangent = np.empty_like(path)
            tangent[1:-1] = path[2:] - path[:-2]
            tangent[0], tangent[-1] = path[1] - path[0], path[-1] - path[-2]
            profile = (1.0 - taper) + taper * np.sin(np.pi * _unit(n)) ** 0.6
        wave = self.rng.uniform(0.0, 6.3, 2)
        profile = profile * (1.0 + 0.18 * np.sin(_unit(n) * (2.0 + 0.6 * wave[0]) + wave[1]))
        norm = np.hypot(tangent[:, 0], tangent[:, 1]) + 1e-9
        normal = np.stack([tangent[:, 1], -tangent[:, 0]], axis=1) / norm[:, None]
        half = (0.5 * width * profile)[:, None]
        return path + normal * half, path - normal * half

    def stroke(
        self,
        path: np.ndarray | list[np.ndarray],
        width: float,
        colour: Colour,
        alpha: float = 0.7,
        *,
        taper: float = 0.7,
        pool: float = 0.2,
        dark: float = 0.2,
        soft: float = 0.012,
        closed: bool = False,
    ) -> None:
        """Brush strokes along paths (one wash), swelling midway and lifting off at the ends."""
        paths = path if isinstance(path, list) else [path]
        if closed:
            left, right = self._ribbon(paths[0], width, taper, True)
            self.wash(
                left,
                colour,
                alpha,
                pool=pool,
                dark=dark,
                soft=soft,
                spread=0.03,
                holes=(right,),
                wobble=False,
                bloom=0.0,
            )
            return
        ribbons = []
        for q in paths:
            left, right = self._ribbon(q, width, taper, False)
            ribbons.append(np.vstack([left, right[::-1]]))
        self.wash(
            ribbons,
            colour,
            alpha,
            pool=pool,
            dark=dark,
            soft=soft,
            spread=0.03,
            wobble=False,
            bloom=0.0,
        )

    def dabs(
        self, centres: list[tuple[float, float]], r: float, colour: Colour, alpha: float = 0.6
    ) -> None:
        """Small blots of pigment, one wash for all of them."""
        xy = np.asarray(centres, np.float64).reshape(-1, 2)
        angles = self.rng.uniform(0.0, math.pi, len(xy))
        shapes = _ticks(xy[:, 0], xy[:, 1], angles, 2.0 * r, 1.3 * r)
        self.wash(
            shapes,
            colour,
            alpha,
            pool=0.25,
            dark=0.2,
            soft=0.015,
            spread=0.03,
            wobble=False,
            bloom=0.0,
        )

    def finish(self) -> None:
        """Let wet neighbouring washes bleed into each other in patches, then write back."""
        h, w = self.h, self.w
        box = max(3, int(0.1 * self.k) | 1)
        bled: np.ndarray = cv2.blur(self.buf.reshape(3 * h, w), (box, box)).reshape(3, h, w)
        wet = self.blotch * 0.3
        wet += 0.35
        np.clip(wet, 0.0, 0.7, out=wet)
        wet *= np.minimum(self.union * 1.5, 1.0)
        bled -= self.buf
        bled *= wet
        bled += self.buf
        out = cv2.convertScaleAbs(bled.reshape(3 * h, w)).reshape(3, h, w)
        self.img[self.zone] = cv2.merge(list(out))


def _painter(paint: Callable[[_Sheet], None]) -> Illustrate:
    def illustrate(
        img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator
    ) -> None:
        rows, cols = zone_of(img.shape, cx, cy, s)
        if rows.stop - rows.start < 4 or cols.stop - cols.start < 4:
            return  # the zone lies (almost) wholly off the image
        sheet = _Sheet(img, cx, cy, s, rng)
        paint(sheet)
        sheet.finish()

    illustrate.__name__ = f"watercolour_{paint.__name__.lstrip('_')}"
    return illustrate


# -- shared motifs ----------------------------------------------------------------


def _arc(
    cx: float, cy: float, rx: float, ry: float, a0: float, a1: float, n: int = 24
) -> np.ndarray:
    t = a0 + (a1 - a0) * _unit(n)
    return np.stack([cx + rx * np.cos(t), cy + ry * np.sin(t)], axis=1)


def _line(x0: float, y0: float, x1: float, y1: float, bend: float = 0.0, n: int = 8) -> np.ndarray:
    t = _unit(n)
    x, y = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
    length = math.hypot(x1 - x0, y1 - y0) + 1e-9
    nx, ny = (y1 - y0) / length, -(x1 - x0) / length
    b = bend * np.sin(np.pi * t)
    return np.stack([x + nx * b, y + ny * b], axis=1)


def _dish(p: _Sheet, y: float, rx: float, ry: float, body: Colour, rim: Colour) -> None:
    r = p.rng
    p.wash(_ellipse(0.0, y, rx, ry), body, 0.82, pool=0.5, dark=0.3, gran=0.1)
    inner = _ellipse(0.0, y - 0.08 * ry, rx * 0.95, ry * 0.8)
    p.wash(
        _ellipse(0.0, y + 0.08 * ry, rx, ry * 0.95), rim, 0.3, pool=0.25, dark=0.25, holes=(inner,)
    )
    p.stroke(
        _arc(0.0, y, rx * 0.72, ry * 0.6, 0.35 + r.uniform(-0.1, 0.1), 2.7, 16), 0.05, rim, 0.3
    )


def _grains(
    p: _Sheet, cx: float, cy: float, rx: float, ry: float, count: int, length: float
) -> list[np.ndarray]:
    """Short ticks suggesting rice grains scattered over an ellipse."""
    a, d, b = p.rng.uniform(0.0, 2.0 * math.pi, (3, count))
    d = np.sqrt(0.05 + 0.95 * d / (2.0 * math.pi))
    return _ticks(cx + d * rx * np.cos(a), cy + d * ry * np.sin(a), b, length, 0.35 * length)


def _rice(p: _Sheet, y: float, w: float, h: float) -> None:
    p.wash(_superellipse(0.0, y, w, h, 2.8), RICE, 0.88, pool=0.6, dark=0.3, gran=0.1)
    p.wash(
        _superellipse(0.0, y + 0.22 * h, w * 0.86, h * 0.45, 2.5),
        RICE_SHADE,
        0.22,
        pool=0.05,
        soft=0.06,
    )
    p.wash(
        _grains(p, 0.0, y + 0.15 * h, 0.4 * w, 0.25 * h, 8, 0.14),
        RICE_SHADE,
        0.45,
        pool=0.2,
        dark=0.2,
        soft=0.01,
        spread=0.03,
        wobble=False,
    )


def _nigiri(
    p: _Sheet, topping: Colour, w: float, h: float, power: float, droop: float
) -> np.ndarray:
    """Rice and a draped topping; returns the topping outline (s units) for decorations."""
    r = p.rng
    _rice(p, 0.38 + r.uniform(-0.04, 0.04), 2.05 * r.uniform(0.95, 1.05), 0.85)
    ty = -0.16 + r.uniform(-0.04, 0.04)
    shape = _droop(_superellipse(0.0, ty, w, h, power, r.uniform(-0.05, 0.05)), 0.0, ty, droop)
    p.wash(shape, topping, 0.88, pool=0.6, dark=0.35)
    return shape


# -- the twelve cards -------------------------------------------------------------


def _shrimp(p: _Sheet, x: float, y: float, size: float, tilt: float, crumbs: int) -> None:
    """A battered shrimp lying head-left, its body curving up to a raised red tail."""
    r = p.rng
    t = np.linspace(0.0, 1.0, 18)
    bow = r.uniform(0.22, 0.32)
    sx = -0.95 + 1.75 * t
    sy = 0.35 - 0.85 * t + bow * np.sin(np.pi * t) * 1.0
    c, s = math.cos(tilt), math.sin(tilt)
    spine = np.stack([x + size * (c * sx - s * sy), y + size * (s * sx + c * sy)], axis=1)
    half = size * (0.36 - 0.2 * t**1.3) * r.uniform(0.93, 1.07)
    tangent = np.empty_like(spine)
    tangent[1:-1] = spine[2:] - spine[:-2]
    tangent[0], tangent[-1] = spine[1] - spine[0], spine[-1] - spine[-2]
    normal = np.stack([tangent[:, 1], -tangent[:, 0]], axis=1)
    normal /= np.hypot(normal[:, 0], normal[:, 1])[:, None]
    upper, lower = spine + normal * half[:, None], spine - normal * half[:, None]
    a0 = math.atan2(-normal[0, 1], -normal[0, 0])
    back = math.atan2(-tangent[0, 1], -tangent[0, 0])
    turn = 1.0 if math.sin(back - a0) > 0 else -1.0
    head = _arc(spine[0, 0], spine[0, 1], half[0], half[0], a0, a0 + turn * math.pi, 11)[1:-1]
    body = np.vstack([upper, lower[::-1], head])
    # The tail: two red lobes forking out of the batter's end.
    ex, ey = spine[-1]
    ang = math.atan2(tangent[-1, 1], tangent[-1, 0])
    L = size * 0.55 * r.uniform(0.9, 1.1)
    spread = r.uniform(0.38, 0.5)
    fan = []
    for da, length in ((-1.4, 0.22), (-spread, 1.0), (0.0, 0.55), (spread, 1.0), (1.4, 0.22)):
        fan.append((ex + L * length * math.cos(ang + da), ey + L * length * math.sin(ang + da)))
    fan.append((ex - 0.2 * size * math.cos(ang), ey - 0.2 * size * math.sin(ang)))
    p.wash(np.array(fan), SHRIMP_TAIL, 0.88, pool=0.55, dark=0.4, soft=0.02)
    # Batter: a lumpy edge.
    p.wash(p.wobble(body, 0.025, 0.035), SHRIMP, 0.92, pool=0.7, dark=0.42, wobble=False, gran=0.35)
    if crumbs == 0:
        return  # a shrimp behind another is left as a plain wash
    # Crumbs and a few pale highlights on the batter.
    pick = r.integers(1, len(spine) - 1, crumbs)
    side = np.where(r.random(crumbs) < 0.5, -1.0, 1.0) * r.uniform(0.55, 0.95, crumbs)
    dots = spine[pick] + normal[pick] * (half[pick] * side)[:, None]
    p.dabs(list(map(tuple, dots)), 0.05 * size, SHRIMP_DARK, 0.5)
    lights = []
    for j in (3, 7, 11):
        a, b = (
            spine[j] + normal[j] * half[j] * 0.45,
            spine[j + 2] + normal[j + 2] * half[j + 2] * 0.35,
        )
        lights.append(_line(float(a[0]), float(a[1]), float(b[0]), float(b[1]), 0.0, 4))
    p.stroke(lights, 0.09 * size, RICE, 0.35)


def _tempura(p: _Sheet) -> None:
    r = p.rng
    _dish(p, 0.7, 1.25, 0.38, PLATE, PLATE_RIM)
    _shrimp(p, 0.16 + r.uniform(-0.05, 0.05), -0.2, 0.8, r.uniform(-0.1, 0.05), 0)
    _shrimp(p, 0.0 + r.uniform(-0.05, 0.05), 0.22, 0.9, r.uniform(-0.05, 0.1), 10)


def _sashimi(p: _Sheet) -> None:
    r = p.rng
    tilt = r.uniform(-0.28, -0.1)
    gap = 0.74 * r.uniform(0.95, 1.05)
    flesh, lines = [], []
    for i, x in enumerate((-gap, 0.0, gap)):
        y = r.uniform(-0.06, 0.06) + 0.05 * i - 0.05
        w, h = 0.7 * r.uniform(0.92, 1.06), 1.55 * r.uniform(0.93, 1.05)
        ang = tilt + r.uniform(-0.06, 0.06)
        # A slice cut on the bias: a sheared, softly squared block, each its own wash.
        box = _superellipse(0.0, 0.0, w, h, 5.0)
        box[:, 0] += 0.22 * box[:, 1] * (box[:, 0] > 0) - 0.1 * box[:, 1]
        c, s = math.cos(ang), math.sin(ang)
        slab = np.stack(
            [x + c * box[:, 0] - s * box[:, 1], y + s * box[:, 0] + c * box[:, 1]], axis=1
        )
        p.wash(slab, SASHIMI, 0.9, pool=0.65, dark=0.38)
        flesh.append(_superellipse(x + 0.17 * c, y + 0.17 * s, w * 0.42, h * 0.85, 2.4, ang))
        for k in (-0.36, -0.05, 0.26):
            x0, y0 = x + c * -0.27 - s * (k * h), y + s * -0.27 + c * (k * h)
            x1, y1 = x + c * 0.27 - s * ((k + 0.1) * h), y + s * 0.27 + c * ((k + 0.1) * h)
            lines.append(_line(x0, y0, x1, y1, r.uniform(0.03, 0.08), 6))
    # Deeper flesh bled in along the cut sides, then pale fat lines as single curved strokes.
    p.wash(flesh, SASHIMI, 0.4, pool=0.1, soft=0.07, bloom=0.0)
    p.stroke(lines, 0.065, SASHIMI_FAT, 0.6)


def _dumpling(p: _Sheet) -> None:
    r = p.rng
    wr = 1.2 * r.uniform(0.93, 1.04)
    hr = 1.3 * r.uniform(0.93, 1.05)
    base = 0.62
    t = np.linspace(0.0, math.pi, 30)
    top = np.stack([wr * np.cos(t), base - hr * np.sin(t) ** 0.8], axis=1)
    xb = np.linspace(-wr, wr, 14)[1:-1]
    bottom = np.stack([xb, base + 0.14 * (1.0 - (xb / wr) ** 2)], axis=1)
    p.wash(np.vstack([top, bottom]), DUMPLING, 0.92, pool=0.55, dark=0.3, gran=0.15)
    # Shadow bleeding in from underneath and a golden fried base.
    p.wash(_ellipse(0.12, base - 0.1, wr * 0.85, 0.38), DUMPLING_SHADE, 0.32, pool=0.05, soft=0.08)
    p.stroke(
        np.stack([xb * 0.95, base + 0.09 * (1.0 - (xb / wr) ** 2)], axis=1),
        0.14,
        DUMPLING_BROWN,
        0.6,
    )
    # Crimped ridge and pleats fanning out from it.
    rim = 0.6
    tt = t[5:-5]
    ridge = np.stack([rim * wr * np.cos(tt), base - rim * hr * np.sin(tt) ** 0.8], axis=1)
    pleats = [ridge]
    for a in np.linspace(0.5, math.pi - 0.5, 6) + r.uniform(-0.06, 0.06):
        x0, y0 = rim * wr * math.cos(a), base - rim * hr * math.sin(a) ** 0.8
        x1, y1 = 0.97 * wr * math.cos(a + 0.1), base - 0.96 * hr * math.sin(a + 0.1) ** 0.8
        pleats.append(_line(x0, y0, x1, y1, 0.06, 5))
    p.stroke(pleats, 0.07, DUMPLING_SHADE, 0.6)


def _rolls(p: _Sheet, rolls: list[tuple[float, float, float]]) -> None:
    """Maki rolls seen end-on, each layer painted for all rolls in one wash."""
    r = p.rng
    rolls = [(x, y, R * r.uniform(0.95, 1.05)) for x, y, R in rolls]
    nori = [_ellipse(x, y, R, R * r.uniform(0.94, 1.0), r.uniform(0, 3)) for x, y, R in rolls]
    p.wash(nori, NORI, 0.94, pool=0.4, dark=0.5, gran=0.3)
    rice = [
        _ellipse(x, y, 0.76 * R, 0.76 * R * r.uniform(0.94, 1.0), r.uniform(0, 3))
        for x, y, R in rolls
    ]
    p.wash(rice, RICE, 0.94, pool=0.45, dark=0.22, gran=0.1, bloom=0.5)
    grains = [g for x, y, R in rolls for g in _grains(p, x, y, 0.57 * R, 0.57 * R, 6, 0.17 * R)]
    p.wash(
        grains,
        RICE_SHADE,
        0.45,
        pool=0.2,
        dark=0.2,
        soft=0.01,
        spread=0.03,
        wobble=False,
        bloom=0.0,
    )
    fills = []
    for x, y, R in rolls:
        fr = R * 0.3 * r.uniform(0.9, 1.1)
        fills.append(_ellipse(x + r.uniform(-0.05, 0.05) * R, y, fr, fr * 0.9, r.uniform(0, 3), 24))
    p.wash(fills, MAKI_FILL, 0.92, pool=0.5, dark=0.3)
    # A glint on each nori wrapper.
    p.stroke(
        [_arc(x, y, R * 0.88, R * 0.88, 3.6, 4.4, 8) for x, y, R in rolls],
        0.06 * rolls[0][2],
        RICE,
        0.25,
    )


def _maki(count: int) -> Callable[[_Sheet], None]:
    def paint(p: _Sheet) -> None:
        r = p.rng
        if count == 1:
            _rolls(p, [(0.0, 0.0, 0.95)])
        elif count == 2:
            # Two rolls leaning on each other along a rising diagonal.
            d = r.uniform(0.6, 0.66)
            _rolls(p, [(-d, 0.2, 0.62), (d, -0.2, 0.62)])
        else:
            # Stacked like logs: two at the bottom, one on top.
            _rolls(p, [(-0.6, 0.46, 0.56), (0.6, 0.46, 0.56), (r.uniform(-0.05, 0.05), -0.5, 0.56)])

    paint.__name__ = f"maki_{count}"
    return paint


def _egg(p: _Sheet) -> None:
    r = p.rng
    shape = _nigiri(p, OMELETTE, 2.32 * r.uniform(0.95, 1.04), 0.78, 6.0, 0.04)
    top = shape[:, 1].min()
    # Layers of the rolled omelette and its browned top.
    layers = [
        _line(-0.95, top + dy, 0.95, top + dy + r.uniform(-0.03, 0.03), r.uniform(-0.03, 0.03), 8)
        for dy in (0.24, 0.44)
    ]
    p.stroke(layers, 0.045, OMELETTE_EDGE, 0.45)
    p.wash(_superellipse(0.0, top + 0.07, 2.1, 0.14, 4.0), OMELETTE_EDGE, 0.3, pool=0.1, soft=0.04)
    # The nori band wrapped around the middle.
    bx = r.uniform(-0.12, 0.12)
    p.wash(
        _superellipse(bx, 0.1, 0.46 * r.uniform(0.9, 1.1), 1.3, 6.0, r.uniform(-0.08, 0.08)),
        NORI,
        0.92,
        pool=0.35,
        dark=0.5,
        gran=0.3,
    )


def _salmon(p: _Sheet) -> None:
    r = p.rng
    shape = _nigiri(p, SALMON, 2.36 * r.uniform(0.95, 1.04), 0.74, 3.5, 0.08)
    top, bottom = shape[:, 1].min(), shape[:, 1].max()
    lean = r.uniform(0.25, 0.4)
    stripes = [
        _line(
            x - lean * 0.5,
            top + 0.08 + 0.06 * x * x,
            x + lean * 0.5,
            bottom - 0.12,
            r.uniform(-0.05, 0.05),
            6,
        )
        for x in np.linspace(-0.78, 0.72, 5) + r.uniform(-0.05, 0.05)
    ]
    p.stroke(stripes, 0.085, SALMON_FAT, 0.75, dark=0.05)


def _squid(p: _Sheet) -> None:
    r = p.rng
    shape = _nigiri(p, SQUID, 2.48 * r.uniform(0.95, 1.04), 0.66, 2.8, 0.07)
    # A pink blush bled into one end, and the scored surface.
    p.wash(
        _ellipse(0.7 * r.choice([-1.0, 1.0]), -0.1, 0.5, 0.24),
        SQUID_MARK,
        0.4,
        pool=0.05,
        soft=0.08,
    )
    cy = float(shape[:, 1].mean())
    xs = np.concatenate([np.linspace(-0.8, 0.7, 6), np.linspace(-0.65, 0.55, 4)]) + r.uniform(
        -0.04, 0.04, 10
    )
    angles = np.concatenate([np.full(6, 1.05), np.full(4, 2.1)]) + r.uniform(-0.1, 0.1, 10)
    marks = _ticks(xs, cy + 0.05 * xs * xs, angles, 0.44, 0.05)
    marks += _ticks(
        np.array([0.0]), np.array([cy - 0.24]), np.array([r.uniform(-0.04, 0.04)]), 2.1, 0.045
    )
    p.wash(marks, SQUID_MARK, 0.55, pool=0.2, dark=0.2, soft=0.01, spread=0.03, wobble=False)


def _wasabi(p: _Sheet) -> None:
    r = p.rng
    _dish(p, 0.62, 1.2, 0.44, DISH, DISH_RIM)
    w = 0.78 * r.uniform(0.9, 1.08)
    hgt = 1.3 * r.uniform(0.9, 1.06)
    lean = r.uniform(-0.15, 0.15)
    base = 0.64
    t = np.linspace(0.0, math.pi, 32)
    lift = np.sin(t) ** 1.4
    mound = np.stack([w * np.cos(t) + lean * lift**3, base - hgt * lift], axis=1)
    xb = np.linspace(-w, w, 10)[1:-1]
    mound = np.vstack([mound, np.stack([xb, base + 0.08 * (1.0 - (xb / w) ** 2)], axis=1)])
    p.wash(p.wobble(mound, 0.04, 0.02), WASABI, 0.92, pool=0.6, dark=0.35, wobble=False, gran=0.4)
    # Grated texture: a few curving strokes and a pale highlight.
    ridges = []
    for k in range(4):
        yy = base - hgt * (0.15 + 0.2 * k)
        half = w * (0.85 - 0.18 * k)
        ridges.append(
            _line(
                -half + r.uniform(0, 0.1),
                yy,
                half * r.uniform(0.4, 0.9),
                yy + r.uniform(-0.05, 0.05),
                -0.08,
                7,
            )
        )
    p.stroke(ridges, 0.06, WASABI_DARK, 0.5)
    p.dabs([(-0.22 * w + lean * 0.4, base - hgt * 0.62)], 0.13, WASABI_LIGHT, 0.55)


def _pudding(p: _Sheet) -> None:
    r = p.rng
    rim_y, bottom = -0.36, 0.93
    tw = 1.0 * r.uniform(0.95, 1.04)
    bw = 0.74 * r.uniform(0.95, 1.04)
    ry = 0.2
    # Custard filling the glass and domed just above its rim.
    dome_h = 0.46 * r.uniform(0.88, 1.1)
    dw = tw * 0.9
    t = _unit(20) * math.pi
    dome = np.stack([dw * np.cos(t), rim_y - dome_h * np.sin(t) ** 0.6], axis=1)
    body = np.array([[-bw * 0.9, bottom - 0.08], [bw * 0.9, bottom - 0.08]])
    p.wash(np.vstack([dome, body]), CUSTARD, 0.92, pool=0.45, dark=0.28)
    # The caramel cap, running down in a couple of rounded drips.
    cap_y = rim_y - dome_h * 0.35
    xs = np.linspace(-1.0, 1.0, 21) * dw * 0.97
    edge = cap_y + 0.04 * np.sin(xs * 5.0 + r.uniform(0.0, 6.3))
    for x_drip in r.uniform(-0.6, 0.6, 2):
        edge += r.uniform(0.16, 0.3) * np.exp(-(((xs - x_drip) / 0.11) ** 2))
    top = np.stack([dw * 0.99 * np.cos(t), rim_y - dome_h * 1.02 * np.sin(t) ** 0.6], axis=1)
    top = top[top[:, 1] < cap_y]
    p.wash(
        np.vstack([np.stack([xs, edge], axis=1), top]), CARAMEL, 0.9, pool=0.55, dark=0.35, gran=0.3
    )
    p.stroke(
        _arc(-0.2 * dw, rim_y - dome_h * 0.72, dw * 0.35, 0.1, 3.6, 4.9, 8), 0.06, CUSTARD, 0.55
    )
    # The glass in front: a pale translucent wash, a light rim and side glints.
    glass = np.vstack(
        [_arc(0.0, rim_y, tw, ry, math.pi, 0.0, 16), _arc(0.0, bottom, bw, 0.12, 0.0, math.pi, 12)]
    )
    p.wash(glass, CUP, 0.2, pool=0.8, dark=0.25, gran=0.1, bloom=0.0)
    p.wash(_superellipse(0.55, 0.45, 0.34, 0.95, 2.5, -0.12), CUP_SHADE, 0.3, pool=0.05, soft=0.07)
    p.stroke(_ellipse(0.0, rim_y, tw, ry, 0.0, 32), 0.05, CUP, 0.75, closed=True)
    p.stroke(
        [
            _line(-tw * 0.8, rim_y + 0.25, -bw * 0.86, bottom - 0.25, -0.03, 6),
            _arc(0.0, bottom - 0.02, bw * 0.95, 0.1, 0.3, math.pi - 0.3, 10),
        ],
        0.08,
        CUP,
        0.65,
    )


def _chopsticks(p: _Sheet) -> None:
    r = p.rng
    for sign in (1.0, -1.0):
        ang = sign * r.uniform(0.5, 0.62)
        L = 1.38 * r.uniform(0.95, 1.04)
        xo, yo = r.uniform(-0.06, 0.06), r.uniform(-0.06, 0.06)
        c, s = math.cos(ang), math.sin(ang)
        # Thick end on the left, tip on the right.
        x0, y0, x1, y1 = xo - c * L, yo - s * L, xo + c * L, yo + s * L
        t = np.linspace(0.0, 1.0, 12)
        spine = np.stack([x0 + (x1 - x0) * t, y0 + (y1 - y0) * t], axis=1)
        half = 0.12 - 0.065 * t
        normal = np.array([-s, c])
        stick = np.vstack([spine + normal * half[:, None], (spine - normal * half[:, None])[::-1]])
        p.wash(stick, WOOD, 0.92, pool=0.6, dark=0.35, spread=0.05)
        # Darkened grip end and a grain line.
        p.stroke([spine[:4], spine[4:-1] + normal * 0.025], 0.05, WOOD_DARK, 0.5, taper=0.3)


WATERCOLOUR_ILLUSTRATIONS: dict[str, Illustrate] = {
    "tempura": _painter(_tempura),
    "sashimi": _painter(_sashimi),
    "dumpling": _painter(_dumpling),
    "maki_1": _painter(_maki(1)),
    "maki_2": _painter(_maki(2)),
    "maki_3": _painter(_maki(3)),
    "egg": _painter(_egg),
    "salmon": _painter(_salmon),
    "squid": _painter(_squid),
    "wasabi": _painter(_wasabi),
    "pudding": _painter(_pudding),
    "chopsticks": _painter(_chopsticks),
}
