"""Painted illustrations: a third renderer's card art ("painted"), drawn from card-spec.md alone.

These drawers measured how well the detector carries over to card art it never saw, and were
held out of training for seven sessions; since the eighth they are training art (`--art hands`,
`datasets.commands.TRAINED_HAND_ART`). They paint like an illustrator rather than a cartoonist:
no outlines, forms built from soft light and shade, muted natural colours, a little brush
texture, three-quarter views, and small props where the spec allows (plate, dish, cup).

Each drawer has the `Illustrate` signature of `datasets.faces.render_face` and changes no pixel
outside the zone cx ± 1.5·s, cy ± 1.3·s: it paints a float copy of that zone and writes it back.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from datasets.faces import Illustrate

RGB = tuple[int, int, int]


def _unit(x: float, y: float, z: float) -> tuple[float, float, float]:
    n = math.hypot(x, y, z)
    return x / n, y / n, z / n


_LIGHT = _unit(-0.45, -0.6, 0.66)  # from the upper left and in front
_HALF = _unit(_LIGHT[0], _LIGHT[1], _LIGHT[2] + 1)  # halfway to the viewer, for highlights

RICE: RGB = (238, 234, 222)
NORI: RGB = (40, 50, 38)


def _ellipse(u: float, v: float, a: float, b: float, rot: float = 0.0, n: int = 72) -> np.ndarray:
    t = np.linspace(0.0, 2 * np.pi, n, endpoint=False)
    x, y = a * np.cos(t), b * np.sin(t)
    c, s = math.cos(rot), math.sin(rot)
    return np.stack([u + x * c - y * s, v + x * s + y * c], 1)


def _blob(
    u: float, v: float, a: float, b: float, p: float = 4.0, rot: float = 0.0, n: int = 96
) -> np.ndarray:
    """A superellipse: a rounded slab whose corners soften as p falls towards 2."""
    t = np.linspace(0.0, 2 * np.pi, n, endpoint=False)
    c, s = np.cos(t), np.sin(t)
    x = a * np.sign(c) * np.abs(c) ** (2 / p)
    y = b * np.sign(s) * np.abs(s) ** (2 / p)
    cr, sr = math.cos(rot), math.sin(rot)
    return np.stack([u + x * cr - y * sr, v + x * sr + y * cr], 1)


def _moved(pts: np.ndarray, du: float, dv: float) -> np.ndarray:
    return pts + np.array([du, dv])


def _ribbon(points: np.ndarray, half: np.ndarray) -> np.ndarray:
    """The outline of a band of varying half-width along a polyline."""
    d = np.gradient(points, axis=0)
    d /= np.linalg.norm(d, axis=1, keepdims=True) + 1e-9
    normal = np.stack([-d[:, 1], d[:, 0]], 1) * half[:, None]
    return np.concatenate([points + normal, (points - normal)[::-1]])


def _blur(a: np.ndarray, sigma: float) -> np.ndarray:
    if sigma < 0.3 or a.size == 0:
        return a
    return cv2.GaussianBlur(a, (0, 0), sigma, borderType=cv2.BORDER_CONSTANT)


def _slopes(m: np.ndarray, sigma: float) -> tuple[np.ndarray, np.ndarray]:
    """The x and y slopes (per px) of m blurred by sigma px."""
    f = sigma / 3.0
    if f < 1.5:
        gy, gx = np.gradient(_blur(m, sigma))
        return gx, gy
    # Wide blurs run on a shrunken copy, and the slopes (not the blurred mask) are enlarged
    # again, so the interpolation leaves no ripple in the light.
    h, w = m.shape
    sw, sh = max(3, round(w / f)), max(3, round(h / f))
    gy, gx = np.gradient(_blur(cv2.resize(m, (sw, sh), interpolation=cv2.INTER_AREA), 3.0))
    gx = cv2.resize(gx * (sw / w), (w, h), interpolation=cv2.INTER_CUBIC)
    gy = cv2.resize(gy * (sh / h), (w, h), interpolation=cv2.INTER_CUBIC)
    return gx, gy


Box = tuple[slice, slice]


class _Brush:
    """A float copy of the illustration's zone, painted in local units of s (tilted, shifted)."""

    def __init__(
        self,
        img: np.ndarray,
        cx: float,
        cy: float,
        s: float,
        rng: np.random.Generator,
        *,
        tilt: float = 6.0,
        wander: float = 0.04,
    ) -> None:
        self.img, self.rng = img, rng
        h, w = img.shape[:2]
        self.x0, self.x1 = max(0, math.ceil(cx - 1.5 * s)), min(w, math.floor(cx + 1.5 * s) + 1)
        self.y0, self.y1 = max(0, math.ceil(cy - 1.3 * s)), min(h, math.floor(cy + 1.3 * s) + 1)
        self.layer = img[self.y0 : self.y1, self.x0 : self.x1].astype(np.float32)
        self.shape = self.layer.shape[:2]
        self.painted = np.zeros(self.shape, np.float32)
        self.unit = s * rng.uniform(0.93, 1.04)
        self.ox = cx - self.x0 + rng.uniform(-wander, wander) * s
        self.oy = cy - self.y0 + rng.uniform(-wander, wander) * s
        angle = math.radians(rng.uniform(-tilt, tilt))
        self.cos, self.sin = math.cos(angle), math.sin(angle)
        gy, gx = np.mgrid[0 : self.shape[0], 0 : self.shape[1]].astype(np.float32)
        dx, dy = (gx - self.ox) / self.unit, (gy - self.oy) / self.unit
        self.u = dx * self.cos + dy * self.sin
        self.v = -dx * self.sin + dy * self.cos

    # --- geometry -------------------------------------------------------------------------

    def px(self, pts: np.ndarray) -> np.ndarray:
        u, v = pts[:, 0], pts[:, 1]
        x = self.ox + self.unit * (u * self.cos - v * self.sin)
        y = self.oy + self.unit * (u * self.sin + v * self.cos)
        return np.stack([x, y], 1)

    def mask(self, *polys: np.ndarray, soft: float = 0.012) -> np.ndarray:
        m = np.zeros(self.shape, np.uint8)
        for p in polys:
            pts = np.round(self.px(p) * 16).astype(np.int32)
            cv2.fillPoly(m, [pts], 255, cv2.LINE_AA, shift=4)
        return _blur(m.astype(np.float32) / 255.0, soft * self.unit)

    def lines(self, polylines: list[np.ndarray], width: float, soft: float = 0.01) -> np.ndarray:
        m = np.zeros(self.shape, np.uint8)
        pts = [np.round(self.px(p) * 16).astype(np.int32) for p in polylines]
        thick = max(1, round(width * self.unit))
        cv2.polylines(m, pts, False, 255, thick, cv2.LINE_AA, shift=4)
        return _blur(m.astype(np.float32) / 255.0, soft * self.unit)

    def box(self, m: np.ndarray, pad: float = 0.0) -> Box | None:
        """The rows and columns where m is painted, widened by pad px (None where m is
        empty, as when the zone leaves the image): work stays local."""
        if m.size == 0:
            return None
        rows, cols = np.flatnonzero(m.max(1) > 1e-3), np.flatnonzero(m.max(0) > 1e-3)
        if rows.size == 0:
            return None
        p = math.ceil(pad)
        h, w = self.shape
        return (
            slice(max(0, rows[0] - p), min(h, rows[-1] + p + 1)),
            slice(max(0, cols[0] - p), min(w, cols[-1] + p + 1)),
        )

    # --- colour ---------------------------------------------------------------------------

    def colour(self, rgb: RGB, jitter: float = 6.0) -> np.ndarray:
        bgr = np.array(rgb[::-1], np.float32)
        return np.clip(bgr + self.rng.uniform(-jitter, jitter, 3), 0, 255).astype(np.float32)

    def ramp(self, rgb: RGB, t: np.ndarray) -> np.ndarray:
        """Local colour at t=0.62, sinking to cool shade at 0 and warm light at 1."""
        base = self.colour(rgb)
        dark = base * np.array([0.68, 0.6, 0.56], np.float32)
        lift = 0.3 + 0.7 * float(base.mean()) / 255
        light = base + (255 - base) * np.array([0.3, 0.45, 0.5], np.float32) * lift
        t = t.astype(np.float32)[..., None]
        shade = np.clip((0.62 - t) / 0.62, 0, 1)
        lit = np.clip((t - 0.62) / 0.38, 0, 1)
        return base + (dark - base) * shade + (light - base) * lit

    def fill(self, m: np.ndarray, colour: np.ndarray, alpha: float = 1.0) -> None:
        box = self.box(m)
        if box is None:
            return
        a = m[box] * alpha
        self.layer[box] += (colour - self.layer[box]) * a[..., None]
        np.maximum(self.painted[box], a, out=self.painted[box])

    def shade(
        self,
        m: np.ndarray,
        rgb: RGB,
        depth: float = 0.15,
        *,
        gloss: float = 0.0,
        shine: float = 24.0,
        inset: bool = False,
        form: np.ndarray | float = 0.0,
        alpha: float = 1.0,
    ) -> None:
        """Paints m as a rounded form: normals come from the blurred silhouette, lit from the
        upper left, so light and shade follow any shape without outlines."""
        sigma = depth * self.unit
        box = self.box(m, 3 * sigma + 2)
        if box is None:
            return
        gx, gy = _slopes(m[box], sigma)
        k = sigma * 2.5 * (-1.0 if inset else 1.0)
        nx, ny = -gx * k, -gy * k
        norm = np.sqrt(nx * nx + ny * ny + 1.0)
        lam = (_LIGHT[0] * nx + _LIGHT[1] * ny + _LIGHT[2]) / norm
        if isinstance(form, np.ndarray):
            form = form[box]
        t = np.clip(0.62 + (lam - _LIGHT[2]) * 0.95 + form, 0, 1)
        colour = self.ramp(rgb, t)
        if gloss:
            spec = np.clip((_HALF[0] * nx + _HALF[1] * ny + _HALF[2]) / norm, 0, 1) ** shine
            colour = colour + (gloss * 255 * spec)[..., None]
        a = m[box] * alpha
        self.layer[box] += (colour - self.layer[box]) * a[..., None]
        np.maximum(self.painted[box], a, out=self.painted[box])

    def shadow(self, m: np.ndarray, strength: float = 0.35) -> None:
        # Shadows keep a little more blue than red, as painted shade on warm paper does.
        box = self.box(m)
        if box is None:
            return
        a = (m[box] * strength)[..., None] * np.array([0.8, 0.95, 1.0], np.float32)
        self.layer[box] *= 1 - a
        np.maximum(self.painted[box], m[box] * strength * 0.5, out=self.painted[box])

    # --- texture --------------------------------------------------------------------------

    def noise(self, cell: float, shape: tuple[int, int]) -> np.ndarray:
        """Smooth unit noise with blobs about `cell` units across."""
        c = max(1.0, cell * self.unit)
        h, w = shape
        hs, ws = int(h / c) + 3, int(w / c) + 3
        small = self.rng.standard_normal((hs, ws)).astype(np.float32)
        big = cv2.resize(small, (round(ws * c), round(hs * c)), interpolation=cv2.INTER_LINEAR)
        big = cv2.GaussianBlur(big[:h, :w], (0, 0), 0.4 * c)
        return big / (big.std() + 1e-6)

    def streaks(self, angle: float, length: float, shape: tuple[int, int]) -> np.ndarray:
        """Unit noise smeared along `angle` (degrees, on the face): brush marks, wood grain."""
        h, w = shape
        hs, ws = max(4, h // 2), max(4, w // 2)
        n = self.rng.standard_normal((hs, ws)).astype(np.float32)
        size = max(3, int(length * self.unit / 2) | 1)
        kernel = np.zeros((size, size), np.float32)
        c = size // 2
        dx, dy = math.cos(math.radians(angle)) * c, math.sin(math.radians(angle)) * c
        cv2.line(kernel, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1.0, 1)
        n = cv2.GaussianBlur(cv2.filter2D(n, -1, kernel / kernel.sum()), (0, 0), 0.7)
        n = cv2.resize(n, (w, h), interpolation=cv2.INTER_LINEAR)
        return n / (n.std() + 1e-6)

    def grain(self, m: np.ndarray, cell: float, amount: float) -> None:
        box = self.box(m)
        if box is None:
            return
        n = np.clip(self.noise(cell, m[box].shape), -2.5, 2.5)
        self.layer[box] *= 1 + (amount * m[box] * n)[..., None]

    def dabs(self, m: np.ndarray, cell: float, rgb: RGB, cut: float, alpha: float) -> None:
        """Scattered soft dabs of one colour where the noise rises above `cut`."""
        box = self.box(m)
        if box is None:
            return
        spots = m[box] * np.clip(self.noise(cell, m[box].shape) - cut, 0, 1) * alpha
        self.layer[box] += (self.colour(rgb) - self.layer[box]) * spots[..., None]

    def finish(self) -> None:
        if self.layer.size:
            brush = self.streaks(self.rng.uniform(-60, 60), 0.12, self.shape)
            self.layer *= 1 + (0.02 * self.painted * brush)[..., None]
        out = np.clip(np.rint(self.layer), 0, 255).astype(np.uint8)
        self.img[self.y0 : self.y1, self.x0 : self.x1] = out


# --- the illustrations ------------------------------------------------------------------------


def _plate(b: _Brush, v: float, a: float, bb: float, rgb: RGB, band: RGB | None) -> None:
    """A shallow round plate seen from above at an angle, with a softly shaded well."""
    b.shadow(b.mask(_ellipse(0.07, v + 0.09, a, bb), soft=0.07), 0.35)
    b.shade(b.mask(_ellipse(0.0, v + 0.05, a * 0.97, bb)), rgb, 0.05, form=-0.25)
    b.shade(b.mask(_ellipse(0.0, v, a, bb)), rgb, 0.06, gloss=0.2)
    if band is not None:
        outer = b.mask(_ellipse(0.0, v, a * 0.96, bb * 0.93))
        ring = outer - b.mask(_ellipse(0.0, v, a * 0.9, bb * 0.85))
        b.fill(np.clip(ring, 0, 1), b.colour(band), 0.55)
    well = b.mask(_ellipse(0.0, v + 0.02, a * 0.72, bb * 0.66), soft=0.05)
    b.shade(well, rgb, 0.08, inset=True, alpha=0.8, form=-0.05)


def _draw_tempura(
    img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator
) -> None:
    b = _Brush(img, cx, cy, s, rng)
    band = (72, 92, 138) if rng.random() < 0.6 else None
    _plate(b, 0.55, 1.3, 0.45, (234, 230, 220), band)

    # An arched shrimp: the thick body end rests on the plate, the tail end curls over.
    flip = 1.0 if rng.random() < 0.5 else -1.0
    t = np.linspace(0.0, 1.0, 48)
    theta = np.radians(rng.uniform(160, 175) + rng.uniform(180, 200) * t)
    rx, ry = 0.72 * (1 - 0.15 * t), 0.55 * (1 - 0.15 * t)
    path = np.stack([flip * rx * np.cos(theta), 0.25 + ry * np.sin(theta)], 1)
    half = 0.28 * (1 - 0.55 * t**1.5) * (0.88 + 0.12 * np.sin(np.pi * np.minimum(1, 2 * t)))

    d = path[-1] - path[-3]
    d /= np.linalg.norm(d)
    n = np.array([-d[1], d[0]])
    base = path[-1] - d * 0.06
    fan = [
        base - n * 0.07,
        base + d * 0.34 - n * 0.22,
        base + d * 0.27 - n * 0.05,
        base + d * 0.34 + n * 0.06,
        base + d * 0.3 + n * 0.21,
        base + n * 0.07,
    ]
    b.shade(b.mask(np.array(fan), soft=0.015), (196, 76, 50), 0.04, gloss=0.3)

    lumps = [
        _ellipse(*(path[i] + rng.normal(0, 0.55, 2) * half[i]), 0.4 * half[i], 0.34 * half[i])
        for i in range(0, 44, 2)
    ]
    head = _ellipse(*path[0], half[0], half[0] * 0.9)
    b.shadow(b.mask(_ribbon(_moved(path, 0.07, 0.1), half), soft=0.06), 0.3)
    body = b.mask(_ribbon(path, half), head, *lumps)
    b.shade(body, (214, 160, 78), 0.16, gloss=0.16, shine=12)
    b.dabs(body, 0.04, (246, 214, 140), 0.9, 0.6)
    b.dabs(body, 0.05, (158, 96, 40), 1.3, 0.4)
    b.finish()


def _draw_sashimi(
    img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator
) -> None:
    b = _Brush(img, cx, cy, s, rng)
    lean = rng.uniform(0.1, 0.25) * (1 if rng.random() < 0.5 else -1)
    flesh = ((214, 98, 108), (222, 112, 118), (206, 86, 96))[int(rng.integers(3))]
    cut = (168, 58, 68)
    for i, u in enumerate((-0.78, 0.0, 0.78)):
        u += rng.uniform(-0.04, 0.04)
        v = rng.uniform(-0.14, -0.06) + 0.05 * (i - 1) * np.sign(lean)
        rot = lean + rng.uniform(-0.05, 0.05)
        a, h = rng.uniform(0.31, 0.35), rng.uniform(0.62, 0.7)
        b.shadow(b.mask(_blob(u + 0.08, v + 0.2, a, h, 6, rot), soft=0.06), 0.35)
        b.shade(b.mask(_blob(u, v + 0.13, a, h, 6, rot)), cut, 0.04, form=-0.1)
        top = b.mask(_blob(u, v, a, h, 6, rot))
        b.shade(top, flesh, 0.06, gloss=0.3, shine=30)
        # Pale connective-tissue arcs run across each slice.
        arcs = []
        c, sn = math.cos(rot), math.sin(rot)
        for k in range(4):
            y0 = -h * 0.75 + k * h * 0.48 + rng.uniform(-0.05, 0.05)
            x = np.linspace(-a, a, 12)
            y = y0 + 0.12 * np.sin(x / a * 1.4 + k)
            arcs.append(np.stack([u + x * c - y * sn, v + x * sn + y * c], 1))
        b.fill(b.lines(arcs, 0.035, soft=0.015) * top, b.colour((244, 190, 192)), 0.5)
    b.finish()


def _draw_dumpling(
    img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator
) -> None:
    b = _Brush(img, cx, cy, s, rng)
    skin: RGB = (236, 230, 214)
    # A plump round dumpling seen from a little above, its pleats gathered in a twist on top.
    a, rise, foot = rng.uniform(0.98, 1.08), rng.uniform(0.85, 0.95), 0.4
    x = np.linspace(-1.0, 1.0, 80)
    dome = np.stack([a * x, foot - rise * (1 - x**2) ** 0.45 - 0.08 * (1 - x**2) ** 6], 1)
    belly = _ellipse(0.0, foot, a, 0.28)
    outline = np.concatenate([dome, belly[belly[:, 1] > foot + 1e-6]])
    b.shadow(b.mask(_ellipse(0.1, foot + 0.12, a * 1.02, 0.28), soft=0.07), 0.45)
    body = b.mask(outline)
    b.shade(body, skin, 0.35, gloss=0.22, shine=14, form=0.12 * (0.2 - b.v))

    knot = np.array([rng.uniform(-0.06, 0.06), foot - rise * 0.92])
    swirl = rng.uniform(0.15, 0.25) * (1 if rng.random() < 0.5 else -1)
    pleats = int(rng.integers(9, 13))
    creases, lights = [], []
    for k in range(pleats):
        phi = 2 * np.pi * (k + rng.uniform(-0.15, 0.15)) / pleats
        end = np.array([0.85 * a * math.cos(phi), foot - 0.3 * rise + 0.3 * math.sin(phi)])
        ctrl = (knot + end) / 2 + swirl * np.array([-(end - knot)[1], (end - knot)[0]])
        s_ = np.linspace(0.05, 0.75, 10)[:, None]
        curve = (1 - s_) ** 2 * knot + 2 * s_ * (1 - s_) * ctrl + s_**2 * end
        creases.append(curve)
        lights.append(_moved(curve, 0.06, -0.03))
    fade = np.clip(1.4 - np.hypot(b.u - knot[0], (b.v - knot[1]) * 1.5) / 1.1, 0, 1)
    b.fill(b.lines(creases, 0.055, soft=0.03) * body * fade, b.colour((120, 114, 116)), 0.7)
    b.fill(b.lines(lights, 0.035, soft=0.025) * body * fade, b.colour((252, 250, 244)), 0.55)
    b.shade(b.mask(_ellipse(*knot, 0.13, 0.08, swirl)), skin, 0.05, gloss=0.3)
    b.finish()


def _maki_roll(b: _Brush, u: float, v: float, r: float) -> None:
    """One roll standing on end: nori wall below, the cut face (nori, rice, filling) on top."""
    q, wall = 0.62, 0.55 * r
    b.shadow(b.mask(_ellipse(u + 0.12 * r, v + wall + 0.12 * r, r * 1.02, q * r), soft=0.07), 0.4)
    side = b.mask(
        np.array([[u - r, v], [u + r, v], [u + r, v + wall], [u - r, v + wall]]),
        _ellipse(u, v + wall, r, q * r),
    )
    across = (b.u - u) / r
    b.shade(side, NORI, 0.04, gloss=0.12, form=0.15 - 0.35 * (across + 0.3) ** 2)
    b.grain(side, 0.03, 0.1)

    b.shade(b.mask(_ellipse(u, v, r, q * r)), (50, 62, 44), 0.05)
    rice = b.mask(_ellipse(u, v + 0.01 * r, 0.83 * r, 0.8 * q * r), soft=0.015)
    b.shade(rice, RICE, 0.08, inset=True, form=0.08)
    b.grain(rice, 0.03, 0.05)
    b.dabs(rice, 0.025, (252, 252, 248), 0.8, 0.8)
    tilt = b.rng.uniform(-0.3, 0.3)
    centre = b.mask(_ellipse(u + 0.03 * r, v + 0.02 * r, 0.3 * r, 0.3 * q * r, tilt))
    b.shade(centre, (220, 84, 52), 0.04, gloss=0.4, shine=20)


def _draw_maki(n: int) -> Illustrate:
    def draw(img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator) -> None:
        b = _Brush(img, cx, cy, s, rng, tilt=4.0)
        if n == 1:
            r = rng.uniform(0.72, 0.82)
            spots = [(0.0, -0.2)]
        elif n == 2:
            r = rng.uniform(0.56, 0.6)
            pairs = ([(-0.64, -0.12), (0.64, -0.12)], [(-0.5, -0.38), (0.5, 0.12)])
            spots = pairs[int(rng.integers(2))]
        else:
            r = rng.uniform(0.47, 0.5)
            triangles = (
                [(-0.52, -0.42), (0.52, -0.42), (0.0, 0.34)],
                [(0.0, -0.5), (-0.54, 0.24), (0.54, 0.24)],
            )
            spots = triangles[int(rng.integers(2))]
        for u, v in sorted(spots, key=lambda p: p[1]):
            _maki_roll(b, u + rng.uniform(-0.04, 0.04), v + rng.uniform(-0.04, 0.04), r)
        b.finish()

    return draw


def _nigiri_rice(b: _Brush) -> np.ndarray:
    """The rice pillow under a topping; returns its mask."""
    b.shadow(b.mask(_blob(0.1, 0.36, 1.0, 0.36, 2.6), soft=0.07), 0.4)
    rice = b.mask(_blob(0.0, 0.28, 0.98, 0.34, 2.6))
    b.shade(rice, RICE, 0.16, form=0.3)
    b.grain(rice, 0.03, 0.05)
    b.dabs(rice, 0.025, (253, 252, 247), 0.9, 0.8)
    return rice


def _drape(b: _Brush, length: float, width: float, sag: float, lift: float) -> np.ndarray:
    """Outline of a slice laid over the rice, its ends drooping."""
    t = np.linspace(-1.0, 1.0, 60)
    mid = lift + sag * t * t + b.rng.uniform(-0.04, 0.04) * t
    half = width * (1 - 0.35 * t**6)
    u = length * t
    return np.concatenate([np.stack([u, mid - half], 1), np.stack([u, mid + half], 1)[::-1]])


def _draw_egg(img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator) -> None:
    b = _Brush(img, cx, cy, s, rng)
    rice = _nigiri_rice(b)
    a = rng.uniform(1.1, 1.2)
    b.shadow(b.mask(_blob(0.06, 0.2, a, 0.3, 5), soft=0.05), 0.4)
    front = b.mask(_blob(0.0, 0.08, a, 0.3, 6))
    b.shade(front, (226, 176, 70), 0.05, form=-0.1)
    layers = [np.array([[-a, y], [a, y + rng.uniform(-0.03, 0.03)]]) for y in (0.1, 0.2, 0.28)]
    b.fill(b.lines(layers, 0.02, soft=0.012) * front, b.colour((250, 226, 150)), 0.55)
    top = b.mask(_blob(0.0, -0.16, a, 0.34, 6))
    b.shade(top, (250, 226, 138), 0.08, gloss=0.15)
    b.dabs(top, 0.06, (212, 150, 64), 1.2, 0.35)

    # The nori band wraps the block: lit where it crosses the top, in shade down the front.
    w, u0 = rng.uniform(0.15, 0.18), rng.uniform(-0.1, 0.1)
    band = np.array([[u0 - w, -0.55], [u0 + w, -0.55], [u0 + w * 0.9, 0.7], [u0 - w * 0.9, 0.7]])
    nori = b.mask(band, soft=0.008)
    under = np.clip(rice + front - top, 0, 1)
    b.shade(nori * top, (54, 68, 48), 0.03, form=0.05)
    b.shade(nori * under, NORI, 0.03, form=-0.1)
    b.grain(nori * np.clip(top + under, 0, 1), 0.03, 0.15)
    b.finish()


def _draw_salmon(img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator) -> None:
    b = _Brush(img, cx, cy, s, rng)
    rice = _nigiri_rice(b)
    outline = _drape(b, rng.uniform(1.12, 1.22), 0.36, 0.22, -0.1)
    b.shadow(b.mask(_moved(outline, 0.05, 0.1), soft=0.04) * rice, 0.3)
    b.shadow(b.mask(_moved(outline, 0.06, 0.12), soft=0.05) * (1 - rice), 0.35)
    flesh = b.mask(outline)
    b.shade(flesh, (236, 118, 72), 0.1, gloss=0.35, shine=26)
    # Salmon's white fat lines run diagonally across the slice, gently curved.
    stripes = []
    slant = rng.uniform(0.35, 0.6)
    for k in range(-4, 5):
        x0 = k * 0.28 + rng.uniform(-0.03, 0.03)
        y = np.linspace(-0.55, 0.45, 10)
        stripes.append(np.stack([x0 + slant * y + 0.05 * np.sin(y * 4 + k), y], 1))
    b.fill(b.lines(stripes, 0.05, soft=0.02) * flesh, b.colour((250, 220, 200)), 0.8)
    b.finish()


def _draw_squid(img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator) -> None:
    b = _Brush(img, cx, cy, s, rng)
    rice = _nigiri_rice(b)
    outline = _drape(b, rng.uniform(1.18, 1.28), 0.4, 0.26, -0.12)
    b.shadow(b.mask(_moved(outline, 0.05, 0.1), soft=0.04) * rice, 0.45)
    b.shadow(b.mask(_moved(outline, 0.06, 0.12), soft=0.05) * (1 - rice), 0.35)
    body = b.mask(outline)
    b.shade(body, (244, 222, 224), 0.14, gloss=0.5, shine=18)
    # Squid is scored in a fine crosshatch; a faint violet blush shows its skin side.
    cuts = []
    step = rng.uniform(0.2, 0.26)
    for k in range(-6, 7):
        y = np.array([-0.7, 0.6])
        cuts.append(np.stack([k * step + 0.6 * y, y], 1))
        cuts.append(np.stack([k * step - 0.6 * y, y], 1))
    b.fill(b.lines(cuts, 0.02, soft=0.012) * body, b.colour((200, 166, 180)), 0.25)
    blush = body * np.clip(1.0 - np.abs(b.u) / 0.9, 0, 1) * np.clip(b.v + 0.1, 0, 1)
    b.fill(blush, b.colour((212, 170, 200)), 0.35)
    b.finish()


def _draw_wasabi(img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator) -> None:
    b = _Brush(img, cx, cy, s, rng)
    dish = ((198, 212, 200), (226, 222, 212), (120, 138, 160))[int(rng.integers(3))]
    dv = 0.45
    b.shadow(b.mask(_ellipse(0.08, dv + 0.26, 1.12, 0.44), soft=0.07), 0.4)
    b.shade(b.mask(_ellipse(0.0, dv + 0.16, 1.0, 0.42)), dish, 0.06, form=-0.2)
    b.shade(b.mask(_ellipse(0.0, dv, 1.15, 0.48)), dish, 0.06, gloss=0.3)
    b.shade(b.mask(_ellipse(0.0, dv + 0.03, 0.95, 0.37), soft=0.03), dish, 0.12, inset=True)

    # A soft mound of grated paste, its tip twisted over to one side.
    t = np.linspace(-1.0, 1.0, 60)
    base, height = rng.uniform(0.6, 0.68), rng.uniform(0.8, 0.92)
    lean = rng.uniform(0.12, 0.22) * (1 if rng.random() < 0.5 else -1)
    profile = 0.7 * (1 - t**2) ** 1.2 + 0.3 * (1 - np.abs(t)) ** 3
    top = dv + 0.12 - height * profile
    ground = dv + 0.12 + 0.12 * np.sqrt(1 - t**2)
    mound = np.concatenate(
        [
            np.stack([base * t + lean * profile**6, top], 1),
            np.stack([base * t[::-1], ground[::-1]], 1),
        ]
    )
    b.shadow(b.mask(_moved(mound, 0.12, 0.06), soft=0.06) * (b.v > dv - 0.35), 0.4)
    m = b.mask(mound)
    b.shade(m, (128, 166, 66), 0.22, gloss=0.15, shine=10)
    ridges = []
    for k in range(4):
        y = dv + 0.1 - height * (0.2 + 0.2 * k)
        w = base * (1 - (0.2 + 0.2 * k)) ** 0.9
        x = np.linspace(-w, w, 12)
        ridges.append(np.stack([x + lean * (0.2 + 0.2 * k) ** 4, y + 0.07 * (1 - (x / w) ** 2)], 1))
    b.fill(b.lines(ridges, 0.04, soft=0.025) * m, b.colour((176, 204, 104)), 0.45)
    b.grain(m, 0.02, 0.08)
    b.dabs(m, 0.02, (180, 206, 110), 1.0, 0.5)
    b.finish()


def _draw_pudding(
    img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator
) -> None:
    b = _Brush(img, cx, cy, s, rng)
    rim_v, foot_v = 0.12, 0.78
    ra, fa = rng.uniform(0.82, 0.9), 0.72
    cup = ((236, 232, 224), (214, 226, 232), (232, 214, 186))[int(rng.integers(3))]
    saucer: RGB = (228, 226, 220)

    b.shadow(b.mask(_ellipse(0.12, foot_v + 0.1, 1.1, 0.3), soft=0.07), 0.35)
    b.shade(b.mask(_ellipse(0.0, foot_v + 0.05, 1.08, 0.28)), saucer, 0.05, gloss=0.2)
    b.shade(b.mask(_ellipse(0.0, foot_v, 0.82, 0.19), soft=0.03), saucer, 0.06, inset=True)

    lower = _ellipse(0.0, foot_v, fa, 0.22)
    wall = np.concatenate([[[-ra, rim_v]], lower[lower[:, 1] >= foot_v][::-1], [[ra, rim_v]]])
    rim = _ellipse(0.0, rim_v, ra, 0.26)
    body = b.mask(wall, rim)
    b.shade(body, cup, 0.05, gloss=0.25, form=0.2 - 0.4 * (b.u / ra + 0.35) ** 2)
    if rng.random() < 0.6:
        stripe = b.mask(_ellipse(0.0, 0.58, 0.9, 0.3), soft=0.01) - b.mask(
            _ellipse(0.0, 0.52, 0.9, 0.3), soft=0.01
        )
        b.fill(np.clip(stripe, 0, 1) * body, b.colour((150, 96, 70)), 0.5)
    b.shade(b.mask(_ellipse(0.0, rim_v, ra * 0.93, 0.22)), cup, 0.06, inset=True, form=-0.25)

    # A custard flan rises out of the cup, its flat top glazed with caramel that runs down.
    pa, height = ra * 0.86, rng.uniform(0.5, 0.58)
    ta, top_v = pa * 0.8, rim_v - height
    top = _ellipse(0.0, top_v, ta, 0.17)
    arc = np.linspace(0.0, np.pi, 36)
    outline = np.concatenate(
        [
            np.stack([pa * np.cos(arc), rim_v + 0.2 * np.sin(arc)], 1),
            np.stack([ta * np.cos(arc[::-1]), top_v - 0.17 * np.sin(arc[::-1])], 1),
        ]
    )
    flan = b.mask(outline)
    b.shade(flan, (242, 208, 128), 0.08, gloss=0.12, form=0.15 - 0.35 * (b.u / pa + 0.3) ** 2)
    edge = top_v + 0.17 * np.sqrt(np.clip(1 - (b.u / ta) ** 2, 0, 1))
    freq, phase = rng.uniform(8, 12), rng.uniform(0, 6)
    runs = 0.05 + 0.16 * np.clip(np.sin(b.u * freq + phase), 0, 1) ** 3
    caramel = np.maximum(b.mask(top), flan * np.clip((edge + runs - b.v) / 0.02 + 0.5, 0, 1))
    b.shade(caramel, (150, 80, 28), 0.05, gloss=0.5, shine=26, form=0.1)
    b.shade(
        b.mask(_ellipse(-0.05, top_v - 0.02, ta * 0.85, 0.12), soft=0.03),
        (170, 98, 38),
        0.06,
        gloss=0.5,
        shine=40,
        inset=True,
        alpha=0.7,
    )
    b.finish()


def _draw_chopsticks(
    img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator
) -> None:
    b = _Brush(img, cx, cy, s, rng, tilt=8.0)
    wood = ((204, 164, 112), (122, 72, 46), (150, 58, 44), (186, 138, 92))[int(rng.integers(4))]
    spread = rng.uniform(0.82, 1.0)
    sticks = [((-spread, -1.0), (1.0, 0.92)), ((spread, -1.0), (-1.0, 0.92))]
    if rng.random() < 0.5:
        sticks.reverse()
    band = rng.random() < 0.5
    for (u0, v0), (u1, v1) in sticks:
        p0, p1 = np.array([u0, v0]), np.array([u1, v1])
        length = float(np.linalg.norm(p1 - p0))
        d = (p1 - p0) / length
        t = np.linspace(0.0, 1.0, 24)
        path = p0 + (p1 - p0) * t[:, None]
        half = 0.075 - 0.045 * t
        outline = _ribbon(path, half)
        b.shadow(b.mask(_moved(outline, 0.07, 0.09), soft=0.04), 0.4)
        m = b.mask(outline)
        # Round in section: light runs along the upper side of each stick.
        along = (b.u - u0) * d[0] + (b.v - v0) * d[1]
        across = ((b.u - u0) * -d[1] + (b.v - v0) * d[0]) / np.interp(
            along, [0, length], [0.075, 0.03]
        )
        b.shade(m, wood, 0.02, gloss=0.3, form=0.25 - 0.45 * (across - 0.35 * np.sign(d[0])) ** 2)
        box = b.box(m)
        if box is None:
            continue
        x, y = b.px(np.array([p1]))[0] - b.px(np.array([p0]))[0]
        grain = b.streaks(math.degrees(math.atan2(y, x)), 0.5, m[box].shape)
        b.layer[box] *= 1 + (0.08 * m[box] * grain)[..., None]
        if band:
            ring = b.mask(_ribbon(path[3:6], half[3:6] + 0.004)) * m
            b.shade(ring, (64, 40, 34), 0.02, gloss=0.3)
    b.finish()


PAINTED_ILLUSTRATIONS: dict[str, Illustrate] = {
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
