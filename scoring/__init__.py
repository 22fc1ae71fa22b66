"""Pure Sushi Go! rules engine: tallies in, scores out. Standard library only."""

from scoring.cards import (
    CARD_KINDS,
    DECK,
    DECK_SIZE,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NIGIRI,
    STACKS,
    TALLY_KEYS,
)

__all__ = [
    "CARD_KINDS",
    "DECK",
    "DECK_SIZE",
    "HAND_SIZE",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NIGIRI",
    "STACKS",
    "TALLY_KEYS",
]
