"""A deck folder read by path (datasets/deck.py), and the printed deck drawn from it."""

from __future__ import annotations

import hashlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets.deck import deck_files, deck_manifest, load_deck, missing_classes
from datasets.faces import write_faces
from datasets.layout import CARD_ASPECT
from datasets.scene import make_scene
from datasets.synth import write_dataset
from datasets.yolo_format import dataset_deck, read_split, refuse_for_training
from scoring.cards import CARD_KINDS

BACK_BGR = (30, 20, 160)  # a dark red back, as the printed deck's


@pytest.fixture
def deck(tmp_path: Path) -> Path:
    folder = tmp_path / "deck"
    write_faces(folder, per_kind=1, seed=2)
    back = np.zeros((396, 267, 4), np.uint8)
    back[..., :3] = BACK_BGR
    back[..., 3] = 255
    cv2.imwrite(str(folder / "back.png"), back)
    return folder


def test_a_deck_folder_loads_its_faces_and_its_back(deck: Path) -> None:
    pool = load_deck(deck)
    assert set(pool.faces) == set(CARD_KINDS)
    assert len(pool.backs) == 1
    rng = np.random.default_rng(0)
    back = pool.pick_back(rng, 100)
    assert back is not None and back.shape[2] == 4 and back.shape[0] >= 99
    assert missing_classes(deck) == []


def test_the_manifest_names_every_file_by_its_sha256(deck: Path) -> None:
    manifest = deck_manifest(deck)
    assert len(manifest) == len(CARD_KINDS) + 1 and "back.png" in manifest
    assert (
        manifest["salmon/000.png"]
        == hashlib.sha256((deck / "salmon" / "000.png").read_bytes()).hexdigest()
    )


def test_a_deck_missing_or_empty_is_named(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no such deck folder"):
        deck_files(tmp_path / "nowhere")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match=r"no faces found under .*empty"):
        load_deck(tmp_path / "empty")


def test_a_partial_deck_says_which_classes_it_lacks(deck: Path) -> None:
    for path in (deck / "squid").glob("*.png"):
        path.unlink()
    assert missing_classes(deck) == ["squid"]


def test_the_draw_pile_shows_the_decks_back_and_is_never_labelled(deck: Path) -> None:
    pool = load_deck(deck)
    seen_back = 0
    for seed in range(40):
        scene = make_scene(np.random.default_rng(seed), pool, size=480)
        piles = [t for t in scene.meta["clutter"] if t["what"] == "draw_pile"]
        assert len(scene.cards) == scene.collection.cards  # backs are no card of the hand
        for pile in piles:
            x1, y1, x2, y2 = (round(v) for v in pile["box"])
            region = scene.image[y1:y2, x1:x2].reshape(-1, 3).astype(int)
            # The back's red shows (under the photo's light, noise and JPEG).
            reddish = (region[:, 2] > region[:, 1] + 60) & (region[:, 2] > region[:, 0] + 40)
            seen_back += bool(reddish.mean() > 0.2)
    assert seen_back >= 2


def test_cards_are_drawn_at_the_printed_cards_proportions(deck: Path) -> None:
    pool = load_deck(deck)
    scene = make_scene(np.random.default_rng(5), pool, size=800, style="rows")
    sides = []
    for card in scene.cards:
        tl, tr, br, bl = card.quad
        width = (np.linalg.norm(tr - tl) + np.linalg.norm(br - bl)) / 2
        height = (np.linalg.norm(bl - tl) + np.linalg.norm(br - tr)) / 2
        sides.append(width / height)
    # Seen at up to 45 degrees the proportions move; their median stays near the card's.
    assert abs(float(np.median(sides)) - CARD_ASPECT) < 0.12
    assert abs(CARD_ASPECT - 267 / 396) < 1e-9


def test_a_set_names_its_deck_and_one_of_the_made_up_deck_is_refused(
    tmp_path: Path, deck: Path
) -> None:
    drawn = write_dataset(
        tmp_path / "set", images=2, seed=1, size=160, workers=1, progress=False, faces_dir=deck
    )
    named = dataset_deck(drawn)
    assert isinstance(named, dict) and named["sha256"] == deck_manifest(deck)
    refuse_for_training(drawn)  # a deck folder: fine
    assert len(read_split(drawn, "train")) == 1
    made_up = write_dataset(tmp_path / "made-up", images=2, seed=1, size=160, workers=1,
                            progress=False)  # fmt: skip
    assert dataset_deck(made_up) == "procedural"
    with pytest.raises(ValueError, match="made-up procedural deck"):
        refuse_for_training(made_up)
