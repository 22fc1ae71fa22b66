"""A four-player game played through HTTP: photos uploaded (detected by a fake detector
that makes the mistakes a real one makes), corrected in every way, confirmed, three
rounds recorded, round 1 fixed, and the final standings and winners checked against
the scoring engine run on the ground-truth tallies."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from scoring import STACKS, TALLY_KEYS, GameRules, Tally, check_game, score_game
from tests.api.conftest import FakeDetector, Table, boxes_for, make_photo

PLAYERS = ["Ana", "Ben", "Cy", "Dee"]
TRUTH: list[list[dict[str, int]]] = [
    [
        {"tempura": 2, "sashimi": 3, "maki_2": 1, "salmon_on_wasabi": 1},
        {"dumpling": 3, "maki_3": 1, "egg": 1, "pudding": 2, "chopsticks": 1},
        {"tempura": 1, "maki_1": 2, "squid": 1, "wasabi": 1, "pudding": 1, "sashimi": 2},
        {"dumpling": 2, "maki_2": 2, "salmon": 2, "tempura": 2},
    ],
    [
        {"dumpling": 4, "pudding": 1, "maki_3": 1, "egg": 1, "salmon": 1},
        {"tempura": 2, "sashimi": 3, "squid_on_wasabi": 1, "maki_1": 1},
        {"tempura": 2, "maki_2": 2, "pudding": 2, "chopsticks": 1, "egg": 1},
        {"sashimi": 3, "dumpling": 1, "salmon": 2, "maki_3": 1, "wasabi": 1},
    ],
    [
        {"sashimi": 3, "tempura": 2, "pudding": 1, "maki_1": 1, "squid": 1},
        {"dumpling": 3, "maki_2": 2, "egg_on_wasabi": 1, "salmon": 1},
        {"tempura": 2, "maki_3": 2, "salmon": 1, "pudding": 1, "dumpling": 1, "chopsticks": 1},
        {"maki_2": 3, "tempura": 1, "pudding": 1, "chopsticks": 1, "salmon": 2},
    ],
]
# Round 1 as it really was: Dee had a squid, entered as a second salmon.
FIXED_DEE = {"dumpling": 2, "maki_2": 2, "salmon": 1, "squid": 1, "tempura": 2}


def cards_seen(truth: dict[str, int]) -> list[str]:
    """What a detector sees: each card once; of a stack only the nigiri on top."""
    labels: list[str] = []
    for key in TALLY_KEYS:
        labels += [STACKS.get(key, key)] * truth.get(key, 0)
    return labels


def box_id(draft: dict[str, Any], label: str) -> int:
    return next(int(d["id"]) for d in draft["detections"] if d["label"] == label)


def full(counts: dict[str, int]) -> dict[str, int]:
    return Tally.from_mapping(counts).to_dict()


@pytest.mark.both_databases
def test_four_player_game_over_http(client: TestClient, detector: FakeDetector) -> None:
    rounds_truth = [[Tally.from_mapping(t) for t in r] for r in TRUTH]
    assert not [p for p in check_game(rounds_truth) if p.is_error]  # a dealable game
    table = Table(client, {"players": PLAYERS, "title": "end to end"})
    assert table.game["hand_size"] == 8
    photo_number = 0

    def upload(number: int, seat: int, labels: list[str]) -> dict[str, Any]:
        nonlocal photo_number
        photo_number += 1
        size = (900 + photo_number, 700)
        records = boxes_for(labels, width=size[0], height=size[1])
        detector.register(size, records)
        response = table.upload(number, seat, make_photo(size, records), author=PLAYERS[seat - 1])
        assert response.status_code == 201, response.text
        return dict(response.json())

    def correct(number: int, seat: int, **body: Any) -> dict[str, Any]:
        response = table.correct(number, seat, author="scorekeeper", **body)
        assert response.status_code == 200, response.text
        return dict(response.json())

    for number, truths in enumerate(TRUTH, start=1):
        for seat, truth in enumerate(truths, start=1):
            seen = cards_seen(truth)
            if number == 1 and seat == 4:
                # Photo-less: the calculator way.
                table.set_counts(number, seat, truth)
            elif number == 1 and seat == 2:
                # The detector missed the egg: add its box.
                draft = upload(number, seat, [c for c in seen if c != "egg"])
                assert draft["tally"]["egg"] == 0
                correct(number, seat, action="add", box=[700, 560, 880, 690], label="egg")
            elif number == 1 and seat == 3:
                # The detector saw chopsticks that are not there: delete the box.
                draft = upload(number, seat, [*seen, "chopsticks"])
                correct(number, seat, action="delete", detection=box_id(draft, "chopsticks"))
            elif number == 2 and seat == 3:
                # A maki of 2 rolls read as a three: a wrong relabel, undone, then the right one.
                draft = upload(number, seat, ["maki_3" if c == "maki_2" else c for c in seen])
                wrong = correct(
                    number,
                    seat,
                    action="relabel",
                    detection=box_id(draft, "maki_3"),
                    label="maki_1",
                )
                assert wrong["tally"]["maki_1"] == 1
                undone = table.act(number, seat, "undo")
                assert undone.status_code == 200
                draft = undone.json()
                for _ in range(2):
                    correct(
                        number,
                        seat,
                        action="relabel",
                        detection=box_id(draft, "maki_3"),
                        label="maki_2",
                    )
                    draft = table.collection(number, seat)
            elif number == 2 and seat == 4:
                # A dumpling seen twice: fix the count directly over the photo's reading.
                upload(number, seat, [*seen, "dumpling"])
                correct(number, seat, action="set_counts", counts={"dumpling": 1})
            else:
                draft = upload(number, seat, seen)
                for stack, nigiri in STACKS.items():
                    for _ in range(truth.get(stack, 0)):
                        # The wasabi under the nigiri is hidden: relabel the box as a stack.
                        draft = correct(
                            number,
                            seat,
                            action="relabel",
                            detection=box_id(draft, nigiri),
                            label=stack,
                        )
            state = table.collection(number, seat)
            assert state["tally"] == full(truth), (number, seat)
            assert not [p for p in state["problems"] if p["severity"] == "error"]
            confirmed = table.confirm(number, seat)
            assert confirmed["status"] == "confirmed"

        response = table.record(number, author="scorekeeper")
        assert response.status_code == 200, response.text

    complete = table.standings()
    expected = score_game(PLAYERS, rounds_truth, rules=GameRules(4)).to_dict()
    assert complete["players"] == expected["players"]
    assert complete["winners"] == expected["winners"]

    # Fix round 1: Dee had a squid, not a second salmon.
    assert table.reopen(1).status_code == 200
    table.set_counts(1, 4, {"salmon": 1, "squid": 1})
    table.confirm(1, 4)
    response = table.record(1, author="scorekeeper")
    assert response.status_code == 200, response.text

    fixed = [[*TRUTH[0][:3], FIXED_DEE], *TRUTH[1:]]
    final = table.standings()
    expected = score_game(
        PLAYERS, [[Tally.from_mapping(t) for t in r] for r in fixed], rules=GameRules(4)
    ).to_dict()
    assert final["complete"] is True
    assert final["players"] == expected["players"]
    assert final["winners"] == expected["winners"] and final["winners"]
    assert any(p["dessert"] != 0 for p in final["players"])
    assert client.get(table.url).json()["status"] == "finished"

    # The audit of a corrected collection tells the whole story.
    events = client.get(f"{table.collection_url(2, 3)}/events").json()
    assert [e["kind"] for e in events] == [
        "upload",
        "relabel",
        "undo",
        "relabel",
        "relabel",
        "confirm",
    ]
    assert events[1]["undone"] is True and events[1]["author"] == "scorekeeper"
