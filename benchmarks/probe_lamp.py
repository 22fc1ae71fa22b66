"""A lamp's warm light against plain light: the ten photos of
tests/vision/test_pipeline.py's lamp test (seed 97531, 1280 px, no player count), read
as they are and under the test's warm lamp, with the shipped weights (or `--weights`).

    python -m benchmarks.probe_lamp [--weights DIR] [--faces DIR]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from datasets.deck import CHECKOUT_DECK, load_deck
from datasets.faces import FacePool
from datasets.scene import Scene, make_scene
from scoring import Tally
from vision.detector import load_detector
from vision.photo import Photo, load_photo
from vision.pipeline import read_photo


def warm_light(image: np.ndarray, red: float = 1.25, blue: float = 0.6) -> np.ndarray:
    """A lamp's warm light: red up, blue down (BGR)."""
    return np.clip(image * np.array([blue, 1.0, red]), 0, 255).astype(np.uint8)


def under_the_lamp(photo: Photo) -> Photo:
    """The decoded photo as the warm lamp lights it."""
    image = warm_light(photo.image)
    return Photo(image, (image.shape[1], image.shape[0]), 1.0)


def lamp_scenes(deck: FacePool) -> list[Scene]:
    """The lamp test's ten photos: a seed no training set uses, 1280 px."""
    rng = np.random.default_rng(97_531)
    return [make_scene(rng, deck, size=1280) for _ in range(10)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weights", type=Path, default=None)
    parser.add_argument("--faces", type=Path, default=CHECKOUT_DECK)
    args = parser.parse_args()
    scenes = lamp_scenes(load_deck(args.faces))
    detector = load_detector(args.weights)
    plain = warm = 0
    for scene in scenes:
        truth = Tally.from_mapping(scene.tally())
        photo = load_photo(scene.jpeg)
        plain += read_photo(photo, detector).tally == truth
        warm += read_photo(under_the_lamp(photo), detector).tally == truth
    print(f"exact of {len(scenes)}: {plain} in plain light, {warm} under the warm lamp")


if __name__ == "__main__":
    main()
