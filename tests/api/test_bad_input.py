"""The bad-input corpus: files that are not photos, broken photos, too big, bombs. Each
gets a 4xx that names the problem, on both the stateless and the game upload, and
nothing is stored."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient

from api.settings import Settings
from tests.api.conftest import FakeDetector, Table, make_photo


def _chunk(kind: bytes, data: bytes) -> bytes:
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))


def png_bomb(width: int = 60_000, height: int = 60_000) -> bytes:
    """A tiny PNG whose header claims an enormous image (a decompression bomb)."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    rows = zlib.compress(b"\x00" * (1 + 3 * 16) * 16, 9)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", rows)
        + _chunk(b"IEND", b"")
    )


def truncated_jpeg() -> bytes:
    data = make_photo((800, 600))
    return data[: len(data) // 2]


def noise_jpeg(width: int, height: int) -> bytes:
    rng = np.random.default_rng(7)
    image = rng.integers(0, 256, (height, width, 3), dtype=np.uint8)
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 100])
    assert ok
    return encoded.tobytes()


def gif() -> bytes:
    return b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"  # noqa: E501


CORPUS: list[tuple[str, Callable[[], bytes], int, str]] = [
    (
        "text file",
        lambda: b"these are not the cards you are looking for\n" * 20,
        415,
        "not an image",
    ),
    ("empty file", lambda: b"", 415, "empty"),
    ("html", lambda: b"<!doctype html><html><body>hi</body></html>", 415, "not an image"),
    ("truncated jpeg", truncated_jpeg, 422, "truncated"),
    ("jpeg header only", lambda: b"\xff\xd8\xff\xe0\x00\x10JFIF", 422, "truncated"),
    ("png bomb header", png_bomb, 413, "pixels"),
    ("gif", gif, 415, "GIF"),
    ("over the pixel limit", lambda: make_photo((6000, 5100)), 413, "pixels"),
    ("over the byte limit", lambda: noise_jpeg(1800, 1600), 413, "bytes"),
]


@pytest.fixture
def settings(tmp_path: Path, database_url: str | None) -> Settings:
    # Small limits, so that the corpus stays small.
    return Settings(
        data_dir=tmp_path / "data",
        database_url=database_url,
        max_upload_bytes=2_000_000,
        max_pixels=30_000_000,
    )


@pytest.mark.parametrize(("name", "make", "status", "named"), CORPUS, ids=[c[0] for c in CORPUS])
def test_detect_refuses_bad_files(
    client: TestClient,
    detector: FakeDetector,
    name: str,
    make: Callable[[], bytes],
    status: int,
    named: str,
) -> None:
    response = client.post("/api/v1/detect", files={"image": ("x.jpg", make(), "image/jpeg")})
    assert response.status_code == status, response.text
    assert named in response.json()["detail"]
    assert detector.calls == 0


@pytest.mark.parametrize(("name", "make", "status", "named"), CORPUS, ids=[c[0] for c in CORPUS])
def test_game_upload_refuses_bad_files_and_stores_nothing(
    table: Table,
    settings: Settings,
    name: str,
    make: Callable[[], bytes],
    status: int,
    named: str,
) -> None:
    response = table.upload(1, 1, make())
    assert response.status_code == status, response.text
    assert named in response.json()["detail"]
    state = table.collection(1, 1)
    assert state["version"] == 0 and state["photo"] is None
    assert not [p for p in (settings.data_dir / "photos").rglob("*") if p.is_file()]


def test_a_request_far_over_the_limit_is_refused_before_it_is_read(
    client: TestClient, settings: Settings
) -> None:
    big = b"\xff\xd8\xff" + b"\x00" * (settings.max_upload_bytes + 200_000)
    response = client.post("/api/v1/detect", files={"image": ("big.jpg", big, "image/jpeg")})
    assert response.status_code == 413


def test_a_streamed_body_over_the_limit_is_413(client: TestClient, settings: Settings) -> None:
    def chunks() -> object:
        for _ in range(40):
            yield b"x" * 100_000

    response = client.post(
        "/api/v1/detect",
        content=chunks(),
        headers={"content-type": "multipart/form-data; boundary=abc"},
    )
    assert response.status_code == 413


@pytest.mark.parametrize(
    ("files", "data", "named"),
    [
        (None, {"players": "3"}, "image"),
        ({"photo": ("a.jpg", b"x", "image/jpeg")}, None, "image"),
        ({"image": ("a.jpg", make_photo((300, 200)), "image/jpeg")}, {"players": "6"}, "players"),
        ({"image": ("a.jpg", make_photo((300, 200)), "image/jpeg")}, {"players": "two"}, "players"),
    ],
)
def test_detect_form_errors_are_422(
    client: TestClient, files: object, data: object, named: str
) -> None:
    response = client.post("/api/v1/detect", files=files, data=data)
    assert response.status_code == 422, response.text
    assert named in response.text


def test_upload_without_version_is_422(table: Table) -> None:
    response = table.client.post(
        f"{table.collection_url(1, 1)}/photos",
        files={"image": ("a.jpg", make_photo((300, 200)), "image/jpeg")},
        headers=table.headers,
    )
    assert response.status_code == 422
    assert "version" in response.text


def test_json_instead_of_multipart_is_422(table: Table) -> None:
    response = table.client.post(
        f"{table.collection_url(1, 1)}/photos",
        json={"image": "x", "version": 0},
        headers=table.headers,
    )
    assert response.status_code == 422


def test_huge_numbers_do_not_reach_the_database(table: Table) -> None:
    response = table.correct(1, 1, action="set_counts", counts={"egg": 1}, version=10**30)
    assert response.status_code == 422
    assert table.client.get(f"{table.url}/photos/{10**30}").status_code == 422
    assert table.client.get(f"{table.url}/rounds/{10**30}").status_code == 404


def test_a_decoder_failing_unexpectedly_is_still_a_4xx(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As when ultralytics has patched PIL.Image.open in the process: an unidentified file
    # makes it import a module that is not there.
    def patched_open(*args: object, **kwargs: object) -> None:
        raise ModuleNotFoundError("No module named 'pi_heif'")

    # The opener vision.photo uses (PIL's own, or the one ultralytics kept of it).
    monkeypatch.setattr("vision.photo._pillow_open", lambda: patched_open)
    response = client.post(
        "/api/v1/detect", files={"image": ("x.txt", b"plain text, not a photo", "text/plain")}
    )
    assert response.status_code == 415
    assert "could not be decoded" in response.json()["detail"]


@pytest.mark.both_databases
def test_text_with_a_nul_is_422_on_every_database(client: TestClient, table: Table) -> None:
    # PostgreSQL cannot store a NUL in text; SQLite can. Both refuse it at the door.
    for body in ({"players": ["A\x00", "B"]}, {"players": ["A", "B"], "title": "t\x00"}):
        response = client.post("/api/v1/games", json=body)
        assert response.status_code == 422, response.text
        assert "NUL" in response.text
    response = table.correct(1, 1, action="set_counts", counts={"egg": 1}, author="x\x00")
    assert response.status_code == 422 and "NUL" in response.text
    response = table.upload(1, 1, make_photo((300, 200)), author="y\x00")
    assert response.status_code == 422 and "NUL" in response.text
    assert table.collection(1, 1)["version"] == 0
