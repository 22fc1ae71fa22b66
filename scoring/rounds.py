"""Scoring one round: each dish per player, and maki across the table (seed 000)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from scoring.cards import NIGIRI
from scoring.rules import check_players
from scoring.tally import Tally, tally_count

# The categories of a round's breakdown, in design.md's order.
BREAKDOWN_KEYS: Final[tuple[str, ...]] = ("maki", "tempura", "sashimi", "dumpling", "nigiri")

TEMPURA_PAIR_POINTS: Final = 5
SASHIMI_SET_POINTS: Final = 10
# Points for a pile of 0, 1, 2, 3, 4, and 5 or more dumplings (a whole-pile value).
DUMPLING_POINTS: Final[tuple[int, ...]] = (0, 1, 3, 6, 10, 15)
NIGIRI_POINTS: Final = {"egg": 1, "salmon": 2, "squid": 3}
WASABI_MULTIPLIER: Final = 3
MAKI_MOST_POINTS: Final = 6
MAKI_SECOND_POINTS: Final = 3


def tempura_points(cards: int) -> int:
    """5 for each complete pair; a leftover single scores nothing."""
    return TEMPURA_PAIR_POINTS * (cards // 2)


def sashimi_points(cards: int) -> int:
    """10 for each complete set of three; leftovers score nothing."""
    return SASHIMI_SET_POINTS * (cards // 3)


def dumpling_points(cards: int) -> int:
    """The whole pile: 1, 3, 6, 10, 15 for 1..5 dumplings; more than five still 15."""
    return DUMPLING_POINTS[min(cards, len(DUMPLING_POINTS) - 1)]


def nigiri_points(tally: Tally) -> int:
    """Egg 1, salmon 2, squid 3; a nigiri on a wasabi scores three times as much.

    Unfilled wasabi and chopsticks score nothing.
    """
    return sum(
        NIGIRI_POINTS[n]
        * (getattr(tally, n) + WASABI_MULTIPLIER * getattr(tally, f"{n}_on_wasabi"))
        for n in NIGIRI
    )


def maki_points(icons: Sequence[int]) -> list[int]:
    """Maki awards for every player's icon total, in the same order.

    Most icons scores 6 and second-most 3. A tie for most splits 6, dropping the remainder,
    and cancels the second-place award; tied runners-up split 3 the same way. Only players
    with at least one icon can score (seed 000's zero-maki clarification): if only one
    player has any, they alone score 6; if nobody does, nobody scores.
    """
    counts = [tally_count("maki icons", value, player=i) for i, value in enumerate(icons)]
    awards = [0] * len(counts)
    contenders = sorted({c for c in counts if c > 0}, reverse=True)
    if not contenders:
        return awards
    most = [i for i, c in enumerate(counts) if c == contenders[0]]
    for i in most:
        awards[i] = MAKI_MOST_POINTS // len(most)
    if len(most) == 1 and len(contenders) > 1:
        second = [i for i, c in enumerate(counts) if c == contenders[1]]
        for i in second:
            awards[i] = MAKI_SECOND_POINTS // len(second)
    return awards


@dataclass(frozen=True, kw_only=True, slots=True)
class RoundScore:
    """One player's points for one round, per category (pudding scores at game end)."""

    maki: int = 0
    tempura: int = 0
    sashimi: int = 0
    dumpling: int = 0
    nigiri: int = 0

    def __post_init__(self) -> None:
        for key in BREAKDOWN_KEYS:
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"RoundScore.{key} must be a non-negative int, got {value!r}")

    @property
    def total(self) -> int:
        return sum(getattr(self, key) for key in BREAKDOWN_KEYS)

    @property
    def breakdown(self) -> dict[str, int]:
        """Points per category: exactly the keys maki, tempura, sashimi, dumpling, nigiri."""
        return {key: getattr(self, key) for key in BREAKDOWN_KEYS}

    def to_dict(self) -> dict[str, object]:
        return {"total": self.total, "breakdown": self.breakdown}


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A round's scores, one per player in seat order; `to_dict()` is the HTTP body."""

    scores: tuple[RoundScore, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "scores", tuple(self.scores))
        for score in self.scores:
            if not isinstance(score, RoundScore):
                raise TypeError(f"RoundResult holds RoundScore, not {type(score).__name__}")

    @property
    def totals(self) -> list[int]:
        return [score.total for score in self.scores]

    def to_dict(self) -> dict[str, object]:
        return {"scores": [score.to_dict() for score in self.scores]}


def as_tallies(tallies: Sequence[Tally]) -> tuple[Tally, ...]:
    """The tallies as a tuple, refusing anything that is not a Tally (a programming error)."""
    result = tuple(tallies)
    for tally in result:
        if not isinstance(tally, Tally):
            raise TypeError(
                f"expected Tally, got {type(tally).__name__}; build one with Tally.from_mapping"
            )
    return result


def score_round(tallies: Sequence[Tally], *, validate: bool = True) -> list[RoundScore]:
    """Score one round: one tally per player (2-5), scores in the same order.

    With `validate` (the default) a round that could not have been dealt raises the
    first error of `check_round` as its typed exception (PlayerCountError, HandSizeError,
    DeckLimitError); warnings (fewer cards than the hand size) do not stop scoring. With
    `validate=False` only the player count is checked: any counts score arithmetically.
    """
    table = as_tallies(tallies)
    if validate:
        from scoring.validation import validate_round

        validate_round(table)
    else:
        check_players(len(table))
    maki = maki_points([tally.maki_icons for tally in table])
    return [
        RoundScore(
            maki=maki[i],
            tempura=tempura_points(tally.tempura),
            sashimi=sashimi_points(tally.sashimi),
            dumpling=dumpling_points(tally.dumpling),
            nigiri=nigiri_points(tally),
        )
        for i, tally in enumerate(table)
    ]
