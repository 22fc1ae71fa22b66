"""Restyled illustrations: drawn from the classic ones, inside their zone, seeded."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from datasets.art import _layer, abstract, any_of, any_rolls, restyled, restyled_all, zone_of
from datasets.commands import HAND_DRAWN_ART, hand_drawn_art
from datasets.faces import FACE_HEIGHT, FACE_WIDTH, ILLUSTRATIONS, Illustrate, render_face
from scoring.cards import CARD_KINDS


def _outside(shape: tuple[int, ...], cx: float, cy: float, s: float) -> np.ndarray:
    """The pixels an illustration centred at (cx, cy) with size unit s must leave alone."""
    outside = np.ones(shape[:2], bool)
    outside[zone_of(shape, cx, cy, s)] = False
    return outside


def _assert_drawn_in_zone(
    face: np.ndarray, drawn: np.ndarray, cx: float, cy: float, s: float
) -> None:
    """Nothing outside the illustration's zone changed, and over 3 % of the zone did."""
    zone, outside = zone_of(face.shape, cx, cy, s), _outside(face.shape, cx, cy, s)
    assert np.array_equal(drawn[outside], face[outside])
    assert (drawn[zone] != face[zone]).any(axis=-1).mean() > 0.03


def _disc(img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator) -> None:
    cv2.circle(img, (int(cx), int(cy)), int(s * 0.5), (10, 200, 30), -1, cv2.LINE_AA)


def test_the_layer_recovers_a_drawing_s_colour_and_coverage() -> None:
    colour, alpha = _layer(_disc, (200, 200, 3), 100, 100, 80, np.random.default_rng(0))
    assert alpha[100, 100] == pytest.approx(1) and alpha[5, 5] == pytest.approx(0)
    np.testing.assert_allclose(colour[100, 100], np.array([10, 200, 30]) / 255, atol=1e-6)
    edge = alpha[100, 100 + 40 - 1 : 100 + 40 + 2]  # antialiased: partly covered
    assert ((edge > 0.05) & (edge < 0.95)).any()


@pytest.mark.parametrize("kind", CARD_KINDS)
def test_a_restyled_illustration_stays_in_its_zone(kind: str) -> None:
    cx, cy, s = FACE_WIDTH / 2, 0.49 * FACE_HEIGHT, 0.26 * FACE_WIDTH * 1.15
    for seed in range(4):
        face = np.full((FACE_HEIGHT, FACE_WIDTH, 3), (66, 197, 244), np.uint8)
        drawn = face.copy()
        restyled(ILLUSTRATIONS[kind])(drawn, cx, cy, s, np.random.default_rng(seed))
        zone = zone_of(face.shape, cx, cy, s)
        outside = _outside(face.shape, cx, cy, s)
        assert np.array_equal(drawn[outside], face[outside])
        assert (np.abs(drawn[zone].astype(int) - face[zone]).sum(axis=2) > 60).mean() > 0.02


def test_restyled_faces_are_seeded_and_differ_from_the_classic_drawing() -> None:
    art = restyled_all(ILLUSTRATIONS)
    a = render_face("salmon", np.random.default_rng(8), illustrations=art)
    b = render_face("salmon", np.random.default_rng(8), illustrations=art)
    classic = render_face("salmon", np.random.default_rng(8))
    assert np.array_equal(a, b)
    middle = slice(round(0.25 * FACE_HEIGHT), round(0.75 * FACE_HEIGHT))
    assert not np.array_equal(a[middle], classic[middle])


@pytest.mark.parametrize("name", HAND_DRAWN_ART)
@pytest.mark.parametrize("kind", CARD_KINDS)
def test_each_hand_drawn_art_draws_in_its_zone_and_is_seeded(kind: str, name: str) -> None:
    draw = hand_drawn_art(name)[kind]
    cx, cy = FACE_WIDTH / 2, 0.49 * FACE_HEIGHT
    for seed, s in ((0, 0.26 * FACE_WIDTH * 1.15), (1, 0.26 * FACE_WIDTH * 0.85), (2, 40.0)):
        face = np.full((FACE_HEIGHT, FACE_WIDTH, 3), (66, 197, 244), np.uint8)
        drawn, again, other = face.copy(), face.copy(), face.copy()
        draw(drawn, cx, cy, s, np.random.default_rng(seed))
        draw(again, cx, cy, s, np.random.default_rng(seed))
        draw(other, cx, cy, s, np.random.default_rng(seed + 100))
        assert np.array_equal(drawn, again) and not np.array_equal(drawn, other)
        _assert_drawn_in_zone(face, drawn, cx, cy, s)


def test_hands_art_draws_every_kind_in_its_zone() -> None:
    import argparse

    from datasets.commands import _face_style

    style = _face_style(argparse.Namespace(font_file=None, fonts="classic", art="hands"))
    cx, cy, s = FACE_WIDTH / 2, FACE_HEIGHT / 2, 0.26 * FACE_WIDTH
    for i, kind in enumerate(CARD_KINDS):
        face = np.full((FACE_HEIGHT, FACE_WIDTH, 3), (66, 197, 244), np.uint8)
        drawn = face.copy()
        style.illustrations[kind](drawn, cx, cy, s, np.random.default_rng(i))
        _assert_drawn_in_zone(face, drawn, cx, cy, s)


def test_abstract_art_stays_in_its_zone_and_is_seeded() -> None:
    cx, cy, s = FACE_WIDTH / 2, 0.49 * FACE_HEIGHT, 0.26 * FACE_WIDTH
    face = np.full((FACE_HEIGHT, FACE_WIDTH, 3), (66, 197, 244), np.uint8)
    drawn, again, other = face.copy(), face.copy(), face.copy()
    abstract(drawn, cx, cy, s, np.random.default_rng(1))
    abstract(again, cx, cy, s, np.random.default_rng(1))
    abstract(other, cx, cy, s, np.random.default_rng(2))
    assert np.array_equal(drawn, again) and not np.array_equal(drawn, other)
    outside = _outside(face.shape, cx, cy, s)
    assert np.array_equal(drawn[outside], face[outside])
    assert not np.array_equal(drawn, face)


def test_any_rolls_draws_one_to_three_whole_rolls_inside_the_zone() -> None:
    cx, cy = FACE_WIDTH / 2, 0.49 * FACE_HEIGHT
    counts = set()
    for seed in range(60):
        s = (0.26 * FACE_WIDTH * 1.15, 40.0)[seed % 2]
        face = np.full((FACE_HEIGHT, FACE_WIDTH, 3), (128, 128, 128), np.uint8)
        drawn, again = face.copy(), face.copy()
        any_rolls(drawn, cx, cy, s, np.random.default_rng(seed))
        any_rolls(again, cx, cy, s, np.random.default_rng(seed))
        assert np.array_equal(drawn, again)
        outside = _outside(face.shape, cx, cy, s)
        assert np.array_equal(drawn[outside], face[outside])
        # Each roll has one red-orange centre; a roll laid over another may hide its centre.
        b, g, r = (drawn[..., i].astype(int) for i in range(3))
        centres = ((b < 70) & (g > 70) & (g < 110) & (r > 200)).astype(np.uint8)
        counts.add(cv2.connectedComponents(centres)[0] - 1)
    assert {1, 2, 3} <= counts <= {0, 1, 2, 3}


def test_any_of_draws_one_of_its_drawers_picked_by_the_face_s_stream() -> None:
    def fill(value: int) -> Illustrate:
        def draw(img: np.ndarray, cx: float, cy: float, s: float, rng: np.random.Generator) -> None:
            img[int(cy), int(cx)] = value + int(rng.integers(2))

        return draw

    mixed = any_of([fill(10), fill(100)])
    seen = set()
    for seed in range(20):
        img, again = np.zeros((5, 5, 3), np.uint8), np.zeros((5, 5, 3), np.uint8)
        mixed(img, 2, 2, 1, np.random.default_rng(seed))
        mixed(again, 2, 2, 1, np.random.default_rng(seed))
        assert np.array_equal(img, again)
        seen.add(int(img[2, 2, 0]) // 100)
    assert seen == {0, 1}
