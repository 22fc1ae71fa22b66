"""A second, independent photo renderer of one player's collection: a held-out test.

Every photo the detector trains on comes from one scene renderer (datasets/scene.py).
This module is another hand's idea of such a photo, written from /work/shared/card-spec.md
alone, without reading that renderer: its own ways of laying out a collection, a pinhole
camera in 3D with a phone's lens, procedural tables with things on them, its own light and
its own phone processing. Sets made with it (`sushigo synth --scene other`) are held out:
they measure how the detector copes with photos it was not built around, and must never be
trained on.

Units: the table is measured in mm. A collection is first laid out on a "page" (x right,
y towards the player, as a player arranges cards); the world is right-handed with z up, so
a page point (x, y) lies at world (x, -y, 0). Light is handled linearly until the phone's
tone curve.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np

from datasets.collection import Collection, deal_collection
from datasets.faces import FacePool
from datasets.scene import Scene, SceneCard
from scoring.cards import NIGIRI

CARD_W = 63.0  # mm
CARD_H = 88.0
BANNER = 0.18  # the top share of a card that names it
LINEAR = ((np.arange(256) / 255.0) ** 2.2).astype(np.float32)  # sRGB-ish -> linear light
LAYOUTS = ("rows", "columns", "loose", "mixed")
SURFACES = ("wood", "cloth", "laminate", "stone", "felt", "tablecloth")
FLOOR_BELOW = 740.0  # mm from the table top to the floor: what shows past the table's edge
FRAME_MARGIN = 0.04  # share of the short side kept clear around the collection
F32 = np.float32


# ---------------------------------------------------------------------------------------
# Laying out the collection (page mm)


@dataclass(frozen=True)
class Placed:
    """One card on the page: its centre, its turn (degrees, clockwise as seen from above)
    and, for a nigiri played on a wasabi, the index of that wasabi among the placed cards."""

    kind: str
    pile: int
    x: float
    y: float
    angle: float
    wasabi: int | None = None


def _on_page(card: Placed, local: np.ndarray) -> np.ndarray:
    """Points given in mm from a card's centre (its own axes) as page points."""
    a = math.radians(card.angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return local @ rot.T + [card.x, card.y]


def card_corners(card: Placed, grow: float = 0.0) -> np.ndarray:
    """The page corners TL TR BR BL of a card (grown by `grow` mm on every side)."""
    w, h = CARD_W / 2 + grow, CARD_H / 2 + grow
    return _on_page(card, np.array([[-w, -h], [w, -h], [w, h], [-w, h]]))


def banner_corners(card: Placed) -> np.ndarray:
    w, top = CARD_W / 2, -CARD_H / 2
    bottom = top + BANNER * CARD_H
    return _on_page(card, np.array([[-w, top], [w, top], [w, bottom], [-w, bottom]]))


@dataclass(frozen=True)
class Unit:
    """Cards that are laid out together (a column, a row, a stack), in drawing order."""

    cards: tuple[Placed, ...]

    def bounds(self) -> tuple[float, float, float, float]:
        pts = np.concatenate([card_corners(c) for c in self.cards])
        return (*pts.min(axis=0), *pts.max(axis=0))

    def moved(self, dx: float, dy: float) -> Unit:
        return Unit(tuple(replace(c, x=c.x + dx, y=c.y + dy) for c in self.cards))

    def at(self, x: float, y: float) -> Unit:
        """This unit with its bounding box's top-left corner at (x, y)."""
        x0, y0, _, _ = self.bounds()
        return self.moved(x - x0, y - y0)

    def turned(self, degrees: float) -> Unit:
        x0, y0, x1, y1 = self.bounds()
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        a = math.radians(degrees)
        c, s = math.cos(a), math.sin(a)
        return Unit(
            tuple(
                replace(
                    card,
                    x=cx + c * (card.x - cx) - s * (card.y - cy),
                    y=cy + s * (card.x - cx) + c * (card.y - cy),
                    angle=card.angle + degrees,
                )
                for card in self.cards
            )
        )

    @property
    def width(self) -> float:
        x0, _, x1, _ = self.bounds()
        return x1 - x0

    @property
    def height(self) -> float:
        _, y0, _, y1 = self.bounds()
        return y1 - y0


def _single(kind: str, pile: int, rng: np.random.Generator, turn: float) -> Unit:
    return Unit((Placed(kind, pile, 0.0, 0.0, float(rng.uniform(-turn, turn))),))


def _stack(pile: int, nigiri: str, rng: np.random.Generator) -> tuple[Unit, str]:
    """A nigiri on its wasabi, shifted down (or sideways) by 15-35 % of the card so that the
    wasabi's banner shows."""
    base = float(rng.uniform(-3, 3))
    if rng.random() < 0.75:
        shift = "down"
        dx = rng.uniform(-0.04, 0.04) * CARD_W
        dy = rng.uniform(0.15, 0.35) * CARD_H
        turn = 4.0
    else:
        shift = "sideways"
        # Wide enough that part of the wasabi's name shows beside the nigiri, and kept
        # square to it so that a turn does not cover that strip again.
        dx = rng.choice([-1.0, 1.0]) * rng.uniform(0.2, 0.35) * CARD_W
        dy = rng.uniform(0.0, 0.08) * CARD_H
        turn = 1.5
    a = math.radians(base)
    ox, oy = dx * math.cos(a) - dy * math.sin(a), dx * math.sin(a) + dy * math.cos(a)
    wasabi = Placed("wasabi", pile, 0.0, 0.0, base)
    on_top = Placed(nigiri, pile, float(ox), float(oy), base + float(rng.uniform(-turn, turn)), 0)
    return Unit((wasabi, on_top)), shift


def _column(cards: list[tuple[str, int]], rng: np.random.Generator) -> Unit:
    """Each card covers the lower part of the one before; the top 20-40 % of each shows."""
    step = rng.uniform(0.23, 0.37)
    placed, y = [], 0.0
    for kind, pile in cards:
        placed.append(Placed(kind, pile, float(rng.normal(0, 1.0)), y, float(rng.uniform(-2, 2))))
        y += CARD_H * float(np.clip(step + rng.uniform(-0.02, 0.02), 0.21, 0.39))
    return Unit(tuple(placed))


def _row(units: list[Unit], rng: np.random.Generator, gap: tuple[float, float]) -> Unit:
    """Units side by side, tops roughly aligned, never touching."""
    cards: list[Placed] = []
    x = 0.0
    for unit in units:
        moved = unit.at(x, float(rng.uniform(0, 3)))
        cards.extend(_renumbered(moved.cards, len(cards)))
        x += moved.width + float(rng.uniform(*gap))
    return Unit(tuple(cards))


def _renumbered(cards: tuple[Placed, ...], offset: int) -> list[Placed]:
    return [c if c.wasabi is None else replace(c, wasabi=c.wasabi + offset) for c in cards]


def _join(units: list[Unit]) -> list[Placed]:
    placed: list[Placed] = []
    for unit in units:
        placed.extend(_renumbered(unit.cards, len(placed)))
    return placed


def _flow(units: list[Unit], rng: np.random.Generator, gap: tuple[float, float]) -> list[Unit]:
    """Units left to right, wrapping into lines, as a player fills the space before them."""
    area = sum((u.width + gap[1]) * (u.height + gap[1]) for u in units)
    line_width = max(max(u.width for u in units), math.sqrt(area * rng.uniform(1.0, 1.8)))
    out: list[Unit] = []
    x = y = line_height = 0.0
    for unit in units:
        if x > 0 and x + unit.width > line_width:
            x, y = 0.0, y + line_height + float(rng.uniform(*gap))
            line_height = 0.0
        out.append(unit.at(x, y + float(rng.uniform(0, 4))))
        x += unit.width + float(rng.uniform(*gap))
        line_height = max(line_height, unit.height + 4)
    return out


def _scatter(units: list[Unit], rng: np.random.Generator) -> list[Unit]:
    """Loose piles dropped roughly on a grid, each turned by up to 15 degrees."""
    turned = [u.turned(float(rng.uniform(-15, 15))) for u in units]
    cols = max(1, math.ceil(math.sqrt(len(turned) * rng.uniform(0.9, 1.7))))
    cell_w = max(u.width for u in turned) + rng.uniform(3, 25)
    cell_h = max(u.height for u in turned) + rng.uniform(3, 25)
    cells = rng.permutation(cols * math.ceil(len(turned) / cols))[: len(turned)]
    out = []
    for unit, cell in zip(turned, cells, strict=True):
        r, c = divmod(int(cell), cols)
        slack_x, slack_y = cell_w - unit.width, cell_h - unit.height
        x = c * cell_w + rng.uniform(-0.15, 1.15) * slack_x
        y = r * cell_h + rng.uniform(-0.15, 1.15) * slack_y
        out.append(unit.at(float(x), float(y)))
    return out


def _groups(
    collection: Collection, rng: np.random.Generator
) -> tuple[list[list[tuple[str, int]]], list[tuple[int, str]]]:
    """Single cards grouped by kind (in a shuffled order), and the stacks."""
    by_kind: dict[str, list[tuple[str, int]]] = {}
    stacks: list[tuple[int, str]] = []
    for i, pile in enumerate(collection.piles):
        if pile.is_stack:
            stacks.append((i, pile.cards[1]))
        else:
            by_kind.setdefault(pile.cards[0], []).append((pile.cards[0], i))
    groups = list(by_kind.values())
    return [groups[i] for i in rng.permutation(len(groups))], stacks


def _arrange(
    kind: str, collection: Collection, rng: np.random.Generator
) -> tuple[list[Placed], list[str]]:
    groups, stacks = _groups(collection, rng)
    made = [_stack(pile, nigiri, rng) for pile, nigiri in stacks]
    stack_units = [unit for unit, _ in made]
    shifts = [shift for _, shift in made]
    if kind == "rows":
        rows = [_row([_single(k, p, rng, 3) for k, p in group], rng, (1, 9)) for group in groups]
        if stack_units:
            rows.insert(int(rng.integers(len(rows) + 1)), _row(stack_units, rng, (3, 12)))
        # short rows share a line, as they do on a crowded table
        return _join(_flow(rows, rng, (6, 20))), shifts
    if kind == "columns":
        units = [_column(group, rng) for group in groups] + stack_units
        order = rng.permutation(len(units))
        return _join(_flow([units[i] for i in order], rng, (3, 14))), shifts
    if kind == "loose":
        units = [_single(k, p, rng, 0) for group in groups for k, p in group] + stack_units
        order = rng.permutation(len(units))
        return _join(_scatter([units[i] for i in order], rng)), shifts
    # mixed: bigger groups in columns or rows, lone cards and stacks turned a little
    units = []
    for group in groups:
        if len(group) == 1:
            units.append(_single(*group[0], rng, 10))
        elif rng.random() < 0.6:
            units.append(_column(group, rng).turned(float(rng.uniform(-5, 5))))
        else:
            units.append(_row([_single(k, p, rng, 4) for k, p in group], rng, (1, 8)))
    units += [u.turned(float(rng.uniform(-8, 8))) for u in stack_units]
    order = rng.permutation(len(units))
    return _join(_flow([units[i] for i in order], rng, (4, 22))), shifts


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    area, _ = cv2.intersectConvexConvex(a.astype(F32), b.astype(F32))
    return float(area)


def layout_ok(placed: list[Placed]) -> bool:
    """What card-spec allows: no card over another card's banner (a stack's nigiri leaves
    its wasabi's banner by construction), and no nigiri touching a wasabi but its own."""
    quads = [card_corners(c) for c in placed]
    for j, top in enumerate(placed):
        for i in range(j):
            under = placed[i]
            if top.wasabi == i or _overlap(quads[i], quads[j]) <= 0.5:
                continue
            kinds = {under.kind, top.kind}
            if "wasabi" in kinds and kinds & set(NIGIRI):
                return False
            if _overlap(banner_corners(under), quads[j]) > 0.5:
                return False
    return True


def lay_out_collection(
    collection: Collection, rng: np.random.Generator
) -> tuple[list[Placed], str, list[str]]:
    """Placed cards in drawing order (bottom first), the layout's name and each stack's
    shift. A layout that breaks card-spec's rules is drawn again; rows never do."""
    kind = str(rng.choice(LAYOUTS, p=[0.25, 0.3, 0.2, 0.25]))
    for _ in range(25):
        placed, shifts = _arrange(kind, collection, rng)
        if layout_ok(placed):
            return placed, kind, shifts
    placed, shifts = _arrange("rows", collection, rng)
    return placed, "rows", shifts


def page_to_world(pts: np.ndarray, z: float = 0.0) -> np.ndarray:
    pts = np.asarray(pts, np.float64).reshape(-1, 2)
    return np.column_stack([pts[:, 0], -pts[:, 1], np.full(len(pts), z)])


# ---------------------------------------------------------------------------------------
# The camera: a phone held over the table


@dataclass(frozen=True)
class Camera:
    k: np.ndarray  # 3x3 intrinsics
    r: np.ndarray  # world -> camera rotation (camera x right, y down, z forward)
    centre: np.ndarray  # (3,) world mm
    width: int
    height: int

    @property
    def focal(self) -> float:
        return float(self.k[0, 0])

    def project(self, world: np.ndarray) -> np.ndarray:
        cam = (np.asarray(world, np.float64) - self.centre) @ self.r.T
        uv = cam @ self.k.T
        return uv[:, :2] / uv[:, 2:3]

    def plane(self, z: float = 0.0) -> np.ndarray:
        """Homography from world (x, y) at height z to undistorted image px."""
        t = -self.r @ self.centre + self.r[:, 2] * z
        return self.k @ np.column_stack([self.r[:, 0], self.r[:, 1], t])

    def page_quad(self, page_pts: np.ndarray, z: float = 0.0) -> np.ndarray:
        return self.project(page_to_world(page_pts, z))


def _rot_x(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def _rot_y(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])


def _rot_z(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def _look(
    target: np.ndarray, tilt: float, yaw: float, roll: float, distance: float
) -> tuple[np.ndarray, np.ndarray]:
    """Rotation and centre of a camera `distance` mm from `target`, its axis `tilt` from
    straight down, the top of its picture facing `yaw` on the table."""
    away = np.array([math.cos(yaw), math.sin(yaw), 0.0])
    up = np.array([0.0, 0.0, 1.0])
    centre = target - distance * math.sin(tilt) * away + distance * math.cos(tilt) * up
    forward = math.sin(tilt) * away - math.cos(tilt) * up
    picture_up = math.cos(tilt) * away + math.sin(tilt) * up
    down = -picture_up
    right = np.cross(down, forward)
    return _rot_z(roll) @ np.stack([right, down, forward]), centre


def frame_size(rng: np.random.Generator, size: int) -> tuple[int, int]:
    """Width and height of a phone photo with long side `size`: 4:3 or 16:9, either way up."""
    short = round(size * (3 / 4 if rng.random() < 0.75 else 9 / 16))
    return (size, short) if rng.random() < 0.55 else (short, size)


def aim_camera(
    rng: np.random.Generator, placed: list[Placed], width: int, height: int
) -> tuple[Camera, dict[str, Any]]:
    """A phone over the collection: main lens (~26 mm equivalent) or a 2x tele, from
    straight above to 45 degrees, any yaw, the collection's bounding box spanning a fifth to
    two thirds of the picture (`fill_area`; `fill` is its share of the fuller side),
    sometimes off-centre."""
    tele = rng.random() < 0.25
    focal_mm = float(rng.uniform(48, 56) if tele else rng.uniform(24, 28))
    # Equivalent focal lengths refer to the 43.27 mm diagonal of a 4:3 frame, whose long
    # side is 0.8 of it; a 16:9 photo is that frame cropped, so its long side is the same.
    f = max(width, height) * 1.25 * focal_mm / 43.27
    k = np.array([[f, 0, (width - 1) / 2], [0, f, (height - 1) / 2], [0, 0, 1]])
    # Most phone shots lean: tilts crowd towards 45 degrees; a few look straight down.
    straight_down = rng.random() < 0.2
    tilt_deg = float(rng.uniform(0, 4) if straight_down else 45 * math.sqrt(rng.uniform(0, 1)))
    yaw = float(rng.uniform(0, 2 * math.pi))
    roll = math.radians(float(rng.normal(0, 1.5)))  # the phone held not quite square
    fill = float(rng.uniform(0.22, 0.7))  # share of the picture's area the collection spans
    corners = np.concatenate([card_corners(c) for c in placed])
    world = page_to_world(corners)
    target = world.mean(axis=0)
    margin = FRAME_MARGIN * min(width, height)
    off = 0.0 if rng.random() < 0.4 else float(rng.uniform(0.3, 1.0))
    off_dir = rng.uniform(-1, 1, 2)

    def built(distance: float, pan: np.ndarray) -> Camera:
        r, c = _look(target, math.radians(tilt_deg), yaw, roll, distance)
        r = _rot_x(pan[1]) @ _rot_y(pan[0]) @ r
        return Camera(k, r, c, width, height)

    def extent(cam: Camera) -> tuple[np.ndarray, np.ndarray]:
        pts = cam.project(world)
        return pts.min(axis=0), pts.max(axis=0)

    distance, pan = 600.0 * focal_mm / 26, np.zeros(2)
    size = np.array([width, height], float)
    for _ in range(8):
        lo, hi = extent(built(distance, pan))
        area = float(np.prod((hi - lo) / size))
        # A long collection reaches the frame's edges before it fills the asked-for area.
        distance *= max(math.sqrt(area / fill), float(np.max((hi - lo) / size)) / 0.9)
    for _ in range(12):
        cam = built(distance, pan)
        lo, hi = extent(cam)
        slack = np.maximum(0, (size - 2 * margin - (hi - lo)) / 2)
        want = size / 2 + off * off_dir * slack
        miss = want - (lo + hi) / 2
        pan = pan + np.array([math.atan(miss[0] / f), -math.atan(miss[1] / f)])
        lo, hi = extent(built(distance, pan))
        if (lo >= margin).all() and (hi <= size - margin).all():
            break
        distance *= 1.04
    cam = built(distance, pan)
    lo, hi = extent(cam)
    axis_tilt = math.degrees(math.acos(float(np.clip(-cam.r[2, 2], -1, 1))))
    return cam, {
        # the collection is seen at `tilt` degrees from straight down; panning it
        # off-centre turns the lens's axis a little further
        "tilt": round(tilt_deg, 2),
        "axis_tilt": round(axis_tilt, 2),
        "yaw": round(math.degrees(yaw) % 360, 2),
        "roll": round(math.degrees(roll), 2),
        "focal_mm_equiv": round(focal_mm, 1),
        "lens": "tele 2x" if tele else "main",
        "camera_height_mm": round(float(cam.centre[2]), 1),
        "fill": round(float(np.max((hi - lo) / size)), 3),
        "fill_area": round(float(np.prod(hi - lo) / np.prod(size)), 3),
        "off_centre": round(float(np.linalg.norm(((lo + hi) / 2 - size / 2) / size)), 3),
    }


# ---------------------------------------------------------------------------------------
# Where each pixel's ray meets the table (or the floor past its edge)


@dataclass(frozen=True)
class Ground:
    x: np.ndarray  # (H, W) world mm on the table plane
    y: np.ndarray
    mm_per_px: np.ndarray  # the table's footprint of a pixel: fine texture fades below it
    on_table: np.ndarray  # (H, W) 1 on the table, 0 past its edge (anti-aliased)
    inv_depth: np.ndarray  # (H, W) 1 / camera depth, mm^-1 (for the depth of field)
    # Slow-varying fields are worked out on a grid 4x coarser and scaled up (`up`):
    coarse_x: np.ndarray  # world mm on the table plane
    coarse_y: np.ndarray
    floor_x: np.ndarray  # world mm on the floor, where the table has ended
    floor_y: np.ndarray
    coarse_u: np.ndarray  # the image px of each coarse node
    coarse_v: np.ndarray

    @property
    def shape(self) -> tuple[int, int]:
        h, w = self.x.shape
        return h, w

    def up(self, coarse: np.ndarray) -> np.ndarray:
        h, w = self.shape
        return cv2.resize(coarse, (w, h), interpolation=cv2.INTER_LINEAR)


def see_ground(cam: Camera, table: tuple[float, float, float, float]) -> Ground:
    step = 4
    w, h = cam.width, cam.height
    wc, hc = math.ceil(w / step), math.ceil(h / step)
    u = (np.arange(wc) + 0.5) * (w / wc) - 0.5
    v = (np.arange(hc) + 0.5) * (h / hc) - 0.5
    uu, vv = np.meshgrid(u, v)
    f, cx, cy = cam.focal, cam.k[0, 2], cam.k[1, 2]
    rays = np.stack([(uu - cx) / f, (vv - cy) / f, np.ones_like(uu)], axis=-1) @ cam.r
    down = np.minimum(rays[..., 2], -1e-4)
    t = -cam.centre[2] / down  # camera depth, since each ray has unit camera-z
    tf = -(cam.centre[2] + FLOOR_BELOW) / down
    norm = np.linalg.norm(rays, axis=-1)
    mm_per_px = t * norm**2 / (f * -down)
    cx_, cy_ = cam.centre[0] + t * rays[..., 0], cam.centre[1] + t * rays[..., 1]
    fx_, fy_ = cam.centre[0] + tf * rays[..., 0], cam.centre[1] + tf * rays[..., 1]

    def full(a: np.ndarray) -> np.ndarray:
        return cv2.resize(a.astype(F32), (w, h), interpolation=cv2.INTER_LINEAR)

    x, y, mmpp = full(cx_), full(cy_), full(mm_per_px)
    x0, x1, y0, y1 = table
    inside = np.minimum(np.minimum(x - x0, x1 - x), np.minimum(y - y0, y1 - y))
    on_table = np.clip(inside / mmpp + 0.5, 0, 1)
    coarse_on = np.clip(
        np.minimum(np.minimum(cx_ - x0, x1 - cx_), np.minimum(cy_ - y0, y1 - cy_)), 0, 1
    )
    inv_depth = coarse_on / t + (1 - coarse_on) / tf
    return Ground(
        x,
        y,
        mmpp,
        on_table,
        full(inv_depth),
        cx_.astype(F32),
        cy_.astype(F32),
        fx_.astype(F32),
        fy_.astype(F32),
        uu.astype(F32),
        vv.astype(F32),
    )


class Noise:
    """Smooth value noise on a wrapped random grid, looked up by cv2.remap."""

    def __init__(self, rng: np.random.Generator, n: int = 128) -> None:
        self.grid = rng.uniform(-1, 1, (n, n)).astype(F32)

    def at(self, u: np.ndarray, v: np.ndarray) -> np.ndarray:
        # remap's BORDER_WRAP reaches one period out only: wrap the coordinates first.
        n = F32(self.grid.shape[0])
        return cv2.remap(
            self.grid,
            np.mod(u, n, dtype=F32),
            np.mod(v, n, dtype=F32),
            cv2.INTER_CUBIC,
            borderMode=cv2.BORDER_WRAP,
        )


def _fade(period_mm: float | np.ndarray, mm_per_px: np.ndarray) -> np.ndarray:
    """How much of a pattern of this period survives at a pixel: none below ~2.5 px."""
    return np.clip(period_mm / (2.5 * mm_per_px) - 1.0, 0, 1)


def _lin(rgb: tuple[int, int, int] | np.ndarray) -> np.ndarray:
    """An sRGB colour as linear BGR."""
    return ((np.asarray(rgb, np.float64)[::-1] / 255.0) ** 2.2).astype(F32)


def _paint(c0: np.ndarray, c1: np.ndarray, t: np.ndarray) -> np.ndarray:
    return (c0 + np.multiply.outer(t.astype(F32), (c1 - c0))).astype(F32)


def _jitter(rng: np.random.Generator, rgb: tuple[int, int, int], amount: int) -> np.ndarray:
    return np.clip(np.asarray(rgb) + rng.integers(-amount, amount + 1, 3), 0, 255)


# ---------------------------------------------------------------------------------------
# Table tops, drawn in world mm so that perspective foreshortens them


def _along(g: Ground, theta: float) -> tuple[np.ndarray, np.ndarray]:
    c, s = math.cos(theta), math.sin(theta)
    return g.x * c + g.y * s, -g.x * s + g.y * c


def _along_coarse(g: Ground, theta: float) -> tuple[np.ndarray, np.ndarray]:
    c, s = math.cos(theta), math.sin(theta)
    return g.coarse_x * c + g.coarse_y * s, -g.coarse_x * s + g.coarse_y * c


def _wood(rng: np.random.Generator, g: Ground, contrast: float = 1.0) -> tuple[np.ndarray, str]:
    woods = {
        "oak": ((196, 156, 106), (150, 106, 62)),
        "walnut": ((112, 78, 54), (62, 40, 27)),
        "pine": ((222, 188, 138), (186, 140, 88)),
        "cherry": ((160, 92, 60), (112, 58, 36)),
        "whitewashed": ((214, 204, 188), (170, 158, 140)),
        "ash": ((206, 186, 156), (160, 136, 106)),
    }
    name = str(rng.choice(list(woods)))
    light, dark = (_lin(_jitter(rng, c, 10)) for c in woods[name])
    theta = float(rng.uniform(0, math.pi))
    a, b = _along(g, theta)
    plank_w = float(rng.uniform(80, 230))
    plank = np.floor(b / plank_w).astype(np.int32) & 63
    tone = rng.normal(0, 0.12, 64).astype(F32)[plank] * contrast
    offsets = rng.uniform(0, 5000, 64).astype(F32)
    phase = offsets[plank]
    spacing = float(rng.uniform(2.5, 7))
    warp = Noise(rng, 64).at((a + phase) / rng.uniform(150, 400), b / rng.uniform(12, 35))
    # Each plank is cut through its own rings: slow swirls of several rings ("figure").
    ca, cb = _along_coarse(g, theta)
    figure = g.up(
        Noise(rng, 64).at(
            (ca + offsets[np.floor(cb / plank_w).astype(np.int32) & 63]) / rng.uniform(250, 700),
            cb / rng.uniform(30, 90),
        )
    ) * float(rng.uniform(1.5, 5))
    rings = 0.5 + 0.5 * np.sin(((b + warp * rng.uniform(3, 8)) / spacing + figure) * (2 * math.pi))
    rings = rings ** float(rng.uniform(2, 5))
    mean = 0.25
    rings = mean + (rings - mean) * _fade(spacing, g.mm_per_px)
    fibre = Noise(rng).at((a + phase) / rng.uniform(15, 50), b / 0.7) * _fade(1.4, g.mm_per_px)
    blotch = g.up(Noise(rng, 32).at(g.coarse_x / 90, g.coarse_y / 90))
    t = (0.55 * rings + 0.12 * fibre + 0.1 * blotch + tone) * contrast + (1 - contrast) * 0.35
    out = _paint(light, dark, np.clip(t + 0.1, 0, 1.2))
    seam = np.abs(((b / plank_w + 0.5) % 1.0) - 0.5) * plank_w
    gap = float(rng.uniform(0.3, 0.9)) * contrast
    shade = 1 - 0.55 * np.clip(gap - seam, 0, None) / np.maximum(g.mm_per_px, gap)
    out *= shade[..., None]
    return out, f"wood/{name}" if contrast == 1.0 else f"laminate/woodprint-{name}"


def _cloth_weave(rng: np.random.Generator, g: Ground) -> np.ndarray:
    """The threads of a woven cloth: a faint over-under pattern, gone where too fine."""
    period = float(rng.uniform(0.5, 1.4))
    a, b = _along(g, float(rng.uniform(0, math.pi)))
    k = 2 * math.pi / period
    weave = np.sin(a * k) * np.sin(b * k) * 0.5 + Noise(rng).at(a / 0.8, b / 9) * 0.5
    return 1 + 0.09 * weave * _fade(period, g.mm_per_px)


def _wrinkles(rng: np.random.Generator, g: Ground, amount: float) -> np.ndarray:
    n = Noise(rng, 32)
    s = float(rng.uniform(40, 120))
    field = n.at(g.coarse_x / s, g.coarse_y / s) + 0.5 * n.at(g.coarse_x / (s / 3), g.coarse_y / s)
    return g.up(1 + amount * field)


def _cloth(rng: np.random.Generator, g: Ground) -> tuple[np.ndarray, str]:
    colours = {
        "linen": (206, 196, 176),
        "grey": (150, 150, 152),
        "navy": (44, 56, 88),
        "olive": (110, 116, 70),
        "burgundy": (116, 40, 48),
        "white": (232, 232, 228),
        "mustard": (200, 160, 60),
    }
    name = str(rng.choice(list(colours)))
    base = _lin(_jitter(rng, colours[name], 10))
    shade = _cloth_weave(rng, g) * _wrinkles(rng, g, float(rng.uniform(0.02, 0.07)))
    return base * shade[..., None], f"cloth/{name}"


def _felt(rng: np.random.Generator, g: Ground) -> tuple[np.ndarray, str]:
    colours = {
        "green": (38, 108, 62),
        "blue": (40, 72, 130),
        "red": (140, 36, 40),
        "grey": (96, 98, 100),
        "black": (34, 34, 36),
    }
    return _plain(rng, g, "felt", colours, fine=(0.6, 1.2, 0.06), coarse=(25, 0.05))


def _laminate(rng: np.random.Generator, g: Ground) -> tuple[np.ndarray, str]:
    if rng.random() < 0.35:
        out, name = _wood(rng, g, contrast=0.45)
        return out, name
    colours = {
        "white": (236, 236, 232),
        "grey": (168, 170, 170),
        "beige": (214, 200, 176),
        "black": (40, 40, 42),
        "teal": (70, 130, 130),
        "cream": (232, 222, 196),
    }
    return _plain(rng, g, "laminate", colours, fine=(0.9, 1.8, 0.05), coarse=(60, 0.03))


def _plain(
    rng: np.random.Generator,
    g: Ground,
    family: str,
    colours: dict[str, tuple[int, int, int]],
    fine: tuple[float, float, float],
    coarse: tuple[float, float],
) -> tuple[np.ndarray, str]:
    """One colour of `colours`, shaded by a fine grain and a coarse mottle: `fine` is
    (grain mm, mm at which it fades out, weight), `coarse` (mottle mm, weight)."""
    name = str(rng.choice(list(colours)))
    base = _lin(_jitter(rng, colours[name], 8))
    grain_mm, fade_mm, grain_weight = fine
    mottle_mm, mottle_weight = coarse
    grain = Noise(rng).at(g.x / grain_mm, g.y / grain_mm) * _fade(fade_mm, g.mm_per_px)
    mottle = g.up(Noise(rng, 32).at(g.coarse_x / mottle_mm, g.coarse_y / mottle_mm))
    shade = 1 + grain_weight * grain + mottle_weight * mottle
    return base * shade[..., None], f"{family}/{name}"


def _stone(rng: np.random.Generator, g: Ground) -> tuple[np.ndarray, str]:
    kind = str(rng.choice(["marble", "granite", "slate"]))
    n = Noise(rng, 64)
    turb = g.up(
        n.at(g.coarse_x / 120, g.coarse_y / 120)
        + 0.5 * n.at(g.coarse_x / 45, g.coarse_y / 45)
        + 0.25 * n.at(g.coarse_x / 17, g.coarse_y / 17)
    )
    if kind == "marble":
        light = _lin(_jitter(rng, (232, 230, 226), 8))
        vein_c = _lin(_jitter(rng, (120, 120, 126), 20))
        a, _ = _along(g, float(rng.uniform(0, math.pi)))
        phase = a / rng.uniform(50, 140) + turb * rng.uniform(0.4, 0.9)
        width = float(rng.uniform(0.02, 0.06))
        vein = np.exp(-((np.abs(np.sin(phase * math.pi)) / width) ** 2))
        fine = Noise(rng).at(g.x / 3, g.y / 3) * _fade(6, g.mm_per_px)
        return _paint(light, vein_c, np.clip(vein * 0.8 + 0.08 * turb + 0.04 * fine, 0, 1)), (
            "stone/marble"
        )
    if kind == "granite":
        tones = [(120, 116, 110), (176, 170, 162), (52, 50, 50), (150, 120, 110)]
        c0, c1, c2 = (_lin(_jitter(rng, tones[i], 12)) for i in rng.permutation(4)[:3])
        grain = Noise(rng).at(g.x / 1.1, g.y / 1.1) + 0.5 * Noise(rng).at(g.x / 3, g.y / 3)
        fade = _fade(2.2, g.mm_per_px)
        light = np.clip((grain - 0.35) * 3, 0, 1) * fade + 0.15 * (1 - fade)
        dark = np.clip((-grain - 0.45) * 3, 0, 1) * fade + 0.1 * (1 - fade)
        out = _paint(c0, c1, light)
        out = out * (1 - dark[..., None]) + c2 * dark[..., None]
        return out.astype(F32), "stone/granite"
    base = _lin(_jitter(rng, (70, 74, 80), 10))
    shade = 1 + 0.1 * turb + 0.04 * Noise(rng).at(g.x / 4, g.y / 4) * _fade(8, g.mm_per_px)
    return base * shade[..., None], "stone/slate"


def _band(coord: np.ndarray, period: float, share: float, mm_per_px: np.ndarray) -> np.ndarray:
    """1 inside stripes of `share` of each `period`, with anti-aliased edges."""
    dist = np.abs(((coord / period) % 1.0) - 0.5) * period  # from the stripe's centre
    return np.clip((share * period / 2 - dist) / mm_per_px + 0.5, 0, 1)


def _tablecloth(rng: np.random.Generator, g: Ground) -> tuple[np.ndarray, str]:
    pattern = str(rng.choice(["gingham", "dots", "stripes", "flowers"]))
    palettes = [
        ((236, 234, 228), (190, 60, 60)),
        ((236, 234, 228), (60, 90, 160)),
        ((240, 236, 220), (70, 130, 80)),
        ((40, 46, 70), (220, 200, 120)),
        ((246, 230, 200), (200, 110, 50)),
    ]
    ground_rgb, ink_rgb = palettes[int(rng.integers(len(palettes)))]
    paper, ink = _lin(_jitter(rng, ground_rgb, 8)), _lin(_jitter(rng, ink_rgb, 15))
    a, b = _along(g, float(rng.uniform(0, math.pi)))
    mmpp = g.mm_per_px
    if pattern == "gingham":
        period = float(rng.uniform(8, 30))
        both = _band(a, period, 0.5, mmpp), _band(b, period, 0.5, mmpp)
        t = 0.45 * both[0] + 0.45 * both[1]
    elif pattern == "dots":
        period = float(rng.uniform(15, 40))
        r = period * rng.uniform(0.12, 0.3)
        da = (((a / period) % 1.0) - 0.5) * period
        db = (((b / period) % 1.0) - 0.5) * period
        t = np.clip((r - np.sqrt(da * da + db * db)) / mmpp + 0.5, 0, 1)
    elif pattern == "stripes":
        period = float(rng.uniform(12, 50))
        t = _band(a, period, float(rng.uniform(0.2, 0.5)), mmpp) + 0.5 * _band(
            a + period / 2, period, 0.08, mmpp
        )
    else:
        n = Noise(rng, 64)
        s = float(rng.uniform(15, 40))
        field = g.up(n.at(g.coarse_x / s, g.coarse_y / s))
        level = float(rng.uniform(0.15, 0.35))
        # the noise changes by about 1/s a mm: an edge about a pixel wide
        t = np.clip((field - level) * s / (2 * mmpp) + 0.5, 0, 1)
    out = _paint(paper, ink, np.clip(t, 0, 1))
    shade = _cloth_weave(rng, g) * _wrinkles(rng, g, float(rng.uniform(0.02, 0.06)))
    # ironed folds: long soft ridges across the cloth
    for _ in range(int(rng.integers(0, 3))):
        fa, _fb = _along(g, float(rng.uniform(0, math.pi)))
        at = float(rng.uniform(-300, 300))
        shade = shade * (1 + rng.choice([-1, 1]) * 0.06 * np.exp(-(((fa - at) / 5) ** 2)))
    return out * shade[..., None], f"tablecloth/{pattern}"


SURFACE_DRAWERS: dict[str, Callable[[np.random.Generator, Ground], tuple[np.ndarray, str]]] = {
    "wood": _wood,
    "cloth": _cloth,
    "laminate": _laminate,
    "stone": _stone,
    "felt": _felt,
    "tablecloth": _tablecloth,
}


def _floor(rng: np.random.Generator, g: Ground) -> np.ndarray:
    """What shows past the table's edge: a dim floor, far out of focus anyway."""
    colour = _lin(_jitter(rng, (90, 76, 64), 30)) * float(rng.uniform(0.3, 0.6))
    n = Noise(rng, 32)
    shade = 1 + 0.25 * n.at(g.floor_x / 300, g.floor_y / 300)
    return g.up(colour * shade[..., None])


def draw_table(rng: np.random.Generator, g: Ground) -> tuple[np.ndarray, str]:
    kind = str(rng.choice(SURFACES, p=[0.28, 0.14, 0.18, 0.14, 0.1, 0.16]))
    top, name = SURFACE_DRAWERS[kind](rng, g)
    if float(g.on_table.min()) < 1:
        edge = g.on_table[..., None]
        top = top * edge + _floor(rng, g) * (1 - edge)
    return top.astype(F32), name


# ---------------------------------------------------------------------------------------
# Light


KELVIN = np.array([2500, 3000, 4000, 5000, 6000, 6500, 7500], float)
KELVIN_RGB = np.array(
    [
        (1.00, 0.56, 0.24),
        (1.00, 0.64, 0.34),
        (1.00, 0.78, 0.56),
        (1.00, 0.89, 0.78),
        (1.00, 0.97, 0.93),
        (0.97, 1.00, 1.00),
        (0.86, 0.93, 1.00),
    ]
)


def light_colour(kelvin: float) -> np.ndarray:
    """Linear BGR of a light at this colour temperature, at unit luminance."""
    rgb = np.array([np.interp(kelvin, KELVIN, KELVIN_RGB[:, i]) for i in range(3)])
    rgb /= 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]
    return rgb[::-1].astype(F32)


@dataclass(frozen=True)
class Lighting:
    lamp: np.ndarray | None  # world position of a ceiling lamp
    lamp_colour: np.ndarray
    window: np.ndarray | None  # unit vector towards a window's light
    window_colour: np.ndarray
    ambient_colour: np.ndarray
    shares: tuple[float, float, float]  # lamp, window, ambient at the collection
    shadow_per_mm: np.ndarray  # world (x, y) shift of a shadow per mm of height
    penumbra: float  # blur of a shadow (mm) per mm of height
    shadow_strength: float
    meta: dict[str, Any]


def light_the_room(rng: np.random.Generator, centre: np.ndarray) -> Lighting:
    kind = str(rng.choice(["lamp", "window", "lamp+window"], p=[0.4, 0.3, 0.3]))
    lamp_k = float(rng.uniform(2600, 4200))
    window_k = float(rng.uniform(5200, 7500))
    lamp = window = None
    shares = [0.0, 0.0, float(rng.uniform(0.15, 0.4))]
    if "lamp" in kind:
        angle = rng.uniform(0, 2 * math.pi)
        reach = rng.uniform(0, 900)
        lamp = centre + np.array(
            [reach * math.cos(angle), reach * math.sin(angle), rng.uniform(900, 1800)]
        )
        shares[0] = 1.0
    if "window" in kind:
        azimuth = rng.uniform(0, 2 * math.pi)
        elevation = rng.uniform(math.radians(15), math.radians(55))
        window = np.array(
            [
                math.cos(elevation) * math.cos(azimuth),
                math.cos(elevation) * math.sin(azimuth),
                math.sin(elevation),
            ]
        )
        shares[1] = float(rng.uniform(0.6, 1.2)) if lamp is not None else 1.0
    total = sum(shares)
    shares = [s / total for s in shares]
    if lamp is not None and shares[0] >= shares[1]:
        shadow = (centre[:2] - lamp[:2]) / lamp[2]
        penumbra = float(rng.uniform(0.05, 0.35))  # a small bulb to a wide shade
    else:
        assert window is not None
        shadow = -window[:2] / window[2]
        penumbra = float(rng.uniform(0.3, 0.9))  # a window is a broad light
    ambient_k = float(np.interp(shares[1], [0, 1], [lamp_k + 800, window_k - 500]))
    return Lighting(
        lamp,
        light_colour(lamp_k),
        window,
        light_colour(window_k),
        light_colour(ambient_k),
        (shares[0], shares[1], shares[2]),
        shadow.astype(float),
        penumbra,
        float(rng.uniform(0.25, 0.6)) * (1 - shares[2]),
        {
            "light": kind,
            "lamp_kelvin": round(lamp_k) if lamp is not None else None,
            "window_kelvin": round(window_k) if window is not None else None,
            "ambient_share": round(shares[2], 3),
        },
    )


def illumination(light: Lighting, g: Ground, centre: np.ndarray) -> np.ndarray:
    """Light falling on the table (linear BGR gain, coarse grid), 1 at the collection for
    a white light."""
    x, y = g.coarse_x.astype(np.float64), g.coarse_y.astype(np.float64)
    gain = np.zeros((*x.shape, 3))
    if light.lamp is not None:
        lx, ly, lz = light.lamp

        def lamp_at(px: np.ndarray | float, py: np.ndarray | float) -> np.ndarray:
            r2 = (px - lx) ** 2 + (py - ly) ** 2 + lz**2
            return lz / r2**1.5  # cosine over distance squared

        falloff = lamp_at(x, y) / lamp_at(centre[0], centre[1])
        gain += light.shares[0] * falloff[..., None] * light.lamp_colour
    if light.window is not None:
        # Daylight weakens away from the window across a table.
        toward = (x - centre[0]) * light.window[0] + (y - centre[1]) * light.window[1]
        falloff = np.clip(1 + toward / 1500, 0.3, 1.6)
        gain += light.shares[1] * falloff[..., None] * light.window_colour
    gain += light.shares[2] * light.ambient_colour
    return gain.astype(F32)


def ground_to_coarse(cam: Camera, world: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Where a world point falls on a coarse grid of the picture (as a one-point quad)."""
    u, v = cam.project(world[None])[0]
    return np.array([[u * shape[1] / cam.width, v * shape[0] / cam.height]])


def vignette(g: Ground, strength: float) -> np.ndarray:
    """The light a lens loses towards the corners, what is left after the phone's correction
    (coarse grid)."""
    h, w = g.shape
    du, dv = g.coarse_u - (w - 1) / 2, g.coarse_v - (h - 1) / 2
    return (1 - strength * (du * du + dv * dv) / ((w / 2) ** 2 + (h / 2) ** 2)).astype(F32)


def specular_hotspot(
    light: Lighting, cam: Camera, g: Ground, gloss: float, rng: np.random.Generator
) -> np.ndarray | None:
    """The lamp's blurred reflection on a glossy table top (radiance to add)."""
    if light.lamp is None or gloss <= 0:
        return None
    mirrored = light.lamp * [1, 1, -1]
    s = cam.centre[2] / (cam.centre[2] - mirrored[2])
    spot = cam.centre + s * (mirrored - cam.centre)
    u, v = cam.project(spot[None])[0]
    radius = max(g.shape) * float(rng.uniform(0.08, 0.3))
    blob = np.exp(-((g.coarse_u - u) ** 2 + (g.coarse_v - v) ** 2) / (2 * radius**2))
    if float(blob.max()) < 0.02:
        return None
    return g.up((gloss * blob[..., None] * light.lamp_colour * light.shares[0]).astype(F32))


# ---------------------------------------------------------------------------------------
# Drawing flat things (cards, clutter) and their shadows


def _region(
    pts: np.ndarray, shape: tuple[int, int], pad: float = 2
) -> tuple[int, int, int, int] | None:
    h, w = shape
    x0 = max(0, math.floor(float(pts[:, 0].min()) - pad))
    y0 = max(0, math.floor(float(pts[:, 1].min()) - pad))
    x1 = min(w, math.ceil(float(pts[:, 0].max()) + pad) + 1)
    y1 = min(h, math.ceil(float(pts[:, 1].max()) + pad) + 1)
    if x1 <= x0 or y1 <= y0:
        return None
    return x0, y0, x1, y1


def polygon_mask(polys: list[np.ndarray], region: tuple[int, int, int, int]) -> np.ndarray:
    """Anti-aliased coverage (0-1) of polygons in a region of the image."""
    x0, y0, x1, y1 = region
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    pts = [np.round((p - [x0, y0]) * 16).astype(np.int32) for p in polys]
    cv2.fillPoly(mask, pts, 255, cv2.LINE_AA, shift=4)
    return mask.astype(F32) / 255


def cast_shadow(
    canvas: np.ndarray,
    poly: np.ndarray,
    blur_px: float,
    strength: float,
    shape: np.ndarray | None = None,
) -> None:
    """Darken the canvas under a soft shadow of this image polygon (or, given `shape`, of
    that alpha image laid on the polygon)."""
    pad = 3 * blur_px + 2
    region = _region(poly, canvas.shape[:2], pad)
    if region is None or strength <= 0:
        return
    if shape is None:
        mask = polygon_mask([poly], region)
    else:
        h, w = shape.shape[:2]
        src = np.array([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5], [-0.5, h - 0.5]], F32)
        m = cv2.getPerspectiveTransform(src, (poly - region[:2]).astype(F32))
        size = (region[2] - region[0], region[3] - region[1])
        mask = cv2.warpPerspective(np.ascontiguousarray(shape), m, size, flags=cv2.INTER_LINEAR)
    if blur_px > 0.3:
        mask = _blurred(mask, blur_px)
    x0, y0, x1, y1 = region
    canvas[y0:y1, x0:x1] *= (1 - strength * mask)[..., None]


def lay_flat(
    canvas: np.ndarray,
    image: np.ndarray,
    quad: np.ndarray,
    gain: np.ndarray,
    idmap: np.ndarray | None = None,
    ident: int = 0,
) -> int:
    """Warp an RGBA float image (linear reflectance, alpha 0-1) onto an image quad, lit by
    the light falling there (`gain`, per pixel); returns the pixels it covers (alpha over
    0.5) and marks them in `idmap`."""
    h, w = image.shape[:2]
    region = _region(quad, canvas.shape[:2])
    if region is None:
        return 0
    x0, y0, x1, y1 = region
    src = np.array([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5], [-0.5, h - 0.5]], F32)
    m = cv2.getPerspectiveTransform(src, (quad - [x0, y0]).astype(F32))
    warped = cv2.warpPerspective(
        image, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT
    )
    alpha = warped[..., 3:4]
    under = canvas[y0:y1, x0:x1]
    canvas[y0:y1, x0:x1] = under * (1 - alpha) + warped[..., :3] * gain[y0:y1, x0:x1] * alpha
    covered = alpha[..., 0] > 0.5
    if idmap is not None:
        idmap[y0:y1, x0:x1][covered] = ident
    return int(covered.sum())


def _local_gain(gain: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The light at a quad's centre (a card is small against the light's variation)."""
    h, w = gain.shape[:2]
    cx, cy = quad.mean(axis=0)
    return gain[int(np.clip(cy, 0, h - 1)), int(np.clip(cx, 0, w - 1))]


# ---------------------------------------------------------------------------------------
# Cards


def bowed_face(face: np.ndarray, rng: np.random.Generator, glare: float) -> np.ndarray:
    """A face as linear RGBA with the shading of a gently bowed card, and sometimes a glare
    patch where the light catches its surface."""
    h, w = face.shape[:2]
    out = np.empty((h, w, 4), F32)
    out[..., :3] = LINEAR[face[..., :3]]
    out[..., 3] = face[..., 3].astype(F32) / 255
    along_width = rng.random() < 0.6
    n = w if along_width else h
    t = np.linspace(-1, 1, n, dtype=F32)
    tilt = float(rng.uniform(-0.08, 0.08))  # the bow's slope facing towards/away from light
    cup = float(rng.uniform(-0.05, 0.05))  # the middle sits lower or higher than the edges
    profile = 1 + tilt * np.sin(t * math.pi / 2) + cup * (t * t - 1 / 3)
    out[..., :3] *= profile[None, :, None] if along_width else profile[:, None, None]
    if glare > 0:
        yy, xx = np.mgrid[0:h, 0:w].astype(F32)
        cx, cy = rng.uniform(0.1, 0.9) * w, rng.uniform(0.15, 0.95) * h
        rx, ry = rng.uniform(0.15, 0.45) * w, rng.uniform(0.1, 0.35) * h
        a = rng.uniform(0, math.pi)
        dx, dy = xx - cx, yy - cy
        u = (dx * math.cos(a) + dy * math.sin(a)) / rx
        v = (-dx * math.sin(a) + dy * math.cos(a)) / ry
        out[..., :3] += (glare * np.exp(-(u * u + v * v) * 2))[..., None]
    return out


@dataclass(frozen=True)
class DrawnCard:
    placed: Placed
    quad: np.ndarray  # undistorted image px, TL TR BR BL
    area: int  # pixels the whole card covers


def draw_cards(
    rng: np.random.Generator,
    canvas: np.ndarray,
    gain: np.ndarray,
    faces: FacePool,
    cam: Camera,
    placed: list[Placed],
    light: Lighting,
    idmap: np.ndarray,
) -> tuple[list[DrawnCard], dict[str, Any]]:
    glare_card = int(rng.integers(len(placed))) if rng.random() < 0.35 else -1
    drawn: list[DrawnCard] = []
    glares = []
    for i, card in enumerate(placed):
        z = 0.3 if card.wasabi is not None else 0.0
        quad = cam.page_quad(card_corners(card), z)
        px_per_mm = float(np.linalg.norm(quad[3] - quad[0])) / CARD_H
        # Bowed cards stand off the table at their edges: a soft shadow just beside them.
        lift = float(rng.uniform(0.6, 2.5))
        shift = light.shadow_per_mm * lift
        shadow_pts = card_corners(card, grow=0.3) + np.array([shift[0], -shift[1]])
        shadow = cam.page_quad(shadow_pts)
        blur = (0.4 + light.penumbra * lift) * px_per_mm
        cast_shadow(canvas, shadow, blur, light.shadow_strength)
        face = faces.pick(card.kind, rng, float(np.linalg.norm(quad[3] - quad[0])))
        glare = float(rng.uniform(0.3, 1.2)) if i == glare_card else 0.0
        area = lay_flat(canvas, bowed_face(face, rng, glare), quad, gain, idmap, i)
        drawn.append(DrawnCard(card, quad, area))
        if glare:
            glares.append(i)
    return drawn, {"glare": bool(glares), "glare_cards": glares}


# ---------------------------------------------------------------------------------------
# Things on the table that are not cards


def _rgba(bgr_u8: np.ndarray, alpha: np.ndarray | None = None) -> np.ndarray:
    out = np.empty((*bgr_u8.shape[:2], 4), F32)
    out[..., :3] = LINEAR[bgr_u8]
    out[..., 3] = 1.0 if alpha is None else alpha
    return out


def _rounded_alpha(h: int, w: int, radius: int) -> np.ndarray:
    mask = np.zeros((h, w), np.uint8)
    cv2.rectangle(mask, (radius, 0), (w - 1 - radius, h - 1), 255, -1)
    cv2.rectangle(mask, (0, radius), (w - 1, h - 1 - radius), 255, -1)
    for cx in (radius, w - 1 - radius):
        for cy in (radius, h - 1 - radius):
            cv2.circle(mask, (cx, cy), radius, 255, -1, cv2.LINE_AA)
    return mask.astype(F32) / 255


def _score_pad(rng: np.random.Generator) -> tuple[np.ndarray, tuple[float, float], float]:
    s = 4  # px per mm
    w, h = int(rng.uniform(90, 110)), int(rng.uniform(140, 160))
    paper = _jitter(rng, (246, 242, 228), 8)[::-1]
    img = np.empty((h * s, w * s, 3), np.uint8)
    img[:] = paper
    for y in range(20 * s, h * s, 7 * s):
        cv2.line(img, (0, y), (w * s, y), (215, 190, 160), 1, cv2.LINE_AA)
    cv2.line(img, (16 * s, 0), (16 * s, h * s), (120, 120, 220), 1, cv2.LINE_AA)
    cv2.rectangle(img, (0, 0), (w * s, 9 * s), (40, 40, 120), -1)
    ink = (150, 70, 30) if rng.random() < 0.5 else (90, 90, 90)
    cols = int(rng.integers(2, 5))
    for c in range(cols):
        x = 20 * s + c * (w - 24) * s // cols
        for r in range(int(rng.integers(2, 12))):
            y = (20 + 7 * r) * s - 4
            text = str(int(rng.integers(0, 60)))
            cv2.putText(
                img, text, (x, y), cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, 0.9, ink, 2, cv2.LINE_AA
            )
    return _rgba(img), (float(w), float(h)), 2.0


def _phone(rng: np.random.Generator) -> tuple[np.ndarray, tuple[float, float], float]:
    s = 4
    w, h = int(rng.uniform(68, 78)), int(rng.uniform(145, 162))
    case = _jitter(
        rng, [(30, 30, 32), (200, 200, 205), (60, 80, 120), (150, 60, 60)][int(rng.integers(4))], 10
    )
    img = np.empty((h * s, w * s, 3), np.uint8)
    img[:] = case[::-1]
    screen = np.zeros_like(img)
    yy, xx = np.mgrid[0 : h * s, 0 : w * s]
    sheen = np.clip(20 + 30 * np.cos((xx + yy * 0.6) / (w * s) * 3 + rng.uniform(0, 6)), 0, 255)
    screen[:] = sheen[..., None].astype(np.uint8)
    b = 3 * s
    img[b:-b, b:-b] = screen[b:-b, b:-b]
    alpha = _rounded_alpha(h * s, w * s, 8 * s)
    return _rgba(img, alpha), (float(w), float(h)), 8.0


def _pen(rng: np.random.Generator) -> tuple[np.ndarray, tuple[float, float], float]:
    s = 6
    length, r = float(rng.uniform(120, 150)), float(rng.uniform(4, 6))
    w, h = round(2 * r * s), round(length * s)
    body = _jitter(
        rng, [(30, 60, 160), (20, 20, 20), (200, 40, 40), (230, 230, 230)][int(rng.integers(4))], 10
    )
    across = np.linspace(-1, 1, w)
    shade = np.clip(
        0.55
        + 0.45 * np.sqrt(np.clip(1 - across**2, 0, 1))
        + 0.4 * np.exp(-(((across + 0.35) / 0.15) ** 2)),
        0,
        1.6,
    )
    img = np.clip(
        body[::-1][None, None, :] * shade[None, :, None] * np.ones((h, 1, 1)), 0, 255
    ).astype(np.uint8)
    cap = round(h * rng.uniform(0.15, 0.3))
    img[:cap] = np.clip(img[:cap].astype(float) * 0.7 + 20, 0, 255).astype(np.uint8)
    tip = round(h * 0.08)
    alpha = np.ones((h, w), F32)
    for i in range(tip):
        half = (i + 1) / tip * w / 2
        xs = np.abs(np.arange(w) - (w - 1) / 2)
        alpha[h - 1 - i] = np.clip(half - xs + 0.5, 0, 1)
    return _rgba(img, alpha), (2 * r, length), r


def _napkin(rng: np.random.Generator) -> tuple[np.ndarray, tuple[float, float], float]:
    s = 3
    size = float(rng.uniform(90, 130))
    n = round(size * s)
    angles = np.linspace(0, 2 * math.pi, 24, endpoint=False)
    radii = 0.5 * n * (0.6 + 0.35 * rng.uniform(0, 1, 24))
    radii = np.convolve(np.r_[radii[-1:], radii, radii[:1]], [0.25, 0.5, 0.25], "valid")
    pts = np.column_stack([n / 2 + radii * np.cos(angles), n / 2 + radii * np.sin(angles)])
    mask = np.zeros((n, n), np.uint8)
    cv2.fillPoly(mask, [pts.astype(np.int32)], 255, cv2.LINE_AA)
    grid = Noise(rng, 16)
    yy, xx = np.mgrid[0:n, 0:n].astype(F32)
    creases = np.abs(grid.at(xx / (n / 5), yy / (n / 5))) + 0.5 * np.abs(
        grid.at(xx / (n / 11), yy / (n / 11))
    )
    shade = np.clip(1.0 - 0.2 * creases, 0.6, 1)
    tint = _jitter(rng, (244, 244, 240), 6)[::-1]
    img = np.clip(tint[None, None, :] * shade[..., None], 0, 255).astype(np.uint8)
    return _rgba(img, mask.astype(F32) / 255), (size, size), 10.0


FLAT_THINGS = {"score pad": _score_pad, "phone": _phone, "pen": _pen, "napkin": _napkin}


@dataclass(frozen=True)
class Cup:
    """A cup standing on the table, as the camera sees it."""

    body: np.ndarray  # image outline of the whole cup
    rim: np.ndarray
    inside: np.ndarray  # the rim's inner edge
    drink: np.ndarray  # the drink's surface, seen through the rim
    axis: tuple[np.ndarray, np.ndarray]  # image points of the base's and the rim's centres
    radius_px: float


def see_cup(cam: Camera, x: float, y: float, radius: float, height: float) -> Cup:
    a = np.linspace(0, 2 * math.pi, 48, endpoint=False)

    def ring(z: float, r: float) -> np.ndarray:
        pts = np.column_stack([x + r * np.cos(a), y + r * np.sin(a), np.full(len(a), z)])
        return cam.project(pts)

    base, rim = ring(0, radius), ring(height, radius)
    body = cv2.convexHull(np.concatenate([base, rim]).astype(F32))[:, 0]
    ends = cam.project(np.array([[x, y, 0.0], [x, y, height]]))
    return Cup(
        body,
        rim,
        ring(height, radius * 0.9),
        ring(height - 18, radius * 0.9),
        (ends[0], ends[1]),
        float(np.linalg.norm(base - ends[0], axis=1).max()),
    )


def _draw_cup(rng: np.random.Generator, canvas: np.ndarray, gain: np.ndarray, cup: Cup) -> None:
    light = _local_gain(gain, cup.body)
    colour = _lin(
        _jitter(
            rng,
            [(240, 240, 236), (60, 90, 140), (200, 80, 60), (40, 40, 40)][int(rng.integers(4))],
            10,
        )
    )
    drink = _lin(
        _jitter(rng, [(70, 40, 25), (150, 95, 50), (230, 226, 220)][int(rng.integers(3))], 10)
    )
    region = _region(cup.body, canvas.shape[:2])
    if region is None:
        return
    x0, y0, x1, y1 = region
    patch = canvas[y0:y1, x0:x1]
    # A cylinder's side, lit across its width: darker at its edges, a highlight off-centre.
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(F32)
    base, top = cup.axis
    along = top - base
    length = float(np.linalg.norm(along))
    if length > 1:
        ax, ay = along / length
        across = ((xx - base[0]) * ay - (yy - base[1]) * ax) / cup.radius_px
    else:
        across = np.hypot(xx - base[0], yy - base[1]) / cup.radius_px
    across = np.clip(across, -1, 1)
    gleam = float(rng.uniform(-0.5, 0.5))
    side = 0.45 + 0.4 * np.sqrt(1 - across**2) + 0.35 * np.exp(-(((across - gleam) / 0.12) ** 2))
    m = polygon_mask([cup.body], region)[..., None]
    patch[:] = patch * (1 - m) + (colour * light) * side[..., None] * m
    for poly, c in ((cup.rim, colour * 1.05), (cup.inside, colour * 0.55)):
        m = polygon_mask([poly], region)[..., None]
        patch[:] = patch * (1 - m) + c * light * m
    m = (polygon_mask([cup.inside], region) * polygon_mask([cup.drink], region))[..., None]
    patch[:] = patch * (1 - m) + drink * light * 0.8 * m


def _convex(poly: np.ndarray) -> np.ndarray:
    return cv2.convexHull(poly.astype(F32))[:, 0]


def place_clutter(
    rng: np.random.Generator,
    canvas: np.ndarray,
    gain: np.ndarray,
    cam: Camera,
    placed: list[Placed],
    light: Lighting,
    table: tuple[float, float, float, float],
) -> list[tuple[str, np.ndarray]]:
    """A few things near the frame's edge, never over a card (and so never over a banner);
    returns what each is and its outline in the (undistorted) picture."""
    count = int(rng.choice([0, 1, 2, 3], p=[0.35, 0.35, 0.2, 0.1]))
    if not count:
        return []
    h, w = canvas.shape[:2]
    keep_clear = [_convex(cam.page_quad(card_corners(c, grow=8))) for c in placed]
    frame = np.array([[0, 0], [w, 0], [w, h], [0, h]], F32)
    inverse = np.linalg.inv(cam.plane(0))
    put: list[tuple[str, np.ndarray]] = []
    for _ in range(count):
        kind = str(rng.choice(["cup", "pen", "phone", "score pad", "napkin"]))
        for _attempt in range(12):
            side = int(rng.integers(4))
            along, inward = rng.uniform(0.05, 0.95), rng.uniform(-0.04, 0.14)
            u, v = [
                (along * w, inward * h),
                (along * w, (1 - inward) * h),
                (inward * w, along * h),
                ((1 - inward) * w, along * h),
            ][side]
            p = inverse @ [u, v, 1]
            x, y = p[0] / p[2], p[1] / p[2]
            if not (table[0] + 40 < x < table[1] - 40 and table[2] + 40 < y < table[3] - 40):
                continue
            angle = float(rng.uniform(0, 2 * math.pi))
            if kind == "cup":
                radius, height = float(rng.uniform(36, 46)), float(rng.uniform(75, 100))
                cup = see_cup(cam, x, y, radius, height)
                hull = _convex(cup.body)
                rim_x, rim_y = cup.axis[1]
                if not (0 < rim_x < w and 0 < rim_y < h):
                    continue  # a cup is seen by its rim
            else:
                image, (tw, th), z = FLAT_THINGS[kind](rng)
                c, s = math.cos(angle), math.sin(angle)
                local = np.array([[-tw, th], [tw, th], [tw, -th], [-tw, -th]]) / 2
                world = local @ np.array([[c, s], [-s, c]]) + [x, y]
                quad = cam.project(np.column_stack([world, np.full(4, z)]))
                hull = _convex(quad)
            in_view = _overlap(hull, frame) / max(cv2.contourArea(hull.astype(F32)), 1.0)
            if in_view < 0.4 or any(_overlap(hull, clear) > 0 for clear in keep_clear):
                continue
            px_per_mm = math.sqrt(max(cv2.contourArea(hull), 1.0)) / 100
            if kind == "cup":
                foot = np.column_stack(
                    [
                        x + radius * np.cos(np.linspace(0, 2 * math.pi, 32)),
                        y + radius * np.sin(np.linspace(0, 2 * math.pi, 32)),
                    ]
                )
                tall = foot + light.shadow_per_mm * height
                shadow = cam.project(np.column_stack([np.concatenate([foot, tall]), np.zeros(64)]))
                cast_shadow(
                    canvas,
                    _convex(shadow),
                    (2 + light.penumbra * height) * px_per_mm,
                    light.shadow_strength,
                )
                _draw_cup(rng, canvas, gain, cup)
            else:
                foot = world + light.shadow_per_mm * z
                shadow = cam.project(np.column_stack([foot, np.zeros(4)]))
                blur = (1 + light.penumbra * z) * px_per_mm
                cast_shadow(canvas, shadow, blur, light.shadow_strength, image[..., 3])
                lay_flat(canvas, image, quad, gain)
            keep_clear.append(hull)
            put.append((kind, hull))
            break
    return put


# ---------------------------------------------------------------------------------------
# The lens: depth of field, a shaking hand, distortion


def depth_of_field(
    rng: np.random.Generator, img: np.ndarray, g: Ground, cam: Camera, focus_depth: float
) -> float:
    """Blur each pixel by its circle of confusion (focused on the collection); returns the
    largest blur in px. A phone's aperture is a few mm across."""
    aperture = float(rng.uniform(3.0, 4.6))
    inv_depth = g.inv_depth[::4, ::4]  # smooth: its blend weights are worked out coarse
    coc = aperture * cam.focal * np.abs(inv_depth - 1 / focus_depth)  # diameter, px
    sigma = np.clip(coc / 2.4, 0, 12).astype(F32)
    top = float(sigma.max())
    if top < 0.35:
        return top
    levels = [0.0]
    while levels[-1] < top:
        levels.append(max(0.5, levels[-1] * 2))
    h, w = img.shape[:2]
    out = np.zeros_like(img)
    for i, s in enumerate(levels):
        lower = levels[i - 1] if i else s - 1
        upper = levels[i + 1] if i + 1 < len(levels) else s + 1
        weight = np.where(
            sigma < s,
            np.clip((sigma - lower) / (s - lower), 0, 1),
            np.clip((upper - sigma) / (upper - s), 0, 1),
        ).astype(F32)
        if not weight.any():
            continue
        out += _blurred(img, s) * cv2.resize(weight, (w, h))[..., None]
    img[:] = out
    return top


def _blurred(img: np.ndarray, sigma: float) -> np.ndarray:
    """A Gaussian blur; a wide one is done smaller, where it loses nothing and costs less."""
    if sigma == 0:
        return img
    step = min(4, int(sigma // 1.5))
    h, w = img.shape[:2]
    if step < 2 or min(h, w) < 8 * step:
        return cv2.GaussianBlur(img, (0, 0), sigma)
    small = cv2.resize(img, (max(1, w // step), max(1, h // step)), interpolation=cv2.INTER_AREA)
    return cv2.resize(cv2.GaussianBlur(small, (0, 0), sigma / step), (w, h))


def shake(rng: np.random.Generator, img: np.ndarray, scale: float) -> float:
    """The odd slight motion blur of a hand that moved during the exposure."""
    if rng.random() > 0.18:
        return 0.0
    length = float(rng.uniform(1.5, 5)) * scale
    angle = rng.uniform(0, math.pi)
    n = math.ceil(length) * 2 + 1
    kernel = np.zeros((n, n), F32)
    c = n // 2
    dx, dy = length / 2 * math.cos(angle), length / 2 * math.sin(angle)
    cv2.line(
        kernel,
        (round((c - dx) * 16), round((c - dy) * 16)),
        (round((c + dx) * 16), round((c + dy) * 16)),
        1.0,
        1,
        cv2.LINE_AA,
        shift=4,
    )
    kernel /= kernel.sum()
    img[:] = cv2.filter2D(img, -1, kernel)
    return length


@dataclass(frozen=True)
class Distortion:
    """Radial distortion left after the phone's own correction: an undistorted point lies
    at centre + (p - centre) (1 + k1 r^2 + k2 r^4) for a pixel p of the photo (r over the
    half diagonal)."""

    k1: float
    k2: float
    width: int
    height: int

    @property
    def _reach(self) -> float:
        """The largest factor on the photo's border: dividing by it keeps every sample
        inside the rendered picture, as a phone crops after correcting its lens."""
        r2 = np.linspace(min(self.width, self.height) ** 2 / (self.width**2 + self.height**2), 1)
        return float(np.max(1 + self.k1 * r2 + self.k2 * r2 * r2))

    def _factor(self, dx: np.ndarray, dy: np.ndarray) -> np.ndarray:
        r2 = (dx * dx + dy * dy) / ((self.width / 2) ** 2 + (self.height / 2) ** 2)
        return (1 + self.k1 * r2 + self.k2 * r2 * r2) / self._reach

    def maps(self, g: Ground) -> tuple[np.ndarray, np.ndarray]:
        """cv2.remap's maps, worked out on the ground's coarse grid (they are smooth)."""
        cx, cy = (self.width - 1) / 2, (self.height - 1) / 2
        dx, dy = g.coarse_u - cx, g.coarse_v - cy
        f = self._factor(dx, dy)
        return g.up((cx + dx * f).astype(F32)), g.up((cy + dy * f).astype(F32))

    def forward(self, pts: np.ndarray) -> np.ndarray:
        """Where undistorted image points land in the photo."""
        c = np.array([(self.width - 1) / 2, (self.height - 1) / 2])
        d = pts - c
        out = d.copy()
        for _ in range(20):
            out = d / self._factor(out[:, 0], out[:, 1])[:, None]
        return out + c


# ---------------------------------------------------------------------------------------
# The phone's processing


LUMA_BGR = np.array([0.0722, 0.7152, 0.2126], F32)


def develop(
    rng: np.random.Generator, img: np.ndarray, scale: float, cast: np.ndarray
) -> tuple[bytes, np.ndarray, dict[str, Any]]:
    """Auto white balance and exposure, sensor noise, tone curve, denoise, sharpening, JPEG.
    `cast` is the colour of the light on the collection."""
    h, w = img.shape[:2]
    # White balance corrects most of a light's colour, not all: warm rooms stay warmish.
    correction = float(rng.uniform(0.55, 0.9))
    wb = (float(cast @ LUMA_BGR) / np.maximum(cast, 1e-6)) ** correction
    wb /= wb @ LUMA_BGR
    lum = img[::8, ::8].reshape(-1, 3) @ (wb * LUMA_BGR).astype(F32)
    exposure = float(rng.uniform(0.8, 0.97)) / max(float(np.percentile(lum, 99.5)), 1e-6)
    img *= (wb * exposure).astype(F32)

    shot, read = float(rng.uniform(0.0004, 0.004)), float(rng.uniform(2e-6, 4e-5))
    y = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    sigma = np.sqrt(np.clip(y, 0, None) * shot + read)
    img += (rng.standard_normal((h, w), dtype=F32) * sigma)[..., None]
    chroma = rng.standard_normal((h // 2, w // 2, 3), dtype=F32)
    img += cv2.resize(chroma, (w, h), interpolation=cv2.INTER_LINEAR) * (sigma * 0.8)[..., None]

    contrast, lift = float(rng.uniform(0.0, 0.4)), float(rng.uniform(0.0, 0.025))
    x = np.linspace(0, 1, 4096)
    toned = x ** (1 / 2.2)
    toned = (1 - contrast) * toned + contrast * toned * toned * (3 - 2 * toned)
    curve = np.round(255 * (lift + (1 - lift) * toned)).astype(np.uint8)
    index = np.clip(img * 4095 + 0.5, 0, 4095).astype(np.uint16)
    out = curve[index]

    ycc = cv2.cvtColor(out, cv2.COLOR_BGR2YCrCb)
    luma, cr, cb = cv2.split(ycc)
    chroma_blur = float(rng.uniform(1.0, 2.5)) * scale
    cr = cv2.GaussianBlur(cr, (0, 0), chroma_blur)
    cb = cv2.GaussianBlur(cb, (0, 0), chroma_blur)
    smooth = float(rng.uniform(0.2, 0.7))
    luma = cv2.addWeighted(luma, 1 - smooth, cv2.GaussianBlur(luma, (0, 0), 0.8 * scale), smooth, 0)
    amount, radius = float(rng.uniform(0.3, 1.1)), float(rng.uniform(0.9, 2.0)) * scale
    luma = cv2.addWeighted(luma, 1 + amount, cv2.GaussianBlur(luma, (0, 0), radius), -amount, 0)
    processed = cv2.cvtColor(cv2.merge([luma, cr, cb]), cv2.COLOR_YCrCb2BGR)

    quality = int(rng.integers(80, 96))
    ok, jpeg = cv2.imencode(
        ".jpg",
        processed,
        [
            cv2.IMWRITE_JPEG_QUALITY,
            quality,
            cv2.IMWRITE_JPEG_SAMPLING_FACTOR,
            cv2.IMWRITE_JPEG_SAMPLING_FACTOR_420,
        ],
    )
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    image = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
    if image is None:
        raise RuntimeError("JPEG decoding failed")
    return (
        jpeg.tobytes(),
        image,
        {
            "jpeg_quality": quality,
            "noise_shot": round(shot, 5),
            "sharpen": round(amount, 2),
            "denoise": round(smooth, 2),
            "contrast": round(contrast, 2),
            "white_balance_correction": round(correction, 2),
        },
    )


# ---------------------------------------------------------------------------------------
# The photo


def _table_extent(
    rng: np.random.Generator, placed: list[Placed]
) -> tuple[float, float, float, float]:
    """The table top around the collection (world mm): some photos see its edge."""
    world = page_to_world(np.concatenate([card_corners(c) for c in placed]))
    lo, hi = world[:, :2].min(axis=0), world[:, :2].max(axis=0)
    m = rng.uniform(120, 900, 4)
    return float(lo[0] - m[0]), float(hi[0] + m[1]), float(lo[1] - m[2]), float(hi[1] + m[3])


def _labels(drawn: list[DrawnCard], idmap: np.ndarray, lens: Distortion) -> list[SceneCard]:
    h, w = idmap.shape
    cards = []
    for i, card in enumerate(drawn):
        quad = lens.forward(card.quad)
        region = _region(quad, (h, w), pad=3)
        box: tuple[float, float, float, float] | None = None
        shows = 0
        if region is not None:
            x0, y0, x1, y1 = region
            mine = (idmap[y0:y1, x0:x1] == i).astype(np.uint8)
            bx, by, bw, bh = cv2.boundingRect(mine)
            shows = int(mine.sum())
            if bw and bh:
                box = (float(x0 + bx), float(y0 + by), float(x0 + bx + bw), float(y0 + by + bh))
        if box is None:
            lo = np.clip(quad.min(axis=0), 0, [w - 1, h - 1])
            hi = np.clip(quad.max(axis=0), lo + 1, [w, h])
            box = (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1]))
        cards.append(
            SceneCard(
                kind=card.placed.kind,
                pile=card.placed.pile,
                quad=quad.astype(np.float64),
                box=box,
                visible=float(min(1.0, shows / max(card.area, 1))),
                on_wasabi=card.placed.wasabi,
            )
        )
    return cards


def _outline_box(outline: np.ndarray, lens: Distortion) -> list[float]:
    pts = lens.forward(outline.astype(np.float64))
    lo = np.clip(pts.min(axis=0), 0, [lens.width, lens.height])
    hi = np.clip(pts.max(axis=0), 0, [lens.width, lens.height])
    return [round(float(v), 1) for v in (*lo, *hi)]


def make_other_scene(
    rng: np.random.Generator, faces: FacePool, *, size: int, players: int | None = None
) -> Scene:
    """One phone photo of one player's collection, with exact labels; see the module doc."""
    collection = deal_collection(rng, players=players)
    placed, layout, shifts = lay_out_collection(collection, rng)
    width, height = frame_size(rng, size)
    cam, cam_meta = aim_camera(rng, placed, width, height)
    table = _table_extent(rng, placed)
    ground = see_ground(cam, table)
    centre = page_to_world(
        np.array([[np.mean([c.x for c in placed]), np.mean([c.y for c in placed])]])
    )[0]
    light = light_the_room(rng, centre)
    scale = size / 2016

    albedo, surface = draw_table(rng, ground)
    coarse_gain = illumination(light, ground, centre)
    vig = float(rng.uniform(0.05, 0.3))
    gain = ground.up(coarse_gain * vignette(ground, vig)[..., None])
    canvas = albedo * gain
    glossy = surface.startswith(("laminate", "stone/marble", "wood"))
    hotspot = specular_hotspot(
        light, cam, ground, float(rng.uniform(0.1, 0.6)) if glossy else 0.0, rng
    )
    if hotspot is not None:
        canvas += hotspot * ground.on_table[..., None]
    clutter = place_clutter(rng, canvas, gain, cam, placed, light, table)
    idmap = np.full(ground.shape, -1, np.int16)
    drawn, card_meta = draw_cards(rng, canvas, gain, faces, cam, placed, light, idmap)

    focus = float(
        np.median((page_to_world(np.array([[c.x, c.y] for c in placed])) - cam.centre) @ cam.r[2])
    )
    defocus = depth_of_field(rng, canvas, ground, cam, focus)
    motion = shake(rng, canvas, scale)
    lens = Distortion(
        float(rng.uniform(-0.03, 0.03)), float(rng.uniform(-0.01, 0.01)), width, height
    )
    map_x, map_y = lens.maps(ground)
    photo = cv2.remap(canvas, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    shown = cv2.remap(
        idmap, map_x, map_y, cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT, borderValue=-1
    )
    cast = _local_gain(coarse_gain, ground_to_coarse(cam, centre, coarse_gain.shape))
    jpeg, image, photo_meta = develop(rng, photo, scale, cast)

    meta: dict[str, Any] = {
        "renderer": "other",
        "style": layout,
        "stack_shifts": shifts,
        "width": width,
        "height": height,
        **cam_meta,
        "table": surface,
        "table_edge_in_view": bool(float(ground.on_table.min()) < 1),
        **light.meta,
        "vignetting": round(vig, 3),
        "table_gloss": hotspot is not None,
        "clutter": [{"what": what, "box": _outline_box(hull, lens)} for what, hull in clutter],
        **card_meta,
        "defocus_px": round(defocus, 2),
        "motion_blur": round(motion, 2),
        "distortion_k1": round(lens.k1, 4),
        **photo_meta,
    }
    return Scene(image, jpeg, _labels(drawn, shown, lens), collection, meta)
