"""Dessert: the pudding adjustment after the last round (seed 000)."""

from __future__ import annotations

import pytest

from scoring import InvalidTallyError, PlayerCountError, dessert_points

DESSERT_CASES = [
    # (puddings, points, rule)
    ([3, 1, 0], [6, 0, -6], "one_most_one_fewest"),
    ([5, 3, 1], [6, 0, -6], "middle_scores_nothing"),
    ([1, 0, 2], [0, -6, 6], "fewest_includes_zero"),
    ([4, 4, 1, 1], [3, 3, -3, -3], "two_tied_each_way"),
    # ties for most: +6 split, remainder dropped
    ([3, 3, 0], [3, 3, -6], "two_tied_most"),
    ([2, 2, 2, 0], [2, 2, 2, -6], "three_tied_most"),
    ([2, 2, 2, 2, 0], [1, 1, 1, 1, -6], "four_tied_most_remainder_dropped"),
    ([1, 1, 1, 1, 0], [1, 1, 1, 1, -6], "four_tied_most_one_zero"),
    # ties for fewest: -6 split, remainder dropped toward zero
    ([3, 0, 0], [6, -3, -3], "two_tied_fewest"),
    ([3, 1, 1, 1], [6, -2, -2, -2], "three_tied_fewest"),
    ([3, 0, 0, 0, 0], [6, -1, -1, -1, -1], "four_tied_fewest_lose_1_not_2"),
    ([3, 3, 0, 0, 0], [3, 3, -2, -2, -2], "two_most_three_fewest"),
    ([2, 2, 2, 0, 0], [2, 2, 2, -3, -3], "three_most_two_fewest"),
    # everyone equal: nobody gains or loses
    ([0, 0], [0, 0], "two_equal_at_zero"),
    ([2, 2, 2], [0] * 3, "three_equal"),
    ([1, 1, 1, 1], [0] * 4, "four_equal"),
    ([4, 4, 4, 4, 4], [0] * 5, "five_equal"),
    ([0, 0, 0, 0, 0], [0] * 5, "five_equal_at_zero"),
    # two players: nobody loses
    ([3, 1], [6, 0], "two_players_fewest_loses_nothing"),
    ([0, 2], [0, 6], "two_players_zero_loses_nothing"),
    ([2, 2], [0, 0], "two_players_equal_nothing"),
]


@pytest.mark.parametrize(
    ("puddings", "points"),
    [case[:2] for case in DESSERT_CASES],
    ids=[case[2] for case in DESSERT_CASES],
)
def test_dessert_points(puddings: list[int], points: list[int]) -> None:
    assert dessert_points(puddings) == points


@pytest.mark.parametrize("tied", [2, 3, 4, 5], ids=lambda n: f"{n}_tied_most")
def test_dessert_tied_for_most_split_6(tied: int) -> None:
    others = 5 - tied
    points = dessert_points([4] * tied + [1] * others)
    if others == 0:
        assert points == [0] * 5  # all tied: everyone equal
    else:
        assert points[:tied] == [6 // tied] * tied
        assert points[tied:] == [-(6 // others)] * others


@pytest.mark.parametrize("tied", [2, 3, 4], ids=lambda n: f"{n}_tied_fewest")
def test_dessert_tied_for_fewest_split_minus_6_toward_zero(tied: int) -> None:
    points = dessert_points([0] * tied + [5])
    assert points == [-(6 // tied)] * tied + [6]


@pytest.mark.parametrize("players", [0, 1, 6], ids=lambda n: f"{n}_players")
def test_dessert_needs_two_to_five_players(players: int) -> None:
    with pytest.raises(PlayerCountError):
        dessert_points([1] * players)


@pytest.mark.parametrize("value", [-1, True, 1.5, None], ids=["negative", "bool", "float", "null"])
def test_dessert_refuses_bad_pudding_counts(value: object) -> None:
    with pytest.raises(InvalidTallyError) as caught:
        dessert_points([1, value])  # type: ignore[list-item]
    assert caught.value.key == "pudding" and caught.value.player == 1
