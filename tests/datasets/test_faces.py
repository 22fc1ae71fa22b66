"""Card faces as files: one RGBA PNG per face, tall enough, transparent rounded corners."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from datasets.faces import CARD_ASPECT, FONTS, font_files, render_face, varied_fonts
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


def test_varied_lettering_keeps_the_classic_fonts_and_adds_other_families() -> None:
    fonts = varied_fonts()
    assert fonts[: len(FONTS)] == FONTS
    files = [Path(f[0]) for f in fonts if isinstance(f, tuple) and f[0].endswith(".ttf")]
    assert len(files) >= 5 and all(f.is_file() for f in files)
    # Lettered in another family, the same card (same draws) differs only in its text.
    classic = render_face("wasabi", np.random.default_rng(3), fonts=FONTS[:1])
    other = render_face("wasabi", np.random.default_rng(3), fonts=[(str(files[0]), 400)])
    banner = slice(0, round(0.18 * classic.shape[0]))
    assert not np.array_equal(classic[banner], other[banner])
    middle = slice(round(0.25 * classic.shape[0]), round(0.75 * classic.shape[0]))
    assert np.array_equal(classic[middle], other[middle])


def test_font_files_are_checked_before_any_face_is_drawn(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no such font file"):
        font_files([tmp_path / "missing.ttf"])
    with pytest.raises(ValueError, match="no font files"):
        font_files([])
    not_a_font = tmp_path / "notes.ttf"
    not_a_font.write_text("not a font")
    with pytest.raises(ValueError, match="is not a font file"):
        font_files([not_a_font])
