"""Invariants of the rules engine, checked with hypothesis."""

from __future__ import annotations

import dataclasses
import random

from hypothesis import given
from hypothesis import strategies as st

from scoring import (
    Tally,
    check_game,
    check_round,
    dessert_points,
    maki_points,
    score_game,
    score_round,
)
from scoring.errors import ScoringError
from scoring.validation import validate_round
from tests.scoring.strategies import dealt_games, tables, tallies

icon_lists = st.lists(st.integers(0, 12), min_size=2, max_size=5)
pudding_lists = st.lists(st.integers(0, 10), min_size=2, max_size=5)


@given(tables(), st.randoms(use_true_random=False))
def test_permuting_players_permutes_round_scores(table: list[Tally], rng: random.Random) -> None:
    order = list(range(len(table)))
    rng.shuffle(order)
    scores = score_round(table, validate=False)
    permuted = score_round([table[i] for i in order], validate=False)
    assert permuted == [scores[i] for i in order]


@given(pudding_lists, st.permutations(range(5)))
def test_permuting_players_permutes_dessert(puddings: list[int], perm: list[int]) -> None:
    order = [i for i in perm if i < len(puddings)]
    points = dessert_points(puddings)
    assert dessert_points([puddings[i] for i in order]) == [points[i] for i in order]


@given(tables())
def test_round_scores_are_never_negative(table: list[Tally]) -> None:
    for score in score_round(table, validate=False):
        assert score.total >= 0
        assert all(points >= 0 for points in score.breakdown.values())
        assert score.total == sum(score.breakdown.values())


@given(tables(), st.data())
def test_adding_a_tempura_never_lowers_that_players_score(
    table: list[Tally], data: st.DataObject
) -> None:
    player = data.draw(st.integers(0, len(table) - 1))
    before = score_round(table, validate=False)[player].total
    more = list(table)
    more[player] = dataclasses.replace(table[player], tempura=table[player].tempura + 1)
    assert score_round(more, validate=False)[player].total >= before


@given(icon_lists, st.data())
def test_more_maki_icons_never_lower_that_players_maki_points(
    icons: list[int], data: st.DataObject
) -> None:
    player = data.draw(st.integers(0, len(icons) - 1))
    extra = data.draw(st.integers(1, 6))
    more = list(icons)
    more[player] += extra
    assert maki_points(more)[player] >= maki_points(icons)[player]


@given(icon_lists)
def test_maki_awards_at_most_6_plus_3_and_only_with_icons(icons: list[int]) -> None:
    awards = maki_points(icons)
    assert sum(awards) <= 9
    assert all(a == 0 for a, n in zip(awards, icons, strict=True) if n == 0)
    if any(icons):
        assert max(awards) > 0
    top = max(icons)
    assert all(a <= awards[icons.index(top)] for a in awards)


@given(st.lists(st.integers(0, 10), min_size=3, max_size=5))
def test_dessert_sums_to_zero_with_one_most_and_one_fewest(puddings: list[int]) -> None:
    most, fewest = max(puddings), min(puddings)
    points = dessert_points(puddings)
    if puddings.count(most) == 1 and puddings.count(fewest) == 1:
        assert sum(points) == 0
        assert sorted(points) == [-6] + [0] * (len(puddings) - 2) + [6]


@given(pudding_lists)
def test_dessert_is_bounded_and_ordered(puddings: list[int]) -> None:
    points = dessert_points(puddings)
    assert all(-6 <= p <= 6 for p in points)
    if len(puddings) == 2:
        assert min(points) >= 0
    for a, pa in zip(puddings, points, strict=True):
        for b, pb in zip(puddings, points, strict=True):
            if a > b:
                assert pa >= pb
    if len(set(puddings)) == 1:
        assert points == [0] * len(puddings)


@given(dealt_games())
def test_a_real_deal_has_no_problems(game: tuple[int, list[list[Tally]]]) -> None:
    players, rounds = game
    assert all(len(r) == players for r in rounds)
    assert check_game(rounds) == []
    for index, round_ in enumerate(rounds):
        assert check_round(round_, round=index) == []


@given(dealt_games())
def test_game_totals_are_rounds_plus_dessert(game: tuple[int, list[list[Tally]]]) -> None:
    players, rounds = game
    names = [f"P{i}" for i in range(players)]
    result = score_game(names, rounds)
    assert result.complete
    puddings = [sum(r[p].pudding for r in rounds) for p in range(players)]
    assert [p.puddings for p in result.players] == puddings
    assert [p.dessert for p in result.players] == dessert_points(puddings)
    for p, player in enumerate(result.players):
        assert player.rounds == tuple(score_round(r)[p].total for r in rounds)
        assert player.total == sum(player.rounds) + player.dessert
    best = max(p.total for p in result.players)
    assert result.winners
    assert all(result.player(name).total == best for name in result.winners)
    most = max(result.player(name).puddings for name in result.winners)
    assert all(result.player(name).puddings == most for name in result.winners)


@given(dealt_games(), st.integers(0, 3))
def test_partial_games_have_no_dessert(game: tuple[int, list[list[Tally]]], played: int) -> None:
    players, rounds = game
    result = score_game([f"P{i}" for i in range(players)], rounds[:played])
    assert result.complete == (played == 3)
    if not result.complete:
        assert all(p.dessert == 0 for p in result.players)
        assert result.winners == ()
    assert all(p.total == sum(p.rounds) + p.dessert for p in result.players)


@given(tables())
def test_validate_raises_exactly_when_check_finds_an_error(table: list[Tally]) -> None:
    problems = check_round(table)
    errors = [p for p in problems if p.is_error]
    try:
        warnings = validate_round(table)
    except ScoringError as error:
        assert errors and str(error) == errors[0].message
    else:
        assert not errors and warnings == problems


@given(tallies)
def test_tally_round_trips_through_its_dict(tally: Tally) -> None:
    assert Tally.from_mapping(tally.to_dict()) == tally
    assert sum(tally.kinds_used().values()) == tally.cards
