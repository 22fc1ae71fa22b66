"""A photo of one player's collection: table, cards, camera, light, and exact labels.

The labels come from the geometry that made the image: every card is pasted with its own
warped alpha, and a label map keeps, per pixel, the topmost card. A card's box is the
bounding box of the pixels where it is on top, so a card covered in a column is boxed
by the strip that shows, and a wasabi under a nigiri by its banner.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from datasets.collection import Collection, deal_collection
from datasets.faces import FacePool
from datasets.layout import LAYOUT_STYLES, PlacedCard, lay_out
from datasets.table import draw_clutter, surface

MIN_VISIBLE = 0.08  # a card showing less than this share of itself is never made


@dataclass(frozen=True)
class SceneCard:
    kind: str
    pile: int
    quad: np.ndarray  # (4, 2) image px of the whole card, TL TR BR BL
    box: tuple[float, float, float, float]  # visible part, x1 y1 x2 y2 in image px
    visible: float  # share of the card's area that shows
    on_wasabi: int | None  # for a nigiri in a stack: index of its wasabi in Scene.cards


@dataclass
class Scene:
    image: np.ndarray  # BGR uint8, after the JPEG round trip
    jpeg: bytes
    cards: list[SceneCard]
    collection: Collection
    meta: dict[str, Any] = field(default_factory=dict)

    def tally(self) -> dict[str, int]:
        """The tally recomputed from the labels alone (a stack = a nigiri over a wasabi)."""
        from scoring.cards import TALLY_KEYS

        counts = dict.fromkeys(TALLY_KEYS, 0)
        under = {c.on_wasabi for c in self.cards if c.on_wasabi is not None}
        for i, card in enumerate(self.cards):
            if i in under:
                continue
            key = f"{card.kind}_on_wasabi" if card.on_wasabi is not None else card.kind
            counts[key] += 1
        return counts


def _camera(tilt_deg: float, yaw_deg: float, distance: float) -> np.ndarray:
    """Homography from the table plane (mm, centred) to normalised camera coordinates."""
    t, y = math.radians(tilt_deg), math.radians(yaw_deg)
    rz = np.array([[math.cos(y), -math.sin(y), 0], [math.sin(y), math.cos(y), 0], [0, 0, 1]])
    rx = np.array([[1, 0, 0], [0, math.cos(t), -math.sin(t)], [0, math.sin(t), math.cos(t)]])
    r = rx @ rz
    return np.column_stack([r[:, 0], r[:, 1], [0, 0, distance]])


def _apply(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(pts.reshape(-1, 1, 2).astype(np.float64), h).reshape(-1, 2)


def make_scene(
    rng: np.random.Generator,
    faces: FacePool,
    *,
    size: int = 640,
    players: int | None = None,
    style: str | None = None,
) -> Scene:
    """Render one photo whose long side is `size` px."""
    collection = deal_collection(rng, players=players)
    if style is None:
        style = str(rng.choice(LAYOUT_STYLES, p=[0.3, 0.3, 0.25, 0.15]))
    placed = lay_out(collection, rng, style)

    # Frame: landscape or portrait, 4:3 mostly.
    aspect = float(rng.choice([4 / 3, 4 / 3, 16 / 9, 3 / 2]))
    if rng.random() < 0.5:
        width, height = size, round(size / aspect)
    else:
        width, height = round(size / aspect), size

    # Camera: straight down to about 45 degrees, turned a little, some perspective.
    corners = np.concatenate([c.corners for c in placed])
    centre = (corners.min(0) + corners.max(0)) / 2
    extent = float(np.linalg.norm(corners.max(0) - corners.min(0)))
    tilt = float(rng.uniform(0, 45) if rng.random() < 0.85 else rng.uniform(35, 48))
    yaw = float(rng.normal(0, 8)) if rng.random() < 0.8 else float(rng.uniform(-30, 30))
    to_camera = _camera(
        tilt * (1 if rng.random() < 0.8 else -1), yaw, extent * rng.uniform(1.0, 2.5)
    )
    centring = np.array([[1, 0, -centre[0]], [0, 1, -centre[1]], [0, 0, 1]], float)
    h_cam = to_camera @ centring
    projected = _apply(h_cam, corners)
    lo, hi = projected.min(0), projected.max(0)
    fill = float(rng.uniform(0.3, 0.95))
    scale = fill * min(width / (hi - lo)[0], height / (hi - lo)[1])
    span = (hi - lo) * scale
    off_x = rng.uniform(0, max(1e-6, width - span[0])) - lo[0] * scale
    off_y = rng.uniform(0, max(1e-6, height - span[1])) - lo[1] * scale
    fit = np.array([[scale, 0, off_x], [0, scale, off_y], [0, 0, 1]])
    homography = fit @ h_cam  # table mm -> image px

    image, clutter = _table(rng, homography, width, height, _apply(homography, corners))
    label_map = np.zeros((height, width), np.int16)
    full_area: list[float] = []
    quads: list[np.ndarray] = []
    for index, card in enumerate(placed):
        quad = _apply(homography, card.corners).astype(np.float32)
        quads.append(quad)
        full_area.append(_paste(image, label_map, quad, card, faces, rng, index + 1))

    cards = _labels(placed, quads, label_map, full_area)
    image, meta = _photograph(image, rng)
    meta["clutter"] = clutter
    meta.update(
        tilt=round(abs(tilt), 1),
        yaw=round(yaw, 1),
        fill=round(fill, 3),
        width=width,
        height=height,
        style=style,
        card_height_px=round(float(np.median([_height(q) for q in quads])), 1),
    )
    quality = int(rng.integers(50, 96))
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    jpeg = buf.tobytes()
    meta["jpeg_quality"] = quality
    decoded = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    return Scene(decoded, jpeg, cards, collection, meta)


def _height(quad: np.ndarray) -> float:
    return float(np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2


def _table(
    rng: np.random.Generator,
    homography: np.ndarray,
    width: int,
    height: int,
    card_points: np.ndarray,
) -> tuple[np.ndarray, list[dict[str, Any]]]:
    """The table surface under the whole frame, drawn flat and seen through the camera,
    and the clutter on it with its box in the image."""
    inverse = np.linalg.inv(homography)
    frame = np.array([[0, 0], [width, 0], [width, height], [0, height]], float)
    region = _apply(inverse, frame)
    lo, hi = region.min(0), region.max(0)
    span = hi - lo
    # Texture resolution: about one texel per output pixel where the table is nearest.
    ppm = min(max(width, height) * 1.2 / max(span), 4000 / max(span))
    tw, th = max(8, int(span[0] * ppm)), max(8, int(span[1] * ppm))
    texture = surface(rng, th, tw)
    to_texture = np.array([[ppm, 0, -lo[0] * ppm], [0, ppm, -lo[1] * ppm], [0, 0, 1]])
    cards_tex = _apply(to_texture @ inverse, card_points)
    margin = 20 * ppm
    keep_out = (*(cards_tex.min(0) - margin), *(cards_tex.max(0) + margin))
    drawn = draw_clutter(texture, rng, ppm, keep_out)  # type: ignore[arg-type]
    warp = homography @ np.linalg.inv(to_texture)
    clutter = []
    for what, (x1, y1, x2, y2) in drawn:
        seen = _apply(warp, np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]], float))
        lo_px = np.clip(seen.min(0), 0, [width, height])
        hi_px = np.clip(seen.max(0), 0, [width, height])
        if (hi_px - lo_px).min() > 4:
            clutter.append({"what": what, "box": [round(float(v), 1) for v in (*lo_px, *hi_px)]})
    image = cv2.warpPerspective(
        texture, warp, (width, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
    )
    return image, clutter


def _paste(
    image: np.ndarray,
    label_map: np.ndarray,
    quad: np.ndarray,
    card: PlacedCard,
    faces: FacePool,
    rng: np.random.Generator,
    label: int,
) -> float:
    """Warp one face onto the image with a soft shadow; returns the card's area in px."""
    h_img, w_img = image.shape[:2]
    card_h = _height(quad)
    pad = int(max(4, card_h * 0.08))
    x0 = max(0, int(np.floor(quad[:, 0].min())) - pad)
    y0 = max(0, int(np.floor(quad[:, 1].min())) - pad)
    x1 = min(w_img, int(np.ceil(quad[:, 0].max())) + pad)
    y1 = min(h_img, int(np.ceil(quad[:, 1].max())) + pad)
    if x1 <= x0 or y1 <= y0:
        return 0.0
    roi_w, roi_h = x1 - x0, y1 - y0
    face = faces.pick(card.kind, rng, card_h)
    fh, fw = face.shape[:2]
    src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    warp = cv2.getPerspectiveTransform(src, quad - np.array([x0, y0], np.float32))
    warped = cv2.warpPerspective(
        face,
        warp,
        (roi_w, roi_h),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(0, 0, 0, 0),
    )
    alpha = warped[..., 3].astype(np.float32) / 255.0
    roi = image[y0:y1, x0:x1].astype(np.float32)

    # A soft shadow, offset away from the light.
    shift = card_h * rng.uniform(0.01, 0.035)
    m = np.float32([[1, 0, shift], [0, 1, shift * 0.8]])
    shadow = cv2.warpAffine(alpha, m, (roi_w, roi_h))
    k = int(card_h * 0.04) * 2 + 1
    shadow = cv2.GaussianBlur(shadow, (k, k), 0) * rng.uniform(0.2, 0.45)
    roi *= (1 - shadow)[..., None]

    roi = roi * (1 - alpha[..., None]) + warped[..., :3].astype(np.float32) * alpha[..., None]
    image[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)
    covered = alpha > 0.5
    label_map[y0:y1, x0:x1][covered] = label
    return float(covered.sum())


def _labels(
    placed: list[PlacedCard], quads: list[np.ndarray], label_map: np.ndarray, full_area: list[float]
) -> list[SceneCard]:
    cards: list[SceneCard] = []
    for index, (card, quad) in enumerate(zip(placed, quads, strict=True)):
        x0 = max(0, int(quad[:, 0].min()) - 2)
        y0 = max(0, int(quad[:, 1].min()) - 2)
        x1 = int(quad[:, 0].max()) + 3
        y1 = int(quad[:, 1].max()) + 3
        mask = (label_map[y0:y1, x0:x1] == index + 1).astype(np.uint8)
        visible = float(mask.sum()) / max(full_area[index], 1.0)
        bx, by, bw, bh = cv2.boundingRect(_main_part(mask, _height(quad)))
        box = (float(x0 + bx), float(y0 + by), float(x0 + bx + bw), float(y0 + by + bh))
        cards.append(SceneCard(card.kind, card.pile, quad, box, min(1.0, visible), card.on_wasabi))
    return cards


SLIVER = 0.08  # visible slivers thinner than this share of a card's height are not boxed


def _main_part(mask: np.ndarray, card_h: float) -> np.ndarray:
    """The card's main visible region, without the thin slivers along the edges of the
    card lying on it (a nigiri laid a little askew on its wasabi shows wasabi slivers down
    both sides; boxing those would stretch a strip's box to the whole card)."""
    k = max(1, round(SLIVER * card_h))
    opened = cv2.morphologyEx(
        mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    )
    count, labels, stats, _ = cv2.connectedComponentsWithStats(opened, connectivity=8)
    if count <= 1:
        return mask  # too small to open: keep what shows
    largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    return (labels == largest).astype(np.uint8)


def _photograph(image: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, dict[str, Any]]:
    """Light, lens and sensor: uneven light, colour temperature, glare, blur, noise."""
    h, w = image.shape[:2]
    img = image.astype(np.float32)
    meta: dict[str, Any] = {}
    gain = float(rng.uniform(0.75, 1.2)) if rng.random() < 0.85 else float(rng.uniform(0.3, 0.6))
    meta["gain"] = round(gain, 3)
    yy, xx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    gx, gy = rng.uniform(-1, 1, 2)
    field_small = 1 + 0.25 * (gx * (xx / w - 0.5) + gy * (yy / h - 0.5))
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    field_small += (
        0.25
        * rng.uniform(-1, 1)
        * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (0.2 * (w * w + h * h)))
    )
    light = cv2.resize(field_small, (w, h), interpolation=cv2.INTER_LINEAR) * gain
    warmth = rng.uniform(-0.12, 0.12)
    img *= light[..., None] * np.array([1 - warmth, 1.0, 1 + warmth], np.float32)
    if rng.random() < 0.3:  # glare from a lamp or window
        glare = np.zeros((h // 4 + 1, w // 4 + 1), np.float32)
        centre = (int(rng.uniform(0, w / 4)), int(rng.uniform(0, h / 4)))
        axes = (int(rng.uniform(0.03, 0.15) * w / 4) + 1, int(rng.uniform(0.02, 0.1) * h / 4) + 1)
        cv2.ellipse(glare, centre, axes, rng.uniform(0, 180), 0, 360, 1.0, -1)
        glare = cv2.GaussianBlur(glare, (0, 0), max(1.0, axes[0] * 0.5))
        img += cv2.resize(glare, (w, h))[..., None] * rng.uniform(60, 200)
        meta["glare"] = True
    blur = rng.uniform(0, 1.2) * max(h, w) / 640
    if rng.random() < 0.5 and blur > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    if rng.random() < 0.15:  # hand shake
        length = max(3, int(rng.uniform(0.004, 0.012) * max(h, w)))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1.0 / length
        rot = cv2.getRotationMatrix2D(
            (length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1.0
        )
        kernel = cv2.warpAffine(kernel, rot, (length, length))
        img = cv2.filter2D(img, -1, kernel / max(kernel.sum(), 1e-6))
        meta["motion_blur"] = True
    sigma = rng.uniform(1.5, 6.0) * (1.8 if gain < 0.6 else 1.0)
    noise = rng.normal(0, sigma, (h // 2 + 1, w // 2 + 1, 1)).astype(np.float32)
    img += cv2.resize(noise, (w, h))[..., None]
    return np.clip(img, 0, 255).astype(np.uint8), meta
