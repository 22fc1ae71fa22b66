"""Games as stored: create, find, change the set-up; the versions every write checks and
moves. Functions take a Session and raise api.errors; routes stay thin. A collection's
review lives in api.collections, recording a round in api.rounds, edit tokens in
api.tokens.

Order of play: a round takes entries once every earlier round has been recorded (at
least once); a recorded round takes none until it is re-opened.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from sqlalchemy import select, update
from sqlalchemy.orm import Session, selectinload
from sqlalchemy.orm.attributes import set_committed_value

from api.errors import Conflict, NotFound, StaleVersion
from api.models import Collection, Game, Player, Round
from api.tokens import hash_token, new_token
from scoring import GameRules, check_names

# A game's code is read aloud and typed on another phone: lowercase letters and digits
# with no look-alikes (Crockford's base 32, without i, l, o and u), 12 of them (60 bits).
# The page reads a typed O as 0 and an I or L as 1 (api/web/state.js typedCode).
CODE_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"
CODE_LENGTH = 12

ROUND_OPEN = "open"
ROUND_RECORDED = "recorded"
ROUND_REOPENED = "reopened"


def new_code() -> str:
    """A new game's code (CODE_ALPHABET)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def create_game(
    session: Session,
    *,
    players: Sequence[str],
    rounds: int,
    pass_both_ways: bool,
    title: str | None,
) -> tuple[Game, str]:
    """A new game with empty collections for every round and player, and its edit token."""
    names = check_names(list(players))
    rules = GameRules(len(names), rounds=rounds, pass_both_ways=pass_both_ways)
    token = new_token()
    game = Game(
        id=new_code(),
        title=title,
        token_hash=hash_token(token),
        rounds=rules.rounds,
        pass_both_ways=rules.pass_both_ways,
        version=0,
    )
    game.players = [Player(seat=i, name=name) for i, name in enumerate(names, start=1)]
    session.add(game)
    for number in range(1, rules.rounds + 1):
        _add_round(game, number)
    session.commit()
    return game, token


def _add_round(game: Game, number: int) -> Round:
    row = Round(number=number, status=ROUND_OPEN, version=0)
    row.collections = [Collection(player=player, version=0) for player in game.players]
    game.round_rows.append(row)
    return row


def get_game(session: Session, game_id: str) -> Game:
    game = session.get(
        Game,
        game_id,
        options=[selectinload(Game.players), selectinload(Game.round_rows)],
    )
    if game is None:
        raise NotFound(f"no game {game_id!r}")
    return game


def rules_of(game: Game) -> GameRules:
    return GameRules(len(game.players), rounds=game.rounds, pass_both_ways=game.pass_both_ways)


def update_game(
    session: Session,
    game: Game,
    *,
    version: int,
    title: str | None = None,
    players: Sequence[str] | None = None,
    rounds: int | None = None,
    pass_both_ways: bool | None = None,
    fields: set[str],
) -> Game:
    """Rename players, retitle, change the variant; `fields` says which were given."""
    check_version("game", game.version, version)
    before = _settled(game)
    if "players" in fields and players is not None:
        if len(players) != len(game.players):
            raise Conflict(
                f"the game has {len(game.players)} players; players can be renamed, "
                f"not added or removed"
            )
        names = check_names(list(players))
        for player, name in zip(game.players, names, strict=True):
            player.name = name
    if "title" in fields:
        game.title = title
    if "pass_both_ways" in fields and pass_both_ways is not None:
        game.pass_both_ways = pass_both_ways
    if "rounds" in fields and rounds is not None and rounds != game.rounds:
        GameRules(len(game.players), rounds=rounds)
        used = [r.number for r in game.round_rows if r.status != ROUND_OPEN or r.version > 0]
        if used and max(used) > rounds:
            raise Conflict(f"round {max(used)} already has entries; the game cannot end before it")
        for row in list(game.round_rows):
            if row.number > rounds:
                game.round_rows.remove(row)
        for number in range(game.rounds + 1, rounds + 1):
            _add_round(game, number)
        game.rounds = rounds
    if _settled(game) == before:
        # Nothing changed (the same names, a null): no new version, so that no other
        # phone's write turns stale over it.
        return game
    advance(session, game, version)
    session.commit()
    return game


def _settled(game: Game) -> tuple[object, ...]:
    """What a PATCH can change."""
    names = tuple(player.name for player in game.players)
    return (names, game.title, game.pass_both_ways, game.rounds)


# --- rounds and versions ---------------------------------------------------------------


def get_round(game: Game, number: int) -> Round:
    for row in game.round_rows:
        if row.number == number:
            return row
    raise NotFound(f"no round {number}: the game has rounds 1 to {game.rounds}")


def require_open_round(game: Game, row: Round) -> None:
    """Entries are taken in order: every earlier round recorded, this one not (or
    re-opened)."""
    for earlier in game.round_rows:
        if earlier.number < row.number and earlier.status == ROUND_OPEN:
            raise Conflict(
                f"round {row.number} cannot start before round {earlier.number} is recorded",
                reason="round_order",
            )
    if row.status == ROUND_RECORDED:
        raise Conflict(
            f"round {row.number} is recorded; re-open it to change it", reason="round_recorded"
        )


def check_version(what: str, current: int, given: int) -> None:
    if given != current:
        raise StaleVersion(
            f"the {what} is at version {current}, not {given}: someone else changed it; "
            f"read it again and repeat the change",
            current_version=current,
        )


def advance(session: Session, row: Game | Round | Collection, expected: int) -> None:
    """Move a row's version from `expected` to the next, or fail if it moved already
    (the UPDATE's WHERE is what makes this safe across processes and databases)."""
    model = type(row)
    result = session.execute(
        update(model)
        .where(model.id == row.id, model.version == expected)
        .values(version=expected + 1)
        .execution_options(synchronize_session=False)
    )
    if result.rowcount != 1:  # type: ignore[attr-defined]
        session.rollback()
        current = session.scalar(select(model.version).where(model.id == row.id))
        session.rollback()
        raise StaleVersion(
            f"version {expected} is no longer current: someone else changed it at the "
            f"same moment; read it again and repeat the change",
            current_version=current,
        )
    set_committed_value(row, "version", expected + 1)  # what the row now holds
