"""POST /api/v1/score/round and /score/game: design.md's bodies, and 422 for bad ones."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from scoring import GameRules, Tally, score_game, score_round

ANA = {"tempura": 2, "sashimi": 3, "maki_3": 1, "salmon_on_wasabi": 1, "pudding": 1}  # 9
BEN = {"dumpling": 4, "maki_2": 1, "egg": 1, "squid": 1, "sashimi": 1, "chopsticks": 1}  # 9
CY = {"tempura": 2, "maki_1": 2, "pudding": 2, "salmon": 1, "salmon_on_wasabi": 1}  # 9


def test_score_round_matches_the_engine(client: TestClient) -> None:
    response = client.post("/api/v1/score/round", json={"tallies": [ANA, BEN, CY]})
    assert response.status_code == 200, response.text
    expected = [s.to_dict() for s in score_round([Tally.from_mapping(t) for t in (ANA, BEN, CY)])]
    assert response.json() == {"scores": expected}
    first = response.json()["scores"][0]
    assert set(first) == {"total", "breakdown"}
    assert set(first["breakdown"]) == {"maki", "tempura", "sashimi", "dumpling", "nigiri"}


def test_seed_004_salmon_plain_and_on_wasabi_is_8(client: TestClient) -> None:
    body = {"tallies": [{"salmon": 1, "salmon_on_wasabi": 1}, {}]}
    response = client.post("/api/v1/score/round", json=body)
    assert response.json()["scores"][0]["breakdown"]["nigiri"] == 8


def test_score_game_matches_the_engine(client: TestClient) -> None:
    rounds = [[ANA, BEN, CY], [BEN, CY, ANA], [CY, ANA, BEN]]
    body = {"players": ["Ana", "Ben", "Cy"], "rounds": rounds}
    response = client.post("/api/v1/score/game", json=body)
    assert response.status_code == 200, response.text
    result = score_game(
        ["Ana", "Ben", "Cy"], [[Tally.from_mapping(t) for t in r] for r in rounds]
    ).to_dict()
    data = response.json()
    assert data["players"] == result["players"]
    assert data["winners"] == result["winners"] and data["winners"]
    assert data["complete"] is True
    # design.md's keys, and each player's place (1 the winner).
    keys = {"name", "rounds", "dessert", "total", "puddings", "place"}
    assert set(data["players"][0]) == keys
    winner = next(p for p in data["players"] if p["name"] == data["winners"][0])
    assert winner["place"] == 1


def test_score_game_partial_has_no_winners_yet(client: TestClient) -> None:
    body = {"players": ["Ana", "Ben", "Cy"], "rounds": [[ANA, BEN, CY]]}
    data = client.post("/api/v1/score/game", json=body).json()
    assert data["complete"] is False and data["winners"] == []
    assert all(p["dessert"] == 0 for p in data["players"])


def test_score_game_four_round_variant(client: TestClient) -> None:
    rounds = [[{"tempura": 1}, {"sashimi": 1}, {"dumpling": 1}]] * 4
    body = {"players": ["A", "B", "C"], "rounds": rounds, "rules": {"rounds": 4}}
    data = client.post("/api/v1/score/game", json=body).json()
    expected = score_game(
        ["A", "B", "C"],
        [[Tally.from_mapping(t) for t in r] for r in rounds],
        rules=GameRules(3, rounds=4),
    )
    assert data["players"] == expected.to_dict()["players"]
    assert data["complete"] is True


BAD_ROUNDS: list[tuple[str, Any, str]] = [
    ("negative count", {"tallies": [{"tempura": -1}, {}]}, "tempura"),
    ("unknown key", {"tallies": [{"tempora": 1}, {}]}, "tempora"),
    ("non-integer", {"tallies": [{"tempura": 1.5}, {}]}, "tempura"),
    ("integer-valued float", {"tallies": [{"tempura": 1.0}, {}]}, "tempura"),
    ("string count", {"tallies": [{"tempura": "2"}, {}]}, "tempura"),
    ("bool count", {"tallies": [{"tempura": True}, {}]}, "tempura"),
    ("one player", {"tallies": [{}]}, "tallies"),
    ("six players", {"tallies": [{}] * 6}, "tallies"),
    ("tally not an object", {"tallies": [3, {}]}, "tallies"),
    ("no tallies", {}, "tallies"),
    ("over the hand size", {"tallies": [{"tempura": 11}, {}]}, "hand size"),
    ("over the deck in one tally", {"tallies": [{"egg": 6}, {}]}, "egg"),
    ("over the deck together", {"tallies": [{"squid": 3}, {"squid_on_wasabi": 3}]}, "squid"),
    ("wasabi over the deck", {"tallies": [{"wasabi": 4}, {"salmon_on_wasabi": 3}]}, "wasabi"),
]


@pytest.mark.parametrize(("name", "body", "named"), BAD_ROUNDS, ids=[b[0] for b in BAD_ROUNDS])
def test_bad_round_bodies_get_422_naming_the_problem(
    client: TestClient, name: str, body: Any, named: str
) -> None:
    response = client.post("/api/v1/score/round", json=body)
    assert response.status_code == 422, response.text
    assert named in response.text


def test_over_hand_size_names_player_and_category(client: TestClient) -> None:
    response = client.post("/api/v1/score/round", json={"tallies": [{}, {"dumpling": 11}]})
    assert response.status_code == 422
    data = response.json()
    assert "player 2" in data["detail"]
    problem = next(p for p in data["problems"] if p["severity"] == "error")
    assert problem["seat"] == 2 and problem["code"] == "too_many_cards"
    assert problem["expected"] == 10 and problem["actual"] == 11


BAD_GAMES: list[tuple[str, Any, str]] = [
    ("one player", {"players": ["A"], "rounds": []}, "players"),
    ("six players", {"players": list("ABCDEF"), "rounds": []}, "players"),
    ("same name twice", {"players": ["A", "A"], "rounds": []}, "A"),
    ("blank name", {"players": ["A", " "], "rounds": []}, "players"),
    ("round short of a player", {"players": ["A", "B"], "rounds": [[{}]]}, "round 1"),
    ("too many rounds", {"players": ["A", "B"], "rounds": [[{}, {}]] * 6}, "rounds"),
    (
        "five rounds with five players",
        {"players": list("ABCDE"), "rounds": [], "rules": {"rounds": 5}},
        "5 rounds",
    ),
    ("negative", {"players": ["A", "B"], "rounds": [[{"pudding": -1}, {}]]}, "pudding"),
    (
        "puddings over the deck across rounds",
        {"players": ["A", "B"], "rounds": [[{"pudding": 6}, {}], [{"pudding": 5}, {}]]},
        "pudding",
    ),
]


@pytest.mark.parametrize(("name", "body", "named"), BAD_GAMES, ids=[b[0] for b in BAD_GAMES])
def test_bad_game_bodies_get_422_naming_the_problem(
    client: TestClient, name: str, body: Any, named: str
) -> None:
    response = client.post("/api/v1/score/game", json=body)
    assert response.status_code == 422, response.text
    assert named in response.text


def test_malformed_json_is_422_not_500(client: TestClient) -> None:
    response = client.post(
        "/api/v1/score/round", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert response.status_code == 422
