"""Low-poly card art: a held-out illustration style for testing only.

The style imitates a low-poly 3D illustration: every object is a polygon of modest
vertex count whose interior is cut into triangles (concentric jittered rings zipped
together, or strips along a spine for long things), and each triangle is one flat colour:
the object's base colour lit by a fixed light direction (picked per face, from the upper
left to the upper right) through a normal made up from invented vertex heights, so that
neighbouring facets differ in brightness. Facets meet with no line on most faces and with
a thin light seam on the rest; plates, dishes and cups cast a flat, coarse polygon of
shadow away from the light.

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
from typing import NamedTuple

import cv2
import numpy as np

from datasets.art import zone_of
from datasets.faces import Illustrate

__all__ = ["LOWPOLY_ILLUSTRATIONS"]

_SHIFT = 4
_ONE = float(1 << _SHIFT)


class _Mesh(NamedTuple):
    verts: np.ndarray  # (V, 3): x, y in units of s (y down), z an invented height
    tris: np.ndarray  # (T, 3) vertex indices
    rim: np.ndarray  # (R, 2) the silhouette


class _Pen(NamedTuple):
    """Where and how one face draws: its zone's canvas, placement and lighting."""

    canvas: np.ndarray
    ox: float  # the drawing centre in canvas pixels
    oy: float
    s: float
    light: np.ndarray  # unit vector towards the light (x right, y down, z to the viewer)
    contrast: float
    seams: float  # 0: facets meet edge to edge; else how much lighter a seam line is
    rng: np.random.Generator

    def px(self, pts: np.ndarray) -> np.ndarray:
        xy = np.asarray(pts, np.float64)[..., :2] * self.s + (self.ox, self.oy)
        return np.round(xy * _ONE).astype(np.int32)


Scene = Callable[[_Pen, np.random.Generator], None]


def _bgr(rgb: str, rng: np.random.Generator, shift: float = 8.0) -> np.ndarray:
    v = int(rgb.lstrip("#"), 16)
    bgr = np.array([v & 255, (v >> 8) & 255, (v >> 16) & 255], np.float64)
    return np.clip(bgr + rng.uniform(-shift, shift, 3), 0, 255)


def _pick(rng: np.random.Generator, *options: str) -> np.ndarray:
    return _bgr(options[int(rng.integers(len(options)))], rng)


def _mix(a: np.ndarray, b: np.ndarray | tuple[float, ...], t: float) -> np.ndarray:
    return np.asarray(a, np.float64) * (1 - t) + np.asarray(b, np.float64) * t


def _rot(pts: np.ndarray, angle: float, about: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    p = np.asarray(pts, np.float64) - about
    return np.column_stack([p[:, 0] * c - p[:, 1] * s, p[:, 0] * s + p[:, 1] * c]) + about


def _oval(
    a: float,
    b: float,
    n: int,
    rng: np.random.Generator,
    *,
    power: float = 2.0,
    wobble: float = 0.03,
    centre: tuple[float, float] = (0.0, 0.0),
) -> np.ndarray:
    """A superellipse of n jittered vertices: the coarse outline every round thing starts as."""
    t = (np.arange(n) + rng.uniform(0, 1)) / n * 2 * math.pi
    t = t + rng.uniform(-0.25, 0.25, n) * 2 * math.pi / n
    c, s = np.cos(t), np.sin(t)
    r = 1 + rng.uniform(-wobble, wobble, n)
    x = a * np.sign(c) * np.abs(c) ** (2 / power) * r
    y = b * np.sign(s) * np.abs(s) ** (2 / power) * r
    return np.column_stack([x + centre[0], y + centre[1]])


def _zip(a_idx: list[int], ua: np.ndarray, b_idx: list[int], ub: np.ndarray) -> list[tuple]:
    """Triangles between two closed rings, walking both by their angle-like parameter."""
    tris: list[tuple] = []
    na, nb, i, j = len(ua), len(ub), 0, 0
    while i < na or j < nb:
        next_a = ua[(i + 1) % na] + (i + 1) // na if i < na else math.inf
        next_b = ub[(j + 1) % nb] + (j + 1) // nb if j < nb else math.inf
        if next_a <= next_b:
            tris.append((a_idx[i % na], a_idx[(i + 1) % na], b_idx[j % nb]))
            i += 1
        else:
            tris.append((a_idx[i % na], b_idx[(j + 1) % nb], b_idx[j % nb]))
            j += 1
    return tris


def _radial(
    outline: np.ndarray,
    centre: tuple[float, float],
    rings: int,
    rng: np.random.Generator,
    profile: Callable[[float], float],
    *,
    bump: float = 0.08,
    shrink: float = 0.8,
    aligned: bool = False,
) -> _Mesh:
    """A star-shaped outline cut into rings of jittered vertices shrinking to `centre`.

    `profile(t)` is the height at ring fraction t (1 on the outline, 0 at the centre);
    `bump` roughens heights so neighbouring facets catch the light differently. Inner
    rings hold fewer vertices (`shrink`), as low-poly meshes keep facets roughly even."""
    outline = np.asarray(outline, np.float64)
    c = np.asarray(centre, np.float64)
    n = len(outline)
    verts = [np.column_stack([outline, np.full(n, profile(1.0))])]
    idx = [list(range(n))]
    params = [np.arange(n) / n]
    count = n
    for k in range(rings - 1, 0, -1):
        t = k / rings
        m = max(3, round(n * t**shrink))
        u = (np.arange(m) + (0.0 if aligned else rng.uniform(0.0, 1.0))) / m
        f = u * n
        i0 = np.floor(f).astype(int) % n
        w = (f - np.floor(f))[:, None]
        edge = outline[i0] * (1 - w) + outline[(i0 + 1) % n] * w
        radius = np.linalg.norm(edge - c, axis=1, keepdims=True)
        p = c + t * (edge - c) + rng.uniform(-1, 1, (m, 2)) * 0.3 * radius / rings
        z = profile(t) + rng.uniform(-1, 1, m) * bump * radius[:, 0]
        verts.append(np.column_stack([p, z]))
        idx.append(list(range(count, count + m)))
        params.append(u)
        count += m
    verts.append(np.array([[c[0], c[1], profile(0.0)]]))
    tris: list[tuple] = []
    for k in range(len(idx) - 1):
        tris += _zip(idx[k], params[k], idx[k + 1], params[k + 1])
    inner = idx[-1]
    tris += [(inner[i], inner[(i + 1) % len(inner)], count) for i in range(len(inner))]
    return _Mesh(np.concatenate(verts), np.array(tris), outline)


def _tube(
    spine: np.ndarray,
    half: np.ndarray,
    rows: int,
    rng: np.random.Generator,
    *,
    puff: float = 1.0,
    lift: np.ndarray | None = None,
) -> _Mesh:
    """A strip of facets along a spine: long things (shrimp, sticks, a nori band)."""
    spine = np.asarray(spine, np.float64)
    tangent = np.gradient(spine, axis=0)
    tangent /= np.maximum(np.linalg.norm(tangent, axis=1, keepdims=True), 1e-9)
    normal = np.column_stack([-tangent[:, 1], tangent[:, 0]])
    v = np.linspace(-1.0, 1.0, rows + 1)
    m = len(spine)
    xy = spine[:, None, :] + normal[:, None, :] * (half[:, None] * v[None, :])[..., None]
    inner = np.abs(v) < 1
    xy[:, inner] += rng.uniform(-0.2, 0.2, (m, int(inner.sum()), 2)) * half[:, None, None] / rows
    z = puff * half[:, None] * np.sqrt(1 - v[None, :] ** 2)
    z = z + (0 if lift is None else lift[:, None])
    verts = np.concatenate([xy, z[..., None]], axis=2).reshape(-1, 3)
    tris: list[tuple] = []
    for i in range(m - 1):
        for j in range(rows):
            a, b = i * (rows + 1) + j, i * (rows + 1) + j + 1
            c, d = a + rows + 1, b + rows + 1
            if rng.random() < 0.5:
                tris += [(a, b, c), (b, d, c)]
            else:
                tris += [(a, b, d), (a, d, c)]
    rim = np.concatenate([xy[:, 0], xy[::-1, -1]])
    return _Mesh(verts, np.array(tris), rim)


def _frustum(
    top: float,
    bottom: float,
    top_half: float,
    bottom_half: float,
    cols: int,
    rng: np.random.Generator,
    *,
    sag: float = 0.2,
    top_sag: float = 0.0,
) -> _Mesh:
    """The front of a faceted cylinder or cone seen slightly from above (cups, puddings)."""
    u = -np.cos(np.linspace(0, math.pi, cols + 1))  # columns crowd at the sides, like a prism
    u = u + np.r_[0, rng.uniform(-0.15, 0.15, cols - 1) / cols, 0]
    rows = 2
    verts = []
    for r in range(rows + 1):
        f = r / rows
        half = top_half * (1 - f) + bottom_half * f
        curve = np.sqrt(np.clip(1 - u**2, 0, 1))
        y = top * (1 - f) + bottom * f + half * curve * (top_sag * (1 - f) + sag * f)
        verts.append(np.column_stack([u * half, y, half * curve]))
    vs = np.concatenate(verts)
    tris: list[tuple] = []
    for r in range(rows):
        for j in range(cols):
            a, b = r * (cols + 1) + j, r * (cols + 1) + j + 1
            tris += [(a, b, a + cols + 1), (b, b + cols + 1, a + cols + 1)]
    rim = np.concatenate([vs[: cols + 1, :2], vs[::-1][: cols + 1, :2]])
    return _Mesh(vs, np.array(tris), rim)


def _centroids(mesh: _Mesh) -> np.ndarray:
    return mesh.verts[mesh.tris, :2].mean(axis=1)


def _paint(pen: _Pen, mesh: _Mesh, colour: np.ndarray, *, grain: float = 0.04) -> None:
    """Each triangle flat, lit by the face's light through its own made-up normal."""
    v = mesh.verts[mesh.tris]
    n = np.cross(v[:, 1] - v[:, 0], v[:, 2] - v[:, 0])
    n /= np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-12)
    n *= np.where(n[:, 2:] < 0, -1.0, 1.0)
    lum = 1 + pen.contrast * (n @ pen.light - pen.light[2])
    lum += pen.rng.uniform(-grain, grain, len(lum))
    base = np.broadcast_to(np.asarray(colour, np.float64), (len(lum), 3))
    lit = np.where(
        lum[:, None] >= 1,
        base + (255 - base) * np.clip(lum[:, None] - 1, 0, 1) * 0.85,
        base * np.clip(lum[:, None], 0.45, 1),
    )
    lit = np.clip(lit, 0, 255)
    pts, canvas = pen.px(mesh.verts), pen.canvas
    # The silhouette goes down first, antialiased and in the mean tone, so the outer edge is
    # soft and no pixel between two hard-edged facets can show the face through.
    mean = tuple(float(c) for c in lit.mean(axis=0))
    cv2.fillPoly(canvas, [pen.px(mesh.rim)], mean, cv2.LINE_AA, _SHIFT)
    for tri, col in zip(mesh.tris, lit, strict=True):
        cv2.fillConvexPoly(canvas, pts[tri], tuple(float(c) for c in col), cv2.LINE_8, _SHIFT)
    if pen.seams:
        width = max(1, round(pen.s / 90))
        for tri, col in zip(mesh.tris, lit, strict=True):
            seam = tuple(float(c) for c in _mix(col, (255, 255, 255), pen.seams))
            cv2.polylines(canvas, [pts[tri]], True, seam, width, cv2.LINE_AA, _SHIFT)


def _shadow(pen: _Pen, outline: np.ndarray, depth: float, strength: float = 0.28) -> None:
    """A flat shadow cast away from the light, kept as coarse as the objects' facets."""
    pts = np.asarray(outline, np.float64)
    coarse = pts[:: max(1, len(pts) // 8)]
    off = -pen.light[:2] / pen.light[2] * depth
    mask = np.zeros(pen.canvas.shape[:2], np.uint8)
    cv2.fillPoly(mask, [pen.px(coarse + off)], 255, cv2.LINE_8, _SHIFT)
    hit = mask > 0
    pen.canvas[hit] = (pen.canvas[hit] * (1 - strength)).astype(np.uint8)


def _drawer(scene: Scene) -> Illustrate:
    def illustrate(
        img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator
    ) -> None:
        zone = zone_of(img.shape, cx, cy, s)
        # Drawing into a copy of the zone clips everything to it for free.
        canvas = np.ascontiguousarray(img[zone])
        angle = rng.uniform(-2.7, -0.9)  # from the upper left round to the upper right
        lz = rng.uniform(0.45, 0.75)
        flat = math.sqrt(1 - lz * lz)
        light = np.array([math.cos(angle) * flat, math.sin(angle) * flat, lz])
        seams = rng.uniform(0.25, 0.45) if rng.random() < 0.3 else 0.0
        ox = cx + rng.uniform(-0.05, 0.05) * s - zone[1].start
        oy = cy + rng.uniform(-0.05, 0.05) * s - zone[0].start
        size, contrast = s * rng.uniform(0.93, 1.05), rng.uniform(0.7, 1.0)
        scene(_Pen(canvas, ox, oy, size, light, contrast, seams, rng), rng)
        img[zone] = canvas

    return illustrate


def _dish(pen: _Pen, rng: np.random.Generator, *, rx: float, y: float) -> None:
    """A plate or dish seen at a slant: a raised rim round a low well, on its own shadow."""
    colour = _pick(rng, "#F4F2EC", "#DCE6EE", "#EDE3CF", "#2E2E34")
    ry = rx * rng.uniform(0.3, 0.38)
    outline = _oval(rx, ry, int(rng.integers(10, 15)), rng, wobble=0.02, centre=(0.0, y))
    _shadow(pen, outline, rng.uniform(0.08, 0.14))
    rim = 0.1 * rx

    def profile(t: float) -> float:
        return 0.0 if t > 0.9 else rim if t > 0.55 else 0.02

    _paint(pen, _radial(outline, (0.0, y), 3, rng, profile, bump=0.03), colour)


def _tempura(pen: _Pen, rng: np.random.Generator) -> None:
    _dish(pen, rng, rx=rng.uniform(1.12, 1.3), y=0.58)
    # A C-shaped spine: head at the upper end, thin tail end at the lower end.
    m = int(rng.integers(9, 14))
    radius = rng.uniform(0.5, 0.6)
    start = rng.uniform(-0.95, -0.75)
    turn = rng.uniform(4.0, 4.6)
    a = start - np.linspace(0, turn, m)
    spine = np.column_stack([np.cos(a) * radius * 1.15, np.sin(a) * radius + 0.05])
    f = np.linspace(0, 1, m)
    half = (0.32 - 0.18 * f**1.3) * rng.uniform(0.9, 1.1) * (1 + rng.uniform(-0.12, 0.12, m))
    flip = 1.0 if rng.random() < 0.5 else -1.0
    spine[:, 0] *= flip
    # The red tail fans out past the spine's thin end.
    end, before = spine[-1], spine[-2]
    along = (end - before) / np.linalg.norm(end - before)
    side = np.array([-along[1], along[0]])
    fan = rng.uniform(0.28, 0.38)
    tail = np.array(
        [
            end + side * half[-1],
            end + along * fan + side * fan * 0.7,
            end + along * fan * 1.15,
            end + along * fan - side * fan * 0.7,
            end - side * half[-1],
        ]
    )
    tail_mesh = _radial(tail, tuple(end + along * 0.1), 1, rng, lambda t: 0.1 * (1 - t))
    _paint(pen, tail_mesh, _bgr("#E2532E", rng))
    body = _tube(spine, half, int(rng.integers(3, 5)), rng, puff=rng.uniform(0.8, 1.2))
    _paint(pen, body, _bgr("#E3A53B", rng), grain=0.09)


def _sashimi(pen: _Pen, rng: np.random.Generator) -> None:
    fish = _pick(rng, "#F2848C", "#F48C7E", "#EE7A88")
    gap = rng.uniform(0.6, 0.72)
    tilt = rng.uniform(-0.45, -0.15) * (1 if rng.random() < 0.5 else -1)
    for i in (-1, 0, 1):
        c = (i * gap + rng.uniform(-0.04, 0.04), rng.uniform(-0.08, 0.08) + 0.05)
        a, b = rng.uniform(0.27, 0.34), rng.uniform(0.68, 0.82)
        outline = _rot(_oval(a, b, int(rng.integers(9, 14)), rng, power=2.4), tilt) + c
        _shadow(pen, outline, 0.06, 0.2)
        mesh = _radial(outline, c, int(rng.integers(2, 4)), rng, lambda t: 0.2 * (1 - t**2))
        # Pale fat lines across the slice, made of whole facets.
        along = _rot(_centroids(mesh) - c, -tilt)[:, 1] / b
        band = np.mod(along * rng.uniform(1.6, 2.2) + rng.uniform(0, 1), 1) < 0.3
        colours = np.where(band[:, None], _mix(fish, (235, 235, 255), 0.5), fish)
        _paint(pen, mesh, colours, grain=0.05)


def _dumpling(pen: _Pen, rng: np.random.Generator) -> None:
    skin = _pick(rng, "#F4EEDF", "#F7F3EA", "#EFE8D6")
    pleats = int(rng.integers(5, 8))
    fold = np.arange(2 * pleats + 1) % 2 == 1
    rx, ry = rng.uniform(0.9, 1.08), rng.uniform(0.7, 0.85)
    if rng.random() < 0.5:
        # A crescent: flat belly, domed back; its top edge folds into pleats that fan out
        # from the belly, so every other spoke of facets is a ridge.
        top = np.linspace(math.pi, 2 * math.pi, 2 * pleats + 1)
        bottom = np.linspace(0, math.pi, 6)[1:-1]
        r = np.where(fold, 1.08, 1.0)
        outline = np.r_[
            np.column_stack([np.cos(top) * rx * r, np.sin(top) * ry * r]),
            np.column_stack([np.cos(bottom) * rx, np.sin(bottom) * rng.uniform(0.18, 0.28)]),
        ] + np.array([0.0, 0.3])
        ridge, centre = np.r_[np.where(fold, 0.14, -0.04), np.zeros(4)], (0.0, 0.3)
    else:
        # A round bun seen from above at a slant: pleats gather into a knot near the top.
        a = np.linspace(0, 2 * math.pi, 2 * pleats + 1, endpoint=False) + rng.uniform(0, 1)
        r = np.where(fold, 0.95, 1.0)
        outline = np.column_stack([np.cos(a) * rx * 0.92 * r, np.sin(a) * ry * r + 0.15])
        ridge, centre = np.where(fold, -0.06, 0.06), (0.0, -0.1)
    _shadow(pen, outline, 0.1, 0.22)
    mesh = _radial(outline, centre, 3, rng, lambda t: 0.6 * (1 - t**2), shrink=0.0, aligned=True)
    mesh.verts[:-1, 2] += np.tile(ridge, 3)
    _paint(pen, mesh, skin, grain=0.03)


def _roll(pen: _Pen, rng: np.random.Generator, c: tuple[float, float], r: float) -> None:
    """One maki roll end-on: a nori ring round a rice disc round a red-orange centre."""
    n = int(rng.integers(9, 14))
    outer = _oval(r, r * rng.uniform(0.9, 1.0), n, rng, wobble=0.04, centre=c)
    _shadow(pen, outer, 0.05, 0.2)
    inner = c + (outer - c) * rng.uniform(0.76, 0.82)
    ring = _Mesh(
        np.column_stack([np.r_[outer, inner], np.r_[np.zeros(n), np.full(n, 0.12 * r)]]),
        np.array(_zip(list(range(n)), np.arange(n) / n, list(range(n, 2 * n)), np.arange(n) / n)),
        outer,
    )
    _paint(pen, ring, _bgr("#1F2B22", rng), grain=0.06)
    rice = c + (outer - c) * rng.uniform(0.8, 0.84)
    mesh = _radial(rice, c, 2, rng, lambda t: 0.12 * r * (1 - t), bump=0.14)
    _paint(pen, mesh, _bgr("#F6F5F0", rng, 5), grain=0.08)
    core = _oval(0.27 * r, 0.27 * r, int(rng.integers(5, 8)), rng, wobble=0.1, centre=c)
    centre = _radial(core, c, 1, rng, lambda t: 0.1 * r * (1 - t))
    _paint(pen, centre, _bgr("#F0642E", rng))


def _maki(count: int) -> Scene:
    def scene(pen: _Pen, rng: np.random.Generator) -> None:
        if count == 1:
            centres, r = [(0.0, 0.0)], rng.uniform(0.72, 0.85)
        elif count == 2:
            r = rng.uniform(0.52, 0.6)
            d, rise = 2 * r + rng.uniform(0.1, 0.2), rng.uniform(-0.25, 0.25)
            centres = [(-d / 2, rise), (d / 2, -rise)]
        elif rng.random() < 0.5:
            r = rng.uniform(0.4, 0.44)
            d = 2 * r + rng.uniform(0.08, 0.14)
            centres = [(-d, rng.uniform(-0.1, 0.1)), (0.0, 0.0), (d, rng.uniform(-0.1, 0.1))]
        else:
            r = rng.uniform(0.42, 0.47)
            d = 2 * r + rng.uniform(0.1, 0.16)
            top, low = -0.58 * d + 0.05, 0.29 * d + 0.05
            centres = [(0.0, top), (-d / 2, low), (d / 2, low)]
        for c in centres:
            jitter = (c[0] + rng.uniform(-0.02, 0.02), c[1] + rng.uniform(-0.02, 0.02))
            _roll(pen, rng, jitter, r * rng.uniform(0.97, 1.03))

    return scene


def _rice(pen: _Pen, rng: np.random.Generator) -> float:
    """The nigiri's rice block; returns its half width, for what lies on it."""
    a, b = rng.uniform(0.92, 1.08), rng.uniform(0.3, 0.38)
    outline = _oval(a, b, int(rng.integers(11, 16)), rng, power=3.0, wobble=0.04, centre=(0, 0.4))
    _shadow(pen, outline, 0.08, 0.22)
    mesh = _radial(outline, (0.0, 0.4), 2, rng, lambda t: 0.3 * (1 - t**2), bump=0.15)
    _paint(pen, mesh, _bgr("#F4F4EF", rng, 5), grain=0.08)
    return a


def _topping(
    pen: _Pen,
    rng: np.random.Generator,
    outline: np.ndarray,
    colour: np.ndarray,
    profile: Callable[[float], float],
    stripe: tuple[np.ndarray, float, float] | None = None,
) -> None:
    """A topping on the rice, casting its shadow onto it; `stripe` = (colour, freq, share)."""
    _shadow(pen, outline, 0.05, 0.18)
    centre = tuple(outline.mean(axis=0))
    mesh = _radial(outline, centre, int(rng.integers(2, 4)), rng, profile, bump=0.05)
    colours: np.ndarray = colour
    if stripe is not None:
        tone, freq, share = stripe
        slant = rng.uniform(0.5, 0.9) * (1 if rng.random() < 0.5 else -1)
        along = _rot(_centroids(mesh) - centre, slant)[:, 0]
        band = np.mod(along * freq + rng.uniform(0, 1), 1) < share
        colours = np.where(band[:, None], tone, colour)
    _paint(pen, mesh, colours, grain=0.04)


def _slice_outline(a: float, b: float, rng: np.random.Generator, y: float) -> np.ndarray:
    """A long fish slice, thicker at one end and draped slightly over the rice."""
    pts = _oval(a, b, int(rng.integers(11, 16)), rng, power=2.3, wobble=0.03)
    taper = 1 + rng.uniform(0.1, 0.25) * (1 if rng.random() < 0.5 else -1) * pts[:, 0] / a
    pts[:, 1] *= taper
    return _rot(pts, rng.uniform(-0.08, 0.08)) + np.array([0.0, y])


def _egg(pen: _Pen, rng: np.random.Generator) -> None:
    a = _rice(pen, rng)
    # Pale yellow against the face's deeper yellow, with a bevelled, block-like top.
    size = (a * rng.uniform(1.0, 1.08), rng.uniform(0.32, 0.4))
    block = _oval(*size, 14, rng, power=5.0, wobble=0.02, centre=(0.0, -0.1))
    _topping(pen, rng, block, _bgr("#FFEE9E", rng), lambda t: 0.35 * min(1, (1 - t) / 0.3))
    x = rng.uniform(-0.2, 0.2)
    spine = np.column_stack(
        [x + np.linspace(-0.02, 0.02, 6) * rng.uniform(-3, 3), np.linspace(-0.5, 0.76, 6)]
    )
    lift = np.array([0.1, 0.35, 0.3, 0.05, 0.3, 0.1])
    band = _tube(spine, np.full(6, rng.uniform(0.12, 0.16)), 2, rng, puff=0.6, lift=lift)
    _paint(pen, band, _bgr("#1E2A22", rng), grain=0.06)


def _salmon(pen: _Pen, rng: np.random.Generator) -> None:
    a = _rice(pen, rng)
    fish = _bgr("#F7853F", rng)
    outline = _slice_outline(a * rng.uniform(1.04, 1.14), rng.uniform(0.36, 0.44), rng, 0.0)
    stripe = (_mix(fish, (225, 235, 255), 0.75), rng.uniform(3.0, 4.0), 0.3)
    _topping(pen, rng, outline, fish, lambda t: 0.3 * (1 - t**2), stripe)


def _squid(pen: _Pen, rng: np.random.Generator) -> None:
    a = _rice(pen, rng)
    squid = _bgr("#F6DCDC", rng, 5)
    outline = _slice_outline(a * rng.uniform(1.04, 1.14), rng.uniform(0.36, 0.44), rng, 0.0)
    # One end frilled: alternate vertices there pushed out, like the mantle's cut edge.
    end = outline[:, 0] > 0.55 * a if rng.random() < 0.5 else outline[:, 0] < -0.55 * a
    outline[end] *= np.where(np.arange(len(outline))[end] % 2 == 0, 1.08, 0.97)[:, None]
    stripe = (_mix(squid, (150, 140, 215), 0.4), rng.uniform(3.5, 5.0), 0.22)
    _topping(pen, rng, outline, squid, lambda t: 0.25 * (1 - t**2), stripe)


def _wasabi(pen: _Pen, rng: np.random.Generator) -> None:
    _dish(pen, rng, rx=rng.uniform(0.95, 1.15), y=0.45)
    w, base, peak = rng.uniform(0.6, 0.75), 0.5, rng.uniform(-0.5, -0.3)
    px = rng.uniform(-0.15, 0.15)
    n = int(rng.integers(5, 8))
    # Left foot up to a lumpy peak and down to the right foot, then round the front.
    up = np.linspace(0, 1, n)
    sx = -w + (px + w) * up
    sy = base - (base - peak) * np.sin(up * math.pi / 2) ** 1.5
    down = np.linspace(1, 0, n)[1:]
    dx = px + (w - px) * (1 - down)
    dy = base - (base - peak) * np.sin(down * math.pi / 2) ** 1.5
    front = np.linspace(0.15, math.pi - 0.15, 5)
    foot = np.column_stack([np.cos(front) * w, np.sin(front) * 0.18 + base])
    outline = np.r_[np.column_stack([sx, sy]), np.column_stack([dx, dy]), foot]
    outline[1:-5] += rng.uniform(-0.04, 0.04, (len(outline) - 6, 2))
    mesh = _radial(outline, (px * 0.7, base - 0.3), 3, rng, lambda t: 0.6 * (1 - t), bump=0.12)
    _paint(pen, mesh, _bgr("#7DBE3C", rng), grain=0.06)


def _pudding(pen: _Pen, rng: np.random.Generator) -> None:
    cup = _pick(rng, "#F5F3EE", "#CFE4EC", "#E8E2F0")
    top, bottom = rng.uniform(-0.1, 0.0), rng.uniform(0.9, 1.0)
    half_top, half_bottom = rng.uniform(0.72, 0.85), rng.uniform(0.5, 0.6)
    ry = half_top * rng.uniform(0.18, 0.24)
    mouth = _oval(half_top, ry, 12, rng, wobble=0.0, centre=(0.0, top))
    body = np.r_[mouth, [[-half_bottom, bottom], [half_bottom, bottom]]]
    _shadow(pen, cv2.convexHull(body.astype(np.float32))[:, 0], 0.12)
    # The cup's back wall shows inside the mouth, darker, behind the custard.
    inside = _radial(mouth, (0.0, top), 1, rng, lambda t: 0.0)
    _paint(pen, inside, _mix(cup, (0, 0, 0), 0.25))
    height = rng.uniform(0.5, 0.65)
    crown = top - height
    flan_top = half_top * rng.uniform(0.62, 0.72)
    cols = int(rng.integers(5, 8))
    flan = _frustum(crown, top + ry / 2, flan_top, half_top * 0.9, cols, rng, top_sag=0.22)
    _paint(pen, flan, _bgr("#F5CF6B", rng))
    # Caramel: an oval lid whose front edge runs down the custard in a few drips.
    n = 14
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    drip = np.where((np.sin(a) > 0.3) & (rng.random(n) < 0.5), rng.uniform(0.1, 0.25, n), 0.0)
    lid = np.column_stack([np.cos(a) * flan_top * 1.02, np.sin(a) * flan_top * 0.22 + crown + drip])
    caramel = _radial(lid, (0.0, crown), 2, rng, lambda t: 0.08 * (1 - t), bump=0.05)
    _paint(pen, caramel, _bgr("#8A4A1E", rng))
    cols = int(rng.integers(6, 10))
    front = _frustum(top, bottom, half_top, half_bottom, cols, rng, top_sag=ry / half_top)
    _paint(pen, front, cup, grain=0.03)


def _chopsticks(pen: _Pen, rng: np.random.Generator) -> None:
    wood = _pick(rng, "#C8915A", "#9E3029", "#2C2A2A", "#E2C48C")
    grip = _mix(wood, (0, 0, 0), 0.35) if rng.random() < 0.5 else _bgr("#B8322C", rng)
    upright = rng.random() < 0.5
    cross = (rng.uniform(-0.1, 0.1), rng.uniform(-0.15, 0.15))
    spread = rng.uniform(0.35, 0.6)
    for sign in (-1.0, 1.0):
        angle = sign * spread + (math.pi / 2 if upright else 0.0) + rng.uniform(-0.06, 0.06)
        axis = np.array([math.cos(angle), math.sin(angle)])
        if (axis[1] if upright else axis[0]) < 0:
            axis = -axis  # thick ends together at the top (or left), as a hand lays them
        half_len = rng.uniform(1.08, 1.22)
        mid = np.array(cross) + axis * rng.uniform(-0.2, 0.2)
        m = int(rng.integers(5, 9))
        f = np.linspace(-1, 1, m)
        spine = mid + f[:, None] * axis * half_len
        half = 0.085 - 0.04 * (f + 1) / 2
        stick = _tube(spine, half * rng.uniform(0.9, 1.1), 2, rng, puff=1.5)
        _shadow(pen, stick.rim, 0.07, 0.25)
        along = (_centroids(stick) - mid) @ axis / half_len
        colours = np.where((along < -0.55)[:, None], grip, wood)
        _paint(pen, stick, colours, grain=0.05)


LOWPOLY_ILLUSTRATIONS: dict[str, Illustrate] = {
    "tempura": _drawer(_tempura),
    "sashimi": _drawer(_sashimi),
    "dumpling": _drawer(_dumpling),
    "maki_1": _drawer(_maki(1)),
    "maki_2": _drawer(_maki(2)),
    "maki_3": _drawer(_maki(3)),
    "egg": _drawer(_egg),
    "salmon": _drawer(_salmon),
    "squid": _drawer(_squid),
    "wasabi": _drawer(_wasabi),
    "pudding": _drawer(_pudding),
    "chopsticks": _drawer(_chopsticks),
}
