"""The stack check's training crops: every nigiri of a synth dataset, cut as a finder
might box it, labelled by whether it lies on a wasabi (vision/stack_check.py reads them)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from scoring.cards import NIGIRI
from vision.boxes import enclosing
from vision.classifier import CROP
from vision.stack_check import context_crops
from vision.training.crop_networks import CropSet, jitter_box


def stack_crops_from_dataset(
    root: Path, split: str, *, seed: int, per_card: int = 3, size: int = CROP
) -> CropSet:
    """Context crops of every nigiri in a synth dataset, labelled by whether it lies on a
    wasabi, each cut `per_card` times with the box jitter a finder makes."""
    from datasets.yolo_format import read_split

    rng = np.random.default_rng(seed)
    crops: list[np.ndarray] = []
    labels: list[int] = []
    for item in read_split(root, split):
        cards = item.truth["cards"]
        nigiri = [c for c in cards if c["kind"] in NIGIRI]
        if not nigiri:
            continue
        image = item.pixels()
        boxes = [seen_box(c, cards, k, rng) for c in nigiri for k in range(per_card)]
        crops.append(context_crops(image, np.array(boxes), size))
        labels.extend(int(c["on_wasabi"] is not None) for c in nigiri for _ in range(per_card))
    if not crops:
        raise ValueError(f"no nigiri in {root}/images/{split}")
    return CropSet(np.concatenate(crops), np.array(labels, np.int64))


def seen_box(card: dict, cards: list[dict], cut: int, rng: np.random.Generator) -> np.ndarray:
    """A box the finder might draw around a nigiri. On small photos it often takes the
    wasabi's strip in with the nigiri (one box over both), so the first cut of a stacked
    nigiri is that union."""
    box = np.array(card["box"], float)
    if cut == 0 and card["on_wasabi"] is not None:
        strip = np.array(cards[card["on_wasabi"]]["box"], float)
        box = enclosing(box, strip)
    return jitter_box(box, rng, 0.08)
