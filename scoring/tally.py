"""One player's collection in one round, as counts per tally key (design.md's contract)."""

from __future__ import annotations

import operator
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, SupportsIndex

from scoring.cards import CARD_KINDS, NIGIRI, STACKS, TALLY_KEYS
from scoring.errors import InvalidTallyError


def tally_count(key: str, value: object, *, player: int | None = None) -> int:
    """`value` as a tally count: a non-negative whole number, never a bool.

    Any integer type is accepted (int, numpy integers: anything with `__index__`); floats,
    strings, None and bools are refused, never rounded or parsed.
    """
    if type(value) is int and value >= 0:  # the common case, kept fast
        return value
    if isinstance(value, bool):
        raise InvalidTallyError(
            key, value, "a count must be a whole number, not true/false", player=player
        )
    if not isinstance(value, SupportsIndex):
        kind = "null" if value is None else type(value).__name__
        raise InvalidTallyError(
            key, value, f"a count must be a whole number, not {kind}", player=player
        )
    count = operator.index(value)
    if count < 0:
        raise InvalidTallyError(key, value, "a count cannot be negative", player=player)
    return count


@dataclass(frozen=True, kw_only=True, slots=True)
class Tally:
    """Counts of one player's face-up collection at the end of a round.

    maki_N counts maki CARDS with N icons. A nigiri lying on a wasabi is a stack and is
    counted only under `<nigiri>_on_wasabi`: not as a plain nigiri and not as a `wasabi`
    (which counts the wasabi with nothing on it).
    """

    tempura: int = 0
    sashimi: int = 0
    dumpling: int = 0
    maki_1: int = 0
    maki_2: int = 0
    maki_3: int = 0
    egg: int = 0
    salmon: int = 0
    squid: int = 0
    egg_on_wasabi: int = 0
    salmon_on_wasabi: int = 0
    squid_on_wasabi: int = 0
    wasabi: int = 0
    chopsticks: int = 0
    pudding: int = 0

    def __post_init__(self) -> None:
        for key in TALLY_KEYS:
            object.__setattr__(self, key, tally_count(key, getattr(self, key)))

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, Any], *, player: int | None = None) -> Tally:
        """Build a tally from a JSON-like object: a missing key is 0.

        An unknown key, a negative, a bool or a non-integer raises InvalidTallyError naming
        the key and the value (and `player`, an index, when given).
        """
        if not isinstance(mapping, Mapping):
            raise InvalidTallyError(
                None,
                mapping,
                "a tally must be an object of counts per category",
                player=player,
            )
        counts: dict[str, int] = {}
        for key, value in mapping.items():
            if key not in TALLY_KEYS:
                raise InvalidTallyError(
                    str(key),
                    value,
                    f"{key!r} is not a tally category; the categories are " + ", ".join(TALLY_KEYS),
                    player=player,
                )
            counts[key] = tally_count(key, value, player=player)
        return cls(**counts)

    def to_dict(self) -> dict[str, int]:
        """All fifteen keys, in the contract's order."""
        return {key: getattr(self, key) for key in TALLY_KEYS}

    @property
    def maki_icons(self) -> int:
        """Roll icons across the maki cards (what maki scoring compares)."""
        return self.maki_1 + 2 * self.maki_2 + 3 * self.maki_3

    @property
    def stacks(self) -> int:
        """Nigiri lying on a wasabi."""
        return sum(getattr(self, key) for key in STACKS)

    @property
    def cards(self) -> int:
        """Cards in the collection: every count, each stack counting 2."""
        return sum(getattr(self, key) for key in TALLY_KEYS) + self.stacks

    @property
    def nigiri_used(self) -> dict[str, int]:
        """Nigiri cards per kind, plain and on a wasabi together."""
        return {n: getattr(self, n) + getattr(self, f"{n}_on_wasabi") for n in NIGIRI}

    @property
    def wasabi_used(self) -> int:
        """Wasabi cards, loose and under a nigiri together."""
        return self.wasabi + self.stacks

    def kinds_used(self) -> dict[str, int]:
        """Printed cards per kind (CARD_KINDS): a stack uses one wasabi and one nigiri."""
        used = {kind: getattr(self, kind) for kind in CARD_KINDS if kind in TALLY_KEYS}
        used.update(self.nigiri_used)
        used["wasabi"] = self.wasabi_used
        return {kind: used[kind] for kind in CARD_KINDS}
