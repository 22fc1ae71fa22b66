"""A neighbour's cards at the photo's edge: at a real table the next player's collection
lies a hand's width or two beside this one, and a photo framed on this one catches some
of it. Photos of the printed deck drawn so (`make_scene(neighbour=True)`: the frame is
this player's collection's, the neighbour's collection beside it, the same way up or a
quarter turn), read as a game's upload reads them (with the player count), and counted
by how many of the neighbour's cards show.

    python -m benchmarks.probe_neighbour [--photos 200] [--size 2016] [--seed 19000]
        [--faces ../shared/decks/original] [--weights DIR] [--alone]
        [--point-out-always] [--turn-anyway] [--sets DIR ...]

With --alone the same is asked of photos with no neighbour beside (a loose card of the
player's own lies apart too: vision.neighbours.APART weighs the two). With
--point-out-always, cards apart at the photo's edge are pointed out in every hand, not
only in one over its size (vision.pipeline.POINT_OUT_APART_ALWAYS); with --turn-anyway,
a photo read turned is kept turned even where the turn lost cards found sure as it came
(vision.pipeline.LOST_AT_LEAST out of reach: the reading before that rule); with --sets, each
set (`sushigo synth` photos without a neighbour) is also read whole, as `sushigo eval`
reads it, for the share of its photos read right that carry a warning.

A card "shows" where a tenth of it or more is in the frame. Seed 19000: no training or
tuning set uses it (19500 chose vision.neighbours' thresholds). Each photo's outcome:
read right, read wrong with a warning the review screen shows, or read wrong without one.
Of the photos read wrong with a warning, those that one swap of the cards left out for
those counted makes right (the review's `swap_left_out`, one tap on the warning). Last,
of the photos where the finder boxed a card of the neighbour's, those where the group
taken as the collection's (vision.neighbours.groups) is mostly the neighbour's.
"""

from __future__ import annotations

import argparse
import dataclasses
from collections import Counter
from pathlib import Path

import numpy as np

from datasets.deck import load_deck
from datasets.scene import Scene, make_scene
from scoring import Tally
from vision import neighbours, pipeline
from vision.boxes import ious
from vision.detections import Detections
from vision.detector import load_detector
from vision.notices import warns
from vision.photo import Photo, load_photo
from vision.pipeline import look_at, review_detections
from vision.reading import read_tally
from vision.training.evaluate import evaluate

SHOWS = 0.1  # of a card's area in the frame


def neighbours_shown(scene: Scene) -> int:
    """How many of the neighbour's cards show in the photo (SHOWS of them or more)."""
    height, width = scene.image.shape[:2]
    shown = 0
    for card in scene.cards:
        if not card.neighbour:
            continue
        quad = card.quad.astype(np.float64)
        area = _area(quad)
        inside = _area(_clipped(quad, width, height))
        shown += area > 0 and inside >= SHOWS * area
    return shown


def collection_taken_wrong(scene: Scene, seen: Photo, found: Detections) -> bool | None:
    """Whether the group of boxes the detector `found` in `seen` (look_at's) taken as
    the collection's is mostly the neighbour's cards; None where no box is a neighbour's
    card (a box is the card it overlaps most, at an IoU over 0.3)."""
    if seen.turn or not len(found):
        return None  # boxes of a turned photo are not in the scene's pixels
    truth = np.array([card.box for card in scene.cards], np.float32)
    theirs = np.zeros(len(found), bool)
    for i, box in enumerate(found.xyxy):
        overlap = ious(box, truth)
        best = int(overlap.argmax())
        theirs[i] = overlap[best] > 0.3 and scene.cards[best].neighbour
    if not theirs.any():
        return None
    group = neighbours.groups(found.xyxy, seen.original_size)
    return bool(theirs[group == 0].mean() > 0.5)


def swap_makes_right(detections: Detections, truth: Tally) -> bool:
    """Whether counting the boxes left out and leaving out the rest (the review's
    swap_left_out: the reading took the neighbour's collection for this one) reads
    `truth`. Only where some box was left out: else the review offers no swap."""
    left_out = detections.is_left_out
    if not left_out.any():
        return False
    return read_tally(dataclasses.replace(detections, left_out=~left_out)).tally == truth


def _area(polygon: np.ndarray) -> float:
    if len(polygon) < 3:
        return 0.0
    x, y = polygon[:, 0], polygon[:, 1]
    return float(abs(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1))) / 2)


def _clipped(polygon: np.ndarray, width: int, height: int) -> np.ndarray:
    """The polygon clipped to the frame (Sutherland-Hodgman, one side at a time)."""
    sides = ((0, 0.0, 1), (0, float(width), -1), (1, 0.0, 1), (1, float(height), -1))
    points = list(polygon)
    for axis, edge, sign in sides:
        kept: list[np.ndarray] = []
        for i, point in enumerate(points):
            before = points[i - 1]
            inside, was_inside = (p[axis] * sign >= edge * sign for p in (point, before))
            if inside != was_inside:
                t = (edge - before[axis]) / (point[axis] - before[axis])
                kept.append(before + t * (point - before))
            if inside:
                kept.append(point)
        points = kept
        if not points:
            return np.zeros((0, 2))
    return np.array(points)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=200)
    parser.add_argument("--size", type=int, default=2016)
    parser.add_argument("--seed", type=int, default=19_000)
    parser.add_argument("--faces", type=Path, default=Path("../shared/decks/original"))
    parser.add_argument("--weights", type=Path, default=None)
    parser.add_argument("--alone", action="store_true", help="no neighbour beside")
    parser.add_argument("--point-out-always", action="store_true")
    parser.add_argument("--turn-anyway", action="store_true")
    parser.add_argument("--sets", type=Path, nargs="*", default=[])
    args = parser.parse_args()
    pipeline.POINT_OUT_APART_ALWAYS = args.point_out_always
    if args.turn_anyway:
        pipeline.LOST_AT_LEAST = 10**9
    deck = load_deck(args.faces)
    detector = load_detector(args.weights)
    rng = np.random.default_rng(args.seed)
    outcomes: dict[str, Counter[str]] = {}
    taken: list[bool] = []
    split = 0  # photos whose boxes fall into more than one group
    swapped = 0  # photos read wrong that the review's swap_left_out makes right
    for _ in range(args.photos):
        scene = make_scene(rng, deck, size=args.size, neighbour=not args.alone)
        shown = neighbours_shown(scene)
        group = "none" if shown == 0 else "1-2" if shown <= 2 else "3 or more"
        photo = load_photo(scene.jpeg)
        # Detected once, read as read_photo reads it, which it is where the photo came
        # with no EXIF turn, as a scene's JPEG does.
        assert not photo.turn, "a scene's JPEG carries no EXIF orientation"
        seen, found, told = look_at(photo, detector)
        players = scene.collection.players
        settled = review_detections(seen, found, players, detector, told)
        reading, truth = settled.reading, Tally.from_mapping(scene.tally())
        if reading.tally == truth:
            outcome = "right"
        elif any(map(warns, reading.remarks)):
            outcome = "wrong, warned"
            swapped += swap_makes_right(settled.detections, truth)
        else:
            outcome = "wrong, unwarned"
        outcomes.setdefault(group, Counter())[outcome] += 1
        split += bool(len(neighbours.apart(reading.detections.xyxy, photo.original_size)))
        wrong = collection_taken_wrong(scene, seen, found)
        if wrong is not None:
            taken.append(wrong)
    beside = "alone" if args.alone else "a neighbour beside"
    print(
        f"{args.photos} photos at {args.size} px, seed {args.seed}, {beside}, with the player count"
    )
    heads = ("neighbour cards shown", "photos", "right", "wrong, warned", "unwarned")
    print(f"{heads[0]:<22} {heads[1]:>6} {heads[2]:>6} {heads[3]:>14} {heads[4]:>9}")
    for group in ("none", "1-2", "3 or more", "all"):
        counts = (
            sum(outcomes.values(), Counter()) if group == "all" else outcomes.get(group, Counter())
        )
        total = sum(counts.values())
        if not total:
            continue
        print(
            f"{group:<22} {total:>6} {counts['right']:>6} {counts['wrong, warned']:>14} "
            f"{counts['wrong, unwarned']:>9}"
        )
    print(f"photos whose boxes, as read, lie in more than one group: {split}")
    print(
        f"photos read wrong, warned, that one swap of the cards left out for those counted "
        f"makes right (the review's swap_left_out): {swapped}"
    )
    print(
        f"photos where a neighbour's card was boxed: {len(taken)}; the collection taken "
        f"as the neighbour's group: {sum(taken)}"
    )
    for folder in args.sets:
        right = [r for r in evaluate(folder, detector, split="all").photos if r.exact]
        warned = sum(r.warned for r in right)
        print(f"{folder}: {warned} of the {len(right)} photos read right carry a warning")


if __name__ == "__main__":
    main()
