"""Every scene's labels are exact and say what the photo shows: the tally recomputed from
the labels is the dealt one, every box lies in the image around a visible part of its card,
covered cards show their top strip, and stacks pair only a nigiri with the wasabi under it."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from datasets.faces import FacePool
from datasets.scene import MIN_VISIBLE, SLIVER, Scene, SceneCard, make_scene
from datasets.table import PRINTED_CLOTHS, SURFACES, surface
from scoring.cards import CARD_KINDS, NIGIRI

# A label box spans at least this share of its whole card's area. The layouts leave at
# least ~13 % of a card showing (a wasabi under a nigiri shifted down 15 %, less jitter);
# measured over 300 scenes the smallest box was 26 % of its card.
MIN_BOX_SHARE = 0.12
TOP_STRIP = 0.15  # the top share of a card that must show when another card covers it


def _mask(shape: tuple[int, int], quad: np.ndarray) -> np.ndarray:
    mask = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round(quad * 16).astype(np.int32), 1, cv2.LINE_8, shift=4)
    return mask


def _band(quad: np.ndarray, depth: float) -> np.ndarray:
    """The top `depth` share of a card: TL, TR and the points `depth` down both sides."""
    tl, tr, br, bl = quad
    return np.array([tl, tr, tr + depth * (br - tr), tl + depth * (bl - tl)])


def _area(quad: np.ndarray) -> float:
    return float(cv2.contourArea(quad.astype(np.float32)))


def test_the_fixture_covers_every_layout_and_player_count(scenes: list[Scene]) -> None:
    assert {s.meta["style"] for s in scenes} == {"rows", "columns", "mixed", "loose"}
    assert {s.collection.players for s in scenes} == {2, 3, 4, 5}
    assert any(c.on_wasabi is not None for s in scenes for c in s.cards), "no stack at all"


def test_tally_from_labels_is_the_dealt_tally(scenes: list[Scene]) -> None:
    for scene in scenes:
        assert scene.tally() == scene.collection.tally()


def test_one_label_per_card_and_a_hand_size_of_cards(scenes: list[Scene]) -> None:
    for scene in scenes:
        assert scene.collection.cards == scene.collection.hand_size
        assert len(scene.cards) == scene.collection.hand_size
        dealt = sorted(k for pile in scene.collection.piles for k in pile.cards)
        assert sorted(c.kind for c in scene.cards) == dealt
        assert all(c.kind in CARD_KINDS for c in scene.cards)


def test_every_box_lies_in_the_image_and_inside_its_card(scenes: list[Scene]) -> None:
    for scene in scenes:
        h, w = scene.image.shape[:2]
        for card in scene.cards:
            x1, y1, x2, y2 = card.box
            assert 0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h, card.box
            # The box bounds visible pixels of this card, so it lies within the card's quad
            # bounds: two pixels either way, since bilinear warping of the face's own
            # anti-aliased edge spreads alpha > 0.5 about one pixel past the quad, and a
            # box ends one past its last pixel.
            lo, hi = card.quad.min(axis=0), card.quad.max(axis=0)
            assert x1 >= lo[0] - 2 and y1 >= lo[1] - 2, (card.box, card.quad)
            assert x2 <= hi[0] + 2 and y2 <= hi[1] + 2, (card.box, card.quad)
            # Whole cards are in the frame.
            assert (card.quad >= -0.5).all() and (card.quad[:, 0] <= w + 0.5).all()
            assert (card.quad[:, 1] <= h + 0.5).all()


def test_every_card_keeps_a_visible_share_and_a_box_of_useful_size(scenes: list[Scene]) -> None:
    for scene in scenes:
        for card in scene.cards:
            assert card.visible > MIN_VISIBLE, (scene.meta, card.kind, card.visible)
            x1, y1, x2, y2 = card.box
            share = (x2 - x1) * (y2 - y1) / _area(card.quad)
            assert share >= MIN_BOX_SHARE, (scene.meta, card.kind, share)


def _covered_by_a_later_pile(scene: Scene, index: int) -> bool:
    card = scene.cards[index]
    shape = scene.image.shape[:2]
    mine = _mask(shape, card.quad)
    for later in scene.cards[index + 1 :]:
        if later.pile != card.pile and (mine & _mask(shape, later.quad)).sum() > 0.02 * mine.sum():
            return True
    return False


def _top_showing(scene: Scene, index: int, depth: float) -> float:
    """The share of the card's top `depth` that no later card lies over."""
    shape = scene.image.shape[:2]
    band = _mask(shape, _band(scene.cards[index].quad, depth))
    total = band.sum()
    for later in scene.cards[index + 1 :]:
        band &= 1 - _mask(shape, later.quad)
    return float(band.sum()) / max(1, total)


def _box_holds(card: SceneCard, points: np.ndarray, tolerance: float = 1.5) -> bool:
    x1, y1, x2, y2 = card.box
    return bool(
        (points[:, 0] >= x1 - tolerance).all()
        and (points[:, 0] <= x2 + tolerance).all()
        and (points[:, 1] >= y1 - tolerance).all()
        and (points[:, 1] <= y2 + tolerance).all()
    )


def test_column_covered_cards_show_their_top_strip(scenes: list[Scene]) -> None:
    checked = 0
    for scene in (s for s in scenes if s.meta["style"] == "columns"):
        under_a_nigiri = {c.on_wasabi for c in scene.cards if c.on_wasabi is not None}
        for i, card in enumerate(scene.cards):
            if i in under_a_nigiri or not _covered_by_a_later_pile(scene, i):
                continue
            checked += 1
            # The box drops slivers thinner than datasets.scene.SLIVER of a card, which trims
            # the tip of a turned card's corner by up to half that.
            height = float(np.linalg.norm(card.quad[3] - card.quad[0]))
            tolerance = 1.5 + SLIVER / 2 * height
            assert _box_holds(card, _band(card.quad, TOP_STRIP), tolerance), (
                scene.meta,
                card.kind,
                card.box,
            )
            assert _top_showing(scene, i, TOP_STRIP) > 0.97, (scene.meta, card.kind)
    assert checked >= 20, "too few covered column cards to say anything"


def test_a_wasabi_under_a_nigiri_shows_its_top(scenes: list[Scene]) -> None:
    """card-spec.md: shifted by 15-35 % of a card (down, or sideways), less a little jitter."""
    shown = {False: 0, True: 0}  # stacks by whether the wasabi shows on the nigiri's right
    for scene in scenes:
        for card in scene.cards:
            if card.on_wasabi is None:
                continue
            wasabi = scene.cards[card.on_wasabi]
            assert wasabi.visible > 0.1, (scene.meta, wasabi.visible)
            # Whichever way it was shifted, a top corner of the wasabi shows: the left one,
            # or the right one when the nigiri went left (up to the tip the box's sliver
            # trimming takes off a turned corner).
            height = float(np.linalg.norm(wasabi.quad[3] - wasabi.quad[0]))
            tolerance = 1.5 + SLIVER / 2 * height
            across = wasabi.quad[1] - wasabi.quad[0]
            shift = float((card.quad.mean(0) - wasabi.quad.mean(0)) @ across) / float(
                across @ across
            )
            on_the_right = shift < -0.1  # the nigiri went left by more than jitter
            corner = wasabi.quad[1:2] if on_the_right else wasabi.quad[:1]
            assert _box_holds(wasabi, corner, tolerance), (scene.meta, wasabi.box)
            shown[on_the_right] += 1
    assert shown[True] >= 1, "no stack with its wasabi on the nigiri's right"


def test_stacks_pair_one_nigiri_with_an_earlier_wasabi_of_its_pile(scenes: list[Scene]) -> None:
    for scene in scenes:
        seen: set[int] = set()
        for i, card in enumerate(scene.cards):
            if card.on_wasabi is None:
                continue
            under = scene.cards[card.on_wasabi]
            assert card.kind in NIGIRI
            assert under.kind == "wasabi"
            assert card.on_wasabi < i, "the wasabi is drawn before (under) its nigiri"
            assert under.pile == card.pile and under.on_wasabi is None
            assert card.on_wasabi not in seen, "one nigiri per wasabi"
            seen.add(card.on_wasabi)
        assert len(seen) == sum(p.is_stack for p in scene.collection.piles)


@pytest.mark.parametrize("style", ["rows", "columns", "mixed", "loose"])
def test_a_plain_nigiri_never_lies_over_a_wasabi(scenes: list[Scene], style: str) -> None:
    """card-spec.md: stacking is the only way a nigiri overlaps a wasabi. Counted over the
    part of the wasabi its own nigiri (if any) leaves open; 2 % of a card is a corner."""
    for scene in (s for s in scenes if s.meta["style"] == style):
        shape = scene.image.shape[:2]
        for j, wasabi in enumerate(scene.cards):
            if wasabi.kind != "wasabi":
                continue
            open_part = _mask(shape, wasabi.quad)
            for card in scene.cards:
                if card.on_wasabi == j:
                    open_part &= 1 - _mask(shape, card.quad)
            for card in scene.cards[j + 1 :]:
                if card.kind in NIGIRI and card.on_wasabi is None:
                    overlap = (open_part & _mask(shape, card.quad)).sum()
                    assert overlap <= 0.02 * _area(wasabi.quad), (scene.meta, card.kind)


def test_the_image_is_the_jpeg_as_decoded(scenes: list[Scene]) -> None:
    """Labels are made for the pixels a reader of the JPEG sees, not the pre-JPEG render."""
    for scene in scenes[:8]:
        assert scene.image.dtype == np.uint8 and scene.image.ndim == 3
        assert scene.jpeg[:2] == b"\xff\xd8"
        decoded = cv2.imdecode(np.frombuffer(scene.jpeg, np.uint8), cv2.IMREAD_COLOR)
        assert decoded is not None and np.array_equal(decoded, scene.image)


@pytest.mark.parametrize("kind", PRINTED_CLOTHS)
def test_a_printed_tablecloth_is_a_pattern_of_ink_on_a_light_ground(kind: str) -> None:
    """datasets/table.py: stripes, gingham and dots, sized in mm whatever the texture's
    resolution, drawn only where asked (make_scene's `tables`)."""
    for ppm in (1.0, 3.0):
        cloth = surface(np.random.default_rng(8), 600, 800, kind, ppm).astype(np.float32)
        light = cloth.mean(2) > 170
        assert 0.15 < light.mean() < 0.95, (kind, ppm, light.mean())  # both ink and ground
        # A pattern, not noise: it repeats within a few centimetres along a row or column.
        rows, columns = np.abs(np.diff(light, axis=1)).mean(), np.abs(np.diff(light, axis=0)).mean()
        assert max(rows, columns) > 0.5 / (40 * ppm), (kind, ppm, rows, columns)
    again = surface(np.random.default_rng(8), 600, 800, kind, 2.0)
    np.testing.assert_array_equal(again, surface(np.random.default_rng(8), 600, 800, kind, 2.0))


def test_scenes_on_printed_cloths_are_drawn_only_where_asked(pool: FacePool) -> None:
    plain = make_scene(np.random.default_rng(77), pool, size=320)
    printed = make_scene(np.random.default_rng(77), pool, size=320, tables=("stripes",))
    assert printed.tally() == plain.tally()  # the same collection, on another table
    assert not np.array_equal(printed.image, plain.image)
    assert PRINTED_CLOTHS[0] not in SURFACES


def test_a_neighbours_cards_show_at_the_edge_and_count_for_nobody_here(pool: FacePool) -> None:
    """make_scene(neighbour=True), for benchmarks/probe_neighbour.py: the next player's
    collection lies beside this one, its cards flagged and left out of this tally; the
    frame is still this collection's, every card of it in view as without a neighbour."""
    shown = 0
    for seed in range(10):
        scene = make_scene(np.random.default_rng([43, seed]), pool, size=480, neighbour=True)
        own = [c for c in scene.cards if not c.neighbour]
        theirs = [c for c in scene.cards if c.neighbour]
        hand = scene.collection.hand_size
        assert len(own) == hand and len(theirs) == hand  # the same player count
        assert scene.cards[:hand] == own  # the neighbour's come last, on top of nothing here
        assert scene.tally() == scene.collection.tally()
        height, width = scene.image.shape[:2]
        for card in own:
            x1, y1, x2, y2 = card.box
            assert 0 <= x1 < x2 <= width and 0 <= y1 < y2 <= height, card.box
        for card in theirs:  # a neighbour's stack pairs within the neighbour's cards
            assert card.on_wasabi is None or scene.cards[card.on_wasabi].neighbour
        shown += sum((c.box[2] - c.box[0]) * (c.box[3] - c.box[1]) > 0 for c in theirs)
    assert shown > 0, "no neighbour's card in any frame"


def test_a_neighbour_changes_nothing_of_this_players_collection(pool: FacePool) -> None:
    """The neighbour is drawn after this player's collection and its layout: the same seed
    deals and lays out the same cards, with or without one."""
    alone = make_scene(np.random.default_rng(78), pool, size=320)
    beside = make_scene(np.random.default_rng(78), pool, size=320, neighbour=True)
    assert beside.collection == alone.collection
    own = [c for c in beside.cards if not c.neighbour]
    assert [(c.kind, c.pile, c.on_wasabi) for c in own] == [
        (c.kind, c.pile, c.on_wasabi) for c in alone.cards
    ]
