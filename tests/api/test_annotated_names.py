"""The annotated JPEG labels cards with the names people use ("Salmon on wasabi", "Maki,
2 rolls", "Egg nigiri"), never a tally key in snake_case, and the page spells them alike."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from scoring.cards import TALLY_KEYS, TALLY_NAMES
from tests.api.conftest import FakeDetector, Table, make_photo, texts_drawn
from vision.annotate import tags
from vision.detections import Detections
from vision.reading import read_tally

CARDS_JS = Path(__file__).resolve().parents[2] / "api" / "web" / "cards.js"

# A wasabi strip above a salmon (one stack), a two-roll maki, an egg and a tempura.
RECORDS: list[dict[str, Any]] = [
    {"label": "wasabi", "confidence": 0.9, "box": [300, 200, 489, 270]},
    {"label": "salmon", "confidence": 0.88, "box": [300, 266, 489, 530]},
    {"label": "maki_2", "confidence": 0.93, "box": [520, 266, 709, 530]},
    {"label": "egg", "confidence": 0.91, "box": [720, 266, 880, 530]},
    {"label": "tempura", "confidence": 0.42, "box": [50, 266, 239, 530]},
]


def test_every_key_has_a_name_the_page_spells_alike() -> None:
    assert tuple(TALLY_NAMES) == TALLY_KEYS
    categories = CARDS_JS.read_text().split("export const CATEGORIES")[1].split("];")[0]
    names = dict(re.findall(r'key: "(\w+)", name: "([^"]+)"', categories))
    assert names == dict(TALLY_NAMES)
    # The photo is drawn with OpenCV's Hershey fonts: ASCII only.
    assert all(name.isascii() and "_" not in name for name in TALLY_NAMES.values())


def test_a_stack_is_one_tag_with_its_name() -> None:
    reading = read_tally(Detections.from_records(RECORDS), players=2)
    assert reading.tally.salmon_on_wasabi == 1 and reading.stacks
    assert [tag.text for tag in tags(reading)] == [
        "Salmon on wasabi 88%",
        "Maki, 2 rolls 93%",
        "Egg nigiri 91%",
        "Tempura 42% ?",  # read at under 50 %: warned of, and asked on its tag
    ]
    stack = tags(reading)[0]
    assert list(stack.box) == [300, 200, 489, 530]  # on top of the wasabi and its nigiri


def test_the_served_jpeg_draws_human_names_only(
    table: Table, detector: FakeDetector, monkeypatch: pytest.MonkeyPatch
) -> None:
    detector.register((900, 700), RECORDS)
    assert table.upload(1, 1, make_photo((900, 700), RECORDS)).status_code == 201
    drawn = texts_drawn(monkeypatch)
    response = table.client.get(f"{table.collection_url(1, 1)}/annotated.jpg")
    assert response.status_code == 200 and response.headers["content-type"] == "image/jpeg"
    assert "Salmon on wasabi 88%" in drawn and "Salmon on wasabi: 1" in drawn
    assert "Maki, 2 rolls: 1" in drawn
    assert drawn and not [text for text in drawn if "_" in text]
