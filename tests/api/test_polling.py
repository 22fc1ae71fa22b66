"""What the web page polls: `can_edit` on the game, and the game's revision as an ETag
(GET game and standings answer 304 to a matching If-None-Match while nothing changed)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.conftest import Table


def _game(table: Table, **headers: str) -> Any:
    response = table.client.get(table.url, headers=headers)
    assert response.status_code == 200, response.text
    return response


@pytest.mark.both_databases
def test_can_edit_says_whether_the_edit_token_came_along(table: Table) -> None:
    assert table.game["can_edit"] is True  # the creator holds the token
    assert _game(table).json()["can_edit"] is False
    assert _game(table, Authorization=f"Bearer {table.token}").json()["can_edit"] is True
    assert _game(table, **{"X-Edit-Token": table.token}).json()["can_edit"] is True
    # A wrong token is no error on a read: it only cannot edit.
    assert _game(table, **{"X-Edit-Token": "not-the-token"}).json()["can_edit"] is False


@pytest.mark.both_databases
def test_a_poll_is_304_until_something_changes(table: Table) -> None:
    first = _game(table)
    tag = first.headers["ETag"]
    assert first.headers["Cache-Control"] == "no-cache"
    assert "X-Edit-Token" in first.headers["Vary"]
    again = table.client.get(table.url, headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["ETag"] == tag

    table.set_counts(1, 2, {"tempura": 2})  # a player's entry: not the game row itself
    changed = table.client.get(table.url, headers={"If-None-Match": tag})
    assert changed.status_code == 200
    assert changed.headers["ETag"] != tag
    assert changed.json()["revision"] == first.json()["revision"] + 1


@pytest.mark.both_databases
def test_the_revision_moves_on_every_kind_of_write(table: Table) -> None:
    seen = [table.game["revision"]]

    def moved() -> None:
        revision = _game(table).json()["revision"]
        assert revision > seen[-1]
        seen.append(revision)

    for seat in (1, 2, 3):
        table.set_counts(1, seat, {"sashimi": 3})
        moved()
        table.confirm(1, seat)
        moved()
    assert table.record(1).status_code == 200
    moved()
    assert table.reopen(1).status_code == 200
    moved()
    version = _game(table).json()["version"]
    patched = table.client.patch(
        table.url, json={"version": version, "title": "Friday"}, headers=table.headers
    )
    assert patched.status_code == 200 and patched.json()["can_edit"] is True
    moved()
    # A refused write moves nothing.
    assert table.correct(1, 1, action="set_counts", counts={"egg": 1}, version=0).status_code == 409
    assert _game(table).json()["revision"] == seen[-1]


def test_an_editor_and_a_viewer_get_different_etags(table: Table) -> None:
    viewer = _game(table).headers["ETag"]
    editor = _game(table, **{"X-Edit-Token": table.token}).headers["ETag"]
    assert viewer != editor
    # The viewer's tag does not stand for the editor's body (can_edit differs).
    response = table.client.get(
        table.url, headers={"If-None-Match": viewer, "X-Edit-Token": table.token}
    )
    assert response.status_code == 200 and response.json()["can_edit"] is True
    several = f'W/"nothing", {editor}'
    response = table.client.get(
        table.url, headers={"If-None-Match": several, "X-Edit-Token": table.token}
    )
    assert response.status_code == 304


def test_standings_carry_the_same_revision(table: Table) -> None:
    url = f"{table.url}/standings"
    first = table.client.get(url)
    tag = first.headers["ETag"]
    assert table.client.get(url, headers={"If-None-Match": tag}).status_code == 304
    table.set_counts(1, 1, {"egg": 1})
    assert table.client.get(url, headers={"If-None-Match": tag}).status_code == 200


def test_polling_is_documented(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    game = paths["/api/v1/games/{game_id}"]["get"]
    assert "304" in game["responses"]
    schema = client.get("/openapi.json").json()["components"]["schemas"]["GamePublic"]
    assert {"revision", "can_edit"} <= set(schema["properties"])
    assert "304" in paths["/api/v1/games/{game_id}/standings"]["get"]["responses"]
