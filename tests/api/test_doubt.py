"""A nigiri the classifier nearly read as another nigiri, or a maki as another roll count,
is pointed out to the reviewer (vision.reading.NIGIRI_DOUBT, MAKI_DOUBT), in a game's
review after the photo is stored and in POST /api/v1/detect; once a person has labelled
the box, the doubt is gone."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.api.conftest import FakeDetector, Table, boxes_for, make_photo

# Three players hold 9 cards: the hand is right, so only the doubt can warn.
HAND = ["tempura", "tempura", "sashimi", "sashimi", "dumpling", "pudding", "maki_2", "egg"]
WARNING = (
    "1 nigiri may be another kind: read as salmon nigiri, another kind 14% likely; "
    "check the dish in its top-left corner"
)


def _records() -> list[dict[str, Any]]:
    records = boxes_for([*HAND, "salmon"])
    records[-1]["doubt"] = 0.14
    records[-2]["doubt"] = 0.02  # the egg: sure enough
    return records


def test_a_doubted_nigiri_is_pointed_out_until_a_person_labels_it(
    table: Table, detector: FakeDetector
) -> None:
    records = _records()
    detector.register((900, 700), records)
    response = table.upload(1, 1, make_photo((900, 700), records))
    assert response.status_code == 201, response.text
    draft = response.json()
    assert draft["warnings"] == [WARNING] and draft["problems"] == []
    # Stored with the photo, read back from the database; not in the contract's records.
    assert table.collection(1, 1)["warnings"] == [WARNING]
    assert all("doubt" not in box for box in draft["detections"])
    # The box the warning points at, and only it, is marked for the review screen.
    assert [box["check"] for box in draft["detections"]] == [False] * len(HAND) + [True]
    salmon = draft["detections"][-1]["id"]
    relabel = table.correct(1, 1, action="relabel", detection=salmon, label="squid")
    assert relabel.status_code == 200, relabel.text
    assert not any(box["check"] for box in relabel.json()["detections"])
    assert relabel.json()["warnings"] == []
    assert relabel.json()["tally"]["squid"] == 1


def test_detect_points_out_a_doubted_nigiri(client: TestClient, detector: FakeDetector) -> None:
    records = _records()
    detector.register((900, 700), records)
    files = {"image": ("cards.jpg", make_photo((900, 700), records), "image/jpeg")}
    response = client.post("/api/v1/detect", files=files, data={"players": "3"})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["warnings"] == [WARNING]
    assert set(body["detections"][-1]) == {"label", "confidence", "box", "left_out"}


def test_a_maki_doubted_in_its_rolls_is_pointed_out_until_a_person_labels_it(
    table: Table, detector: FakeDetector
) -> None:
    records = boxes_for([*HAND, "salmon"])
    maki = HAND.index("maki_2")
    records[maki]["doubt"] = 0.3  # (reading.MAKI_DOUBT)
    detector.register((900, 700), records)
    response = table.upload(1, 1, make_photo((900, 700), records))
    assert response.status_code == 201, response.text
    warning = (
        "1 maki may show another number of rolls: read as maki of 2 rolls, "
        "another number 30% likely; "
        "count the small rolls in its top-left corner"
    )
    assert response.json()["warnings"] == [warning]
    assert table.collection(1, 1)["warnings"] == [warning]
    box = response.json()["detections"][maki]["id"]
    relabel = table.correct(1, 1, action="relabel", detection=box, label="maki_3")
    assert relabel.status_code == 200, relabel.text
    assert relabel.json()["warnings"] == []
    assert relabel.json()["tally"]["maki_3"] == 1
