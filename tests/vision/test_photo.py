"""Photos as phones make them: formats, EXIF orientation, reduced decodes, bad input."""

from __future__ import annotations

import inspect
import io
import struct
import warnings
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from api.settings import Settings as ServiceSettings
from vision import photo as photo_module
from vision.photo import Photo, PhotoError, load_photo, load_photo_file

HEIGHT, WIDTH = 300, 400  # landscape, so a missed transpose shows in the shape
RED = (0, 0, 255)  # BGR
GRAY = (128, 128, 128)


def upright_scene() -> np.ndarray:
    """Grey with a red block in the top-left corner: each of the 8 orientations differs."""
    image = np.full((HEIGHT, WIDTH, 3), GRAY, np.uint8)
    image[:80, :100] = RED
    return image


def stored_for(upright: np.ndarray, orientation: int) -> np.ndarray:
    """The pixels a camera stores for `upright` under an EXIF orientation tag.

    Written from the EXIF definition of each tag (which side of the scene row 0 and
    column 0 of the stored image show), independently of vision.photo.
    """
    u = upright
    stored = {
        1: u,  # row 0 top, column 0 left
        2: u[:, ::-1],  # row 0 top, column 0 right
        3: u[::-1, ::-1],  # row 0 bottom, column 0 right
        4: u[::-1, :],  # row 0 bottom, column 0 left
        5: u.transpose(1, 0, 2),  # row 0 left, column 0 top
        6: u[:, ::-1].transpose(1, 0, 2),  # row 0 right, column 0 top
        7: u[::-1, ::-1].transpose(1, 0, 2),  # row 0 right, column 0 bottom
        8: u[::-1, :].transpose(1, 0, 2),  # row 0 left, column 0 bottom
    }[orientation]
    return np.ascontiguousarray(stored)


def encode(bgr: np.ndarray, fmt: str, *, orientation: int | None = None, **options) -> bytes:
    """Encode with PIL (the library phones' files look like), optionally with EXIF."""
    if fmt == "HEIF":
        photo_module._register_heif()
    image = Image.fromarray(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB))
    if orientation is not None:
        exif = Image.Exif()
        exif[0x0112] = orientation
        options["exif"] = exif.tobytes()
    buffer = io.BytesIO()
    image.save(buffer, format=fmt, **options)
    return buffer.getvalue()


def region_mean(image: np.ndarray, rows: slice, cols: slice) -> np.ndarray:
    return image[rows, cols].reshape(-1, 3).mean(axis=0)


def assert_upright(result: Photo) -> None:
    assert result.image.shape == (HEIGHT, WIDTH, 3)
    assert result.image.dtype == np.uint8
    assert result.original_size == (WIDTH, HEIGHT)
    marker = region_mean(result.image, slice(10, 70), slice(10, 90))
    assert marker[2] > 200 and marker[0] < 60 and marker[1] < 60, marker
    for rows, cols in [
        (slice(10, 70), slice(WIDTH - 90, WIDTH - 10)),
        (slice(HEIGHT - 70, HEIGHT - 10), slice(10, 90)),
        (slice(HEIGHT - 70, HEIGHT - 10), slice(WIDTH - 90, WIDTH - 10)),
    ]:
        np.testing.assert_allclose(region_mean(result.image, rows, cols), GRAY, atol=12)


FORMAT_OPTIONS = {
    "JPEG": {"quality": 92},
    "PNG": {},
    "WEBP": {"lossless": True},
    "HEIF": {"quality": 90},
}


@pytest.mark.parametrize("fmt", list(FORMAT_OPTIONS))
@pytest.mark.parametrize("orientation", range(1, 9))
def test_every_exif_orientation_comes_out_upright(fmt: str, orientation: int) -> None:
    stored = stored_for(upright_scene(), orientation)
    data = encode(stored, fmt, orientation=orientation, **FORMAT_OPTIONS[fmt])
    result = load_photo(data)
    assert_upright(result)
    assert result.scale == 1.0


def test_orientation_matches_pillow_exif_transpose() -> None:
    """A second opinion on the tag table: PIL's own exif_transpose agrees on every tag."""
    from PIL import ImageOps

    rng = np.random.default_rng(4)
    scene = rng.integers(0, 256, (HEIGHT, WIDTH, 3), dtype=np.uint8)
    for orientation in range(1, 9):
        data = encode(stored_for(scene, orientation), "PNG", orientation=orientation)
        expected = np.asarray(ImageOps.exif_transpose(Image.open(io.BytesIO(data))))
        np.testing.assert_array_equal(load_photo(data).image, expected[..., ::-1])


def test_jpeg_without_orientation_tag_is_left_as_stored() -> None:
    ok, buffer = cv2.imencode(".jpg", upright_scene())
    assert ok
    assert_upright(load_photo(buffer.tobytes()))


def phone_scene(width: int = 4032, height: int = 3024) -> np.ndarray:
    """A 12 MP picture with large-scale structure, so reduced and full decodes compare."""
    ys, xs = np.mgrid[0:height, 0:width]
    scene = np.stack([xs * 255 // width, ys * 255 // height, (xs + ys) % 256], axis=-1)
    scene = scene.astype(np.uint8)
    cv2.rectangle(scene, (0, 0), (width // 5, height // 5), RED, thickness=-1)
    return scene


@pytest.fixture(scope="module")
def phone_jpeg() -> bytes:
    ok, buffer = cv2.imencode(".jpg", phone_scene(), [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return buffer.tobytes()


def test_12mp_jpeg_is_decoded_reduced(phone_jpeg: bytes, monkeypatch) -> None:
    flags_used: list[int] = []
    real_imdecode = cv2.imdecode

    def spy(buffer: np.ndarray, flags: int) -> np.ndarray | None:
        flags_used.append(flags)
        return real_imdecode(buffer, flags)

    monkeypatch.setattr(photo_module.cv2, "imdecode", spy)
    result = load_photo(phone_jpeg)
    assert flags_used == [cv2.IMREAD_REDUCED_COLOR_4 | cv2.IMREAD_IGNORE_ORIENTATION]
    assert result.image.shape == (756, 1008, 3)
    assert 1000 <= max(result.image.shape) <= 2016
    assert result.scale == 4.0
    assert result.original_size == (4032, 3024)
    full = cv2.resize(phone_scene(), (1008, 756), interpolation=cv2.INTER_AREA)
    assert np.abs(result.image.astype(int) - full).mean() < 4


def test_reduction_keeps_the_long_side_requested(phone_jpeg: bytes) -> None:
    result = load_photo(phone_jpeg, min_long_side=1500)
    assert result.image.shape == (1512, 2016, 3)
    assert result.scale == 2.0
    small = load_photo(phone_jpeg, min_long_side=300)
    assert small.image.shape == (378, 504, 3)
    assert small.scale == 8.0


def test_sideways_12mp_jpeg_is_reduced_and_turned() -> None:
    stored = stored_for(phone_scene(), 6)
    result = load_photo(encode(stored, "JPEG", orientation=6, quality=85))
    assert result.original_size == (4032, 3024)
    assert result.image.shape == (756, 1008, 3)
    assert result.scale == 4.0
    marker = region_mean(result.image, slice(20, 130), slice(20, 180))
    assert marker[2] > 200 and marker[0] < 60


@pytest.mark.parametrize(
    ("factor", "width", "height"),
    [
        (1, 999, 500),
        (1, 1998, 20),
        (2, 1999, 20),
        (2, 3996, 10),
        (4, 3997, 10),
        (4, 4000, 3000),
        (8, 8000, 10),
    ],
)
def test_jpeg_reduction_factor(factor: int, width: int, height: int) -> None:
    assert photo_module.jpeg_reduction(width, height, 1000) == factor


def test_jpeg_with_a_trailer_after_its_image_still_decodes() -> None:
    """Some phones append data after the EOI marker; that is not truncation."""
    ok, buffer = cv2.imencode(".jpg", upright_scene())
    assert ok
    assert_upright(load_photo(buffer.tobytes() + b"SEFH trailer bytes" * 10))


@pytest.mark.parametrize("trailer", [b"", b"\x00" * 64, b"SEFH trailer bytes" * 10])
def test_a_whole_jpeg_takes_the_fast_decode_with_or_without_a_trailer(
    trailer: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_pillow(header: object) -> np.ndarray:
        raise AssertionError("a whole JPEG went to the slow decode")

    monkeypatch.setattr(photo_module, "_decode_with_pillow", no_pillow)
    ok, buffer = cv2.imencode(".jpg", upright_scene())
    assert ok
    assert_upright(load_photo(buffer.tobytes() + trailer))


def test_a_jpeg_cut_in_its_scan_is_truncated_though_a_whole_thumbnail_precedes_it() -> None:
    """A thumbnail in the header has its own SOS and EOI markers; only the main image's
    scan decides whether the file is whole."""
    ok, thumbnail = cv2.imencode(".jpg", cv2.resize(upright_scene(), (64, 48)))
    ok_main, main = cv2.imencode(".jpg", upright_scene())
    assert ok and ok_main
    segment = b"THUMB\x00" + thumbnail.tobytes()
    app2 = b"\xff\xe2" + (len(segment) + 2).to_bytes(2, "big") + segment
    whole = main.tobytes()[:2] + app2 + main.tobytes()[2:]
    cut = whole[: len(whole) - len(main) // 3]
    assert photo_module._ends_its_scan(whole) and not photo_module._ends_its_scan(cut)
    assert_upright(load_photo(whole))
    with pytest.raises(PhotoError) as caught:
        load_photo(cut)
    assert caught.value.reason == "truncated"


def test_large_png_is_area_reduced() -> None:
    scene = cv2.resize(upright_scene(), (2500, 1875), interpolation=cv2.INTER_NEAREST)
    result = load_photo(encode(scene, "PNG"))
    assert result.image.shape == (750, 1000, 3)
    assert result.scale == pytest.approx(2.5)
    assert result.original_size == (2500, 1875)


def test_moderately_large_png_is_kept_whole() -> None:
    scene = cv2.resize(upright_scene(), (1800, 1350), interpolation=cv2.INTER_NEAREST)
    result = load_photo(encode(scene, "PNG"))
    assert result.image.shape == (1350, 1800, 3)
    assert result.scale == 1.0


def test_heic_decodes_to_bgr() -> None:
    result = load_photo(encode(upright_scene(), "HEIF", quality=90))
    assert_upright(result)


def test_grayscale_jpeg_becomes_bgr() -> None:
    gray = np.full((200, 300), 90, np.uint8)
    ok, buffer = cv2.imencode(".jpg", gray)
    assert ok
    image = load_photo(buffer.tobytes()).image
    assert image.shape == (200, 300, 3)
    assert abs(float(image.mean()) - 90) < 3


def test_16_bit_grayscale_png_is_scaled_not_clipped() -> None:
    gray = np.full((100, 120), 32768, np.uint16)
    ok, buffer = cv2.imencode(".png", gray)
    assert ok
    image = load_photo(buffer.tobytes()).image
    assert image.shape == (100, 120, 3)
    assert abs(int(image[50, 60, 0]) - 128) <= 1


def test_16_bit_colour_png_keeps_its_colours() -> None:
    colour = np.zeros((100, 120, 3), np.uint16)
    colour[...] = (65535, 32768, 0)  # BGR
    ok, buffer = cv2.imencode(".png", colour)
    assert ok
    pixel = load_photo(buffer.tobytes()).image[50, 60].astype(int)
    np.testing.assert_allclose(pixel, (255, 128, 0), atol=1)


def test_transparent_png_is_flattened_onto_white() -> None:
    rgba = np.zeros((100, 120, 4), np.uint8)
    rgba[:, :60] = (0, 0, 255, 255)  # opaque red on the left (BGRA)
    ok, buffer = cv2.imencode(".png", rgba)
    assert ok
    image = load_photo(buffer.tobytes()).image
    assert tuple(image[50, 10]) == (0, 0, 255)
    assert tuple(image[50, 100]) == (255, 255, 255)


def test_paletted_png_becomes_bgr() -> None:
    image = Image.fromarray(cv2.cvtColor(upright_scene(), cv2.COLOR_BGR2RGB)).convert("P")
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    assert_upright(load_photo(buffer.getvalue()))


def test_load_photo_file(tmp_path: Path) -> None:
    path = tmp_path / "collection.webp"
    path.write_bytes(encode(upright_scene(), "WEBP", lossless=True))
    assert_upright(load_photo_file(path))
    with pytest.raises(PhotoError) as caught:
        load_photo_file(path, max_bytes=10)
    assert caught.value.reason == "too_large"


# --- refusals ---------------------------------------------------------------------------


def png_claiming(width: int, height: int) -> bytes:
    """A tiny PNG whose IHDR claims a huge size (CRC fixed, so the header parses)."""
    ok, buffer = cv2.imencode(".png", np.zeros((8, 8), np.uint8))
    assert ok
    data = bytearray(buffer.tobytes())
    ihdr = 8  # after the signature: length (4), b"IHDR" (4), data (13), crc (4)
    assert data[ihdr + 4 : ihdr + 8] == b"IHDR"
    data[ihdr + 8 : ihdr + 16] = struct.pack(">II", width, height)
    crc = zlib.crc32(bytes(data[ihdr + 4 : ihdr + 21]))
    data[ihdr + 21 : ihdr + 25] = struct.pack(">I", crc)
    return bytes(data)


@pytest.mark.parametrize(
    "size",
    [(30000, 30000), (10000, 9000), (8100, 8000)],
    ids=["beyond-pillow's-own-limit", "beyond-pillow's-warning", "beyond-ours-only"],
)
def test_decompression_bomb_is_refused_from_its_header(size: tuple[int, int]) -> None:
    """In our words and with our limit, whatever Pillow's: a 900 MP photo had been told
    Pillow's "exceeds limit of 178956970 pixels, could be decompression bomb DOS attack"."""
    width, height = size
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # not Pillow's DecompressionBombWarning either
        with pytest.raises(PhotoError) as caught:
            load_photo(png_claiming(*size))
    assert caught.value.reason == "too_many_pixels"
    assert str(caught.value) == (
        f"the image is {width}x{height} = {width * height:,} pixels; the limit is 64,000,000"
    )


def test_the_command_line_and_the_service_take_the_same_photos() -> None:
    """`sushigo detect` reads with load_photo's defaults, the service with its settings':
    one limit (a 62 MP photo had been read by /detect and refused by `detect --json`)."""
    service = ServiceSettings()
    for read in (load_photo, load_photo_file):
        defaults = inspect.signature(read).parameters
        assert defaults["max_pixels"].default == service.max_pixels == 64_000_000
        assert defaults["max_bytes"].default == service.max_upload_bytes == 30_000_000


def test_pixel_limit_is_configurable() -> None:
    data = encode(upright_scene(), "PNG")
    with pytest.raises(PhotoError) as caught:
        load_photo(data, max_pixels=WIDTH * HEIGHT - 1)
    assert caught.value.reason == "too_many_pixels"
    assert load_photo(data, max_pixels=WIDTH * HEIGHT).image.shape == (HEIGHT, WIDTH, 3)


def test_too_many_bytes_is_refused() -> None:
    with pytest.raises(PhotoError) as caught:
        load_photo(b"\xff" * 1000, max_bytes=999)
    assert caught.value.reason == "too_large"


@pytest.mark.parametrize(
    "data",
    [b"", b"hello, this is not a photo" * 20, b"%PDF-1.7\n" + bytes(500)],
    ids=["empty", "text", "pdf"],
)
def test_not_an_image(data: bytes) -> None:
    with pytest.raises(PhotoError) as caught:
        load_photo(data)
    assert caught.value.reason == "not_an_image"
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "WEBP"])
@pytest.mark.parametrize("keep", [0.05, 0.5, 0.9])
def test_truncated_photo(fmt: str, keep: float) -> None:
    rng = np.random.default_rng(1)
    # Noise does not compress, so every cut lands inside the pixel data.
    scene = rng.integers(0, 256, (HEIGHT, WIDTH, 3), dtype=np.uint8)
    data = encode(scene, fmt)
    with pytest.raises(PhotoError) as caught:
        load_photo(data[: int(len(data) * keep)])
    assert caught.value.reason == "truncated"


def test_truncated_12mp_jpeg(phone_jpeg: bytes) -> None:
    with pytest.raises(PhotoError) as caught:
        load_photo(phone_jpeg[: len(phone_jpeg) * 2 // 3])
    assert caught.value.reason == "truncated"


@pytest.mark.parametrize("fmt", ["GIF", "BMP", "TIFF"])
def test_other_image_formats_are_unsupported(fmt: str) -> None:
    with pytest.raises(PhotoError) as caught:
        load_photo(encode(upright_scene(), fmt))
    assert caught.value.reason == "unsupported"
    assert fmt in str(caught.value)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    cut=st.integers(min_value=0, max_value=4000),
    flips=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), max_size=8),
)
def test_damaged_photos_never_crash(cut: int, flips: list[tuple[int, int]]) -> None:
    """Whatever a damaged file holds, the answer is a Photo or a PhotoError."""
    ok, buffer = cv2.imencode(".jpg", upright_scene())
    assert ok
    data = bytearray(buffer.tobytes())
    for position, value in flips:
        data[position % len(data)] = value
    damaged = bytes(data[: max(0, len(data) - cut)])
    try:
        result = load_photo(damaged)
    except PhotoError as error:
        assert error.reason in {"not_an_image", "truncated", "unsupported", "too_many_pixels"}
    else:
        assert result.image.dtype == np.uint8 and result.image.ndim == 3


def test_decode_benchmark_smoke(capsys) -> None:
    """The benchmark's code path cannot rot: one run of each side."""
    from benchmarks import bench_decode

    bench_decode.main(["--runs", "1"])
    assert "faster" in capsys.readouterr().out
