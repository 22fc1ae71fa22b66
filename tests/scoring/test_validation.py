"""Validation as data (Problem) and as typed exceptions (validate_*)."""

from __future__ import annotations

import dataclasses

import pytest

from scoring import (
    DeckLimitError,
    GameRules,
    HandSizeError,
    PlayerCountError,
    Problem,
    ProblemCode,
    RoundCountError,
    ScoringError,
    Tally,
    check_collection,
    check_game,
    check_round,
    score_round,
    validate_collection,
    validate_game,
    validate_round,
)

FULL_THREE = Tally(tempura=2, sashimi=3, dumpling=2, squid=1, pudding=1)  # 9 cards


@pytest.mark.parametrize(
    ("tally", "players"),
    [
        (Tally(tempura=2, sashimi=3, dumpling=3, egg=1, chopsticks=1), 2),
        (FULL_THREE, 3),
        (Tally(maki_2=2, salmon_on_wasabi=2, pudding=2), 4),
        (Tally(tempura=7), 5),
    ],
    ids=["2p_10_cards", "3p_9_cards", "4p_8_cards_with_stacks", "5p_7_cards"],
)
def test_a_full_hand_has_no_problems(tally: Tally, players: int) -> None:
    assert check_collection(tally, players=players) == []


def test_more_cards_than_the_hand_size_is_an_error() -> None:
    tally = Tally(tempura=9, salmon_on_wasabi=1)
    [problem] = check_collection(tally, players=3, player=1)
    assert problem == Problem(
        severity="error",
        code="too_many_cards",
        message="player 2 has 11 cards, the hand size for 3 players is 9: 2 cards too many",
        player=1,
        expected=9,
        actual=11,
    )
    assert problem.is_error


@pytest.mark.parametrize(
    ("cards", "guess"),
    [(8, "a card was probably missed"), (6, "3 cards were probably missed")],
    ids=["one_short", "three_short"],
)
def test_fewer_cards_than_the_hand_size_is_a_warning(cards: int, guess: str) -> None:
    [problem] = check_collection(Tally(tempura=cards), players=3, player=0, round=1)
    assert problem.severity == "warning" and not problem.is_error
    assert problem.code == ProblemCode.TOO_FEW_CARDS == "too_few_cards"
    assert (problem.player, problem.round, problem.expected, problem.actual) == (0, 1, 9, cards)
    assert problem.message.startswith(f"round 2: player 1 has {cards} cards")
    assert problem.message.endswith(guess)


def test_one_card_is_said_as_one_card() -> None:
    """ "has 1 cards" had been said."""
    [problem] = check_collection(Tally(pudding=1), players=3)
    assert problem.message == (
        "this collection has 1 card, the hand size for 3 players is 9: 8 cards were probably missed"
    )


def test_collection_problems_use_the_name_when_given() -> None:
    [problem] = check_collection(Tally(tempura=11), players=2, player=0, name="Ana")
    assert (
        problem.message == "Ana has 11 cards, the hand size for 2 players is 10: one card too many"
    )


def test_one_collection_over_the_deck_names_the_kind() -> None:
    problems = check_collection(Tally(squid=4, squid_on_wasabi=2), players=2, player=0)
    [deck] = [p for p in problems if p.code == "deck_limit"]
    assert (deck.category, deck.expected, deck.actual, deck.player) == ("squid", 5, 6, 0)
    assert "squid nigiri" in deck.message


def test_check_collection_bad_player_count_is_a_problem() -> None:
    [problem] = check_collection(Tally(), players=6)
    assert (problem.code, problem.actual) == ("player_count", 6)


@pytest.mark.parametrize(
    ("tallies", "kind", "used", "available"),
    [
        ([Tally(egg=3), Tally(egg_on_wasabi=3)], "egg", 6, 5),
        ([Tally(wasabi=3, salmon_on_wasabi=1), Tally(squid_on_wasabi=3)], "wasabi", 7, 6),
        ([Tally(chopsticks=3), Tally(chopsticks=2)], "chopsticks", 5, 4),
        ([Tally(maki_3=5), Tally(maki_3=4)], "maki_3", 9, 8),
        ([Tally(pudding=6), Tally(pudding=5)], "pudding", 11, 10),
    ],
    ids=[
        "egg_plain_and_stacked",
        "wasabi_loose_and_under_nigiri",
        "chopsticks",
        "three_icon_maki",
        "pudding",
    ],
)
def test_round_over_the_deck_is_an_error_naming_the_kind(
    tallies: list[Tally], kind: str, used: int, available: int
) -> None:
    errors = [p for p in check_round(tallies, round=0) if p.is_error]
    [problem] = errors
    assert problem.code == "deck_limit"
    assert (problem.category, problem.actual, problem.expected, problem.round) == (
        kind,
        used,
        available,
        0,
    )
    assert problem.player is None
    assert problem.message.startswith("round 1: the collections together hold")
    with pytest.raises(DeckLimitError) as caught:
        validate_round(tallies, round=0)
    error = caught.value
    assert (error.kind, error.used, error.available, error.round) == (kind, used, available, 0)
    assert error.scope == "round" and str(error) == problem.message


def test_a_kind_over_in_one_collection_is_not_reported_again_for_the_round() -> None:
    problems = check_round([Tally(egg=6), Tally(egg=1)])
    assert [(p.code, p.player) for p in problems if p.is_error] == [("deck_limit", 0)]


def test_check_round_reports_every_player() -> None:
    problems = check_round([Tally(tempura=11), Tally(tempura=3), Tally(sashimi=9)])
    summary = [(p.severity, p.code, p.player) for p in problems]
    assert summary == [
        ("error", "too_many_cards", 0),
        ("warning", "too_few_cards", 1),
    ]


def test_check_round_uses_names() -> None:
    [problem] = check_round([Tally(dumpling=10), Tally(tempura=11)], names=["Ana", "Ben"])
    assert (
        problem.message == "Ben has 11 cards, the hand size for 2 players is 10: one card too many"
    )


@pytest.mark.parametrize("players", [1, 6], ids=lambda n: f"{n}_players")
def test_check_round_bad_player_count(players: int) -> None:
    problems = check_round([Tally()] * players)
    assert [p.code for p in problems] == ["player_count"]
    with pytest.raises(PlayerCountError):
        validate_round([Tally()] * players)


def test_validate_round_raises_the_first_error_and_returns_warnings() -> None:
    with pytest.raises(HandSizeError) as caught:
        validate_round([Tally(tempura=3), Tally(tempura=11), Tally(egg=9)])
    assert (caught.value.player, caught.value.cards, caught.value.hand_size) == (1, 11, 9)
    warnings = validate_round([FULL_THREE, Tally(tempura=3), FULL_THREE])
    assert [(p.code, p.player) for p in warnings] == [("too_few_cards", 1)]


def test_validate_collection() -> None:
    with pytest.raises(HandSizeError):
        validate_collection(Tally(tempura=8), players=5)
    with pytest.raises(PlayerCountError):
        validate_collection(Tally(), players=1)
    assert validate_collection(Tally(tempura=7), players=5) == []


def test_score_round_validates_unless_asked_not_to() -> None:
    tallies = [Tally(dumpling=11), Tally()]
    with pytest.raises(HandSizeError):
        score_round(tallies)
    assert score_round(tallies, validate=False)[0].dumpling == 15


def test_game_over_the_deck_across_rounds() -> None:
    rounds = [
        [Tally(pudding=4), Tally(pudding=1)],
        [Tally(pudding=2), Tally(pudding=2)],
        [Tally(pudding=1), Tally(pudding=1)],
    ]
    [problem] = [p for p in check_game(rounds) if p.is_error]
    assert (problem.code, problem.category, problem.actual, problem.expected) == (
        "deck_limit",
        "pudding",
        11,
        10,
    )
    assert (problem.round, problem.player) == (None, None)
    assert problem.message == (
        "the rounds together hold 11 pudding, the deck has only 10 "
        "(round 1: 5, round 2: 4, round 3: 2; discards are not reshuffled between rounds)"
    )
    with pytest.raises(DeckLimitError) as caught:
        validate_game(rounds)
    assert caught.value.scope == "game" and caught.value.round is None


def test_game_problems_in_a_round_carry_the_round() -> None:
    rounds = [[Tally(egg=1)] * 3, [Tally(egg=1), Tally(dumpling=10), Tally(egg=1)]]
    problems = [p for p in check_game(rounds) if p.is_error]
    assert [(p.code, p.round, p.player) for p in problems] == [("too_many_cards", 1, 1)]


def test_game_more_rounds_than_the_rules() -> None:
    rounds = [[Tally(), Tally()]] * 4
    problems = check_game(rounds)
    [problem] = [p for p in problems if p.is_error]
    assert (problem.code, problem.expected, problem.actual) == ("round_count", 3, 4)
    assert check_game(rounds, rules=GameRules(2, rounds=4)) == [
        p for p in problems if not p.is_error
    ]
    with pytest.raises(RoundCountError):
        validate_game(rounds)


def test_game_round_with_the_wrong_number_of_tallies() -> None:
    rounds = [[Tally(), Tally()], [Tally(), Tally(), Tally()]]
    problems = [p for p in check_game(rounds, names=["Ana", "Ben"]) if p.is_error]
    assert [(p.code, p.round, p.expected, p.actual) for p in problems] == [
        ("player_count", 1, 2, 3)
    ]


def test_game_names_must_match_the_rules() -> None:
    problems = check_game([], rules=GameRules(3), names=["Ana", "Ben"])
    assert [(p.code, p.expected, p.actual) for p in problems] == [("player_count", 3, 2)]


def test_empty_game_has_no_problems() -> None:
    assert check_game([]) == []
    assert validate_game([]) == []


@pytest.mark.parametrize(
    "fields",
    [
        {"severity": "fatal"},
        {"code": ""},
        {"message": ""},
        {"player": -1},
        {"round": True},
        {"expected": 1.5},
        {"category": 3},
    ],
    ids=[
        "severity",
        "empty_code",
        "empty_message",
        "negative_player",
        "bool_round",
        "float",
        "cat",
    ],
)
def test_problem_validates_its_fields(fields: dict[str, object]) -> None:
    base = Problem(severity="error", code="x", message="y")
    with pytest.raises(ValueError):
        dataclasses.replace(base, **fields)  # type: ignore[arg-type]


def test_problem_to_dict() -> None:
    [problem] = check_collection(Tally(tempura=11), players=2, player=0, round=2)
    assert problem.to_dict() == {
        "severity": "error",
        "code": "too_many_cards",
        "message": "round 3: player 1 has 11 cards, the hand size for 2 players is 10: "
        "one card too many",
        "player": 0,
        "category": None,
        "expected": 10,
        "actual": 11,
        "round": 2,
    }


def test_every_error_problem_matches_the_raised_exception() -> None:
    tallies = [Tally(tempura=12), Tally(egg=6)]
    problems = check_round(tallies, round=0)
    first = next(p for p in problems if p.is_error)
    with pytest.raises(ScoringError) as caught:
        validate_round(tallies, round=0)
    assert str(caught.value) == first.message
    assert caught.value.code == first.code


def test_game_with_six_players_reports_the_player_count_once() -> None:
    problems = check_game([[Tally()] * 6, [Tally()] * 6])
    assert [(p.code, p.actual, p.round) for p in problems] == [("player_count", 6, None)]
    with pytest.raises(PlayerCountError):
        validate_game([[Tally()] * 6])
