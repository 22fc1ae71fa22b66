"""The reviewer's picture: boxes, labels, stacks and the tally drawn on the photo.

Drawn with OpenCV's built-in Hershey fonts (no font files exist on the machines this runs
on), with line widths and text sized from the image so that a 12 MP photo and a
thumbnail read alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final, NamedTuple

import cv2
import numpy as np

from scoring.cards import STACKS, TALLY_NAMES
from vision.boxes import intersections
from vision.detections import Detections
from vision.labels import LABEL_ID, LABELS
from vision.reading import Reading

# One colour per label, as the review page draws its boxes (api/web/cards.js, checked
# by tests/web/test_static.py): a photo's annotated copy and its page look alike. Kinds of
# one family (maki, nigiri and their stacks) share a hue, told apart by brightness.
PALETTE: Final[dict[str, str]] = {
    "tempura": "#e69f00",
    "sashimi": "#009e73",
    "dumpling": "#56b4e9",
    "maki_1": "#d55e00",
    "maki_2": "#c0392b",
    "maki_3": "#8e1b10",
    "egg": "#c9a800",
    "salmon": "#f07c5a",
    "squid": "#7f8c9a",
    "egg_on_wasabi": "#9a8a00",
    "salmon_on_wasabi": "#c2553a",
    "squid_on_wasabi": "#52606d",
    "wasabi": "#3f9b35",
    "chopsticks": "#8d6e63",
    "pudding": "#cc79a7",
}


def _bgr(hex_colour: str) -> tuple[int, int, int]:
    red, green, blue = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return blue, green, red


COLOURS: Final[tuple[tuple[int, int, int], ...]] = tuple(_bgr(PALETTE[label]) for label in LABELS)
# What the drawing looks like, as a number: a cache of drawn photos keys on it, so that a
# change here (colours, tags) draws them again. Raise it with any change to the drawing.
DRAWING: Final[int] = 3
STACK_LINK: Final[tuple[int, int, int]] = (255, 0, 255)
PANEL_TEXT: Final[tuple[int, int, int]] = (255, 255, 255)
WARNING_TEXT: Final[tuple[int, int, int]] = (80, 200, 255)
FONT: Final[int] = cv2.FONT_HERSHEY_SIMPLEX


class Told(NamedTuple):
    """What a game's review says of a photo beyond its boxes' reading, to draw instead of
    the reading's own: the warnings a game kept with the photo (the hand size's, which a
    second reading of the boxes cannot give) and its problems, named; its notes; and the
    boxes the warnings point at, by index in the detections read."""

    warnings: Sequence[str]
    notes: Sequence[str]
    to_check: frozenset[int]


def annotate(
    image: np.ndarray,
    reading: Reading,
    told: Told | None = None,
    left_out: Detections | None = None,
) -> np.ndarray:
    """A copy of `image` (BGR; boxes in its pixels) with the reading drawn on it, what a
    review says of it (`told`) where one does, and the cards `left_out` as another
    player's (vision.pipeline), dashed, so that the warning that says so can be seen to."""
    canvas = _as_bgr(image).copy()
    style = _Style.for_image(canvas)
    detections = reading.detections
    apart = Detections.empty() if left_out is None else left_out
    # Frames, then stack links, then label tags: no line crosses a label.
    for box, class_id in zip(detections.xyxy, detections.class_id, strict=True):
        _draw_frame(canvas, style, box, int(class_id))
    for box, class_id in zip(apart.xyxy, apart.class_id, strict=True):
        _draw_dashed_frame(canvas, style, box, int(class_id))
    for wasabi, nigiri in reading.stacks:
        _draw_link(canvas, style, detections.xyxy[wasabi], detections.xyxy[nigiri])
    if told is None:
        told = Told(reading.warning_texts, reading.note_texts, frozenset(reading.to_check))
    labelled = [*tags(reading, told.to_check), *left_out_tags(apart)]
    for tag, place in zip(labelled, tag_places(labelled, style, canvas.shape[:2]), strict=True):
        _draw_tag(canvas, style, tag, place)
    _draw_panel(canvas, style, reading, told)
    return canvas


class Tag(NamedTuple):
    """One label drawn on the photo: its words, where (a box's top edge) and its colour."""

    text: str
    box: np.ndarray
    class_id: int


def tags(reading: Reading, to_check: Iterable[int] | None = None) -> list[Tag]:
    """A tag per card box in the names people use ("Egg nigiri 91%"); a stack is one thing
    with one tag ("Salmon on wasabi 88%", the nigiri's confidence) on top of both of its
    boxes, its wasabi strip tagless, so that no tag says "wasabi" of a wasabi under a
    nigiri (it is not counted as one)."""
    detections = reading.detections
    under = {wasabi: nigiri for wasabi, nigiri in reading.stacks}
    on = {nigiri: wasabi for wasabi, nigiri in reading.stacks}
    # The boxes a warning points at (the reading's, unless `to_check` says), by index in
    # the detections read: `source` maps them to the reading's.
    named = set(reading.to_check if to_check is None else to_check)
    checked = {index for index, read in enumerate(reading.source) if int(read) in named}
    result = []
    for index, (box, class_id, confidence) in enumerate(
        zip(detections.xyxy, detections.class_id, detections.confidence, strict=True)
    ):
        if index in under:
            continue
        label = LABELS[int(class_id)]
        if index in on:
            label = label if label in STACKS else f"{label}_on_wasabi"
            wasabi = detections.xyxy[on[index]]
            box = np.concatenate([np.minimum(box[:2], wasabi[:2]), np.maximum(box[2:], wasabi[2:])])
        text = f"{TALLY_NAMES[label]} {float(confidence):.0%}"
        # A box a warning points at asks, as the review page's tag does.
        asks = index in checked or on.get(index) in checked
        result.append(Tag(f"{text} ?" if asks else text, box, LABEL_ID[label]))
    return result


def left_out_tags(left_out: Detections) -> list[Tag]:
    """A tag per card left out as another player's: "Tempura, left out"."""
    return [
        Tag(f"{TALLY_NAMES[LABELS[int(class_id)]]}, left out", box, int(class_id))
        for box, class_id in zip(left_out.xyxy, left_out.class_id, strict=True)
    ]


def encode_jpeg(image: np.ndarray, quality: int = 85) -> bytes:
    """JPEG bytes of a BGR image."""
    if not 1 <= quality <= 100:
        raise ValueError(f"quality must lie in [1, 100], got {quality}")
    ok, buffer = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise ValueError(f"cannot encode an image of shape {image.shape} as JPEG")
    return buffer.tobytes()


class _Style:
    """Line widths and text sizes for one image, from its long side."""

    def __init__(self, long_side: int, text_share: float = 1.0) -> None:
        unit = max(long_side, 200) / 1000  # 1 at a megapixel-ish photo
        self.long_side = long_side
        self.text_share = text_share
        self.line = max(1, round(2.5 * unit))
        self.text_scale = 0.55 * unit * text_share
        self.text_weight = max(1, round(1.5 * unit * text_share))
        self.pad = max(2, round(4 * unit * text_share))

    @classmethod
    def for_image(cls, image: np.ndarray) -> _Style:
        return cls(max(image.shape[:2]))

    def smaller(self, factor: float) -> _Style:
        """The same lines with text `factor` times as large (the panel, where it would not
        fit the photo's height)."""
        return _Style(self.long_side, self.text_share * factor)

    def text_size(self, text: str, scale: float = 1.0) -> tuple[int, int, int]:
        """(width, height above the baseline, depth below it) of `text`."""
        (width, height), baseline = cv2.getTextSize(
            text, FONT, self.text_scale * scale, self.text_weight
        )
        return width, height, baseline


def _as_bgr(image: np.ndarray) -> np.ndarray:
    if image.dtype != np.uint8:
        raise ValueError(f"image must be uint8, got {image.dtype}")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim == 3 and image.shape[2] == 3:
        return image
    raise ValueError(f"image must be (H, W) or (H, W, 3), got {image.shape}")


def _draw_frame(canvas: np.ndarray, style: _Style, box: np.ndarray, class_id: int) -> None:
    x1, y1, x2, y2 = (round(float(v)) for v in box)
    cv2.rectangle(canvas, (x1, y1), (x2, y2), COLOURS[class_id], style.line, cv2.LINE_AA)


def _draw_dashed_frame(canvas: np.ndarray, style: _Style, box: np.ndarray, class_id: int) -> None:
    """A box's frame in dashes: a card on the photo the tally does not count."""
    x1, y1, x2, y2 = (float(v) for v in box)
    corners = [(x1, y1), (x2, y1), (x2, y2), (x1, y2)]
    for (ax, ay), (bx, by) in zip(corners, corners[1:] + corners[:1], strict=True):
        steps = max(2, int(max(abs(bx - ax), abs(by - ay)) // (4 * style.line)))
        points = [
            (round(ax + (bx - ax) * k / steps), round(ay + (by - ay) * k / steps))
            for k in range(steps + 1)
        ]
        for start, end in zip(points[::2], points[1::2], strict=False):
            cv2.line(canvas, start, end, COLOURS[class_id], style.line, cv2.LINE_AA)


def tag_places(
    labelled: list[Tag], style: _Style, size: tuple[int, int]
) -> list[tuple[int, int, int, int]]:
    """(left, top, right, bottom) of each tag: on its box's top edge, against its right
    edge, outside the box where there is room above it; where that would cover a tag
    already placed (boxes side by side in a row, a stack beside a wasabi), further down
    inside its box. Tags are placed from the top of the photo down, so that the highest
    keeps its place."""
    image_h, image_w = size
    places: dict[int, tuple[int, int, int, int]] = {}
    order = sorted(range(len(labelled)), key=lambda k: (float(labelled[k].box[1]), k))
    for k in order:
        tag = labelled[k]
        width, height, depth = style.text_size(tag.text)
        tag_w, tag_h = width + 2 * style.pad, height + depth + 2 * style.pad
        x1, y1, x2 = (round(float(v)) for v in tag.box[:3])
        # Against the box's right edge: its top-left corner holds the card's icon, what
        # tells the look-alikes apart (a column's covered cards show little else).
        left = min(max(x1, x2 - tag_w, 0), max(image_w - tag_w, 0))
        tops = [y1 - tag_h] if y1 - tag_h >= 0 else []
        tops += [max(y1, 0) + step * tag_h for step in range(4)]
        candidates = [(left, top, left + tag_w, top + tag_h) for top in tops]
        inside = [c for c in candidates if c[3] <= image_h] or candidates[:1]
        free = [c for c in inside if not any(_overlap(c, other) for other in places.values())]
        places[k] = (free or inside)[0]
    return [places[k] for k in range(len(labelled))]


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _draw_tag(
    canvas: np.ndarray, style: _Style, tag: Tag, place: tuple[int, int, int, int]
) -> None:
    """The label and confidence on a tag in the box's colour, at `place` (tag_places)."""
    colour = COLOURS[tag.class_id]
    text = tag.text
    _, height, _ = style.text_size(text)
    left, top, right, bottom = place
    cv2.rectangle(canvas, (left, top), (right, bottom), colour, cv2.FILLED)
    cv2.putText(
        canvas,
        text,
        (left + style.pad, top + style.pad + height),
        FONT,
        style.text_scale,
        _ink_on(colour),
        style.text_weight,
        cv2.LINE_AA,
    )


def _draw_link(canvas: np.ndarray, style: _Style, wasabi: np.ndarray, nigiri: np.ndarray) -> None:
    """A stack: a line from the wasabi's centre to its nigiri's, with dots at both ends."""
    a = (round(float(wasabi[0] + wasabi[2]) / 2), round(float(wasabi[1] + wasabi[3]) / 2))
    b = (round(float(nigiri[0] + nigiri[2]) / 2), round(float(nigiri[1] + nigiri[3]) / 2))
    cv2.line(canvas, a, b, STACK_LINK, style.line + 1, cv2.LINE_AA)
    for point in (a, b):
        cv2.circle(canvas, point, 2 * style.line + 2, STACK_LINK, cv2.FILLED, cv2.LINE_AA)


def _draw_panel(canvas: np.ndarray, style: _Style, reading: Reading, told: Told) -> None:
    """The tally's non-zero counts and the card count, then warnings and notes, on a
    darkened panel so that they read over any photo, in the corner where it hides the
    least of the cards (top left when it hides none)."""
    lines = [(f"{reading.cards} cards", PANEL_TEXT)]
    lines += [
        (f"{TALLY_NAMES.get(key, key)}: {count}", PANEL_TEXT)
        for key, count in reading.tally.to_dict().items()
        if count
    ]
    lines += [(f"! {warning}", WARNING_TEXT) for warning in told.warnings]
    lines += [(note, PANEL_TEXT) for note in told.notes]
    panel = panel_layout(lines, canvas.shape[:2], style)
    left, top = _panel_corner(canvas.shape[:2], panel.width, panel.height, reading.detections.xyxy)
    region = canvas[top : top + panel.height, left : left + panel.width]
    region[:] = (region.astype(np.float32) * 0.35).astype(np.uint8)
    pad = panel.style.pad
    for k, (text, colour) in enumerate(panel.texts):
        cv2.putText(
            canvas,
            text,
            (left + pad, top + pad + k * panel.line_h + panel.ascent),
            FONT,
            panel.style.text_scale,
            colour,
            panel.style.text_weight,
            cv2.LINE_AA,
        )


class Panel(NamedTuple):
    """The panel's lines as drawn (wrapped), the style they are drawn in, and its size:
    line k's baseline lies `pad + k * line_h + ascent` below the panel's top."""

    texts: list[tuple[str, tuple[int, int, int]]]
    style: _Style
    ascent: int
    line_h: int
    width: int
    height: int


# Below this share of the photo's own text size the panel's words no longer read.
_SMALLEST_TEXT: Final[float] = 0.4


def panel_layout(
    lines: list[tuple[str, tuple[int, int, int]]], size: tuple[int, int], style: _Style
) -> Panel:
    """`lines` wrapped to the photo's width, in text made smaller until they fit its
    height (many warnings on a small photo); where even the smallest text does not fit,
    the last line that fits says how many more there are."""
    image_h, image_w = size
    while True:
        panel = _laid_out(lines, image_w, style)
        if panel.height <= image_h or style.text_share <= _SMALLEST_TEXT:
            break
        # At least 5 % smaller a step (text sizes round to whole pixels): a few steps.
        shrink = min(image_h / panel.height, 0.95)
        style = style.smaller(max(shrink, _SMALLEST_TEXT / style.text_share))
    if panel.height <= image_h:
        return panel
    fits = max(1, (image_h - style.pad) // panel.line_h)
    more = len(panel.texts) - fits + 1
    texts = [*panel.texts[: fits - 1], (f"... {more} more lines", WARNING_TEXT)]
    width = max(style.text_size(text)[0] for text, _ in texts) + 2 * style.pad
    height = panel.line_h * fits + style.pad
    return panel._replace(texts=texts, width=min(width, image_w), height=min(height, image_h))


def _laid_out(lines: list[tuple[str, tuple[int, int, int]]], image_w: int, style: _Style) -> Panel:
    max_width = image_w - 4 * style.pad
    # A warning is what the reviewer acts on: wrapped to the photo's width, not cut.
    texts = [(part, colour) for text, colour in lines for part in wrap(text, style, max_width)]
    sizes = [style.text_size(text) for text, _ in texts]
    ascent, descent = max(h for _, h, _ in sizes), max(d for _, _, d in sizes)
    line_h = ascent + descent + style.pad
    width = min(max(w for w, _, _ in sizes) + 2 * style.pad, image_w)
    return Panel(texts, style, ascent, line_h, width, line_h * len(texts) + style.pad)


def _panel_corner(
    size: tuple[int, int], width: int, height: int, boxes: np.ndarray
) -> tuple[int, int]:
    """(left, top) of a width x height panel in the image corner that covers the least
    area of these boxes; the first corner (top left) wins a tie."""
    image_h, image_w = size
    corners = [
        (0, 0),
        (image_w - width, 0),
        (0, image_h - height),
        (image_w - width, image_h - height),
    ]

    def hidden(corner: tuple[int, int]) -> float:
        left, top = corner
        return float(intersections(np.array([left, top, left + width, top + height]), boxes).sum())

    return min(corners, key=hidden)


def wrap(text: str, style: _Style, max_width: int) -> list[str]:
    """`text` in lines at most `max_width` pixels wide, broken between words; the lines
    after the first indented; a word wider than a line alone is shortened (`_fit`)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        longer = f"{line} {word}" if line else word
        if line and style.text_size(longer)[0] > max_width:
            lines.append(line)
            longer = f"  {word}"
        line = longer
    lines.append(line)
    return [_fit(part, style, max_width) for part in lines]


def _fit(text: str, style: _Style, max_width: int) -> str:
    """`text`, shortened with an ellipsis if it is wider than `max_width` pixels."""
    if style.text_size(text)[0] <= max_width:
        return text
    while len(text) > 1 and style.text_size(text + "...")[0] > max_width:
        text = text[:-1]
    return text + "..."


def _ink_on(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """Black or white text, whichever reads better on `colour` (BGR)."""
    blue, green, red = colour
    luma = 0.114 * blue + 0.587 * green + 0.299 * red
    return (0, 0, 0) if luma > 140 else (255, 255, 255)
