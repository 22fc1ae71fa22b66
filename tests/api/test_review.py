"""A collection's review: upload, detections as a draft, corrections of each kind kept as
events over the untouched original detections, undo, audit, confirm, versions."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest

from api import annotated
from api.deps import get_detector
from api.settings import Settings
from tests.api.conftest import FakeDetector, Table, boxes_for, make_photo

NINE = ["tempura", "tempura", "sashimi", "sashimi", "sashimi", "maki_2", "salmon", "egg", "pudding"]


@pytest.fixture
def uploaded(table: Table, detector: FakeDetector) -> dict[str, Any]:
    records = boxes_for(NINE)
    detector.register((900, 700), records)
    response = table.upload(1, 1, make_photo((900, 700), records), author="Ana's phone")
    assert response.status_code == 201, response.text
    return response.json()


@pytest.mark.both_databases
def test_upload_makes_a_draft_from_the_detections(
    table: Table, uploaded: dict[str, Any], settings: Settings
) -> None:
    draft = uploaded
    assert draft["status"] == "draft" and draft["version"] == 1
    assert draft["tally"]["tempura"] == 2 and draft["tally"]["sashimi"] == 3
    assert draft["cards"] == 9 and draft["hand_size"] == 9
    assert draft["problems"] == []
    assert [d["id"] for d in draft["detections"]] == list(range(1, 10))
    assert all(d["source"] == "detector" for d in draft["detections"])
    photo = draft["photo"]
    assert photo["width"] == 900 and photo["height"] == 700
    assert photo["media_type"] == "image/jpeg" and photo["author"] == "Ana's phone"
    assert len(photo["detections"]) == 9
    # Stored by content hash, never under the client's name.
    stored = list((settings.data_dir / "photos").rglob("*"))
    assert any(p.name == photo["sha256"] for p in stored)
    assert not any("photo.jpg" in p.name for p in stored)


def test_a_missed_card_shows_as_a_hand_size_warning(table: Table, detector: FakeDetector) -> None:
    records = boxes_for(NINE[:7])
    detector.register((901, 700), records)
    draft = table.upload(1, 2, make_photo((901, 700), records)).json()
    assert draft["cards"] == 7
    (problem,) = draft["problems"]
    assert problem["severity"] == "warning" and problem["code"] == "too_few_cards"
    assert problem["seat"] == 2 and problem["player"] == "Ben" and problem["round"] == 1


def test_a_kind_beyond_the_deck_is_said_once_with_the_players_name(
    table: Table, detector: FakeDetector
) -> None:
    """Six squid (the deck holds five): one problem naming the player, no second wording
    of it among the photo's warnings."""
    records = boxes_for(["squid"] * 6 + ["tempura"] * 3)
    detector.register((903, 700), records)
    draft = table.upload(1, 2, make_photo((903, 700), records)).json()
    deck = [p for p in draft["problems"] if p["code"] == "deck_limit"]
    assert [p["message"] for p in deck] == [
        "round 1: Ben's collection holds 6 squid nigiri (plain and on wasabi), the deck has only 5"
    ]
    assert not [w for w in draft["warnings"] if "squid" in w and "deck" in w]


@pytest.mark.both_databases
def test_corrections_of_each_kind_and_undo(table: Table, uploaded: dict[str, Any]) -> None:
    relabel = table.correct(1, 1, action="relabel", detection=7, label="salmon_on_wasabi")
    assert relabel.status_code == 200, relabel.text
    draft = relabel.json()
    box = next(d for d in draft["detections"] if d["id"] == 7)
    assert box["label"] == "salmon_on_wasabi" and box["detected_label"] == "salmon"
    assert draft["tally"]["salmon"] == 0 and draft["tally"]["salmon_on_wasabi"] == 1
    assert draft["cards"] == 10  # a stack counts two: over the hand size now
    assert draft["problems"][0]["code"] == "too_many_cards"

    draft = table.correct(1, 1, action="delete", detection=8).json()
    assert 8 not in [d["id"] for d in draft["detections"]]
    assert draft["tally"]["egg"] == 0 and draft["cards"] == 9

    draft = table.correct(1, 1, action="add", box=[600, 500, 700, 650], label="chopsticks").json()
    added = draft["detections"][-1]
    assert added["id"] == 10 and added["source"] == "reviewer" and added["label"] == "chopsticks"
    assert draft["tally"]["chopsticks"] == 1

    draft = table.correct(1, 1, action="set_counts", counts={"pudding": 2}).json()
    assert draft["counts"] == {"pudding": 2} and draft["tally"]["pudding"] == 2
    assert draft["detected_tally"]["pudding"] == 1
    assert draft["version"] == 5 and draft["can_undo"]

    # Undo walks back: the count, then the added box.
    draft = table.act(1, 1, "undo").json()
    assert draft["counts"] == {} and draft["tally"]["pudding"] == 1
    draft = table.act(1, 1, "undo").json()
    assert 10 not in [d["id"] for d in draft["detections"]]
    # A new box never reuses an id, even one whose add was undone.
    draft = table.correct(1, 1, action="add", box=[600, 500, 700, 650], label="wasabi").json()
    assert draft["detections"][-1]["id"] == 11

    # The original detections are untouched.
    photo = table.client.get(f"{table.url}/photos/{uploaded['photo']['id']}").json()
    assert [d["label"] for d in photo["detections"]] == NINE

    events = table.client.get(f"{table.collection_url(1, 1)}/events").json()
    kinds = [e["kind"] for e in events]
    assert kinds == ["upload", "relabel", "delete", "add", "set_counts", "undo", "undo", "add"]
    assert [e["undone"] for e in events] == [False, False, False, True, True, False, False, False]
    assert events[0]["author"] == "Ana's phone"
    assert events[1]["payload"] == {
        "detection": 7,
        "label": "salmon_on_wasabi",
        "previous": "salmon",
    }
    assert all(e["created_at"] for e in events)


@pytest.mark.both_databases
def test_counts_without_a_photo_the_calculator_way(table: Table) -> None:
    draft = table.set_counts(1, 3, {"tempura": 4, "dumpling": 5})
    assert draft["status"] == "draft" and draft["photo"] is None and draft["detections"] == []
    assert draft["tally"]["tempura"] == 4 and draft["cards"] == 9
    draft = table.set_counts(1, 3, {"dumpling": None, "sashimi": 5})  # null clears a count
    assert draft["counts"] == {"tempura": 4, "sashimi": 5}
    assert table.correct(1, 3, action="add", box=[0, 0, 5, 5], label="egg").status_code == 409


@pytest.mark.both_databases
def test_confirm_freezes_and_a_correction_unconfirms(
    table: Table, uploaded: dict[str, Any]
) -> None:
    confirmed = table.confirm(1, 1)
    assert confirmed["status"] == "confirmed"
    assert confirmed["confirmed_tally"] == confirmed["tally"]
    again = table.confirm(1, 1)  # confirming twice changes nothing
    assert again["version"] == confirmed["version"]
    draft = table.correct(1, 1, action="delete", detection=1).json()
    assert draft["status"] == "draft" and draft["confirmed_tally"] is None


@pytest.mark.both_databases
def test_undoing_the_correction_that_unconfirmed_gives_the_confirmation_back(
    table: Table, uploaded: dict[str, Any]
) -> None:
    """Undo takes the tally back to what was confirmed: it is confirmed again (it had
    stayed a draft, and the round could not be recorded until confirmed anew). Undoing a
    correction the confirmation holds leaves a draft."""
    table.correct(1, 1, action="delete", detection=2)
    confirmed = table.confirm(1, 1)
    table.correct(1, 1, action="delete", detection=1)
    table.correct(1, 1, action="set_counts", counts={"pudding": 3})
    draft = table.act(1, 1, "undo").json()
    assert draft["status"] == "draft"  # the delete of box 1 still stands
    back = table.act(1, 1, "undo").json()
    assert back["status"] == "confirmed" and back["can_undo"]
    assert back["confirmed_tally"] == back["tally"] == confirmed["confirmed_tally"]
    # The delete of box 2 was confirmed: undoing it changes the confirmed tally.
    draft = table.act(1, 1, "undo").json()
    assert draft["status"] == "draft" and draft["confirmed_tally"] is None
    assert draft["tally"] != confirmed["confirmed_tally"]


def test_confirm_needs_something_entered(table: Table) -> None:
    response = table.act(1, 2, "confirm")
    assert response.status_code == 409
    assert table.act(1, 2, "undo").status_code == 409


@pytest.mark.both_databases
def test_reupload_replaces_the_draft_and_keeps_the_old_photo(
    table: Table, uploaded: dict[str, Any], detector: FakeDetector
) -> None:
    table.correct(1, 1, action="delete", detection=1)
    records = boxes_for(["dumpling"] * 5 + ["maki_3"] * 4)
    detector.register((902, 700), records)
    # A corrected draft is replaced only when the upload says so (tests/api/
    # test_replace_photo.py has the rest).
    assert table.upload(1, 1, make_photo((902, 700), records)).status_code == 409
    response = table.upload(1, 1, make_photo((902, 700), records), replace="true")
    assert response.status_code == 201
    draft = response.json()
    assert draft["tally"]["dumpling"] == 5 and draft["tally"]["tempura"] == 0
    assert len(draft["detections"]) == 9 and not draft["can_undo"]
    photos = table.client.get(f"{table.collection_url(1, 1)}/photos").json()
    assert [p["id"] for p in photos] == [uploaded["photo"]["id"], draft["photo"]["id"]]
    old = table.client.get(photos[0]["image_url"])
    assert old.status_code == 200 and old.headers["content-type"] == "image/jpeg"
    assert old.content[:3] == b"\xff\xd8\xff"


def test_annotated_images_are_jpegs(table: Table, uploaded: dict[str, Any]) -> None:
    current = table.client.get(uploaded["annotated_url"])
    assert current.status_code == 200 and current.headers["content-type"] == "image/jpeg"
    image = cv2.imdecode(np.frombuffer(current.content, np.uint8), cv2.IMREAD_COLOR)
    assert image is not None and image.shape[0] > 0
    original = table.client.get(uploaded["photo"]["annotated_url"])
    assert original.status_code == 200 and original.content[:3] == b"\xff\xd8\xff"
    table.correct(1, 1, action="delete", detection=1)
    changed = table.client.get(uploaded["annotated_url"])
    assert changed.status_code == 200
    assert table.client.get(f"{table.collection_url(1, 2)}/annotated.jpg").status_code == 404


def test_a_new_drawing_draws_cached_photos_again(
    table: Table, uploaded: dict[str, Any], settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cache of drawn photos keys on the drawing's version: after a change to the
    drawing (colours, tags), a photo drawn before is drawn anew, not served as it was."""
    drawn = settings.data_dir / "annotated"
    first = table.client.get(uploaded["annotated_url"])
    assert table.client.get(uploaded["annotated_url"]).content == first.content
    files = set(drawn.rglob("*.jpg"))
    monkeypatch.setattr(annotated, "DRAWING", annotated.DRAWING + 1)
    assert table.client.get(uploaded["annotated_url"]).status_code == 200
    assert len(set(drawn.rglob("*.jpg")) - files) == 1


@pytest.mark.parametrize(
    ("body", "status", "named"),
    [
        ({"action": "relabel", "detection": 99, "label": "egg"}, 422, "no detection 99"),
        ({"action": "delete", "detection": 99}, 422, "no detection 99"),
        ({"action": "relabel", "detection": 1, "label": "sushi"}, 422, "label"),
        ({"action": "add", "box": [0, 0, 5000, 10], "label": "egg"}, 422, "not inside"),
        ({"action": "add", "box": [50, 50, 10, 10], "label": "egg"}, 422, "x1 < x2"),
        ({"action": "add", "box": [1, 2, 3], "label": "egg"}, 422, "box"),
        ({"action": "set_counts", "counts": {"egg": -1}}, 422, "egg"),
        ({"action": "set_counts", "counts": {"egg": 6}}, 422, "deck has only 5"),
        ({"action": "set_counts", "counts": {"egg": 1.5}}, 422, "egg"),
        ({"action": "set_counts", "counts": {"eggs": 1}}, 422, "eggs"),
        ({"action": "set_counts", "counts": {}}, 422, "at least one"),
        ({"action": "paint", "detection": 1}, 422, "action"),
    ],
)
def test_bad_corrections_are_refused_and_change_nothing(
    table: Table, uploaded: dict[str, Any], body: dict[str, Any], status: int, named: str
) -> None:
    response = table.correct(1, 1, **body)
    assert response.status_code == status, response.text
    assert named in response.text
    assert table.collection(1, 1)["version"] == 1


@pytest.mark.both_databases
def test_stale_version_is_409_and_loses_nothing(table: Table, uploaded: dict[str, Any]) -> None:
    first = table.correct(1, 1, action="delete", detection=1, version=1)
    assert first.status_code == 200
    second = table.correct(1, 1, action="delete", detection=2, version=1)
    assert second.status_code == 409
    assert second.json()["current_version"] == 2
    state = table.collection(1, 1)
    ids = [d["id"] for d in state["detections"]]
    assert 1 not in ids and 2 in ids and state["version"] == 2
    photo = make_photo((900, 700))
    assert table.upload(1, 1, photo, version=1).status_code == 409
    assert table.act(1, 1, "confirm", version=1).status_code == 409
    assert len(table.client.get(f"{table.collection_url(1, 1)}/photos").json()) == 1


@pytest.mark.both_databases
def test_round_view_lists_each_players_state(table: Table, uploaded: dict[str, Any]) -> None:
    table.set_counts(1, 2, {"tempura": 9})
    view = table.round(1)
    assert view["status"] == "open" and view["accepts_entries"]
    assert [c["status"] for c in view["collections"]] == ["draft", "draft", "empty"]
    assert view["collections"][0]["photo_id"] == uploaded["photo"]["id"]
    assert view["record"] is None and view["version"] == 2


@pytest.mark.both_databases
def test_a_change_during_detection_makes_the_upload_409_and_stores_nothing(
    table: Table, detector: FakeDetector, settings: Settings
) -> None:
    # Another device corrects the draft while this photo is being detected.
    table.set_counts(1, 1, {"tempura": 2})
    version = table.collection(1, 1)["version"]
    inner = detector.__call__

    def busy_detector(image: Any) -> Any:
        table.set_counts(1, 1, {"sashimi": 3})
        return inner(image)

    table.client.app.dependency_overrides[get_detector] = lambda: busy_detector  # type: ignore[attr-defined]
    response = table.upload(1, 1, make_photo((905, 700)), version=version, replace="true")
    assert response.status_code == 409, response.text
    state = table.collection(1, 1)
    assert state["photo"] is None and state["counts"] == {"tempura": 2, "sashimi": 3}
    assert not [p for p in (settings.data_dir / "photos").rglob("*") if p.is_file()]


@pytest.mark.both_databases
def test_a_round_recorded_during_detection_takes_no_upload(
    table: Table, detector: FakeDetector
) -> None:
    for seat in (1, 2, 3):
        table.set_counts(1, seat, {"tempura": 9})
        table.confirm(1, seat)
    version = table.collection(1, 1)["version"]

    def recording_detector(image: Any) -> Any:
        # Once: finding nothing, the pipeline also tries the photo turned (three calls).
        if not detector.calls:
            assert table.record(1, accept_problems=True).status_code == 200
        return detector(image)

    table.client.app.dependency_overrides[get_detector] = lambda: recording_detector  # type: ignore[attr-defined]
    response = table.upload(1, 1, make_photo((906, 700)), version=version, replace="true")
    assert response.status_code == 409, response.text
    assert "recorded" in response.json()["detail"]
    assert table.collection(1, 1)["status"] == "confirmed"
    assert table.round(1)["record"]["tallies"][0]["tempura"] == 9
