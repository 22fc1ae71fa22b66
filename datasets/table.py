"""Table surfaces and the clutter on them, drawn in table coordinates (one px per `ppm` mm).

Every surface is procedural and seeded, so no two are the same: wood, cloth, marble,
painted boards and paper. The clutter (the face-down draw pile, a cup, coins, pencils, a
score sheet) is what a real table shows and what the detector must learn not to count.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from datasets.layout import CARD_H, CARD_W

SURFACES = ("wood", "cloth", "marble", "painted", "paper")
# Printed tablecloths, drawn only where asked (scene.make_scene's `tables`): photos of a
# renderer written apart from this one were read 27 of 35 exactly on stripes, gingham and
# dots against 263 of 265 on its other tables: stripes read as cards.
PRINTED_CLOTHS = ("stripes", "gingham", "dots")
# Their inks: saturated, as tablecloths are, some close to a card's face colour (BGR).
_INKS = (
    (40, 40, 200), (160, 70, 30), (60, 140, 50), (35, 35, 35), (90, 40, 25),
    (40, 190, 230), (30, 120, 230), (150, 80, 200), (180, 170, 60),
)  # fmt: skip


def _smooth_noise(rng: np.random.Generator, h: int, w: int, cells: int) -> np.ndarray:
    """Band-limited noise in [-1, 1]: random values on a coarse grid, upsampled."""
    gh = max(2, int(cells * h / max(h, w)) + 2)
    gw = max(2, int(cells * w / max(h, w)) + 2)
    grid = rng.uniform(-1, 1, (gh, gw)).astype(np.float32)
    return cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)


def _tint(rng: np.random.Generator, base: tuple[int, int, int], spread: int) -> np.ndarray:
    return np.clip(np.array(base) + rng.integers(-spread, spread + 1, 3), 0, 255).astype(np.float32)


def _muted(rng: np.random.Generator) -> np.ndarray:
    """A table colour: any hue, but closer to grey than a card's face colour."""
    hue = rng.integers(20, 235, 3).astype(np.float32)
    grey = hue.mean()
    return (grey + (hue - grey) * rng.uniform(0.2, 0.7)).astype(np.float32)


def surface(
    rng: np.random.Generator, h: int, w: int, kind: str | None = None, ppm: float = 1.0
) -> np.ndarray:
    """A table surface, BGR uint8, h x w px (`ppm` px per mm, for printed cloths)."""
    kind = kind or str(rng.choice(SURFACES))
    if kind in PRINTED_CLOTHS:
        return _printed_cloth(rng, h, w, kind, ppm)
    # Open grids broadcast where a pattern needs both axes: half the time of full grids.
    yy = np.arange(h, dtype=np.float32)[:, None]
    xx = np.arange(w, dtype=np.float32)[None, :]
    if kind == "wood":
        base = _tint(rng, (50, 95, 150), 40)
        angle = rng.uniform(0, math.pi)
        u = xx * math.cos(angle) + yy * math.sin(angle)
        warp = _smooth_noise(rng, h, w, 6) * rng.uniform(10, 40)
        period = rng.uniform(6, 25) * max(h, w) / 600
        grain = np.sin((u + warp) / period * 2 * math.pi) * 0.5 + 0.5
        fine = _smooth_noise(rng, h, w, 120) * 0.15
        shade = 0.75 + 0.3 * grain[..., None] + fine[..., None]
        img = base * shade
        if rng.random() < 0.5:  # plank seams
            spacing = rng.uniform(0.15, 0.4) * max(h, w)
            seam = (np.mod(u, spacing) < max(1.0, spacing * 0.01)).astype(np.float32)
            img *= (1 - 0.5 * seam)[..., None]
    elif kind == "cloth":
        base = _muted(rng)
        period = rng.uniform(2.0, 5.0)
        weave = (np.sin(xx / period * math.pi) * np.sin(yy / period * math.pi)) * 0.06
        img = base * (0.9 + weave[..., None] + 0.08 * _smooth_noise(rng, h, w, 40)[..., None])
    elif kind == "marble":
        base = _tint(rng, (225, 225, 222), 20)
        turb = sum(_smooth_noise(rng, h, w, c) / (i + 1) for i, c in enumerate((4, 9, 20)))
        veins = np.abs(np.sin((xx * 0.01 + yy * 0.006) * rng.uniform(1, 4) + turb * 3.0))
        img = base * (0.75 + 0.25 * veins[..., None] ** 0.3)
    elif kind == "painted":
        base = _muted(rng)
        strokes = _smooth_noise(rng, h, max(2, w // 40), 30)
        strokes = cv2.resize(strokes, (w, h)) * 0.05
        img = base * (0.95 + strokes[..., None] + 0.05 * _smooth_noise(rng, h, w, 5)[..., None])
    else:  # paper / kraft
        base = _tint(rng, (200, 215, 225) if rng.random() < 0.5 else (120, 160, 195), 15)
        fibres = _smooth_noise(rng, h, w, 200) * 0.04
        img = base * (0.94 + fibres[..., None] + 0.04 * _smooth_noise(rng, h, w, 6)[..., None])
    speckle = rng.standard_normal((h, w, 1), dtype=np.float32) * 3
    return np.clip(img + speckle, 0, 255).astype(np.uint8)


def _printed_cloth(rng: np.random.Generator, h: int, w: int, kind: str, ppm: float) -> np.ndarray:
    """Stripes, gingham or dots in one ink on a light ground, at any angle, with a weave
    and soft folds; pattern sizes in mm (stripes 6-40 mm, dots 2-9 mm across)."""
    ink = _tint(rng, _INKS[int(rng.integers(len(_INKS)))], 20)
    ground = _tint(rng, (232, 236, 240), 14)
    yy = np.arange(h, dtype=np.float32)[:, None]
    xx = np.arange(w, dtype=np.float32)[None, :]
    angle = rng.uniform(0, math.pi)
    u = (xx * math.cos(angle) + yy * math.sin(angle)) / ppm  # mm across the pattern
    v = (-xx * math.sin(angle) + yy * math.cos(angle)) / ppm
    period = rng.uniform(6, 40)
    edge = max(0.5 / ppm, 0.02 * period)  # a printed edge, not a jagged one

    def bands(t: np.ndarray) -> np.ndarray:
        phase = np.abs(np.mod(t, period) - period / 2) - period * rng.uniform(0.2, 0.3)
        return np.clip(0.5 - phase / edge, 0, 1)

    if kind == "stripes":
        cover = bands(u)
    elif kind == "gingham":
        cover = 1 - (1 - 0.55 * bands(u)) * (1 - 0.55 * bands(v))
    else:
        radius = rng.uniform(1, 4.5)
        spacing = radius * rng.uniform(2.5, 4.5)
        shift = (np.floor(v / spacing) % 2) * spacing / 2 if rng.random() < 0.5 else 0.0
        du = np.mod(u + shift, spacing) - spacing / 2
        dv = np.mod(v, spacing) - spacing / 2
        cover = np.clip(0.5 - (np.sqrt(du * du + dv * dv) - radius) / edge, 0, 1)
    colour = ground + (ink - ground) * cover[..., None]
    weave = np.sin(xx / 1.6 * math.pi) * np.sin(yy / 1.6 * math.pi) * 0.03
    folds = 0.06 * _smooth_noise(rng, h, w, 8)
    return np.clip(colour * (0.95 + weave + folds)[..., None], 0, 255).astype(np.uint8)


def _paste_flat(img: np.ndarray, face: np.ndarray, quad: np.ndarray) -> None:
    """Warp an RGBA face onto `quad` (TL TR BR BL px) of the BGR `img`, in place."""
    fh, fw = face.shape[:2]
    src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    x0, y0 = np.maximum(np.floor(quad.min(0)).astype(int), 0)
    x1 = min(img.shape[1], int(np.ceil(quad[:, 0].max())) + 1)
    y1 = min(img.shape[0], int(np.ceil(quad[:, 1].max())) + 1)
    if x1 <= x0 or y1 <= y0:
        return
    warp = cv2.getPerspectiveTransform(src, (quad - [x0, y0]).astype(np.float32))
    warped = cv2.warpPerspective(face, warp, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
    alpha = warped[..., 3:].astype(np.float32) / 255
    roi = img[y0:y1, x0:x1].astype(np.float32)
    img[y0:y1, x0:x1] = (roi * (1 - alpha) + warped[..., :3] * alpha).astype(np.uint8)


def _rot_rect(cx: float, cy: float, w: float, h: float, angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    pts = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    return (pts @ np.array([[c, s], [-s, c]]) + [cx, cy]).astype(np.int32)


CLUTTER = ("draw_pile", "cup", "coins", "pencil", "score_sheet")
SIZE_MM = {"draw_pile": 95, "cup": 90, "coins": 40, "pencil": 170, "score_sheet": 210}
# Half the side of a square that holds the whole drawing (pencil tip, turned sheet, shadow).
EXTENT_MM = {"draw_pile": 62, "cup": 60, "coins": 40, "pencil": 102, "score_sheet": 132}
# How far from its centre an item's edge lies, for laying it against a card.
REACH_MM = {"draw_pile": 36, "cup": 42, "coins": 22, "pencil": 0, "score_sheet": 80}
TOUCH = 0.4  # share of clutter laid against the cards: real tables are crowded
# Of the clutter against the cards, the share lying over a card's edge (the rest lies
# under the cards or just touches them). A cup is never under a card, and its opaque
# drawn shadow would read as a hole in the card, so it only touches.
ON_TOP = {"draw_pile": 0.35, "cup": 0.0, "coins": 0.6, "pencil": 0.7, "score_sheet": 0.25}


@dataclass(frozen=True)
class ClutterItem:
    """One object on the table, in texture px. Its details (colours, coin count) come
    from its own `seed`, so that it can be drawn twice identically (for its alpha)."""

    what: str
    cx: float
    cy: float
    angle: float
    seed: int
    on_top: bool = False


def place_clutter(
    rng: np.random.Generator,
    h: int,
    w: int,
    ppm: float,
    keep_out: tuple[float, float, float, float],
    cards: np.ndarray | None = None,
) -> list[ClutterItem]:
    """Place 0-4 objects on an h x w px table. Most stay outside `keep_out` (px box); with
    `cards` ((n, 4, 2) px corners) given, some are laid against a card's edge or corner:
    under it, over it (`on_top`, for the caller to draw over the cards) or touching it."""
    kx0, ky0, kx1, ky1 = keep_out
    items: list[ClutterItem] = []
    for _ in range(int(rng.integers(0, 5))):
        what = str(rng.choice(CLUTTER))
        size = SIZE_MM[what] * ppm
        angle = float(rng.uniform(0, math.pi))
        seed = int(rng.integers(2**31))
        if cards is not None and len(cards) and rng.random() < TOUCH:
            item = _against_cards(rng, what, angle, seed, ppm, cards)
            if item is not None:
                items.append(item)
            continue
        for _ in range(20):
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
            if (
                cx + size / 2 < kx0
                or cx - size / 2 > kx1
                or cy + size / 2 < ky0
                or cy - size / 2 > ky1
            ):
                items.append(ClutterItem(what, float(cx), float(cy), angle, seed))
                break
    return items


def _against_cards(
    rng: np.random.Generator, what: str, angle: float, seed: int, ppm: float, cards: np.ndarray
) -> ClutterItem | None:
    """An item whose edge reaches a random point on the outline of a random card, from
    outside the collection (people put things down next to the cards, not among them)."""
    card = cards[int(rng.integers(len(cards)))].astype(np.float64)
    on_top = bool(rng.random() < ON_TOP[what])
    # Corners TL TR BR BL. Clutter over a card keeps off its top strip (the icon), so it is
    # laid against the lower half of its outline; clutter under a card, anywhere.
    if on_top:
        j, t = [(2, 0.0), (3, 0.0), (2, rng.uniform(0, 1)), (1, rng.uniform(0.5, 1))][
            int(rng.integers(4))
        ]
        if j == 1 and rng.random() < 0.5:
            j, t = 3, 1 - t  # the left side's lower half instead of the right's
    else:
        j = int(rng.integers(4))
        # A corner half the time (a pencil across a corner), else a point along an edge.
        t = 0.0 if rng.random() < 0.5 else float(rng.uniform(0, 1))
    point = card[j] + t * (card[(j + 1) % 4] - card[j])
    out = point - cards.reshape(-1, 2).mean(0)
    out /= max(float(np.linalg.norm(out)), 1e-6)
    turn = rng.uniform(-0.6, 0.6)
    c, s = math.cos(turn), math.sin(turn)
    out = np.array([c * out[0] - s * out[1], s * out[0] + c * out[1]])
    if what == "pencil":
        # Across the point, roughly square to the way out, its axis a few mm inside.
        angle = math.atan2(out[1], out[0]) + math.pi / 2 + rng.uniform(-0.5, 0.5)
        along = np.array([math.cos(angle), math.sin(angle)])
        centre = point + out * rng.uniform(-5, 4) * ppm + along * rng.uniform(-60, 60) * ppm
    else:
        # Cups only touch; the rest overlap the card by up to a quarter of their reach.
        lo = 1.0 if what == "cup" else 0.75
        centre = point + out * REACH_MM[what] * ppm * rng.uniform(lo, 1.1)
    inside = any(
        cv2.pointPolygonTest(q.astype(np.float32), (float(centre[0]), float(centre[1])), False) >= 0
        for q in cards
    )
    if inside and what != "pencil":
        return None  # among the cards, not next to them
    return ClutterItem(what, float(centre[0]), float(centre[1]), angle, seed, on_top)


def draw_item(
    img: np.ndarray,
    item: ClutterItem,
    ppm: float,
    *,
    origin: tuple[float, float] = (0.0, 0.0),
    shadow_mm: tuple[float, float] = (6.0, 6.0),
    back: np.ndarray | None = None,
) -> tuple[float, float, float, float]:
    """Draw one item into `img`, whose pixel (0, 0) is texture px `origin`; returns the
    item's tight box (x1, y1, x2, y2) in texture px. `shadow_mm`: where a cup's shadow
    falls, on the table, away from the scene's light. `back`: the deck's card back (BGRA),
    which the draw pile shows; without one a plain back is drawn."""
    rng = np.random.default_rng(item.seed)
    cx, cy, angle = item.cx - origin[0], item.cy - origin[1], item.angle
    points: list[np.ndarray] = []
    what = item.what
    if what == "draw_pile":
        plain = tuple(int(v) for v in _tint(rng, (40, 40, 140), 30))
        cw, ch = CARD_W * ppm, CARD_H * ppm
        for k in range(int(rng.integers(3, 8)), 0, -1):
            quad = _rot_rect(cx + k * 0.6 * ppm, cy + k * 0.6 * ppm, cw, ch, angle)
            cv2.fillConvexPoly(img, quad, (200, 200, 200), cv2.LINE_AA)
            points.append(quad)
        quad = _rot_rect(cx, cy, cw, ch, angle)
        if back is None:
            cv2.fillConvexPoly(img, quad, plain, cv2.LINE_AA)
        else:
            _paste_flat(img, back, quad)
        points.append(quad)
    elif what == "cup":
        colour = tuple(int(v) for v in _tint(rng, (200, 200, 200), 55))
        r = int(40 * ppm)
        sx, sy = shadow_mm[0] * ppm, shadow_mm[1] * ppm
        cv2.circle(img, (int(cx + sx), int(cy + sy)), r, (40, 40, 40), -1, cv2.LINE_AA)
        cv2.circle(img, (int(cx), int(cy)), r, colour, -1, cv2.LINE_AA)
        inside = tuple(int(v * 0.55) for v in colour) if rng.random() < 0.5 else (30, 50, 70)
        cv2.circle(img, (int(cx), int(cy)), int(r * 0.82), inside, -1, cv2.LINE_AA)
        hx, hy = cx + math.cos(angle) * r * 1.2, cy + math.sin(angle) * r * 1.2
        cv2.circle(img, (int(hx), int(hy)), int(r * 0.3), colour, max(2, int(4 * ppm)), cv2.LINE_AA)
        points.append(np.array([[cx - r, cy - r], [cx + r, cy + r]]))
        points.append(np.array([[hx - r * 0.4, hy - r * 0.4], [hx + r * 0.4, hy + r * 0.4]]))
    elif what == "coins":
        for _ in range(int(rng.integers(1, 6))):
            colour = (60, 150, 190) if rng.random() < 0.5 else (170, 170, 165)
            c = (int(cx + rng.uniform(-25, 25) * ppm), int(cy + rng.uniform(-25, 25) * ppm))
            r = int(rng.uniform(8, 13) * ppm)
            cv2.circle(img, c, r, colour, -1, cv2.LINE_AA)
            cv2.circle(
                img,
                c,
                int(rng.uniform(5, 7) * ppm),
                tuple(int(v * 0.8) for v in colour),
                1,
                cv2.LINE_AA,
            )
            points.append(np.array([[c[0] - r, c[1] - r], [c[0] + r, c[1] + r]]))
    elif what == "pencil":
        colour = tuple(int(v) for v in _tint(rng, (40, 200, 230), 40))
        body = _rot_rect(cx, cy, 170 * ppm, 7 * ppm, angle)
        cv2.fillConvexPoly(img, body, colour, cv2.LINE_AA)
        tip = np.array(
            [
                [cx + math.cos(angle) * 85 * ppm, cy + math.sin(angle) * 85 * ppm],
                [cx + math.cos(angle) * 100 * ppm, cy + math.sin(angle) * 100 * ppm],
            ]
        )
        cv2.line(
            img,
            tuple(tip[0].astype(int)),
            tuple(tip[1].astype(int)),
            (150, 190, 220),
            max(1, int(5 * ppm)),
            cv2.LINE_AA,
        )
        points += [body, tip]
    else:  # score sheet with a grid and scribbled numbers
        sheet = _rot_rect(cx, cy, 150 * ppm, 210 * ppm, angle * 0.2)
        cv2.fillConvexPoly(img, sheet, (240, 242, 245), cv2.LINE_AA)
        points.append(sheet)
        x0, y0 = sheet.min(0)
        x1, y1 = sheet.max(0)
        for gy in np.linspace(y0 + 15 * ppm, y1 - 10 * ppm, 8):
            cv2.line(
                img,
                (int(x0 + 10 * ppm), int(gy)),
                (int(x1 - 10 * ppm), int(gy)),
                (180, 160, 150),
                1,
            )
        for gy in np.linspace(y0 + 30 * ppm, y1 - 20 * ppm, 6):
            cv2.putText(
                img,
                str(int(rng.integers(0, 60))),
                (int(x0 + rng.uniform(15, 90) * ppm), int(gy)),
                cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
                0.5 * ppm * 2,
                (120, 60, 30),
                max(1, int(ppm)),
                cv2.LINE_AA,
            )
    allp = np.concatenate([np.asarray(p, float).reshape(-1, 2) for p in points])
    lo, hi = allp.min(0), allp.max(0)
    return (lo[0] + origin[0], lo[1] + origin[1], hi[0] + origin[0], hi[1] + origin[1])
