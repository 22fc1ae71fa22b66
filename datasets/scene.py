"""A photo of one player's collection: table, cards, camera, light, and exact labels.

The labels come from the geometry that made the image: every card is pasted with its own
warped alpha, and a label map keeps, per pixel, the topmost card. A card's box is the
bounding box of the pixels where it is on top, so a card covered in a column is boxed
by the strip that shows, and a wasabi under a nigiri by its top (colour field and
top-left icon).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from datasets.collection import Collection, deal_collection
from datasets.faces import FacePool
from datasets.layout import CARD_H, LAYOUT_STYLES, PlacedCard, lay_out
from datasets.printing import PLAIN, PrintRun, print_run, wear_card
from datasets.table import EXTENT_MM, ClutterItem, draw_item, place_clutter, surface

MIN_VISIBLE = 0.08  # a card showing less than this share of itself is never made
# A phone photo is a 12 MP image reduced: this share of scenes is drawn larger and
# area-averaged down, so edges and fine print look resampled rather than drawn at size.
SUPERSAMPLE = 0.3
SUPERSAMPLE_SCALE = (1.3, 1.6)  # kept small: cost grows with its square (bench_synth)
TOP_KEPT = 0.25  # clutter over a card leaves this top share of it (its icon's strip) open


@dataclass(frozen=True)
class Light:
    """The scene's one light, as the shadows on the table show it: shadows fall `length`
    mm along `direction` (a unit vector on the table plane), this dark and this soft."""

    direction: np.ndarray
    length: float  # mm
    strength: float  # darkening under the shadow's core, 0-1
    softness: float  # blur, as a share of the card's height in the image


def _light(rng: np.random.Generator) -> Light:
    angle = rng.uniform(0, 2 * math.pi)
    return Light(
        np.array([math.cos(angle), math.sin(angle)]),
        float(rng.uniform(0.8, 3.5)),
        float(rng.uniform(0.12, 0.5)),
        float(rng.uniform(0.015, 0.045)),
    )


@dataclass(frozen=True)
class SceneCard:
    kind: str
    pile: int
    quad: np.ndarray  # (4, 2) image px of the whole card, TL TR BR BL
    box: tuple[float, float, float, float]  # visible part, x1 y1 x2 y2 in image px
    visible: float  # share of the card's area that shows
    on_wasabi: int | None  # for a nigiri in a stack: index of its wasabi in Scene.cards
    neighbour: bool = False  # another player's card at the frame's edge: not this tally's


@dataclass
class Scene:
    image: np.ndarray  # BGR uint8, after the JPEG round trip
    jpeg: bytes
    cards: list[SceneCard]
    collection: Collection
    meta: dict[str, Any] = field(default_factory=dict)

    def tally(self) -> dict[str, int]:
        """The tally recomputed from the labels alone (a stack = a nigiri over a wasabi);
        a neighbour's cards are not this player's."""
        from scoring.cards import TALLY_KEYS

        counts = dict.fromkeys(TALLY_KEYS, 0)
        under = {c.on_wasabi for c in self.cards if c.on_wasabi is not None}
        for i, card in enumerate(self.cards):
            if i in under or card.neighbour:
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
    tables: tuple[str, ...] | None = None,
    printing: PrintRun | None = None,
    neighbour: bool = False,
) -> Scene:
    """Render one photo whose long side is `size` px, on one of `tables` (table.surface
    kinds; default: any of table.SURFACES), of a deck printed as `printing` (default: a
    print run drawn for this photo, printing.print_run). With `neighbour`, the next
    player's collection lies beside this one, as at a real table: the frame is this
    collection's, so the neighbour's cards show at its edge or not at all (never
    training data: benchmarks/probe_neighbour.py)."""
    collection = deal_collection(rng, players=players)
    if style is None:
        style = str(rng.choice(LAYOUT_STYLES, p=[0.3, 0.3, 0.25, 0.15]))
    placed = lay_out(collection, rng, style)
    own = len(placed)
    if neighbour:
        placed += _neighbours_cards(placed, collection.players, rng)

    # Frame: landscape or portrait, 4:3 mostly.
    aspect = float(rng.choice([4 / 3, 4 / 3, 16 / 9, 3 / 2]))
    if rng.random() < 0.5:
        width, height = size, round(size / aspect)
    else:
        width, height = round(size / aspect), size

    # Camera: straight down to about 45 degrees, turned a little, some perspective.
    corners = np.concatenate([c.corners for c in placed[:own]])
    centre = (corners.min(0) + corners.max(0)) / 2
    extent = float(np.linalg.norm(corners.max(0) - corners.min(0)))
    tilt = float(rng.uniform(0, 45) if rng.random() < 0.85 else rng.uniform(35, 48))
    yaw = float(rng.normal(0, 8)) if rng.random() < 0.8 else float(rng.uniform(-30, 30))
    # Always from the player's own side (near edge at the bottom of the frame): a player
    # photographs the collection in front of their seat. Turns come from the yaw.
    to_camera = _camera(tilt, yaw, extent * rng.uniform(1.0, 2.5))
    # Drawn at `up` x the output size, then reduced (see SUPERSAMPLE).
    up = float(rng.uniform(*SUPERSAMPLE_SCALE)) if rng.random() < SUPERSAMPLE else 1.0
    rw, rh = round(width * up), round(height * up)
    centring = np.array([[1, 0, -centre[0]], [0, 1, -centre[1]], [0, 0, 1]], float)
    h_cam = to_camera @ centring
    projected = _apply(h_cam, corners)
    lo, hi = projected.min(0), projected.max(0)
    fill = float(rng.uniform(0.3, 0.95))
    scale = fill * min(rw / (hi - lo)[0], rh / (hi - lo)[1])
    span = (hi - lo) * scale
    off_x = rng.uniform(0, max(1e-6, rw - span[0])) - lo[0] * scale
    off_y = rng.uniform(0, max(1e-6, rh - span[1])) - lo[1] * scale
    fit = np.array([[scale, 0, off_x], [0, scale, off_y], [0, 0, 1]])
    homography = fit @ h_cam  # table mm -> render px

    light = _light(rng)
    if printing is None:
        printing = print_run(rng)
    back = faces.pick_back(rng, 0.5 * max(rw, rh))
    if back is not None:
        back = printing.apply(back)
    quads = [_apply(homography, c.corners).astype(np.float32) for c in placed]
    # The table's texture gains less detail than the cards when drawn larger: it is the
    # costliest part to draw, and cloth or wood grain at 1/up of a pixel hardly shows.
    texels = 1.2 / math.sqrt(up)
    image, clutter, over = _table(
        rng, homography, rw, rh, np.stack(quads), light, texels, tables=tables, back=back
    )
    label_map = np.zeros((rh, rw), np.int16)
    full_area: list[float] = []
    for index, (card, quad) in enumerate(zip(placed, quads, strict=True)):
        shift = _shadow_shift(homography, card.corners.mean(0), light, rng)
        full_area.append(
            _paste(
                image,
                label_map,
                quad,
                card,
                faces,
                rng,
                index + 1,
                light=light,
                shift=shift,
                printing=printing,
            )
        )
    for item, warp, ppm in over:
        seen = _lay_over(
            image, label_map, item, warp, ppm, quads, full_area, light, homography, back
        )
        if seen is not None:
            clutter.append(seen)

    cards = _labels(placed, quads, label_map, full_area)
    cards[own:] = [dataclasses.replace(card, neighbour=True) for card in cards[own:]]
    image, meta = _photograph(image, rng, out_size=(width, height))
    if up != 1.0:
        # INTER_AREA maps pixel edges linearly: a box edge at x lands at x * width / rw.
        sx, sy = width / rw, height / rh
        to_out = np.array([sx, sy], np.float32)
        quads = [q * to_out for q in quads]
        cards = [
            SceneCard(
                c.kind,
                c.pile,
                q,
                (c.box[0] * sx, c.box[1] * sy, c.box[2] * sx, c.box[3] * sy),
                c.visible,
                c.on_wasabi,
                c.neighbour,
            )
            for c, q in zip(cards, quads, strict=True)
        ]
        for thing in clutter:
            x1, y1, x2, y2 = thing["box"]
            thing["box"] = [round(v, 1) for v in (x1 * sx, y1 * sy, x2 * sx, y2 * sy)]
    meta["clutter"] = [t for t in clutter if _big_enough(t["box"])]
    meta.update(
        tilt=round(abs(tilt), 1),
        yaw=round(yaw, 1),
        fill=round(fill, 3),
        width=width,
        height=height,
        style=style,
        card_height_px=round(float(np.median([_height(q) for q in quads])), 1),
        render_scale=round(up, 3),
        light=dict(
            angle=round(math.degrees(math.atan2(light.direction[1], light.direction[0])), 1),
            length=round(light.length, 2),
            strength=round(light.strength, 3),
            softness=round(light.softness, 4),
        ),
    )
    quality = int(rng.integers(50, 96))
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    jpeg = buf.tobytes()
    meta["jpeg_quality"] = quality
    decoded = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert decoded is not None  # the JPEG just encoded
    return Scene(decoded, jpeg, cards, collection, meta)


def _neighbours_cards(
    own: list[PlacedCard], players: int, rng: np.random.Generator
) -> list[PlacedCard]:
    """The next player's collection (a hand of `players`), laid out in a style of its own,
    beside `own` to its left or right with a hand's gap between them: on a bench the same
    way up, round a square table a quarter turn, toward its own player."""
    theirs = lay_out(deal_collection(rng, players=players), rng)
    side = 1.0 if rng.random() < 0.5 else -1.0
    turn = float(rng.choice([0.0, 90.0 * side]))
    a = math.radians(turn)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    mine = np.concatenate([c.corners for c in own])
    turned = [c.corners @ rot.T for c in theirs]
    spread = np.concatenate(turned)
    gap = rng.uniform(0.5, 2.5) * CARD_H
    # Beside `own`, level with it give or take a card's height.
    if side > 0:
        dx = mine[:, 0].max() + gap - spread[:, 0].min()
    else:
        dx = mine[:, 0].min() - gap - spread[:, 0].max()
    dy = (mine[:, 1].mean() - spread[:, 1].mean()) + rng.uniform(-0.5, 0.5) * CARD_H
    offset = np.array([dx, dy])
    piles = 1 + max(card.pile for card in own)
    return [
        PlacedCard(
            card.kind,
            card.pile + piles,
            corners + offset,
            None if card.on_wasabi is None else card.on_wasabi + len(own),
        )
        for card, corners in zip(theirs, turned, strict=True)
    ]


def _height(quad: np.ndarray) -> float:
    return float(np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2


def _big_enough(box: list[float]) -> bool:
    return box[2] - box[0] > 4 and box[3] - box[1] > 4


def _table(
    rng: np.random.Generator,
    homography: np.ndarray,
    width: int,
    height: int,
    quads: np.ndarray,
    light: Light,
    texels: float = 1.2,
    *,
    tables: tuple[str, ...] | None = None,
    back: np.ndarray | None = None,
) -> tuple[np.ndarray, list[dict[str, Any]], list[tuple[ClutterItem, np.ndarray, float]]]:
    """The table surface under the whole frame, drawn flat and seen through the camera,
    with the clutter that lies under or beside the cards (and its box in the image), and
    the clutter still to be laid over the cards, with its texture -> image warp and ppm."""
    inverse = np.linalg.inv(homography)
    frame = np.array([[0, 0], [width, 0], [width, height], [0, height]], float)
    region = _apply(inverse, frame)
    lo, hi = region.min(0), region.max(0)
    span = hi - lo
    # Texture resolution: about `texels` per image pixel where the table is nearest.
    ppm = min(max(width, height) * texels / max(span), 4000 / max(span))
    tw, th = max(8, int(span[0] * ppm)), max(8, int(span[1] * ppm))
    kind = str(rng.choice(tables)) if tables else None
    texture = surface(rng, th, tw, kind, ppm)
    to_texture = np.array([[ppm, 0, -lo[0] * ppm], [0, ppm, -lo[1] * ppm], [0, 0, 1]])
    cards_tex = _apply(to_texture @ inverse, quads.reshape(-1, 2))
    margin = 20 * ppm
    keep_out = (*(cards_tex.min(0) - margin), *(cards_tex.max(0) + margin))
    items = place_clutter(rng, th, tw, ppm, keep_out, cards_tex.reshape(-1, 4, 2))
    warp = homography @ np.linalg.inv(to_texture)
    shadow_mm = (float(light.direction[0] * 5), float(light.direction[1] * 5))
    clutter = []
    over = []
    for item in items:
        if item.on_top:
            over.append((item, warp, ppm))
            continue
        box = draw_item(texture, item, ppm, shadow_mm=shadow_mm, back=back)
        clutter.append({"what": item.what, "box": _seen_box(warp, box, width, height)})
    image = cv2.warpPerspective(
        texture, warp, (width, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
    )
    return image, clutter, over


def _seen_box(
    warp: np.ndarray, box: tuple[float, float, float, float], width: int, height: int
) -> list[float]:
    x1, y1, x2, y2 = box
    seen = _apply(warp, np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]], float))
    lo_px = np.clip(seen.min(0), 0, [width, height])
    hi_px = np.clip(seen.max(0), 0, [width, height])
    return [round(float(v), 1) for v in (*lo_px, *hi_px)]


def _shadow_shift(
    homography: np.ndarray, at_mm: np.ndarray, light: Light, rng: np.random.Generator
) -> np.ndarray:
    """Image px by which a card's shadow is offset: the scene's shadow vector on the
    table, seen through the camera at the card; its length varies a little per card, as
    cards curl and lift differently."""
    length = light.length * rng.uniform(0.75, 1.25)
    ends = _apply(homography, np.array([at_mm, at_mm + light.direction * length]))
    return ends[1] - ends[0]


def _lay_over(
    image: np.ndarray,
    label_map: np.ndarray,
    item: ClutterItem,
    warp: np.ndarray,
    ppm: float,
    quads: list[np.ndarray],
    full_area: list[float],
    light: Light,
    homography: np.ndarray,
    back: np.ndarray | None = None,
) -> dict[str, Any] | None:
    """Lay one piece of clutter over the cards, as a card laid later would be: it hides
    what it covers in the label map, so a card under it is boxed by the part that shows.
    It is left off (None) where it would take a card's top strip, more than 30 % of what
    shows of a card, or cut a card's visible part in two."""
    h_img, w_img = image.shape[:2]
    half = EXTENT_MM[item.what] * ppm
    ox, oy = item.cx - half, item.cy - half
    side = max(8, int(2 * half))
    # Drawn on black and on white, the same drawing gives its exact coverage (alpha) and
    # its colour premultiplied by it, anti-aliased edges included.
    on_black = np.zeros((side, side, 3), np.uint8)
    on_white = np.full((side, side, 3), 255, np.uint8)
    box = draw_item(on_black, item, ppm, origin=(ox, oy), back=back)
    draw_item(on_white, item, ppm, origin=(ox, oy), back=back)
    alpha_tex = 1 - (on_white.astype(np.float32) - on_black).mean(2) / 255
    to_img = warp @ np.array([[1, 0, ox], [0, 1, oy], [0, 0, 1]], float)
    corners = _apply(to_img, np.array([[0, 0], [side, 0], [side, side], [0, side]], float))
    x0, y0 = np.maximum(np.floor(corners.min(0)).astype(int), 0)
    x1 = min(w_img, int(np.ceil(corners[:, 0].max())))
    y1 = min(h_img, int(np.ceil(corners[:, 1].max())))
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    roi_warp = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], float) @ to_img
    size = (x1 - x0, y1 - y0)
    colour = cv2.warpPerspective(on_black, roi_warp, size, flags=cv2.INTER_LINEAR)
    alpha = cv2.warpPerspective(alpha_tex, roi_warp, size, flags=cv2.INTER_LINEAR)
    covered = alpha > 0.5
    labels_roi = label_map[y0:y1, x0:x1]
    hit = np.unique(labels_roi[covered])
    hit = hit[hit > 0]
    if len(hit) == 0:
        return None  # it missed the cards: it would have been drawn under them
    shown = np.bincount(label_map.ravel(), minlength=len(quads) + 1)
    for label in hit:
        quad = quads[label - 1]
        lost = int((labels_roi[covered] == label).sum())
        left = int(shown[label]) - lost
        if lost > 0.3 * shown[label] or left < 2.5 * MIN_VISIBLE * full_area[label - 1]:
            return None
        band = np.zeros(size[::-1], np.uint8)
        tl, tr, br, bl = quad.astype(np.float64) - [x0, y0]
        top = np.array([tl, tr, tr + TOP_KEPT * (br - tr), tl + TOP_KEPT * (bl - tl)])
        cv2.fillConvexPoly(band, np.round(top * 16).astype(np.int32), 1, cv2.LINE_8, shift=4)
        if (band.astype(bool) & covered).any():
            return None
        # What still shows of this card must stay one piece.
        cx0, cy0 = np.maximum(np.floor(quad.min(0)).astype(int) - 2, 0)
        cx1, cy1 = np.ceil(quad.max(0)).astype(int) + 3
        mine = (label_map[cy0:cy1, cx0:cx1] == label).astype(np.uint8)
        gx0, gy0 = max(x0, cx0), max(y0, cy0)
        gx1, gy1 = min(x1, cx0 + mine.shape[1]), min(y1, cy0 + mine.shape[0])
        if gx1 > gx0 and gy1 > gy0:
            mine[gy0 - cy0 : gy1 - cy0, gx0 - cx0 : gx1 - cx0][
                covered[gy0 - y0 : gy1 - y0, gx0 - x0 : gx1 - x0]
            ] = 0
        count, _, stats, _ = cv2.connectedComponentsWithStats(mine, connectivity=8)
        if count > 2 and stats[1:, cv2.CC_STAT_AREA].max() < 0.95 * max(left, 1):
            return None
    roi = image[y0:y1, x0:x1].astype(np.float32)
    # Its own soft shadow on what lies under it, away from the same light as the cards'.
    centre_mm = _apply(np.linalg.inv(homography), np.array([[(x0 + x1) / 2, (y0 + y1) / 2]]))[0]
    ends = _apply(homography, np.array([centre_mm, centre_mm + light.direction * 4.0]))
    dx, dy = ends[1] - ends[0]
    shadow = cv2.warpAffine(alpha, np.array([[1, 0, dx], [0, 1, dy]], np.float32), size)
    # 3 mm of softness at the item's own scale in the image. (A homography's [0, 0] entry
    # is no scale: for one seen near the horizon it asked GaussianBlur for a 90 GB kernel.)
    px_per_texel = np.sqrt(max(cv2.contourArea(corners.astype(np.float32)), 1.0)) / side
    blur = min(max(1.0, 3.0 * ppm * px_per_texel + 1.0), 0.25 * max(size))
    shadow = cv2.GaussianBlur(shadow, (0, 0), blur) * light.strength
    roi *= (1 - shadow)[..., None]
    roi = roi * (1 - alpha[..., None]) + colour.astype(np.float32)
    image[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)
    labels_roi[covered] = 0
    covers = [int(label) - 1 for label in hit]
    return {
        "what": item.what,
        "box": _seen_box(warp, box, w_img, h_img),
        "over_cards": covers,
    }


def _paste(
    image: np.ndarray,
    label_map: np.ndarray,
    quad: np.ndarray,
    card: PlacedCard,
    faces: FacePool,
    rng: np.random.Generator,
    label: int,
    *,
    light: Light,
    shift: np.ndarray,
    printing: PrintRun = PLAIN,
) -> float:
    """Warp one face onto the image with a soft shadow offset by `shift` px (away from
    the scene's `light`); returns the card's area in px."""
    h_img, w_img = image.shape[:2]
    card_h = _height(quad)
    pad = int(max(4, card_h * 0.08, abs(shift).max() + card_h * light.softness * 1.5))
    x0 = max(0, int(np.floor(quad[:, 0].min())) - pad)
    y0 = max(0, int(np.floor(quad[:, 1].min())) - pad)
    x1 = min(w_img, int(np.ceil(quad[:, 0].max())) + pad)
    y1 = min(h_img, int(np.ceil(quad[:, 1].max())) + pad)
    if x1 <= x0 or y1 <= y0:
        return 0.0
    roi_w, roi_h = x1 - x0, y1 - y0
    face = wear_card(printing.apply(faces.pick(card.kind, rng, card_h)), rng)
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

    # A soft shadow, offset away from the scene's one light like every other card's.
    m = np.array([[1, 0, shift[0]], [0, 1, shift[1]]], np.float32)
    shadow = cv2.warpAffine(alpha, m, (roi_w, roi_h))
    k = int(card_h * light.softness) * 2 + 1
    shadow = cv2.GaussianBlur(shadow, (k, k), 0) * light.strength
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
        if not mask.size:  # wholly outside the frame (a neighbour's card)
            nothing = (0.0, 0.0, 0.0, 0.0)
            cards.append(SceneCard(card.kind, card.pile, quad, nothing, 0.0, card.on_wasabi))
            continue
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


def _photograph(
    image: np.ndarray, rng: np.random.Generator, *, out_size: tuple[int, int] | None = None
) -> tuple[np.ndarray, dict[str, Any]]:
    """Light, lens and sensor: uneven light, colour temperature, glare, blur, then the
    reduction to `out_size` (w, h) if the scene was drawn larger, then noise."""
    h, w = image.shape[:2]
    img: np.ndarray = image.astype(np.float32)
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
        kernel: np.ndarray = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1.0 / length
        rot = cv2.getRotationMatrix2D(
            (length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1.0
        )
        kernel = cv2.warpAffine(kernel, rot, (length, length))
        img = cv2.filter2D(img, -1, kernel / max(kernel.sum(), 1e-6))
        meta["motion_blur"] = True
    if out_size is not None and out_size != (w, h):
        img = cv2.resize(img, out_size, interpolation=cv2.INTER_AREA)
    img, meta["noise"] = _sensor_noise(img, rng, gain)
    return np.clip(img, 0, 255).astype(np.uint8), meta


def _sensor_noise(
    img: np.ndarray, rng: np.random.Generator, gain: float
) -> tuple[np.ndarray, float]:
    """A phone sensor's noise, per pixel and per channel: luminance noise (shot noise,
    growing with the signal, plus read noise) and weaker independent chroma noise. Both
    grow as the light falls (`gain` < 1), since the phone raises its analog gain to make
    up. Returns the noisy float image and the noise's sigma at mid-grey."""
    h, w = img.shape[:2]
    amplify = 1 / max(gain, 0.1)
    read = rng.uniform(0.8, 2.5) * amplify
    shot = rng.uniform(0.01, 0.08) * amplify  # variance per unit of signal
    sigma = np.sqrt(np.clip(img.mean(2), 0, 255) * shot + read * read)
    # One draw per channel: their mean is the luminance part (shared by the channels),
    # the rest is chroma, weighted down to a share of it.
    draw = rng.standard_normal((h, w, 3), dtype=np.float32)
    chroma = np.float32(rng.uniform(0.3, 0.7))
    draw *= chroma
    draw += draw.mean(2, keepdims=True) * np.float32(1.7 / chroma - 1)
    draw *= sigma[..., None]
    img += draw
    return img, round(float(math.sqrt(read * read + shot * 128)), 2)
