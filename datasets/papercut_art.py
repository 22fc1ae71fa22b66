"""Layered cut-paper collage illustrations for the twelve card kinds (a held-out test art).

The style: every element is a flat piece of coloured paper with slightly irregular, hand-cut
(faceted) edges, stacked in layers; each layer casts a small, soft, offset drop shadow onto
whatever lies below it, every piece carries a visible paper-fibre texture, and the forms are
simplified geometric shapes that are sometimes a little misaligned with one another.

This module was written independently of the training renderers' art: it was drawn from the
card table alone (what each card shows and its face colour), without reading the other
illustration modules. It exists to measure how a detector trained on the other arts carries
over to art it never saw. It is a test set's art only and must never be used for training.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import cv2
import numpy as np

from datasets.art import zone_of
from datasets.faces import Illustrate

__all__ = ["PAPERCUT_ILLUSTRATIONS"]

Points = np.ndarray  # (N, 2) float64, in units of s relative to the illustration centre
RGB = tuple[int, int, int]

_TEX_PAD = 24  # extra texture margin so each paper piece can take its own texture window
_SUB = 3  # fillPoly sub-pixel bits


def _hex(code: str) -> RGB:
    code = code.lstrip("#")
    return int(code[0:2], 16), int(code[2:4], 16), int(code[4:6], 16)


# Paper stock (sRGB).
NORI = _hex("#1D2A22")
RICE = _hex("#F8F5EC")
GRAIN = _hex("#E4DECF")


# --------------------------------------------------------------------------- geometry


def _ellipse(
    cx: float,
    cy: float,
    rx: float,
    ry: float,
    a0: float = 0.0,
    a1: float = 2 * math.pi,
    n: int = 28,
    rot: float = 0.0,
) -> Points:
    closed = math.isclose(a1 - a0, 2 * math.pi)
    t = a0 + np.arange(n) * ((a1 - a0) / (n if closed else n - 1))
    x, y = rx * np.cos(t), ry * np.sin(t)
    c, s = math.cos(rot), math.sin(rot)
    out = np.empty((n, 2))
    out[:, 0] = cx + c * x - s * y
    out[:, 1] = cy + s * x + c * y
    return out


def _specks(centres: np.ndarray, rx: float, ry: float, rots: np.ndarray, n: int = 6) -> np.ndarray:
    """Many small ellipses at once (grains, crumbs): shape (len(centres), n, 2)."""
    t = np.arange(n) * (2 * math.pi / n)
    x, y = rx * np.cos(t), ry * np.sin(t)
    c, s = np.cos(rots)[:, None], np.sin(rots)[:, None]
    return np.stack([centres[:, :1] + c * x - s * y, centres[:, 1:] + s * x + c * y], axis=2)


def _rect(cx: float, cy: float, w: float, h: float, rot: float = 0.0, r: float = 0.0) -> Points:
    """A (rounded) rectangle, rotated by rot radians about its centre."""
    hw, hh = w / 2, h / 2
    if r <= 0:
        pts = np.array([[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]], float)
    else:
        r = min(r, hw, hh)
        arcs = []
        for (ox, oy), a in (
            ((hw - r, hh - r), 0.0),
            ((-hw + r, hh - r), math.pi / 2),
            ((-hw + r, -hh + r), math.pi),
            ((hw - r, -hh + r), 1.5 * math.pi),
        ):
            arcs.append(_ellipse(ox, oy, r, r, a, a + math.pi / 2, n=4))
        pts = np.concatenate(arcs)
    c, s = math.cos(rot), math.sin(rot)
    rotm = np.array([[c, -s], [s, c]])
    return pts @ rotm.T + (cx, cy)


def _stroke(path: Points, widths: np.ndarray) -> Points:
    """Outline of a thick path with a width per centre-line point."""
    d = np.gradient(path, axis=0)
    d /= np.linalg.norm(d, axis=1, keepdims=True) + 1e-9
    nrm = np.stack([-d[:, 1], d[:, 0]], axis=1) * (widths[:, None] / 2)
    return np.concatenate([path + nrm, (path - nrm)[::-1]])


def _resample(pts: Points, step: float) -> Points:
    """Insert vertices so that no closed-polygon edge is longer than step."""
    d = np.diff(pts, axis=0, append=pts[:1])
    counts = np.maximum(1, np.ceil(np.hypot(d[:, 0], d[:, 1]) / step).astype(np.intp))
    total = int(counts.sum())
    if total == len(pts):
        return pts
    idx = np.repeat(np.arange(len(pts)), counts)
    starts = np.repeat(np.cumsum(counts) - counts, counts)
    frac = (np.arange(total) - starts) / counts[idx]
    return pts[idx] + d[idx] * frac[:, None]


def _split(poly: np.ndarray, sizes: list[int]) -> list[np.ndarray]:
    return np.split(poly, np.cumsum(sizes)[:-1]) if len(sizes) > 1 else [poly]


def _box(lo: np.ndarray, hi: np.ndarray, margin: float, w: int, h: int) -> tuple[int, ...]:
    """The integer box around [lo, hi] grown by margin, clipped to a w x h canvas."""
    x0, y0 = max(0, int(lo[0] - margin)), max(0, int(lo[1] - margin))
    x1, y1 = min(w, int(hi[0] + margin) + 1), min(h, int(hi[1] + margin) + 1)
    return x0, y0, x1, y1


# --------------------------------------------------------------------------- the paper


class _Collage:
    """A zone-sized float canvas onto which paper pieces are glued one layer at a time."""

    def __init__(self, img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator):
        self.rng = rng
        self.s = s
        self.zone = zone_of(img.shape, cx, cy, s)
        ys, xs = self.zone
        self.oy, self.ox = ys.start, xs.start
        self.canvas = img[self.zone].astype(np.float32)
        h, w = self.canvas.shape[:2]
        # Whole-illustration variation: size, tilt, placement.
        self.k = float(rng.uniform(0.9, 1.06))
        self.rot = float(rng.normal(0.0, 0.04))
        self.tx = float(rng.uniform(-0.04, 0.04))
        self.ty = float(rng.uniform(-0.04, 0.04))
        self.cx, self.cy = cx - self.ox, cy - self.oy
        # Light from the upper left: shadows fall down and to the right.
        ang = rng.uniform(0.7, 1.1)
        dist = rng.uniform(0.055, 0.075) * s
        self.shadow = np.array([math.cos(ang) * dist, math.sin(ang) * dist])
        self.shade = float(rng.uniform(0.3, 0.42))
        self.blur = max(0.6, 0.022 * s)
        self.grain = self._paper_texture(h + _TEX_PAD, w + _TEX_PAD)

    def _paper_texture(self, h: int, w: int) -> np.ndarray:
        """Zero-mean paper grain: fine speckle plus light and dark fibres."""
        rng, s = self.rng, self.s
        tex = rng.random((h, w), dtype=np.float32)
        tex -= 0.5
        tex *= 0.17
        n = int(h * w / (s * s) * 28) + 8
        ctr = rng.uniform((0, 0), (w, h), (n, 2))
        ang = rng.uniform(0, math.pi, n)
        length = rng.uniform(0.05, 0.2, n) * s
        off = np.stack([np.cos(ang), np.sin(ang)], axis=1) * length[:, None] / 2
        segs = np.stack([ctr - off, ctr + off], axis=1)
        segs = np.round(segs * (1 << _SUB)).astype(np.int32)
        half = n // 3
        cv2.polylines(tex, list(segs[half:]), False, 0.11, 1, cv2.LINE_AA, _SUB)
        cv2.polylines(tex, list(segs[:half]), False, -0.08, 1, cv2.LINE_AA, _SUB)
        return cv2.GaussianBlur(tex, (0, 0), 0.55 + 0.004 * s)

    def _to_px(self, pts: Points) -> np.ndarray:
        c, sn = math.cos(self.rot), math.sin(self.rot)
        m = np.array([[c, sn], [-sn, c]]) * (self.k * self.s)
        return pts @ m + (self.cx + self.tx * self.s, self.cy + self.ty * self.s)

    def glue(
        self,
        shapes: Points | list[Points],
        rgb: RGB,
        *,
        lift: float = 1.0,
        jag: float = 1.0,
        slip: float = 1.0,
        step: float = 0.13,
    ) -> None:
        """Cut shapes out of one sheet of paper of colour rgb and glue them on top.

        lift scales the drop shadow (0: none), jag the hand-cut edge wobble, slip the
        pieces' random misalignment, step the longest straight cut.
        """
        rng = self.rng
        if isinstance(shapes, np.ndarray) and shapes.ndim == 2:
            pts = _resample(shapes.astype(float), step)
            sizes = [len(pts)]
        else:
            cut = [_resample(np.asarray(s, float), step) for s in shapes]
            sizes = [len(c) for c in cut]
            pts = np.concatenate(cut)
        pts += rng.normal(0.0, 0.011 * jag, pts.shape)
        pts += rng.normal(0.0, 0.013 * slip, 2)
        px = self._to_px(pts)
        h, w = self.canvas.shape[:2]
        lo, hi = px.min(0), px.max(0)
        if lift > 0:  # a soft offset shadow darkens whatever lies below
            sh = self.shadow * lift
            sigma = self.blur * (0.7 + 0.3 * lift)
            x0, y0, x1, y1 = _box(lo + sh, hi + sh, 3.0 * sigma + 1, w, h)
            if x1 > x0 and y1 > y0:
                smask = np.zeros((y1 - y0, x1 - x0), np.float32)
                poly = np.round((px + sh - (x0, y0)) * (1 << _SUB)).astype(np.int32)
                cv2.fillPoly(smask, _split(poly, sizes), self.shade, cv2.LINE_8, _SUB)
                smask = cv2.GaussianBlur(smask, (0, 0), sigma)
                roi = self.canvas[y0:y1, x0:x1]
                roi[...] = cv2.multiply(roi, cv2.cvtColor(1.0 - smask, cv2.COLOR_GRAY2BGR))
        x0, y0, x1, y1 = _box(lo, hi, 2.0, w, h)
        jit = rng.integers(-6, 7, 3)
        ty, tx = rng.integers(0, _TEX_PAD, 2)
        if x1 <= x0 or y1 <= y0:
            return
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        poly = np.round((px - (x0, y0)) * (1 << _SUB)).astype(np.int32)
        cv2.fillPoly(mask, _split(poly, sizes), 255, cv2.LINE_AA, _SUB)
        a = mask.astype(np.float32)
        a *= 1.0 / 255.0
        # The paper: its colour, modulated by the grain (fibres show on dark papers too).
        bgr = np.array([rgb[2] + jit[0], rgb[1] + jit[1], rgb[0] + jit[2]], np.float32)
        tint = np.stack([bgr + 70.0, bgr], axis=1)
        paper = cv2.transform(self.grain[y0 + ty : y1 + ty, x0 + tx : x1 + tx], tint)
        roi = self.canvas[y0:y1, x0:x1]
        roi[...] = cv2.blendLinear(paper, roi, a, 1.0 - a)

    def finish(self, img: np.ndarray) -> None:
        img[self.zone] = cv2.convertScaleAbs(self.canvas)  # rounds and saturates


def _vary(rng: np.random.Generator, x: float, frac: float = 0.08) -> float:
    return x * (1.0 + rng.uniform(-frac, frac))


# --------------------------------------------------------------------------- the cards


def _tempura(p: _Collage, rng: np.random.Generator) -> None:
    # A small plate: blue rim under a white top, seen in perspective.
    py = _vary(rng, 0.5, 0.05)
    p.glue(_ellipse(0, py, 1.12, 0.36, n=36), _hex("#3D5A9E"), lift=0.8)
    p.glue(_ellipse(0, py - 0.02, 1.0, 0.29, n=34), _hex("#F6F3EC"), lift=0.3)
    p.glue(_ellipse(0, py - 0.01, 0.64, 0.15, n=24), _hex("#E4DFD4"), lift=0.0, slip=1.5)
    # The shrimp: a curled, tapered arc of batter (thick end left) over a darker
    # golden-brown under-layer, lying across the plate.
    r = _vary(rng, 0.78, 0.06)
    ox = rng.uniform(-0.08, 0.04)
    oy = -0.58 + rng.uniform(-0.04, 0.04)
    a0, a1 = math.radians(rng.uniform(165, 178)), math.radians(rng.uniform(12, 25))
    t = np.linspace(a0, a1, 18)
    path = np.stack([ox + r * np.cos(t), oy + r * 0.95 * np.sin(t)], axis=1)
    wid = np.linspace(_vary(rng, 0.5), _vary(rng, 0.2), len(t))
    wid[:3] *= (0.75, 0.92, 0.98)  # a rounded head end
    # The tail fan at the thin end, tucked under the batter.
    end, prev = path[-1], path[-3]
    d = (end - prev) / np.linalg.norm(end - prev)
    nrm = np.array([-d[1], d[0]])
    flare = _vary(rng, 0.26)
    fan = np.array(
        [
            end - d * 0.1 + nrm * 0.06,
            end + d * 0.42 + nrm * flare,
            end + d * 0.28 + nrm * 0.02,
            end + d * 0.44 - nrm * flare * 0.8,
            end - d * 0.1 - nrm * 0.06,
        ]
    )
    p.glue(fan, _hex("#E2482E"), lift=0.7, jag=0.6)
    p.glue(_stroke(path, wid + 0.08), _hex("#B36A22"), lift=1.0, jag=2.4, step=0.09)
    p.glue(_stroke(path, wid), _hex("#EDB040"), lift=0.35, jag=2.4, step=0.09)
    # Crumbs of batter cut from lighter paper.
    where = path[np.sort(rng.choice(np.arange(1, 15), size=7, replace=False))]
    crumbs = _specks(where + rng.normal(0, 0.05, (7, 2)), 0.08, 0.055, rng.uniform(0, 3, 7), 5)
    p.glue(crumbs, _hex("#F9D877"), lift=0.35, jag=0.4, step=1.0)


def _sashimi(p: _Collage, rng: np.random.Generator) -> None:
    # A long pale plate under three slanted pink slices.
    p.glue(_rect(0, 0.45, 2.25, 0.5, r=0.16), _hex("#F1EEE6"), lift=0.8)
    tilt = math.radians(rng.uniform(-16, -8))
    gap = _vary(rng, 0.66, 0.05)
    for i in (-1, 0, 1):
        x, y = i * gap + rng.normal(0, 0.03), -0.08 + rng.normal(0, 0.03)
        w, h = _vary(rng, 0.6), _vary(rng, 1.18, 0.05)
        p.glue(_rect(x, y, w, h, tilt, r=0.12), _hex("#EE6A7B"), lift=1.0)
        # A lighter top face and pale fat lines.
        p.glue(
            _rect(x - 0.02, y - 0.02, w * 0.7, h * 0.82, tilt, r=0.1),
            _hex("#F4818F"),
            lift=0.2,
            slip=1.2,
        )
        c, sn = math.cos(tilt), math.sin(tilt)
        bands = [
            _rect(x - sn * j * h, y + c * j * h, w * 0.72, 0.05, tilt - 0.35) for j in (-0.28, 0.08)
        ]
        p.glue(bands, _hex("#FBC3CA"), lift=0.0, jag=0.4, step=0.2)


def _dumpling(p: _Collage, rng: np.random.Generator) -> None:
    rx, ry = _vary(rng, 1.05, 0.06), _vary(rng, 0.95, 0.06)
    by = 0.34
    top = _ellipse(0, by, rx, ry, math.pi, 2 * math.pi, n=26)
    bottom = _ellipse(0, by, rx, 0.13, 0.05, math.pi - 0.05, n=10)
    body = np.concatenate([top, bottom])
    # A pan-browned sole peeking out below the body.
    p.glue(_ellipse(0.02, by + 0.06, rx * 0.93, 0.16, n=22), _hex("#D79A4E"), lift=1.0)
    p.glue(body, _hex("#F6F1E4"), lift=1.0)
    # The crimped crest along the top, and pleat folds fanning down from it.
    crest = _stroke(
        _ellipse(0, by, rx * 0.94, ry * 0.94, math.pi * 1.13, math.pi * 1.87, n=14),
        np.full(14, 0.11),
    )
    p.glue(crest, _hex("#FFFEFA"), lift=0.45, jag=1.4, step=0.08)
    n = int(rng.integers(5, 7))
    folds = []
    for a in np.linspace(math.pi * 1.2, math.pi * 1.8, n) + rng.normal(0, 0.04, n):
        tip = np.array([rx * 0.93 * math.cos(a), by + ry * 0.93 * math.sin(a)])
        root = np.array([rx * 0.45 * math.cos(a), by + ry * 0.4 * math.sin(a)])
        d = tip - root
        nrm = np.array([-d[1], d[0]]) / np.linalg.norm(d) * 0.06
        folds.append(np.array([tip + nrm, tip - nrm, root]))
    p.glue(folds, _hex("#DCD1BC"), lift=0.0, jag=0.5)


def _roll(p: _Collage, rng: np.random.Generator, x: float, y: float, r: float) -> None:
    r = _vary(rng, r, 0.05)
    p.glue(_ellipse(x, y, r, r * _vary(rng, 1.0, 0.04), n=24), NORI, lift=1.0)
    rr = r * _vary(rng, 0.76, 0.04)
    p.glue(_ellipse(x, y, rr, rr, n=22), RICE, lift=0.45, slip=1.6)
    a = np.arange(5) * (2 * math.pi / 5) + rng.uniform(0, 1.2)
    d = rr * rng.uniform(0.55, 0.8, 5)
    where = np.stack([x + d * np.cos(a), y + d * np.sin(a)], axis=1)
    p.glue(_specks(where, 0.07 * r, 0.035 * r, a + 1.5), GRAIN, lift=0.0, jag=0.3, step=1.0)
    rc = r * _vary(rng, 0.3, 0.1)
    p.glue(_ellipse(x, y, rc, rc * _vary(rng, 0.92), n=12), _hex("#EE5A2C"), lift=0.5, slip=1.8)


def _maki(count: int) -> Callable[[_Collage, np.random.Generator], None]:
    def draw(p: _Collage, rng: np.random.Generator) -> None:
        if count == 1:
            _roll(p, rng, 0.0, 0.0, 0.8)
        elif count == 2:
            dy = rng.uniform(0.08, 0.18) * rng.choice((-1, 1))
            _roll(p, rng, -0.5, -dy, 0.56)
            _roll(p, rng, 0.5, dy, 0.56)
        else:  # a little pyramid: two rolls below, one resting on top
            _roll(p, rng, -0.53, 0.42, 0.5)
            _roll(p, rng, 0.53, 0.42, 0.5)
            _roll(p, rng, rng.uniform(-0.05, 0.05), -0.45, 0.5)

    return draw


def _rice(p: _Collage, rng: np.random.Generator) -> tuple[float, float]:
    """The nigiri rice pillow; returns the y of its top and bottom edges."""
    y = 0.16
    w, h = _vary(rng, 1.85, 0.05), _vary(rng, 0.62, 0.06)
    p.glue(_rect(0, y, w, h, r=0.26), RICE, lift=1.0)
    gx = (np.linspace(-0.42, 0.42, 7) + rng.uniform(-0.04, 0.04, 7)) * w
    gy = y + rng.uniform(0.02, 0.34, 7) * h
    grains = _specks(np.stack([gx, gy], axis=1), 0.06, 0.03, rng.uniform(0, 3, 7))
    p.glue(grains, GRAIN, lift=0.0, jag=0.3, step=1.0)
    return y - h / 2, y + h / 2


def _egg(p: _Collage, rng: np.random.Generator) -> None:
    top, bottom = _rice(p, rng)
    w, h = _vary(rng, 2.0, 0.05), _vary(rng, 0.6, 0.06)
    cy = top - 0.02
    # A browned side layer, the pale omelette, and its folded layers.
    p.glue(_rect(0, cy, w, h, r=0.05), _hex("#E0A030"), lift=1.0)
    p.glue(_rect(0, cy - 0.05, w * 0.98, h * 0.76, r=0.05), _hex("#FFEB94"), lift=0.3)
    folds = [_rect(0, cy + f, w * 0.96, 0.045) for f in (-0.12, 0.1)]
    p.glue(folds, _hex("#F3C54C"), lift=0.0, jag=0.4, step=0.25)
    # The nori band wrapped round the middle.
    bw, y0, y1 = _vary(rng, 0.42), cy - h / 2 - 0.04, bottom + 0.04
    band = _rect(rng.uniform(-0.08, 0.08), (y0 + y1) / 2, bw, y1 - y0, rng.normal(0, 0.04))
    p.glue(band, NORI, lift=1.0)


def _salmon(p: _Collage, rng: np.random.Generator) -> None:
    top, _ = _rice(p, rng)
    w, h = _vary(rng, 2.05, 0.05), _vary(rng, 0.6, 0.06)
    cy = top + 0.02
    # A draped, slightly wedge-shaped slice.
    sl = np.array(
        [
            [-w / 2, cy - h * 0.28],
            [-w * 0.18, cy - h * 0.55],
            [w * 0.25, cy - h * 0.6],
            [w / 2, cy - h * 0.35],
            [w / 2 - 0.05, cy + h * 0.45],
            [-w / 2 + 0.05, cy + h * 0.5],
        ]
    )
    p.glue(sl, _hex("#F56F3A"), lift=1.0)
    n = int(rng.integers(4, 6))
    lean = rng.uniform(0.2, 0.35)
    stripes = []
    for x in np.linspace(-0.36, 0.36, n) * w + rng.normal(0, 0.03, n):
        stripe = np.array(
            [
                [x - 0.03, cy - h * 0.38],
                [x + 0.04, cy - h * 0.38],
                [x + 0.04 + lean, cy + h * 0.36],
                [x - 0.03 + lean, cy + h * 0.36],
            ]
        )
        stripes.append(stripe)
    p.glue(stripes, _hex("#FFD1B5"), lift=0.0, jag=0.4, step=0.2)


def _squid(p: _Collage, rng: np.random.Generator) -> None:
    top, _ = _rice(p, rng)
    w, h = _vary(rng, 2.05, 0.05), _vary(rng, 0.62, 0.06)
    cy = top + 0.0
    body = np.concatenate(
        [
            _ellipse(-w / 2 + h / 2, cy, h / 2, h / 2, math.pi / 2, 1.5 * math.pi, n=8),
            np.array([[w / 2 - 0.05, cy - h / 2 - 0.03], [w / 2, cy + h / 2]]),
        ]
    )
    p.glue(body, _hex("#FBDCE3"), lift=1.0)
    # Scored cuts: a criss-cross of fine pink lines.
    for a in (0.5, -0.5):  # one sheet per direction: fillPoly would hole the crossings
        xs = np.linspace(-0.34, 0.36, 5) * w + rng.normal(0, 0.02, 5)
        cuts = [_rect(x, cy + 0.02, 0.035, h * 0.72, a) for x in xs]
        p.glue(cuts, _hex("#EBA7B7"), lift=0.0, jag=0.3, step=0.3)
    # A thin pale rim on the far side of the slice.
    p.glue(_rect(0.05, cy - h * 0.42, w * 0.78, 0.06), _hex("#FFF1F4"), lift=0.0, jag=0.5)


def _wasabi(p: _Collage, rng: np.random.Generator) -> None:
    # A small round dish, then a mound of three stacked green lumps with a twisted tip.
    dy = _vary(rng, 0.4, 0.06)
    p.glue(_ellipse(0, dy, 1.08, 0.42, n=34), _hex("#A9BEC8"), lift=1.0)
    p.glue(_ellipse(0, dy - 0.03, 0.96, 0.34, n=32), _hex("#E8EFF1"), lift=0.3)
    base = dy - 0.05
    lumps = (
        (0.78, 0.36, base - 0.12, "#6EA83A"),
        (0.58, 0.32, base - 0.42, "#83BC45"),
        (0.38, 0.26, base - 0.68, "#98CC55"),
    )
    for rx, ry, y, col in lumps:
        x = rng.normal(0, 0.04)
        p.glue(_ellipse(x, y, _vary(rng, rx), _vary(rng, ry), n=20), _hex(col), lift=0.8, jag=1.5)
    tip = np.array(
        [[-0.12, base - 0.82], [0.02, base - 1.12], [0.2, base - 1.05], [0.1, base - 0.78]]
    )
    p.glue(tip + np.array([rng.normal(0, 0.03), 0.0]), _hex("#A6D862"), lift=0.6)


def _pudding(p: _Collage, rng: np.random.Generator) -> None:
    # A glass cup seen from the side, with the custard showing through it and a dark
    # caramel layer on top dripping down its sides.
    top_w, bot_w = _vary(rng, 1.6, 0.05), _vary(rng, 1.1, 0.05)
    ty, by = -0.86, 0.84

    def half_width(y: float) -> float:
        return (top_w + (bot_w - top_w) * (y - ty) / (by - ty)) / 2

    cup = np.array([[-top_w / 2, ty], [top_w / 2, ty], [bot_w / 2, by], [-bot_w / 2, by]])
    p.glue(cup, _hex("#EAF3F6"), lift=1.0)
    fy, inset = ty + _vary(rng, 0.3, 0.1), 0.1  # the pudding's top surface
    fb = by - 0.1
    custard = np.array(
        [
            [-half_width(fy) + inset, fy],
            [half_width(fy) - inset, fy],
            [half_width(fb) - inset, fb],
            [-half_width(fb) + inset, fb],
        ]
    )
    p.glue(custard, _hex("#F9D160"), lift=0.3, slip=1.2)
    # Caramel: a band whose lower edge drips.
    n = int(rng.integers(4, 6))
    xs = np.linspace(half_width(fy) - inset, -half_width(fy) + inset, 2 * n + 1)
    drop = rng.uniform(0.2, 0.26, 2 * n + 1)
    drop[1::2] = rng.uniform(0.34, 0.56, n)
    caramel = np.concatenate(
        [
            np.array([[-half_width(fy) + inset, fy], [half_width(fy) - inset, fy]]),
            np.stack([xs, fy + drop], axis=1),
        ]
    )
    p.glue(caramel, _hex("#7C3B12"), lift=0.5, jag=0.8, step=0.08)
    # The caramel's glossy top surface, and the glass rim.
    p.glue(_ellipse(0, fy, half_width(fy) - inset, 0.1, n=18), _hex("#A65A22"), lift=0.0, jag=0.6)
    p.glue(_ellipse(-0.2, fy, 0.22, 0.035, n=8, rot=-0.1), _hex("#D08A4A"), lift=0.0)
    p.glue(_rect(0, ty + 0.02, top_w + 0.04, 0.1), _hex("#FFFFFF"), lift=0.6, jag=0.5)
    p.glue(_rect(-half_width(0.3) + 0.2, 0.35, 0.08, 0.8, 0.06), _hex("#FFFFFF"), lift=0.0, jag=0.5)


def _chopsticks(p: _Collage, rng: np.random.Generator) -> None:
    ang = math.radians(rng.uniform(22, 32))
    length = _vary(rng, 2.1, 0.04)
    cross = rng.uniform(-0.1, 0.05)  # where they cross, along the sticks
    for side in (-1, 1):
        a = side * ang + rng.normal(0, 0.04)
        d = np.array([math.sin(a), -math.cos(a)])  # toward the thick (upper) end
        nrm = np.array([d[1], -d[0]])
        c = np.array([rng.normal(0, 0.03), 0.0]) - d * cross
        head, tail = c + d * length / 2, c - d * length / 2
        thick, thin = _vary(rng, 0.22), _vary(rng, 0.1)
        stick = np.array(
            [
                head + nrm * thick / 2,
                head - nrm * thick / 2,
                tail - nrm * thin / 2,
                tail + nrm * thin / 2,
            ]
        )
        p.glue(stick, _hex("#D7A064"), lift=1.0, step=0.2, jag=0.6)
        band_len = _vary(rng, 0.5)
        b0, b1 = head, head - d * band_len
        w1 = thick - (thick - thin) * band_len / length
        band = np.array(
            [b0 + nrm * thick / 2, b0 - nrm * thick / 2, b1 - nrm * w1 / 2, b1 + nrm * w1 / 2]
        )
        p.glue(band, _hex("#B8322A"), lift=0.25, step=0.2, jag=0.6)


def _illustrate(draw: Callable[[_Collage, np.random.Generator], None]) -> Illustrate:
    def illustrate(
        img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator
    ) -> None:
        p = _Collage(img, cx, cy, s, rng)
        draw(p, rng)
        p.finish(img)

    return illustrate


PAPERCUT_ILLUSTRATIONS: dict[str, Illustrate] = {
    "tempura": _illustrate(_tempura),
    "sashimi": _illustrate(_sashimi),
    "dumpling": _illustrate(_dumpling),
    "maki_1": _illustrate(_maki(1)),
    "maki_2": _illustrate(_maki(2)),
    "maki_3": _illustrate(_maki(3)),
    "egg": _illustrate(_egg),
    "salmon": _illustrate(_salmon),
    "squid": _illustrate(_squid),
    "wasabi": _illustrate(_wasabi),
    "pudding": _illustrate(_pudding),
    "chopsticks": _illustrate(_chopsticks),
}
