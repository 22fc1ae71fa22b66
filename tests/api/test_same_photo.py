"""One photo sent for two collections is said, on each review and once on the round, and
holds the round's record until it is fixed or recorded anyway: a player who picks the
neighbour's photo from a shared album, or last round's, would otherwise leave their own
cards unscored without a word."""

from __future__ import annotations

from typing import Any

from tests.api.conftest import FakeDetector, Table, boxes_for, make_photo

# Three players: a hand of 9.
ANA = ["tempura", "tempura", "sashimi", "sashimi", "sashimi", "maki_2", "salmon", "egg", "pudding"]
BEN = ["dumpling"] * 5 + ["maki_3"] * 4
CY = ["tempura"] * 4 + ["maki_2"] * 5


def _photo(detector: FakeDetector, width: int, labels: list[str]) -> bytes:
    """A photo the fake detector reads as `labels` (each test photo its own width)."""
    records = boxes_for(labels, width=width)
    detector.register((width, 700), records)
    return make_photo((width, 700), records)


def _send(table: Table, round: int, seat: int, photo: bytes) -> dict[str, Any]:
    response = table.upload(round, seat, photo, replace="true")
    assert response.status_code == 201, response.text
    return dict(response.json())


def _same(problems: list[dict[str, Any]]) -> list[str]:
    return [p["message"] for p in problems if p["code"] == "same_photo"]


def test_one_photo_for_two_players_is_said_and_holds_the_record(
    table: Table, detector: FakeDetector
) -> None:
    ana, ben, cy = _photo(detector, 900, ANA), _photo(detector, 902, BEN), _photo(detector, 904, CY)
    _send(table, 1, 1, ana)
    alone = _send(table, 1, 2, ben)
    assert _same(alone["problems"]) == []

    # Cy picks Ana's photo: both reviews say so, each naming the other.
    told = _send(table, 1, 3, ana)
    assert _same(told["problems"]) == [
        "Cy's photo is the same file as Ana's: each player photographs their own cards; "
        "retake the one that is not"
    ]
    (problem,) = [p for p in told["problems"] if p["code"] == "same_photo"]
    assert problem["severity"] == "error" and problem["player"] == "Cy" and problem["round"] == 1
    assert _same(table.collection(1, 1)["problems"]) == [
        "Ana's photo is the same file as Cy's: each player photographs their own cards; "
        "retake the one that is not"
    ]
    # The round says it once, before every tally is confirmed and after.
    assert len(_same(table.round(1)["problems"])) == 1
    for seat in (1, 2, 3):
        table.confirm(1, seat)
    assert len(_same(table.round(1)["problems"])) == 1

    refused = table.record(1)
    assert refused.status_code == 422, refused.text
    assert "the same file as Cy's" in refused.json()["detail"]
    assert table.round(1)["status"] != "recorded"

    # Cy's own photo mends it, with nothing else lost.
    _send(table, 1, 3, cy)
    assert _same(table.collection(1, 1)["problems"]) == []
    assert _same(table.round(1)["problems"]) == []
    assert table.collection(1, 1)["status"] == "confirmed"
    table.confirm(1, 3)
    assert table.record(1).status_code == 200


def test_last_rounds_photo_sent_again_is_said(table: Table, detector: FakeDetector) -> None:
    photos = [_photo(detector, 900 + 2 * i, labels) for i, labels in enumerate([ANA, BEN, CY])]
    for seat, photo in enumerate(photos, start=1):
        _send(table, 1, seat, photo)
        table.confirm(1, seat)
    assert table.record(1).status_code == 200

    told = _send(table, 2, 2, photos[1])
    assert _same(told["problems"]) == [
        "Ben's photo is the same file as Ben's in round 1: take a photo of this round's cards"
    ]
    # Round 1's photo stays round 1's: the later photo is the one sent again.
    assert _same(table.collection(1, 2)["problems"]) == []
    assert _same(table.round(1)["problems"]) == []
    _send(table, 2, 1, _photo(detector, 951, ANA))
    _send(table, 2, 3, _photo(detector, 953, CY))
    for seat in (1, 2, 3):
        table.confirm(2, seat)
    refused = table.record(2)
    assert refused.status_code == 422, refused.text
    # The table may know better (a house rule, a photo truly of these cards): anyway.
    assert table.record(2, accept_problems=True).status_code == 200
    assert _same(table.round(2)["record"]["problems"]) == [
        "Ben's photo is the same file as Ben's in round 1: take a photo of this round's cards"
    ]
