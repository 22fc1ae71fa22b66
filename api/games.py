"""Games as stored: create, find, authorize, review a collection, record and re-open a
round, standings. Functions take a Session and raise api.errors; routes stay thin.

Order of play: a round takes entries once every earlier round has been recorded (at
least once); a recorded round takes none until it is re-opened. Standings use each
round's latest record, so re-opening round 1 to fix it changes nothing until it is
recorded again, and then every total after it follows.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session, object_session, selectinload
from sqlalchemy.orm.attributes import set_committed_value

from api import review
from api.errors import (
    Conflict,
    MissingToken,
    NotFound,
    StaleVersion,
    Unprocessable,
    WrongToken,
)
from api.models import Collection, Game, Photo, Player, ReviewEvent, Round, RoundEvent
from api.storage import PhotoStore, media_type, sha256_hex
from scoring import (
    GameResult,
    GameRules,
    Problem,
    Tally,
    check_collection,
    check_game,
    check_names,
    score_game,
    score_round,
)
from vision.detections import Detections
from vision.photo import Photo as DecodedPhoto
from vision.photo import turned_file
from vision.pipeline import review_detections

ROUND_OPEN = "open"
ROUND_RECORDED = "recorded"
ROUND_REOPENED = "reopened"


# --- tokens ---------------------------------------------------------------------------


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


# --- games ----------------------------------------------------------------------------


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
        id=secrets.token_urlsafe(9),
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
    _check_version("game", game.version, version)
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
    _advance(session, game, version)
    session.commit()
    return game


# --- rounds and collections -----------------------------------------------------------


def get_round(game: Game, number: int) -> Round:
    for row in game.round_rows:
        if row.number == number:
            return row
    raise NotFound(f"no round {number}: the game has rounds 1 to {game.rounds}")


def get_collection(session: Session, game: Game, number: int, seat: int) -> Collection:
    row = get_round(game, number)
    player = next((p for p in game.players if p.seat == seat), None)
    if player is None:
        raise NotFound(f"no player {seat}: the players are numbered 1 to {len(game.players)}")
    collection = session.scalars(
        select(Collection)
        .where(Collection.round_id == row.id, Collection.player_id == player.id)
        .options(selectinload(Collection.events))
    ).one()
    return collection


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


def _check_version(what: str, current: int, given: int) -> None:
    if given != current:
        raise StaleVersion(
            f"the {what} is at version {current}, not {given}: someone else changed it; "
            f"read it again and repeat the change",
            current_version=current,
        )


def _advance(session: Session, row: Game | Round | Collection, expected: int) -> None:
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


# Earlier readings nobody confirmed or corrected are listed only so many, the latest: each
# is the detector's reading of a photo (GET .../photos lists every photo, and a restore
# takes any), and a phone that retakes a photo again and again must not make every read
# of the collection slower. Every reading a person reviewed is listed.
UNREVIEWED_LISTED = 3


@dataclass(frozen=True)
class CollectionView:
    """A collection with its replayed review and the tally that stands for it."""

    game: Game
    round: Round
    collection: Collection
    state: review.ReviewState
    assessment: review.Assessment
    photo: Photo | None  # the current one
    photos: dict[int, Photo] = field(default_factory=dict)  # every one uploaded, by id

    @property
    def player(self) -> Player:
        return self.collection.player

    @property
    def earlier(self) -> list[EarlierView]:
        """The readings later photos replaced that are listed, most recently replaced
        first: every one a person confirmed or corrected, and the last few others."""
        kept = sorted(self.state.earlier.values(), key=lambda e: e.replaced_at, reverse=True)
        views, others = [], 0
        for reading in kept:
            if not reading.state.reviewed:
                others += 1
                if others > UNREVIEWED_LISTED:
                    continue
            photo = None if reading.photo_id is None else self.photos.get(reading.photo_id)
            assessment = _assess(self.game, self.collection, reading.state, photo)
            views.append(EarlierView(reading, assessment, photo))
        return views


@dataclass(frozen=True)
class EarlierView:
    """A reading a later photo replaced: as it stood then, its tally and its photo."""

    reading: review.Earlier
    assessment: review.Assessment
    photo: Photo | None


def _events(collection: Collection) -> list[review.Event]:
    """The collection's review events as review.py replays them."""
    return [review.Event(e.seq, e.kind, e.payload) for e in collection.events]


def view_collection(game: Game, collection: Collection) -> CollectionView:
    events = _events(collection)
    # Every photo uploaded: the current one, and those whose readings were replaced
    # (kept, and restorable). A table takes a photo or two per player and round.
    ids = {int(e.payload["photo"]) for e in events if e.kind == review.UPLOAD}
    photos: dict[int, Photo] = {}
    if ids:
        session = object_session(collection)
        assert session is not None
        if len(ids) == 1:
            found = [session.get(Photo, next(iter(ids)))]
        else:
            found = list(session.scalars(select(Photo).where(Photo.id.in_(ids))))
        photos = {p.id: p for p in found if p is not None}
    state = review.replay(events, {ident: p.detections for ident, p in photos.items()})
    photo = None if state.photo_id is None else photos.get(state.photo_id)
    assessment = _assess(game, collection, state, photo)
    return CollectionView(game, collection.round, collection, state, assessment, photo, photos)


def _assess(
    game: Game, collection: Collection, state: review.ReviewState, photo: Photo | None
) -> review.Assessment:
    return review.assess(
        state,
        notes=[] if photo is None else [str(note) for note in photo.warnings],
        players=len(game.players),
        seat=collection.player.seat,
        round=collection.round.number,
        name=collection.player.name,
    )


def _append(
    session: Session,
    collection: Collection,
    *,
    version: int,
    kind: str,
    payload: dict[str, Any],
    author: str | None,
    before_commit: Callable[[], object] | None = None,
) -> None:
    """Add the event as the collection's next one.

    The version check, the check that the round was not recorded meanwhile and the
    event go in one transaction (with `before_commit`, e.g. writing the photo file, just
    before it ends), so a stale or late write stores nothing. Both checks are in the
    UPDATEs' WHERE clauses: safe across processes, on SQLite and PostgreSQL alike.
    """
    _check_version("collection", collection.version, version)
    _advance(session, collection, version)
    moved = session.execute(
        update(Round)
        .where(Round.id == collection.round_id, Round.status != ROUND_RECORDED)
        .values(version=Round.version + 1)
        .execution_options(synchronize_session=False)
    )
    if moved.rowcount != 1:  # type: ignore[attr-defined]
        session.rollback()
        raise Conflict(
            f"round {collection.round.number} was recorded meanwhile; re-open it to change it",
            reason="round_recorded",
        )
    collection.events.append(
        ReviewEvent(seq=version + 1, kind=kind, payload=payload, author=author)
    )
    if before_commit is not None:
        before_commit()
    session.commit()
    set_committed_value(collection.round, "version", collection.round.version + 1)


def writable_collection(session: Session, game: Game, number: int, seat: int) -> Collection:
    """The collection, if its round takes entries now."""
    collection = get_collection(session, game, number, seat)
    require_open_round(game, collection.round)
    return collection


def open_collection(
    session: Session, game: Game, number: int, seat: int
) -> tuple[Collection, CollectionView]:
    collection = writable_collection(session, game, number, seat)
    return collection, view_collection(game, collection)


def correct(
    session: Session,
    game: Game,
    number: int,
    seat: int,
    *,
    version: int,
    correction: dict[str, Any],
    author: str | None,
) -> CollectionView:
    """Apply one correction (relabel, delete, add, set_counts, adjust_count) as a new
    event."""
    _, view = open_collection(session, game, number, seat)
    _check_version("collection", view.collection.version, version)
    action = correction["action"]
    state = view.state
    payload: dict[str, Any]
    if action in (review.RELABEL, review.DELETE):
        ident = int(correction["detection"])
        box = state.boxes.get(ident)
        if box is None:
            known = ", ".join(str(i) for i in state.boxes) or "none"
            raise Unprocessable(
                f"no detection {ident} in this collection's review (its detections: {known})"
            )
        if action == review.RELABEL:
            payload = {"detection": ident, "label": correction["label"], "previous": box.label}
        else:
            payload = {"detection": ident, "previous": box.record()}
    elif action == review.ADD:
        photo = view.photo
        if photo is None:
            raise Conflict(
                "there is no photo to add a box to: upload one, or set the counts instead"
            )
        x1, y1, x2, y2 = (float(v) for v in correction["box"])
        if not (0 <= x1 < x2 <= photo.width and 0 <= y1 < y2 <= photo.height):
            raise Unprocessable(
                f"box {[x1, y1, x2, y2]} is not inside the {photo.width}x{photo.height} photo "
                f"with x1 < x2 and y1 < y2"
            )
        payload = {
            "detection": state.next_id,
            "label": correction["label"],
            "box": [x1, y1, x2, y2],
        }
    elif action == review.SET_COUNTS:
        counts = dict(correction["counts"])
        if not counts:
            raise Unprocessable("set at least one category's count")
        for key, value in counts.items():
            if value is not None:
                _check_possible_count(game, key, value)
        payload = {"counts": counts}
    elif action == review.ADJUST_COUNT:
        category, delta = str(correction["category"]), int(correction["delta"])
        current = view.assessment.tally.to_dict()[category]
        if current + delta < 0:
            raise Unprocessable(
                f"{category} is {current}: it cannot go down by {-delta}", category=category
            )
        _check_possible_count(game, category, current + delta)
        payload = {"category": category, "delta": delta, "from": current, "to": current + delta}
    else:  # pragma: no cover - the request model admits no other action
        raise Unprocessable(f"unknown correction {action!r}")
    _append(session, view.collection, version=version, kind=action, payload=payload, author=author)
    return view_collection(game, view.collection)


def _check_possible_count(game: Game, category: str, value: int) -> None:
    """422 for a count no deck holds (more of a kind than the deck has)."""
    single = Tally.from_mapping({category: value})
    impossible = [
        p
        for p in check_collection(single, players=len(game.players))
        if p.is_error and p.code == "deck_limit"
    ]
    if impossible:
        raise Unprocessable(
            f"{category} = {value} is impossible: {impossible[0].message}", category=category
        )


def undo(
    session: Session, game: Game, number: int, seat: int, *, version: int, author: str | None
) -> CollectionView:
    """Switch off the latest correction still in effect (since the current photo)."""
    _, view = open_collection(session, game, number, seat)
    _check_version("collection", view.collection.version, version)
    target = review.last_correction(view.state)
    if target is None:
        raise Conflict("there is no correction to undo")
    _append(
        session,
        view.collection,
        version=version,
        kind=review.UNDO,
        payload={"target": target},
        author=author,
    )
    return view_collection(game, view.collection)


def confirm(
    session: Session, game: Game, number: int, seat: int, *, version: int, author: str | None
) -> CollectionView:
    """Mark the player's tally final for the round (a later correction un-confirms it)."""
    _, view = open_collection(session, game, number, seat)
    _check_version("collection", view.collection.version, version)
    if view.state.status == "empty":
        raise Conflict("nothing to confirm yet: upload a photo or set the counts first")
    if view.state.confirmed:
        return view
    _append(
        session,
        view.collection,
        version=version,
        kind=review.CONFIRM,
        payload={"tally": view.assessment.tally.to_dict()},
        author=author,
    )
    return view_collection(game, view.collection)


def upload_photo(
    session: Session,
    store: PhotoStore,
    game: Game,
    number: int,
    seat: int,
    *,
    version: int,
    data: bytes,
    reading: Future[tuple[DecodedPhoto, Detections]],
    author: str | None,
    model: dict[str, Any] | None = None,
    replace: bool = False,
) -> CollectionView:
    """Store a photo of a player's collection and make its detections the new draft.

    A reading a person confirmed or corrected is replaced only with `replace` (else 409,
    and nothing is stored); the reading replaced is kept, and `restore` brings it back.

    `reading` is the photo's decode and detection, already running on another thread
    (`api.detection.detect_in_background`). The checks that need no pixels are made
    meanwhile; then the database is let go until the detections are there; then the
    version is checked again and the photo, file and event stored together. A failed
    check wins over a photo that cannot be decoded, as if the checks came first.
    """
    collection = writable_collection(session, game, number, seat)
    _check_version("collection", collection.version, version)
    if not replace:
        # Checked at `version`, which _append checks again: a correction or confirm
        # made meanwhile makes this upload stale.
        refuse_replacing_review(collection)
    session.commit()  # end the transaction: nothing is held during detection

    # Hashed and written to disk here, beside the decode on another core, rather than
    # on the event loop (the hash) or inside the final transaction (the file's fsync).
    digest = sha256_hex(data)
    staged = store.stage_photo(data, digest=digest)
    try:
        photo, detections = reading.result()
        width, height = photo.original_size
        # The player count settles a doubtful stack before a reviewer sees the boxes.
        detections, _, notes = review_detections(photo, detections, len(game.players))
        if photo.turn:
            # Read turned (its cards were not upright): the file kept is the photo so
            # turned, so that its boxes, the review page and an export all agree.
            staged.discard()
            data = turned_file(data, photo.turn, max_pixels=width * height)
            digest = sha256_hex(data)
            staged = store.stage_photo(data, digest=digest)
        row = Photo(
            collection_id=collection.id,
            sha256=digest,
            media_type=media_type(data),
            size_bytes=len(data),
            width=int(width),
            height=int(height),
            detections=detections.to_records(doubt=True),
            warnings=notes,
            model=model or {},
            author=author,
        )
        session.add(row)
        session.flush()
        # The checks are repeated where they matter, in _append's UPDATEs.
        _append(
            session,
            collection,
            version=version,
            kind=review.UPLOAD,
            payload={"photo": row.id, "sha256": digest},
            author=author,
            before_commit=staged.publish,
        )
    finally:
        staged.discard()  # a failed upload leaves no file behind
    return view_collection(game, collection)


def refuse_replacing_review(collection: Collection) -> None:
    """409 for a new reading over one a person confirmed or corrected, unless the client
    says it means it (`replace`). Which corrections are in effect, and whether it is
    confirmed, do not depend on the boxes: the events alone are replayed."""
    events = _events(collection)
    state = review.replay(events, {})
    if not state.reviewed:
        return
    corrections = len(state.undoable)
    done = []
    if state.confirmed:
        done.append("confirmed")
    if corrections:
        done.append(f"corrected ({corrections} correction{'s' if corrections != 1 else ''})")
    raise Conflict(
        f"{collection.player.name}'s cards for round {collection.round.number} are "
        f"{' and '.join(done)}: a new photo would replace them. Send replace=true with "
        f"the photo to replace them anyway: they are kept, and can be restored",
        reason="would_replace",
        confirmed=state.confirmed,
        corrections=corrections,
    )


def restore(
    session: Session,
    game: Game,
    number: int,
    seat: int,
    *,
    version: int,
    photo: int | None,
    author: str | None,
) -> CollectionView:
    """Bring back the reading that a later photo replaced: `photo`'s (None: the counts
    entered before any photo), with its corrections and confirmation exactly as they
    stood. The reading it replaces is kept in its turn, and can be restored."""
    _, view = open_collection(session, game, number, seat)
    _check_version("collection", view.collection.version, version)
    state = view.state
    if photo is not None and photo == state.photo_id:
        raise Conflict(f"photo {photo} is the current one: there is nothing to restore")
    kept = state.earlier.get(photo)
    if kept is None:
        known = ["counts" if p is None else f"photo {p}" for p in state.earlier]
        listed = f"earlier: {', '.join(known)}" if known else "no reading was replaced"
        what = "no counts from before a photo" if photo is None else f"no earlier photo {photo}"
        raise NotFound(f"{what} in {view.player.name}'s round {number} cards ({listed})")
    _append(
        session,
        view.collection,
        version=version,
        kind=review.RESTORE,
        payload={"photo": photo, "state_at": kept.state.seq},
        author=author,
    )
    return view_collection(game, view.collection)


def get_photo(session: Session, game: Game, photo_id: int) -> Photo:
    photo = session.get(Photo, photo_id, options=[selectinload(Photo.collection)])
    if photo is None or photo.collection.round.game_id != game.id:
        raise NotFound(f"no photo {photo_id} in this game")
    return photo


# --- recording ------------------------------------------------------------------------


def latest_record(row: Round) -> RoundEvent | None:
    records = [e for e in row.events if e.kind == "record"]
    return records[-1] if records else None


def recorded_tallies(game: Game) -> list[list[Tally]]:
    """Each round's tallies from its latest record, rounds 1.. up to the first without."""
    rounds: list[list[Tally]] = []
    for row in game.round_rows:
        record = latest_record(row)
        if record is None:
            break
        rounds.append([Tally.from_mapping(t) for t in record.payload["tallies"]])
    return rounds


def record_round(
    session: Session,
    game: Game,
    number: int,
    *,
    version: int,
    accept_problems: bool,
    author: str | None,
) -> Round:
    """Score the round from every player's confirmed tally and record it.

    A tally over the hand size, or collections over the deck (in this round or in the
    game so far) block the record with 422 unless `accept_problems` says to go ahead.
    """
    row = get_round(game, number)
    require_open_round(game, row)
    _check_version("round", row.version, version)
    collections = {
        c.player.seat: c
        for c in session.scalars(
            select(Collection)
            .where(Collection.round_id == row.id)
            .options(selectinload(Collection.events))
        )
    }
    views = [view_collection(game, collections[p.seat]) for p in game.players]
    waiting = [f"{v.player.name} ({v.state.status})" for v in views if not v.state.confirmed]
    if waiting:
        raise Conflict(
            f"round {number} cannot be recorded before every player's tally is confirmed; "
            f"waiting for: {', '.join(waiting)}",
            reason="unconfirmed",
        )
    tallies = [Tally.from_mapping(v.state.confirmed_tally or {}) for v in views]
    problems = round_problems(game, number, tallies)
    errors = [p for p in problems if p.is_error]
    if errors and not accept_problems:
        raise Unprocessable(
            f"round {number} cannot be recorded: {errors[0].message}"
            + (f" (and {len(errors) - 1} more)" if len(errors) > 1 else "")
            + "; correct the tallies, or record with accept_problems=true",
            problems=[problem_dict(game, p) for p in problems],
        )
    scores = score_round(tallies, validate=False)
    _advance(session, row, version)
    session.execute(update(Round).where(Round.id == row.id).values(status=ROUND_RECORDED))
    session.add(
        RoundEvent(
            round_id=row.id,
            kind="record",
            payload={
                "tallies": [t.to_dict() for t in tallies],
                "scores": [s.to_dict() for s in scores],
                "problems": [problem_dict(game, p) for p in problems],
                "accepted": bool(errors),
                "collection_versions": [c.collection.version for c in views],
            },
            author=author,
        )
    )
    session.commit()
    session.expire_all()
    return get_round(get_game(session, game.id), number)


def round_problems(game: Game, number: int, tallies: list[Tally]) -> list[Problem]:
    """This round's problems, and the game's (deck across rounds) with it in place."""
    rounds = recorded_tallies(game)
    while len(rounds) < number:
        rounds.append([])
    rounds[number - 1] = tallies
    rounds = [r for r in rounds if r]
    problems = check_game(rounds, rules=rules_of(game), names=[p.name for p in game.players])
    return [p for p in problems if p.round is None or p.round == number - 1]


def reopen_round(
    session: Session, game: Game, number: int, *, version: int, author: str | None
) -> Round:
    """Open a recorded round for fixing; its last record keeps counting until re-recorded."""
    row = get_round(game, number)
    if row.status != ROUND_RECORDED:
        raise Conflict(f"round {number} is not recorded; there is nothing to re-open")
    _check_version("round", row.version, version)
    _advance(session, row, version)
    session.execute(update(Round).where(Round.id == row.id).values(status=ROUND_REOPENED))
    session.add(RoundEvent(round_id=row.id, kind="reopen", payload={}, author=author))
    session.commit()
    session.expire_all()
    return get_round(get_game(session, game.id), number)


def round_views(session: Session, game: Game, row: Round) -> list[CollectionView]:
    collections = {
        c.player_id: c
        for c in session.scalars(
            select(Collection)
            .where(Collection.round_id == row.id)
            .options(selectinload(Collection.events))
        )
    }
    return [view_collection(game, collections[p.id]) for p in game.players]


def standings(game: Game) -> GameResult:
    """The score sheet from every recorded round (dessert and winners once complete)."""
    return score_game(
        [p.name for p in game.players],
        recorded_tallies(game),
        rules=rules_of(game),
        validate=False,
    )


def problem_dict(game: Game, problem: Problem) -> dict[str, Any]:
    """A Problem for the HTTP API: seats and rounds counted from 1, the player's name."""
    seat = None if problem.player is None else problem.player + 1
    name = None
    if seat is not None and seat <= len(game.players):
        name = game.players[seat - 1].name
    return {
        "severity": problem.severity,
        "code": str(problem.code),
        "message": problem.message,
        "seat": seat,
        "player": name,
        "category": problem.category,
        "expected": problem.expected,
        "actual": problem.actual,
        "round": None if problem.round is None else problem.round + 1,
    }
