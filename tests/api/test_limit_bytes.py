"""Every 413 says its limit as a number, `limit_bytes` (int), beside its sentence, in the
one error shape: the whole app's body limit (declared or streamed), a JSON route's, a
photo's, a form field's, and a photo over the pixel limit (with `limit_pixels`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
from fastapi.testclient import TestClient

from api.main import FORM_OVERHEAD_BYTES
from api.settings import Settings
from api.uploads import MAX_FIELD_BYTES
from tests.api.conftest import Table, make_photo

JSON = {"content-type": "application/json"}


def refused(response: httpx.Response, limit: int, reason: str = "too_large") -> dict[str, Any]:
    assert response.status_code == 413, response.text
    body = response.json()
    assert isinstance(body["detail"], str) and body["reason"] == reason, body
    assert type(body["limit_bytes"]) is int and body["limit_bytes"] == limit, body
    assert f"{limit:,} bytes" in body["detail"] or reason != "too_large", body
    return dict(body)


def test_the_whole_apps_limit(client: TestClient, settings: Settings) -> None:
    whole = settings.max_upload_bytes + FORM_OVERHEAD_BYTES
    big = b"\xff\xd8\xff" + bytes(whole)
    refused(client.post("/api/v1/detect", files={"image": ("big.jpg", big)}), whole)

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it streams
        for _ in range(40):
            yield bytes(100_000)

    response = client.post(
        "/api/v1/detect",
        content=chunks(),
        headers={"content-type": "multipart/form-data; boundary=abc"},
    )
    assert "content-length" not in response.request.headers
    refused(response, whole)


def test_a_json_routes_limit(client: TestClient, table: Table, settings: Settings) -> None:
    big = b'{"players": ["A", "B"], "title": "' + b"x" * settings.max_json_bytes + b'"}'
    refused(client.post("/api/v1/games", content=big, headers=JSON), settings.max_json_bytes)

    def pieces() -> Iterator[bytes]:
        for _ in range(100):
            yield b" " * 10_000

    response = client.post("/api/v1/score/round", content=pieces(), headers=JSON)
    refused(response, settings.max_json_bytes)
    body = {"action": "set_counts", "counts": {"egg": 1}, "version": 0, "author": "x" * 70_000}
    refused(table.correct(1, 1, **body), settings.max_json_bytes)


def test_a_photos_limit(client: TestClient, table: Table, settings: Settings) -> None:
    big = b"\xff\xd8\xff" + bytes(settings.max_upload_bytes)
    body = refused(table.upload(1, 1, big), settings.max_upload_bytes)
    assert "limit for a photo" in body["detail"]
    response = client.post("/api/v1/detect", files={"image": ("big.jpg", big)})
    refused(response, settings.max_upload_bytes)


def test_a_form_fields_limit(table: Table) -> None:
    response = table.client.post(
        f"{table.collection_url(1, 1)}/photos",
        content=b"version=0&author=" + b"x" * 100_000,
        headers={**table.headers, "content-type": "application/x-www-form-urlencoded"},
    )
    refused(response, MAX_FIELD_BYTES)


def test_a_photo_over_the_pixel_limit(table: Table, settings: Settings) -> None:
    photo = make_photo((6000, 5100))
    assert len(photo) < settings.max_upload_bytes
    body = refused(table.upload(1, 1, photo), settings.max_upload_bytes, "too_many_pixels")
    assert body["limit_pixels"] == settings.max_pixels
    assert "pixels" in body["detail"]
