"""Games: create, read, change; the edit token; unknown ids; rounds in order."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.conftest import Table


@pytest.mark.both_databases
def test_create_game_returns_id_token_and_state(client: TestClient) -> None:
    response = client.post(
        "/api/v1/games", json={"players": ["Ana", "Ben", "Cy", "Dee"], "title": "Friday"}
    )
    assert response.status_code == 201, response.text
    game = response.json()
    assert response.headers["location"] == f"/api/v1/games/{game['id']}"
    # A code to read aloud: 12 lowercase letters and digits, none a look-alike (O, I, L).
    assert re.fullmatch(r"[0-9a-hjkmnp-tv-z]{12}", game["id"]), game["id"]
    assert len(game["edit_token"]) >= 30
    assert [p["name"] for p in game["players"]] == ["Ana", "Ben", "Cy", "Dee"]
    assert [p["seat"] for p in game["players"]] == [1, 2, 3, 4]
    assert game["rounds"] == 3 and game["hand_size"] == 8 and game["pass_both_ways"] is False
    assert game["status"] == "playing" and game["current_round"] == 1
    assert [r["status"] for r in game["round_states"]] == ["open"] * 3

    read = client.get(f"/api/v1/games/{game['id']}").json()
    assert "edit_token" not in read
    assert read["players"] == game["players"] and read["title"] == "Friday"


@pytest.mark.parametrize(
    ("players", "rounds", "ok"),
    [
        (2, 5, True),  # 2 x 10 x 5 = 100 cards
        (3, 4, True),  # 3 x 9 x 4 = 108
        (3, 5, False),  # 135 > 108
        (4, 4, False),  # 4 x 8 x 4 = 128
        (5, 4, False),
        (4, 3, True),
    ],
)
def test_more_rounds_only_where_the_deck_can_deal_them(
    client: TestClient, players: int, rounds: int, ok: bool
) -> None:
    body = {"players": [f"P{i}" for i in range(players)], "rounds": rounds}
    response = client.post("/api/v1/games", json=body)
    assert response.status_code == (201 if ok else 422), response.text
    if not ok:
        assert f"{rounds} rounds" in response.json()["detail"]


def test_pass_both_ways_is_recorded(client: TestClient) -> None:
    game = client.post("/api/v1/games", json={"players": ["A", "B"], "pass_both_ways": True}).json()
    assert game["pass_both_ways"] is True


BAD_GAMES: list[tuple[str, Any]] = [
    ("one player", {"players": ["A"]}),
    ("six players", {"players": list("ABCDEF")}),
    ("duplicate names", {"players": ["Ana", "Ana"]}),
    ("blank name", {"players": ["Ana", "  "]}),
    ("name too long", {"players": ["A" * 41, "B"]}),
    ("two rounds", {"players": ["A", "B"], "rounds": 2}),
    ("six rounds", {"players": ["A", "B"], "rounds": 6}),
    ("rounds as string", {"players": ["A", "B"], "rounds": "3"}),
    ("unknown field", {"players": ["A", "B"], "colour": "red"}),
    ("no players", {}),
]


@pytest.mark.parametrize(("name", "body"), BAD_GAMES, ids=[b[0] for b in BAD_GAMES])
def test_bad_game_bodies_are_422(client: TestClient, name: str, body: Any) -> None:
    response = client.post("/api/v1/games", json=body)
    assert response.status_code == 422, response.text


def test_unknown_game_round_player_are_404(client: TestClient, table: Table) -> None:
    assert client.get("/api/v1/games/nosuchgame").status_code == 404
    assert client.get("/api/v1/games/nosuchgame/standings").status_code == 404
    assert client.get(f"{table.url}/rounds/4").status_code == 404
    assert client.get(f"{table.url}/rounds/0").status_code == 404
    assert client.get(f"{table.url}/rounds/1/players/4").status_code == 404
    assert client.get(f"{table.url}/rounds/1/players/0").status_code == 404
    assert client.get(f"{table.url}/photos/1").status_code == 404
    response = table.correct(1, 9, action="set_counts", counts={"tempura": 1}, version=0)
    assert response.status_code == 404
    assert "players are numbered 1 to 3" in response.json()["detail"]


def test_game_id_with_odd_characters_is_rejected(client: TestClient) -> None:
    assert client.get("/api/v1/games/%00%FF").status_code in (404, 422)
    assert client.get("/api/v1/games/" + "x" * 300).status_code in (404, 422)


# --- the edit token ---------------------------------------------------------------------


def _writes(table: Table) -> list[tuple[str, str, dict[str, Any]]]:
    url = table.collection_url(1, 1)
    return [
        ("PATCH", table.url, {"version": 0, "title": "hijacked"}),
        (
            "POST",
            f"{url}/corrections",
            {"action": "set_counts", "counts": {"tempura": 2}, "version": 0},
        ),
        ("POST", f"{url}/confirm", {"version": 0}),
        ("POST", f"{url}/undo", {"version": 0}),
        ("POST", f"{table.url}/rounds/1/record", {"version": 0}),
        ("POST", f"{table.url}/rounds/1/reopen", {"version": 0}),
    ]


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({}, 401),
        ({"Authorization": "Bearer wrong-token"}, 403),
        ({"X-Edit-Token": "wrong-token"}, 403),
        ({"Authorization": "Basic dXNlcjpwYXNz"}, 401),
    ],
    ids=["missing", "wrong bearer", "wrong header", "not bearer"],
)
@pytest.mark.both_databases
def test_writes_need_the_games_token(
    client: TestClient, table: Table, headers: dict[str, str], status: int
) -> None:
    before = (client.get(table.url).json(), table.collection(1, 1))
    for method, url, body in _writes(table):
        response = client.request(method, url, json=body, headers=headers)
        assert response.status_code == status, (method, url, response.text)
    upload = client.post(
        f"{table.collection_url(1, 1)}/photos",
        files={"image": ("a.jpg", b"\xff\xd8\xff", "image/jpeg")},
        data={"version": "0"},
        headers=headers,
    )
    assert upload.status_code == status
    assert (client.get(table.url).json(), table.collection(1, 1)) == before


def test_another_games_token_is_403(client: TestClient, table: Table) -> None:
    other = Table(client, {"players": ["X", "Y"]})
    response = client.post(
        f"{table.collection_url(1, 1)}/corrections",
        json={"action": "set_counts", "counts": {"tempura": 2}, "version": 0},
        headers=other.headers,
    )
    assert response.status_code == 403
    assert table.collection(1, 1)["status"] == "empty"


def test_x_edit_token_header_works(client: TestClient, table: Table) -> None:
    response = client.patch(
        table.url, json={"version": 0, "title": "Tuesday"}, headers={"X-Edit-Token": table.token}
    )
    assert response.status_code == 200, response.text
    assert response.json()["title"] == "Tuesday" and response.json()["version"] == 1


# --- changing the set-up ------------------------------------------------------------------


@pytest.mark.both_databases
def test_update_renames_and_changes_variant(client: TestClient, table: Table) -> None:
    response = client.patch(
        table.url,
        json={"version": 0, "players": ["Ana", "Benno", "Cy"], "rounds": 4, "pass_both_ways": True},
        headers=table.headers,
    )
    assert response.status_code == 200, response.text
    game = response.json()
    assert [p["name"] for p in game["players"]] == ["Ana", "Benno", "Cy"]
    assert game["rounds"] == 4 and len(game["round_states"]) == 4 and game["pass_both_ways"]
    assert client.get(f"{table.url}/rounds/4").status_code == 200


@pytest.mark.parametrize(
    "body",
    [{"players": None}, {"players": ["Ana", "Ben", "Cy"]}, {"title": None}, {"rounds": 3}],
    ids=["null players", "the same names", "no title again", "the same rounds"],
)
def test_an_update_that_changes_nothing_keeps_the_version(
    client: TestClient, table: Table, body: dict[str, Any]
) -> None:
    """A new version over no change would have turned every other phone's write stale."""
    before = client.get(table.url).json()
    response = client.patch(table.url, json={"version": 0, **body}, headers=table.headers)
    assert response.status_code == 200, response.text
    assert response.json()["version"] == 0 and client.get(table.url).json() == before


@pytest.mark.both_databases
def test_update_with_stale_version_is_409_and_changes_nothing(
    client: TestClient, table: Table
) -> None:
    assert (
        client.patch(
            table.url, json={"version": 0, "title": "one"}, headers=table.headers
        ).status_code
        == 200
    )
    stale = client.patch(table.url, json={"version": 0, "title": "two"}, headers=table.headers)
    assert stale.status_code == 409
    assert stale.json()["current_version"] == 1
    assert client.get(table.url).json()["title"] == "one"


@pytest.mark.parametrize(
    "body",
    [
        {"players": ["A", "B"]},  # a player removed
        {"players": ["A", "A", "B"]},  # duplicate
        {"rounds": 5},  # 3 players x 9 x 5 > 108
    ],
)
def test_impossible_updates_are_refused(
    client: TestClient, table: Table, body: dict[str, Any]
) -> None:
    response = client.patch(table.url, json={"version": 0, **body}, headers=table.headers)
    assert response.status_code in (409, 422), response.text
    assert client.get(table.url).json()["version"] == 0


@pytest.mark.both_databases
def test_rounds_cannot_shrink_below_entries(client: TestClient) -> None:
    table = Table(client, {"players": ["A", "B"], "rounds": 4})
    for number in (1, 2, 3):
        for seat in (1, 2):
            table.set_counts(number, seat, {"tempura": 1})
            table.confirm(number, seat)
        assert table.record(number, accept_problems=False).status_code == 200
    table.set_counts(4, 1, {"sashimi": 1})
    response = client.patch(table.url, json={"version": 0, "rounds": 3}, headers=table.headers)
    assert response.status_code == 409
    assert client.get(table.url).json()["rounds"] == 4


# --- order of play --------------------------------------------------------------------------


@pytest.mark.both_databases
def test_round_out_of_order_is_409(table: Table) -> None:
    response = table.correct(2, 1, action="set_counts", counts={"tempura": 2})
    assert response.status_code == 409
    assert "round 2 cannot start before round 1 is recorded" in response.json()["detail"]
    assert table.record(2).status_code == 409


@pytest.mark.both_databases
def test_record_before_every_confirmation_is_409(table: Table) -> None:
    table.set_counts(1, 1, {"tempura": 9})
    table.confirm(1, 1)
    table.set_counts(1, 2, {"sashimi": 9})
    response = table.record(1)
    assert response.status_code == 409
    detail = response.json()["detail"]
    assert "Ben (draft)" in detail and "Cy (empty)" in detail
    assert table.round(1)["status"] == "open"
