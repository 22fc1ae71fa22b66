"""A game's edit token: made once, stored as its hash, checked on every write (none ->
401, another game's -> 403)."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from sqlalchemy import select
from sqlalchemy.orm import Session

from api.errors import MissingToken, NotFound, WrongToken
from api.models import Game


def new_token() -> str:
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def can_edit(game: Game, token: str | None) -> bool:
    """Whether `token` is this game's edit token (for reads that show what one may do)."""
    return bool(token) and hmac.compare_digest(hash_token(token or ""), game.token_hash)


def authorize(game: Game, token: str | None) -> None:
    """A write needs this game's edit token: none -> 401, another -> 403."""
    _check_token(game.token_hash, token)


def authorize_by_id(session: Session, game_id: str, token: str | None) -> None:
    """`authorize` for a game not loaded yet: its token's hash alone is read (404 for no
    such game), and the read transaction ends here."""
    token_hash = session.scalar(select(Game.token_hash).where(Game.id == game_id))
    session.rollback()
    if token_hash is None:
        raise NotFound(f"no game {game_id!r}")
    _check_token(token_hash, token)


def _check_token(token_hash: str, token: str | None) -> None:
    if not token:
        raise MissingToken(
            "this change needs the game's edit token: send it as 'Authorization: Bearer "
            "<token>' or 'X-Edit-Token: <token>'"
        )
    if not hmac.compare_digest(hash_token(token), token_hash):
        raise WrongToken("the edit token is not this game's")
