"""Dessert: the pudding adjustment after the last round (seed 000)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from scoring.rules import check_players
from scoring.tally import tally_count

PUDDING_MOST_POINTS: Final = 6
PUDDING_FEWEST_PENALTY: Final = 6


def _split(points: int, ways: int) -> int:
    """`points` shared `ways` ways, the remainder dropped toward zero (-6 / 4 is -1)."""
    share = abs(points) // ways
    return share if points >= 0 else -share


def dessert_points(puddings: Sequence[int]) -> list[int]:
    """The pudding adjustment for each player's pudding count over the game, in order.

    Most puddings: +6 split among the tied. Fewest (zero included): -6 split among the
    tied. Remainders are dropped toward zero, so four tied for fewest lose 1 each. If
    everyone has the same count nobody gains or loses; with two players nobody loses.
    """
    counts = [tally_count("pudding", value, player=i) for i, value in enumerate(puddings)]
    check_players(len(counts))
    most, fewest = max(counts), min(counts)
    if most == fewest:
        return [0] * len(counts)
    leaders = counts.count(most)
    trailers = counts.count(fewest)
    points = []
    for count in counts:
        if count == most:
            points.append(_split(PUDDING_MOST_POINTS, leaders))
        elif count == fewest and len(counts) > 2:
            points.append(_split(-PUDDING_FEWEST_PENALTY, trailers))
        else:
            points.append(0)
    return points
