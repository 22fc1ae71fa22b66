"""Rounds: read one, record it once every player is confirmed, re-open it to fix it."""

from __future__ import annotations

from fastapi import APIRouter

from api import games, public, rounds
from api.deps import GameDep, RoundNumber, SessionDep, WritableGameDep
from api.limits import JsonBodyRoute
from api.routes.games import WRITE_ERRORS
from api.schemas import RecordCreate, RoundPublic, VersionedAction, error_response

router = APIRouter(prefix="/games/{game_id}/rounds", tags=["rounds"], route_class=JsonBodyRoute)

RECORD_ERRORS = {
    **WRITE_ERRORS,
    422: error_response("tallies over the hand size or the deck, named in `problems`"),
}


def _round(session: SessionDep, game: GameDep, number: int) -> RoundPublic:
    game = games.get_game(session, game.id)
    row = games.get_round(game, number)
    return public.round_public(game, row, rounds.round_views(session, game, row))


@router.get("/{number}", responses={404: WRITE_ERRORS[404]})
def read_round(number: RoundNumber, game: GameDep, session: SessionDep) -> RoundPublic:
    """The round's state: each player's tally and status, problems, the latest record."""
    return _round(session, game, number)


@router.post("/{number}/record", responses=RECORD_ERRORS)
def record_round(
    number: RoundNumber, body: RecordCreate, game: WritableGameDep, session: SessionDep
) -> RoundPublic:
    """Score the round from every player's confirmed tally and record it.

    Tallies over the hand size or the deck block the record (422 naming player and
    category) unless `accept_problems` is true. `version` is the round's.
    """
    rounds.record_round(
        session,
        game,
        number,
        version=body.version,
        accept_problems=body.accept_problems,
        author=body.author,
    )
    return _round(session, game, number)


@router.post("/{number}/reopen", responses=WRITE_ERRORS)
def reopen_round(
    number: RoundNumber, body: VersionedAction, game: WritableGameDep, session: SessionDep
) -> RoundPublic:
    """Re-open a recorded round to fix it; record it again to update the standings.

    `version` is the round's.
    """
    rounds.reopen_round(session, game, number, version=body.version, author=body.author)
    return _round(session, game, number)
