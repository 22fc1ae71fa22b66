"""A whole game: round totals, dessert after the last round, totals and winners.

`score_game` works on the rounds played so far: standings can be read at any time. Dessert
is applied only once every round of the game is in (`complete`); until then it is 0 and
there are no `winners` yet, only `leaders`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.dessert import dessert_points
from scoring.errors import PlayerCountError, PlayerNameError, RoundCountError
from scoring.names import MAX_NAME_LENGTH, clean_text, name_key
from scoring.rounds import RoundResult, as_tallies, score_round
from scoring.rules import GameRules, check_players
from scoring.tally import Tally
from scoring.validation import validate_game


def _non_negative(owner: str, name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{owner}.{name} must be a non-negative int, got {value!r}")


def check_names(names: Sequence[str]) -> tuple[str, ...]:
    """Player names in seat order, as `scoring.names` cleans them (NFC, trimmed, no control
    or format characters, at most MAX_NAME_LENGTH): 2-5 of them, no two alike once cleaned
    (case aside)."""
    if isinstance(names, str):
        raise TypeError("players must be a sequence of names, not one string")
    given = tuple(names)
    check_players(len(given))
    result: list[str] = []
    seen: set[str] = set()
    for index, name in enumerate(given):
        if not isinstance(name, str):
            raise PlayerNameError(name, "a name must be a string", player=index)
        try:
            cleaned = clean_text(name, max_length=MAX_NAME_LENGTH)
        except ValueError as error:
            raise PlayerNameError(name, f"a name {error}", player=index) from None
        if name_key(cleaned) in seen:
            raise PlayerNameError(cleaned, "two players have this name", player=index)
        seen.add(name_key(cleaned))
        result.append(cleaned)
    return tuple(result)


@dataclass(frozen=True, kw_only=True, slots=True)
class PlayerResult:
    """One player's line on the score sheet."""

    name: str
    rounds: tuple[int, ...]
    dessert: int
    puddings: int
    total: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "rounds", tuple(self.rounds))
        if not isinstance(self.name, str) or not self.name.strip():
            raise PlayerNameError(self.name, "a name cannot be empty")
        for points in self.rounds:
            _non_negative("PlayerResult", "rounds", points)
        _non_negative("PlayerResult", "puddings", self.puddings)
        if isinstance(self.dessert, bool) or not isinstance(self.dessert, int):
            raise ValueError(f"PlayerResult.dessert must be an int, got {self.dessert!r}")
        if self.total != sum(self.rounds) + self.dessert:
            raise ValueError(
                f"PlayerResult.total {self.total!r} is not the rounds {list(self.rounds)} "
                f"plus dessert {self.dessert}"
            )

    def to_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "rounds": list(self.rounds),
            "dessert": self.dessert,
            "total": self.total,
            "puddings": self.puddings,
        }


def standing(player: PlayerResult) -> tuple[int, int]:
    """What players are ranked by, higher better: total, then puddings (the rulebook's
    tie-break, seeds/000)."""
    return (player.total, player.puddings)


def leading_players(players: Sequence[PlayerResult]) -> tuple[str, ...]:
    """Names of those ahead: highest total, then most puddings; still level, all of them."""
    if not players:
        return ()
    best = max(standing(p) for p in players)
    return tuple(p.name for p in players if standing(p) == best)


@dataclass(frozen=True, kw_only=True, slots=True)
class GameResult:
    """The score sheet: players in seat order, who leads, and who won once complete.

    `round_results` holds each round's per-category scores. `complete` is true once every
    round of `rules` is in; only then is dessert applied and are there `winners`.
    """

    rules: GameRules
    players: tuple[PlayerResult, ...]
    round_results: tuple[RoundResult, ...]
    complete: bool
    leaders: tuple[str, ...]
    winners: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "round_results", tuple(self.round_results))
        object.__setattr__(self, "leaders", tuple(self.leaders))
        object.__setattr__(self, "winners", tuple(self.winners))
        names = [p.name for p in self.players]
        if len(set(names)) != len(names):
            raise ValueError(f"GameResult player names must be unique: {names}")
        if len(self.players) != self.rules.players:
            raise PlayerCountError(len(self.players), expected=self.rules.players)
        if len(self.round_results) > self.rules.rounds:
            raise RoundCountError(
                len(self.round_results), self.rules.players, expected=self.rules.rounds
            )
        for index, result in enumerate(self.round_results):
            if len(result.scores) != len(self.players):
                raise PlayerCountError(len(result.scores), expected=len(self.players), round=index)
        if self.complete != (len(self.round_results) == self.rules.rounds):
            raise ValueError("GameResult.complete must say whether every round is in")
        if not set(self.leaders) <= set(names) or not set(self.winners) <= set(names):
            raise ValueError("GameResult leaders and winners must be players of the game")
        if self.winners and not self.complete:
            raise ValueError("a game has no winners before its last round")

    @property
    def rounds_played(self) -> int:
        return len(self.round_results)

    def player(self, name: str) -> PlayerResult:
        for result in self.players:
            if result.name == name:
                return result
        raise KeyError(name)

    def standings(self) -> list[PlayerResult]:
        """Players best first (total, then puddings); level players keep seat order."""
        return sorted(self.players, key=standing, reverse=True)

    def places(self) -> tuple[int, ...]:
        """Each player's place in seat order, 1 the best (`standing`); players level on
        both total and puddings share a place and the next is skipped (1, 1, 3)."""
        return tuple(
            1 + sum(standing(other) > standing(p) for other in self.players) for p in self.players
        )

    def to_dict(self) -> dict[str, object]:
        """design.md's game body, plus `complete`, `leaders`, `rounds_played` and each
        player's `place`."""
        return {
            "players": [
                {**p.to_dict(), "place": place}
                for p, place in zip(self.players, self.places(), strict=True)
            ],
            "winners": list(self.winners),
            "leaders": list(self.leaders),
            "complete": self.complete,
            "rounds_played": self.rounds_played,
        }


def score_game(
    players: Sequence[str],
    rounds: Sequence[Sequence[Tally]],
    *,
    rules: GameRules | None = None,
    validate: bool = True,
) -> GameResult:
    """Score a game from its rounds so far: `rounds[r][p]` is player p's tally in round r.

    `players` are the names in seat order (2-5, unique, non-blank). `rules` defaults to a
    standard 3-round game for that many players. Fewer rounds than the rules give the
    standings so far (dessert 0, no winners, `complete` false); more raise
    RoundCountError. With `validate` (the default) tallies that could not have been dealt
    (over the hand size, over the deck in a round or across the game) raise the first
    error of `check_game` as its ScoringError.
    """
    names = check_names(players)
    if rules is None:
        rules = GameRules(len(names))
    elif rules.players != len(names):
        raise PlayerCountError(len(names), expected=rules.players)
    if isinstance(rounds, str):
        raise TypeError("rounds must be a sequence of rounds of tallies")
    table = tuple(as_tallies(tallies) for tallies in rounds)
    if len(table) > rules.rounds:
        raise RoundCountError(
            len(table), rules.players, max_rounds=rules.max_rounds, expected=rules.rounds
        )
    for index, tallies in enumerate(table):
        if len(tallies) != len(names):
            raise PlayerCountError(len(tallies), expected=len(names), round=index)
    if validate:
        validate_game(table, rules=rules, names=names)

    results = tuple(RoundResult(tuple(score_round(t, validate=False))) for t in table)
    puddings = [sum(tallies[p].pudding for tallies in table) for p in range(len(names))]
    complete = len(table) == rules.rounds
    dessert = dessert_points(puddings) if complete else [0] * len(names)
    standing = tuple(
        PlayerResult(
            name=name,
            rounds=tuple(result.scores[p].total for result in results),
            dessert=dessert[p],
            puddings=puddings[p],
            total=sum(result.scores[p].total for result in results) + dessert[p],
        )
        for p, name in enumerate(names)
    )
    leaders = leading_players(standing)
    return GameResult(
        rules=rules,
        players=standing,
        round_results=results,
        complete=complete,
        leaders=leaders,
        winners=leaders if complete else (),
    )
