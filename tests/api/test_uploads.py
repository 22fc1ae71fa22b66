"""The photo upload's own form reading (api/uploads.py): the bytes and hash that arrive,
the house's 422s for bad fields, 400 for a body that is not multipart, the order of 404 /
401 before 422, and the documented request body."""

from __future__ import annotations

import hashlib
import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.detection import DetectorProvider
from api.settings import Settings
from tests.api.conftest import FakeDetector, Table, boxes_for, make_photo


def _post(table: Table, **kwargs: Any) -> Any:
    headers = {**table.headers, **kwargs.pop("headers", {})}
    return table.client.post(f"{table.collection_url(1, 1)}/photos", headers=headers, **kwargs)


def _photo() -> bytes:
    return make_photo((320, 240))


def test_the_stored_photo_is_the_bytes_sent_and_named_by_their_hash(
    table: Table, settings: Settings
) -> None:
    photo = make_photo((1200, 900))
    response = _post(
        table,
        files={"image": ("IMG_0001.jpg", photo, "image/jpeg")},
        data={"version": "0", "author": "Ana"},
    )
    assert response.status_code == 201, response.text
    digest = hashlib.sha256(photo).hexdigest()
    assert response.json()["photo"]["sha256"] == digest
    assert response.json()["photo"]["author"] == "Ana"
    stored = settings.data_dir / "photos" / digest[:2] / digest
    assert stored.read_bytes() == photo
    image = table.client.get(response.json()["photo"]["image_url"])
    assert image.content == photo


def _form(*parts: tuple[str, str | None, bytes]) -> dict[str, Any]:
    """A multipart body of (name, filename or None, bytes) parts, as it goes to _post."""
    body = b""
    for name, filename, data in parts:
        named = f'; filename="{filename}"' if filename else ""
        body += f'--abc\r\nContent-Disposition: form-data; name="{name}"{named}\r\n\r\n'.encode()
        body += data + b"\r\n"
    body += b"--abc--\r\n"
    return {"content": body, "headers": {"content-type": "multipart/form-data; boundary=abc"}}


@pytest.mark.parametrize(
    "repeated",
    [
        _form(("version", None, b"0"), ("image", "a.jpg", _photo()), ("image", "b.jpg", _photo())),
        _form(("version", None, b"0"), ("version", None, b"5"), ("image", "a.jpg", _photo())),
    ],
    ids=["two photos", "two versions"],
)
def test_a_field_sent_twice_is_refused(table: Table, repeated: dict[str, Any]) -> None:
    """Which of two photos (or versions) was meant is no guess to make: the last had been
    taken, silently."""
    response = _post(table, **repeated)
    assert response.status_code == 422, response.text
    assert response.json()["detail"].endswith("is sent twice: send it once")
    assert table.collection(1, 1)["version"] == 0 and table.collection(1, 1)["photo"] is None


def test_a_form_cut_short_is_400(table: Table) -> None:
    body = (
        b'--abc\r\nContent-Disposition: form-data; name="version"\r\n\r\n0\r\n'
        b'--abc\r\nContent-Disposition: form-data; name="image"; filename="a.jpg"\r\n'
        b"Content-Type: image/jpeg\r\n\r\n" + _photo()[:500]
    )
    headers = {"content-type": "multipart/form-data; boundary=abc"}
    response = _post(table, content=body, headers=headers)
    assert response.status_code == 400, response.text
    assert response.json()["detail"] == ("the form ends in the middle of a part: was it cut short?")
    assert table.collection(1, 1)["version"] == 0


@pytest.mark.parametrize(
    ("kwargs", "fields"),
    [
        ({"files": {"image": ("a.jpg", _photo(), "image/jpeg")}}, ["version"]),
        ({"files": {"image": ("a.jpg", _photo())}, "data": {"version": ""}}, ["version"]),
        ({"files": {"image": ("a.jpg", _photo())}, "data": {"version": "-1"}}, ["version"]),
        ({"files": {"image": ("a.jpg", _photo())}, "data": {"version": "one"}}, ["version"]),
        (
            {"files": {"image": ("a.jpg", _photo())}, "data": {"version": "0", "author": "x" * 61}},
            ["author"],
        ),
        ({"files": {"photo": ("a.jpg", _photo())}, "data": {"version": "0"}}, ["image"]),
        ({"data": {"version": "0", "image": "not a file"}}, ["image"]),
        ({"json": {"image": "x", "version": 0}}, ["image", "version"]),
    ],
    ids=[
        "no version",
        "empty version",
        "negative",
        "not a number",
        "long author",
        "other field name",
        "image as text",
        "json body",
    ],
)
def test_form_errors_are_the_house_422(table: Table, kwargs: Any, fields: list[str]) -> None:
    response = _post(table, **kwargs)
    assert response.status_code == 422, response.text
    body = response.json()
    assert isinstance(body["detail"], str) and body["error_count"] == len(fields)
    errors = body["errors"]
    assert [entry["loc"] for entry in errors] == [["body", name] for name in fields]
    missing = [entry for entry in errors if entry["type"] == "missing"]
    assert all(e["msg"] == "Field required" and "input" not in e for e in missing)
    assert table.collection(1, 1)["version"] == 0


def test_a_body_that_is_not_multipart_is_400(table: Table) -> None:
    response = _post(table, content=b"xx", headers={"content-type": "multipart/form-data"})
    assert response.status_code == 400
    assert "boundary" in response.json()["detail"]
    garbage = b"--abc\r\nContent-Disposition: form-data\r\n\r\nno name\r\n--abc--\r\n"
    response = _post(
        table, content=garbage, headers={"content-type": "multipart/form-data; boundary=abc"}
    )
    assert response.status_code == 400


def test_an_oversized_text_field_is_413_with_its_limit(table: Table) -> None:
    response = _post(
        table, files={"image": ("a.jpg", _photo())}, data={"version": "0", "note": "x" * 70_000}
    )
    assert response.status_code == 413
    body = response.json()
    assert body["detail"] == "form field 'note' is over 65,536 bytes, the limit"
    assert body["limit_bytes"] == 65_536 and body["reason"] == "too_large"


def test_a_photo_sent_as_text_is_said_so(table: Table) -> None:
    """curl -F "image=<photo.jpg" sends the photo as a text field: said as such, where it
    had been told the limit for text fields."""
    photo = b"\xff\xd8\xff" + bytes(range(256)) * 300  # 77 kB
    response = _post(table, **_form(("version", None, b"0"), ("image", None, photo)))
    assert response.status_code == 422, response.text
    assert response.json()["detail"] == (
        "form field 'image': expected a file (a part with a filename), received text"
    )


def test_unknown_game_and_missing_token_come_before_form_errors(table: Table) -> None:
    bad_form = {"files": {"image": ("a.jpg", _photo())}}  # no version
    response = table.client.post(f"{table.collection_url(1, 1)}/photos", **bad_form)
    assert response.status_code == 401
    url = "/api/v1/games/nosuchgame/rounds/1/players/1/photos"
    assert table.client.post(url, headers=table.headers, **bad_form).status_code == 404


def test_a_photo_over_the_limit_is_413_and_stores_nothing(table: Table, settings: Settings) -> None:
    big = b"\xff\xd8\xff" + bytes(settings.max_upload_bytes)
    response = _post(table, files={"image": ("big.jpg", big)}, data={"version": "0"})
    assert response.status_code == 413
    assert "limit for a photo" in response.json()["detail"]
    assert not [p for p in (settings.data_dir / "photos").rglob("*") if p.is_file()]


@pytest.mark.parametrize(
    ("path", "fields"),
    [
        ("/api/v1/detect", {"image", "players"}),
        ("/api/v1/games/{game_id}/rounds/{number}/players/{seat}/photos", {"image", "version"}),
    ],
)
def test_the_request_body_is_documented(client: TestClient, path: str, fields: set[str]) -> None:
    operation = client.get("/openapi.json").json()["paths"][path]["post"]
    schema = operation["requestBody"]["content"]["multipart/form-data"]["schema"]
    assert fields <= set(schema["properties"])
    assert schema["properties"]["image"]["contentMediaType"] == "application/octet-stream"
    assert "image" in schema["required"]
    assert "201" in operation["responses"] or "200" in operation["responses"]


def test_the_weights_are_described_once_not_per_upload(
    client: TestClient, table: Table, detector: FakeDetector
) -> None:
    described = []

    class Info:
        def describe(self) -> dict[str, Any]:
            described.append(1)
            return {"folder": "w", "detector": {"sha256": "abc"}, "classes": ["tempura"]}

    class Described(FakeDetector):
        info = Info()

    # The upload detects with the test's detector; the provider only stamps the photo.
    client.app.state.detectors = DetectorProvider.preloaded(Described())  # type: ignore[attr-defined]
    records = boxes_for(["tempura"], width=400, height=300)
    detector.register((400, 300), records)
    for seat in (1, 2, 3):
        response = table.upload(1, seat, make_photo((400, 300), records))
        assert response.status_code == 201, response.text
    assert len(described) == 1
    photo = table.collection(1, 3)["photo"]
    assert client.get(f"{table.url}/photos/{photo['id']}").status_code == 200
    assert client.get("/api/v1/model").json()["sha256"] == "abc"
    assert len(described) == 1


def test_detect_reads_the_same_form(client: TestClient, detector: FakeDetector) -> None:
    records = boxes_for(["egg", "egg"], width=500, height=400)
    detector.register((500, 400), records)
    photo = make_photo((500, 400), records)
    response = client.post(
        "/api/v1/detect", files={"image": ("a.jpg", photo)}, data={"players": "3"}
    )
    assert response.status_code == 200, response.text
    assert response.json()["tally"]["egg"] == 2
    assert client.post("/api/v1/detect", data={"players": "3"}).status_code == 422


def test_the_photo_is_detected_while_the_game_is_checked(
    table: Table, detector: FakeDetector, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The game is looked up only once the detector has been called: with the decode and
    # the database checks one after the other, the lookup would wait here in vain.
    from api import games

    detecting = threading.Event()
    original_call, original_get_game = FakeDetector.__call__, games.get_game

    def call(self: FakeDetector, image: Any) -> Any:
        detecting.set()
        return original_call(self, image)

    def get_game(*args: Any, **kwargs: Any) -> Any:
        assert detecting.wait(timeout=10), "the database was checked before detection began"
        return original_get_game(*args, **kwargs)

    monkeypatch.setattr(FakeDetector, "__call__", call)
    monkeypatch.setattr(games, "get_game", get_game)
    response = _post(table, files={"image": ("a.jpg", _photo())}, data={"version": "0"})
    assert response.status_code == 201, response.text
    assert threading.get_ident() not in detector.threads


def test_a_wrong_seat_wins_over_a_photo_that_cannot_be_decoded(table: Table) -> None:
    junk = {"image": ("a.jpg", b"not a photo")}
    url = f"{table.collection_url(1, 9)}/photos"
    response = table.client.post(url, headers=table.headers, files=junk, data={"version": "0"})
    assert response.status_code == 404, response.text
    response = _post(table, files=junk, data={"version": "7"})
    assert response.status_code == 409, response.text
    response = _post(table, files=junk, data={"version": "0"})
    assert response.status_code == 415, response.text


def test_the_provider_passes_a_look_s_size_and_threshold_to_the_detector() -> None:
    """The pipeline asks a hand still short for the finder's doubted boxes (`conf`) and a
    closer look at a size: the provider's slot must pass both on, or the upload fails."""
    import numpy as np

    from vision.detections import Detections

    asked: list[tuple[int | None, float | None]] = []

    def detector(image: Any, size: int | None = None, conf: float | None = None) -> Detections:
        asked.append((size, conf))
        return Detections.empty()

    run = DetectorProvider.preloaded(detector).get()
    run(np.zeros((8, 8, 3), np.uint8), size=640, conf=0.05)
    run(np.zeros((8, 8, 3), np.uint8))
    assert asked == [(640, 0.05), (None, None)]
