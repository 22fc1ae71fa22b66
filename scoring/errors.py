"""Domain errors of the rules engine.

Every error is a `ScoringError` (itself a `ValueError`, so generic handlers still catch
it) and carries the facts a caller needs to act on as attributes: which player, which
category, what limit, what was found. The message says the same thing in words.

Player and round numbers in attributes are 0-based indexes into the caller's lists; the
messages count from 1 ("player 2" is index 1), as people at the table do.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Literal

from scoring.cards import DECK_SIZE, HAND_SIZE, KIND_NAMES

DeckScope = Literal["collection", "round", "game"]

# What a deck count includes beyond the obvious, said where a kind is over the deck.
_KIND_NOTES: dict[str, str] = {
    "egg": " (plain and on wasabi)",
    "salmon": " (plain and on wasabi)",
    "squid": " (plain and on wasabi)",
    "wasabi": " (loose and under a nigiri)",
}


def _round_prefix(round: int | None) -> str:
    return "" if round is None else f"round {round + 1}: "


def who(player: int | None, name: str | None = None) -> str:
    """A player as a message names them: the name if known, else 'player N' (1-based)."""
    if name:
        return name
    if player is not None:
        return f"player {player + 1}"
    return "this collection"


def cards_said(count: int) -> str:
    """A count of cards in words: "1 card", "9 cards" ("this collection has 1 cards" had
    been said)."""
    return f"{count} card" if count == 1 else f"{count} cards"


def _short_repr(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


class ScoringError(ValueError):
    """Base of every rules-engine error: input that cannot be scored as given."""

    code: ClassVar[str] = "scoring_error"

    @property
    def message(self) -> str:
        return str(self)


class InvalidTallyError(ScoringError):
    """A tally entry is not a known category or not a non-negative whole number.

    `key` is None when the tally as a whole is wrong (not a mapping).
    """

    code: ClassVar[str] = "invalid_tally"

    def __init__(
        self, key: str | None, value: object, reason: str, *, player: int | None = None
    ) -> None:
        self.key = key
        self.value = value
        self.reason = reason
        self.player = player
        where = "" if player is None else f"{who(player)}'s tally: "
        subject = "the tally" if key is None else f"{key} = {_short_repr(value)}"
        super().__init__(f"{where}{subject}: {reason}")


class PlayerCountError(ScoringError):
    """The number of players is outside 2-5, or does not match the game's.

    `players` is the count found; `expected` the game's count when one is known (else the
    2-5 range applies); `round` the round whose tallies did not match.
    """

    code: ClassVar[str] = "player_count"

    def __init__(
        self, players: int, *, expected: int | None = None, round: int | None = None
    ) -> None:
        self.players = players
        self.expected = expected
        self.round = round
        lo, hi = min(HAND_SIZE), max(HAND_SIZE)
        if expected is None:
            text = f"Sushi Go! is played by {lo} to {hi} players, got {players}"
        elif round is not None:
            text = (
                f"round {round + 1} has tallies for {players} players, "
                f"the game has {expected} players"
            )
        else:
            text = f"the game is set up for {expected} players, got {players}"
        super().__init__(text)


class PlayerNameError(ScoringError):
    """A player's name is empty, not a string, or used twice."""

    code: ClassVar[str] = "player_name"

    def __init__(self, name: object, reason: str, *, player: int | None = None) -> None:
        self.name = name
        self.reason = reason
        self.player = player
        where = "" if player is None else f"player {player + 1}'s name "
        super().__init__(f"{where}{_short_repr(name)}: {reason}")


class HandSizeError(ScoringError):
    """A collection holds more cards than the hand size allows.

    `cards` is what the collection holds (a stack counts 2), `hand_size` the cards dealt
    to each player at this player count.
    """

    code: ClassVar[str] = "too_many_cards"

    def __init__(
        self,
        player: int | None,
        cards: int,
        hand_size: int,
        *,
        round: int | None = None,
        name: str | None = None,
    ) -> None:
        self.player = player
        self.cards = cards
        self.hand_size = hand_size
        self.round = round
        self.name = name
        players = {size: count for count, size in HAND_SIZE.items()}.get(hand_size)
        rule = (
            f"the hand size for {players} players is {hand_size}"
            if players is not None
            else f"the hand size is {hand_size}"
        )
        over = cards - hand_size  # said as the missed cards of a short hand are
        extra = f": {'one card' if over == 1 else f'{over} cards'} too many" if over > 0 else ""
        super().__init__(
            f"{_round_prefix(round)}{who(player, name)} has {cards_said(cards)}, {rule}{extra}"
        )


class DeckLimitError(ScoringError):
    """Collections use more cards of one kind than the 108-card deck holds.

    `kind` is one of CARD_KINDS (a stack uses a wasabi and a nigiri); `used` the count
    found; `available` the deck's count. `scope` says what was counted: one player's
    collection, a round's collections together, or every round of the game together
    (discards are not reshuffled, so a game cannot use a card twice either).
    """

    code: ClassVar[str] = "deck_limit"

    def __init__(
        self,
        kind: str,
        used: int,
        available: int,
        round: int | None,
        *,
        player: int | None = None,
        name: str | None = None,
        scope: DeckScope | None = None,
        by_round: Sequence[int] = (),
    ) -> None:
        if scope is None:
            scope = "collection" if player is not None else "round"
        self.kind = kind
        self.used = used
        self.available = available
        self.round = round
        self.player = player
        self.name = name
        self.scope: DeckScope = scope
        label = KIND_NAMES.get(kind, kind) + _KIND_NOTES.get(kind, "")
        if scope == "collection" and player is None and not name:
            holder = "this collection holds"
        elif scope == "collection":
            holder = f"{who(player, name)}'s collection holds"
        elif scope == "round":
            holder = "the collections together hold"
        else:
            holder = "the rounds together hold"
        text = f"{_round_prefix(round)}{holder} {used} {label}, the deck has only {available}"
        if scope == "game":
            # Where they lie, so that a player knows which round to fix: `by_round` holds
            # each round's count, in order.
            rounds = ", ".join(f"round {i}: {n}" for i, n in enumerate(by_round, 1) if n)
            text += f" ({rounds}; " if rounds else " ("
            text += "discards are not reshuffled between rounds)"
        super().__init__(text)


class RoundCountError(ScoringError):
    """A game's number of rounds cannot be played, or more rounds were given than it has.

    `rounds` is the count asked for or given; `players` the player count; `max_rounds` the
    most rounds the deck can deal at that player count; `expected` the game's rounds when
    more rounds of tallies than that were given.
    """

    code: ClassVar[str] = "round_count"

    def __init__(
        self,
        rounds: int,
        players: int,
        *,
        max_rounds: int | None = None,
        expected: int | None = None,
        hand_size: int | None = None,
    ) -> None:
        self.rounds = rounds
        self.players = players
        self.max_rounds = max_rounds
        self.expected = expected
        self.hand_size = hand_size
        if expected is not None:
            text = f"{rounds} rounds were given, the game has {expected}"
        elif rounds not in (3, 4, 5):
            text = f"a game has 3 rounds, or 4 or 5 as a variant; got {rounds}"
        elif hand_size is not None and rounds * players * hand_size > DECK_SIZE:
            text = (
                f"{rounds} rounds with {players} players need {rounds * players * hand_size} "
                f"cards ({hand_size} a hand), more than the deck's {DECK_SIZE}"
            )
            if max_rounds is not None:
                text += f"; with {players} players play at most {max_rounds} rounds"
        else:
            text = f"{rounds} rounds cannot be played with {players} players"
        super().__init__(text)


__all__ = [
    "DeckLimitError",
    "DeckScope",
    "HandSizeError",
    "InvalidTallyError",
    "PlayerCountError",
    "PlayerNameError",
    "RoundCountError",
    "ScoringError",
    "who",
]
