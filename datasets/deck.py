"""A deck folder: the printed faces a detector learns, read by path, never committed.

    DIR/<class>/*.png   one or more faces of each class (the scans in
                        ../shared/decks/original/, or a player's own `sushigo faces import`)
    DIR/back.png        the card back (or DIR/back/*.png): the draw pile, never counted

A data set's data.yaml and the shipped model card name the deck by each file's sha256
(`deck_manifest`), so that a model says which printing it learnt.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import cv2
import numpy as np

from datasets.faces import FacePool, as_rgba
from scoring.cards import CARD_KINDS

BACK = "back"
# The printed deck's scans where a checkout has them (../shared beside it), never in git.
CHECKOUT_DECK = Path(__file__).resolve().parents[2] / "shared" / "decks" / "original"


def _read_face(path: Path) -> np.ndarray:
    face = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if face is None:
        raise ValueError(f"cannot read face image {path}")
    return as_rgba(face)


def require_deck_folder(folder: Path) -> Path:
    """`folder`, where it is a folder; else one line saying what it is."""
    if folder.is_file():
        raise NotADirectoryError(f"{folder} is a file: give the deck folder (DIR/<class>/*.png)")
    if not folder.is_dir():
        raise FileNotFoundError(f"no such deck folder: {folder}")
    return folder


def deck_files(folder: Path) -> dict[str, list[Path]]:
    """The deck's image files by class (and "back"), sorted; raises ValueError when the
    folder holds no face at all."""
    require_deck_folder(folder)
    files: dict[str, list[Path]] = {}
    for kind in CARD_KINDS:
        paths = sorted((folder / kind).glob("*.png"))
        if paths:
            files[kind] = paths
    if not files:
        raise ValueError(f"no faces found under {folder} (expected {folder}/<class>/*.png)")
    backs = sorted((folder / BACK).glob("*.png"))
    if (folder / f"{BACK}.png").is_file():
        backs.insert(0, folder / f"{BACK}.png")
    if backs:
        files[BACK] = backs
    return files


def load_deck(folder: Path) -> FacePool:
    """The faces (and backs) of a deck folder as a FacePool."""
    files = deck_files(folder)
    backs = [_read_face(p) for p in files.pop(BACK, [])]
    faces = {kind: [_read_face(p) for p in paths] for kind, paths in files.items()}
    return FacePool.from_images(faces, backs=backs)


def missing_classes(folder: Path) -> list[str]:
    """Classes the deck folder has no face for (a data set drawn from it lacks them)."""
    files = deck_files(folder)
    return [kind for kind in CARD_KINDS if kind not in files]


def deck_manifest(folder: Path) -> dict[str, str]:
    """Each deck file's path (relative to the folder) -> its sha256."""
    return {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
        for paths in deck_files(folder).values()
        for path in paths
    }


def table_faces(folder: Path = CHECKOUT_DECK) -> FacePool:
    """The deck in `folder` where it is at hand, else the procedural one: for photos about
    the product around a reading (pages, uploads, memory), not about reading its cards."""
    if folder.is_dir():
        return load_deck(folder)
    return FacePool.rendered(11, per_kind=2)
