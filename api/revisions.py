"""A game's revision: one number that moves on every change to the game, to any of its
rounds or to any collection in them, so that a page can poll cheaply.

It is the game's version plus every round's version: each write moves one of them up by
one (a collection's write moves its round's version too, api.collections._append), and a round
is only removed while it is still untouched at version 0, so the sum never goes back.
The ETag built on it lets a poll with `If-None-Match` come back as an empty 304.
"""

from __future__ import annotations

from fastapi import Request, Response

from api.models import Game

# The GET game body depends on the token sent (can_edit); caches must keep them apart.
VARY = "Authorization, X-Edit-Token"


def game_revision(game: Game) -> int:
    return game.version + sum(row.version for row in game.round_rows)


def etag(revision: int, *, variant: str = "") -> str:
    return f'W/"{revision}{"-" + variant if variant else ""}"'


def matches(request: Request, tag: str) -> bool:
    """Whether the request's If-None-Match names `tag` (weakly compared) or is `*`."""
    header = request.headers.get("if-none-match")
    if not header:
        return False
    wanted = _opaque(tag)
    return any(t.strip() == "*" or _opaque(t) == wanted for t in header.split(","))


def _opaque(tag: str) -> str:
    tag = tag.strip()
    return tag[2:] if tag.startswith("W/") else tag


def cache_headers(response: Response, tag: str, *, vary: str | None = None) -> None:
    """Revalidate on every use (the state changes as people play), by this tag."""
    response.headers["ETag"] = tag
    response.headers["Cache-Control"] = "no-cache"
    if vary:
        response.headers["Vary"] = vary


def not_modified(tag: str, *, vary: str | None = None) -> Response:
    response = Response(status_code=304)
    cache_headers(response, tag, vary=vary)
    return response
