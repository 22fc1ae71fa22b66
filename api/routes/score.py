"""Stateless scoring: the calculator over HTTP (design.md's /score/round, /score/game)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from api.errors import Unprocessable
from api.limits import JsonBodyRoute
from api.schemas import (
    ProblemPublic,
    ScoreGameRequest,
    ScoreGameResponse,
    ScoreRoundRequest,
    ScoreRoundResponse,
    error_response,
    tally_counts,
)
from scoring import GameRules, Problem, Tally, check_game, check_round, score_game, score_round

router = APIRouter(prefix="/score", tags=["score"], route_class=JsonBodyRoute)

_PROBLEMS: dict[int | str, dict[str, Any]] = {
    422: error_response("a tally that could not have been dealt, named in `detail`")
}


def _refuse(problems: list[Problem], names: list[str] | None = None) -> None:
    errors = [p for p in problems if p.is_error]
    if errors:
        raise Unprocessable(
            errors[0].message + (f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""),
            problems=[_problem(p, names) for p in problems],
        )


def _problem(problem: Problem, names: list[str] | None) -> dict[str, object]:
    seat = None if problem.player is None else problem.player + 1
    name = names[seat - 1] if names and seat is not None and seat <= len(names) else None
    return ProblemPublic(
        severity=problem.severity,
        code=str(problem.code),
        message=problem.message,
        seat=seat,
        player=name,
        category=problem.category,
        expected=problem.expected,
        actual=problem.actual,
        round=None if problem.round is None else problem.round + 1,
    ).model_dump()


@router.post("/round", responses=_PROBLEMS)
def score_one_round(body: ScoreRoundRequest) -> ScoreRoundResponse:
    """Score one round: one tally per player (2-5), scores in the same order.

    A tally with more cards than the hand size, or tallies using more of a kind than the
    deck holds, are refused with 422 naming the player and the category.
    """
    tallies = [Tally.from_mapping(tally_counts(t), player=i) for i, t in enumerate(body.tallies)]
    _refuse(check_round(tallies))
    scores = score_round(tallies, validate=False)
    return ScoreRoundResponse.model_validate({"scores": [s.to_dict() for s in scores]})


@router.post("/game", responses=_PROBLEMS)
def score_a_game(body: ScoreGameRequest) -> ScoreGameResponse:
    """Score a game from its rounds so far: dessert and winners once every round is in.

    `rounds[r][p]` is player p's tally in round r. Without `rules` the game has 3 rounds
    (or as many as were given, for the 4- and 5-round variant).
    """
    names = list(body.players)
    rounds = body.rules.rounds if body.rules else max(3, len(body.rounds))
    rules = GameRules(
        len(names),
        rounds=rounds,
        pass_both_ways=body.rules.pass_both_ways if body.rules else False,
    )
    table = [
        [Tally.from_mapping(tally_counts(t), player=p) for p, t in enumerate(tallies)]
        for tallies in body.rounds
    ]
    _refuse(check_game(table, rules=rules, names=names), names)
    result = score_game(names, table, rules=rules, validate=False)
    return ScoreGameResponse.model_validate(result.to_dict())
