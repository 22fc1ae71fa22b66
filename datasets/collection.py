"""One player's face-up collection at round end, dealt from the real deck.

A collection is a list of piles: a single card, or a stack (a nigiri lying on a wasabi).
Stacks arise the way they do at the table: a nigiri played while an unfilled wasabi lies
in front of the player goes onto it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from scoring.cards import DECK, HAND_SIZE, NIGIRI, TALLY_KEYS


@dataclass(frozen=True)
class Pile:
    """One card, or a nigiri on a wasabi (cards = ("wasabi", nigiri))."""

    cards: tuple[str, ...]

    @property
    def is_stack(self) -> bool:
        return len(self.cards) == 2

    @property
    def tally_key(self) -> str:
        return f"{self.cards[1]}_on_wasabi" if self.is_stack else self.cards[0]


@dataclass(frozen=True)
class Collection:
    players: int
    piles: tuple[Pile, ...]

    @property
    def hand_size(self) -> int:
        return HAND_SIZE[self.players]

    @property
    def cards(self) -> int:
        return sum(len(p.cards) for p in self.piles)

    def tally(self) -> dict[str, int]:
        counts = Counter(p.tally_key for p in self.piles)
        return {key: counts.get(key, 0) for key in TALLY_KEYS}


_DECK_LIST = [kind for kind, n in DECK.items() for _ in range(n)]


def deal_collection(rng: np.random.Generator, *, players: int | None = None) -> Collection:
    """Deal the cards a player ends a round with, in a simulated play order."""
    if players is None:
        players = int(rng.integers(2, 6))
    hand = HAND_SIZE[players]
    deck = list(_DECK_LIST)
    if rng.random() < 0.35:
        # Wasabi is 6 cards in 108: without a nudge, stacks would be too rare to learn.
        first = [deck.pop(deck.index("wasabi")), deck.pop(deck.index(str(rng.choice(NIGIRI))))]
        rest = [deck[i] for i in rng.choice(len(deck), hand - 2, replace=False)]
        played = first + rest
        order = [0, *rng.permutation(np.arange(1, hand))]
        played = [played[i] for i in order]
    else:
        played = [deck[i] for i in rng.choice(len(deck), hand, replace=False)]
    piles: list[Pile] = []
    open_wasabi: list[int] = []
    for card in played:
        if card in NIGIRI and open_wasabi:
            piles[open_wasabi.pop(0)] = Pile(("wasabi", card))
        else:
            if card == "wasabi":
                open_wasabi.append(len(piles))
            piles.append(Pile((card,)))
    return Collection(players, tuple(piles))
