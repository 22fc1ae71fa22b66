"""Another player's cards caught in the photo: at a real table the next collection lies a
hand's width or two beside this one, and a photo framed on this one often takes in some
of it. Such cards lie apart from the collection: the boxes fall into groups, and every
group but the collection's (the one the photo is framed on) is a neighbour's candidate.

Pure geometry on boxes; vision.pipeline decides what a candidate group does to a reading
(benchmarks/probe_neighbour.py measures it).
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

# Boxes closer than this share of a card's size (the boxes' median long side) are of one
# group. A collection's own cards lie a few millimetres apart (its columns, its rows) or,
# laid loose, up to about a card; a neighbour's half a card to a few cards away. Chosen on
# photos no report uses: `benchmarks/probe_neighbour.py --seed 19500` (a neighbour beside)
# and `--alone --seed 19700` (none), where a larger share joins more neighbours to the
# collection and a smaller one splits more collections.
APART = 0.75
# A group this close to the photo's edge (a share of its long side) runs out of the frame,
# as a neighbour's does (a loose card of the player's own lies apart too, mid-frame): only
# such a group is left out where a closer look also makes the hand right, and pointed out
# in a hand still over (vision.pipeline.settle).
EDGE = 0.01
MOST_GROUPS = 4  # the groups tried together to make a hand right
# A hand over its size that no group apart makes right is tried with groups closer
# together: a neighbour's cards half a card or less from the collection join it at APART.
CLOSER_SHARES = (0.5, 0.3)


def groups(xyxy: np.ndarray, size: tuple[int, int], share: float = APART) -> np.ndarray:
    """A group number for each box (N, 4) of a photo of `size` (width, height): boxes
    within `share` of a card's size of each other, directly or through others, share one.
    0 is the collection's: the photo is framed on it, so it is the group that stays off
    the photo's edge, nearest the photo's middle (then the one with the most cards). On
    seed 19500 the group so taken is mostly the neighbour's on 5 of the 44 photos where a
    neighbour's card was boxed (benchmarks/probe_neighbour.py)."""
    n = len(xyxy)
    if not n:
        return np.zeros(0, np.int64)
    card = float(np.median(np.maximum(xyxy[:, 2] - xyxy[:, 0], xyxy[:, 3] - xyxy[:, 1])))
    near = _gaps(xyxy) <= share * card
    group = np.full(n, -1, np.int64)
    count = 0
    for start in range(n):
        if group[start] >= 0:
            continue
        group[start] = count
        todo = [start]
        while todo:
            box = todo.pop()
            joined = np.flatnonzero(near[box] & (group < 0))
            group[joined] = count
            todo.extend(joined.tolist())
        count += 1
    sizes = np.bincount(group)
    middle = np.array(size, np.float64) / 2

    def framed(g: int) -> tuple[bool, float, int]:
        boxes = xyxy[group == g]
        nearest = np.clip(middle, boxes[:, :2].min(0), boxes[:, 2:].max(0))
        return at_the_edge(boxes, size), float(np.linalg.norm(nearest - middle)), -sizes[g]

    order = sorted(range(count), key=framed)
    renumber = np.empty(count, np.int64)
    renumber[order] = np.arange(count)
    return renumber[group]


def at_the_edge(xyxy: np.ndarray, size: tuple[int, int]) -> bool:
    """Whether any of these boxes reaches within EDGE of the photo's (width, height) edge."""
    width, height = size
    margin = EDGE * max(width, height)
    return bool(
        xyxy[:, 0].min() <= margin
        or xyxy[:, 1].min() <= margin
        or xyxy[:, 2].max() >= width - margin
        or xyxy[:, 3].max() >= height - margin
    )


def apart(xyxy: np.ndarray, size: tuple[int, int], share: float = APART) -> list[np.ndarray]:
    """The indices of each group of boxes apart from the collection's (`groups`)."""
    group = groups(xyxy, size, share)
    return [np.flatnonzero(group == g) for g in range(1, int(group.max(initial=0)) + 1)]


def choices(xyxy: np.ndarray, size: tuple[int, int]) -> list[np.ndarray]:
    """The sets of boxes that might be a neighbour's, as a hand over its size tries them:
    one group apart, then two together, ..., up to MOST_GROUPS (fewest cards first within
    each); then the same with the groups of each of CLOSER_SHARES in turn."""
    tried: list[np.ndarray] = []
    seen: set[tuple[int, ...]] = set()
    for share in (APART, *CLOSER_SHARES):
        found = apart(xyxy, size, share)[:MOST_GROUPS]
        for many in range(1, len(found) + 1):
            sets = [np.sort(np.concatenate(chosen)) for chosen in combinations(found, many)]
            for boxes in sorted(sets, key=len):
                if tuple(boxes) not in seen:
                    seen.add(tuple(boxes))
                    tried.append(boxes)
    return tried


def _gaps(xyxy: np.ndarray) -> np.ndarray:
    """(N, N): the distance between each pair of boxes (0 where they touch or overlap)."""
    dx = np.maximum(
        0.0,
        np.maximum(xyxy[None, :, 0] - xyxy[:, None, 2], xyxy[:, None, 0] - xyxy[None, :, 2]),
    )
    dy = np.maximum(
        0.0,
        np.maximum(xyxy[None, :, 1] - xyxy[:, None, 3], xyxy[:, None, 1] - xyxy[None, :, 3]),
    )
    return np.hypot(dx, dy)
