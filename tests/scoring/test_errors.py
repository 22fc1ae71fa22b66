"""The domain errors: typed, carrying fields, with messages a person can act on."""

from __future__ import annotations

import pytest

from scoring import (
    DeckLimitError,
    HandSizeError,
    InvalidTallyError,
    PlayerCountError,
    PlayerNameError,
    RoundCountError,
    ScoringError,
)


@pytest.mark.parametrize(
    "error",
    [
        InvalidTallyError("tempura", -1, "a count cannot be negative"),
        PlayerCountError(6),
        PlayerNameError("", "a name cannot be empty"),
        HandSizeError(1, 11, 9),
        DeckLimitError("egg", 6, 5, 0),
        RoundCountError(4, 4, max_rounds=3, hand_size=8),
    ],
    ids=lambda e: type(e).__name__,
)
def test_every_error_is_a_scoring_error_and_a_value_error(error: ScoringError) -> None:
    assert isinstance(error, ScoringError) and isinstance(error, ValueError)
    assert error.message == str(error) != ""
    assert error.code


@pytest.mark.parametrize(
    ("error", "message"),
    [
        (
            HandSizeError(1, 11, 9),
            "player 2 has 11 cards, the hand size for 3 players is 9: 2 cards too many",
        ),
        (
            HandSizeError(None, 8, 7, round=2),
            "round 3: this collection has 8 cards, the hand size for 5 players is 7: "
            "one card too many",
        ),
        (
            HandSizeError(0, 11, 10, name="Ana"),
            "Ana has 11 cards, the hand size for 2 players is 10: one card too many",
        ),
        (
            DeckLimitError("egg", 6, 5, 1),
            "round 2: the collections together hold 6 egg nigiri (plain and on wasabi), "
            "the deck has only 5",
        ),
        (
            DeckLimitError("wasabi", 7, 6, None, player=2),
            "player 3's collection holds 7 wasabi (loose and under a nigiri), the deck has only 6",
        ),
        (
            DeckLimitError("pudding", 11, 10, None, scope="game"),
            "the rounds together hold 11 pudding, the deck has only 10 "
            "(discards are not reshuffled between rounds)",
        ),
        (
            DeckLimitError("chopsticks", 5, 4, None, scope="game", by_round=[2, 0, 3]),
            "the rounds together hold 5 chopsticks, the deck has only 4 "
            "(round 1: 2, round 3: 3; discards are not reshuffled between rounds)",
        ),
        (PlayerCountError(1), "Sushi Go! is played by 2 to 5 players, got 1"),
        (
            PlayerCountError(3, expected=4, round=0),
            "round 1 has tallies for 3 players, the game has 4 players",
        ),
        (PlayerCountError(3, expected=4), "the game is set up for 4 players, got 3"),
        (
            RoundCountError(5, 3, max_rounds=4, hand_size=9),
            "5 rounds with 3 players need 135 cards (9 a hand), more than the deck's 108; "
            "with 3 players play at most 4 rounds",
        ),
        (
            RoundCountError(2, 3, max_rounds=4, hand_size=9),
            "a game has 3 rounds, or 4 or 5 as a variant; got 2",
        ),
        (RoundCountError(4, 2, expected=3), "4 rounds were given, the game has 3"),
        (
            InvalidTallyError("tempura", -1, "a count cannot be negative", player=0),
            "player 1's tally: tempura = -1: a count cannot be negative",
        ),
        (
            PlayerNameError("Ana", "two players have this name", player=1),
            "player 2's name 'Ana': two players have this name",
        ),
    ],
    ids=[
        "hand_size",
        "hand_size_no_player_in_round",
        "hand_size_named",
        "deck_round",
        "deck_collection",
        "deck_game",
        "deck_game_by_round",
        "player_count_range",
        "player_count_round",
        "player_count_rules",
        "round_count_deck",
        "round_count_range",
        "round_count_given",
        "invalid_tally",
        "player_name",
    ],
)
def test_messages_say_what_is_wrong(error: ScoringError, message: str) -> None:
    assert str(error) == message


def test_errors_carry_fields() -> None:
    hand = HandSizeError(1, 11, 9, round=0, name="Ben")
    assert (hand.player, hand.cards, hand.hand_size, hand.round, hand.name) == (1, 11, 9, 0, "Ben")
    deck = DeckLimitError("maki_2", 13, 12, 2, player=0)
    assert (deck.kind, deck.used, deck.available, deck.round, deck.player, deck.scope) == (
        "maki_2",
        13,
        12,
        2,
        0,
        "collection",
    )
    count = PlayerCountError(6)
    assert (count.players, count.expected, count.round) == (6, None, None)
    rounds = RoundCountError(5, 4, max_rounds=3, hand_size=8)
    assert (rounds.rounds, rounds.players, rounds.max_rounds, rounds.expected) == (5, 4, 3, None)
    tally = InvalidTallyError("egg", "2", "a count must be a whole number, not str")
    assert (tally.key, tally.value, tally.player) == ("egg", "2", None)


def test_a_very_long_value_is_shortened_in_the_message() -> None:
    error = InvalidTallyError("egg", "x" * 500, "a count must be a whole number, not str")
    assert len(str(error)) < 150
    assert error.value == "x" * 500
