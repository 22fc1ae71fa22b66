"""How a printed card differs from its scan (datasets/printing.py)."""

from __future__ import annotations

import numpy as np
import pytest

from datasets import printing
from datasets.printing import ANOTHER_PRINTING, PLAIN, PrintRun, print_run, wear_card
from datasets.synth import generate


def face(seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    image = np.zeros((120, 81, 4), np.uint8)
    image[..., :3] = rng.integers(30, 220, (120, 81, 3))
    image[..., 3] = 255
    image[:3, :3, 3] = 0  # a rounded corner
    return image


def test_a_plain_printing_is_the_scan_itself() -> None:
    scan = face()
    assert PLAIN.apply(scan) is scan


def test_a_printing_changes_the_colours_and_keeps_the_cards_outline() -> None:
    scan = face()
    printed = PrintRun(gains=(1.0, 1.0, 1.1), saturation=0.8, gamma=1.1).apply(scan)
    assert printed.shape == scan.shape
    np.testing.assert_array_equal(printed[..., 3], scan[..., 3])
    assert np.abs(printed[..., :3].astype(int) - scan[..., :3]).mean() > 3


def test_training_print_runs_stay_inside_their_ranges_and_another_printing_lies_outside() -> None:
    rng = np.random.default_rng(1)
    runs = [print_run(rng) for _ in range(400)]
    assert any(run.is_plain for run in runs) and not all(run.is_plain for run in runs)
    assert any(run.scan_scale < 1 for run in runs)

    def inside(value: float, bounds: tuple[float, float]) -> bool:
        return bounds[0] <= value <= bounds[1]

    for run in runs:
        assert all(inside(g, printing.GAINS) for g in run.gains)
        assert inside(run.saturation, printing.SATURATION) or run.is_plain
        assert inside(run.gamma, printing.GAMMA) or run.is_plain
        assert inside(run.hue, printing.HUE) or run.is_plain
        assert inside(run.scan_scale, printing.SCAN_SCALE)
    # Held out: beyond every range training draws.
    held_out = ANOTHER_PRINTING
    assert not inside(held_out.saturation, printing.SATURATION)
    assert not inside(held_out.gamma, printing.GAMMA)
    assert not inside(held_out.hue, printing.HUE)
    assert not inside(held_out.scan_scale, printing.SCAN_SCALE)
    assert not all(inside(g, printing.GAINS) for g in held_out.gains)


@pytest.mark.parametrize("kwargs", [{"scan_scale": 0.0}, {"scan_scale": 1.5}, {"gamma": 0}])
def test_an_impossible_printing_cannot_be_made(kwargs: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        PrintRun(**kwargs)


def test_a_worn_card_keeps_its_size_and_differs_from_card_to_card() -> None:
    scan = face()
    worn = [wear_card(scan, np.random.default_rng(seed)) for seed in range(12)]
    assert all(w.shape == scan.shape for w in worn)
    changed = [np.abs(w[..., :3].astype(int) - scan[..., :3]).mean() for w in worn]
    assert sum(c > 0.5 for c in changed) >= 6  # most cards show some wear


def test_an_unknown_printing_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown printing"):
        list(generate(1, 1, 160, workers=1, printing="sepia"))
