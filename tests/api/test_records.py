"""Recording rounds: scores from the engine, hand-size and deck errors block unless
accepted, re-opening and fixing an earlier round, standings at any time."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from scoring import GameRules, Tally, score_game, score_round
from tests.api.conftest import Table

ROUND = [
    {"tempura": 2, "sashimi": 3, "maki_3": 1, "salmon_on_wasabi": 1, "pudding": 1},
    {"dumpling": 4, "maki_2": 1, "egg": 1, "squid": 1, "sashimi": 1, "chopsticks": 1},
    {"tempura": 2, "maki_1": 2, "pudding": 2, "salmon": 1, "salmon_on_wasabi": 1},
]


def enter(table: Table, number: int, tallies: list[dict[str, int]]) -> None:
    for seat, counts in enumerate(tallies, start=1):
        table.set_counts(number, seat, counts)
        table.confirm(number, seat)


@pytest.mark.both_databases
def test_record_scores_the_round_with_the_engine(table: Table) -> None:
    enter(table, 1, ROUND)
    response = table.record(1, author="Ana")
    assert response.status_code == 200, response.text
    view = response.json()
    assert view["status"] == "recorded" and not view["accepts_entries"]
    expected = [s.to_dict() for s in score_round([Tally.from_mapping(t) for t in ROUND])]
    assert view["record"]["scores"] == expected
    assert view["record"]["author"] == "Ana" and view["record"]["accepted"] is False
    assert view["history"][0]["kind"] == "record"
    game = table.client.get(table.url).json()
    assert game["current_round"] == 2 and game["round_states"][0]["status"] == "recorded"
    # A recorded round takes no more changes.
    response = table.correct(1, 1, action="set_counts", counts={"tempura": 3})
    assert response.status_code == 409 and "re-open" in response.json()["detail"]
    assert table.record(1).status_code == 409


@pytest.mark.both_databases
def test_standings_at_any_time(table: Table) -> None:
    empty = table.standings()
    assert empty["rounds_played"] == 0 and empty["complete"] is False
    assert [p["total"] for p in empty["players"]] == [0, 0, 0]
    enter(table, 1, ROUND)
    table.record(1)
    standings = table.standings()
    scores = score_round([Tally.from_mapping(t) for t in ROUND])
    assert [p["total"] for p in standings["players"]] == [s.total for s in scores]
    assert standings["winners"] == [] and standings["leaders"]
    assert standings["round_scores"] == [[s.to_dict() for s in scores]]


@pytest.mark.both_databases
def test_over_the_hand_size_blocks_the_record_naming_player_and_category(table: Table) -> None:
    enter(table, 1, [ROUND[0], ROUND[1], {**ROUND[2], "chopsticks": 1}])
    response = table.record(1)
    assert response.status_code == 422
    body = response.json()
    assert "Cy has 10 cards" in body["detail"]
    error = next(p for p in body["problems"] if p["severity"] == "error")
    assert error["player"] == "Cy" and error["seat"] == 3 and error["round"] == 1
    assert error["code"] == "too_many_cards" and error["expected"] == 9 and error["actual"] == 10
    assert table.round(1)["status"] == "open"
    # Explicitly accepted, it is recorded, with the problem on record.
    accepted = table.record(1, accept_problems=True)
    assert accepted.status_code == 200, accepted.text
    assert accepted.json()["record"]["accepted"] is True
    assert accepted.json()["record"]["problems"][0]["code"] == "too_many_cards"


def test_over_the_deck_names_the_category(table: Table) -> None:
    enter(table, 1, [{"squid": 3}, {"squid_on_wasabi": 2}, {"squid": 1}])
    response = table.record(1)
    assert response.status_code == 422
    error = next(p for p in response.json()["problems"] if p["severity"] == "error")
    assert error["category"] == "squid" and error["code"] == "deck_limit"
    assert error["expected"] == 5 and error["actual"] == 6


@pytest.mark.both_databases
def test_over_the_deck_across_rounds_blocks(client: TestClient) -> None:
    table = Table(client, {"players": ["A", "B"]})
    enter(table, 1, [{"pudding": 5}, {"pudding": 3}])
    assert table.record(1).status_code == 200
    enter(table, 2, [{"pudding": 1}, {"pudding": 2}])
    response = table.record(2)
    assert response.status_code == 422
    assert response.json()["detail"] == (
        "round 2 cannot be recorded: the rounds together hold 11 pudding, the deck has only "
        "10 (round 1: 8, round 2: 3; discards are not reshuffled between rounds); correct the "
        "tallies, or record with accept_problems=true"
    )


def test_a_kind_over_the_deck_accepted_in_one_round_blocks_no_round_without_it(
    client: TestClient,
) -> None:
    """Five chopsticks over two rounds, recorded so by choice: a third round that holds
    none is recorded without asking again (fixing it cannot mend them), one that holds a
    chopsticks is asked about, and told which rounds hold how many."""
    table = Table(client, {"players": ["A", "B"]})
    enter(table, 1, [{"chopsticks": 2}, {"tempura": 2}])
    assert table.record(1).status_code == 200
    enter(table, 2, [{"chopsticks": 3}, {"tempura": 2}])
    assert table.record(2).status_code == 422
    assert table.record(2, accept_problems=True).status_code == 200
    enter(table, 3, [{"tempura": 2, "chopsticks": 1}, {"sashimi": 3}])
    response = table.record(3)
    assert response.status_code == 422
    assert "(round 1: 2, round 2: 3, round 3: 1; discards" in response.json()["detail"]
    enter(table, 3, [{"tempura": 2, "chopsticks": 0}, {"sashimi": 3}])
    recorded = table.record(3)
    assert recorded.status_code == 200, recorded.text
    assert recorded.json()["record"]["accepted"] is False


@pytest.mark.both_databases
def test_stale_round_version_is_409(table: Table) -> None:
    enter(table, 1, ROUND)
    version = table.round(1)["version"]
    table.correct(1, 1, action="set_counts", counts={"tempura": 3})  # moves the round on
    table.confirm(1, 1)
    response = table.record(1, version=version)
    assert response.status_code == 409
    assert table.round(1)["status"] == "open"


@pytest.mark.both_databases
def test_reopen_fix_and_record_again_recomputes_the_standings(table: Table) -> None:
    rounds = [ROUND, ROUND[1:] + ROUND[:1], ROUND[2:] + ROUND[:2]]
    for number, tallies in enumerate(rounds, start=1):
        enter(table, number, tallies)
        assert table.record(number).status_code == 200
    final = table.standings()
    assert final["complete"] is True and final["winners"]
    assert client_game_status(table) == "finished"

    assert table.reopen(1).status_code == 200
    assert client_game_status(table) == "fixing"
    during = table.standings()
    assert during["players"] == final["players"] and during["reopened"] == [1]

    fixed = [{**ROUND[0], "sashimi": 0, "maki_2": 3}, ROUND[1], ROUND[2]]
    table.set_counts(1, 1, {"sashimi": 0, "maki_2": 3})
    assert table.record(1).status_code == 409  # Ana is no longer confirmed
    table.confirm(1, 1)
    assert table.record(1).status_code == 200
    after = table.standings()
    expected = score_game(
        ["Ana", "Ben", "Cy"],
        [[Tally.from_mapping(t) for t in r] for r in [fixed, *rounds[1:]]],
        rules=GameRules(3),
    ).to_dict()
    assert after["players"] == expected["players"]
    assert after["winners"] == expected["winners"]
    assert after["reopened"] == []
    history = [e["kind"] for e in table.round(1)["history"]]
    assert history == ["record", "reopen", "record"]


def test_reopen_needs_a_recorded_round(table: Table) -> None:
    assert table.reopen(1).status_code == 409


def client_game_status(table: Table) -> Any:
    return table.client.get(table.url).json()["status"]
