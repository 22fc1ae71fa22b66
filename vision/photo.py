"""Photos as phones make them: bytes in, an upright BGR image of a workable size out.

Phone photos are large (12 MP and up), stored sideways with an EXIF orientation tag, and
come as JPEG, HEIC, PNG or WebP. The detector needs about a megapixel, so the decoder
asks libjpeg for a DCT-scaled reduced image (1/2, 1/4 or 1/8) instead of decoding every
pixel and throwing most of them away; other formats are decoded and then shrunk.

Every limit is checked from the header before any pixel is decoded, so that a small file
claiming a huge image (a decompression bomb) costs nothing.
"""

from __future__ import annotations

import functools
import io
import math
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal

import cv2
import numpy as np
from PIL import Image, UnidentifiedImageError

from vision.limits import MAX_PHOTO_BYTES, MAX_PHOTO_PIXELS

Reason = Literal["not_an_image", "truncated", "too_many_pixels", "too_large", "unsupported"]

# The photo limits (vision.limits) are the one check: Pillow's own (a warning past 89 MP,
# a refusal past 179 MP, in its words) is off, every photo checked before it is decoded.
Image.MAX_IMAGE_PIXELS = None

# PIL's format names. MPO is what PIL calls the multi-picture JPEGs many phones write.
JPEG_FORMATS: Final[frozenset[str]] = frozenset({"JPEG", "MPO"})
SUPPORTED_FORMATS: Final[frozenset[str]] = JPEG_FORMATS | {"PNG", "WEBP", "HEIF"}

_EXIF_ORIENTATION: Final[int] = 0x0112
_JPEG_REDUCTIONS: Final[tuple[int, ...]] = (8, 4, 2)
_CV2_REDUCED_FLAG: Final[dict[int, int]] = {
    2: cv2.IMREAD_REDUCED_COLOR_2,
    4: cv2.IMREAD_REDUCED_COLOR_4,
    8: cv2.IMREAD_REDUCED_COLOR_8,
}
# Clockwise quarter turns as OpenCV's copies, not numpy's strided ones: a 1008 x 756
# photo turns in 0.3 ms instead of 6 (benchmarks/bench_turn.py).
_QUARTER_TURNS: Final[dict[int, Callable[[np.ndarray], np.ndarray]]] = {
    0: np.ascontiguousarray,
    90: functools.partial(cv2.rotate, rotateCode=cv2.ROTATE_90_CLOCKWISE),
    180: functools.partial(cv2.rotate, rotateCode=cv2.ROTATE_180),
    270: functools.partial(cv2.rotate, rotateCode=cv2.ROTATE_90_COUNTERCLOCKWISE),
}
# What stands a stored image upright for each EXIF orientation tag: tags 5-8 store the
# picture transposed (row 0 is a side of the scene), 2, 4, 5 and 7 mirrored.
_UPRIGHT: Final[dict[int, Callable[[np.ndarray], np.ndarray]]] = {
    1: _QUARTER_TURNS[0],
    2: functools.partial(cv2.flip, flipCode=1),
    3: _QUARTER_TURNS[180],
    4: functools.partial(cv2.flip, flipCode=0),
    5: cv2.transpose,
    6: _QUARTER_TURNS[90],
    7: lambda image: cv2.flip(cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE), 0),
    8: _QUARTER_TURNS[270],
}
# Magic numbers of the formats we read; used only to tell "truncated" from "not an image"
# when PIL cannot even parse the header.
_SIGNATURES: Final[tuple[bytes, ...]] = (b"\xff\xd8\xff", b"\x89PNG\r\n\x1a\n", b"RIFF")


class PhotoError(ValueError):
    """A photo that cannot be used, with a machine-readable `reason`.

    reason is one of: "not_an_image", "truncated", "too_many_pixels", "too_large",
    "unsupported". The message says what was wrong in words a user can act on.
    """

    def __init__(self, reason: Reason, message: str) -> None:
        super().__init__(message)
        self.reason: Reason = reason


@dataclass(frozen=True)
class Photo:
    """A decoded photo.

    image: BGR uint8 (H, W, 3), upright (EXIF orientation applied), possibly reduced.
    original_size: (width, height) of the full-resolution photo, upright.
    scale: original pixels per decoded pixel (>= 1); multiply coordinates found in
        `image` by it to get coordinates in the original photo.
    turn: degrees clockwise (0-359) the photo was turned on top of its EXIF orientation,
        where its cards did not stand upright (vision/pipeline.py); image and
        original_size are of the photo so turned (a canvas grown to hold it all, for an
        angle that is no multiple of 90).
    """

    image: np.ndarray
    original_size: tuple[int, int]
    scale: float
    turn: int = 0

    def __post_init__(self) -> None:
        if self.image.ndim != 3 or self.image.shape[2] != 3 or self.image.dtype != np.uint8:
            raise ValueError(
                f"image must be (H, W, 3) uint8, got {self.image.shape} {self.image.dtype}"
            )
        if self.scale < 1:
            raise ValueError(f"scale must be >= 1, got {self.scale}")
        if self.turn not in range(360):
            raise ValueError(f"turn must be whole degrees 0-359, got {self.turn}")

    def turned(self, degrees: int) -> Photo:
        """This photo turned clockwise by `degrees` more."""
        degrees %= 360
        if not degrees:
            return self
        return Photo(
            image=turn_image(self.image, degrees),
            original_size=turned_size(self.original_size, degrees),
            scale=self.scale,
            turn=(self.turn + degrees) % 360,
        )


def load_photo(
    data: bytes,
    *,
    max_bytes: int = MAX_PHOTO_BYTES,
    max_pixels: int = MAX_PHOTO_PIXELS,
    min_long_side: int = 1000,
) -> Photo:
    """Decode a phone photo (JPEG, PNG, WebP, HEIC/HEIF) into an upright BGR image.

    The decoded image keeps its long side at least `min_long_side` pixels (unless the
    photo is smaller than that) and is reduced when the photo is much larger.
    Raises PhotoError for anything that is not a usable photo; never decodes more than
    the header of a photo over `max_pixels`.
    """
    if not data:
        raise PhotoError("not_an_image", "the file is empty")
    if len(data) > max_bytes:
        raise _too_large(len(data), max_bytes)
    header = _open_header(data)
    _check_header(header, max_pixels)
    orientation = _orientation(header)
    if header.format in JPEG_FORMATS:
        image, scale = _decode_jpeg(data, header, min_long_side)
    else:
        image = _decode_with_pillow(header)
        scale = 1.0
    image = orient(image, orientation)
    image, scale = _shrink(image, scale, min_long_side)
    width, height = header.size
    original = (height, width) if orientation >= 5 else (width, height)
    return Photo(image=image, original_size=original, scale=scale)


def load_photo_file(
    path: str | os.PathLike[str],
    *,
    max_bytes: int = MAX_PHOTO_BYTES,
    max_pixels: int = MAX_PHOTO_PIXELS,
    min_long_side: int = 1000,
) -> Photo:
    """`load_photo` on a file; an oversized file is refused before it is read."""
    size = os.path.getsize(path)
    if size > max_bytes:
        raise _too_large(size, max_bytes)
    with open(path, "rb") as file:
        data = file.read()
    return load_photo(data, max_bytes=max_bytes, max_pixels=max_pixels, min_long_side=min_long_side)


def orient(image: np.ndarray, orientation: int) -> np.ndarray:
    """Turn a stored image the right way up for an EXIF orientation tag (1-8). Phones held
    upright store nearly every photo turned (tag 6), so this is on the fast path."""
    if orientation not in range(1, 9):
        return image  # a nonsense tag: show the pixels as stored rather than guess
    return _UPRIGHT[orientation](image)


# card_slant judges the edges of the image reduced to about this long side: a card's edges
# are tens of pixels long there.
SLANT_SIDE: Final[int] = 500


def turn_image(image: np.ndarray, degrees: int, *, black_corners: bool = False) -> np.ndarray:
    """The image turned clockwise by `degrees`: exactly for a multiple of 90, else resampled
    onto a canvas grown to hold all of it (`turned_size`). Its corners are filled with the
    nearest edge's pixels, so that they draw no edge of their own for the networks, or,
    for a file a person will look at, black (smeared edges look like a fault)."""
    degrees %= 360
    if degrees % 90 == 0:
        return _QUARTER_TURNS[degrees](image)
    height, width = image.shape[:2]
    new_width, new_height = turned_size((width, height), degrees)
    # OpenCV turns anticlockwise for a positive angle.
    matrix = cv2.getRotationMatrix2D((width / 2, height / 2), -degrees, 1.0)
    matrix[:, 2] += (new_width - width) / 2, (new_height - height) / 2
    return cv2.warpAffine(
        image, matrix, (new_width, new_height), flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT if black_corners else cv2.BORDER_REPLICATE,
    )  # fmt: skip


def turned_size(size: tuple[int, int], degrees: int) -> tuple[int, int]:
    """(width, height) of an image of `size` turned by `degrees` (`turn_image`)."""
    width, height = size
    if degrees % 180 == 0:
        return width, height
    if degrees % 90 == 0:
        return height, width
    c, s = abs(math.cos(math.radians(degrees))), abs(math.sin(math.radians(degrees)))
    return round(width * c + height * s), round(width * s + height * c)


def boxes_turned_back(boxes: np.ndarray, size: tuple[int, int], degrees: int) -> np.ndarray:
    """Boxes (N, 4) xyxy found in an image of `size` (width, height) turned clockwise by
    `degrees` (`turn_image`), in the image's own frame: the hull of each box's corners
    turned back. For a card that stood straight in the turned image, that hull is the
    card's own box in the image as it came."""
    boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
    degrees %= 360
    if not degrees or not len(boxes):
        return boxes.copy()
    width, height = size
    turned_width, turned_height = turned_size(size, degrees)
    corners = boxes[:, [[0, 1], [2, 1], [2, 3], [0, 3]]]  # (N, 4 corners, xy)
    dx = corners[..., 0] - turned_width / 2
    dy = corners[..., 1] - turned_height / 2
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    x = c * dx + s * dy + width / 2
    y = -s * dx + c * dy + height / 2
    return np.stack([x.min(1), y.min(1), x.max(1), y.max(1)], axis=1).astype(np.float32)


def card_slant(image: np.ndarray, boxes: np.ndarray) -> float:
    """The turn (degrees clockwise, -45 to 45) that stands the cards inside `boxes` (xyxy,
    image px) straight, up to quarter turns: from the mean direction of the edges there,
    each edge's direction taken four times round so that a card's four sides agree. Card
    edges (a face's border against the table and against the next card) outweigh an
    illustration's; the whole image is judged where no box was found."""
    height, width = image.shape[:2]
    # Reduced by a whole factor, which OpenCV's area resampling does far faster than any
    # other.
    k = max(1, round(max(height, width) / SLANT_SIDE))
    small = cv2.resize(image, (width // k, height // k), interpolation=cv2.INTER_AREA)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
    inside = np.zeros(grey.shape, bool)
    for x0, y0, x1, y1 in (np.asarray(boxes, np.float64).reshape(-1, 4) / k).astype(int):
        inside[max(y0, 0) : y1, max(x0, 0) : x1] = True
    if not inside.any():
        inside[:] = True
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)[inside]
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)[inside]
    # Each edge's direction four times round, weighted by its strength m: m e^(4i angle)
    # = (gx + i gy)^4 / m^3, in real arithmetic (no arctan, no complex exponential).
    xx, yy = gx * gx, gy * gy
    squared = xx + yy
    cos2, sin2 = xx - yy, 2 * gx * gy
    m3 = squared * np.sqrt(squared) + 1e-6
    across = float(((cos2 * cos2 - sin2 * sin2) / m3).sum())
    along = float((2 * sin2 * cos2 / m3).sum())
    # Image rows run down, so the edges' mean direction is the cards' clockwise turn;
    # what stands them straight is its opposite.
    return -math.degrees(math.atan2(along, across)) / 4


def turned_file(data: bytes, degrees: int, *, max_pixels: int = MAX_PHOTO_PIXELS) -> bytes:
    """A photo file as a JPEG of its full-resolution pixels, upright by its EXIF tag and
    then turned clockwise by `degrees`: what the service keeps of a photo whose cards were
    read turned, so that its boxes and the file agree."""
    photo = load_photo(data, max_bytes=len(data), max_pixels=max_pixels, min_long_side=1 << 30)
    ok, encoded = cv2.imencode(
        ".jpg", turn_image(photo.image, degrees, black_corners=True), [cv2.IMWRITE_JPEG_QUALITY, 95]
    )
    if not ok:
        raise PhotoError("unsupported", "the turned photo could not be encoded as JPEG")
    return encoded.tobytes()


def jpeg_reduction(width: int, height: int, min_long_side: int) -> int:
    """The largest libjpeg scale denominator (8, 4, 2 or 1) keeping the long side."""
    long_side = max(width, height)
    for factor in _JPEG_REDUCTIONS:
        if math.ceil(long_side / factor) >= min_long_side:
            return factor
    return 1


def _too_large(size: int, max_bytes: int) -> PhotoError:
    return PhotoError("too_large", f"the file is {size:,} bytes; the limit is {max_bytes:,} bytes")


def _open_header(data: bytes) -> Image.Image:
    """PIL's lazy open: parses the header (size, format, EXIF) without decoding pixels."""
    if data[4:8] == b"ftyp":
        _register_heif()
    try:
        return _pillow_open()(io.BytesIO(data))
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as error:
        if data.startswith(_SIGNATURES) or data[4:8] == b"ftyp":
            raise PhotoError(
                "truncated", "the image is truncated or corrupt: its header is unreadable"
            ) from error
        raise PhotoError("not_an_image", "the file is not an image") from None


@functools.cache
def _register_heif() -> None:
    # Imported only when a HEIF container shows up: most photos never need it.
    import pillow_heif

    pillow_heif.register_heif_opener()


def _check_header(header: Image.Image, max_pixels: int) -> None:
    if header.format not in SUPPORTED_FORMATS:
        names = "JPEG, PNG, WebP, HEIC"
        raise PhotoError(
            "unsupported", f"{header.format or 'this'} images are not supported; send {names}"
        )
    width, height = header.size
    if width < 1 or height < 1:
        raise PhotoError("not_an_image", f"the image claims an empty size {width}x{height}")
    if width * height > max_pixels:
        raise PhotoError(
            "too_many_pixels",
            f"the image is {width}x{height} = {width * height:,} pixels; "
            f"the limit is {max_pixels:,}",
        )


def _orientation(header: Image.Image) -> int:
    """The EXIF orientation tag, 1 when absent or unreadable.

    pillow-heif applies HEIF's own rotation on decode and reports the tag as 1, so
    HEIC photos are never rotated twice.
    """
    try:
        value = header.getexif().get(_EXIF_ORIENTATION, 1)
    except Exception:  # a malformed EXIF block must not cost the photo itself
        return 1
    return value if isinstance(value, int) and 1 <= value <= 8 else 1


def _decode_jpeg(data: bytes, header: Image.Image, min_long_side: int) -> tuple[np.ndarray, float]:
    """Reduced DCT decode: a 12 MP photo is decoded at 1/4 scale, never in full.

    OpenCV is the fast path. It is told to ignore EXIF orientation (it would otherwise
    rotate JPEGs itself, and we rotate every format in one place). OpenCV builds cannot
    be trusted to notice a truncated JPEG (older ones return a half-grey image), so only
    a JPEG whose last scan is followed by an EOI marker goes to OpenCV (`_ends_its_scan`);
    the rest, and anything OpenCV rejects, go through PIL, which raises on truncation.
    """
    factor = jpeg_reduction(*header.size, min_long_side)
    image = None
    if _ends_its_scan(data):
        flags = _CV2_REDUCED_FLAG.get(factor, cv2.IMREAD_COLOR) | cv2.IMREAD_IGNORE_ORIENTATION
        image = cv2.imdecode(np.frombuffer(data, np.uint8), flags)
    if image is None:
        width, height = header.size
        header.draft("RGB", (math.ceil(width / factor), math.ceil(height / factor)))
        image = _decode_with_pillow(header)
    return image, float(factor)


def _ends_its_scan(data: bytes) -> bool:
    """Whether an EOI marker follows the start of the JPEG's last scan (SOS).

    Inside a scan's entropy-coded data a 0xFF byte is always followed by 0x00 or a
    restart marker, so neither marker can appear there: a file cut short has no EOI
    after its last SOS, while a whole image has one, also when data follows it. Some
    phones append a trailer after the EOI (Samsung's, for one); those used to take the
    slower Pillow decode, which also holds the GIL for most of its time.
    """
    # Said as "no SOS after the last EOI, one before it": both searches stop near the
    # markers (the headers, the file's end) instead of scanning the whole scan backwards.
    end = data.rfind(b"\xff\xd9")
    return end >= 0 and data.find(b"\xff\xda", end) < 0 and 0 <= data.find(b"\xff\xda") < end


def _decode_with_pillow(header: Image.Image) -> np.ndarray:
    try:
        header.load()
        return _to_bgr(header)
    except PhotoError:
        raise
    except Exception as error:  # decoders raise anything from OSError to struct.error
        raise PhotoError("truncated", f"the image is truncated or corrupt ({error})") from error


def _to_bgr(image: Image.Image) -> np.ndarray:
    """Any PIL mode as BGR uint8: 16-bit scaled down, alpha flattened onto white."""
    if image.mode.startswith("I") or image.mode == "F":
        gray = _gray_to_uint8(np.asarray(image), image.mode)
        return cv2.cvtColor(gray, cv2.COLOR_GRAY2BGR)
    if image.mode in ("RGBA", "LA", "PA", "La", "RGBa") or "transparency" in image.info:
        rgba = np.asarray(image.convert("RGBA"), dtype=np.float32)
        # Transparent pixels hold arbitrary colour; white is what a viewer shows.
        alpha = rgba[..., 3:] / 255.0
        rgb = rgba[..., :3] * alpha + 255.0 * (1.0 - alpha)
        return cv2.cvtColor(np.round(rgb).astype(np.uint8), cv2.COLOR_RGB2BGR)
    rgb = np.asarray(image.convert("RGB"))
    return cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR)


def _gray_to_uint8(values: np.ndarray, mode: str) -> np.ndarray:
    if mode == "F":
        return np.clip(np.round(values), 0, 255).astype(np.uint8)
    # PIL's integer modes hold 16-bit PNG samples (0..65535).
    return np.clip(np.round(values.astype(np.float32) / 257.0), 0, 255).astype(np.uint8)


def _shrink(image: np.ndarray, scale: float, min_long_side: int) -> tuple[np.ndarray, float]:
    """Area-average a photo much larger than needed down to `min_long_side`.

    Only beyond twice the target: a resize costs time and, near the target, buys little.
    """
    height, width = image.shape[:2]
    long_side = max(width, height)
    if long_side <= 2 * min_long_side:
        return image, scale
    factor = long_side / min_long_side
    size = (max(1, round(width / factor)), max(1, round(height / factor)))
    small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    return small, scale * long_side / max(size)


def _pillow_open() -> Callable[..., Image.Image]:
    """Pillow's own Image.open. Importing ultralytics (training, evaluation, tests in the
    same process) replaces it with a wrapper that tries to pip-install a HEIF plugin on any
    file Pillow cannot identify; a photo that is not an image must stay a PhotoError."""
    patches = sys.modules.get("ultralytics.utils.patches")
    original = getattr(patches, "_image_open", None)
    return original if callable(original) else Image.open
