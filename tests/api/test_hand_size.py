"""The player count settles a doubtful stack in the detector's reading (vision.reading.
settle_hand_size): in a game's upload and in POST /api/v1/detect with `players`; never
over a reviewer's own stack."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.conftest import FakeDetector, Table, boxes_for, make_photo, texts_drawn

# Three players hold 9 cards. Eight cards and a stack box no wasabi box lies under, on the
# stack check's word (0.96) alone, make 10 as a stack (it counts 2): one too many.
ONE_TOO_MANY = [
    "tempura", "tempura", "sashimi", "sashimi", "dumpling", "pudding", "maki_2",
    "egg", "squid_on_wasabi",
]  # fmt: skip
# Eight cards, the egg one the check called on a wasabi (0.97): one too few for 9.
ONE_TOO_FEW = [*ONE_TOO_MANY[:-2], "egg"]
ON_WASABI = (
    "one egg nigiri read as lying on a wasabi, to make up the hand's count: check that "
    "a wasabi is under it"
)
UNSURE = (
    "one squid nigiri read as plain, though it may lie on a wasabi whose top was not found: "
    "check whether a wasabi shows above it"
)


def _records(labels: list[str], under: float) -> list[dict[str, Any]]:
    """Grid boxes of `labels`, the last one asked of the stack check at `under`."""
    records = boxes_for(labels)
    records[-1]["wasabi_under"] = under
    return records


def _upload(table: Table, detector: FakeDetector, records: list[dict[str, Any]]) -> dict[str, Any]:
    detector.register((900, 700), records)
    response = table.upload(1, 1, make_photo((900, 700), records))
    assert response.status_code == 201, response.text
    return response.json()


def test_an_upload_reads_a_stack_on_the_checks_word_alone_as_plain_where_the_hand_vouches(
    table: Table, detector: FakeDetector
) -> None:
    draft = _upload(table, detector, _records(ONE_TOO_MANY, 0.96))
    assert draft["tally"]["squid"] == 1 and draft["tally"]["squid_on_wasabi"] == 0
    assert draft["cards"] == 9 and draft["problems"] == []
    assert draft["warnings"] == [] and draft["hand_supposed"] is False
    assert draft["detections"][-1]["label"] == "squid"


def test_an_upload_one_card_short_reads_the_leaning_nigiri_on_a_wasabi_and_keeps_the_note(
    table: Table, detector: FakeDetector
) -> None:
    draft = _upload(table, detector, _records(ONE_TOO_FEW, 0.97))
    assert draft["tally"]["egg_on_wasabi"] == 1 and draft["cards"] == 9
    assert ON_WASABI in draft["warnings"]
    assert draft["detections"][-1]["label"] == "egg_on_wasabi"
    # The hand's count holds only on that supposed stack: said, for the page's hand check.
    assert draft["problems"] == [] and draft["hand_supposed"] is True
    # The note stays with the photo's review, read back from the database, and marks the
    # box it means; once a person has changed that box, it has been seen to and goes.
    stored = table.collection(1, 1)
    assert ON_WASABI in stored["warnings"]
    egg = stored["detections"][-1]
    assert egg["check"] and [box["check"] for box in stored["detections"]].count(True) == 1
    assert stored["hand_supposed"] is True
    # Which box is supposed, for the page to name it: only the egg.
    assert [box["supposed"] for box in stored["detections"]] == [False] * 7 + [True]
    plain = table.correct(1, 1, action="relabel", detection=egg["id"], label="egg").json()
    assert ON_WASABI not in plain["warnings"] and not plain["detections"][-1]["check"]
    assert plain["hand_supposed"] is False and not plain["detections"][-1]["supposed"]
    undone = table.act(1, 1, "undo").json()
    assert ON_WASABI in undone["warnings"] and undone["detections"][-1]["check"]
    assert undone["hand_supposed"] is True
    # A stack the player chose stands as theirs: no longer supposed.
    taken = table.correct(1, 1, action="relabel", detection=egg["id"], label="egg_on_wasabi")
    assert taken.json()["cards"] == 9 and taken.json()["hand_supposed"] is False


def test_a_reviewers_stack_stands_against_the_hand_size(
    table: Table, detector: FakeDetector
) -> None:
    draft = _upload(table, detector, _records(ONE_TOO_MANY, 0.96))
    squid = draft["detections"][-1]["id"]
    relabel = table.correct(1, 1, action="relabel", detection=squid, label="squid_on_wasabi")
    assert relabel.status_code == 200, relabel.text
    draft = relabel.json()
    assert draft["tally"]["squid_on_wasabi"] == 1 and draft["cards"] == 10
    assert draft["problems"][0]["code"] == "too_many_cards"


def test_detect_settles_with_the_player_count_and_points_out_what_it_could_not(
    client: TestClient, detector: FakeDetector
) -> None:
    records = _records(ONE_TOO_MANY, 0.96)
    detector.register((900, 700), records)
    photo = make_photo((900, 700), records)

    def detect(**form: str) -> dict[str, Any]:
        files = {"image": ("cards.jpg", photo, "image/jpeg")}
        response = client.post("/api/v1/detect", files=files, data=form)
        assert response.status_code == 200, response.text
        return response.json()

    settled = detect(players="3")
    assert settled["tally"]["squid"] == 1 and settled["cards"] == 9
    assert settled["warnings"] == []
    assert settled["detections"][-1]["label"] == "squid"
    unknown = detect()
    assert unknown["tally"]["squid"] == 1 and unknown["cards"] == 9
    assert unknown["warnings"] == [UNSURE]


def test_the_annotated_photo_says_and_marks_what_the_hand_size_read(
    table: Table, detector: FakeDetector, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The JPEG a game serves draws what its review shows: the warning kept with the photo
    (a reading of the boxes alone cannot give it) and a "?" on the stack it names."""
    _upload(table, detector, _records(ONE_TOO_FEW, 0.97))
    drawn = texts_drawn(monkeypatch)
    response = table.client.get(f"{table.collection_url(1, 1)}/annotated.jpg")
    assert response.status_code == 200
    words = " ".join(text.strip() for text in drawn)
    assert "! one egg nigiri read as lying on a wasabi" in words, drawn
    assert [text for text in drawn if text.endswith(" ?")] == ["Egg on wasabi 90% ?"], drawn
