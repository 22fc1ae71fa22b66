"""Nothing a player confirmed is lost without their say (issue 30): a new photo over a
confirmed or corrected reading is a 409 unless the upload says `replace=true`; the
reading replaced is kept, listed in `earlier`, and one restore brings it back exactly;
a hand that is not the hand size is confirmed with the count in words, and a record
names the player."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from api.corrections import confirmed_collections
from api.settings import Settings
from tests.api.conftest import FakeDetector, Table, boxes_for, make_photo

# Three players: a hand of 9.
NINE = ["tempura", "tempura", "sashimi", "sashimi", "sashimi", "maki_2", "salmon", "egg", "pudding"]
OTHER = ["dumpling"] * 5 + ["maki_3"] * 4
BEN = {"dumpling": 5, "maki_1": 4}
CY = {"tempura": 4, "maki_2": 5}


def _photo(detector: FakeDetector, width: int, labels: list[str]) -> bytes:
    """A photo the fake detector reads as `labels` (each test photo its own width)."""
    records = boxes_for(labels, width=width)
    detector.register((width, 700), records)
    return make_photo((width, 700), records)


def _upload(table: Table, seat: int, photo: bytes, **form: Any) -> dict[str, Any]:
    response = table.upload(1, seat, photo, **form)
    assert response.status_code == 201, response.text
    return dict(response.json())


def _ok(response: Any) -> dict[str, Any]:
    assert response.status_code == 200, response.text
    return dict(response.json())


def _restore(
    table: Table, seat: int, photo: int | None, headers: dict[str, str] | None = None, **body: Any
) -> Any:
    if "version" not in body:
        body["version"] = table.collection(1, seat)["version"]
    return table.client.post(
        f"{table.collection_url(1, seat)}/restore",
        json={"photo": photo, **body},
        headers=table.headers if headers is None else headers,
    )


def _reading(body: dict[str, Any]) -> dict[str, Any]:
    """What a restore must bring back: everything but the version and the list of
    earlier readings (which now holds the one the restore replaced)."""
    return {k: v for k, v in body.items() if k not in ("version", "earlier")}


def _stored_files(settings: Settings) -> list[Path]:
    return sorted(p for p in (settings.data_dir / "photos").rglob("*") if p.is_file())


def _bodies(table: Table, seat: int) -> tuple[bytes, ...]:
    base = table.collection_url(1, seat)
    paths = [base, f"{base}/photos", f"{base}/events", f"{table.url}/rounds/1", table.url]
    responses = [table.client.get(path) for path in paths]
    assert all(r.status_code == 200 for r in responses)
    return tuple(r.content for r in responses)


@pytest.mark.both_databases
def test_a_refused_replace_stores_nothing_and_changes_nothing(
    table: Table, detector: FakeDetector, settings: Settings
) -> None:
    _upload(table, 1, _photo(detector, 900, NINE))
    _ok(table.correct(1, 1, action="relabel", detection=7, label="squid"))
    confirmed = table.confirm(1, 1)
    assert confirmed["status"] == "confirmed" and confirmed["reviewed"] is True
    before, files = _bodies(table, 1), _stored_files(settings)

    for form in ({}, {"replace": "false"}):
        response = table.upload(1, 1, _photo(detector, 902, OTHER), **form)
        assert response.status_code == 409, response.text
        body = response.json()
        assert body["reason"] == "would_replace" and body["confirmed"] is True
        assert body["corrections"] == 1
        assert "Ana's cards for round 1 are confirmed and corrected" in body["detail"]
        assert "replace=true" in body["detail"]
    # The refusal comes before the photo is even looked at: a file that is not an image
    # is refused as a replace too, not as a bad image.
    assert table.upload(1, 1, b"not an image").status_code == 409

    assert _bodies(table, 1) == before  # byte for byte: collection, photos, events, round
    assert _stored_files(settings) == files


@pytest.mark.both_databases
def test_a_corrected_draft_is_refused_an_untouched_one_is_not(
    table: Table, detector: FakeDetector
) -> None:
    first = _upload(table, 2, _photo(detector, 900, NINE))
    assert first["reviewed"] is False
    # An untouched draft: nothing a person did is at stake; the photo is replaced, and
    # its reading still kept.
    second = _upload(table, 2, _photo(detector, 901, OTHER))
    assert [e["photo"] for e in second["earlier"]] == [first["photo"]["id"]]
    assert second["earlier"][0]["status"] == "draft"

    corrected = _ok(table.correct(1, 2, action="delete", detection=1))
    assert corrected["reviewed"] is True and corrected["status"] == "draft"
    refused = table.upload(1, 2, _photo(detector, 903, NINE))
    assert refused.status_code == 409
    assert refused.json()["confirmed"] is False and refused.json()["corrections"] == 1
    assert "corrected (1 correction)" in refused.json()["detail"]
    # An undone correction leaves nothing at stake; nor do counts set as they stand (a
    # null for a count never set had made an event, and the reading "reviewed").
    _ok(table.act(1, 2, "undo"))
    assert table.collection(1, 2)["reviewed"] is False
    version = table.collection(1, 2)["version"]
    unchanged = _ok(table.correct(1, 2, action="set_counts", counts={"egg": None}))
    assert unchanged["reviewed"] is False and unchanged["version"] == version
    assert table.upload(1, 2, _photo(detector, 904, NINE)).status_code == 201


@pytest.mark.both_databases
def test_replace_keeps_the_reading_and_restore_brings_it_back_exactly(
    table: Table, detector: FakeDetector
) -> None:
    first = _upload(table, 1, _photo(detector, 900, NINE))
    _ok(table.correct(1, 1, action="relabel", detection=7, label="salmon_on_wasabi"))
    _ok(table.correct(1, 1, action="delete", detection=9))
    _ok(table.correct(1, 1, action="add", box=[600, 500, 700, 650], label="chopsticks"))
    _ok(table.correct(1, 1, action="set_counts", counts={"pudding": 2}))
    _ok(table.act(1, 1, "undo"))  # the pudding count
    _ok(table.correct(1, 1, action="delete", detection=8))
    confirmed = table.confirm(1, 1)
    assert confirmed["status"] == "confirmed" and confirmed["can_undo"]
    assert confirmed["tally"]["salmon_on_wasabi"] == 1 and confirmed["tally"]["egg"] == 0

    replaced = _upload(table, 1, _photo(detector, 905, OTHER), replace="true")
    assert replaced["status"] == "draft" and replaced["confirmed_tally"] is None
    assert replaced["tally"]["dumpling"] == 5 and not replaced["can_undo"]
    (kept,) = replaced["earlier"]
    assert kept["photo"] == first["photo"]["id"] == confirmed["photo"]["id"]
    assert kept["image_url"] == first["photo"]["image_url"]
    assert kept["taken_at"] == first["photo"]["created_at"]
    image = table.client.get(kept["image_url"])
    assert image.status_code == 200 and image.content[:3] == b"\xff\xd8\xff"
    assert kept["status"] == "confirmed" and kept["corrections"] == 4
    assert kept["tally"] == confirmed["tally"] and kept["cards"] == confirmed["cards"]
    assert kept["confirmed_tally"] == confirmed["confirmed_tally"]
    assert kept["replaced_at"]
    # The new photo gets a correction of its own before the old one is brought back.
    second = _ok(table.correct(1, 1, action="relabel", detection=1, label="tempura"))

    restored = _ok(_restore(table, 1, first["photo"]["id"], author="Ana"))
    assert _reading(restored) == _reading(confirmed)  # boxes, counts, tally, confirmation
    assert restored["version"] == second["version"] + 1
    (now_kept,) = restored["earlier"]
    assert now_kept["photo"] == second["photo"]["id"]
    assert now_kept["status"] == "draft" and now_kept["corrections"] == 1
    assert now_kept["tally"] == second["tally"]
    assert table.collection(1, 1) == restored
    events = table.client.get(f"{table.collection_url(1, 1)}/events").json()
    assert events[-1]["kind"] == "restore" and events[-1]["author"] == "Ana"
    assert events[-1]["payload"] == {"photo": first["photo"]["id"], "state_at": 8}

    # And back again: the second photo's reading, its correction with it.
    again = _ok(_restore(table, 1, second["photo"]["id"]))
    assert _reading(again) == _reading(second)
    assert _reading(_ok(_restore(table, 1, first["photo"]["id"]))) == _reading(confirmed)

    # The restored corrections are live ones: undo takes back the last (delete of box 8).
    undone = _ok(table.act(1, 1, "undo"))
    assert undone["status"] == "draft" and undone["tally"]["egg"] == 1
    assert 8 in [d["id"] for d in undone["detections"]]
    table.confirm(1, 1)
    final = _ok(_restore(table, 1, second["photo"]["id"]))
    assert final["earlier"][0]["tally"]["egg"] == 1  # the reading left is kept as it was


@pytest.mark.both_databases
def test_a_restored_confirmation_records_and_exports(table: Table, detector: FakeDetector) -> None:
    first = _upload(table, 1, _photo(detector, 900, NINE))
    _ok(table.correct(1, 1, action="relabel", detection=7, label="squid"))
    confirmed = table.confirm(1, 1)
    _upload(table, 1, _photo(detector, 906, OTHER), replace="true")
    for seat, counts in ((2, BEN), (3, CY)):
        table.set_counts(1, seat, counts)
        table.confirm(1, seat)
    waiting = table.record(1)
    assert waiting.status_code == 409 and "Ana (draft)" in waiting.json()["detail"]

    _ok(_restore(table, 1, first["photo"]["id"]))
    recorded = _ok(table.record(1))
    assert recorded["record"]["tallies"][0] == confirmed["confirmed_tally"]

    with table.client.app.state.sessionmaker() as session:  # type: ignore[attr-defined]
        found = [c for c in confirmed_collections(session) if c.seat == 1]
    assert [c.photo.id if c.photo else None for c in found] == [first["photo"]["id"]]
    assert found[0].tally == confirmed["confirmed_tally"]


@pytest.mark.both_databases
def test_counts_entered_by_hand_are_kept_and_restored(table: Table, detector: FakeDetector) -> None:
    counted = table.set_counts(1, 3, {"tempura": 4, "dumpling": 5})
    confirmed = table.confirm(1, 3)
    refused = table.upload(1, 3, _photo(detector, 907, NINE))
    assert refused.status_code == 409 and refused.json()["reason"] == "would_replace"
    replaced = _upload(table, 3, _photo(detector, 907, NINE), replace="true")
    (kept,) = replaced["earlier"]
    assert kept["photo"] is None and kept["image_url"] is None
    assert kept["status"] == "confirmed"
    assert kept["tally"] == counted["tally"]
    restored = _ok(_restore(table, 3, None))
    assert _reading(restored) == _reading(confirmed)
    assert restored["earlier"][0]["photo"] == replaced["photo"]["id"]


@pytest.mark.both_databases
def test_restore_of_an_unknown_photo_is_404_and_changes_nothing(
    table: Table, detector: FakeDetector
) -> None:
    first = _upload(table, 1, _photo(detector, 900, NINE))
    other_seat = _upload(table, 2, _photo(detector, 901, NINE))
    current = _upload(table, 1, _photo(detector, 902, OTHER))
    before = _bodies(table, 1)

    for photo in (first["photo"]["id"] + 1000, other_seat["photo"]["id"]):
        response = _restore(table, 1, photo)
        assert response.status_code == 404, response.text
        detail = response.json()["detail"]
        assert f"no earlier photo {photo}" in detail
        assert f"earlier: photo {first['photo']['id']}" in detail
    missing = _restore(table, 1, None)  # no counts were entered before the photo
    assert missing.status_code == 404 and "no counts" in missing.json()["detail"]
    assert _restore(table, 1, current["photo"]["id"]).status_code == 409
    stale = _restore(table, 1, first["photo"]["id"], version=0)
    assert stale.status_code == 409 and stale.json()["current_version"] == 2
    assert _restore(table, 1, first["photo"]["id"], headers={}).status_code == 401
    assert _restore(table, 1, 0).status_code == 422
    assert _bodies(table, 1) == before
    assert _restore(table, 2, first["photo"]["id"]).status_code == 404


def test_the_contract_documents_replace_and_restore(client: Any) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    base = "/api/v1/games/{game_id}/rounds/{number}/players/{seat}"
    upload = paths[f"{base}/photos"]["post"]["requestBody"]["content"]["multipart/form-data"]
    assert "replace" in upload["schema"]["properties"]
    assert set(paths[f"{base}/restore"]["post"]["responses"]) >= {"200", "404", "409"}


@pytest.mark.both_databases
def test_a_short_hand_is_confirmed_with_the_count_in_words(
    table: Table, detector: FakeDetector
) -> None:
    draft = _upload(table, 1, _photo(detector, 900, NINE[:7]))
    assert draft["hand_note"] == "7 of 9 cards found"
    confirmed = table.confirm(1, 1)
    assert confirmed["status"] == "confirmed" and confirmed["hand_note"] == "7 of 9 cards found"

    full = table.set_counts(1, 2, BEN)
    assert full["cards"] == 9 and full["hand_note"] is None
    over = table.set_counts(1, 3, {**CY, "maki_2": 6})
    assert over["hand_note"] == "10 cards found, 9 expected"
    table.set_counts(1, 3, CY)
    table.confirm(1, 2)
    table.confirm(1, 3)

    recorded = _ok(table.record(1))
    notes = {c["player"]: c["hand_note"] for c in recorded["collections"]}
    assert notes == {"Ana": "7 of 9 cards found", "Ben": None, "Cy": None}
    (short,) = [p for p in recorded["record"]["problems"] if p["code"] == "too_few_cards"]
    assert short["player"] == "Ana" and "Ana has 7 cards" in short["message"]


def test_every_reviewed_reading_is_listed_and_the_last_three_others(
    table: Table, detector: FakeDetector
) -> None:
    reviewed = _upload(table, 1, _photo(detector, 900, NINE))
    table.confirm(1, 1)
    ids = [reviewed["photo"]["id"]]
    for width in range(910, 915):  # five photos nobody corrected, each replacing the last
        ids.append(_upload(table, 1, _photo(detector, width, OTHER), replace="true")["photo"]["id"])
    listed = table.collection(1, 1)["earlier"]
    assert [e["photo"] for e in listed] == [ids[4], ids[3], ids[2], ids[0]]
    # One not listed is still kept: GET .../photos has it, and a restore takes it.
    restored = _ok(_restore(table, 1, ids[1]))
    assert restored["photo"]["id"] == ids[1] and restored["tally"]["dumpling"] == 5
