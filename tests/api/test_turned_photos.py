"""A photo whose cards lie sideways or upside down (a phone held flat tags it the wrong way
up), or at a slant, is read turned: /detect says by how much, and a game keeps the photo
so turned."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from fastapi.testclient import TestClient

from api.cli import main
from api.settings import Settings
from datasets.yolo_format import read_split
from tests.api.conftest import FakeDetector, Table, boxes_for, make_photo
from vision.photo import card_slant, turn_image, turned_size

LABELS = [
    "tempura", "tempura", "sashimi", "dumpling", "pudding", "maki_2", "egg", "squid", "wasabi",
]  # fmt: skip


def _register_sideways(detector: FakeDetector) -> list[dict[str, Any]]:
    """The fake finds doubtful cards in the 900 x 700 photo as sent, and confident ones
    in it turned a quarter either way (700 x 900): a photo whose cards lay sideways."""
    doubtful = [{**record, "confidence": 0.5} for record in boxes_for(LABELS)]
    upright = boxes_for(LABELS, width=700, height=900)
    detector.register((900, 700), doubtful)
    detector.register((700, 900), upright)
    return upright


def _marked_photo() -> bytes:
    """900 x 700, its top-left corner red: where that corner goes shows the turn."""
    image = cv2.imdecode(np.frombuffer(make_photo((900, 700)), np.uint8), cv2.IMREAD_COLOR)
    image[:60, :60] = (0, 0, 255)
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    assert ok
    return encoded.tobytes()


def test_detect_reads_a_sideways_photo_turned_and_says_so(
    client: TestClient, detector: FakeDetector
) -> None:
    upright = _register_sideways(detector)
    response = client.post(
        "/api/v1/detect", files={"image": ("cards.jpg", _marked_photo(), "image/jpeg")}
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["turned"] == 90
    assert body["cards"] == len(LABELS)
    assert [d["box"] for d in body["detections"]] == [
        [float(v) for v in record["box"]] for record in upright
    ]
    assert any("read turned 90° clockwise" in note for note in body["notes"])
    assert not any("read turned" in warning for warning in body["warnings"])


def test_a_game_keeps_a_sideways_photo_turned_with_its_boxes_and_a_note(
    table: Table, detector: FakeDetector
) -> None:
    _register_sideways(detector)
    sent = _marked_photo()
    response = table.upload(1, 1, sent)
    assert response.status_code == 201, response.text
    draft = response.json()
    photo = draft["photo"]
    assert (photo["width"], photo["height"]) == (700, 900)
    assert photo["sha256"] != hashlib.sha256(sent).hexdigest()
    assert any("read turned 90° clockwise" in note for note in draft["notes"])
    assert not any("read turned" in warning for warning in draft["warnings"])
    assert draft["cards"] == len(LABELS)

    kept = table.client.get(photo["image_url"]).content
    assert hashlib.sha256(kept).hexdigest() == photo["sha256"]
    image = cv2.imdecode(np.frombuffer(kept, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape == (900, 700, 3)
    assert image[20, -20, 2] > 200 and image[20, 20, 2] < 200  # the red corner: top right
    # The reviewed photo is drawn from the kept file, at its size.
    annotated = table.client.get(f"{table.collection_url(1, 1)}/annotated.jpg")
    assert annotated.status_code == 200
    drawn = cv2.imdecode(np.frombuffer(annotated.content, np.uint8), cv2.IMREAD_COLOR)
    assert drawn.shape[0] > drawn.shape[1]


def test_a_turned_photo_is_exported_for_training_as_kept(
    table: Table, detector: FakeDetector, settings: Settings, tmp_path: Path
) -> None:
    """The corrections export (issue 7) writes the kept, turned file: the boxes a reviewer
    confirmed lie on its cards."""
    upright = _register_sideways(detector)
    assert table.upload(1, 1, _marked_photo()).status_code == 201
    table.confirm(1, 1)
    out = tmp_path / "export"
    command = ["corrections", "export", "--out", str(out), "--data-dir", str(settings.data_dir)]
    if settings.database_url:
        command += ["--database-url", settings.database_url]
    assert main(command) == 0
    (item,) = read_split(out, "train")
    image = cv2.imread(str(item.image))
    assert image.shape[:2] == (900, 700)
    assert image[20, -20, 2] > 200 and image[20, 20, 2] < 200
    written = np.array(sorted(box[1:] for box in item.boxes))
    np.testing.assert_allclose(written, sorted(record["box"] for record in upright), atol=0.06)


def test_a_game_keeps_a_photo_taken_at_a_slant_turned_straight(
    table: Table, detector: FakeDetector
) -> None:
    """A phone held 30 degrees off square to the cards: the photo is read turned back, on a
    canvas grown to hold all of it, and kept so (vision.pipeline.SLANT_BEYOND)."""
    square = cv2.imdecode(np.frombuffer(make_photo((900, 700), boxes_for(LABELS)), np.uint8), 1)
    slanted = turn_image(square, 30)
    ok, encoded = cv2.imencode(".jpg", slanted, [cv2.IMWRITE_JPEG_QUALITY, 95])
    assert ok
    height, width = slanted.shape[:2]
    straight_size = turned_size((width, height), 330)
    middle = [{"label": "tempura", "confidence": 0.5, "box": [300, 300, width - 300, 700]}]
    detector.register((width, height), middle)
    detector.register(straight_size, boxes_for(LABELS, width=straight_size[0], height=700))

    response = table.upload(1, 1, encoded.tobytes())
    assert response.status_code == 201, response.text
    draft = response.json()
    assert (draft["photo"]["width"], draft["photo"]["height"]) == straight_size
    assert draft["cards"] == len(LABELS)
    assert any("30° anticlockwise: its cards lay at a slant" in n for n in draft["notes"])
    kept = table.client.get(draft["photo"]["image_url"]).content
    image = cv2.imdecode(np.frombuffer(kept, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape[1::-1] == straight_size
    # Straight again: the cards' edges lie square to the kept file's; its corners, outside
    # the photo as taken, are black.
    middle = np.array([[width * 0.4, height * 0.4, width * 0.9, height * 0.9]])
    assert abs(card_slant(image, middle)) < 2
    assert image[:8, :8].max() < 30 and image[-8:, -8:].max() < 30


def test_a_game_reads_a_photo_as_it_came_where_its_turn_lost_the_cards_found_so(
    client: TestClient, detector: FakeDetector
) -> None:
    """As sent, three of Ana's cards at 0.9 at the left and two of Ben's sideways at 0.3;
    turned a quarter, Ben's collection stands upright elsewhere and Ana's is not found.
    Her review reads her cards, as the photo came, and names Ben's as not counted."""
    ana = [{"label": "tempura", "confidence": 0.9, "box": [40 + 90 * i, 60, 120 + 90 * i, 178]}
           for i in range(3)]  # fmt: skip
    ben = [{"label": "egg", "confidence": 0.3, "box": [600 + 130 * i, 500, 718 + 130 * i, 580]}
           for i in range(2)]  # fmt: skip
    turned = boxes_for(["sashimi"] * 4, width=700, height=900)
    detector.register((900, 700), [*ana, *ben])
    detector.register((700, 900), [{**r, "box": [r["box"][0], r["box"][1] + 400, r["box"][2],
                                                 r["box"][3] + 400]} for r in turned])  # fmt: skip
    table = Table(client, {"players": ["Ana", "Ben"]})
    response = table.upload(1, 1, _marked_photo())
    assert response.status_code == 201, response.text
    draft = response.json()
    assert draft["tally"]["tempura"] == 3 and draft["tally"]["sashimi"] == 0
    assert not any("read turned" in note for note in draft["notes"])
    assert (
        "4 cards lying another way (sashimi, sashimi, sashimi, sashimi) are not counted: if "
        "they are this player's, take the photo again with this player's cards upright"
    ) in draft["warnings"]
