"""The independent photo renderer (datasets/other_scene.py): labels that agree with the
collection and the pixels, card-spec's stacking and overlap rules, determinism, and the
held-out sets `sushigo synth --scene other` writes."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from api.cli import main
from datasets.faces import FacePool
from datasets.other_scene import BANNER, make_other_scene
from datasets.scene import Scene, SceneCard
from datasets.synth import face_pool, generate, scene_rng
from datasets.yolo_format import read_split, refuse_for_training
from scoring.cards import NIGIRI

UNIT = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
BANNER_QUAD = np.array([[0, 0], [1, 0], [1, BANNER], [0, BANNER]], np.float32)


@pytest.fixture(scope="module")
def other_scenes(pool: FacePool) -> list[Scene]:
    """Twelve small photos, every player count; seed 90 deals several stacks among them."""
    return [
        make_other_scene(
            np.random.default_rng([90, i]), pool, size=(480, 640)[i % 2], players=2 + i % 4
        )
        for i in range(12)
    ]


def _in_card_frame(card: SceneCard, pts: np.ndarray) -> np.ndarray:
    """Image points in `card`'s own frame: (0, 0) its top-left corner, (1, 1) bottom-right."""
    m = cv2.getPerspectiveTransform(card.quad.astype(np.float32), UNIT)
    return cv2.perspectiveTransform(pts.reshape(-1, 1, 2).astype(np.float64), m).reshape(-1, 2)


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    area, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return float(area)


def _stacks(scenes: list[Scene]) -> list[tuple[SceneCard, SceneCard]]:
    return [
        (scene.cards[card.on_wasabi], card)
        for scene in scenes
        for card in scene.cards
        if card.on_wasabi is not None
    ]


def test_the_labels_tally_to_the_collection(other_scenes: list[Scene]) -> None:
    for scene in other_scenes:
        assert scene.tally() == scene.collection.tally(), scene.meta
        assert len(scene.cards) == scene.collection.hand_size
        piles = {card.pile for card in scene.cards}
        assert piles == set(range(len(scene.collection.piles)))


def test_photos_have_a_phone_shape_and_decode_from_their_jpeg(
    other_scenes: list[Scene],
) -> None:
    for scene in other_scenes:
        h, w = scene.image.shape[:2]
        assert max(h, w) in (480, 640)
        assert round(max(h, w) / min(h, w), 2) in (1.33, 1.78)
        decoded = cv2.imdecode(np.frombuffer(scene.jpeg, np.uint8), cv2.IMREAD_COLOR)
        assert decoded is not None and np.array_equal(decoded, scene.image)
        json.dumps(scene.meta)  # written into each image's tally JSON
        assert scene.meta["style"] in ("rows", "columns", "loose", "mixed")
        assert 0 <= scene.meta["tilt"] <= 45
        for thing in scene.meta["clutter"]:
            x1, y1, x2, y2 = thing["box"]
            assert 0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h, thing
    assert any(scene.meta["clutter"] for scene in other_scenes)


def test_every_box_is_inside_the_image_and_within_its_card(other_scenes: list[Scene]) -> None:
    for scene in other_scenes:
        h, w = scene.image.shape[:2]
        for card in scene.cards:
            x1, y1, x2, y2 = card.box
            assert 0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h, (card, scene.meta)
            lo, hi = card.quad.min(axis=0), card.quad.max(axis=0)
            assert x1 >= lo[0] - 2 and y1 >= lo[1] - 2 and x2 <= hi[0] + 2 and y2 <= hi[1] + 2
            assert 0 < card.visible <= 1
            if card.visible > 0.99:
                # Nothing on top: the visible box is the whole card's.
                assert np.allclose(card.box, [*lo, *hi], atol=3), (card.box, card.quad)


def test_cards_lie_face_up_not_mirrored(other_scenes: list[Scene]) -> None:
    for scene in other_scenes:
        for card in scene.cards:
            q = card.quad
            # TL -> TR -> BR -> BL turns clockwise on screen (y down) for an unmirrored card.
            right, down = q[1] - q[0], q[3] - q[0]
            assert right[0] * down[1] - right[1] * down[0] > 0, card


def test_the_far_side_of_the_table_is_at_the_top_of_the_photo(
    other_scenes: list[Scene],
) -> None:
    """A phone tilted over the table sees the far cards smaller and higher in the picture."""
    tilted = [s for s in other_scenes if s.meta["tilt"] > 20]
    assert len(tilted) >= 3
    for scene in tilted:
        heights = np.array([c.quad[:, 1].mean() for c in scene.cards])
        areas = np.array([cv2.contourArea(c.quad.astype(np.float32)) for c in scene.cards])
        assert np.corrcoef(heights, areas)[0, 1] > 0.5, scene.meta


def test_a_stacked_nigiri_is_shifted_as_card_spec_says(other_scenes: list[Scene]) -> None:
    stacks = _stacks(other_scenes)
    assert len(stacks) >= 2, "the seed should deal a few stacks"
    for wasabi, nigiri in stacks:
        assert wasabi.kind == "wasabi" and nigiri.kind in NIGIRI
        assert wasabi.pile == nigiri.pile
        dx, dy = _in_card_frame(wasabi, nigiri.quad).mean(axis=0) - 0.5
        down = 0.14 <= dy <= 0.36 and abs(dx) <= 0.08
        sideways = 0.14 <= abs(dx) <= 0.36 and -0.02 <= dy <= 0.12
        assert down or sideways, (dx, dy)
        # The wasabi's banner still shows beside or above its nigiri.
        covered = _overlap(BANNER_QUAD, _in_card_frame(wasabi, nigiri.quad))
        assert covered / BANNER < 0.85, covered / BANNER
        assert wasabi.visible > 0.1


def test_no_plain_nigiri_lies_on_a_wasabi(other_scenes: list[Scene]) -> None:
    for scene in other_scenes:
        for i, under in enumerate(scene.cards):
            if under.kind != "wasabi":
                continue
            for card in scene.cards:
                if card.kind in NIGIRI and card.on_wasabi != i:
                    assert _overlap(under.quad, card.quad) < 1.0, scene.meta


def test_every_banner_shows(other_scenes: list[Scene]) -> None:
    """Cards are listed bottom first: nothing drawn later covers a card's banner, but for a
    stack's nigiri, which leaves part of it (checked above)."""
    for scene in other_scenes:
        for i, card in enumerate(scene.cards):
            banner = cv2.perspectiveTransform(
                BANNER_QUAD.reshape(-1, 1, 2),
                cv2.getPerspectiveTransform(UNIT, card.quad.astype(np.float32)),
            ).reshape(-1, 2)
            area = cv2.contourArea(banner.astype(np.float32))
            for later in scene.cards[i + 1 :]:
                if later.on_wasabi == i:
                    continue
                assert _overlap(banner, later.quad) <= 0.03 * area, (card.kind, scene.meta)


def test_the_same_seed_gives_the_same_photo(pool: FacePool) -> None:
    a, b, c = (make_other_scene(np.random.default_rng(seed), pool, size=400) for seed in (5, 5, 6))
    assert a.jpeg == b.jpeg and a.meta == b.meta
    assert [x.box for x in a.cards] == [x.box for x in b.cards]
    assert a.jpeg != c.jpeg


def test_generate_draws_the_named_renderer(faces_dir: Path) -> None:
    pool = face_pool(4, faces_dir, mix_rendered=False)
    made = dict(generate(4, 1, 320, workers=1, faces_dir=faces_dir, mix_rendered=False))
    assert made[0].meta.get("renderer") != "other"
    other = dict(
        generate(4, 1, 320, workers=1, faces_dir=faces_dir, mix_rendered=False, scene="other")
    )
    assert other[0].jpeg == make_other_scene(scene_rng(4, 0), pool, size=320).jpeg
    with pytest.raises(ValueError, match="unknown scene renderer"):
        list(generate(4, 1, 320, workers=1, scene="elsewhere"))


def test_synth_scene_other_writes_a_held_out_set(
    tmp_path: Path, faces_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "other"
    argv = ["synth", "--out", str(out), "--images", "3", "--seed", "1", "--size", "320"]
    argv += ["--faces", str(faces_dir), "--workers", "1", "--scene", "other"]
    assert main(argv) == 0
    assert "wrote 3 images" in capsys.readouterr().out
    assert "--scene other" in (out / "data.yaml").read_text()
    items = read_split(out, "train") + read_split(out, "val") + read_split(out, "test")
    assert len(items) == 3
    for item in items:
        assert item.truth["meta"]["renderer"] == "other"
        assert len(item.boxes) == item.truth["hand_size"]
    with pytest.raises(ValueError, match="held-out test set"):
        refuse_for_training(out)
    for stage in ("all", "detector"):
        assert main(["train", "--data", str(out), "--stage", stage]) == 2
        err = capsys.readouterr().err
        assert "is a held-out test set" in err and "--scene other" in err
