"""Hypothesis strategies for the rules engine: free-form tallies and real deals."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import strategies as st

from scoring import DECK, HAND_SIZE, NIGIRI, TALLY_KEYS, Tally

# Any counts (not necessarily dealable): for arithmetic properties, scored validate=False.
tallies = st.builds(Tally, **{key: st.integers(0, 6) for key in TALLY_KEYS})
player_counts = st.integers(2, 5)


@st.composite
def tables(draw: st.DrawFn, min_players: int = 2, max_players: int = 5) -> list[Tally]:
    """One round's free-form tallies for 2-5 players."""
    return draw(st.lists(tallies, min_size=min_players, max_size=max_players))


def collection(cards: list[str], rng: random.Random) -> Tally:
    """A dealt hand as a tally: each nigiri lands on a free wasabi or not, by chance."""
    counts = Counter(cards)
    free_wasabi = counts.pop("wasabi", 0)
    nigiri = [card for card in cards if card in NIGIRI]
    rng.shuffle(nigiri)
    for card in nigiri:
        if free_wasabi and rng.random() < 0.5:
            free_wasabi -= 1
            counts[card] -= 1
            counts[f"{card}_on_wasabi"] += 1
    counts["wasabi"] = free_wasabi
    return Tally(**{key: counts[key] for key in TALLY_KEYS})


@st.composite
def dealt_games(draw: st.DrawFn, rounds: int = 3) -> tuple[int, list[list[Tally]]]:
    """(players, rounds of tallies) dealt from one shuffled 108-card deck, no reshuffle."""
    players = draw(st.sampled_from([p for p in HAND_SIZE if p * HAND_SIZE[p] * rounds <= 108]))
    rng = draw(st.randoms(use_true_random=False))
    deck = [kind for kind, count in DECK.items() for _ in range(count)]
    rng.shuffle(deck)
    size = HAND_SIZE[players]
    game = []
    for _ in range(rounds):
        hands = [[deck.pop() for _ in range(size)] for _ in range(players)]
        game.append([collection(hand, rng) for hand in hands])
    return players, game
