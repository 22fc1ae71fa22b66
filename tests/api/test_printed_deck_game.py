"""A one-round, three-player game over HTTP with the shipped detector reading photos of
the printed deck (tests/conftest.py: the scans beside the checkout). Each draft must
read as the photo was drawn, or carry a warning and be corrected; the recorded round
scores as the rules engine scores the photos' own tallies."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from fastapi.testclient import TestClient

from datasets.faces import FacePool
from datasets.scene import Scene, make_scene
from scoring import GameRules, Tally, check_game, score_game, score_round
from tests.api.conftest import Table

PLAYERS = ["Ana", "Ben", "Cy"]


@pytest.fixture
def detector() -> Any:
    from vision.detector import load_detector

    return load_detector()


def dealable_round(deck: FacePool) -> list[Scene]:
    """Three photos, one per seat, whose collections one deck can deal together."""
    seed = 61_000  # seeds no training or report set uses
    while True:
        seed += 1
        rng = np.random.default_rng(seed)
        scenes = [make_scene(rng, deck, size=2016, players=3) for _ in PLAYERS]
        tallies = [[Tally.from_mapping(s.tally()) for s in scenes]]
        if not [p for p in check_game(tallies) if p.is_error]:
            return scenes


def test_a_round_of_printed_cards_is_read_recorded_and_scored(
    client: TestClient, printed_deck: FacePool
) -> None:
    scenes = dealable_round(printed_deck)
    table = Table(client, {"players": PLAYERS, "title": "printed deck"})
    exact = 0
    for seat, scene in enumerate(scenes, start=1):
        response = table.upload(1, seat, scene.jpeg, author=PLAYERS[seat - 1])
        assert response.status_code == 201, response.text
        draft = response.json()
        truth = Tally.from_mapping(scene.tally()).to_dict()
        if draft["tally"] == truth:
            exact += 1
        else:
            # A misread is never silent: the reviewer is told, then corrects the counts.
            assert draft["warnings"] or draft["problems"], (seat, draft["tally"], truth)
            table.set_counts(1, seat, truth)
        assert table.collection(1, seat)["tally"] == truth
        assert table.confirm(1, seat)["status"] == "confirmed"
    assert exact >= 2, f"{exact} of 3 photos read exactly"
    response = table.record(1, author="scorekeeper")
    assert response.status_code == 200, response.text
    expected = score_game(
        PLAYERS, [[Tally.from_mapping(s.tally()) for s in scenes]], rules=GameRules(3)
    ).to_dict()
    standings = table.standings()
    assert standings["players"] == expected["players"]
    assert standings["winners"] == expected["winners"]
    assert [p["rounds"][0] for p in standings["players"]] == [
        score.total for score in score_round([Tally.from_mapping(s.tally()) for s in scenes])
    ]
