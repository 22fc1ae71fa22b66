"""The deck and the tally vocabulary: names every other package shares."""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

# The public tally keys, in the order of design.md's contract.
TALLY_KEYS: Final[tuple[str, ...]] = (
    "tempura",
    "sashimi",
    "dumpling",
    "maki_1",
    "maki_2",
    "maki_3",
    "egg",
    "salmon",
    "squid",
    "egg_on_wasabi",
    "salmon_on_wasabi",
    "squid_on_wasabi",
    "wasabi",
    "chopsticks",
    "pudding",
)

# The printed cards: one entry per card face (maki by icon count).
CARD_KINDS: Final[tuple[str, ...]] = (
    "tempura",
    "sashimi",
    "dumpling",
    "maki_1",
    "maki_2",
    "maki_3",
    "egg",
    "salmon",
    "squid",
    "wasabi",
    "pudding",
    "chopsticks",
)

# The original 108-card deck (seed 000).
DECK: Final = MappingProxyType(
    {
        "tempura": 14,
        "sashimi": 14,
        "dumpling": 14,
        "maki_1": 6,
        "maki_2": 12,
        "maki_3": 8,
        "egg": 5,
        "salmon": 10,
        "squid": 5,
        "wasabi": 6,
        "pudding": 10,
        "chopsticks": 4,
    }
)
DECK_SIZE: Final[int] = sum(DECK.values())

NIGIRI: Final[tuple[str, ...]] = ("egg", "salmon", "squid")
MAKI: Final[tuple[str, ...]] = ("maki_1", "maki_2", "maki_3")  # by the icons on the card
# A stack key names the nigiri lying on a wasabi.
STACKS: Final = MappingProxyType({f"{n}_on_wasabi": n for n in NIGIRI})

# Cards dealt to each player per round, by player count.
HAND_SIZE: Final = MappingProxyType({2: 10, 3: 9, 4: 8, 5: 7})
MIN_PLAYERS: Final[int] = 2
MAX_PLAYERS: Final[int] = 5

# Each printed card as a person reads it in a message: a maki by the rolls its top-left
# corner shows, as the page's counters name it ("Maki, 2 rolls").
KIND_NAMES: Final = MappingProxyType(
    {
        "tempura": "tempura",
        "sashimi": "sashimi",
        "dumpling": "dumpling",
        "maki_1": "maki of 1 roll",
        "maki_2": "maki of 2 rolls",
        "maki_3": "maki of 3 rolls",
        "egg": "egg nigiri",
        "salmon": "salmon nigiri",
        "squid": "squid nigiri",
        "wasabi": "wasabi",
        "pudding": "pudding",
        "chopsticks": "chopsticks",
    }
)

# Each tally key as the table says it, capitalised for a label or a heading: the annotated
# photo draws these; api/web/cards.js spells the same names (tests/api check they agree).
TALLY_NAMES: Final = MappingProxyType(
    {
        "tempura": "Tempura",
        "sashimi": "Sashimi",
        "dumpling": "Dumpling",
        "maki_1": "Maki, 1 roll",
        "maki_2": "Maki, 2 rolls",
        "maki_3": "Maki, 3 rolls",
        "egg": "Egg nigiri",
        "salmon": "Salmon nigiri",
        "squid": "Squid nigiri",
        "egg_on_wasabi": "Egg on wasabi",
        "salmon_on_wasabi": "Salmon on wasabi",
        "squid_on_wasabi": "Squid on wasabi",
        "wasabi": "Wasabi (no nigiri on it)",
        "chopsticks": "Chopsticks",
        "pudding": "Pudding",
    }
)


def said(key: str) -> str:
    """A card kind or tally key as a sentence says it: "squid nigiri", "squid nigiri on a
    wasabi", "maki of 3 rolls"; an unknown key as it is."""
    if key in STACKS:
        return f"{KIND_NAMES[STACKS[key]]} on a wasabi"
    return KIND_NAMES.get(key, key)
