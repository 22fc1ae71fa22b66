"""`sushigo corrections export`: confirmed photos, as people corrected them, become
training data.

Every confirmed collection with a photo is read back as the review left it: the
detector's boxes with the reviewer's relabels, deletions and added boxes replayed on top
(api/review.py), keeping the boxes the tally counts (not a box below the confidence floor
or a duplicate) and those left out as another player's: the next collection's cards at
the photo's edge are cards the finder was right to box, labelled as `sushigo synth`
labels a neighbour's, outside the tally ("left_out" in the record). Those are written
as a YOLO dataset in the layout `sushigo synth` writes (datasets/yolo_format.py:
images/, labels/, tallies/ and data.yaml), all in the train split (the fine-tuner holds
out its own part), with the confirmed tally as the ground truth. Photos are downscaled
to a long side of at most MAX_LONG_SIDE pixels.

A confirmed collection is written only when its boxes alone explain its tally exactly.
The others are listed in skipped.json with the reason, never written with labels that
would teach the detector something wrong:

- counts_only: the tally was entered with the counters; there is no photo.
- stack_label: a box is labelled as a whole stack (e.g. salmon_on_wasabi) and no wasabi
  strip was boxed with it: the wasabi's top shows in the photo with no box to learn from.
  A stack box with its strip is written as its two cards, the nigiri and the wasabi.
- tally_mismatch: the boxes read as another tally than the confirmed one (counts were
  set by hand over the photo).
- photo_missing / photo_unreadable / box_outside_photo: the file is not in the data
  folder, cannot be decoded, or a box lies outside it.

The database is read in one short transaction (with SQLite that transaction holds the
write lock); photos are decoded and written after it has ended.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

import cv2
from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from api import review
from api.collections import CollectionView, view_collection
from api.database import database_url, make_engine, make_sessionmaker, opening
from api.models import Collection, Game, Round
from api.settings import Settings, get_settings
from api.storage import PhotoStore
from datasets.yolo_format import KIND_ID, PHOTOGRAPHED_DECK, check_new_folder, prepare
from scoring.cards import HAND_SIZE, STACKS, TALLY_KEYS
from vision.detections import Detections
from vision.labels import STACK_LABELS
from vision.photo import PhotoError, load_photo
from vision.reading import cards_left_out

MAX_LONG_SIDE: Final[int] = 1600
JPEG_QUALITY: Final[int] = 95
SPLIT: Final[str] = "train"
SKIPPED_FILE: Final[str] = "skipped.json"

COUNTS_ONLY: Final = "counts_only"
STACK_LABEL: Final = "stack_label"
TALLY_MISMATCH: Final = "tally_mismatch"
PHOTO_MISSING: Final = "photo_missing"
PHOTO_UNREADABLE: Final = "photo_unreadable"
BOX_OUTSIDE_PHOTO: Final = "box_outside_photo"


@dataclass(frozen=True)
class CardBox:
    """One box of a reviewed photo that the tally counts or left out as another player's,
    in the original photo's (upright) pixels."""

    label: str
    box: tuple[float, float, float, float]
    source: str  # "detector" or "reviewer"
    relabeled: bool
    # A stack box's wasabi strip, the box it absorbs (api.review.Assessment.stack_with).
    strip: tuple[float, float, float, float] | None = None
    left_out: bool = False  # another player's card: a card to find, not of this tally


@dataclass(frozen=True)
class ReviewedPhoto:
    """The photo a collection was confirmed with, and its boxes after the review."""

    id: int
    sha256: str
    width: int
    height: int
    model: dict[str, Any]
    boxes: list[CardBox]
    detected_tally: dict[str, int]  # what the counted boxes read as
    detected: int  # boxes the detector returned
    deleted: int  # of those, deleted by the reviewer
    uncounted: int  # boxes left in the review that the tally does not count


@dataclass(frozen=True)
class ConfirmedCollection:
    """One player's confirmed collection in one round, as plain data read from the
    database (so that nothing is loaded after its session has ended)."""

    game: str
    title: str | None
    round: int
    seat: int
    player: str
    players: int
    confirmed_at: datetime
    tally: dict[str, int]  # as confirmed, all fifteen keys
    counts: dict[str, int]  # categories whose count was set by hand
    photo: ReviewedPhoto | None

    @property
    def name(self) -> str:
        """The file name (without extension) of its image, labels and tally."""
        return f"game-{self.game}-round{self.round}-seat{self.seat}"

    def where(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "title": self.title,
            "round": self.round,
            "seat": self.seat,
            "player": self.player,
            "photo": None if self.photo is None else self.photo.id,
            "confirmed_at": self.confirmed_at.isoformat(),
        }


@dataclass(frozen=True)
class Skip:
    """Why a confirmed collection is not training data."""

    reason: str
    detail: str


@dataclass
class ExportResult:
    out: Path
    written: list[str] = field(default_factory=list)  # file names, without extension
    skipped: list[dict[str, Any]] = field(default_factory=list)

    def summary(self) -> str:
        if not self.written and not self.skipped:
            # "written 0, skipped 0" and two paths had read as an export that went wrong.
            return (
                f"nothing to export: no photo confirmed in review (the dataset {self.out} is empty)"
            )
        return (
            f"written {len(self.written)}, skipped {len(self.skipped)}: "
            f"{self.out / 'images' / SPLIT}, {self.out / SKIPPED_FILE}"
        )


# --- reading the database ---------------------------------------------------------------


def _aware(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes; the service stores UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def confirmed_collections(
    session: Session, *, since: datetime | None = None
) -> list[ConfirmedCollection]:
    """Every collection whose review stands confirmed (confirmed at or after `since`),
    by game creation, round and seat."""
    games = session.scalars(
        select(Game)
        .order_by(Game.created_at, Game.id)
        .options(
            selectinload(Game.players),
            selectinload(Game.round_rows)
            .selectinload(Round.collections)
            .selectinload(Collection.events),
        )
    ).all()
    found = []
    for game in games:
        for row in game.round_rows:
            for collection in sorted(row.collections, key=lambda c: c.player.seat):
                # A review is confirmed when its last event is a confirm (any later
                # correction, undo or new photo un-confirms it), or a restore that
                # brought back a confirmed reading (confirmed then as of the restore).
                last = collection.events[-1] if collection.events else None
                if last is None or last.kind not in (review.CONFIRM, review.RESTORE):
                    continue
                confirmed_at = _aware(last.created_at)
                if since is not None and confirmed_at < since:
                    continue
                view = view_collection(game, collection)
                if view.state.confirmed:
                    found.append(_read(view, confirmed_at))
    return found


def _read(view: CollectionView, confirmed_at: datetime) -> ConfirmedCollection:
    game, collection = view.game, view.collection
    state, assessment = view.state, view.assessment
    assert state.confirmed and state.confirmed_tally is not None
    photo = None
    if view.photo is not None:
        cards_left_out = _cards_left_out(state)
        strip_of = {
            box.id: state.boxes[assessment.stack_with[box.id]].box
            for box in state.boxes.values()
            if box.label in STACK_LABELS and box.id in assessment.stack_with
        }
        boxes = [
            CardBox(
                label=box.label,
                box=box.box,
                source=box.source,
                # A box left out (by a swap too) keeps its label: not a relabel.
                relabeled=box.detected_label is not None and not box.left_out,
                strip=strip_of.get(box.id),
                left_out=box.left_out,
            )
            for box in state.boxes.values()
            if box.id in assessment.counted or box.id in cards_left_out
        ]
        from_detector = sum(1 for box in state.boxes.values() if box.source == "detector")
        photo = ReviewedPhoto(
            id=view.photo.id,
            sha256=view.photo.sha256,
            width=view.photo.width,
            height=view.photo.height,
            model=dict(view.photo.model or {}),
            boxes=boxes,
            detected_tally=_full(assessment.detected or {}),
            detected=len(view.photo.detections),
            deleted=len(view.photo.detections) - from_detector,
            uncounted=len(state.boxes) - len(assessment.counted),
        )
    return ConfirmedCollection(
        game=game.id,
        title=game.title,
        round=collection.round.number,
        seat=collection.player.seat,
        player=collection.player.name,
        players=len(game.players),
        confirmed_at=confirmed_at,
        tally=_full(state.confirmed_tally),
        counts=dict(state.counts),
        photo=photo,
    )


def _cards_left_out(state: review.ReviewState) -> frozenset[int]:
    """The ids of the boxes left out as another player's that are cards, as the tally would
    read them were they this player's: none under the confidence floor, one box a card."""
    ids = list(state.boxes)
    cards = cards_left_out(Detections.from_records(box.record() for box in state.boxes.values()))
    return frozenset(ids[int(i)] for i in cards)


def _full(tally: dict[str, int]) -> dict[str, int]:
    return {key: int(tally.get(key, 0)) for key in TALLY_KEYS}


# --- deciding -----------------------------------------------------------------------------


def why_not_trainable(entry: ConfirmedCollection) -> Skip | None:
    """Why a confirmed collection cannot be written as labelled boxes (None: it can)."""
    photo = entry.photo
    if photo is None:
        return Skip(COUNTS_ONLY, "the tally was set with the counters; there is no photo")
    if all(box.left_out for box in photo.boxes) and entry.counts:
        return Skip(COUNTS_ONLY, "the tally was set with the counters; the photo has no boxes")
    stacks = sorted({b.label for b in photo.boxes if b.label in STACK_LABELS and not b.strip})
    if stacks:
        return Skip(
            STACK_LABEL,
            f"a box is labelled as a whole stack ({', '.join(stacks)}) and no box was found "
            f"for the wasabi strip that shows under it",
        )
    if photo.detected_tally != entry.tally:
        differences = [
            f"{key} {photo.detected_tally[key]} vs {entry.tally[key]}"
            for key in TALLY_KEYS
            if photo.detected_tally[key] != entry.tally[key]
        ]
        by_hand = ", ".join(sorted(entry.counts))
        return Skip(
            TALLY_MISMATCH,
            f"the boxes read as another tally than the confirmed one (boxes vs confirmed: "
            f"{'; '.join(differences)})" + (f"; counts set by hand: {by_hand}" if by_hand else ""),
        )
    return None


# --- writing ------------------------------------------------------------------------------


def export_corrections(
    settings: Settings, out: Path, *, since: datetime | None = None
) -> ExportResult:
    """Write every confirmed collection's photo and corrected boxes under `out` (a new or
    empty folder), and skipped.json listing those that cannot be written."""
    check_new_folder(out, "export")
    url = settings.resolved_database_url
    parsed = database_url(url)
    database = parsed.database if parsed.get_backend_name() == "sqlite" else None
    if database not in (None, "", ":memory:") and not Path(str(database)).is_file():
        raise ValueError(
            f"there is no database at {database}: point --data-dir (or --database-url) at "
            f"the service's data"
        )
    with opening(url):
        engine = make_engine(url)
        try:
            with make_sessionmaker(engine)() as session:
                entries = confirmed_collections(session, since=since)
                session.rollback()  # read only; end the transaction before any slow work
        finally:
            engine.dispose()

    store = PhotoStore(settings.data_dir)
    prepare(out, deck=PHOTOGRAPHED_DECK)
    result = ExportResult(out)
    for entry in entries:
        skip = why_not_trainable(entry) or _write(out, store, entry)
        if skip is None:
            result.written.append(entry.name)
        else:
            result.skipped.append({**entry.where(), "reason": skip.reason, "detail": skip.detail})
    (out / SKIPPED_FILE).write_text(json.dumps(result.skipped, indent=1) + "\n")
    return result


def _write(out: Path, store: PhotoStore, entry: ConfirmedCollection) -> Skip | None:
    """Write one photo, its labels and its tally record; a Skip when the photo can't be."""
    photo = entry.photo
    assert photo is not None
    path = store.photo_path(photo.sha256)
    if not path.is_file():
        return Skip(PHOTO_MISSING, f"the photo file {path} is not in the data folder")
    try:
        decoded = load_photo(
            path.read_bytes(),
            max_bytes=max(path.stat().st_size, 1),
            max_pixels=max(photo.width * photo.height, 1),
            min_long_side=MAX_LONG_SIDE,
        )
    except PhotoError as error:
        return Skip(PHOTO_UNREADABLE, f"the photo cannot be decoded: {error}")
    if decoded.original_size != (photo.width, photo.height):
        return Skip(
            PHOTO_UNREADABLE,
            f"the photo decodes as {decoded.original_size[0]}x{decoded.original_size[1]}, "
            f"not the {photo.width}x{photo.height} its boxes were given in",
        )
    image = decoded.image
    height, width = image.shape[:2]
    factor = min(1.0, MAX_LONG_SIDE / max(width, height))
    if factor < 1:
        size = (max(1, round(width * factor)), max(1, round(height * factor)))
        image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
        height, width = image.shape[:2]
    scale_x, scale_y = width / photo.width, height / photo.height

    # One labelled box a card, as `sushigo synth` writes them: a stack as its wasabi's
    # strip and the nigiri on it, which names the wasabi (on_wasabi, its index).
    written: list[tuple[str, tuple[float, float, float, float], CardBox, int | None]] = []
    for card in photo.boxes:
        if card.strip is None:
            written.append((card.label, card.box, card, None))
            continue
        written.append(("wasabi", card.strip, card, None))
        written.append((STACKS[card.label], card.box, card, len(written) - 1))
    cards, lines = [], []
    for kind, (x1, y1, x2, y2), card, on_wasabi in written:
        box = [
            round(min(max(x1 * scale_x, 0.0), width), 1),
            round(min(max(y1 * scale_y, 0.0), height), 1),
            round(min(max(x2 * scale_x, 0.0), width), 1),
            round(min(max(y2 * scale_y, 0.0), height), 1),
        ]
        if box[2] <= box[0] or box[3] <= box[1]:
            return Skip(
                BOX_OUTSIDE_PHOTO,
                f"the {kind} box {[x1, y1, x2, y2]} lies outside the "
                f"{photo.width}x{photo.height} photo",
            )
        cards.append({"kind": kind, "box": box, "source": card.source, "on_wasabi": on_wasabi})
        if card.left_out:
            cards[-1]["left_out"] = True
        lines.append(_label_line(KIND_ID[kind], box, width, height))

    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    if not ok:  # pragma: no cover - encoding a decoded BGR image does not fail
        return Skip(PHOTO_UNREADABLE, "the photo could not be encoded as JPEG")
    record = {
        "tally": entry.tally,
        "players": entry.players,
        "hand_size": HAND_SIZE[entry.players],
        "cards": cards,
        "meta": {
            "source": "corrections",
            **entry.where(),
            "sha256": photo.sha256,
            "original_size": [photo.width, photo.height],
            "scale": round(width / photo.width, 6),
            "model": photo.model,
            "corrections": {
                "detected": photo.detected,
                "relabeled": sum(1 for c in photo.boxes if c.relabeled),
                "deleted": photo.deleted,
                "added": sum(1 for c in photo.boxes if c.source == "reviewer"),
                "uncounted": photo.uncounted,
            },
        },
    }
    name = entry.name
    (out / "images" / SPLIT / f"{name}.jpg").write_bytes(encoded.tobytes())
    (out / "labels" / SPLIT / f"{name}.txt").write_text("".join(f"{line}\n" for line in lines))
    (out / "tallies" / SPLIT / f"{name}.json").write_text(
        json.dumps(record, sort_keys=True, indent=1)
    )
    return None


def _label_line(class_id: int, box: Sequence[float], width: int, height: int) -> str:
    x1, y1, x2, y2 = box
    return (
        f"{class_id} {(x1 + x2) / 2 / width:.6f} {(y1 + y2) / 2 / height:.6f} "
        f"{(x2 - x1) / width:.6f} {(y2 - y1) / height:.6f}"
    )


# --- command line -------------------------------------------------------------------------


def parse_since(text: str) -> datetime:
    """An ISO date or date-time; without a zone it is the local time."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(
            f"--since {text!r} is not an ISO date or time (e.g. 2025-05-01 or 2025-05-01T18:30)"
        ) from None
    return moment if moment.tzinfo is not None else moment.astimezone()


def run_export(args: argparse.Namespace) -> int:
    since = None if args.since is None else parse_since(args.since)
    settings = get_settings(data_dir=args.data_dir, database_url=args.database_url)
    result = export_corrections(settings, args.out, since=since)
    print(result.summary())
    return 0
