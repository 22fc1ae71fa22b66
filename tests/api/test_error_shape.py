"""One error shape (issue 31): every 4xx the API can answer, and its 503s, is
`{"detail": str, "reason": str, ...}`, `reason` a snake_case code (each kind of error
its own default, a raise site a narrower one), and the OpenAPI document says so with one
model, ErrorPublic, on every documented error response."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError

from api import deps
from api.errors import DetectorUnavailable
from tests.api.conftest import Table, make_photo

CODE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")


def assert_shape(
    response: httpx.Response, status: int, reason: str | None = None
) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body: dict[str, Any] = response.json()
    assert isinstance(body["detail"], str) and body["detail"], body
    assert isinstance(body["reason"], str) and CODE.match(body["reason"]), body
    if reason is not None:
        assert body["reason"] == reason, body
    return body


def test_every_kind_of_4xx_carries_detail_and_reason(table: Table, client: TestClient) -> None:
    url = table.collection_url(1, 1)
    json_headers = {"content-type": "application/json"}
    text = {"image": ("a.txt", b"not a photo", "text/plain")}
    cases = [
        (client.get("/api/v1/games/nosuchgame"), 404, "not_found"),
        (client.get(f"{table.url}/rounds/9"), 404, "not_found"),
        (client.get("/api/v1/nowhere"), 404, "not_found"),
        (client.delete("/api/v1/games"), 405, "method_not_allowed"),
        # A GET of a path the page's files at / would also take: the API's 405, not a 404.
        (client.get("/api/v1/games"), 405, "method_not_allowed"),
        (client.get("/api/v1/score/round"), 405, "method_not_allowed"),
        (client.get("/api/v1/detect"), 405, "method_not_allowed"),
        (client.post(f"{url}/undo", json={"version": 0}), 401, "missing_token"),
        (client.post(f"{url}/undo", json={"version": 0}, headers={"X-Edit-Token": "no"}),
         403, "wrong_token"),
        (table.act(1, 1, "undo"), 409, "conflict"),
        (table.act(1, 1, "undo", version=5), 409, "stale_version"),
        (client.post("/api/v1/games", content=b" " * 100_000, headers=json_headers),
         413, "too_large"),
        (client.post(f"{url}/photos", files=text, data={"version": "0"}, headers=table.headers),
         415, "not_an_image"),
        (client.post("/api/v1/games", content=b'{"players": ["A", "B"]}',
                     headers={"content-type": "text/plain"}), 415, "not_json"),
        (client.post("/api/v1/games", data={"players": "A"}), 415, "not_json"),
        (client.post("/api/v1/games", json={"players": ["A"]}), 422, "invalid"),
        (client.post("/api/v1/games", content=b"{", headers=json_headers), 422, "invalid"),
        (table.correct(1, 1, action="adjust_count", category="egg", delta=-1),
         422, "unprocessable"),
        (client.post("/api/v1/score/round", json={"tallies": [{}, {"dumpling": 11}]}),
         422, None),
        (client.post(f"{url}/photos", content=b"x", headers={
            **table.headers, "content-type": "multipart/form-data"}), 400, "bad_request"),
    ]  # fmt: skip
    for response, status, reason in cases:
        assert_shape(response, status, reason)


def test_a_raise_site_names_a_narrower_reason(table: Table) -> None:
    table.set_counts(1, 1, {"tempura": 2})
    table.confirm(1, 1)
    response = table.upload(1, 1, make_photo((320, 240)))
    body = assert_shape(response, 409, "would_replace")
    assert body["confirmed"] is True


def test_a_401_still_asks_for_a_bearer_token(table: Table, client: TestClient) -> None:
    response = client.post(f"{table.collection_url(1, 1)}/undo", json={"version": 0})
    assert_shape(response, 401, "missing_token")
    assert response.headers["www-authenticate"] == "Bearer"


def test_the_503s_carry_a_reason(app: FastAPI, client: TestClient, table: Table) -> None:
    def unavailable() -> Any:
        raise DetectorUnavailable("the card detector is not available: no weights")

    def locked(game_id: str) -> Any:
        raise OperationalError("SELECT 1", {}, Exception("database is locked"))

    app.dependency_overrides[deps.get_detector] = unavailable
    photo = {"image": ("a.jpg", make_photo((300, 200)), "image/jpeg")}
    response = client.post("/api/v1/detect", files=photo)
    assert_shape(response, 503, "unavailable")
    assert response.headers["retry-after"] == "1"

    app.dependency_overrides[deps.get_game] = locked
    assert_shape(client.get(table.url), 503, "busy")


def test_a_fault_of_the_service_is_a_500_in_the_same_shape(app: FastAPI, table: Table) -> None:
    def broken(game_id: str) -> Any:
        raise RuntimeError("a bug")

    app.dependency_overrides[deps.get_game] = broken
    with TestClient(app, raise_server_exceptions=False) as client:
        body = assert_shape(client.get(table.url), 500, "internal")
    assert "a bug" not in body["detail"]  # a fault's own words are the log's, not the client's
    app.dependency_overrides.clear()
    assert table.client.get(table.url).status_code == 200  # the game is still there


def test_the_one_error_shape_is_documented(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    model = spec["components"]["schemas"]["ErrorPublic"]
    assert {"detail", "reason"} <= set(model["required"])
    assert model["properties"]["reason"]["type"] == "string"
    assert model["additionalProperties"] is True
    documented: dict[str, set[str]] = {}
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            for status, answer in operation["responses"].items():
                if status[0] not in "45":
                    continue
                schema = answer["content"]["application/json"]["schema"]
                assert schema["$ref"] == "#/components/schemas/ErrorPublic", (path, method)
                documented.setdefault(status, set()).add(f"{method} {path}")
    # Each kind of error the API answers is documented somewhere (4XX: the unknown path,
    # the method a path does not take, a malformed body, on every route).
    assert {"401", "403", "404", "409", "413", "415", "422", "503", "4XX"} <= set(documented)
    writes = spec["paths"]["/api/v1/games/{game_id}/rounds/{number}/players/{seat}/undo"]
    assert {"401", "403", "404", "409", "413", "422"} <= set(writes["post"]["responses"])


@pytest.mark.parametrize("status", ["404", "405"])
def test_errors_outside_any_route_are_documented_on_every_route(
    client: TestClient, status: str
) -> None:
    spec = client.get("/openapi.json").json()
    for operations in spec["paths"].values():
        for operation in operations.values():
            responses = operation["responses"]
            assert status in responses or "4XX" in responses
