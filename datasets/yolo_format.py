"""Writing and reading the YOLO dataset: images/, labels/ (one line per card), tallies/.

Detector labels use the twelve card kinds (scoring.cards.CARD_KINDS order); the detector may
train on them as one class (`single_cls`). Each image also gets a JSON with its ground truth:
the contract tally, player count, hand size, the photo's conditions and every card.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import yaml

from datasets.scene import Scene
from scoring.cards import CARD_KINDS

SPLITS = ("train", "val", "test")
KIND_ID = {kind: i for i, kind in enumerate(CARD_KINDS)}


def split_of(index: int, n: int) -> str:
    """80/10/10 by position, so a dataset's split never depends on how it was made."""
    if n < 10:
        return "train" if index < max(1, n - 2) else ("val" if index == n - 2 else "test")
    frac = index / n
    return "train" if frac < 0.8 else ("val" if frac < 0.9 else "test")


def scene_record(scene: Scene) -> dict[str, Any]:
    return {
        "players": scene.collection.players,
        "hand_size": scene.collection.hand_size,
        "tally": scene.tally(),
        "meta": scene.meta,
        "cards": [
            {
                "kind": c.kind,
                "box": [round(v, 1) for v in c.box],
                "quad": [[round(float(x), 1), round(float(y), 1)] for x, y in c.quad],
                "visible": round(c.visible, 3),
                "on_wasabi": c.on_wasabi,
            }
            for c in scene.cards
        ],
    }


def label_lines(scene: Scene) -> list[str]:
    h, w = scene.image.shape[:2]
    lines = []
    for c in scene.cards:
        x1, y1, x2, y2 = c.box
        lines.append(
            f"{KIND_ID[c.kind]} {(x1 + x2) / 2 / w:.6f} {(y1 + y2) / 2 / h:.6f} "
            f"{(x2 - x1) / w:.6f} {(y2 - y1) / h:.6f}"
        )
    return lines


def write_scene(root: Path, split: str, name: str, scene: Scene) -> None:
    (root / "images" / split / f"{name}.jpg").write_bytes(scene.jpeg)
    (root / "labels" / split / f"{name}.txt").write_text("\n".join(label_lines(scene)) + "\n")
    (root / "tallies" / split / f"{name}.json").write_text(
        json.dumps(scene_record(scene), sort_keys=True, indent=1)
    )


PROCEDURAL_DECK = "procedural"  # data.yaml's deck for photos of the made-up test deck
# data.yaml's deck for photos players took of their own cards (sushigo corrections export).
PHOTOGRAPHED_DECK = "photographed at the table"


def check_new_folder(root: Path, what: str) -> None:
    """Raise ValueError unless `root` is a new or empty folder for a `what` (a dataset, an
    export): another set's files under the same names would make one set of two."""
    if root.is_file():
        raise ValueError(f"{root} is a file: --out names a folder for the {what}")
    if root.is_dir() and any(root.iterdir()):
        raise ValueError(f"{root} is not empty: write the {what} into a new or empty folder")


def prepare(root: Path, held_out: str | None = None, *, deck: dict[str, Any] | str) -> None:
    """The folders and data.yaml of a dataset; `held_out` says what makes it a test set
    (a printing or renderer never trained on), which training then refuses; `deck` names
    the deck folder the photos show and each of its files' sha256 (datasets/deck.py), or
    PROCEDURAL_DECK, which training refuses too."""
    for part in ("images", "labels", "tallies"):
        for split in SPLITS:
            (root / part / split).mkdir(parents=True, exist_ok=True)
    data: dict[str, Any] = {
        "path": str(root.resolve()),
        "train": "images/train",
        "val": "images/val",
        "test": "images/test",
        "names": dict(enumerate(CARD_KINDS)),
    }
    if held_out:
        data["held_out"] = held_out
    data["deck"] = deck
    (root / "data.yaml").write_text(yaml.safe_dump(data, sort_keys=False))


def refuse_for_training(data: Path) -> None:
    """Raise ValueError when `data` (a dataset folder or its data.yaml) is a held-out test
    set: trained on, it would no longer measure anything."""
    data_yaml = data / "data.yaml" if data.is_dir() else data
    if not data_yaml.is_file():
        return
    described = yaml.safe_load(data_yaml.read_text()) or {}
    if described.get("held_out"):
        raise ValueError(
            f"{data_yaml.parent} is a held-out test set ({described['held_out']}): "
            "never train on it"
        )
    if described.get("deck") == PROCEDURAL_DECK:
        raise ValueError(
            f"{data_yaml.parent} shows the made-up procedural deck, which no player owns: "
            "make the set from a deck folder (sushigo synth --faces DIR, e.g. "
            "../shared/decks/original)"
        )


def dataset_deck(data: Path) -> dict[str, Any] | str | None:
    """The deck a dataset's photos show, as its data.yaml names it (None: not named)."""
    data_yaml = data / "data.yaml" if data.is_dir() else data
    if not data_yaml.is_file():
        return None
    return (yaml.safe_load(data_yaml.read_text()) or {}).get("deck")


@dataclass(frozen=True)
class LabelledImage:
    """One image of a dataset as read back: its path, boxes and ground truth."""

    image: Path
    boxes: list[tuple[str, float, float, float, float]]  # kind, x1 y1 x2 y2 (px)
    truth: dict[str, Any]

    def pixels(self) -> np.ndarray:
        """The image, BGR; where it cannot be read, an error naming it."""
        image = cv2.imread(str(self.image))
        if image is None:
            raise ValueError(f"{self.image} is not an image OpenCV can read")
        return image


def read_split(root: Path, split: str) -> list[LabelledImage]:
    """Read back what write_scene wrote (boxes in pixels, from the JSON record)."""
    items = []
    for image in sorted((root / "images" / split).glob("*.jpg")):
        path = root / "tallies" / split / f"{image.stem}.json"
        try:
            record = json.loads(path.read_text())
        except json.JSONDecodeError as error:  # which file: it had not been said
            raise ValueError(f"{path} is not a tally record: {error}") from None
        boxes = [(c["kind"], *c["box"]) for c in record["cards"]]
        items.append(LabelledImage(image, boxes, record))
    return items


def read_all(root: Path) -> list[LabelledImage]:
    """Every split's images, train then val then test: a held-out set made only for
    evaluation, or corrected photos, use them all."""
    return [item for split in SPLITS for item in read_split(root, split)]
