"""Game rules, totals, dessert timing, winners and the HTTP body (seed 000)."""

from __future__ import annotations

import dataclasses

import pytest

from scoring import (
    DeckLimitError,
    GameResult,
    GameRules,
    HandSizeError,
    PlayerCountError,
    PlayerNameError,
    RoundCountError,
    Tally,
    hand_size,
    max_rounds,
    score_game,
)

NAMES = ["Ana", "Ben", "Cy"]


@pytest.mark.parametrize(
    ("players", "size"), [(2, 10), (3, 9), (4, 8), (5, 7)], ids=lambda v: str(v)
)
def test_hand_size(players: int, size: int) -> None:
    assert hand_size(players) == size
    assert GameRules(players).hand_size == size


@pytest.mark.parametrize(
    ("players", "rounds"),
    [(2, 3), (2, 4), (2, 5), (3, 3), (3, 4), (4, 3), (5, 3)],
    ids=["2p3r", "2p4r_100_cards", "2p5r_100_cards", "3p3r", "3p4r_108_cards", "4p3r", "5p3r"],
)
def test_rules_allow_rounds_the_deck_can_deal(players: int, rounds: int) -> None:
    rules = GameRules(players, rounds=rounds)
    assert rules.cards_dealt <= 108
    assert rules.rounds == rounds


@pytest.mark.parametrize(
    ("players", "rounds", "max_allowed"),
    [(3, 5, 4), (4, 4, 3), (4, 5, 3), (5, 4, 3), (5, 5, 3)],
    ids=["3p5r_135_cards", "4p4r_128_cards", "4p5r_160_cards", "5p4r_140_cards", "5p5r"],
)
def test_rules_refuse_rounds_the_deck_cannot_deal(
    players: int, rounds: int, max_allowed: int
) -> None:
    with pytest.raises(RoundCountError) as caught:
        GameRules(players, rounds=rounds)
    error = caught.value
    assert (error.rounds, error.players, error.max_rounds) == (rounds, players, max_allowed)
    assert error.hand_size == hand_size(players)
    assert "108" in str(error) and f"at most {max_allowed} rounds" in str(error)
    assert max_rounds(players) == max_allowed


@pytest.mark.parametrize("rounds", [0, 1, 2, 6, 10], ids=lambda n: f"{n}_rounds")
def test_rules_rounds_are_3_or_a_4_or_5_variant(rounds: int) -> None:
    with pytest.raises(RoundCountError) as caught:
        GameRules(2, rounds=rounds)
    assert caught.value.rounds == rounds
    assert "3 rounds, or 4 or 5" in str(caught.value)


@pytest.mark.parametrize("players", [0, 1, 6], ids=lambda n: f"{n}_players")
def test_rules_need_two_to_five_players(players: int) -> None:
    with pytest.raises(PlayerCountError):
        GameRules(players)


def test_rules_defaults_and_keyword_only_options() -> None:
    rules = GameRules(4)
    assert (rules.rounds, rules.pass_both_ways) == (3, False)
    with pytest.raises(TypeError):
        GameRules(4, 3)  # type: ignore[call-arg]
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.rounds = 4  # type: ignore[misc]
    assert rules.to_dict() == {"players": 4, "rounds": 3, "pass_both_ways": False, "hand_size": 8}


def test_rules_pass_both_ways_must_be_a_bool() -> None:
    with pytest.raises(TypeError):
        GameRules(3, pass_both_ways=1)  # type: ignore[arg-type]


ROUNDS = [
    [Tally(tempura=2, pudding=1), Tally(maki_3=1), Tally(sashimi=3)],
    [Tally(dumpling=4), Tally(pudding=2, squid=1), Tally(egg=1)],
    [Tally(salmon_on_wasabi=1), Tally(pudding=1), Tally(pudding=1, maki_1=1)],
]


def test_complete_game_applies_dessert_and_names_winners() -> None:
    result = score_game(NAMES, ROUNDS)
    assert result.complete and result.rounds_played == 3
    assert [p.rounds for p in result.players] == [(5, 10, 6), (6, 3, 0), (10, 1, 6)]
    assert [p.puddings for p in result.players] == [1, 3, 1]
    assert [p.dessert for p in result.players] == [-3, 6, -3]
    assert [p.total for p in result.players] == [18, 15, 14]
    assert result.winners == ("Ana",) == result.leaders


def test_game_to_dict_is_the_http_body() -> None:
    body = score_game(NAMES, ROUNDS).to_dict()
    assert body["players"] == [
        {
            "name": "Ana",
            "rounds": [5, 10, 6],
            "dessert": -3,
            "total": 18,
            "puddings": 1,
            "place": 1,
        },
        {"name": "Ben", "rounds": [6, 3, 0], "dessert": 6, "total": 15, "puddings": 3, "place": 2},
        {"name": "Cy", "rounds": [10, 1, 6], "dessert": -3, "total": 14, "puddings": 1, "place": 3},
    ]
    assert body["winners"] == ["Ana"]
    assert body["complete"] is True


@pytest.mark.parametrize("played", [0, 1, 2], ids=lambda n: f"after_{n}_rounds")
def test_partial_game_gives_standings_without_dessert_or_winners(played: int) -> None:
    result = score_game(NAMES, ROUNDS[:played])
    assert not result.complete and result.rounds_played == played
    assert all(p.dessert == 0 for p in result.players)
    assert all(p.total == sum(p.rounds) for p in result.players)
    assert result.winners == ()
    assert result.leaders
    assert result.to_dict()["winners"] == []
    assert result.to_dict()["complete"] is False


def test_partial_game_leaders_use_the_winner_rule_so_far() -> None:
    result = score_game(NAMES, ROUNDS[:1])
    assert [p.total for p in result.players] == [5, 6, 10]
    assert result.leaders == ("Cy",)


def test_game_standings_sort_best_first() -> None:
    result = score_game(NAMES, ROUNDS)
    assert [p.name for p in result.standings()] == ["Ana", "Ben", "Cy"]
    assert result.player("Ben").puddings == 3
    with pytest.raises(KeyError):
        result.player("Dee")


def test_places_break_a_tie_on_points_by_puddings_and_share_a_full_tie() -> None:
    # Ana and Ben level on 6 points, Ben with a pudding more; Cy and Dee level on both.
    result = score_game(
        ["Ana", "Ben", "Cy", "Dee"],
        [[Tally(sashimi=3), Tally(dumpling=3, pudding=1), Tally(egg=1), Tally(egg=1)]],
        rules=GameRules(4),
    )
    assert [p.total for p in result.players] == [10, 6, 1, 1]
    assert result.places() == (1, 2, 3, 3)
    level = score_game(
        ["Ana", "Ben", "Cy"],
        [[Tally(dumpling=3, pudding=1), Tally(sashimi=3, pudding=0), Tally(tempura=2, pudding=1)]],
        rules=GameRules(3),
    )
    assert [(p.total, p.puddings) for p in level.players] == [(6, 1), (10, 0), (5, 1)]
    assert level.places() == (2, 1, 3)
    tied = score_game(["Ana", "Ben", "Cy"], [[Tally(egg=1), Tally(egg=1), Tally(squid=1)]])
    assert tied.places() == (2, 2, 1)
    assert [p["place"] for p in tied.to_dict()["players"]] == [2, 2, 1]  # type: ignore[index]


def test_four_round_variant_is_complete_after_four_rounds() -> None:
    rules = GameRules(2, rounds=4)
    rounds = [[Tally(pudding=1), Tally()]] * 3
    assert not score_game(["Ana", "Ben"], rounds, rules=rules).complete
    result = score_game(["Ana", "Ben"], [*rounds, [Tally(), Tally()]], rules=rules)
    assert result.complete
    assert [p.dessert for p in result.players] == [6, 0]


def test_more_rounds_than_the_rules_is_an_error() -> None:
    with pytest.raises(RoundCountError) as caught:
        score_game(["Ana", "Ben"], [[Tally(), Tally()]] * 4)
    error = caught.value
    assert (error.rounds, error.expected, error.players) == (4, 3, 2)
    assert str(error) == "4 rounds were given, the game has 3"


def test_a_round_must_have_a_tally_per_player() -> None:
    with pytest.raises(PlayerCountError) as caught:
        score_game(NAMES, [ROUNDS[0], ROUNDS[1][:2]])
    error = caught.value
    assert (error.players, error.expected, error.round) == (2, 3, 1)
    assert str(error) == "round 2 has tallies for 2 players, the game has 3 players"


def test_rules_must_match_the_number_of_names() -> None:
    with pytest.raises(PlayerCountError) as caught:
        score_game(NAMES, [], rules=GameRules(4))
    assert (caught.value.players, caught.value.expected) == (3, 4)


@pytest.mark.parametrize(
    ("names", "bad", "index"),
    [
        (["Ana", "Ana"], "Ana", 1),
        (["Ana", ""], "", 1),
        (["   ", "Ben"], "   ", 0),
        (["Ana", 7], 7, 1),
        (["Ana", None], None, 1),
    ],
    ids=["duplicate", "empty", "blank", "not_a_string", "null"],
)
def test_player_names_must_be_unique_non_empty_strings(
    names: list[object], bad: object, index: int
) -> None:
    with pytest.raises(PlayerNameError) as caught:
        score_game(names, [])  # type: ignore[arg-type]
    assert caught.value.name == bad
    assert caught.value.player == index
    assert str(caught.value).startswith(f"player {index + 1}'s name")


@pytest.mark.parametrize("count", [1, 6], ids=lambda n: f"{n}_names")
def test_player_names_two_to_five(count: int) -> None:
    with pytest.raises(PlayerCountError):
        score_game([f"P{i}" for i in range(count)], [])


def test_game_validates_hand_size_by_default_with_names_in_messages() -> None:
    rounds = [[Tally(tempura=11), Tally()]]
    with pytest.raises(HandSizeError) as caught:
        score_game(["Ana", "Ben"], rounds)
    error = caught.value
    assert (error.player, error.cards, error.hand_size, error.round) == (0, 11, 10, 0)
    assert (
        str(error)
        == "round 1: Ana has 11 cards, the hand size for 2 players is 10: one card too many"
    )
    result = score_game(["Ana", "Ben"], rounds, validate=False)
    assert result.players[0].rounds == (25,)


def test_game_validates_the_deck_across_rounds() -> None:
    rounds = [[Tally(squid=2), Tally(squid_on_wasabi=1)]] * 2
    with pytest.raises(DeckLimitError) as caught:
        score_game(["Ana", "Ben"], rounds)
    error = caught.value
    assert (error.kind, error.used, error.available, error.round) == ("squid", 6, 5, None)
    assert error.scope == "game"


def test_game_result_refuses_inconsistent_data() -> None:
    result = score_game(NAMES, ROUNDS[:2])
    with pytest.raises(ValueError):
        dataclasses.replace(result, winners=("Ana",))
    with pytest.raises(ValueError):
        dataclasses.replace(result, complete=True)
    with pytest.raises(ValueError):
        dataclasses.replace(result.players[0], total=999)
    assert isinstance(result, GameResult)
