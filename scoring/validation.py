"""Checks that tallies could have come from a real deal, reported as data.

A `Problem` says who (player index), what (category), by how much (expected vs actual)
and where (round index), plus a message a person can act on. Errors are tallies that
cannot be right (more cards than the hand size, more of a kind than the deck holds);
warnings are tallies that are probably wrong (fewer cards than the hand size: a card was
probably missed in the photo).

`check_*` return every problem found; `validate_*` raise the first error as its typed
ScoringError and return the warnings, for callers that want exceptions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from scoring.cards import CARD_KINDS, DECK, HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS
from scoring.errors import (
    DeckLimitError,
    DeckScope,
    HandSizeError,
    PlayerCountError,
    RoundCountError,
    ScoringError,
    cards_said,
    who,
)
from scoring.rules import GameRules
from scoring.tally import Tally

Severity = Literal["error", "warning"]
SEVERITIES: tuple[Severity, ...] = ("error", "warning")


class ProblemCode(StrEnum):
    """What a Problem is about; the values are the `code` strings."""

    TOO_MANY_CARDS = "too_many_cards"
    TOO_FEW_CARDS = "too_few_cards"
    DECK_LIMIT = "deck_limit"
    PLAYER_COUNT = "player_count"
    ROUND_COUNT = "round_count"


def _optional_index(name: str, value: object) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"Problem.{name} must be None or a non-negative int, got {value!r}")


@dataclass(frozen=True, kw_only=True, slots=True)
class Problem:
    """One thing wrong (error) or suspicious (warning) about some tallies.

    `player` and `round` are 0-based indexes (the message counts from 1); `category` is a
    tally key or card kind; `expected` is the limit (hand size, deck count, rounds) and
    `actual` what was found.
    """

    severity: Severity
    code: str
    message: str
    player: int | None = None
    category: str | None = None
    expected: int | None = None
    actual: int | None = None
    round: int | None = None

    def __post_init__(self) -> None:
        if self.severity not in SEVERITIES:
            raise ValueError(
                f"Problem.severity must be 'error' or 'warning', not {self.severity!r}"
            )
        for name in ("code", "message"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value:
                raise ValueError(f"Problem.{name} must be a non-empty string, got {value!r}")
        if self.category is not None and not isinstance(self.category, str):
            raise ValueError(f"Problem.category must be None or a string, got {self.category!r}")
        for name in ("player", "expected", "actual", "round"):
            _optional_index(name, getattr(self, name))

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def to_dict(self) -> dict[str, object]:
        return {
            "severity": self.severity,
            "code": str(self.code),
            "message": self.message,
            "player": self.player,
            "category": self.category,
            "expected": self.expected,
            "actual": self.actual,
            "round": self.round,
        }


# A problem with the exception it stands for (None for a warning).
_Finding = tuple[Problem, ScoringError | None]


def _error(
    error: ScoringError,
    code: ProblemCode,
    *,
    player: int | None = None,
    category: str | None = None,
    expected: int | None = None,
    actual: int | None = None,
    round: int | None = None,
) -> _Finding:
    problem = Problem(
        severity="error",
        code=code.value,
        message=str(error),
        player=player,
        category=category,
        expected=expected,
        actual=actual,
        round=round,
    )
    return problem, error


def _name(names: Sequence[str] | None, player: int) -> str | None:
    if names is None or player >= len(names):
        return None
    return names[player]


def _valid_player_count(players: int) -> bool:
    return MIN_PLAYERS <= players <= MAX_PLAYERS


def _player_count(
    players: int, *, expected: int | None = None, round: int | None = None
) -> _Finding:
    return _error(
        PlayerCountError(players, expected=expected, round=round),
        ProblemCode.PLAYER_COUNT,
        expected=expected,
        actual=players,
        round=round,
    )


def _deck_findings(
    used: Counter[str] | dict[str, int],
    *,
    scope: DeckScope,
    round: int | None,
    player: int | None = None,
    name: str | None = None,
    skip: Iterable[str] = (),
    by_round: Sequence[Mapping[str, int]] = (),
) -> list[_Finding]:
    skipped = set(skip)
    findings = []
    for kind in CARD_KINDS:
        count = used.get(kind, 0)
        if count > DECK[kind] and kind not in skipped:
            error = DeckLimitError(
                kind, count, DECK[kind], round, player=player, name=name, scope=scope,
                by_round=[rnd.get(kind, 0) for rnd in by_round],
            )  # fmt: skip
            findings.append(
                _error(
                    error,
                    ProblemCode.DECK_LIMIT,
                    player=player,
                    category=kind,
                    expected=DECK[kind],
                    actual=count,
                    round=round,
                )
            )
    return findings


def _collection_findings(
    tally: Tally,
    *,
    players: int | None,
    player: int | None,
    round: int | None,
    name: str | None,
) -> list[_Finding]:
    findings: list[_Finding] = []
    if players is not None:
        size = HAND_SIZE[players]
        cards = tally.cards
        if cards > size:
            error = HandSizeError(player, cards, size, round=round, name=name)
            findings.append(
                _error(
                    error,
                    ProblemCode.TOO_MANY_CARDS,
                    player=player,
                    expected=size,
                    actual=cards,
                    round=round,
                )
            )
        elif cards < size:
            missing = size - cards
            guess = "a card was" if missing == 1 else f"{missing} cards were"
            prefix = "" if round is None else f"round {round + 1}: "
            message = (
                f"{prefix}{who(player, name)} has {cards_said(cards)}, the hand size for {players} "
                f"players is {size}: {guess} probably missed"
            )
            warning = Problem(
                severity="warning",
                code=ProblemCode.TOO_FEW_CARDS.value,
                message=message,
                player=player,
                expected=size,
                actual=cards,
                round=round,
            )
            findings.append((warning, None))
    findings += _deck_findings(
        tally.kinds_used(), scope="collection", round=round, player=player, name=name
    )
    return findings


def _check_tally(tally: object) -> Tally:
    if not isinstance(tally, Tally):
        raise TypeError(
            f"expected Tally, got {type(tally).__name__}; build one with Tally.from_mapping"
        )
    return tally


def _round_findings(
    tallies: Sequence[Tally], *, round: int | None, names: Sequence[str] | None
) -> list[_Finding]:
    table = [_check_tally(tally) for tally in tallies]
    findings: list[_Finding] = []
    players: int | None = len(table)
    if not _valid_player_count(len(table)):
        findings.append(_player_count(len(table), round=round))
        players = None
    for i, tally in enumerate(table):
        findings += _collection_findings(
            tally, players=players, player=i, round=round, name=_name(names, i)
        )
    used: Counter[str] = Counter()
    for tally in table:
        used.update(tally.kinds_used())
    flagged = {p.category for p, _ in findings if p.code == ProblemCode.DECK_LIMIT}
    findings += _deck_findings(used, scope="round", round=round, skip=_kinds(flagged))
    return findings


def _kinds(categories: Iterable[str | None]) -> set[str]:
    return {c for c in categories if c is not None}


def _game_findings(
    rounds: Sequence[Sequence[Tally]],
    *,
    rules: GameRules | None,
    names: Sequence[str] | None,
) -> list[_Finding]:
    table = [list(tallies) for tallies in rounds]
    findings: list[_Finding] = []
    players: int | None
    if rules is not None:
        players = rules.players
    elif names is not None:
        players = len(names)
    elif table:
        players = len(table[0])
    else:
        return findings
    if rules is not None and names is not None and len(names) != rules.players:
        findings.append(_player_count(len(names), expected=rules.players))
    if rules is None:
        if _valid_player_count(players):
            rules = GameRules(players)
        else:
            findings.append(_player_count(players))
    if rules is not None and len(table) > rules.rounds:
        error = RoundCountError(
            len(table), rules.players, max_rounds=rules.max_rounds, expected=rules.rounds
        )
        findings.append(
            _error(error, ProblemCode.ROUND_COUNT, expected=rules.rounds, actual=len(table))
        )
    by_round: list[Counter[str]] = []  # the cards of each kind each round used
    for index, tallies in enumerate(table):
        if len(tallies) != players and rules is not None:
            findings.append(_player_count(len(tallies), expected=players, round=index))
            by_round.append(_used(_check_tally(tally) for tally in tallies))
            continue
        round_findings = _round_findings(tallies, round=index, names=names)
        if rules is None:  # the player count is already reported for the whole game
            round_findings = [f for f in round_findings if f[0].code != ProblemCode.PLAYER_COUNT]
        findings += round_findings
        by_round.append(_used(tallies))
    used = sum(by_round, Counter())
    flagged = {p.category for p, _ in findings if p.code == ProblemCode.DECK_LIMIT}
    findings += _deck_findings(
        used, scope="game", round=None, skip=_kinds(flagged), by_round=by_round
    )
    return findings


def _used(tallies: Iterable[Tally]) -> Counter[str]:
    """The printed cards of each kind that `tallies` use together."""
    used: Counter[str] = Counter()
    for tally in tallies:
        used.update(tally.kinds_used())
    return used


def _problems(findings: list[_Finding]) -> list[Problem]:
    return [problem for problem, _ in findings]


def _raise_first_error(findings: list[_Finding]) -> list[Problem]:
    for _, error in findings:
        if error is not None:
            raise error
    return _problems(findings)


def check_collection(
    tally: Tally,
    *,
    players: int | None,
    player: int | None = None,
    round: int | None = None,
    name: str | None = None,
) -> list[Problem]:
    """Problems with one player's collection at a table of `players` (None: a table not
    known, so the hand size is not checked).

    More cards than the hand size is an error; fewer is a warning (a card was probably
    missed); more of a kind than the whole deck holds is an error. `player`, `round` (0-based
    indexes) and `name` only label the problems.
    """
    _check_tally(tally)
    if players is None:
        return _problems(_deck_findings(tally.kinds_used(), scope="collection", round=round,
                                        player=player, name=name))  # fmt: skip
    if isinstance(players, bool) or not isinstance(players, int):
        raise TypeError(f"players must be an int, not {type(players).__name__}")
    if not _valid_player_count(players):
        return _problems([_player_count(players, round=round)])
    return _problems(
        _collection_findings(tally, players=players, player=player, round=round, name=name)
    )


def check_round(
    tallies: Sequence[Tally],
    *,
    round: int | None = None,
    names: Sequence[str] | None = None,
) -> list[Problem]:
    """Problems with one round's tallies, one per player in seat order.

    Each collection against the hand size and the deck, then the round's collections
    together against the deck (a stack uses a wasabi and a nigiri); a kind already over the
    deck in one collection is not reported again for the round. A player count outside
    2-5 is an error (and the hand size is then not checked).
    """
    return _problems(_round_findings(tallies, round=round, names=names))


def check_game(
    rounds: Sequence[Sequence[Tally]],
    *,
    rules: GameRules | None = None,
    names: Sequence[str] | None = None,
) -> list[Problem]:
    """Problems with a game's rounds so far (a partial game is fine).

    Every round as in `check_round`; every round must have one tally per player and there
    may not be more rounds than the rules (3 by default); and the rounds together may not
    use more of a kind than the deck holds, since discards are not reshuffled (pudding
    included). The player count comes from `rules`, else `names`, else the first round.
    """
    return _problems(_game_findings(rounds, rules=rules, names=names))


def validate_collection(
    tally: Tally,
    *,
    players: int,
    player: int | None = None,
    round: int | None = None,
    name: str | None = None,
) -> list[Problem]:
    """Raise the first error of `check_collection` as its ScoringError; return warnings."""
    _check_tally(tally)
    if not _valid_player_count(players):
        raise PlayerCountError(players, round=round)
    return _raise_first_error(
        _collection_findings(tally, players=players, player=player, round=round, name=name)
    )


def validate_round(
    tallies: Sequence[Tally],
    *,
    round: int | None = None,
    names: Sequence[str] | None = None,
) -> list[Problem]:
    """Raise the first error of `check_round` as its ScoringError; return the warnings."""
    return _raise_first_error(_round_findings(tallies, round=round, names=names))


def validate_game(
    rounds: Sequence[Sequence[Tally]],
    *,
    rules: GameRules | None = None,
    names: Sequence[str] | None = None,
) -> list[Problem]:
    """Raise the first error of `check_game` as its ScoringError; return the warnings."""
    return _raise_first_error(_game_findings(rounds, rules=rules, names=names))
