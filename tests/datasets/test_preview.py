"""The preview sheet draws what the detector learns from: boxes, kinds, stacks, tallies."""

from __future__ import annotations

import numpy as np

from datasets.preview import KIND_COLOUR, caption, contact_sheet, draw_labels
from datasets.scene import Scene


def test_every_box_is_drawn_in_its_kind_colour(scenes: list[Scene]) -> None:
    """Sampled at the middle of each box's left side; boxes drawn later may cross it."""
    hits = total = 0
    for scene in scenes[:6]:
        drawn = draw_labels(scene)
        assert drawn.shape == scene.image.shape and not np.array_equal(drawn, scene.image)
        for card in scene.cards:
            x1, y1, _, y2 = (round(v) for v in card.box)
            edge = drawn[(y1 + y2) // 2, x1].astype(int)
            hits += int(np.abs(edge - KIND_COLOUR[card.kind]).max() <= 40)
            total += 1
    assert hits >= 0.8 * total


def test_captions_state_players_hand_and_tally(scenes: list[Scene]) -> None:
    stacked = next(s for s in scenes if any(c.on_wasabi is not None for c in s.cards))
    text = " ".join(caption(stacked))
    assert f"{stacked.collection.players} players" in text
    assert f"hand {stacked.collection.hand_size}" in text
    for key, count in stacked.tally().items():
        if count:
            assert f"{key} {count}" in text


def test_contact_sheet_grid(scenes: list[Scene]) -> None:
    sheet = contact_sheet(scenes[:5], cell=200)
    assert sheet.shape[1] == 3 * 200  # ceil(sqrt(5)) columns
    assert sheet.shape[0] > 2 * 200  # two rows of cells, with captions
