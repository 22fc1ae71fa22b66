"""A property-based run over the OpenAPI schema (schemathesis): whatever the schema lets
a client send, the service answers without a 5xx. Requests go to a real game with its
token, so that they reach past the 404s and 401s into the handlers."""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings

MAX_EXAMPLES = 8


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
def test_no_server_errors(app: FastAPI, game: dict[str, Any]) -> None:
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    results: list[Any] = list(schema.get_all_operations())
    operations = [result.ok() for result in results]
    assert len(operations) >= 20
    for operation in operations:
        check_operation(operation, game)


def check_operation(operation: Any, game: dict[str, Any]) -> None:
    @given(case=operation.as_strategy())
    @settings(
        max_examples=MAX_EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    def no_5xx(case: Any) -> None:
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

    no_5xx()
