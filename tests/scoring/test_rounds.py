"""Round scoring, one table per rule (seed 000)."""

from __future__ import annotations

import pytest

from scoring import (
    BREAKDOWN_KEYS,
    InvalidTallyError,
    PlayerCountError,
    RoundResult,
    RoundScore,
    Tally,
    dumpling_points,
    maki_points,
    nigiri_points,
    sashimi_points,
    score_round,
    tempura_points,
)


@pytest.mark.parametrize(
    ("cards", "points"),
    [(0, 0), (1, 0), (2, 5), (3, 5), (4, 10), (5, 10), (14, 35)],
    ids=[
        "none",
        "single_zero",
        "pair",
        "pair_and_single",
        "two_pairs",
        "two_pairs_and_single",
        "all",
    ],
)
def test_tempura_pairs_score_5_each(cards: int, points: int) -> None:
    assert tempura_points(cards) == points


@pytest.mark.parametrize(
    ("cards", "points"),
    [(0, 0), (2, 0), (3, 10), (5, 10), (6, 20), (9, 30)],
    ids=["none", "two_zero", "triple", "triple_and_two", "two_triples", "three_triples"],
)
def test_sashimi_triples_score_10_each(cards: int, points: int) -> None:
    assert sashimi_points(cards) == points


@pytest.mark.parametrize(
    ("cards", "points"),
    [(0, 0), (1, 1), (2, 3), (3, 6), (4, 10), (5, 15), (6, 15), (14, 15)],
    ids=["none", "one", "two", "three", "four", "five", "six_capped", "fourteen_capped"],
)
def test_dumplings_whole_pile_capped_at_15(cards: int, points: int) -> None:
    assert dumpling_points(cards) == points


@pytest.mark.parametrize(
    ("tally", "points"),
    [
        (Tally(egg=2, salmon=1, squid=1), 2 + 2 + 3),
        (Tally(egg_on_wasabi=1, salmon_on_wasabi=1, squid_on_wasabi=1), 3 + 6 + 9),
        (Tally(salmon=1, salmon_on_wasabi=1), 8),
        (Tally(wasabi=3), 0),
        (Tally(wasabi=1, squid=1), 3),
        (Tally(chopsticks=2, pudding=3), 0),
    ],
    ids=[
        "plain_nigiri_1_2_3",
        "on_wasabi_tripled_3_6_9",
        "plain_and_stacked_salmon",
        "unfilled_wasabi_zero",
        "loose_wasabi_does_not_triple_a_plain_nigiri",
        "chopsticks_and_pudding_zero_in_round",
    ],
)
def test_nigiri_points(tally: Tally, points: int) -> None:
    assert nigiri_points(tally) == points


MAKI_CASES = [
    # (icons, awards, rule)
    ([5, 3], [6, 3], "one_leader_one_runner_up"),
    ([1, 2], [3, 6], "two_players_second_still_scores"),
    ([6, 4, 2], [6, 3, 0], "third_place_scores_nothing"),
    ([5, 3, 3, 2], [6, 1, 1, 0], "seed000_example"),
    # ties for most: split 6, remainder dropped, no second place
    ([4, 4], [3, 3], "two_tied_most_of_two"),
    ([4, 4, 2], [3, 3, 0], "two_tied_most_cancel_second"),
    ([2, 2, 2], [2, 2, 2], "three_tied_most"),
    ([2, 2, 2, 1], [2, 2, 2, 0], "three_tied_most_cancel_second"),
    ([3, 3, 3, 3], [1, 1, 1, 1], "four_tied_most_remainder_dropped"),
    ([3, 3, 3, 3, 1], [1, 1, 1, 1, 0], "four_tied_most_of_five"),
    ([1, 1, 1, 1, 1], [1, 1, 1, 1, 1], "five_tied_most_remainder_dropped"),
    # ties for second behind one leader: split 3, remainder dropped
    ([6, 2, 2], [6, 1, 1], "two_tied_second"),
    ([6, 2, 2, 1], [6, 1, 1, 0], "two_tied_second_third_nothing"),
    ([6, 2, 2, 2], [6, 1, 1, 1], "three_tied_second"),
    ([6, 2, 2, 2, 2], [6, 0, 0, 0, 0], "four_tied_second_get_zero"),
    # at least one icon to score (seed 000's zero-maki clarification)
    ([0, 0], [0, 0], "nobody_has_maki_two_players"),
    ([0, 0, 0, 0, 0], [0, 0, 0, 0, 0], "nobody_has_maki_five_players"),
    ([0, 3], [0, 6], "alone_with_maki_of_two_nobody_second"),
    ([0, 1, 0, 0, 0], [0, 6, 0, 0, 0], "alone_with_one_icon_of_five"),
    ([3, 1, 0, 0], [6, 3, 0, 0], "zero_icons_never_second"),
    ([2, 2, 0], [3, 3, 0], "tied_most_with_a_zero"),
    ([4, 1, 1, 0, 0], [6, 1, 1, 0, 0], "tied_second_with_zeros"),
]


@pytest.mark.parametrize(
    ("icons", "awards"),
    [case[:2] for case in MAKI_CASES],
    ids=[case[2] for case in MAKI_CASES],
)
def test_maki_points(icons: list[int], awards: list[int]) -> None:
    assert maki_points(icons) == awards


@pytest.mark.parametrize("players", [2, 3, 4, 5], ids=lambda n: f"{n}_players")
def test_maki_everyone_tied_for_most(players: int) -> None:
    assert maki_points([2] * players) == [6 // players] * players


@pytest.mark.parametrize("runners_up", [1, 2, 3, 4], ids=lambda n: f"{n}_tied_second")
def test_maki_tied_runners_up_split_3(runners_up: int) -> None:
    assert maki_points([9] + [1] * runners_up) == [6] + [3 // runners_up] * runners_up


@pytest.mark.parametrize("value", [-1, True, 1.0], ids=["negative", "bool", "float"])
def test_maki_points_refuses_bad_icon_counts(value: object) -> None:
    with pytest.raises(InvalidTallyError) as caught:
        maki_points([3, value])  # type: ignore[list-item]
    assert caught.value.player == 1


def test_score_round_maki_uses_icons_from_tallies() -> None:
    tallies = [Tally(maki_3=1), Tally(maki_1=3), Tally(maki_2=1)]
    assert [s.maki for s in score_round(tallies)] == [3, 3, 0]


def test_score_round_breakdown_has_exactly_the_five_categories() -> None:
    tally = Tally(maki_3=1, tempura=2, sashimi=3, dumpling=1, egg_on_wasabi=1, wasabi=1)
    [score, _] = score_round([tally, Tally()])
    assert (
        tuple(score.breakdown)
        == BREAKDOWN_KEYS
        == (
            "maki",
            "tempura",
            "sashimi",
            "dumpling",
            "nigiri",
        )
    )
    assert score.breakdown == {"maki": 6, "tempura": 5, "sashimi": 10, "dumpling": 1, "nigiri": 3}
    assert score.total == 25


def test_score_round_to_dict_is_the_http_body() -> None:
    scores = score_round([Tally(tempura=2), Tally(maki_1=1)])
    body = RoundResult(tuple(scores)).to_dict()
    assert body == {
        "scores": [
            {
                "total": 5,
                "breakdown": {"maki": 0, "tempura": 5, "sashimi": 0, "dumpling": 0, "nigiri": 0},
            },
            {
                "total": 6,
                "breakdown": {"maki": 6, "tempura": 0, "sashimi": 0, "dumpling": 0, "nigiri": 0},
            },
        ]
    }
    assert RoundResult(tuple(scores)).totals == [5, 6]


@pytest.mark.parametrize("players", [0, 1, 6, 7], ids=lambda n: f"{n}_players")
@pytest.mark.parametrize("validate", [True, False], ids=["validated", "unvalidated"])
def test_score_round_needs_two_to_five_players(players: int, validate: bool) -> None:
    with pytest.raises(PlayerCountError) as caught:
        score_round([Tally()] * players, validate=validate)
    assert caught.value.players == players
    assert "2 to 5 players" in str(caught.value)


def test_score_round_refuses_non_tallies() -> None:
    with pytest.raises(TypeError, match=r"Tally\.from_mapping"):
        score_round([{"tempura": 2}, Tally()])  # type: ignore[list-item]


def test_round_score_refuses_negative_points() -> None:
    with pytest.raises(ValueError):
        RoundScore(maki=-1)
