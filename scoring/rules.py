"""The table's set-up: how many players, their hand size, how many rounds, which variant."""

from __future__ import annotations

import operator
from dataclasses import KW_ONLY, dataclass
from typing import SupportsIndex

from scoring.cards import DECK_SIZE, HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS
from scoring.errors import PlayerCountError, RoundCountError

STANDARD_ROUNDS = 3
# The "more rounds" variant (seed 002) plays 4 or 5, where the deck can deal them.
VARIANT_ROUNDS = (4, 5)


def _whole(value: object, what: str) -> int:
    if isinstance(value, bool):
        raise TypeError(f"{what} must be an int, not bool")
    if not isinstance(value, SupportsIndex):
        raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    return operator.index(value)


def check_players(players: int) -> int:
    """`players` if 2-5, else PlayerCountError."""
    players = _whole(players, "players")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise PlayerCountError(players)
    return players


def hand_size(players: int) -> int:
    """Cards dealt to each player per round: 10/9/8/7 for 2/3/4/5 players."""
    return HAND_SIZE[check_players(players)]


def max_rounds(players: int) -> int:
    """The most rounds the 108-card deck can deal to `players` (3 to 5)."""
    return min(max(VARIANT_ROUNDS), DECK_SIZE // (players * hand_size(players)))


@dataclass(frozen=True, slots=True)
class GameRules:
    """What the table agreed before dealing.

    `rounds` is 3, or 4 or 5 as a variant where players x hand size x rounds <= 108 (the
    discards are not reshuffled). `pass_both_ways` is recorded for the record; it changes
    how hands travel, not how anything scores.
    """

    players: int
    _: KW_ONLY
    rounds: int = STANDARD_ROUNDS
    pass_both_ways: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", check_players(self.players))
        rounds = _whole(self.rounds, "rounds")
        object.__setattr__(self, "rounds", rounds)
        if not isinstance(self.pass_both_ways, bool):
            raise TypeError(f"pass_both_ways must be a bool, not {type(self.pass_both_ways)}")
        limit = max_rounds(self.players)
        if rounds != STANDARD_ROUNDS and (rounds not in VARIANT_ROUNDS or rounds > limit):
            raise RoundCountError(rounds, self.players, max_rounds=limit, hand_size=self.hand_size)

    @property
    def hand_size(self) -> int:
        return HAND_SIZE[self.players]

    @property
    def max_rounds(self) -> int:
        """The most rounds the deck can deal at this player count."""
        return max_rounds(self.players)

    @property
    def cards_dealt(self) -> int:
        """Cards dealt over the whole game."""
        return self.players * self.hand_size * self.rounds

    def to_dict(self) -> dict[str, int | bool]:
        return {
            "players": self.players,
            "rounds": self.rounds,
            "pass_both_ways": self.pass_both_ways,
            "hand_size": self.hand_size,
        }
