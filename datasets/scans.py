"""Real card scans as face assets: find the card in a photo of one card, flatten it.

`sushigo faces import PHOTO --as CLASS --out DIR` takes a photo of one card lying on a
table, finds the card (the largest convex quadrilateral that looks like a card), warps it
to the deck's 63:88 portrait shape and saves it as the next DIR/CLASS/NNN.png, an RGBA
face with transparent rounded corners, so that `FacePool.from_dir` can train on it.

Finding the card:
1. On a reduced copy, several binary views of the photo are made (difference from the
   table colour seen at the photo's border, brightness both ways, the card's white border,
   closed edges). Each view's outlines are simplified to quadrilaterals; one is card-like
   if it is convex, fully inside the photo, not tiny, with corner angles and sides a card
   seen at up to about 45 degrees can have, and if the outline fills it. The largest wins.
2. At full resolution each side is refined: along the side, the strongest colour edge
   near the rough side is found at sub-pixel precision, a line is fitted through those
   edge points (ignoring the rounded corners), and the corners are the lines' crossings.
3. The corners are put in card order (top-left, top-right, bottom-right, bottom-left). A
   portrait card keeps the photo's "up". A landscape card is turned to portrait so that its
   name banner (card-spec.md: the lighter strip at the top) ends up at the top.
"""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path

import cv2
import numpy as np

from datasets.faces import CARD_ASPECT, FACE_HEIGHT, _as_rgba
from scoring.cards import CARD_KINDS

_WORK_SIDE = 1000  # px: the long side of the reduced copy the card is looked for in
_MIN_AREA = 0.02  # a card covers at least this share of the photo
_MAX_AREA = 0.92  # and leaves some table around it
_FACE_NAME = re.compile(r"^(\d+)\.png$")


class CardNotFound(ValueError):
    """No card-like quadrilateral in the photo."""


def read_photo(path: Path) -> np.ndarray:
    """A photo as an upright BGR image (EXIF orientation applied; HEIC if pillow-heif is there)."""
    from PIL import Image, ImageOps, UnidentifiedImageError

    try:
        from pillow_heif import register_heif_opener

        register_heif_opener()
    except ImportError:  # pragma: no cover - optional
        pass
    # Importing ultralytics (training, in the same process) replaces Image.open with a
    # wrapper that tries to pip-install a HEIF plugin for any file PIL cannot identify;
    # a file that is not an image must stay the ValueError below.
    patches = sys.modules.get("ultralytics.utils.patches")
    original = getattr(patches, "_image_open", None)
    open_image = original if callable(original) else Image.open
    try:
        with open_image(path) as opened:
            upright = ImageOps.exif_transpose(opened).convert("RGB")
    except UnidentifiedImageError as error:
        raise ValueError(f"{path} is not an image this tool can read") from error
    return cv2.cvtColor(np.asarray(upright), cv2.COLOR_RGB2BGR)


def find_card(image: np.ndarray) -> np.ndarray:
    """The card's corners in `image` px, (4, 2) float64: top-left, top-right, bottom-right,
    bottom-left of the card itself, portrait. Raises CardNotFound."""
    h, w = image.shape[:2]
    f = min(1.0, _WORK_SIDE / max(h, w))
    small = cv2.resize(image, (round(w * f), round(h * f)), interpolation=cv2.INTER_AREA)
    best: np.ndarray | None = None
    best_area = 0.0
    for mask in _views(small):
        for quad, outline in _card_like_quads(mask):
            area = cv2.contourArea(quad.astype(np.float32))
            if area > best_area:
                best, best_area = _fit_sides(quad, outline), area
    if best is None:
        raise CardNotFound(
            "no card found: expected one whole card, all four corners in view, lying on a "
            "table of a different colour or brightness"
        )
    quad = _order((best + 0.5) / f - 0.5)
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)
    quad = _refine(lab, quad, reach=0.012)  # to about 1 % of the side
    quad = _refine(lab, quad, reach=0.0, extra=1.5)  # then to a pixel
    wider = _past_white_border(lab, quad)
    if wider is not quad:
        quad = _refine(lab, wider, reach=0.0, extra=1.5)
    return _upright(image, quad)


def warp_card(image: np.ndarray, quad: np.ndarray, *, height: int = FACE_HEIGHT) -> np.ndarray:
    """The card flattened to a `height` px tall 63:88 RGBA face with rounded-corner alpha."""
    width = round(height * CARD_ASPECT)
    quad = np.asarray(quad, np.float64)
    card_h = float(np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2
    shrink = card_h / height
    if shrink > 1.5:  # pre-shrink a large card with area averaging, so the warp cannot alias
        h, w = image.shape[:2]
        f = 1.2 / shrink
        image = cv2.resize(image, (round(w * f), round(h * f)), interpolation=cv2.INTER_AREA)
        quad = (quad + 0.5) * f - 0.5
    # Pixel centres sit at integers: the card's outer edges are half a pixel outside them.
    dst = np.array(
        [[-0.5, -0.5], [width - 0.5, -0.5], [width - 0.5, height - 0.5], [-0.5, height - 0.5]],
        np.float32,
    )
    m = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    flat = cv2.warpPerspective(
        image, m, (width, height), flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_REPLICATE
    )
    return _as_rgba(flat)


def import_scan(photo: Path, kind: str, out: Path) -> Path:
    """Find the card in `photo`, flatten it, save it as the next free OUT/KIND/NNN.png."""
    if kind not in CARD_KINDS:
        raise ValueError(f"unknown card class {kind!r}; expected one of: {', '.join(CARD_KINDS)}")
    if not photo.is_file():
        raise FileNotFoundError(f"no such photo: {photo}")
    image = read_photo(photo)
    try:
        quad = find_card(image)
    except CardNotFound as error:
        raise CardNotFound(f"{photo}: {error}") from None
    face = warp_card(image, quad)
    folder = out / kind
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{next_face_number(folder):03d}.png"
    if not cv2.imwrite(str(path), face):
        raise OSError(f"could not write {path}")
    return path


def next_face_number(folder: Path) -> int:
    """One past the highest NNN.png in `folder` (0 for an empty one)."""
    numbers = [int(m.group(1)) for p in folder.glob("*.png") if (m := _FACE_NAME.match(p.name))]
    return max(numbers, default=-1) + 1


# --- finding -----------------------------------------------------------------------------


def _views(image: np.ndarray) -> list[np.ndarray]:
    """Binary views in which a card on a table tends to come out as one blob."""
    h, w = image.shape[:2]
    blurred = cv2.GaussianBlur(image, (0, 0), 1.5)
    lab = cv2.cvtColor(blurred, cv2.COLOR_BGR2LAB).astype(np.float32)
    grey = cv2.cvtColor(blurred, cv2.COLOR_BGR2GRAY)
    views: list[np.ndarray] = []

    # Far from the table colour, as seen in a strip along the photo's border.
    strip = max(2, round(0.03 * min(h, w)))
    border = np.concatenate(
        [
            lab[:strip].reshape(-1, 3),
            lab[-strip:].reshape(-1, 3),
            lab[:, :strip].reshape(-1, 3),
            lab[:, -strip:].reshape(-1, 3),
        ]
    )
    table = np.median(border, axis=0)
    distance = np.linalg.norm(lab - table, axis=2)
    distance = cv2.GaussianBlur(distance, (0, 0), 2.0)
    views.append(_otsu(distance))

    # Brightness, both ways (a light card on a dark table, or a dark face on a light one).
    _, bright = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    views += [bright, 255 - bright]

    # The card's white border: light and unsaturated. Filling its outer outline gives the card.
    hsv = cv2.cvtColor(blurred, cv2.COLOR_BGR2HSV)
    white = ((hsv[..., 1] < 60) & (hsv[..., 2] > 150)).astype(np.uint8) * 255
    views.append(white)

    # Edges, closed into outlines.
    edges = cv2.Canny(grey, 40, 120)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    views.append(edges)

    k = max(3, round(0.006 * max(h, w)) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    return [
        cv2.morphologyEx(cv2.morphologyEx(v, cv2.MORPH_OPEN, kernel), cv2.MORPH_CLOSE, kernel)
        for v in views
    ]


def _otsu(values: np.ndarray) -> np.ndarray:
    lo, hi = float(values.min()), float(values.max())
    scaled = ((values - lo) * (255.0 / max(hi - lo, 1e-6))).astype(np.uint8)
    _, mask = cv2.threshold(scaled, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return mask


def _card_like_quads(mask: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """(quadrilateral, outline points) of every card-like outline in a binary view."""
    h, w = mask.shape[:2]
    contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    found = []
    for contour in contours:
        hull = cv2.convexHull(contour)
        hull_area = cv2.contourArea(hull)
        if not _MIN_AREA * h * w <= hull_area <= _MAX_AREA * h * w:
            continue
        quad = _four_corners(hull)
        if quad is None:
            continue
        area = cv2.contourArea(quad.astype(np.float32))
        # The outline must fill its quadrilateral (a card, not an L of table texture).
        filled = cv2.contourArea(contour) / area
        if not (0.9 <= hull_area / area <= 1.08 and filled >= 0.85):
            continue
        if _inside(quad, w, h) and _card_shaped(quad):
            found.append((quad, contour.reshape(-1, 2).astype(np.float64)))
    return found


def _fit_sides(quad: np.ndarray, outline: np.ndarray) -> np.ndarray:
    """Better corners than the simplified polygon's: a line through each side's outline
    points (away from the rounded corners), crossed with its neighbours."""
    lines = []
    for i in range(4):
        p, q = quad[i], quad[(i + 1) % 4]
        along = (q - p) / np.linalg.norm(q - p)
        normal = np.array([-along[1], along[0]])
        t = (outline - p) @ along / np.linalg.norm(q - p)
        d = np.abs((outline - p) @ normal)
        near = (t > 0.15) & (t < 0.85) & (d < 0.05 * np.linalg.norm(q - p) + 2)
        if near.sum() < 5:
            return quad
        vx, vy, x0, y0 = cv2.fitLine(
            outline[near].astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01
        )
        lines.append(
            (np.array([float(x0[0]), float(y0[0])]), np.array([float(vx[0]), float(vy[0])]))
        )
    corners = [_cross(lines[i - 1], lines[i]) for i in range(4)]
    if any(c is None for c in corners):
        return quad
    fitted = np.array(corners)
    # Outline pixels lie half a pixel inside the true edge; push the corners out by that.
    centre = fitted.mean(axis=0)
    out = fitted - centre
    return fitted + 0.7 * out / np.linalg.norm(out, axis=1, keepdims=True)


def _four_corners(hull: np.ndarray) -> np.ndarray | None:
    perimeter = cv2.arcLength(hull, True)
    for eps in (0.01, 0.02, 0.03, 0.045, 0.06):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(approx) == 4:
            return approx.reshape(4, 2).astype(np.float64)
        if len(approx) < 4:
            return None
    return None


def _inside(quad: np.ndarray, w: int, h: int) -> bool:
    margin = 2
    return bool(
        (quad[:, 0] > margin).all()
        and (quad[:, 0] < w - 1 - margin).all()
        and (quad[:, 1] > margin).all()
        and (quad[:, 1] < h - 1 - margin).all()
    )


def _card_shaped(quad: np.ndarray) -> bool:
    """Convex, corner angles 45-135 degrees, long side at most 3x the short one."""
    if not cv2.isContourConvex(quad.astype(np.float32).reshape(-1, 1, 2)):
        return False
    sides = [float(np.linalg.norm(quad[(i + 1) % 4] - quad[i])) for i in range(4)]
    if min(sides) <= 0 or max(sides) / min(sides) > 3.0:
        return False
    for i in range(4):
        a = quad[i - 1] - quad[i]
        b = quad[(i + 1) % 4] - quad[i]
        cos = float(a @ b) / float(np.linalg.norm(a) * np.linalg.norm(b))
        if not 45 <= math.degrees(math.acos(float(np.clip(cos, -1.0, 1.0)))) <= 135:
            return False
    return True


def _order(quad: np.ndarray) -> np.ndarray:
    """Corners clockwise on screen, starting at the one nearest the photo's top-left."""
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    quad = quad[np.argsort(angles)]
    return np.roll(quad, -int(np.argmin(quad.sum(axis=1))), axis=0)


# --- refining -----------------------------------------------------------------------------


def _refine(lab: np.ndarray, quad: np.ndarray, *, reach: float, extra: float = 1.0) -> np.ndarray:
    """Move each side onto the strongest colour edge within `reach` x its length + `extra` px
    of it (`lab`: the photo in float Lab); the corners become the fitted lines' crossings."""
    lines = []
    limit = 0.0
    for i in range(4):
        p, q = quad[i], quad[(i + 1) % 4]
        side = q - p
        length = float(np.linalg.norm(side))
        # Keep the reach well inside the card's white border (3 % of its width), so that
        # the border's inner edge is never taken for the card's outline.
        window = reach * length + extra
        limit = max(limit, window)
        line = _edge_line(lab, p, side / length, length, window)
        if line is None:
            return quad
        lines.append(line)
    corners = []
    for i in range(4):
        corner = _cross(lines[i - 1], lines[i])
        if corner is None or np.linalg.norm(corner - quad[i]) > 3 * limit + 2:
            return quad  # refinement went astray: keep the rough corners
        corners.append(corner)
    return np.array(corners)


def _edge_line(
    lab: np.ndarray, start: np.ndarray, along: np.ndarray, length: float, reach: float
) -> tuple[np.ndarray, np.ndarray] | None:
    normal = np.array([-along[1], along[0]])
    ts = np.linspace(0.15, 0.85, max(12, min(200, round(length / 3))))
    offsets = np.arange(-reach - 1, reach + 1.01, 0.5)
    base = start + ts[:, None] * length * along  # (n, 2)
    pts = base[:, None, :] + offsets[None, :, None] * normal  # (n, k, 2)
    map_x = pts[..., 0].astype(np.float32)
    map_y = pts[..., 1].astype(np.float32)
    profile = cv2.remap(lab, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    grad = np.linalg.norm(profile[:, 2:] - profile[:, :-2], axis=2)  # central difference
    inner = offsets[1:-1]
    valid = np.abs(inner) <= reach
    grad[:, ~valid] = 0
    best = np.argmax(grad, axis=1)
    strength = grad[np.arange(len(best)), best]
    keep = strength > max(6.0, 0.4 * float(np.median(strength)))
    if keep.sum() < 6:
        return None
    # Sub-pixel: a parabola through the peak and its neighbours.
    idx = np.clip(best, 1, grad.shape[1] - 2)
    g0, g1, g2 = (grad[np.arange(len(idx)), idx + d] for d in (-1, 0, 1))
    denom = g0 - 2 * g1 + g2
    shift = np.where(np.abs(denom) > 1e-6, 0.5 * (g0 - g2) / np.where(denom == 0, 1, denom), 0.0)
    offset = inner[idx] + np.clip(shift, -0.5, 0.5) * 0.5
    edge = base + offset[:, None] * normal
    vx, vy, x0, y0 = cv2.fitLine(edge[keep].astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01)
    return np.array([float(x0[0]), float(y0[0])]), np.array([float(vx[0]), float(vy[0])])


def _cross(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]) -> np.ndarray | None:
    (p, u), (q, v) = a, b
    det = u[0] * (-v[1]) - u[1] * (-v[0])
    if abs(det) < 1e-9:
        return None
    d = q - p
    t = (d[0] * (-v[1]) - d[1] * (-v[0])) / det
    return p + t * u


BORDER_MM = 0.03 * 63  # card-spec.md: a white outer border 3 % of the width


def _past_white_border(lab: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """On a white table the card's white border can vanish into the table, and the outline
    found is the coloured face inside it. Per side: if just inside the outline is not
    white but just outside is, and a faint edge shows about one border width further out
    (averaged along the whole side), move that side out to it. Returns `quad` itself when
    nothing moves."""
    top = np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])
    left = np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])
    cw, ch = (63.0, 88.0) if top <= left else (88.0, 63.0)  # card mm, as the photo shows it
    rect = np.array([[0, 0], [cw, 0], [cw, ch], [0, ch]], np.float32)
    to_image = cv2.getPerspectiveTransform(rect, quad.astype(np.float32))
    offsets = np.arange(-2.0, 4.5, 0.125)  # mm, outward positive
    ts = np.linspace(0.15, 0.85, 80)
    moved = [0.0, 0.0, 0.0, 0.0]  # top, right, bottom, left
    for side in range(4):
        a, b = rect[side].astype(np.float64), rect[(side + 1) % 4].astype(np.float64)
        along = (b - a) / np.linalg.norm(b - a)
        outward = np.array([along[1], -along[0]])  # the rect runs clockwise on screen
        card_pts = a + ts[:, None, None] * (b - a) + offsets[None, :, None] * outward
        pts = cv2.perspectiveTransform(card_pts.reshape(-1, 1, 2), to_image).reshape(
            len(ts), len(offsets), 2
        )
        samples = cv2.remap(
            lab,
            pts[..., 0].astype(np.float32),
            pts[..., 1].astype(np.float32),
            cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        )
        profile = samples.mean(axis=0)  # (offsets, 3): the side's mean colour at each offset
        inside = profile[(offsets > -1.6) & (offsets < -0.5)].mean(axis=0)
        outside = profile[(offsets > 0.4) & (offsets < 1.2)].mean(axis=0)
        if _whitish(inside) or not _whitish(outside):
            continue
        step = np.linalg.norm(profile[2:] - profile[:-2], axis=1)
        mid = offsets[1:-1]
        band = (mid > 0.6 * BORDER_MM) & (mid < 1.6 * BORDER_MM)
        if band.any() and step[band].max() > 3.0:
            moved[side] = float(mid[band][np.argmax(step[band])])
    if not any(moved):
        return quad
    t, r, bm, lf = moved
    wider = np.array([[-lf, -t], [cw + r, -t], [cw + r, ch + bm], [-lf, ch + bm]], np.float32)
    return (
        cv2.perspectiveTransform(wider.reshape(-1, 1, 2), to_image).reshape(4, 2).astype(np.float64)
    )


def _whitish(lab: np.ndarray) -> bool:
    lightness, a, b = (float(v) for v in lab)
    return lightness > 170 and math.hypot(a - 128, b - 128) < 18


# --- orientation --------------------------------------------------------------------------


def _upright(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Portrait card order; a landscape card is turned so that its banner is at the top."""
    top = np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])
    left = np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])
    if top <= left:
        return quad
    turned = np.roll(quad, -1, axis=0)  # the card's top is the photo's right-hand side
    if _banner_at_bottom(warp_card(image, turned, height=176)):
        turned = np.roll(turned, 2, axis=0)
    return turned


def _banner_at_bottom(face: np.ndarray) -> bool:
    """card-spec.md: the name banner (top 18 %) is a lighter strip than the face colour
    behind the hint (bottom 20 %). Medians compare the backgrounds, not the lettering
    (dark on the banner, white on the hint)."""
    grey = cv2.cvtColor(face[..., :3], cv2.COLOR_BGR2GRAY)
    h, w = grey.shape
    x0, x1 = round(0.08 * w), round(0.92 * w)
    top = float(np.median(grey[round(0.04 * h) : round(0.16 * h), x0:x1]))
    bottom = float(np.median(grey[round(0.84 * h) : round(0.96 * h), x0:x1]))
    return bottom > top
