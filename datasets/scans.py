"""Real card scans as face assets: find the card in a photo of one card, flatten it.

`sushigo faces import PHOTO --as CLASS --out DIR` takes a photo of one printed card lying
on a table, finds the card, warps it to the printed card's portrait shape
(datasets/layout.py) and saves it as the next DIR/CLASS/NNN.png, an RGBA face with
transparent rounded corners: a deck folder (datasets/deck.py) to train on.

The printed card (card-spec.md) has no white border: its family colour runs to the edge.
The top ~55 % is a flat bright colour field, then comes a grey conveyor band and, in the
bottom ~15 %, a darker grey name band. Either part can look like the table: the grey
bands on a dark wood or a grey table, a pale colour field on white marble or paper.

Finding the card:
1. On a reduced copy, several binary views of the photo are made (far from the table
   colour seen at the photo's border, by Otsu and by the table's own spread, in Lab and
   in colour alone; brightness both ways; closed edges). Each view's outlines are
   simplified to quadrilaterals; one is card-like if it is convex, fully inside the
   photo, not tiny, with corner angles and sides a card seen at up to about 45 degrees
   can have, and if the outline fills it. Where none is, the photo is looked at once more
   against each of the border's colours (a patterned cloth's stripes, checks or dots),
   then cut apart from the table by GrabCut (the border strip its table), and what those
   find is taken only if each of its four sides is an edge.
2. A card-like quadrilateral too short for its width (CARD_ASPECT) may be only part of
   the card: an end of it is pushed out, along its sides, to the outermost step across
   the card near where the card's proportions put its end, if the sides run on as
   edges up to there. The largest candidate wins.
3. At full resolution each side is refined: along the side, the sharpest colour step
   near the rough side is found at sub-pixel precision (a soft shadow's slope does not
   count), a line is fitted through those edge points (ignoring the rounded corners),
   and the corners are the lines' crossings.
4. The card must be whole: where both sides run on as edges past an end, round something
   other than the table beside them (the name band the views lost in a patterned or dark
   table: 7 % of the probe's photos had been saved so), the end is grown as in 2, from
   the refined sides, or else to where the sides stop being edges, and refined again.
   With no end in reach (the card cut off by the photo's edge, or running on past its
   proportions) the photo is refused (CardNotWhole) rather than a part saved as a face.
5. The corners are put in card order (top-left, top-right, bottom-right, bottom-left), the
   card upright: a landscape card is turned to portrait, and then stood the way up the
   shipped card reader reads it surely as a card; where it reads neither way as one (the
   back), a card whose grey name band (card-spec.md: the bottom 15 %) shows at the top is
   turned the other way up.

A photo of several cards is refused (SeveralCards): where the views outline more than one
card, or where the shipped card finder (vision/) boxes cards apart from the one found, as
it does a collection's covered cards, which show no card-like outline. The finder's boxes
do not tell a part of the card from the whole (step 4): of 18 parts in the probe's photos
it boxed 2 surely, and its boxes round whole cards reach up to 15 % of their height past
them, as far as a missing name band.
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import cv2
import numpy as np

from datasets.deck import BACK
from datasets.faces import FACE_HEIGHT, as_rgba
from datasets.layout import CARD_ASPECT
from scoring.cards import CARD_KINDS, said

# What a photo can be imported as: a card's class, or the back (the draw pile's card).
FACE_CLASSES = (*CARD_KINDS, BACK)
_WORK_SIDE = 1000  # px: the long side of the reduced copy the card is looked for in
_MIN_AREA = 0.02  # a card covers at least this share of the photo
_MAX_AREA = 0.92  # and leaves some table around it
_FACE_NAME = re.compile(r"^(\d+)\.png$")
# A step of the refinement's measure (Lab units, see _step_strength) that counts as an
# edge: on the test tables' texture and noise the measure's strongest peaks reach ~2.5.
_MIN_STEP = 4.0


# Another card-like outline at least this share of the largest's area, overlapping it by
# under _SAME_CARD of the smaller one's area, is another card: a photo of a collection.
_ANOTHER_CARD = 0.5
_SAME_CARD = 0.2
# The shipped card finder (vision/) boxes a collection's covered cards, which show no
# outline. Its sure boxes read as cards count: those apart from the found card (specks under
# _FINDER_APART of its short side aside), or two apart from each other, each at least
# _FINDER_LARGE of it (an outline round a whole collection; a card's own pictures measure
# under 0.4). Measured by benchmarks/probe_faces_import.py.
_FINDER_SURE = 0.7
_FINDER_APART = 0.2
_FINDER_LARGE = 0.4
# A face the card reader reads as another class this sure, and as its own under
# _READ_UNLIKE, is refused as mislabelled.
_READ_SURE = 0.9
_READ_UNLIKE = 0.05
# A face the reader calls a card at these odds one way up or the other is a card face, and
# the likelier way is up (_upside_down).
_READ_A_CARD = 0.5
# A box holding this share of the found card is that card, seen whole.
_WHOLE_CARD = 0.9
# Both sides going on as edges this share of the long side past an end: the card goes on
# (a name band missing is 15 % of the card, 18 % of the part found).
_RUN_ON = 0.1
# Lab distance under which the strip past an end is the table beside it. Measured by
# benchmarks/probe_faces_import.py: a missing band 15-89 from the table beside it, the
# dotted table past whole cards, whose dots lined up with their sides, 4-5.
_TABLE_LIKE = 12.0
# A whole card in a photo: its height over what its width says (CARD_ASPECT), perspective
# taken in (the test photos: 5-14 % off either way).
_SHORTEST = 0.85
_TALLEST = 1.2
# A patterned table's colours, blends included: 6 took 16 more of 240 single-card photos
# than the table's one median colour (benchmarks/probe_faces_import.py).
_TABLE_COLOURS = 6
# The graph cut's copy, small: on a cloth's fine pattern a cut of the 1000 px copy takes
# seconds a round; the sides are then refined at full resolution anyway.
_CUT_SIDE = 400
_CUT_ROUNDS = 5
_BLOB_FILL = 0.1
_NO_CARD = (
    "no card found: expected one whole card, all four corners in view, lying on a plain "
    "table of a different colour or brightness (a patterned cloth can hide the card's edges)"
)


class CardNotFound(ValueError):
    """No card-like quadrilateral in the photo."""


class SeveralCards(CardNotFound):
    """More than one card in the photo: which one to import is not the tool's guess."""


class MislabelledCard(ValueError):
    """The card in the photo reads surely as another class than the one it is to be saved as."""


class CardNotWhole(CardNotFound):
    """The outline found is only part of the card, and the rest of it was not found."""


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
    except OSError as error:
        if error.errno is not None:  # the system's own (gone, unreadable): said as it is
            raise
        # A half-copied JPEG: PIL says "image file is truncated" as an OSError.
        raise ValueError(f"{path} could not be read whole ({error})") from error
    return cv2.cvtColor(np.asarray(upright), cv2.COLOR_RGB2BGR)


def find_card(image: np.ndarray) -> np.ndarray:
    """The card's corners in `image` px, (4, 2) float64: top-left, top-right, bottom-right,
    bottom-left of the card itself, portrait. Raises CardNotFound."""
    sure = _sure_cards(image)
    try:
        return _find_card(image, _views, sure, _card_like_quads)
    except (SeveralCards, CardNotWhole):  # said as found
        raise
    except CardNotFound as error:
        # On a patterned cloth (stripes, checks, dots) no one table colour stands for the
        # table: looked at again against each of its colours, then as a graph cut apart
        # from the table. Taken only where all four sides are edges: without that, 7 wrong
        # faces in 240 photos had been saved.
        for views, quads in ((_patterned_views, _card_like_quads), (_cut_from_table, _blob_quads)):
            try:
                quad = _find_card(image, views, sure, quads)
            except (SeveralCards, CardNotWhole):
                raise
            except CardNotFound:
                continue
            if _sides_are_edges(image, quad):
                return quad
        raise error from None


def _find_card(
    image: np.ndarray,
    views: Callable[[np.ndarray], list[np.ndarray]],
    sure: np.ndarray,
    quads: Callable[[np.ndarray], list[np.ndarray]],
) -> np.ndarray:
    """find_card with the binary views `views` makes of the reduced photo, their card
    outlines found by `quads`; `sure`: the card finder's sure boxes in `image`
    (_sure_cards)."""
    h, w = image.shape[:2]
    f = min(1.0, _WORK_SIDE / max(h, w))
    small = cv2.resize(image, (round(w * f), round(h * f)), interpolation=cv2.INTER_AREA)
    small_lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    best: np.ndarray | None = None
    best_area = 0.0
    outlines: list[np.ndarray] = []
    for mask in views(small):
        for quad in quads(mask):
            outlines.append(quad)
            for candidate in [quad, *_grown(small_lab, quad)]:
                area = cv2.contourArea(candidate.astype(np.float32))
                if area > best_area:
                    best, best_area = candidate, area
    if best is None:
        # A collection's cards overlap, so that none shows a card's outline: told as a
        # collection, by the finder's boxes, not as "no card found".
        if len(sure) > 1:
            raise SeveralCards(_several(len(sure)))
        raise CardNotFound(_NO_CARD)
    quad = _order((best + 0.5) / f - 0.5)
    cards = len(_separate_cards([best, *outlines], least=_ANOTHER_CARD * best_area))
    if cards == 1:
        cards = _cards_seen(sure, quad)
    if cards > 1:
        # The largest of a collection's cards is no card the player chose. Said with the
        # finder's count where it sees more: the outlines had said 2 of 9 cards.
        raise SeveralCards(_several(max(cards, len(sure))))
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)
    # To about 3 % of the side: a view's outline can take in the card's shadow.
    quad = _refine(lab, quad, reach=0.03)
    quad = _refine(lab, quad, reach=0.0, extra=1.5)  # then to a pixel
    return _upright(image, _whole_card(lab, small_lab, f, quad))


def warp_card(image: np.ndarray, quad: np.ndarray, *, height: int = FACE_HEIGHT) -> np.ndarray:
    """The card flattened to a `height` px tall RGBA face at the card's proportions, with
    rounded-corner alpha."""
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
    return as_rgba(flat)


def check_face_class(kind: str) -> None:
    """Raises ValueError, naming the classes, where `kind` is none a photo can be imported as."""
    if kind not in FACE_CLASSES:
        raise ValueError(f"unknown card class {kind!r}; expected one of: {', '.join(FACE_CLASSES)}")


def import_scan(photo: Path, kind: str, out: Path, *, force: bool = False) -> Path:
    """Find the card in `photo`, flatten it, save it as the next free OUT/KIND/NNN.png.
    A face the shipped card reader surely reads as another class is refused (a wrong
    --as spoils the deck it trains on), unless `force`."""
    check_face_class(kind)
    if photo.is_dir():
        raise IsADirectoryError(f"{photo} is a folder: give the photo of one card")
    if not photo.is_file():
        raise FileNotFoundError(f"no such photo: {photo}")
    image = read_photo(photo)
    try:
        quad = find_card(image)
    except CardNotFound as error:
        raise type(error)(f"{photo}: {error}") from None
    face = warp_card(image, quad)
    if not force and kind != BACK:  # the card reader reads faces, not the back
        read, sure, own = _read_as(face, kind)
        if read not in (kind, None) and sure >= _READ_SURE and own < _READ_UNLIKE:
            raise MislabelledCard(
                f"{photo}: this card reads as {said(read)} ({sure:.0%} sure), not "
                f"{said(kind)}: give --as {read}, or add --force to save it as {kind}"
            )
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
    blurred = cv2.GaussianBlur(image, (0, 0), 1.5)
    lab = cv2.cvtColor(blurred, cv2.COLOR_BGR2LAB).astype(np.float32)
    grey = cv2.cvtColor(blurred, cv2.COLOR_BGR2GRAY)
    views: list[np.ndarray] = []

    # Far from the table colour, as seen in a strip along the photo's border.
    border = _border(lab)
    table = np.median(border, axis=0)
    distance = np.linalg.norm(lab - table, axis=2)
    distance = cv2.GaussianBlur(distance, (0, 0), 2.0)
    views.append(_otsu(distance))
    # Otsu splits a printed card's bright colour field from its grey bands when both
    # differ from the table; "further from the table colour than the table itself
    # strays" keeps them together. In colour alone (a, b) a pale card stands out on
    # white marble, whose veins change only the lightness.
    spread = float(np.percentile(np.linalg.norm(border - table, axis=1), 99))
    views.append(_above(distance, _beyond_table(spread)))
    hue = cv2.GaussianBlur(np.linalg.norm((lab - table)[..., 1:], axis=2), (0, 0), 2.0)
    hue_spread = float(np.percentile(np.linalg.norm((border - table)[:, 1:], axis=1), 99))
    views.append(_above(hue, 2.0 * hue_spread + 4.0))

    # Brightness, both ways (a light card on a dark table, or a dark face on a light one).
    _, bright = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    views += [bright, 255 - bright]

    # Edges, closed into outlines: the card is the hole inside its outline, whatever the
    # table's edges outside it touch. Only closed: an opening would erase the lines.
    edges = cv2.Canny(grey, 40, 120)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))

    kernel = _kernel(image)
    regions = [_smoothed(v, kernel) for v in views]
    return [*regions, cv2.morphologyEx(edges, cv2.MORPH_CLOSE, kernel)]


def _patterned_views(image: np.ndarray) -> list[np.ndarray]:
    """The view for a patterned table: far from every colour its border shows. Stripes'
    median colour lies between their two, and a card's colour field near it."""
    lab = cv2.cvtColor(cv2.GaussianBlur(image, (0, 0), 1.5), cv2.COLOR_BGR2LAB)
    lab = lab.astype(np.float32)
    border = _border(lab)
    colours = _table_colours(border)
    distance = cv2.GaussianBlur(_nearest(lab, colours), (0, 0), 2.0)
    spread = float(np.percentile(_nearest(border, colours), 99))
    return [_smoothed(_above(distance, _beyond_table(spread)), _kernel(image))]


def _cut_from_table(image: np.ndarray) -> list[np.ndarray]:
    """The view for a table whose colours come near the card's own: OpenCV's GrabCut, the
    photo's border strip taken as table and the rest as maybe card, on a copy at most
    _CUT_SIDE px long, then scaled back up. Its blob's outline is bumpy where the pattern
    touches the card (_blob_quads)."""
    h, w = image.shape[:2]
    g = min(1.0, _CUT_SIDE / max(h, w))
    copy = cv2.resize(image, (round(w * g), round(h * g)), interpolation=cv2.INTER_AREA)
    ch, cw = copy.shape[:2]
    strip = max(2, round(0.03 * min(ch, cw)))  # as _border's
    labels = np.zeros((ch, cw), np.uint8)
    cv2.setRNGSeed(0)  # its colour models start from k-means: the same photo, the same cut
    cv2.grabCut(
        copy, labels, (strip, strip, cw - 2 * strip, ch - 2 * strip),
        np.zeros((1, 65)), np.zeros((1, 65)), _CUT_ROUNDS, cv2.GC_INIT_WITH_RECT,
    )  # fmt: skip
    cut = np.isin(labels, (cv2.GC_FGD, cv2.GC_PR_FGD)).astype(np.uint8) * 255
    card = cv2.resize(cut, (w, h), interpolation=cv2.INTER_LINEAR)
    return [_smoothed(_above(card, 127), _kernel(image))]


def _beyond_table(spread: float) -> float:
    """How far (Lab) from the table's colour a pixel must be to be no table: further than
    the border's pixels stray from it (`spread`, their 99th percentile), with a margin."""
    return 1.5 * spread + 4.0


def _border(lab: np.ndarray) -> np.ndarray:
    """The pixels (n, 3) of a strip along the photo's border: the table, seen round the card."""
    strip = max(2, round(0.03 * min(lab.shape[:2])))
    return np.concatenate(
        [
            lab[:strip].reshape(-1, 3),
            lab[-strip:].reshape(-1, 3),
            lab[:, :strip].reshape(-1, 3),
            lab[:, -strip:].reshape(-1, 3),
        ]
    )


def _table_colours(border: np.ndarray, count: int = _TABLE_COLOURS) -> np.ndarray:
    """`count` colours (k-means, Lab) that the border's pixels lie near: a pattern's own
    colours and the blends between them. Seeded by the farthest pixels, so the same photo
    always gives the same colours."""
    pixels = border[:: max(1, len(border) // 4000)]
    centres = [np.median(pixels, axis=0)]
    for _ in range(count - 1):
        centres.append(pixels[_nearest(pixels, np.array(centres)).argmax()])
    colours = np.array(centres)
    for _ in range(15):
        nearest = np.linalg.norm(pixels[:, None] - colours[None], axis=2).argmin(1)
        colours = np.array(
            [
                pixels[nearest == k].mean(0) if (nearest == k).any() else colours[k]
                for k in range(count)
            ]
        )
    return colours


def _nearest(lab: np.ndarray, colours: np.ndarray) -> np.ndarray:
    """Each pixel's distance (Lab) to the nearest of `colours`: `lab` is pixels (..., 3),
    an image or a list of them."""
    distance = np.full(lab.shape[:-1], np.inf, np.float32)
    for colour in colours.astype(np.float32):
        distance = np.minimum(distance, np.linalg.norm(lab - colour, axis=-1))
    return distance


def _kernel(image: np.ndarray) -> np.ndarray:
    k = max(3, round(0.006 * max(image.shape[:2])) | 1)
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))


def _smoothed(view: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """A view opened (specks gone) then closed (pinholes filled)."""
    opened = cv2.morphologyEx(view, cv2.MORPH_OPEN, kernel)
    return cv2.morphologyEx(opened, cv2.MORPH_CLOSE, kernel)


def _sides_are_edges(image: np.ndarray, quad: np.ndarray) -> bool:
    """Whether each side of `quad` (image px) is a colour edge over its middle 80 %: a
    card's own side, not a line across its grey bands where they meet a like colour."""
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        length = float(np.linalg.norm(b - a))
        if length < 1.0:
            return False
        along = (b - a) / length
        if not _is_edge(lab, a + 0.1 * length * along, along, 0.8 * length):
            return False
    return True


def _whole_card(lab: np.ndarray, small_lab: np.ndarray, f: float, quad: np.ndarray) -> np.ndarray:
    """`quad` (`lab`'s px, refined), or where the card runs on past an end of it (its name
    band on a table the views could not tell it from), the whole card: the open end grown
    as _grown does from the refined sides, else to where the sides stop being edges.
    Raises CardNotWhole where no such end is found (`small_lab`: the photo reduced by `f`)."""
    for attempt in range(3):  # a part open at both ends grows one end at a time
        rough = _order((quad + 0.5) * f - 0.5)
        ends = _open_ends(small_lab, rough)
        if not ends:
            return quad
        # A part of a card is a strip across it: open at two ends that meet, it is none.
        if attempt == 2 or any((e + 1) % 4 in ends for e in ends):
            break
        grown = []
        for e in ends:
            grown += _grown(small_lab, rough, ends=(e,), most=1.0) or _run_to_end(
                small_lab, rough, e
            )
        if not grown:
            break
        best = max(grown, key=lambda g: cv2.contourArea(g.astype(np.float32)))
        quad = _order((best + 0.5) / f - 0.5)
        quad = _refine(lab, quad, reach=0.03)
        quad = _refine(lab, quad, reach=0.0, extra=1.5)
    raise CardNotWhole(
        "found only part of the card, not its edges whole: photograph it whole, on a plain "
        "table of a different colour than its grey bands, in more light"
    )


def _run_to_end(lab: np.ndarray, quad: np.ndarray, e: int) -> list[np.ndarray]:
    """`quad` (ordered) with its end e pushed out to where its sides stop being edges (no
    clear step across the card there: a grey band on a patterned table), if the card's
    proportions allow that; else nothing."""
    (a, ua), (b, ub), width, height = _end_of(quad, e)
    full = width / CARD_ASPECT
    if height >= _TALLEST * full:
        return []
    x = _run_out(lab, a + 2 * ua, ua, b + 2 * ub, ub, _TALLEST * full - height)
    if x is None or not _SHORTEST * full <= height + x + 2:
        return []
    return [_ended(lab, quad, e, (a, ua), (b, ub), x + 2, width)]


def _ended(
    lab: np.ndarray,
    quad: np.ndarray,
    e: int,
    side_a: tuple[np.ndarray, np.ndarray],
    side_b: tuple[np.ndarray, np.ndarray],
    x: float,
    width: float,
) -> np.ndarray:
    """`quad` with its end e moved `x` px out along its sides (each a point and a unit
    direction), on the end's own line through the step there where one is found: the
    part's end (where a band met the colour field) need not be parallel to the card's."""
    (a, ua), (b, ub) = side_a, side_b
    na, nb = a + x * ua, b + x * ub
    span = float(np.linalg.norm(nb - na))
    end = _edge_line(lab, na, (nb - na) / span, span, 0.06 * width + 2)
    if end is not None:
        ca, cb = _cross(side_a, end), _cross(side_b, end)
        if ca is not None and cb is not None:
            na, nb = ca, cb
    g = quad.copy()
    g[e], g[(e + 1) % 4] = na, nb
    return g


def _separate_cards(quads: list[np.ndarray], *, least: float) -> list[np.ndarray]:
    """The quadrilaterals of at least `least` area that are separate cards, the first
    first: each overlaps every one kept before it by under _SAME_CARD of the smaller's area
    (the views outline one card many times, and a part of it inside the whole)."""
    kept: list[np.ndarray] = []
    for quad in quads:
        shape = quad.astype(np.float32)
        area = cv2.contourArea(shape)
        if area < least:
            continue
        if all(
            _shared_area(shape, other) < _SAME_CARD * min(area, cv2.contourArea(other))
            for other in kept
        ):
            kept.append(shape)
    return kept


def _read_as(face: np.ndarray, kind: str) -> tuple[str | None, float, float]:
    """What the shipped card reader makes of a flattened `face` (BGRA): its likeliest class
    (None: no card face), how sure, and the odds of `kind`. Measured by
    benchmarks/probe_faces_import.py on the faces it imports right."""
    from vision.classifier import CLASSES, NONE_ID

    (odds,) = _reader_odds(face)
    top = int(odds.argmax())
    read = None if top == NONE_ID else CLASSES[top]
    return read, float(odds[top]), float(odds[CLASSES.index(kind)])


def _reader_odds(*faces: np.ndarray) -> np.ndarray:
    """The shipped card reader's odds of each class (vision.classifier.CLASSES) for each
    flattened face (BGRA, all of one size), (len(faces), classes): one run of the reader."""
    from vision.detector import load_detector

    h, w = faces[0].shape[:2]
    # On a plain grey margin, as a card lies in a photo: the reader's crops take some table
    # (classifier.PAD, 6 % of the card's height, within the margin of an eighth).
    mh, mw = h // 8, w // 8
    grey = (90, 90, 90)
    framed = [
        cv2.copyMakeBorder(
            np.ascontiguousarray(face[..., :3]), mh, mh, mw, mw, cv2.BORDER_CONSTANT, value=grey
        )
        for face in faces
    ]
    step = w + 2 * mw  # side by side
    boxes = np.array(
        [[i * step + mw, mh, i * step + mw + w, mh + h] for i in range(len(faces))], np.float32
    )
    return load_detector().classify(np.hstack(framed), boxes)


def _several(cards: int) -> str:
    return f"found {cards} cards: photograph one card at a time, alone on the table"


def _sure_cards(image: np.ndarray) -> np.ndarray:
    """The boxes (xyxy, image px) the shipped card finder is sure are cards in `image`."""
    # onnxruntime and the networks: loaded only to import a face
    from vision.classifier import NONE_ID
    from vision.detector import load_detector

    detector = load_detector()
    boxes, scores = detector.find_cards(image)
    boxes = boxes[scores >= _FINDER_SURE]
    if len(boxes):
        # As when reading a photo: a box the card reader calls none (a printed tablecloth's
        # checks, measured up to 0.74 sure) is no card.
        boxes = boxes[detector.classify(image, boxes).argmax(1) != NONE_ID]
    return boxes


def _cards_seen(boxes: np.ndarray, quad: np.ndarray) -> int:
    """How many separate cards the finder's sure `boxes` show, the card found at `quad`
    (image px) one of them: more than one in a collection no outline showed."""
    card = quad.astype(np.float32)
    area = cv2.contourArea(card)
    sides = [float(np.linalg.norm(card[(i + 1) % 4] - card[i])) for i in range(4)]
    short = min(sides[0] + sides[2], sides[1] + sides[3]) / 2
    apart: list[np.ndarray] = []
    large: list[np.ndarray] = []
    for x0, y0, x1, y1 in boxes.tolist():
        box = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
        if _shared_area(box, card) >= _WHOLE_CARD * area:
            continue
        size = max(x1 - x0, y1 - y0) / short
        if size >= _FINDER_APART:
            apart.append(box)
        if size >= _FINDER_LARGE:
            large.append(box)
    return max(
        len(_separate_cards([card, *apart], least=0.0)),
        len(_separate_cards(large, least=0.0)),
    )


def _shared_area(a: np.ndarray, b: np.ndarray) -> float:
    area, _ = cv2.intersectConvexConvex(a, b)
    return float(area)


def _above(values: np.ndarray, level: float) -> np.ndarray:
    return (values > level).astype(np.uint8) * 255


def _otsu(values: np.ndarray) -> np.ndarray:
    lo, hi = float(values.min()), float(values.max())
    scaled = ((values - lo) * (255.0 / max(hi - lo, 1e-6))).astype(np.uint8)
    _, mask = cv2.threshold(scaled, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return mask


def _card_like_quads(mask: np.ndarray) -> list[np.ndarray]:
    """Every card-like outline in a binary view, as a quadrilateral whose sides are fitted
    through the outline (_fit_sides) where that still makes a card in the view."""
    h, w = mask.shape[:2]
    found = []
    for contour, hull_area, quad in _four_cornered(mask, cv2.RETR_LIST):
        area = cv2.contourArea(quad.astype(np.float32))
        # The outline must fill its quadrilateral (a card, not an L of table texture).
        filled = cv2.contourArea(contour) / area
        if not (0.9 <= hull_area / area <= 1.08 and filled >= 0.85):
            continue
        if _inside(quad, w, h) and _card_shaped(quad):
            fitted = _fit_sides(quad, contour)
            # Lines fitted through a collection's outline can cross far off the photo.
            found.append(fitted if _inside(fitted, w, h) and _card_shaped(fitted) else quad)
    return found


def _blob_quads(mask: np.ndarray) -> list[np.ndarray]:
    """Every card-like blob of a cut (_cut_from_table), its sides fitted through the
    outline (_fit_sides), which a dotted or checked cloth makes bumpy, so that the polygon
    _card_like_quads tests falls inside it. The blob must fill the fitted card to within
    _BLOB_FILL either way."""
    h, w = mask.shape[:2]
    found = []
    for contour, _, quad in _four_cornered(mask, cv2.RETR_EXTERNAL):
        fitted = _fit_sides(quad, contour)
        if not (_inside(fitted, w, h) and _card_shaped(fitted)):
            continue
        filled = cv2.contourArea(contour) / cv2.contourArea(fitted.astype(np.float32))
        if abs(filled - 1.0) <= _BLOB_FILL:
            found.append(fitted)
    return found


def _four_cornered(mask: np.ndarray, mode: int) -> Iterator[tuple[np.ndarray, float, np.ndarray]]:
    """(outline points (N, 2) float32, its hull's area, the hull's four corners) of every
    outline (cv2.findContours `mode`) in a binary view whose hull is of a card's size and
    has four corners."""
    h, w = mask.shape[:2]
    contours, _ = cv2.findContours(mask, mode, cv2.CHAIN_APPROX_NONE)
    for contour in contours:
        hull = cv2.convexHull(contour)
        hull_area = cv2.contourArea(hull)
        if not _MIN_AREA * h * w <= hull_area <= _MAX_AREA * h * w:
            continue
        quad = _four_corners(hull)
        if quad is not None:
            yield contour.reshape(-1, 2).astype(np.float32), hull_area, quad


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


def _grown(
    lab: np.ndarray, quad: np.ndarray, *, ends: tuple[int, ...] = (0, 1, 2, 3), most: float = 0.93
) -> list[np.ndarray]:
    """The whole card, where `quad` (in `lab`'s px) may be only part of it: a printed
    card's grey bands can merge with a dark or grey table (the colour field is found
    alone, 55 % of the card, or with the conveyor, 85 %), its pale colour field with a
    light table (the bands alone, 45 %). Such a part is too short for its width
    (CARD_ASPECT). Each end is pushed out along the sides to the outermost straight step
    across the card near where the card's proportions put its end, up to which both
    sides run on as edges; ends where they do not give nothing. Only `ends` (of the
    ordered quad) are tried, of a part at most `most` of the card its width says."""
    quad = _order(quad)
    grown = []
    for e in ends:
        (a, ua), (b, ub), width, height = _end_of(quad, e)  # the end to move
        full = width / CARD_ASPECT
        # A whole card seen at an angle still looks at least ~93 % as tall as its width
        # says; a part shorter than 40 % (a band alone) is too little to go on.
        if not 0.4 * full <= height <= most * full:
            continue
        # Perspective changes the card's proportions in a photo by up to ~15 %
        # (measured: 5-14 % in the test's photos): look 18 % either side of the guess.
        xs = np.arange(
            max(0.04 * full, full - height - 0.18 * full) - 3.5,
            full - height + 0.18 * full + 3.5,
            0.5,
        )
        ts = np.linspace(0.15, 0.85, 40)
        ends_a = a + xs[:, None] * ua  # (k, 2)
        ends_b = b + xs[:, None] * ub
        pts = ends_a[None] + ts[:, None, None] * (ends_b - ends_a)[None]  # (n, k, 2)
        profile = _sample(lab, pts)
        # The end runs straight across the whole card: the median over its length.
        score = np.median(_step_strength(profile), axis=0)
        peak = (score >= cv2.dilate(score[None], np.ones((1, 9), np.uint8))[0]) & (
            score >= max(_MIN_STEP, 0.3 * float(score.max()))
        )
        # The band's own edges and lettering are steps across the card too; the card's
        # end is the outermost step up to which its sides run on.
        for i in np.flatnonzero(peak)[::-1]:
            x = float(xs[6:-6][i])
            if not (_runs_on(lab, a, ua, x) and _runs_on(lab, b, ub, x)):
                continue
            grown.append(_ended(lab, quad, e, (a, ua), (b, ub), x, width))
            break
    return grown


def _end_of(
    quad: np.ndarray, e: int
) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray], float, float]:
    """End e of the ordered `quad` (its corners e and e + 1) as its two sides: each the
    end's corner and the unit direction out along the side from the other end; then the
    quad's width across them and its height along them."""
    a, b = quad[e], quad[(e + 1) % 4]
    d, c = quad[e - 1], quad[(e + 2) % 4]  # the other end: d next to a, c next to b
    width = float(np.linalg.norm(b - a) + np.linalg.norm(c - d)) / 2
    height = float(np.linalg.norm(a - d) + np.linalg.norm(b - c)) / 2
    ua = (a - d) / np.linalg.norm(a - d)
    ub = (b - c) / np.linalg.norm(b - c)
    return (a, ua), (b, ub), width, height


def _open_ends(lab: np.ndarray, quad: np.ndarray) -> list[int]:
    """The ends of `quad` (side e of the ordered quad, in `lab`'s px) past which the card
    runs on: both neighbouring sides go on as edges for _RUN_ON of the quad's long side,
    and what lies between them there is not the table beside them (a part of the card
    whose other part the views missed, e.g. the name band on a dark table)."""
    quad = _order(quad)
    sides = [float(np.linalg.norm(quad[(i + 1) % 4] - quad[i])) for i in range(4)]
    reach = _RUN_ON * max(sides[0] + sides[2], sides[1] + sides[3]) / 2
    found = []
    for e in range(4):
        (a, ua), (b, ub), _, _ = _end_of(quad, e)
        # From 2 px past the corners: the end's own step is no side running on. Both: a
        # patterned table's lines can go on from one side.
        if not (_is_edge(lab, a + 2 * ua, ua, reach) and _is_edge(lab, b + 2 * ub, ub, reach)):
            continue
        if _beyond_is_table(lab, a, b, ua, ub, reach):
            continue
        found.append(e)
    return found


def _beyond_is_table(
    lab: np.ndarray, a: np.ndarray, b: np.ndarray, ua: np.ndarray, ub: np.ndarray, reach: float
) -> bool:
    """Whether the strip `reach` deep past the end a-b (sides going on along ua, ub) looks
    like the table on either side of it: a patterned table's lines can line up with a
    side, a card's missing part is another colour than the table beside it."""
    across = (b - a) / np.linalg.norm(b - a)
    span = float(np.linalg.norm(b - a))
    depth = np.linspace(0.2, 0.9, 8) * reach
    ts = np.linspace(0.1, 0.9, 24)
    ea, eb = a + depth[:, None] * ua, b + depth[:, None] * ub  # (k, 2)
    inside = ea[:, None] + ts[None, :, None] * (eb - ea)[:, None]  # (k, n, 2)
    width = np.linspace(0.1, 0.3, 8) * span
    left = ea[:, None] - width[None, :, None] * across
    right = eb[:, None] + width[None, :, None] * across
    strip = np.median(_sample(lab, inside).reshape(-1, 3), axis=0)
    near = [np.median(_sample(lab, side).reshape(-1, 3), axis=0) for side in (left, right)]
    return min(float(np.linalg.norm(strip - n)) for n in near) < _TABLE_LIKE


def _sample(lab: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """The image at the points `pts` (..., 2) of x, y, bilinear, the border repeated."""
    return cv2.remap(
        lab,
        pts[..., 0].astype(np.float32),
        pts[..., 1].astype(np.float32),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )


def _runs_on(lab: np.ndarray, start: np.ndarray, along: np.ndarray, length: float) -> bool:
    """Whether a side of the card runs on as an edge from `start` for `length` px along
    `along`: over the whole stretch and over its last part (table beyond the card's end
    shows no edge there)."""
    last = min(12.0, length / 2)
    return _is_edge(lab, start, along, length) and _is_edge(
        lab, start + (length - last - 1) * along, along, last
    )


def _is_edge(lab: np.ndarray, start: np.ndarray, along: np.ndarray, length: float) -> bool:
    """Whether the line from `start`, `length` px along `along`, is a colour edge: a step
    on it (within a pixel) clearly stronger than the steps a few px to either side
    (table texture has steps everywhere, the card's side only on the line)."""
    on, left, right = _side_steps(lab, start, along, length)
    # The quieter side: the card's own margin is flat, table texture lies on both sides
    # of a line that is not the card's side.
    off = min(float(np.median(left)), float(np.median(right)))
    return float(np.median(on)) >= max(_MIN_STEP, 2.0 * off)


def _side_steps(
    lab: np.ndarray, start: np.ndarray, along: np.ndarray, length: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Along the line from `start` (`length` px along `along`, a sample every ~2 px): the
    strongest step on it (within a pixel), and 3-5 px to either side of it."""
    normal = np.array([-along[1], along[0]])
    ts = np.linspace(0.0, 1.0, max(8, min(200, round(length / 2))))
    offsets = np.arange(-8.5, 8.51, 0.5)
    base = start + ts[:, None] * length * along
    pts = base[:, None, :] + offsets[None, :, None] * normal
    grad = _step_strength(_sample(lab, pts))
    inner = offsets[6:-6]
    return (
        grad[:, np.abs(inner) <= 1.0].max(axis=1),
        grad[:, (inner >= 3.0) & (inner <= 5.0)].max(axis=1),
        grad[:, (inner <= -3.0) & (inner >= -5.0)].max(axis=1),
    )


def _run_out(
    lab: np.ndarray, a: np.ndarray, ua: np.ndarray, b: np.ndarray, ub: np.ndarray, length: float
) -> float | None:
    """How far past a and b (within `length` px) the sides going on along ua and ub stay
    edges: the point that best parts a stretch where they mostly are from one where they
    mostly are not (a weak step or a patterned table's line now and then does not end
    them); None where they are not edges from the start, or are up to `length`."""
    good = []
    for start, along in ((a, ua), (b, ub)):
        on, left, right = _side_steps(lab, start, along, length)
        good.append(on >= np.maximum(_MIN_STEP, 2.0 * np.minimum(left, right)))
    gain = np.cumsum((good[0].astype(float) + good[1]) / 2 - 0.5)
    k = int(np.argmax(gain))
    if gain[k] <= 0 or k == len(gain) - 1:
        return None  # no edges, or edges all the way: no end in reach
    return length * k / (len(gain) - 1)


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
        # The printed card's own steps parallel to its sides (the bands' edges, the name)
        # lie 10 % and more inside it: a window of a few % never reaches them.
        window = reach * length + extra
        limit = max(limit, window)
        line = _edge_line(lab, p, side / length, length, window)
        # A side with no clear edge (a grey band on a table in its shadow) keeps its
        # rough line; the others still move onto theirs.
        lines.append(line if line is not None else (p, side / length))
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
    offsets = np.arange(-reach - 3.5, reach + 3.51, 0.5)
    base = start + ts[:, None] * length * along  # (n, 2)
    pts = base[:, None, :] + offsets[None, :, None] * normal  # (n, k, 2)
    grad = _step_strength(_sample(lab, pts))
    inner = offsets[6:-6]
    valid = np.abs(inner) <= reach
    grad[:, ~valid] = 0
    best = np.argmax(grad, axis=1)
    strength = grad[np.arange(len(best)), best]
    keep = strength > max(_MIN_STEP, 0.4 * float(np.median(strength)))
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
    point = np.array([float(x0[0]), float(y0[0])])
    direction = np.array([float(vx[0]), float(vy[0])])
    # A real side is one straight edge along most of its length; peaks scattered over
    # the window (no edge there, only texture or lettering) fit no line.
    across = (edge - point) @ np.array([-direction[1], direction[0]])
    if (keep & (np.abs(across) < 1.0)).mean() < 0.5:
        return None
    return point, direction


def _step_strength(profile: np.ndarray) -> np.ndarray:
    """How sharp a colour step each of n profiles (n, k, 3: Lab samples 0.5 px apart
    across a line) has at each of its k - 12 inner samples. Lightness counts only what
    stands out from the slope around it (the step across +-1 px less the mean one across
    +-3 px), so a soft shadow beside the card is no edge; colour (a, b) counts as it is:
    a shadow hardly changes it, and JPEG blurs it too much for that test."""
    near = profile[:, 8:-4] - profile[:, 4:-8]
    far = (profile[:, 12:] - profile[:, :-12]) / 3
    near[..., 0] -= far[..., 0]
    grad = np.linalg.norm(near, axis=2).astype(np.float32)
    # Averaged over 9 neighbouring profiles: an edge runs on, noise does not.
    return cv2.blur(grad, (1, 9))


def _cross(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]) -> np.ndarray | None:
    (p, u), (q, v) = a, b
    det = u[0] * (-v[1]) - u[1] * (-v[0])
    if abs(det) < 1e-9:
        return None
    d = q - p
    t = (d[0] * (-v[1]) - d[1] * (-v[0])) / det
    return p + t * u


# --- orientation --------------------------------------------------------------------------


def _upright(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Card order, the card standing upright: a landscape card is turned to portrait, and
    a card whose dark name band (card-spec.md: the bottom 15 %) shows at the top is turned
    the other way up."""
    top = np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])
    left = np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])
    if top > left:
        quad = np.roll(quad, -1, axis=0)  # the card's top is the photo's right-hand side
    if _upside_down(warp_card(image, quad, height=176)):
        quad = np.roll(quad, 2, axis=0)
    return quad


def _upside_down(face: np.ndarray) -> bool:
    """Whether a flattened `face` (BGRA) stands on its head. The card reader, which learnt
    cards standing up, tells: it reads a face surely as a card the right way up, much less
    so on its head, where the name band's colour alone had turned faces with a pale colour
    field under a tinted light (benchmarks/probe_faces_import.py counts the faces imported
    upside down). Where it reads neither way as a card (the back), the name band tells."""
    from vision.classifier import NONE_ID

    card, turned = 1.0 - _reader_odds(face, face[::-1, ::-1])[:, NONE_ID]
    if max(card, turned) >= _READ_A_CARD:
        return bool(turned > card)
    return _name_band_at_top(face)


def _name_band_at_top(face: np.ndarray) -> bool:
    """card-spec.md: the printed card's name band (bottom 15 %) is a neutral grey, the
    family colour field (top 55 %) a saturated colour. Brightness cannot tell them apart
    (the maki red is darker than the band, the dumpling blue as bright), so the strip
    with less chroma is the band. Medians compare the backgrounds, not the lettering."""
    lab = cv2.cvtColor(face[..., :3], cv2.COLOR_BGR2LAB).astype(np.float32)
    chroma = np.hypot(lab[..., 1] - 128, lab[..., 2] - 128)
    h, w = chroma.shape
    x0, x1 = round(0.3 * w), round(0.92 * w)  # right of the top-left icon
    top = float(np.median(chroma[round(0.03 * h) : round(0.12 * h), x0:x1]))
    bottom = float(np.median(chroma[round(0.88 * h) : round(0.97 * h), x0:x1]))
    return top < bottom
