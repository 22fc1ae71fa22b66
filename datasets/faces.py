"""The deck model: procedural card faces as card-spec.md draws them, and face pools.

A face is an RGBA uint8 image, portrait at the printed card's proportions (layout.py),
transparent outside the rounded corners. The detector learns the printed deck, read from a
deck folder (datasets/deck.py) into a `FacePool`; the procedural faces drawn here are an
old made-up deck, kept only so that tests have a deck where no scans are at hand.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from datasets.layout import CARD_ASPECT
from scoring.cards import CARD_KINDS

FACE_HEIGHT = 616  # px; spec asks for at least 600
FACE_WIDTH = round(FACE_HEIGHT * CARD_ASPECT)

# Face colours from card-spec.md, as RGB.
FACE_RGB: dict[str, tuple[int, int, int]] = {
    "tempura": (0x8B, 0x5F, 0xBF),
    "sashimi": (0x7D, 0xBA, 0x3C),
    "dumpling": (0x4F, 0x7F, 0xD0),
    "maki_1": (0xD8, 0x34, 0x3F),
    "maki_2": (0xD8, 0x34, 0x3F),
    "maki_3": (0xD8, 0x34, 0x3F),
    "egg": (0xF4, 0xC5, 0x42),
    "salmon": (0xF4, 0xC5, 0x42),
    "squid": (0xF4, 0xC5, 0x42),
    "wasabi": (0xF4, 0xC5, 0x42),
    "pudding": (0xF4, 0x9A, 0xC1),
    "chopsticks": (0x5C, 0xC6, 0xD0),
}
NAME = {
    "tempura": "TEMPURA",
    "sashimi": "SASHIMI",
    "dumpling": "DUMPLING",
    "maki_1": "MAKI ROLL",
    "maki_2": "MAKI ROLL",
    "maki_3": "MAKI ROLL",
    "egg": "EGG NIGIRI",
    "salmon": "SALMON NIGIRI",
    "squid": "SQUID NIGIRI",
    "wasabi": "WASABI",
    "pudding": "PUDDING",
    "chopsticks": "CHOPSTICKS",
}
HINT = {
    "tempura": "x2 = 5",
    "sashimi": "x3 = 10",
    "dumpling": "1 3 6 10 15",
    "maki_1": "most 6 / 3",
    "maki_2": "most 6 / 3",
    "maki_3": "most 6 / 3",
    "egg": "1",
    "salmon": "2",
    "squid": "3",
    "wasabi": "x3 next nigiri",
    "pudding": "most 6 / least -6",
    "chopsticks": "swap for 2",
}
MAKI_ICONS = {"maki_1": 1, "maki_2": 2, "maki_3": 3}
# How a face is lettered: one of OpenCV's Hershey fonts, drawn with a line thickness.
FONTS = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
)


BGR = tuple[int, int, int]


def _bgr(rgb: tuple[int, int, int]) -> BGR:
    return (rgb[2], rgb[1], rgb[0])


def _jitter(colour: BGR, rng: np.random.Generator, amount: int) -> BGR:
    shifted = np.clip(np.array(colour) + rng.integers(-amount, amount + 1, 3), 0, 255)
    return (int(shifted[0]), int(shifted[1]), int(shifted[2]))


def _mix(a: BGR, b: BGR, t: float) -> BGR:
    return (
        int(a[0] + (b[0] - a[0]) * t),
        int(a[1] + (b[1] - a[1]) * t),
        int(a[2] + (b[2] - a[2]) * t),
    )


def _rounded_mask(h: int, w: int, radius: int, inset: int = 0) -> np.ndarray:
    mask = np.zeros((h, w), np.uint8)
    x0, y0, x1, y1 = inset, inset, w - 1 - inset, h - 1 - inset
    r = max(1, radius - inset)
    cv2.rectangle(mask, (x0 + r, y0), (x1 - r, y1), 255, -1)
    cv2.rectangle(mask, (x0, y0 + r), (x1, y1 - r), 255, -1)
    for cx, cy in ((x0 + r, y0 + r), (x1 - r, y0 + r), (x0 + r, y1 - r), (x1 - r, y1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return mask


def _fit_text(
    img: np.ndarray,
    text: str,
    box: tuple[int, int, int, int],
    colour: BGR,
    font: int,
    thickness: int,
) -> None:
    """Draw text as large as fits in box (x0, y0, x1, y1), centred vertically."""
    x0, y0, x1, y1 = box
    (tw, th), _ = cv2.getTextSize(text, font, 1.0, thickness)
    scale = min((x1 - x0) / tw, (y1 - y0) * 0.62 / th)
    (tw, th), _ = cv2.getTextSize(text, font, scale, thickness)
    x = x0 + max(0, ((x1 - x0) - tw) // 2)
    y = y0 + ((y1 - y0) + th) // 2
    cv2.putText(img, text, (x, y), font, scale, colour, thickness, cv2.LINE_AA)


# --- illustrations: each draws into img around centre (cx, cy) with size unit s -------------


def maki_roll(img: np.ndarray, cx: float, cy: float, r: float, rng: np.random.Generator) -> None:
    c = (int(cx), int(cy))
    cv2.circle(img, c, int(r), _jitter((30, 45, 25), rng, 8), -1, cv2.LINE_AA)
    cv2.circle(img, c, int(r * 0.74), _jitter((245, 245, 242), rng, 6), -1, cv2.LINE_AA)
    cv2.circle(img, c, int(r * 0.3), _jitter((40, 90, 230), rng, 8), -1, cv2.LINE_AA)


def _rice(img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator) -> None:
    w, h = s * 1.5, s * 0.55
    cv2.ellipse(
        img,
        (int(cx), int(cy + s * 0.25)),
        (int(w / 2), int(h / 2)),
        0,
        0,
        360,
        _jitter((238, 242, 244), rng, 6),
        -1,
        cv2.LINE_AA,
    )
    for _ in range(14):  # rice grains
        gx = cx + rng.uniform(-0.6, 0.6) * w / 2
        gy = cy + s * 0.25 + rng.uniform(-0.5, 0.5) * h / 2
        cv2.ellipse(
            img,
            (int(gx), int(gy)),
            (max(1, int(s * 0.06)), max(1, int(s * 0.025))),
            rng.uniform(0, 180),
            0,
            360,
            (205, 212, 215),
            1,
            cv2.LINE_AA,
        )


def _draw_tempura(img, cx, cy, s, rng):
    cv2.ellipse(
        img,
        (int(cx), int(cy + s * 0.45)),
        (int(s * 0.95), int(s * 0.3)),
        0,
        0,
        360,
        _jitter((235, 235, 230), rng, 8),
        -1,
        cv2.LINE_AA,
    )
    pts = []
    for t in np.linspace(0.15 * math.pi, 1.55 * math.pi, 24):
        rr = s * (0.55 - 0.12 * t / math.pi)
        pts.append((cx + rr * math.cos(t), cy + rr * math.sin(t) * 0.85))
    arr = np.array(pts, np.int32).reshape(-1, 1, 2)
    cv2.polylines(img, [arr], False, _jitter((40, 150, 215), rng, 10), int(s * 0.32), cv2.LINE_AA)
    cv2.polylines(img, [arr], False, _jitter((70, 190, 240), rng, 10), int(s * 0.16), cv2.LINE_AA)
    tail = arr[-1, 0]
    tri = np.array(
        [tail, tail + np.array([s * 0.25, -s * 0.25]), tail + np.array([s * 0.32, s * 0.05])]
    )
    cv2.fillConvexPoly(img, tri.astype(np.int32), _jitter((50, 70, 220), rng, 10), cv2.LINE_AA)


def _draw_sashimi(img, cx, cy, s, rng):
    for i in (-1, 0, 1):
        x = cx + i * s * 0.55
        ang = -20 + rng.uniform(-6, 6)
        cv2.ellipse(
            img,
            (int(x), int(cy)),
            (int(s * 0.26), int(s * 0.6)),
            ang,
            0,
            360,
            _jitter((130, 120, 245), rng, 10),
            -1,
            cv2.LINE_AA,
        )
        for k in (-0.3, 0.0, 0.3):
            cv2.ellipse(
                img,
                (int(x), int(cy + k * s)),
                (int(s * 0.2), int(s * 0.06)),
                ang,
                200,
                340,
                (215, 215, 250),
                max(1, int(s * 0.04)),
                cv2.LINE_AA,
            )


def _draw_dumpling(img, cx, cy, s, rng):
    colour = _jitter((235, 240, 245), rng, 6)
    cv2.ellipse(
        img,
        (int(cx), int(cy + s * 0.15)),
        (int(s * 0.9), int(s * 0.6)),
        0,
        180,
        360,
        colour,
        -1,
        cv2.LINE_AA,
    )
    cv2.ellipse(
        img,
        (int(cx), int(cy + s * 0.15)),
        (int(s * 0.9), int(s * 0.18)),
        0,
        0,
        180,
        colour,
        -1,
        cv2.LINE_AA,
    )
    for k in np.linspace(-0.6, 0.6, 5):  # pleats
        cv2.line(
            img,
            (int(cx + k * s), int(cy - s * 0.42)),
            (int(cx + k * s * 1.1), int(cy - s * 0.1)),
            (180, 190, 200),
            max(1, int(s * 0.05)),
            cv2.LINE_AA,
        )


def _draw_maki(n: int) -> Callable[..., None]:
    def draw(img, cx, cy, s, rng):
        rolls: dict[int, list[tuple[float, float]]] = {
            1: [(0, 0)],
            2: [(-0.5, 0), (0.5, 0)],
            3: [(-0.55, 0.3), (0.55, 0.3), (0, -0.45)],
        }
        offsets = rolls[n]
        r = s * (0.62 if n == 1 else 0.45)
        for dx, dy in offsets:
            maki_roll(img, cx + dx * s * 1.05, cy + dy * s * 1.05, r, rng)

    return draw


def _draw_egg(img, cx, cy, s, rng):
    _rice(img, cx, cy, s, rng)
    cv2.rectangle(
        img,
        (int(cx - s * 0.7), int(cy - s * 0.45)),
        (int(cx + s * 0.7), int(cy + s * 0.1)),
        _jitter((60, 215, 250), rng, 8),
        -1,
        cv2.LINE_AA,
    )
    cv2.rectangle(
        img,
        (int(cx - s * 0.12), int(cy - s * 0.47)),
        (int(cx + s * 0.12), int(cy + s * 0.5)),
        _jitter((35, 45, 30), rng, 6),
        -1,
        cv2.LINE_AA,
    )


def _draw_salmon(img, cx, cy, s, rng):
    _rice(img, cx, cy, s, rng)
    cv2.ellipse(
        img,
        (int(cx), int(cy - s * 0.1)),
        (int(s * 0.8), int(s * 0.32)),
        -8,
        0,
        360,
        _jitter((70, 130, 250), rng, 8),
        -1,
        cv2.LINE_AA,
    )
    for k in np.linspace(-0.5, 0.5, 4):
        cv2.line(
            img,
            (int(cx + k * s - s * 0.1), int(cy - s * 0.35)),
            (int(cx + k * s + s * 0.1), int(cy + s * 0.15)),
            (200, 215, 252),
            max(1, int(s * 0.06)),
            cv2.LINE_AA,
        )


def _draw_squid(img, cx, cy, s, rng):
    _rice(img, cx, cy, s, rng)
    cv2.ellipse(
        img,
        (int(cx), int(cy - s * 0.1)),
        (int(s * 0.8), int(s * 0.3)),
        5,
        0,
        360,
        _jitter((225, 225, 250), rng, 6),
        -1,
        cv2.LINE_AA,
    )
    for k in np.linspace(-0.55, 0.55, 6):
        cv2.line(
            img,
            (int(cx + k * s), int(cy - s * 0.3)),
            (int(cx + k * s), int(cy + s * 0.05)),
            (190, 185, 235),
            max(1, int(s * 0.03)),
            cv2.LINE_AA,
        )


def _draw_wasabi(img, cx, cy, s, rng):
    cv2.ellipse(
        img,
        (int(cx), int(cy + s * 0.3)),
        (int(s * 0.8), int(s * 0.3)),
        0,
        0,
        360,
        _jitter((230, 230, 225), rng, 8),
        -1,
        cv2.LINE_AA,
    )
    pts = np.array(
        [
            (cx - s * 0.5, cy + s * 0.3),
            (cx - s * 0.2, cy - s * 0.35),
            (cx + s * 0.05, cy - s * 0.5),
            (cx + s * 0.3, cy - s * 0.25),
            (cx + s * 0.55, cy + s * 0.3),
        ],
        np.int32,
    )
    cv2.fillPoly(img, [pts], _jitter((60, 175, 95), rng, 10), cv2.LINE_AA)


def _draw_pudding(img, cx, cy, s, rng):
    cup = np.array(
        [
            (cx - s * 0.6, cy - s * 0.2),
            (cx + s * 0.6, cy - s * 0.2),
            (cx + s * 0.45, cy + s * 0.6),
            (cx - s * 0.45, cy + s * 0.6),
        ],
        np.int32,
    )
    cv2.fillConvexPoly(img, cup, _jitter((200, 225, 240), rng, 8), cv2.LINE_AA)
    cv2.ellipse(
        img,
        (int(cx), int(cy - s * 0.2)),
        (int(s * 0.6), int(s * 0.2)),
        0,
        0,
        360,
        _jitter((150, 210, 245), rng, 8),
        -1,
        cv2.LINE_AA,
    )
    cv2.ellipse(
        img,
        (int(cx), int(cy - s * 0.3)),
        (int(s * 0.45), int(s * 0.18)),
        0,
        0,
        360,
        _jitter((30, 80, 150), rng, 8),
        -1,
        cv2.LINE_AA,
    )


def _draw_chopsticks(img, cx, cy, s, rng):
    colour = _jitter((60, 110, 160), rng, 10)
    for ang in (35 + rng.uniform(-5, 5), 145 + rng.uniform(-5, 5)):
        dx, dy = math.cos(math.radians(ang)) * s * 0.95, math.sin(math.radians(ang)) * s * 0.95
        cv2.line(
            img,
            (int(cx - dx), int(cy - dy)),
            (int(cx + dx), int(cy + dy)),
            colour,
            max(2, int(s * 0.12)),
            cv2.LINE_AA,
        )


# Draws one illustration into a face: img, its centre (cx, cy), a size unit s, the face's rng.
Illustrate = Callable[[np.ndarray, float, float, float, np.random.Generator], None]

ILLUSTRATIONS: dict[str, Illustrate] = {
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


def render_face(
    kind: str,
    rng: np.random.Generator,
    *,
    height: int = FACE_HEIGHT,
) -> np.ndarray:
    """One card face of `kind`, RGBA, with the per-card variation card-spec.md allows."""
    if kind not in ILLUSTRATIONS:
        raise ValueError(f"unknown card kind {kind!r}; expected one of {', '.join(CARD_KINDS)}")
    h = height
    w = round(h * CARD_ASPECT)
    radius = round(0.05 * w)
    border = round(0.03 * w)
    face = _jitter(_bgr(FACE_RGB[kind]), rng, 8)
    img = np.full((h, w, 3), 250, np.uint8)
    img[:] = _jitter((248, 248, 246), rng, 5)
    inner = _rounded_mask(h, w, radius, inset=border)
    img[inner > 0] = face

    font = FONTS[int(rng.integers(len(FONTS)))]
    bold = max(1, round(h / 200 * rng.uniform(0.8, 1.5)))
    # Banner: the top 18 %, lighter than the face, name in dark capitals.
    banner_bottom = round(0.18 * h)
    banner = _mix(face, (255, 255, 255), rng.uniform(0.45, 0.65))
    img[border:banner_bottom][inner[border:banner_bottom] > 0] = banner
    text_x0 = border + round(0.04 * w)
    icons = MAKI_ICONS.get(kind, 0)
    if icons:
        icon_r = 0.06 * w  # each icon about 12 % of the card's width
        for i in range(icons):
            icx = border + 0.03 * w + icon_r + i * icon_r * 2.15
            maki_roll(img, icx, (border + banner_bottom) / 2, icon_r, rng)
        text_x0 = round(border + 0.03 * w + icons * icon_r * 2.15 + 0.02 * w)
    _fit_text(
        img,
        NAME[kind],
        (text_x0, border, w - border - round(0.04 * w), banner_bottom),
        _jitter((40, 35, 35), rng, 10),
        font,
        bold + 1,
    )

    # Illustration in the middle 62 %: size +-15 %, position +-5 % of the card.
    s = 0.26 * w * rng.uniform(0.85, 1.15)
    cx = w / 2 + rng.uniform(-0.05, 0.05) * w
    cy = (0.18 + 0.31) * h + rng.uniform(-0.05, 0.05) * h
    ILLUSTRATIONS[kind](img, cx, cy, s, rng)

    # Scoring hint: the bottom 20 %, white text.
    _fit_text(
        img,
        HINT[kind],
        (
            border + round(0.1 * w),
            round(0.82 * h),
            w - border - round(0.1 * w),
            h - border - round(0.02 * h),
        ),
        (255, 255, 255),
        font,
        bold,
    )

    img = _paper(img, rng)
    alpha = _rounded_mask(h, w, radius)
    return np.dstack([img, alpha])


def _paper(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Paper grain and a little wear, so that no two cards are pixel-identical."""
    h, w = img.shape[:2]
    grain: np.ndarray = rng.normal(0, rng.uniform(2, 6), (h // 4 + 1, w // 4 + 1)).astype(
        np.float32
    )
    grain = cv2.resize(grain, (w, h), interpolation=cv2.INTER_LINEAR)
    out = img.astype(np.float32) + grain[..., None]
    for _ in range(int(rng.integers(0, 4))):  # scuffs
        p0 = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        p1 = (
            p0[0] + int(rng.integers(-w // 5, w // 5)),
            p0[1] + int(rng.integers(-h // 8, h // 8)),
        )
        cv2.line(out, p0, p1, (235, 235, 235), 1, cv2.LINE_AA)
    return np.clip(out, 0, 255).astype(np.uint8)


@dataclass
class FacePool:
    """Faces per kind (and the card backs, for the draw pile), each kept at a few sizes
    so that warping never aliases."""

    faces: dict[str, list[list[np.ndarray]]] = field(default_factory=dict)
    backs: list[list[np.ndarray]] = field(default_factory=list)

    @classmethod
    def from_images(
        cls, images: Mapping[str, Iterable[np.ndarray]], *, backs: Iterable[np.ndarray] = ()
    ) -> FacePool:
        return cls(
            {kind: [_mipmaps(face) for face in faces] for kind, faces in images.items()},
            [_mipmaps(back) for back in backs],
        )

    @classmethod
    def rendered(cls, seed: int, per_kind: int = 6) -> FacePool:
        """Procedural faces: a deck for tests where no scans are at hand, never trained on."""
        rng = np.random.default_rng(seed)
        return cls.from_images(
            {k: [render_face(k, rng) for _ in range(per_kind)] for k in CARD_KINDS}
        )

    def pick(self, kind: str, rng: np.random.Generator, height: float) -> np.ndarray:
        """A face of `kind` at the smallest stored size at least `height` px tall."""
        choices = self.faces.get(kind)
        if not choices:
            raise ValueError(f"the face pool has no face for {kind!r}")
        return _level(choices[int(rng.integers(len(choices)))], height)

    def pick_back(self, rng: np.random.Generator, height: float) -> np.ndarray | None:
        """A card back at about `height` px, or None for a deck without one."""
        if not self.backs:
            return None
        return _level(self.backs[int(rng.integers(len(self.backs)))], height)


def _level(levels: list[np.ndarray], height: float) -> np.ndarray:
    for level in reversed(levels):
        if level.shape[0] >= height:
            return level
    return levels[0]


def as_rgba(face: np.ndarray) -> np.ndarray:
    if face.ndim == 2:
        face = cv2.cvtColor(face, cv2.COLOR_GRAY2BGR)
    if face.shape[2] == 3:
        h, w = face.shape[:2]
        face = np.dstack([face, _rounded_mask(h, w, round(0.05 * w))])
    return face


def _mipmaps(face: np.ndarray) -> list[np.ndarray]:
    levels = [face]
    while levels[-1].shape[0] > 40:
        h, w = levels[-1].shape[:2]
        levels.append(cv2.resize(levels[-1], (w // 2, h // 2), interpolation=cv2.INTER_AREA))
    return levels


def write_faces(out: Path, *, per_kind: int, seed: int) -> list[Path]:
    """Render `per_kind` faces of every kind as OUT/<kind>/NNN.png."""
    rng = np.random.default_rng(seed)
    paths = []
    for kind in CARD_KINDS:
        (out / kind).mkdir(parents=True, exist_ok=True)
        for i in range(per_kind):
            path = out / kind / f"{i:03d}.png"
            cv2.imwrite(str(path), render_face(kind, rng))
            paths.append(path)
    return paths
