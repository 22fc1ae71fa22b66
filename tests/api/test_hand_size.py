"""The player count settles a doubtful stack in the detector's reading (vision.reading.
settle_hand_size): in a game's upload and in POST /api/v1/detect with `players`; never
over a reviewer's own stack."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.api.conftest import FakeDetector, Table, boxes_for, make_photo

# Three players hold 9 cards. Eight cards and a stack box no wasabi box lies under make
# 10 (the stack counts 2): one too many.
ONE_TOO_MANY = [
    "tempura", "tempura", "sashimi", "sashimi", "dumpling", "pudding", "maki_2",
    "egg", "squid_on_wasabi",
]  # fmt: skip
NOTE = (
    "one squid nigiri read as plain, not on a wasabi: no wasabi shows under it and the hand had "
    "one card too many"
)


def _upload(table: Table, detector: FakeDetector) -> dict[str, Any]:
    records = boxes_for(ONE_TOO_MANY)
    detector.register((900, 700), records)
    response = table.upload(1, 1, make_photo((900, 700), records))
    assert response.status_code == 201, response.text
    return response.json()


def test_an_upload_with_one_card_too_many_reads_the_lone_stack_as_plain(
    table: Table, detector: FakeDetector
) -> None:
    draft = _upload(table, detector)
    assert draft["tally"]["squid"] == 1 and draft["tally"]["squid_on_wasabi"] == 0
    assert draft["cards"] == 9 and draft["problems"] == []
    assert NOTE in draft["warnings"]
    squid = draft["detections"][-1]
    assert squid["label"] == "squid"
    # The note stays with the photo's review, read back from the database.
    assert NOTE in table.collection(1, 1)["warnings"]


def test_a_reviewers_stack_stands_against_the_hand_size(
    table: Table, detector: FakeDetector
) -> None:
    draft = _upload(table, detector)
    squid = draft["detections"][-1]["id"]
    relabel = table.correct(1, 1, action="relabel", detection=squid, label="squid_on_wasabi")
    assert relabel.status_code == 200, relabel.text
    draft = relabel.json()
    assert draft["tally"]["squid_on_wasabi"] == 1 and draft["cards"] == 10
    assert draft["problems"][0]["code"] == "too_many_cards"


def test_detect_settles_only_when_given_the_player_count(
    client: TestClient, detector: FakeDetector
) -> None:
    records = boxes_for(ONE_TOO_MANY)
    detector.register((900, 700), records)
    photo = make_photo((900, 700), records)

    def detect(**form: str) -> dict[str, Any]:
        files = {"image": ("cards.jpg", photo, "image/jpeg")}
        response = client.post("/api/v1/detect", files=files, data=form)
        assert response.status_code == 200, response.text
        return response.json()

    settled = detect(players="3")
    assert settled["tally"]["squid"] == 1 and settled["cards"] == 9
    assert settled["warnings"] == [NOTE]
    assert settled["detections"][-1]["label"] == "squid"
    unknown = detect()
    assert unknown["tally"]["squid_on_wasabi"] == 1 and unknown["cards"] == 10
    assert unknown["warnings"] == []
