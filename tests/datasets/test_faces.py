"""Card faces as files: one RGBA PNG per face, tall enough, transparent rounded corners."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from datasets.faces import CARD_ASPECT, render_face
from scoring.cards import CARD_KINDS
from tests.datasets.test_scans import read_png


def test_write_faces_writes_every_class_as_rgba_pngs(faces_dir: Path) -> None:
    for kind in CARD_KINDS:
        paths = sorted((faces_dir / kind).glob("*.png"))
        assert [p.name for p in paths] == ["000.png"]
        face = read_png(paths[0])
        h, w, channels = face.shape
        assert channels == 4 and face.dtype == np.uint8
        assert h >= 600
        assert abs(w / h - CARD_ASPECT) < 0.005
        alpha = face[..., 3]
        for y, x in ((0, 0), (0, w - 1), (h - 1, 0), (h - 1, w - 1)):
            assert alpha[y, x] == 0, f"{kind}: corner ({x}, {y}) is not transparent"
        assert alpha[h // 2, w // 2] == 255 and alpha[h // 2, 0] == 255 and alpha[0, w // 2] == 255
        # Only the four rounded corners are clear: under 1 % of the card.
        assert (alpha < 128).mean() < 0.01


@pytest.mark.parametrize("kind", ["salmon", "maki_3"])
def test_the_same_seed_renders_the_same_face_and_another_seed_another(kind: str) -> None:
    a = render_face(kind, np.random.default_rng(4))
    b = render_face(kind, np.random.default_rng(4))
    c = render_face(kind, np.random.default_rng(5))
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)


def test_an_unknown_kind_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="unknown card kind 'toro'"):
        render_face("toro", np.random.default_rng(0))
