"""The crop networks at other crop sizes: a head sized by the crop, started from a smaller
network's head resized over the larger grid; and the crops they are trained on."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import torch

from datasets.synth import write_dataset
from datasets.yolo_format import read_split
from vision.classifier import NONE_ID, crop_boxes
from vision.training.crop_networks import _head_resized, build_network, crops_from_dataset


def test_a_larger_network_starts_from_a_smaller_ones_head_with_its_layout() -> None:
    torch.manual_seed(0)
    small, large = build_network(2, size=96), build_network(2, size=128)
    state = _head_resized(small.state_dict(), large.state_dict()["head.1.weight"].shape)
    large.load_state_dict(state)  # every shape fits
    old = small.state_dict()["head.1.weight"].reshape(2, 32, 6, 6)
    new = state["head.1.weight"].reshape(2, 32, 8, 8)
    # Evidence spread evenly over the crop weighs as much as before ...
    assert torch.allclose(new.sum((2, 3)), old.sum((2, 3)), rtol=0.05, atol=0.05)
    # ... and where it lies still matters where it did: top rows stay top rows.
    assert torch.allclose(new[..., 0, :].mean(-1), old[..., 0, :].mean(-1) * 36 / 64, atol=0.02)


def test_a_network_of_the_same_size_loads_its_state_unchanged() -> None:
    net = build_network(2, size=96)
    state = net.state_dict()
    assert _head_resized(state, state["head.1.weight"].shape) is state


def test_crops_come_in_the_size_asked_for() -> None:
    image = np.random.default_rng(0).integers(0, 255, (400, 600, 3), np.uint8)
    boxes = np.array([[10, 20, 73, 108], [200, 100, 500, 380]], np.float32)
    assert crop_boxes(image, boxes).shape == (2, 96, 96, 3)
    assert crop_boxes(image, boxes, size=128).shape == (2, 128, 128, 3)


def test_the_finders_false_alarms_off_every_card_become_none_crops(tmp_path: Path) -> None:
    data = write_dataset(tmp_path / "data", images=5, seed=7, size=320, workers=1, progress=False)
    items = read_split(data, "train")
    card_of = {cv2.imread(str(it.image)).tobytes(): np.array(it.boxes[0][1:]) for it in items}

    def corner(image: np.ndarray) -> np.ndarray:
        return np.array([[0, 0, 3, 3]], np.float32)  # no card reaches a corner

    def inside_a_card(image: np.ndarray) -> np.ndarray:
        x1, y1, x2, y2 = card_of[image.tobytes()]
        return np.array([[x1, y1, (x1 + x2) / 2, (y1 + y2) / 2]], np.float32)

    plain = crops_from_dataset(data, "train", seed=0)
    mined = crops_from_dataset(data, "train", seed=0, false_alarms=corner)
    assert len(mined.labels) == len(plain.labels) + len(items)
    assert (mined.labels == NONE_ID).sum() == (plain.labels == NONE_ID).sum() + len(items)
    # A box on a card is that card's, not a false alarm: it is left out.
    on_cards = crops_from_dataset(data, "train", seed=0, false_alarms=inside_a_card)
    assert len(on_cards.labels) == len(plain.labels)
