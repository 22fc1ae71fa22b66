"""A collection's review, replayed from its events.

The detector's boxes of the current photo are the starting point; each correction is an
event applied on top (relabel, delete, add a box, set category counts), an undo event
switches one earlier correction off, and a confirm event freezes the tally. Replaying the
same events always gives the same state, so the original detections never change and the
whole review can be audited and undone.

A new photo starts the review afresh, but the reading it replaced is kept (`earlier`:
the boxes, counts, corrections and confirmation as they stood), and a restore event
brings one back exactly, replacing the current reading, which is kept in its turn.

This module is plain data in, plain data out: api/collections.py loads the events and photos.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final, Literal

from scoring import STACKS, Tally, check_collection
from scoring.validation import Problem
from vision.detections import Detections
from vision.notices import Notice, NoticeCode
from vision.reading import read_tally

UPLOAD: Final = "upload"
RELABEL: Final = "relabel"
DELETE: Final = "delete"
# A box a person says is another player's card: left out of the tally, kept on the photo
# (and in the learning loop's data, as a card); with it, the other box of its stack.
LEAVE_OUT: Final = "leave_out"
# The cards left out as another player's were this player's, and those counted the other
# player's (the reading took the next collection for this one): both sides turned over at
# once, {"count": [ids], "leave_out": [ids], "counts": the counts set by hand it clears}.
SWAP_LEFT_OUT: Final = "swap_left_out"
ADD: Final = "add"
SET_COUNTS: Final = "set_counts"
# A counter's +1 / -1: stored with the count it led to, so that replay never depends on
# what the boxes read at the time (the delta is kept for the audit).
ADJUST_COUNT: Final = "adjust_count"
UNDO: Final = "undo"
CONFIRM: Final = "confirm"
# Bring back a reading that a later photo replaced: {"photo": id or None, "state_at": seq}
# (None: the counts entered by hand before any photo; `state_at`: its last event's seq).
RESTORE: Final = "restore"
CORRECTIONS: Final[frozenset[str]] = frozenset(
    {RELABEL, DELETE, LEAVE_OUT, SWAP_LEFT_OUT, ADD, SET_COUNTS, ADJUST_COUNT}
)
KINDS: Final[tuple[str, ...]] = (
    UPLOAD, RELABEL, DELETE, LEAVE_OUT, SWAP_LEFT_OUT, ADD, SET_COUNTS, ADJUST_COUNT, UNDO,
    CONFIRM, RESTORE,
)  # fmt: skip

Status = Literal["empty", "draft", "confirmed"]


@dataclass(frozen=True)
class Event:
    """One stored review step (the replayable part of a ReviewEvent row)."""

    seq: int
    kind: str
    payload: Mapping[str, Any]


@dataclass(frozen=True)
class Box:
    """A card box in the current review: from the detector or added by a person."""

    id: int
    label: str
    confidence: float
    box: tuple[float, float, float, float]
    source: Literal["detector", "reviewer"]
    detected_label: str | None = None  # what the detector said, when since relabeled
    # For a nigiri's, maki's or wasabi's box as detected, the odds of another nigiri, roll
    # count or a nigiri (reading.NIGIRI_DOUBT, MAKI_DOUBT, WASABI_DOUBT); gone once a
    # person has labelled the box.
    doubt: float | None = None
    # For a nigiri's box as detected, the stack check's odds of a wasabi under it (a stack
    # seen only by its strip is warned of where the check did not call it); gone likewise.
    under: float | None = None
    # A box left out as another player's card, by the reading (it lay apart from the
    # collection) or by a person (LEAVE_OUT): not counted until a person labels it.
    left_out: bool = False

    def record(self) -> dict[str, Any]:
        record = {"label": self.label, "confidence": self.confidence, "box": list(self.box)}
        if self.doubt is not None:
            record["doubt"] = self.doubt
        if self.under is not None:
            record["under"] = self.under
        if self.left_out:
            record["left_out"] = True
        return record


@dataclass
class ReviewState:
    """Where a collection's review stands after its events."""

    photo_id: int | None = None
    boxes: dict[int, Box] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)  # per-category overrides
    confirmed: bool = False
    confirmed_tally: dict[str, int] | None = None
    confirmed_seq: int | None = None  # the confirm event in effect
    next_id: int = 1
    undoable: list[int] = field(default_factory=list)  # seqs of effective corrections
    undone: set[int] = field(default_factory=set)
    touched: bool = False  # any photo or count entered at all
    seq: int = 0  # the last event applied
    # The readings later photos replaced, by photo id (None: counts entered before any
    # photo), each as it stood when replaced; the current reading is never among them.
    earlier: dict[int | None, Earlier] = field(default_factory=dict)

    @property
    def status(self) -> Status:
        if self.confirmed:
            return "confirmed"
        return "draft" if self.touched else "empty"

    @property
    def reviewed(self) -> bool:
        """A person confirmed this reading or has a correction in effect on it: a new
        photo replaces it only when the client says it means to."""
        return self.confirmed or bool(self.undoable)

    def copy(self) -> ReviewState:
        """This reading alone (without `earlier`), to keep when it is replaced."""
        kept = ReviewState(undone=self.undone, seq=self.seq)
        kept.take(self)
        return kept

    def take(self, other: ReviewState) -> None:
        """Make `other`'s reading this one's (a restore); `earlier`, `undone` (the whole
        log's) and `seq` stay this state's own."""
        for name in _READING:
            setattr(self, name, copy.copy(getattr(other, name)))

    def detections(self) -> Detections:
        return Detections.from_records(box.record() for box in self.boxes.values())


# What a reading is: what a restore brings back and a replaced reading keeps (each
# copied, so that neither shares a dict or list with the other).
_READING: Final[tuple[str, ...]] = (
    "photo_id", "boxes", "counts", "confirmed", "confirmed_tally", "confirmed_seq", "next_id",
    "undoable", "touched",
)  # fmt: skip


@dataclass(frozen=True)
class Earlier:
    """A reading another photo replaced, as it stood then (`state`, whose `seq` is its
    last event), and the seq of the event that replaced it."""

    photo_id: int | None
    state: ReviewState
    replaced_at: int


def replay(
    events: Iterable[Event], photos: Mapping[int, Sequence[Mapping[str, Any]]]
) -> ReviewState:
    """The state after `events` (in seq order); `photos` maps a photo id to the detections
    the detector returned for it, as records ({"label", "confidence", "box"})."""
    ordered = sorted(events, key=lambda event: event.seq)
    state = ReviewState()
    state.undone = {int(e.payload["target"]) for e in ordered if e.kind == UNDO}
    for event in ordered:
        _apply(state, event, photos)
        state.seq = event.seq
    return state


def _detected_label(box: Box) -> str | None:
    """What the detector said of a box a person now changes: kept from before where it
    was changed already; None for a box a person added."""
    if box.source != "detector":
        return None
    return box.detected_label if box.detected_label is not None else box.label


def _leave_out(state: ReviewState, ids: Iterable[int]) -> None:
    """The boxes `ids` left out as another player's cards. A person has looked at each:
    the warnings naming it have been seen to. A box labelled as a stack is left out as its
    nigiri, its wasabi strip beside it (as the reading leaves one out:
    vision.pipeline._left_out)."""
    for ident in ids:
        box = state.boxes.get(ident)
        if box is not None:
            plain = STACKS.get(box.label, box.label)
            state.boxes[ident] = replace(
                box, label=plain, left_out=True, detected_label=_detected_label(box)
            )


def _keep_current(state: ReviewState, replaced_at: int) -> None:
    """Keep the current reading among the earlier ones: a new one is taking its place."""
    if state.photo_id is not None or state.touched:
        state.earlier[state.photo_id] = Earlier(state.photo_id, state.copy(), replaced_at)


def _apply(
    state: ReviewState, event: Event, photos: Mapping[int, Sequence[Mapping[str, Any]]]
) -> None:
    payload = event.payload
    if event.kind == CONFIRM:
        state.confirmed = True
        state.confirmed_tally = dict(payload["tally"])
        state.confirmed_seq = event.seq
        return
    if event.kind == RESTORE:
        wanted = None if payload["photo"] is None else int(payload["photo"])
        kept = state.earlier.get(wanted)
        if kept is None:  # pragma: no cover - collections.restore only names a kept reading
            return
        _keep_current(state, event.seq)
        del state.earlier[wanted]
        state.take(kept.state)
        return
    if event.kind == UPLOAD:
        _keep_current(state, event.seq)  # with its confirmation, before that is cleared
        state.confirmed = False
        photo_id = int(payload["photo"])
        state.photo_id = photo_id
        state.boxes = {}
        for index, record in enumerate(photos.get(photo_id, ()), start=1):
            state.boxes[index] = Box(
                id=index,
                label=str(record["label"]),
                confidence=float(record.get("confidence", 1.0)),
                box=_box(record["box"]),
                source="detector",
                doubt=float(record["doubt"]) if "doubt" in record else None,
                under=float(record["under"]) if "under" in record else None,
                left_out=bool(record.get("left_out", False)),
            )
        state.next_id = len(state.boxes) + 1
        state.counts = {}
        state.undoable = []
        state.touched = True
        return
    if event.kind == UNDO:
        target = int(payload["target"])
        if target in state.undoable:
            state.undoable.remove(target)
        # Undoing a correction the confirmed tally holds changes that tally; undoing one
        # made since (replayed as never made) gives the confirmed tally back, confirmed.
        if state.confirmed_seq is None or target < state.confirmed_seq:
            state.confirmed = False
        return
    if event.kind == ADD:
        # Ids are never reused, not even after the add that took one is undone.
        state.next_id = max(state.next_id, int(payload["detection"]) + 1)
    if event.seq in state.undone:
        return
    state.confirmed = False
    if event.kind == RELABEL:
        box = state.boxes.get(int(payload["detection"]))
        if box is not None:
            state.boxes[box.id] = Box(
                id=box.id,
                label=str(payload["label"]),
                confidence=1.0,  # a person has looked at it
                box=box.box,
                source=box.source,
                detected_label=_detected_label(box),
            )
        # A stack box relabelled as no stack: the wasabi strip it had absorbed goes too
        # (api.collections._absorbed_strip), in the same step, undone with it.
        for dropped in payload.get("drops", ()):
            state.boxes.pop(int(dropped["id"]), None)
    elif event.kind == DELETE:
        state.boxes.pop(int(payload["detection"]), None)
    elif event.kind == LEAVE_OUT:
        _leave_out(state, [int(payload["detection"]), *map(int, payload.get("stack", ()))])
    elif event.kind == SWAP_LEFT_OUT:
        # Counted as they were read: owning a card says nothing of its kind, so the
        # warnings on it still ask (all but the one that said it was left out).
        for ident in map(int, payload["count"]):
            if (box := state.boxes.get(ident)) is not None:
                state.boxes[ident] = replace(box, left_out=False)
        _leave_out(state, map(int, payload["leave_out"]))
        state.counts.clear()  # set for the cards counted before (kept in the payload)
    elif event.kind == ADD:
        ident = int(payload["detection"])
        state.boxes[ident] = Box(
            id=ident,
            label=str(payload["label"]),
            confidence=1.0,
            box=_box(payload["box"]),
            source="reviewer",
        )
    elif event.kind in (SET_COUNTS, ADJUST_COUNT):
        counts = (
            dict(payload["counts"])
            if event.kind == SET_COUNTS
            else {str(payload["category"]): None if payload.get("back_to_photo") else payload["to"]}
        )
        for key, value in counts.items():
            if value is None:
                state.counts.pop(key, None)
            else:
                state.counts[key] = int(value)
        state.touched = True
    else:
        return
    state.undoable.append(event.seq)


def _box(values: Sequence[Any]) -> tuple[float, float, float, float]:
    x1, y1, x2, y2 = (float(v) for v in values)
    return (x1, y1, x2, y2)


# A warning as a photo keeps it: its words, or its words and the boxes it names (their
# indices in the photo's stored detections, which are its boxes' ids less one).
StoredWarning = str | Mapping[str, Any]


def stored_warning(notice: Notice) -> StoredWarning:
    """How a photo keeps `notice`: with the boxes it names and its code, where it names
    some (photos stored before the code keep text and boxes alone)."""
    if not notice.boxes:
        return notice.text
    return {"text": notice.text, "boxes": list(notice.boxes), "code": notice.code.value}


def _makes_up_the_hand(warning: StoredWarning) -> bool:
    """Whether `warning` tells of a nigiri the hand size read on a wasabi: the hand's
    count holds only if a wasabi is under it."""
    return not isinstance(warning, str) and warning.get("code") == NoticeCode.READ_ON_WASABI


def _standing(warning: StoredWarning, state: ReviewState) -> tuple[str, list[int]] | None:
    """A stored warning's words and the ids of the boxes it names that no person has
    changed (relabelled or deleted) yet; None once every one of them is: what it warned of
    was seen to. A box checked does not vouch for another the same warning names. That a
    card was left out stands only while it is (SWAP_LEFT_OUT counts it unlabelled)."""
    if isinstance(warning, str):
        return warning, []
    ids = [int(index) + 1 for index in warning["boxes"]]
    of_left_out = warning.get("code") == NoticeCode.LEFT_OUT_APART
    unchecked = [
        ident
        for ident in ids
        if (box := state.boxes.get(ident)) is not None
        and box.detected_label is None
        and (box.left_out or not of_left_out)
    ]
    return (str(warning["text"]), unchecked) if unchecked else None


@dataclass(frozen=True)
class Assessment:
    """The tally a review state stands for, and what looks wrong with it."""

    tally: Tally
    detected: dict[str, int] | None  # the tally from the boxes alone (None: no photo)
    warnings: list[str]  # what reading the boxes noticed (low confidence, doubt, ...), in words
    problems: list[Problem]  # hand size and deck checks of the final tally
    notes: list[str] = field(default_factory=list)  # what reading the photo did (a turn, ...)
    counted: frozenset[int] = frozenset()  # ids of the boxes the tally counts
    # Box id -> the id of the box it makes one stack with, both ways: a counted wasabi and
    # the nigiri on it (the reading's stacks), or a box labelled as a stack and the wasabi
    # strip it absorbs.
    stack_with: Mapping[int, int] = field(default_factory=dict)
    # Box id -> the warnings that point at that box, in words, so that its sheet can say
    # what to check.
    asks: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    # The ids of a stack the hand size supposed (a nigiri read on a wasabi no box showed,
    # to make up the count) that no person has looked at yet: the count holds only if it
    # is right.
    supposed: frozenset[int] = frozenset()
    # The ids of the boxes left out as another player's (Box.left_out): a warning names
    # them, to show them, but marks none "to check": leaving them out is what it did.
    left_out: frozenset[int] = frozenset()

    @property
    def hand_supposed(self) -> bool:
        """The hand's count holds only on a stack the hand size supposed."""
        return bool(self.supposed)

    @property
    def to_check(self) -> frozenset[int]:
        """The ids of the boxes a warning points at, to check (not those left out)."""
        return frozenset(self.asks) - self.left_out


def assess(
    state: ReviewState,
    *,
    warnings: Sequence[StoredWarning] = (),
    notes: Sequence[str] = (),
    players: int,
    seat: int | None = None,
    round: int | None = None,
    name: str | None = None,
) -> Assessment:
    """The review's tally: read from the boxes, with category counts set by hand on top;
    checked against the hand size and the deck (`seat`, `round` 1-based, label problems).
    `warnings`, `notes`: what the detector's reading of the photo said, stored with it
    (vision.pipeline.review_detections)."""
    detected: dict[str, int] | None = None
    supposed: set[int] = set()
    warned: list[str] = []
    counted: frozenset[int] = frozenset()
    asks: dict[int, tuple[str, ...]] = {}
    stack_with: dict[int, int] = {}
    if state.photo_id is not None:
        reading = read_tally(state.detections())
        detected = reading.tally.to_dict()
        # Vision's notices only: the collection's own problems (reading.problems) come
        # once, as `problems` below, checked with the player's name.
        stand = [(w, s) for w in warnings if (s := _standing(w, state)) is not None]
        standing = [s for _, s in stand]
        supposed = {ident for w, (_, named) in stand if _makes_up_the_hand(w) for ident in named}
        # state.detections() lists the boxes in order: the reading's indices map to ids.
        ids = [box.id for box in state.boxes.values()]
        kept = [ids[i] for i in reading.source]
        counted = frozenset(kept)
        # Each warning in words, with the ids of the boxes it points at.
        told = [
            *standing,
            *((n.text, [ids[i] for i in n.boxes]) for n in reading.notices if n.warns),
        ]
        warned = [text for text, _ in told]
        for text, named in told:
            for ident in named:
                asks[ident] = (*asks.get(ident, ()), text)
        pairs = [(kept[w], kept[n]) for w, n in reading.stacks]
        pairs += [(ids[w], kept[n]) for w, n in reading.strips]
        for wasabi, nigiri in pairs:
            stack_with[wasabi] = nigiri
            stack_with[nigiri] = wasabi
    counts = {**(detected or {}), **state.counts}
    tally = Tally.from_mapping(counts)
    problems = check_collection(
        tally,
        players=players,
        player=None if seat is None else seat - 1,
        round=None if round is None else round - 1,
        name=name,
    )
    return Assessment(
        tally=tally,
        detected=detected,
        warnings=warned,
        problems=problems,
        notes=list(notes) if state.photo_id is not None else [],
        counted=counted,
        stack_with=stack_with,
        asks=asks,
        supposed=frozenset(supposed),
        left_out=frozenset(box.id for box in state.boxes.values() if box.left_out),
    )


def last_correction(state: ReviewState) -> int | None:
    """The seq of the correction an undo would switch off, if any."""
    return state.undoable[-1] if state.undoable else None
