"""Relative count adjustments (`adjust_count`): a counter's +1 / -1 as a correction event
that keeps its delta, from and to; undone like any correction; refused below 0 or over
the deck."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.conftest import FakeDetector, Table, boxes_for, make_photo

CARDS = ["tempura", "tempura", "egg", "egg", "maki_2", "dumpling"]


def _adjust(table: Table, seat: int, category: str, delta: Any, **body: Any) -> Any:
    return table.correct(1, seat, action="adjust_count", category=category, delta=delta, **body)


@pytest.fixture
def photo_draft(table: Table, detector: FakeDetector) -> dict[str, Any]:
    records = boxes_for(CARDS)
    detector.register((900, 700), records)
    response = table.upload(1, 1, make_photo((900, 700), records))
    assert response.status_code == 201, response.text
    assert response.json()["tally"]["egg"] == 2
    return response.json()


@pytest.mark.both_databases
def test_steps_land_on_the_count_as_it_stands(table: Table, photo_draft: dict[str, Any]) -> None:
    up = _adjust(table, 1, "egg", 1)
    assert up.status_code == 200, up.text
    assert up.json()["tally"]["egg"] == 3 and up.json()["counts"] == {"egg": 3}
    assert up.json()["cards"] == photo_draft["cards"] + 1
    down = _adjust(table, 1, "egg", -2).json()
    assert down["tally"]["egg"] == 1 and down["version"] == photo_draft["version"] + 2
    # The boxes are untouched: only the count is set over them.
    assert [d["label"] for d in down["detections"]] == [
        d["label"] for d in photo_draft["detections"]
    ]

    events = table.client.get(f"{table.collection_url(1, 1)}/events").json()
    assert [e["kind"] for e in events] == ["upload", "adjust_count", "adjust_count"]
    assert events[1]["payload"] == {"category": "egg", "delta": 1, "from": 2, "to": 3}
    assert events[2]["payload"] == {"category": "egg", "delta": -2, "from": 3, "to": 1}

    undone = table.act(1, 1, "undo").json()
    assert undone["tally"]["egg"] == 3
    assert table.act(1, 1, "undo").json()["tally"]["egg"] == 2


def test_a_step_back_to_the_photos_count_follows_the_photo_again(
    table: Table, photo_draft: dict[str, Any]
) -> None:
    """+ then −: the count is the photo's again, not pinned there "by hand"; a relabel
    after it moves the count as it would have before."""
    _adjust(table, 1, "egg", 1)
    back = _adjust(table, 1, "egg", -1).json()
    assert back["tally"]["egg"] == 2 and back["counts"] == {}
    events = table.client.get(f"{table.collection_url(1, 1)}/events").json()
    assert events[-1]["payload"] == {
        "category": "egg", "delta": -1, "from": 3, "to": 2, "back_to_photo": True
    }  # fmt: skip
    egg = next(d for d in back["detections"] if d["label"] == "egg")
    relabelled = table.correct(
        1, 1, action="relabel", detection=egg["id"], label="salmon", version=back["version"]
    ).json()
    assert relabelled["tally"]["egg"] == 1 and relabelled["tally"]["salmon"] == 1
    # Undo brings the step's "by hand" count back.
    table.act(1, 1, "undo")
    assert table.act(1, 1, "undo").json()["counts"] == {"egg": 3}


def test_the_calculator_way_without_a_photo(table: Table) -> None:
    for _ in range(3):
        response = _adjust(table, 2, "pudding", 1)
        assert response.status_code == 200, response.text
    state = table.collection(1, 2)
    assert state["status"] == "draft" and state["tally"]["pudding"] == 3
    assert state["photo"] is None


def test_below_zero_and_over_the_deck_are_422_and_change_nothing(table: Table) -> None:
    response = _adjust(table, 1, "squid", -1)
    assert response.status_code == 422
    assert "squid is 0" in response.json()["detail"]
    assert response.json()["category"] == "squid"
    response = _adjust(table, 1, "squid", 30)  # the deck holds 5 squid nigiri
    assert response.status_code == 422 and "impossible" in response.json()["detail"]
    assert table.collection(1, 1)["version"] == 0


@pytest.mark.parametrize("delta", [0, "1", 1.0, True, 200, None])
def test_a_delta_must_be_a_nonzero_integer_step(table: Table, delta: Any) -> None:
    response = _adjust(table, 1, "egg", delta)
    assert response.status_code == 422, response.text
    assert "delta" in response.text
    assert table.collection(1, 1)["version"] == 0


def test_a_stale_step_is_409_and_an_adjustment_unconfirms(table: Table) -> None:
    table.set_counts(1, 3, {"sashimi": 3})
    table.confirm(1, 3)
    assert _adjust(table, 3, "sashimi", 1, version=1).status_code == 409
    response = _adjust(table, 3, "sashimi", 1)
    assert response.status_code == 200
    assert response.json()["status"] == "draft" and response.json()["tally"]["sashimi"] == 4


def test_adjust_count_is_documented(table: Table) -> None:
    schemas = table.client.get("/openapi.json").json()["components"]["schemas"]
    assert {"category", "delta", "version"} <= set(schemas["AdjustCount"]["properties"])
