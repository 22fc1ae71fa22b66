"""Shared, session-wide fixtures: one small face pool and a few dozen small scenes of every
layout style, sizes and player counts, made once and read by many tests."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from datasets.faces import FacePool, write_faces
from datasets.layout import LAYOUT_STYLES
from datasets.scene import Scene, make_scene

SCENES_PER_STYLE = 8
SIZES = (320, 480, 640)


@pytest.fixture(scope="session")
def pool() -> FacePool:
    return FacePool.rendered(3, per_kind=1)


@pytest.fixture(scope="session")
def scenes(pool: FacePool) -> list[Scene]:
    """8 scenes per layout style (32 in all), 320-640 px, every player count."""
    made = []
    for s, style in enumerate(LAYOUT_STYLES):
        for i in range(SCENES_PER_STYLE):
            rng = np.random.default_rng([41, s, i])
            made.append(
                make_scene(rng, pool, size=SIZES[i % len(SIZES)], players=2 + i % 4, style=style)
            )
    return made


@pytest.fixture(scope="session")
def faces_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One rendered face per class as DIR/<class>/000.png: a cheap face source for datasets."""
    folder = tmp_path_factory.mktemp("faces")
    write_faces(folder, per_kind=1, seed=8)
    return folder
