"""Every worked example and stated rule of the three rule seeds, each named after it.

seed 000: ../shared/seeds/000_09e474c6667956d8.txt (the table guide, the authority)
seed 002: ../shared/seeds/002_eddb75a77ba66aa1.txt (overview with variants)
seed 004: ../shared/seeds/004_7657259abc899971.txt (the score-calculator page)
"""

from __future__ import annotations

import pytest

from scoring import (
    DECK,
    DECK_SIZE,
    HAND_SIZE,
    DeckLimitError,
    GameRules,
    PlayerCountError,
    Tally,
    dessert_points,
    maki_points,
    score_game,
    score_round,
)


def scores(*tallies: Tally) -> list[int]:
    return [s.total for s in score_round(list(tallies), validate=False)]


def alone(tally: Tally) -> int:
    """A collection's points at a two-player table beside an empty collection."""
    return scores(tally, Tally())[0]


# --- seed 000: check the deck and deal ------------------------------------------------


def test_seed000_the_original_deck_has_108_cards_of_these_kinds() -> None:
    assert dict(DECK) == {
        "tempura": 14,
        "sashimi": 14,
        "dumpling": 14,
        "maki_1": 6,
        "maki_2": 12,
        "maki_3": 8,
        "salmon": 10,
        "squid": 5,
        "egg": 5,
        "pudding": 10,
        "wasabi": 6,
        "chopsticks": 4,
    }
    assert DECK_SIZE == 108


def test_seed000_hands_are_10_9_8_7_for_two_to_five_players() -> None:
    assert dict(HAND_SIZE) == {2: 10, 3: 9, 4: 8, 5: 7}


@pytest.mark.parametrize("players", [1, 6], ids=["one_person", "sixth_person_needs_another_table"])
def test_seed000_two_to_five_people_play(players: int) -> None:
    with pytest.raises(PlayerCountError) as caught:
        score_round([Tally()] * players)
    assert caught.value.players == players


# --- seed 000: score the dishes after each round ---------------------------------------


@pytest.mark.parametrize(
    ("cards", "points"),
    [(1, 0), (2, 5), (3, 5), (4, 10)],
    ids=["leftover_single_scores_zero", "pair_scores_5", "three_score_5", "four_score_10"],
)
def test_seed000_tempura_5_for_each_complete_pair(cards: int, points: int) -> None:
    assert alone(Tally(tempura=cards)) == points


@pytest.mark.parametrize(
    ("cards", "points"),
    [(1, 0), (2, 0), (3, 10), (4, 10), (5, 10), (6, 20)],
    ids=["one_zero", "two_zero", "three_10", "four_10", "five_10", "six_20"],
)
def test_seed000_sashimi_10_for_each_group_of_three(cards: int, points: int) -> None:
    assert alone(Tally(sashimi=cards)) == points


@pytest.mark.parametrize(
    ("cards", "points"),
    [(1, 1), (2, 3), (3, 6), (4, 10), (5, 15), (6, 15), (9, 15)],
    ids=["one_1", "two_3", "three_6", "four_10", "five_15_not_the_sum", "six_15", "nine_15"],
)
def test_seed000_dumplings_whole_pile_1_3_6_10_15(cards: int, points: int) -> None:
    assert alone(Tally(dumpling=cards)) == points


@pytest.mark.parametrize(
    ("tally", "points"),
    [
        (Tally(egg=1), 1),
        (Tally(salmon=1), 2),
        (Tally(squid=1), 3),
        (Tally(egg_on_wasabi=1), 3),
        (Tally(salmon_on_wasabi=1), 6),
        (Tally(squid_on_wasabi=1), 9),
        (Tally(wasabi=1), 0),
        (Tally(chopsticks=1), 0),
    ],
    ids=[
        "egg_1",
        "salmon_2",
        "squid_3",
        "egg_on_wasabi_3",
        "salmon_on_wasabi_6",
        "squid_on_wasabi_9",
        "unfilled_wasabi_0",
        "unused_chopsticks_0",
    ],
)
def test_seed000_nigiri_and_wasabi(tally: Tally, points: int) -> None:
    assert alone(tally) == points


def test_seed000_maki_icon_totals_5_3_3_2_award_6_1_1_0() -> None:
    icons = [Tally(maki_2=1, maki_3=1), Tally(maki_3=1), Tally(maki_1=1, maki_2=1), Tally(maki_2=1)]
    assert [t.maki_icons for t in icons] == [5, 3, 3, 2]
    assert [s.breakdown["maki"] for s in score_round(icons)] == [6, 1, 1, 0]


def test_seed000_maki_counts_icons_not_cards() -> None:
    # One three-icon card beats two one-icon cards.
    assert maki_points([3, 2]) == [6, 3]
    assert [s.maki for s in score_round([Tally(maki_3=1), Tally(maki_1=2)])] == [6, 3]


def test_seed000_maki_tie_for_most_splits_6_and_cancels_second() -> None:
    assert maki_points([4, 4, 2]) == [3, 3, 0]


def test_seed000_maki_tie_for_most_drops_the_remainder() -> None:
    assert maki_points([4, 4, 4, 4]) == [1, 1, 1, 1]


def test_seed000_maki_tied_runners_up_split_3_dropping_the_remainder() -> None:
    assert maki_points([5, 2, 2]) == [6, 1, 1]


def test_seed000_zero_maki_only_one_person_has_maki_scores_6() -> None:
    assert maki_points([0, 2, 0]) == [0, 6, 0]


def test_seed000_zero_maki_nobody_has_any_nothing_awarded() -> None:
    assert maki_points([0, 0, 0, 0]) == [0, 0, 0, 0]


def test_seed000_zero_maki_a_player_without_icons_is_never_second() -> None:
    assert maki_points([3, 0]) == [6, 0]


def test_seed000_four_player_two_tempura_three_sashimi_two_dumplings_one_squid_is_21() -> None:
    collection = Tally(tempura=2, sashimi=3, dumpling=2, squid=1)
    assert collection.cards == HAND_SIZE[4]
    [score, *_] = score_round([collection, Tally(), Tally(), Tally()])
    assert score.total == 21
    assert score.breakdown == {"maki": 0, "tempura": 5, "sashimi": 10, "dumpling": 3, "nigiri": 3}


def test_seed000_puddings_wait_for_the_final_adjustment() -> None:
    collection = Tally(tempura=2, sashimi=3, dumpling=2, squid=1, pudding=1)
    assert collection.cards == HAND_SIZE[3]
    [score, *_] = score_round([collection, Tally(), Tally()])
    assert score.total == 21


def test_seed000_final_card_chopsticks_is_kept_and_scores_zero() -> None:
    # Five-player hand of 7: six dishes then a chopsticks as the last card.
    collection = Tally(tempura=2, sashimi=3, egg=1, chopsticks=1)
    assert collection.cards == HAND_SIZE[5]
    [score, *_] = score_round([collection] + [Tally()] * 4)
    assert score.total == 5 + 10 + 1


# --- seed 000: score dessert and find the winner ---------------------------------------


def test_seed000_most_puddings_6_fewest_loses_6() -> None:
    assert dessert_points([4, 2, 1]) == [6, 0, -6]


def test_seed000_fewest_puddings_loses_6_including_players_with_zero() -> None:
    assert dessert_points([0, 3, 1]) == [-6, 6, 0]


def test_seed000_tied_leaders_split_6() -> None:
    assert dessert_points([3, 3, 1]) == [3, 3, -6]


def test_seed000_tied_last_place_split_the_6_point_loss() -> None:
    assert dessert_points([3, 1, 1]) == [6, -3, -3]


def test_seed000_four_tied_for_fewest_lose_1_each() -> None:
    assert dessert_points([0, 0, 2, 0, 0]) == [-1, -1, 6, -1, -1]


def test_seed000_everyone_has_the_same_pudding_count_nobody_gains_or_loses() -> None:
    assert dessert_points([2, 2, 2, 2]) == [0, 0, 0, 0]


def test_seed000_two_players_nobody_loses_for_fewest_puddings() -> None:
    assert dessert_points([1, 3]) == [0, 6]


def test_seed000_two_players_equal_pudding_counts_still_score_nothing() -> None:
    assert dessert_points([2, 2]) == [0, 0]


def game_of(rounds: list[list[Tally]], names: list[str]) -> dict[str, tuple[int, int]]:
    result = score_game(names, rounds)
    return {p.name: (p.total, p.dessert) for p in result.players}


def test_seed000_dessert_is_added_to_the_three_round_totals() -> None:
    rounds = [
        [Tally(tempura=2, pudding=1), Tally(sashimi=3)],
        [Tally(dumpling=3), Tally(pudding=1)],
        [Tally(pudding=1), Tally(squid=1)],
    ]
    result = score_game(["Ana", "Ben"], rounds)
    ana, ben = result.players
    assert ana.rounds == (5, 6, 0)
    assert ana.puddings == 2 and ana.dessert == 6 and ana.total == 17
    assert ben.rounds == (10, 0, 3)
    assert ben.puddings == 1 and ben.dessert == 0 and ben.total == 13
    assert result.winners == ("Ana",)


def test_seed000_highest_final_total_wins() -> None:
    rounds = [[Tally(sashimi=3), Tally(tempura=2), Tally(egg=1)]] * 3
    assert score_game(["Ana", "Ben", "Cy"], rounds).winners == ("Ana",)


def test_seed000_among_tied_players_most_puddings_wins() -> None:
    rounds = [
        [Tally(sashimi=3, pudding=1), Tally(sashimi=3), Tally()],
        [Tally(pudding=1), Tally(tempura=2), Tally()],
        [Tally(pudding=1), Tally(egg=1, pudding=1), Tally()],
    ]
    result = score_game(["Ana", "Ben", "Cy"], rounds)
    ana, ben, cy = result.players
    assert (ana.dessert, ben.dessert, cy.dessert) == (6, 0, -6)
    assert ana.total == ben.total == 16
    assert (ana.puddings, ben.puddings) == (3, 1)
    assert result.winners == ("Ana",)


def test_seed000_points_and_puddings_equal_declare_shared_winners() -> None:
    rounds = [[Tally(tempura=2, pudding=1), Tally(tempura=2, pudding=1), Tally()]] * 3
    result = score_game(["Ana", "Ben", "Cy"], rounds)
    assert result.winners == ("Ana", "Ben")


def test_seed000_incomplete_tempura_and_sashimi_do_not_carry_into_the_next_round() -> None:
    rounds = [
        [Tally(tempura=1, sashimi=2), Tally()],
        [Tally(tempura=1, sashimi=1), Tally()],
        [Tally(), Tally()],
    ]
    ana, _ = score_game(["Ana", "Ben"], rounds).players
    assert ana.rounds == (0, 0, 0)


def test_seed000_only_pudding_carries_across_rounds() -> None:
    rounds = [[Tally(pudding=1), Tally(pudding=1)], [Tally(pudding=1), Tally()], [Tally(), Tally()]]
    ana, ben = score_game(["Ana", "Ben"], rounds).players
    assert (ana.puddings, ben.puddings) == (2, 1)
    assert (ana.dessert, ben.dessert) == (6, 0)


def test_seed000_discards_are_not_reshuffled_so_a_game_cannot_use_11_puddings() -> None:
    rounds = [[Tally(pudding=4), Tally()], [Tally(pudding=4), Tally()], [Tally(pudding=3), Tally()]]
    with pytest.raises(DeckLimitError) as caught:
        score_game(["Ana", "Ben"], rounds)
    assert (caught.value.kind, caught.value.used, caught.value.available) == ("pudding", 11, 10)
    assert caught.value.scope == "game"


def test_seed000_pass_both_ways_variation_changes_no_score() -> None:
    rounds = [[Tally(tempura=2, pudding=1), Tally(maki_3=1)]] * 3
    plain = score_game(["Ana", "Ben"], rounds)
    both = score_game(["Ana", "Ben"], rounds, rules=GameRules(2, pass_both_ways=True))
    assert both.rules.pass_both_ways
    assert both.players == plain.players and both.winners == plain.winners


def test_seed000_demonstration_tempura_pair_and_wasabi_with_one_nigiri() -> None:
    assert alone(Tally(tempura=2)) == 5
    assert alone(Tally(salmon_on_wasabi=1)) == 6


# --- seed 002: overview with variants --------------------------------------------------


@pytest.mark.parametrize(
    ("tally", "points"),
    [
        (Tally(squid=1), 3),
        (Tally(squid_on_wasabi=1), 9),
        (Tally(salmon=1), 2),
        (Tally(salmon_on_wasabi=1), 6),
        (Tally(egg=1), 1),
        (Tally(egg_on_wasabi=1), 3),
        (Tally(wasabi=1), 0),
    ],
    ids=[
        "squid_3",
        "squid_on_wasabi_9",
        "salmon_2",
        "salmon_on_wasabi_6",
        "egg_1",
        "egg_on_wasabi_3",
        "wasabi_with_no_nigiri_nothing",
    ],
)
def test_seed002_nigiri_and_wasabi(tally: Tally, points: int) -> None:
    assert alone(tally) == points


def test_seed002_multiple_sets_of_tempura_in_a_round() -> None:
    assert alone(Tally(tempura=6)) == 15


def test_seed002_multiple_sets_of_sashimi_in_a_round() -> None:
    assert alone(Tally(sashimi=6)) == 20


def test_seed002_chopsticks_score_nothing() -> None:
    assert alone(Tally(chopsticks=2)) == 0


def test_seed002_tie_for_most_maki_no_second_place_points() -> None:
    assert maki_points([3, 3, 2, 1]) == [3, 3, 0, 0]


def test_seed002_tie_for_second_maki_split_ignoring_remainder() -> None:
    assert maki_points([7, 3, 3]) == [6, 1, 1]


@pytest.mark.parametrize(
    ("players", "rounds"),
    [(2, 4), (2, 5), (3, 4)],
    ids=["two_players_four_rounds", "two_players_five_rounds", "three_players_four_rounds"],
)
def test_seed002_variant_four_or_five_rounds(players: int, rounds: int) -> None:
    rules = GameRules(players, rounds=rounds)
    game = [[Tally(maki_2=1)] * players] * rounds  # everyone tied on maki each round
    names = [f"P{i}" for i in range(players)]
    result = score_game(names, game, rules=rules)
    assert result.complete
    assert [p.rounds for p in result.players] == [(6 // players,) * rounds] * players


# --- seed 004: the score calculator ----------------------------------------------------


def test_seed004_ana_5_ben_3_cy_3_maki_6_1_1() -> None:
    ana, ben, cy = Tally(maki_2=1, maki_3=1), Tally(maki_3=1), Tally(maki_1=3)
    assert [s.maki for s in score_round([ana, ben, cy])] == [6, 1, 1]


def test_seed004_ana_and_ben_tied_on_5_split_6_and_nobody_scores_second() -> None:
    ana, ben, cy = Tally(maki_2=1, maki_3=1), Tally(maki_1=2, maki_3=1), Tally(maki_3=1)
    assert [s.maki for s in score_round([ana, ben, cy])] == [3, 3, 0]


def test_seed004_one_plain_salmon_and_one_salmon_on_wasabi_is_8() -> None:
    assert alone(Tally(salmon=1, salmon_on_wasabi=1)) == 8


def test_seed004_a_salmon_on_wasabi_is_counted_once_not_also_as_plain() -> None:
    tally = Tally(salmon_on_wasabi=1)
    assert tally.cards == 2  # the salmon and its wasabi
    assert tally.nigiri_used["salmon"] == 1
    assert alone(tally) == 6


def test_seed004_pudding_entered_in_the_round_played_and_applied_in_final_results() -> None:
    rounds = [
        [Tally(pudding=2), Tally(), Tally(pudding=1)],
        [Tally(), Tally(pudding=1), Tally()],
        [Tally(pudding=1), Tally(), Tally()],
    ]
    result = score_game(["Ana", "Ben", "Cy"], rounds)
    assert [p.rounds for p in result.players] == [(0, 0, 0)] * 3
    assert [p.puddings for p in result.players] == [3, 1, 1]
    assert [p.dessert for p in result.players] == [6, -3, -3]


def test_seed004_pudding_ties_split_and_round_down() -> None:
    assert dessert_points([2, 2, 2, 0]) == [2, 2, 2, -6]


def test_seed004_two_player_game_no_pudding_penalty() -> None:
    assert dessert_points([0, 4]) == [0, 6]


def test_seed004_tie_for_the_win_most_pudding_cards_wins() -> None:
    rounds = [[Tally(salmon=2, pudding=1), Tally(sashimi=3)], [Tally(pudding=1), Tally()]]
    result = score_game(["Ana", "Ben"], [*rounds, [Tally(), Tally()]])
    ana, ben = result.players
    assert ana.total == ben.total == 10  # Ana 4 + 6 for most puddings, Ben 10
    assert result.winners == ("Ana",)


def test_seed004_still_level_on_pudding_share_the_win() -> None:
    rounds = [[Tally(tempura=2, pudding=1), Tally(tempura=2, pudding=1)]] * 3
    assert score_game(["Ana", "Ben"], rounds).winners == ("Ana", "Ben")


def test_seed004_results_at_any_time_show_the_standings_so_far() -> None:
    result = score_game(["Ana", "Ben"], [[Tally(tempura=2, pudding=1), Tally(sashimi=3)]])
    assert not result.complete
    assert [p.total for p in result.players] == [5, 10]
    assert [p.dessert for p in result.players] == [0, 0]
    assert result.leaders == ("Ben",)
    assert result.winners == ()
