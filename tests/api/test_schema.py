"""A property-based run over the OpenAPI schema (schemathesis): whatever the schema lets
a client send, the service answers without a 5xx. Requests go to a real game with its
token, so that they reach past the 404s and 401s into the handlers.

Strings are drawn from all of Unicode with NUL (schemathesis' utf-8 codec, allow_x00);
what no schema lets a client generate, each JSON body is also sent once with one of its
values replaced by NaN, Infinity or a lone surrogate (written as JSON's escape), or a
bidi override or zero-width space in a string: a 4xx for the first three, never a 5xx."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

MAX_EXAMPLES = 8
NOT_JSON: list[Any] = [math.nan, math.inf, -math.inf, "\ud800x", "x\udfff"]
ODD_TEXT: list[Any] = ["A\u202eB", "\u200b", "\u0000", " \t "]


@pytest.fixture
def game(client: TestClient) -> dict[str, Any]:
    created = client.post("/api/v1/games", json={"players": ["Ana", "Ben"]}).json()
    token = created["edit_token"]
    # Some state for the handlers to trip over: a draft, a confirmation, a record.
    url = f"/api/v1/games/{created['id']}/rounds/1/players"
    headers = {"X-Edit-Token": token}
    for seat in (1, 2):
        body = {"action": "set_counts", "counts": {"tempura": 3}, "version": 0}
        client.post(f"{url}/{seat}/corrections", json=body, headers=headers)
        client.post(f"{url}/{seat}/confirm", json={"version": 1}, headers=headers)
    return {"id": created["id"], "token": token}


@pytest.mark.both_databases
def test_no_server_errors(app: FastAPI, client: TestClient, game: dict[str, Any]) -> None:
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    schema.config.generation.update(codec="utf-8", allow_x00=True)
    results: list[Any] = list(schema.get_all_operations())
    operations = [result.ok() for result in results]
    assert len(operations) >= 20
    poisoned = sum(check_operation(operation, client, game) for operation in operations)
    assert poisoned >= 50  # the JSON routes were each sent their poisoned bodies


def leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The paths to every scalar (or empty container) in a JSON value, depth first."""
    if not value and isinstance(value, dict | list):
        return [path]
    if isinstance(value, dict):
        return [p for key, child in value.items() for p in leaves(child, (*path, key))]
    if isinstance(value, list):
        return [p for index, child in enumerate(value) for p in leaves(child, (*path, index))]
    return [path]


def replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = replaced(value[path[0]], path[1:], new)
    return copy


def check_operation(operation: Any, client: TestClient, game: dict[str, Any]) -> int:
    """Runs the operation's examples; returns how many poisoned bodies were sent."""
    sent = 0

    @given(
        case=operation.as_strategy(),
        poison=st.sampled_from(NOT_JSON + ODD_TEXT),
        where=st.integers(min_value=0, max_value=1_000),
    )
    @settings(
        max_examples=MAX_EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    def no_5xx(case: Any, poison: Any, where: int) -> None:
        nonlocal sent
        if "game_id" in (case.path_parameters or {}):
            case.path_parameters["game_id"] = game["id"]
            case.headers = {
                **(case.headers or {}),
                "X-Edit-Token": game["token"],
                "Authorization": f"Bearer {game['token']}",
            }
            # Mostly a real round and seat (4 and 3 are still unknown ones).
            for name, count in (("number", 4), ("seat", 3)):
                value = case.path_parameters.get(name)
                if isinstance(value, int):
                    case.path_parameters[name] = 1 + abs(value) % count
        response = case.call()
        assert response.status_code < 500, (operation.label, response.text)
        if case.media_type != "application/json" or case.body is None:
            return
        paths = leaves(case.body)
        body = replaced(case.body, paths[where % len(paths)], poison)
        response = client.request(
            case.method,
            case.formatted_path,
            params=case.query,
            headers={"X-Edit-Token": game["token"], "Content-Type": "application/json"},
            content=json.dumps(body).encode(),  # NaN and Infinity as Python writes them
        )
        sent += 1
        assert response.status_code < 500, (operation.label, poison, response.text)
        if poison in NOT_JSON:  # NaN is found by identity: it is the list's own
            assert response.status_code == 422, (operation.label, poison, response.text)

    no_5xx()
    return sent
