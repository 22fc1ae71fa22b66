"""Cards left out as another player's (vision.pipeline: a hand over its size read without
the cards lying apart): a game's review keeps their boxes, not counted, and a person
counts one by labelling it."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.api.conftest import (
    LEFT_OUT_TWO,
    NEIGHBOUR_PHOTO,
    WITH_NEIGHBOURS,
    FakeDetector,
    Table,
    make_photo,
    texts_drawn,
)


def test_the_cards_left_out_are_shown_not_counted_and_counted_once_labelled(
    client: TestClient, detector: FakeDetector
) -> None:
    table = Table(client, {"players": ["Ana", "Ben"]})
    detector.register(NEIGHBOUR_PHOTO, WITH_NEIGHBOURS)
    response = table.upload(1, 1, make_photo(NEIGHBOUR_PHOTO, WITH_NEIGHBOURS))
    assert response.status_code == 201, response.text
    draft = response.json()
    assert draft["cards"] == 10 and draft["tally"]["tempura"] == 0
    assert draft["warnings"] == [LEFT_OUT_TWO]
    left_out = [d for d in draft["detections"] if d["left_out"]]
    assert [d["box"][:2] for d in left_out] == [[0, 200], [0, 330]]
    # Shown by the warning, not marked "?": leaving them out is what it did, and asks
    # nothing of a player whose neighbour's cards they are.
    assert all(
        not d["counted"] and not d["check"] and d["asks"] == [LEFT_OUT_TWO] for d in left_out
    )
    assert all(d["counted"] for d in draft["detections"] if not d["left_out"])
    # The photo's record (the detector's boxes) flags them too.
    record = client.get(draft["photo"]["image_url"].removesuffix("/image"))
    assert record.status_code == 200, record.text
    assert [d["left_out"] for d in record.json()["detections"]] == [False] * 10 + [True] * 2

    # Ana says the first is hers after all: labelled as what it is, it counts.
    counted = table.correct(1, 1, action="relabel", detection=left_out[0]["id"], label="tempura")
    assert counted.status_code == 200, counted.text
    after = counted.json()
    assert after["cards"] == 11 and after["tally"]["tempura"] == 1
    boxes = {d["id"]: d for d in after["detections"]}
    assert boxes[left_out[0]["id"]]["counted"] and not boxes[left_out[0]["id"]]["left_out"]
    assert not boxes[left_out[1]["id"]]["counted"] and boxes[left_out[1]["id"]]["left_out"]
    assert after["warnings"] == [LEFT_OUT_TWO]  # the other is still asked about
    assert [p["code"] for p in after["problems"]] == ["too_many_cards"]

    # Undone, the card is left out again, as the reading left it.
    undone = table.act(1, 1, "undo")
    assert undone.status_code == 200, undone.text
    back = undone.json()
    assert back["cards"] == 10 and back["warnings"] == [LEFT_OUT_TWO]
    assert [d["id"] for d in back["detections"] if d["left_out"]] == [d["id"] for d in left_out]


def test_the_drawn_photo_shows_the_cards_left_out(
    client: TestClient, detector: FakeDetector, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reviewed photo as drawn (annotated.jpg) shows the two cards its warning says
    were left out, each tagged so; the detector's photo (the photo's own) too."""
    table = Table(client, {"players": ["Ana", "Ben"]})
    detector.register(NEIGHBOUR_PHOTO, WITH_NEIGHBOURS)
    draft = table.upload(1, 1, make_photo(NEIGHBOUR_PHOTO, WITH_NEIGHBOURS)).json()
    for url in (f"{table.collection_url(1, 1)}/annotated.jpg", draft["photo"]["annotated_url"]):
        drawn = texts_drawn(monkeypatch)
        response = client.get(url)
        assert response.status_code == 200, response.text
        assert drawn.count("Tempura, left out") == 2
        assert "Sashimi: 6" in drawn and not [t for t in drawn if t.startswith("Tempura:")]


def test_a_person_leaves_out_another_players_cards_a_stack_whole(
    client: TestClient, detector: FakeDetector
) -> None:
    """The reading counted the next player's cards (a card of Ana's missed, the hand adds
    up with theirs): a person leaves them out, a stack's two boxes with one correction;
    they stay on the photo, not counted; leaving one out again is refused by name;
    undone, it counts."""
    table = Table(client, {"players": ["Ana", "Ben"]})
    records = [
        *WITH_NEIGHBOURS[:7],
        {"label": "wasabi", "confidence": 0.9, "box": [0, 200, 80, 240]},
        {"label": "salmon", "confidence": 0.9, "box": [0, 236, 80, 354]},
        {"label": "tempura", "confidence": 0.9, "box": [0, 400, 80, 518]},
    ]
    detector.register(NEIGHBOUR_PHOTO, records)
    draft = table.upload(1, 1, make_photo(NEIGHBOUR_PHOTO, records)).json()
    assert draft["cards"] == 10 and draft["tally"]["salmon_on_wasabi"] == 1
    salmon = draft["detections"][8]
    assert salmon["label"] == "salmon" and salmon["stack_with"] == 8

    left = table.correct(1, 1, action="leave_out", detection=salmon["id"])
    assert left.status_code == 200, left.text
    after = left.json()
    assert after["cards"] == 8 and after["tally"]["salmon_on_wasabi"] == 0
    assert [d["id"] for d in after["detections"] if d["left_out"]] == [8, 9]
    assert not any(d["counted"] for d in after["detections"] if d["left_out"])
    assert table.correct(1, 1, action="leave_out", detection=10).json()["cards"] == 7

    again = table.correct(1, 1, action="leave_out", detection=8)
    assert again.status_code == 422
    assert "detection 8 is already left out as another player's card" in again.text

    assert table.act(1, 1, "undo").json()["cards"] == 8  # the tempura counts again


def test_a_stack_box_left_out_is_its_nigiri_with_its_strip_beside(
    client: TestClient, detector: FakeDetector
) -> None:
    """A box labelled as a whole stack (its wasabi strip absorbed), left out: both boxes
    go, the stack's as its plain nigiri, so that counting it again counts one card and
    the learning loop writes two cards, not a stack with no strip."""
    table = Table(client, {"players": ["Ana", "Ben", "Cy"]})
    records = [
        {"label": "wasabi", "confidence": 0.9, "box": [400, 100, 560, 150]},
        {"label": "squid_on_wasabi", "confidence": 0.9, "box": [400, 150, 560, 387]},
        {"label": "tempura", "confidence": 0.9, "box": [100, 420, 260, 580]},
    ]
    detector.register((800, 600), records)
    draft = table.upload(1, 1, make_photo((800, 600), records)).json()
    assert draft["tally"]["squid_on_wasabi"] == 1 and draft["detections"][1]["stack_with"] == 1
    after = table.correct(1, 1, action="leave_out", detection=2).json()
    assert after["cards"] == 1
    assert [(d["label"], d["left_out"]) for d in after["detections"]] == [
        ("wasabi", True),
        ("squid", True),
        ("tempura", False),
    ]
    counted = table.correct(1, 1, action="relabel", detection=2, label="squid").json()
    assert counted["cards"] == 2 and counted["tally"]["squid"] == 1


def test_a_person_swaps_the_cards_left_out_for_the_cards_counted(
    client: TestClient, detector: FakeDetector
) -> None:
    """Where the reading took the next player's collection for this one, counting it and
    leaving out this player's own cards at the edge, one correction turns both sides
    over: the cards left out are counted as read, the detector's other boxes left out; a
    box a person added stays counted. The warning that said they were left out goes;
    undone, it all comes back. With no card left out there is nothing to swap: 422."""
    table = Table(client, {"players": ["Ana", "Ben"]})
    detector.register(NEIGHBOUR_PHOTO, WITH_NEIGHBOURS)
    draft = table.upload(1, 1, make_photo(NEIGHBOUR_PHOTO, WITH_NEIGHBOURS)).json()
    assert draft["warnings"] == [LEFT_OUT_TWO]
    added = table.correct(1, 1, action="add", box=[1000, 600, 1080, 718], label="pudding")
    assert added.status_code == 200, added.text
    assert added.json()["cards"] == 11

    swapped = table.correct(1, 1, action="swap_left_out")
    assert swapped.status_code == 200, swapped.text
    after = swapped.json()
    assert after["cards"] == 3
    assert (after["tally"]["tempura"], after["tally"]["pudding"]) == (2, 1)
    assert after["tally"]["sashimi"] == after["tally"]["dumpling"] == 0
    boxes = after["detections"]
    assert [d["left_out"] for d in boxes] == [True] * 10 + [False] * 3
    assert [d["counted"] for d in boxes] == [False] * 10 + [True] * 3
    assert LEFT_OUT_TWO not in after["warnings"]
    kinds = [e["kind"] for e in client.get(f"{table.collection_url(1, 1)}/events").json()]
    assert kinds[-1] == "swap_left_out"

    undone = table.act(1, 1, "undo").json()
    assert undone["cards"] == 11 and undone["warnings"] == [LEFT_OUT_TWO]
    assert [d["left_out"] for d in undone["detections"]] == [False] * 10 + [True] * 2 + [False]

    table.set_counts(1, 2, {"tempura": 1})  # Ben's: no photo, no card left out
    refused = table.correct(1, 2, action="swap_left_out")
    assert refused.status_code == 422
    assert "no card is left out as another player's" in refused.text


def test_a_swap_keeps_what_a_person_said_and_clears_counts_set_by_hand(
    client: TestClient, detector: FakeDetector
) -> None:
    """Ana counted one of the two cards left out by labelling it, left out one of the
    neighbour's sashimi by hand, and set the dumplings by hand; then she swaps. Her word
    stands: the card she counted stays counted, the one she left out stays out; the
    counts set by hand go with the cards they were set for (undo brings them back). A
    second swap (a double tap) is refused: nothing is left out as the reading left it."""
    table = Table(client, {"players": ["Ana", "Ben"]})
    detector.register(NEIGHBOUR_PHOTO, WITH_NEIGHBOURS)
    table.upload(1, 1, make_photo(NEIGHBOUR_PHOTO, WITH_NEIGHBOURS))
    assert table.correct(1, 1, action="relabel", detection=11, label="tempura").status_code == 200
    assert table.correct(1, 1, action="leave_out", detection=1).status_code == 200
    assert table.set_counts(1, 1, {"dumpling": 3})["tally"]["dumpling"] == 3
    before = table.collection(1, 1)
    assert before["warnings"] == [LEFT_OUT_TWO] and before["cards"] == 9

    swapped = table.correct(1, 1, action="swap_left_out")
    assert swapped.status_code == 200, swapped.text
    after = swapped.json()
    assert after["tally"]["tempura"] == 2 and after["cards"] == 2
    assert after["tally"]["dumpling"] == 0  # the count set by hand went with its cards
    counted = [d["id"] for d in after["detections"] if d["counted"]]
    assert counted == [11, 12]
    assert after["warnings"] == []

    again = table.correct(1, 1, action="swap_left_out")
    assert again.status_code == 422
    assert "none to count instead" in again.text
    undone = table.act(1, 1, "undo").json()
    assert undone["tally"]["dumpling"] == 3 and undone["cards"] == 9
