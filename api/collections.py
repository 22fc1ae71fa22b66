"""A player's collection in a round: its review (photos, corrections, undo, confirm,
restore) as events, and the view that replays them into the tally that stands."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Final

from sqlalchemy import select, update
from sqlalchemy.orm import Session, object_session, selectinload
from sqlalchemy.orm.attributes import set_committed_value

from api import review
from api.errors import (
    Conflict,
    NotFound,
    Unprocessable,
)
from api.games import ROUND_RECORDED, advance, check_version, get_round, require_open_round
from api.models import Collection, Game, Photo, Player, ReviewEvent, Round
from api.schemas import (
    AddDetection,
    AdjustCount,
    CorrectionCreate,
    DeleteDetection,
    LeaveOutDetection,
    RelabelDetection,
    SetCounts,
    SwapLeftOut,
)
from api.storage import PhotoStore, media_type, sha256_hex
from scoring import (
    Problem,
    Tally,
    check_collection,
)
from vision.detections import Detections
from vision.labels import STACK_LABELS
from vision.notices import Notice
from vision.photo import Photo as DecodedPhoto
from vision.photo import turned_file
from vision.pipeline import Detector, review_detections


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


# Earlier readings nobody confirmed or corrected are listed only so many, the latest: each
# is the detector's reading of a photo (GET .../photos lists every photo, and a restore
# takes any), and a phone that retakes a photo again and again must not make every read
# of the collection slower. Every reading a person reviewed is listed.
UNREVIEWED_LISTED = 3


@dataclass(frozen=True)
class SamePhoto:
    """Another collection of the game whose current photo is this one's very file: a
    photo sent for the wrong player, or last round's sent again."""

    round: int
    seat: int
    player: str


SAME_PHOTO: Final = "same_photo"  # the Problem code


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
    # What is looked up once asked for. Not functools.cached_property: on Python 3.11 it
    # holds one lock for every view, and a view waiting inside it for the database's
    # write turn held up every other request's view, which held that turn (a deadlock
    # of three phones uploading at once, ended by the 30 s timeouts).
    _looked_up: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def player(self) -> Player:
        return self.collection.player

    @property
    def same_photo(self) -> list[SamePhoto]:
        """Other collections whose current photo is this one's file (`_same_photo`):
        looked up only where a view's problems are asked for (not by the export)."""
        if "same_photo" not in self._looked_up:
            self._looked_up["same_photo"] = _same_photo(self.game, self.collection, self.photo)
        found: list[SamePhoto] = self._looked_up["same_photo"]
        return found

    @property
    def problems(self) -> list[Problem]:
        """What does not add up about this collection: its tally's problems (the hand
        size, the deck) and a photo that is another collection's."""
        shared = same_photo_problem(self)
        return [*self.assessment.problems, *([shared] if shared else [])]

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


def _same_photo(game: Game, collection: Collection, photo: Photo | None) -> list[SamePhoto]:
    """The game's other collections of this round or an earlier one whose current photo
    is `photo`'s file (by sha256), in round and seat order: of two rounds, the later one's
    is the photo sent again. One indexed query; a collection is replayed only where it
    was ever sent that file."""
    if photo is None:
        return []
    session = object_session(collection)
    assert session is not None
    others = session.scalars(
        select(Collection)
        .join(Photo, Photo.collection_id == Collection.id)
        .join(Round, Collection.round_id == Round.id)
        .where(
            Round.game_id == game.id,
            Round.number <= collection.round.number,
            Photo.sha256 == photo.sha256,
            Collection.id != collection.id,
        )
        .distinct()
    ).all()
    found = []
    for other in others:
        current = review.replay(_events(other), {}).photo_id
        shown = None if current is None else session.get(Photo, current)
        if shown is not None and shown.sha256 == photo.sha256:
            found.append(SamePhoto(other.round.number, other.player.seat, other.player.name))
    return sorted(found, key=lambda same: (same.round, same.seat))


def same_photo_problem(view: CollectionView) -> Problem | None:
    """The collection's photo being another's, in words ("Ben's photo is the same file as
    Ana's"), or None. An error: one of the two is not its player's cards of this round."""
    if not view.same_photo:
        return None
    number = view.round.number
    names = [
        f"{same.player}'s" + ("" if same.round == number else f" in round {same.round}")
        for same in view.same_photo
    ]
    this_round = any(same.round == number for same in view.same_photo)
    advice = (
        "each player photographs their own cards; retake the one that is not"
        if this_round
        else "take a photo of this round's cards"
    )
    return Problem(
        severity="error",
        code=SAME_PHOTO,
        message=f"{view.player.name}'s photo is the same file as {' and '.join(names)}: {advice}",
        player=view.player.seat - 1,
        round=number - 1,
    )


def _assess(
    game: Game, collection: Collection, state: review.ReviewState, photo: Photo | None
) -> review.Assessment:
    return review.assess(
        state,
        warnings=[] if photo is None else list(photo.warnings),
        notes=[] if photo is None else [str(text) for text in photo.notes],
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
    check_version("collection", collection.version, version)
    advance(session, collection, version)
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
    correction: CorrectionCreate,
    author: str | None,
) -> CollectionView:
    """Apply one correction (relabel, delete, leave_out, swap_left_out, add, set_counts,
    adjust_count) as a new event, at the collection's `correction.version`."""
    _, view = open_collection(session, game, number, seat)
    check_version("collection", view.collection.version, correction.version)
    payload = _payload(game, view, correction)
    if isinstance(correction, SetCounts) and all(
        view.state.counts.get(key) == value for key, value in correction.counts.items()
    ):
        # Counts as they stand (a null for a count never set): no event, so that no new
        # photo needs `replace` over a reading nobody changed.
        return view
    _append(
        session,
        view.collection,
        version=correction.version,
        kind=correction.action,
        payload=payload,
        author=author,
    )
    return view_collection(game, view.collection)


def _payload(game: Game, view: CollectionView, correction: CorrectionCreate) -> dict[str, Any]:
    """The event's payload of a correction, checked against the review as it stands."""
    state = view.state
    match correction:
        case RelabelDetection(detection=ident, label=label):
            box = _box(state, ident)
            payload: dict[str, Any] = {"detection": ident, "label": label, "previous": box.label}
            strip = _absorbed_strip(view.assessment, box, label)
            if strip is not None:
                payload["drops"] = [state.boxes[strip].record() | {"id": strip}]
            return payload
        case DeleteDetection(detection=ident):
            return {"detection": ident, "previous": _box(state, ident).record()}
        case LeaveOutDetection(detection=ident):
            box = _box(state, ident)
            if box.left_out:
                raise Unprocessable(
                    f"detection {ident} is already left out as another player's card: "
                    "label it to count it"
                )
            # A stack is one pile: the wasabi under another player's nigiri is theirs too.
            partner = view.assessment.stack_with.get(ident)
            return {"detection": ident, "stack": [] if partner is None else [partner]}
        case SwapLeftOut():
            # Only boxes as the reading left them: one a person counted, left out or
            # labelled keeps their word (and a second tap finds nothing to swap).
            untouched = {
                ident: box
                for ident, box in state.boxes.items()
                if box.source == "detector" and box.detected_label is None
            }
            count = [ident for ident, box in untouched.items() if box.left_out]
            if not count:
                raise Unprocessable(
                    "no card is left out as another player's as the reading left it: there "
                    "is none to count instead"
                )
            others = [ident for ident, box in untouched.items() if not box.left_out]
            # Counts set by hand were set for the cards counted before: they go too.
            return {"count": count, "leave_out": others, "counts": dict(state.counts)}
        case AddDetection(box=(x1, y1, x2, y2), label=label):
            photo = view.photo
            if photo is None:
                raise Conflict(
                    "there is no photo to add a box to: upload one, or set the counts instead"
                )
            if not (0 <= x1 < x2 <= photo.width and 0 <= y1 < y2 <= photo.height):
                raise Unprocessable(
                    f"box {[x1, y1, x2, y2]} is not inside the {photo.width}x{photo.height} "
                    "photo with x1 < x2 and y1 < y2"
                )
            return {"detection": state.next_id, "label": label, "box": [x1, y1, x2, y2]}
        case SetCounts(counts=counts):
            if not counts:
                raise Unprocessable("set at least one category's count")
            for key, value in counts.items():
                if value is not None:
                    _check_possible_count(game, key, value)
            return {"counts": dict(counts)}
        case AdjustCount(category=category, delta=delta):
            current = view.assessment.tally.to_dict()[category]
            if current + delta < 0:
                raise Unprocessable(
                    f"{category} is {current}: it cannot go down by {-delta}", category=category
                )
            _check_possible_count(game, category, current + delta)
            payload = {"category": category, "delta": delta, "from": current, "to": current + delta}
            detected = view.assessment.detected
            if detected is not None and current + delta == detected[category]:
                # Back at what the photo says (+ then −): the count follows the boxes again,
                # not pinned "by hand" to the same number.
                payload["back_to_photo"] = True
            return payload
    raise AssertionError(f"no correction {correction!r}")  # the union admits no other


def _absorbed_strip(assessment: review.Assessment, box: review.Box, label: str) -> int | None:
    """The id of the wasabi strip a box labelled as a stack absorbed, where `label` makes
    it no stack: the strip goes with it. Left, it would pair with the nigiri again and
    keep the stack ("No wasabi under it" on the review screen). A counted wasabi, a card
    of its own, stays."""
    partner = assessment.stack_with.get(box.id)
    if partner is None or partner in assessment.counted:
        return None
    return partner if box.label in STACK_LABELS and label not in STACK_LABELS else None


def _box(state: review.ReviewState, ident: int) -> review.Box:
    box = state.boxes.get(ident)
    if box is None:
        known = ", ".join(str(i) for i in state.boxes) or "none"
        raise Unprocessable(
            f"no detection {ident} in this collection's review (its detections: {known})"
        )
    return box


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
    check_version("collection", view.collection.version, version)
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
    check_version("collection", view.collection.version, version)
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
    reading: Future[tuple[DecodedPhoto, Detections, list[Notice]]],
    detector: Detector,
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
    check_version("collection", collection.version, version)
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
        photo, detections, told = reading.result()
        width, height = photo.original_size
        # The player count settles a doubtful stack, or has a short hand looked at closer,
        # before a reviewer sees the boxes.
        detections, _, notices = review_detections(
            photo, detections, len(game.players), detector, told
        )
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
            detections=detections.to_records(stored=True),
            warnings=[review.stored_warning(notice) for notice in notices if notice.warns],
            notes=[notice.text for notice in notices if not notice.warns],
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
    check_version("collection", view.collection.version, version)
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
