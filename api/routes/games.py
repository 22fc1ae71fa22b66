"""Games: create one (and get its edit token), read it, change its set-up, standings."""

from __future__ import annotations

from fastapi import APIRouter, Response, status

from api import games, public
from api.deps import GameDep, SessionDep, WritableGameDep
from api.schemas import GameCreate, GameCreated, GamePublic, GameUpdate, StandingsPublic

router = APIRouter(prefix="/games", tags=["games"])

WRITE_ERRORS: dict[int | str, dict[str, str]] = {
    401: {"description": "no edit token"},
    403: {"description": "an edit token that is not this game's"},
    404: {"description": "no such game, round, player or photo"},
    409: {"description": "a stale version, or the game is not in a state to allow this"},
}


@router.post("", status_code=status.HTTP_201_CREATED)
def create_game(body: GameCreate, session: SessionDep, response: Response) -> GameCreated:
    """Start a game: 2-5 players, 3 rounds (4-5 where the deck allows), variant flags.

    The response's `edit_token` is shown only here: every change to the game needs it.
    """
    game, token = games.create_game(
        session,
        players=body.players,
        rounds=body.rounds,
        pass_both_ways=body.pass_both_ways,
        title=body.title,
    )
    response.headers["Location"] = public.game_url(game)
    return public.game_created(game, token)


@router.get("/{game_id}", responses={404: WRITE_ERRORS[404]})
def read_game(game: GameDep) -> GamePublic:
    """The game's players, rules and the state of each round."""
    return public.game_public(game)


@router.patch("/{game_id}", responses=WRITE_ERRORS)
def update_game(body: GameUpdate, game: WritableGameDep, session: SessionDep) -> GamePublic:
    """Rename players, retitle, or change the variant (rounds only where no entries are
    cut off)."""
    given = body.model_fields_set - {"version"}
    game = games.update_game(
        session,
        game,
        version=body.version,
        title=body.title,
        players=body.players,
        rounds=body.rounds,
        pass_both_ways=body.pass_both_ways,
        fields=given,
    )
    return public.game_public(games.get_game(session, game.id))


@router.get("/{game_id}/standings", responses={404: WRITE_ERRORS[404]})
def read_standings(game: GameDep) -> StandingsPublic:
    """The score sheet from every recorded round; dessert and winners after the last."""
    return public.standings_public(game, games.standings(game))
