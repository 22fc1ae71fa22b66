"""Games: create one (and get its edit token), read it, change its set-up, standings."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response, status

from api import games, public, revisions, rounds, sheet, tokens
from api.deps import EditTokenDep, GameDep, SessionDep, WritableGameDep
from api.limits import JsonBodyRoute
from api.schemas import (
    GameCreate,
    GameCreated,
    GamePublic,
    GameUpdate,
    StandingsPublic,
    error_response,
)

router = APIRouter(prefix="/games", tags=["games"], route_class=JsonBodyRoute)

WRITE_ERRORS: dict[int | str, dict[str, Any]] = {
    401: error_response("no edit token"),
    403: error_response("an edit token that is not this game's"),
    404: error_response("no such game, round, player or photo"),
    409: error_response("a stale version, or the game is not in a state to allow this"),
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


NOT_MODIFIED: dict[int | str, dict[str, Any]] = {
    304: {"description": "nothing changed since the ETag sent in If-None-Match"}
}


@router.get(
    "/{game_id}", response_model=GamePublic, responses={**NOT_MODIFIED, 404: WRITE_ERRORS[404]}
)
def read_game(game: GameDep, token: EditTokenDep, request: Request, response: Response) -> Any:
    """The game's players, rules and the state of each round; `can_edit` says whether
    the request carried the edit token. Poll it with `If-None-Match: <ETag>`: 304 while
    `revision` has not moved."""
    editor = tokens.can_edit(game, token)
    tag = revisions.etag(revisions.game_revision(game), variant="edit" if editor else "view")
    if revisions.matches(request, tag):
        return revisions.not_modified(tag, vary=revisions.VARY)
    revisions.cache_headers(response, tag, vary=revisions.VARY)
    return public.game_public(game, can_edit=editor)


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
    return public.game_public(games.get_game(session, game.id), can_edit=True)


@router.get(
    "/{game_id}/standings",
    response_model=StandingsPublic,
    responses={**NOT_MODIFIED, 404: WRITE_ERRORS[404]},
)
def read_standings(game: GameDep, request: Request, response: Response) -> Any:
    """The score sheet from every recorded round; dessert and winners after the last.
    Carries the game's revision as its ETag (304 for a matching If-None-Match)."""
    tag = revisions.etag(revisions.game_revision(game))
    if revisions.matches(request, tag):
        return revisions.not_modified(tag)
    revisions.cache_headers(response, tag)
    return public.standings_public(game, rounds.standings(game))


@router.get(
    "/{game_id}/sheet.csv",
    response_class=Response,
    responses={
        200: {"content": {"text/csv": {}}, "description": "the score sheet as CSV"},
        **NOT_MODIFIED,
        404: WRITE_ERRORS[404],
    },
)
def read_sheet(game: GameDep, request: Request) -> Response:
    """The score sheet as CSV for a spreadsheet: a header row, then one row per player
    (seat, name, each round, pudding cards, dessert, total, winner). Needs no token: the
    view link reads it. Carries the game's revision as its ETag."""
    tag = revisions.etag(revisions.game_revision(game), variant="csv")
    if revisions.matches(request, tag):
        return revisions.not_modified(tag)
    response = Response(sheet.sheet_csv(game, rounds.standings(game)), media_type=sheet.MEDIA_TYPE)
    response.headers["Content-Disposition"] = f'attachment; filename="{sheet.sheet_filename(game)}"'
    revisions.cache_headers(response, tag)
    return response
