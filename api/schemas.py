"""Request and response bodies: Create / Update / Public shapes per resource.

JSON bodies take JSON's own types only: counts are integers (a bool, a float or a string
is refused, never rounded), box coordinates finite numbers. Every number a client sends
is bounded, and text (names, titles, authors) is cleaned by scoring.names, so bad input
stops here with a 422 that names the field.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    model_validator,
)

from scoring import (
    BREAKDOWN_KEYS,
    DECK_SIZE,
    MAX_NAME_LENGTH,
    MAX_PLAYERS,
    MIN_PLAYERS,
    TALLY_KEYS,
    clean_text,
)
from vision.labels import LABELS

Label = Literal[
    "tempura", "sashimi", "dumpling", "maki_1", "maki_2", "maki_3", "egg", "salmon",
    "squid", "egg_on_wasabi", "salmon_on_wasabi", "squid_on_wasabi", "wasabi",
    "chopsticks", "pudding",
]  # fmt: skip
assert tuple(Label.__args__) == LABELS  # type: ignore[attr-defined]

# The tally keys are the labels (vision.labels: a box may be labelled as a stack).
TallyKey = Label
assert LABELS == TALLY_KEYS

Count = Annotated[int, Field(strict=True, ge=0, le=DECK_SIZE)]
Version = Annotated[
    int, Field(strict=True, ge=0, le=2**31 - 1, description="the version you last read")
]
Coordinate = Annotated[float, Field(strict=True, ge=0, le=1_000_000, allow_inf_nan=False)]
# A box narrower or lower than this is a slip of the finger, not a card: the smallest card
# the detector reads in a photo is tens of pixels across.
MIN_BOX_SIDE = 4
TITLE_LENGTH = 120
AUTHOR_LENGTH = 60


def _clean(text: str, *, what: str, max_length: int) -> str:
    """Text cleaned as scoring.names has it (which also refuses the NUL that PostgreSQL's
    text cannot hold); the 422 says which text (`what`) is wrong and how."""
    try:
        return clean_text(text, max_length=max_length)
    except ValueError as error:
        raise ValueError(f"{what} {error}") from None


def _cleaned(what: str, max_length: int) -> AfterValidator:
    return AfterValidator(lambda text: _clean(text, what=what, max_length=max_length))


def _optional(what: str, max_length: int) -> AfterValidator:
    """As `_cleaned`, where empty or only spaces is no text at all (None)."""

    def clean(text: str | None) -> str | None:
        if text is None or not text.strip():
            return None
        return _clean(text, what=what, max_length=max_length)

    return AfterValidator(clean)


def _length(max_length: int) -> dict[str, Any]:
    # Documented, not checked here: the length that counts is the cleaned text's.
    return {"minLength": 1, "maxLength": max_length}


PlayerName = Annotated[
    str,
    Field(json_schema_extra=_length(MAX_NAME_LENGTH)),
    _cleaned("a name", MAX_NAME_LENGTH),
]
Title = Annotated[
    str | None,
    Field(default=None, json_schema_extra={"maxLength": TITLE_LENGTH}),
    _optional("a title", TITLE_LENGTH),
]
Author = Annotated[
    str | None,
    Field(
        default=None,
        json_schema_extra={"maxLength": AUTHOR_LENGTH},
        description="who makes the change (a player's name or a device), for the audit",
    ),
    _optional("an author", AUTHOR_LENGTH),
]


class Strict(BaseModel):
    """A JSON request body: JSON's own types only (no "3" for 3, no 1 for true), and no
    field the model does not name."""

    model_config = ConfigDict(extra="forbid", strict=True)


# --- errors ---------------------------------------------------------------------------


class InvalidFieldPublic(BaseModel):
    loc: list[str | int] = Field(description="where: 'body', 'path' or 'query', then the field")
    msg: str = Field(description="what is wrong (the value sent is never repeated)")
    type: str


class ErrorPublic(BaseModel):
    """Every 4xx, 503 and 500 body. `detail` says what is wrong in words, `reason` as a
    code; other fields depend on the error: `code` and `problems` for tallies that could
    not have been dealt, `current_version` for a stale version."""

    model_config = ConfigDict(extra="allow")

    detail: str = Field(description="what is wrong, in words for people")
    reason: str = Field(
        description="what is wrong as a stable snake_case code for programs: the error's "
        "kind (not_found, missing_token, wrong_token, conflict, stale_version, "
        "unprocessable, invalid, too_large, not_json, method_not_allowed, unavailable, busy...) "
        "or a narrower case of it (would_replace, round_recorded, not_an_image...)",
        examples=["not_found"],
    )
    errors: list[InvalidFieldPublic] | None = Field(
        default=None, description="an invalid request's first problems (at most 5)"
    )
    error_count: int | None = Field(
        default=None, description="how many problems the invalid request has in all"
    )
    limit_bytes: int | None = Field(
        default=None,
        description="every 413's limit, in bytes: the largest body, photo or form field "
        "the route takes (the sentence in `detail` says the same in words)",
    )


def error_response(description: str) -> dict[str, Any]:
    """A route's `responses=` entry for a 4xx: its cases, in the one error shape."""
    return {"model": ErrorPublic, "description": description}


# --- tallies and stateless scoring ----------------------------------------------------


class TallyIn(Strict):
    """One player's collection in one round: counts per category, a missing key is 0."""

    tempura: Count = 0
    sashimi: Count = 0
    dumpling: Count = 0
    maki_1: Count = 0
    maki_2: Count = 0
    maki_3: Count = 0
    egg: Count = 0
    salmon: Count = 0
    squid: Count = 0
    egg_on_wasabi: Count = 0
    salmon_on_wasabi: Count = 0
    squid_on_wasabi: Count = 0
    wasabi: Count = 0
    chopsticks: Count = 0
    pudding: Count = 0


def tally_counts(tally: TallyIn) -> dict[str, int]:
    return tally.model_dump()


class TallyOut(BaseModel):
    tempura: int
    sashimi: int
    dumpling: int
    maki_1: int
    maki_2: int
    maki_3: int
    egg: int
    salmon: int
    squid: int
    egg_on_wasabi: int
    salmon_on_wasabi: int
    squid_on_wasabi: int
    wasabi: int
    chopsticks: int
    pudding: int


class ScoreRoundRequest(Strict):
    tallies: list[TallyIn] = Field(min_length=MIN_PLAYERS, max_length=MAX_PLAYERS)


class Breakdown(BaseModel):
    maki: int
    tempura: int
    sashimi: int
    dumpling: int
    nigiri: int


assert tuple(Breakdown.model_fields) == BREAKDOWN_KEYS


class RoundScorePublic(BaseModel):
    total: int
    breakdown: Breakdown


class ScoreRoundResponse(BaseModel):
    scores: list[RoundScorePublic]


class GameRulesIn(Strict):
    rounds: int = Field(default=3, strict=True, ge=3, le=5)
    pass_both_ways: bool = False


class ScoreGameRequest(Strict):
    players: list[PlayerName] = Field(min_length=MIN_PLAYERS, max_length=MAX_PLAYERS)
    rounds: list[Annotated[list[TallyIn], Field(max_length=MAX_PLAYERS)]] = Field(max_length=5)
    rules: GameRulesIn | None = Field(
        default=None,
        description="the game's set-up; by default 3 rounds (or as many as given, up to 5)",
    )


class PlayerResultPublic(BaseModel):
    name: str
    rounds: list[int]
    dessert: int
    total: int
    puddings: int
    place: int = Field(
        description="1 for the best total, then most puddings; players level on both "
        "share a place (1, 1, 3)"
    )


class ScoreGameResponse(BaseModel):
    players: list[PlayerResultPublic]
    winners: list[str]
    leaders: list[str] = Field(description="who is ahead (the winners once complete)")
    complete: bool = Field(description="every round of the game is in")
    rounds_played: int


class ProblemPublic(BaseModel):
    """Something wrong (error) or suspicious (warning) about tallies, as data."""

    severity: Literal["error", "warning"]
    code: str
    message: str
    seat: int | None = Field(default=None, description="the player's seat, from 1")
    player: str | None = Field(default=None, description="the player's name, when known")
    category: str | None = None
    expected: int | None = None
    actual: int | None = None
    round: int | None = Field(default=None, description="the round, from 1")


# --- detection ------------------------------------------------------------------------


class DetectionPublic(BaseModel):
    # Every field is in every answer: required in the OpenAPI document's response schema.
    model_config = ConfigDict(json_schema_serialization_defaults_required=True)

    label: str
    confidence: float
    box: list[float] = Field(description="x1, y1, x2, y2 in the original photo's pixels")
    left_out: bool = Field(
        default=False,
        description="not counted in the tally: left out as another player's card, lying "
        "apart at the photo's edge where leaving it out made the hand's count right",
    )


NOTES = (
    "what reading the photo did, told so that the photo makes sense, not a call to check "
    "(for one, that it was read turned)"
)


class DetectResponse(BaseModel):
    """The body of POST /api/v1/detect (and `sushigo detect --json`)."""

    tally: TallyOut
    cards: int
    detections: list[DetectionPublic]
    warnings: list[str]
    notes: list[str] = Field(default_factory=list, description=NOTES)
    turned: int = Field(
        default=0,
        ge=0,
        lt=360,
        description="degrees clockwise the photo was turned to read its cards upright (a "
        "phone held flat may tag a photo the wrong way up, or be held at a slant to the "
        "cards); boxes are in the photo so turned, on a canvas grown to hold all of it",
    )


# --- form fields sent beside a photo (multipart; read by api.uploads.receive_photo) ----


class DetectForm(BaseModel):
    """POST /detect: the fields beside `image`."""

    players: int | None = Field(
        default=None, ge=2, le=5, description="players at the table: checks the hand size"
    )


class PhotoUploadForm(BaseModel):
    """POST .../players/{seat}/photos: the fields beside `image`."""

    version: int = Field(ge=0, le=2**31 - 1, description="the collection's version")
    author: Author = None
    replace: bool = Field(
        default=False,
        description="replace a reading a person confirmed or corrected (without it such "
        "an upload is a 409, reason `would_replace`); the reading replaced is kept and "
        "can be restored",
    )


class ModelPublic(BaseModel):
    available: bool = Field(description="whether the detector loads")
    weights: str | None = Field(description="the weights file or folder")
    sha256: str | None = Field(description="the detector weights' sha256")
    classes: list[str]
    details: dict[str, Any] | None = Field(
        default=None, description="the detector's own description: files, training, metrics"
    )
    error: str | None = Field(default=None, description="why the detector does not load")


# --- games ----------------------------------------------------------------------------


class GameCreate(Strict):
    players: list[PlayerName] = Field(
        min_length=MIN_PLAYERS, max_length=MAX_PLAYERS, description="names in seat order"
    )
    rounds: int = Field(
        default=3, strict=True, ge=3, le=5, description="3, or 4-5 where the deck allows"
    )
    pass_both_ways: bool = Field(default=False, description="the pass-both-ways variant")
    title: Title = None


class GameUpdate(Strict):
    version: Version
    title: Title = None
    players: list[PlayerName] | None = Field(
        default=None, min_length=MIN_PLAYERS, max_length=MAX_PLAYERS, description="renames"
    )
    rounds: int | None = Field(default=None, strict=True, ge=3, le=5)
    pass_both_ways: bool | None = None


class PlayerPublic(BaseModel):
    seat: int
    name: str


class RoundSummary(BaseModel):
    number: int
    status: Literal["open", "recorded", "reopened"]
    version: int


class GamePublic(BaseModel):
    id: str
    title: str | None
    players: list[PlayerPublic]
    rounds: int
    pass_both_ways: bool
    hand_size: int
    version: int
    status: Literal["playing", "fixing", "finished"]
    current_round: int | None = Field(description="the first round not yet recorded")
    round_states: list[RoundSummary]
    created_at: datetime
    revision: int = Field(
        description="moves on every change to the game, its rounds or any player's "
        "entries; the ETag carries it, so a poll with If-None-Match gets an empty 304 "
        "while nothing changed"
    )
    can_edit: bool = Field(
        description="whether this request carried the game's edit token (reads never "
        "need one; a wrong one gives false here, not an error)"
    )


class GameCreated(GamePublic):
    edit_token: str = Field(
        description="keep it: every change to the game needs it "
        "('Authorization: Bearer <token>' or 'X-Edit-Token')"
    )


class StandingsPublic(ScoreGameResponse):
    rounds: int = Field(description="rounds in the game")
    reopened: list[int] = Field(
        description="rounds re-opened for fixing (their last record counts)"
    )
    round_scores: list[list[RoundScorePublic]] = Field(
        description="per recorded round, each player's points per category"
    )


# --- collections and review -----------------------------------------------------------


class BoxPublic(BaseModel):
    id: int
    label: str
    confidence: float
    box: list[float]
    source: Literal["detector", "reviewer"]
    detected_label: str | None = Field(
        default=None, description="the detector's label, when a person relabeled the box"
    )
    counted: bool = Field(
        description="the tally counts this box (false: below the confidence floor, a "
        "duplicate of another box, a wasabi strip under a stack, or left out)"
    )
    left_out: bool = Field(
        default=False,
        description="left out of the tally as another player's card: by the reading (it "
        "lies apart from the collection, and leaving it out made the hand's count right) or "
        "by a person (the correction `leave_out`); labelling it (as what it is, too) counts "
        "it, and so does `swap_left_out`, which leaves out the boxes counted instead",
    )
    stack_with: int | None = Field(
        default=None,
        description="the id of the box this one makes one stack with, as the tally read "
        "it: a wasabi and the nigiri on it point at each other, and so do a box labelled "
        "as a stack and the wasabi strip under it; null for a box in no stack",
    )
    check: bool = Field(
        default=False,
        description="a warning points at this box: read with low confidence, its kind "
        "doubted, a stack's nigiri seen only by the strip above it, or a box the hand size "
        "settled (read back on a wasabi, left plain, taken though the finder doubted it); "
        "it goes once a person has relabelled the box. Never a box `left_out`: leaving it "
        "out is what the warning says was done",
    )
    asks: list[str] = Field(
        default_factory=list,
        description="the warnings (of `warnings`) that point at this box, in words: what "
        "to check of it, or, for a box `left_out`, the warning that says so; empty where "
        "neither",
    )
    supposed: bool = Field(
        default=False,
        description="the hand size read this box's nigiri on a wasabi no box shows, to make "
        "up the hand's count (see the collection's `hand_supposed`); false once a person "
        "has relabelled it",
    )


class PhotoPublic(BaseModel):
    id: int
    sha256: str
    media_type: str
    size_bytes: int
    width: int
    height: int
    detections: list[DetectionPublic] = Field(description="as the detector found them")
    author: str | None
    created_at: datetime
    image_url: str
    annotated_url: str


HAND_NOTE = (
    "the hand size check in words when the cards are not the hand size ('8 of 10 cards "
    "found'); null when they are"
)
REVIEWED = "a person confirmed or corrected this reading: a new photo needs `replace=true`"


class EarlierReadingPublic(BaseModel):
    """A reading a later photo replaced, kept as it stood then: POST .../restore with its
    `photo` brings it back exactly."""

    photo: int | None = Field(
        description="its photo's id, for restore (null: counts entered by hand before any "
        "photo); GET .../photos/{id} has the photo's record"
    )
    image_url: str | None = Field(description="the photo as uploaded")
    annotated_url: str | None = Field(description="the photo with the detector's boxes drawn")
    taken_at: datetime | None = Field(description="when the photo was uploaded")
    status: Literal["draft", "confirmed"]
    tally: TallyOut
    cards: int
    confirmed_tally: TallyOut | None
    corrections: int = Field(description="corrections in effect on it")
    replaced_at: datetime = Field(description="when a later photo (or restore) replaced it")


class CollectionPublic(BaseModel):
    round: int
    seat: int
    player: str
    status: Literal["empty", "draft", "confirmed"]
    reviewed: bool = Field(description=REVIEWED)
    version: int
    round_status: Literal["open", "recorded", "reopened"]
    photo: PhotoPublic | None
    detections: list[BoxPublic] = Field(description="the boxes after corrections")
    detected_tally: TallyOut | None = Field(description="the tally read from the boxes alone")
    counts: dict[str, int] = Field(description="category counts set by hand, over the boxes")
    tally: TallyOut
    cards: int
    hand_size: int
    hand_note: str | None = Field(description=HAND_NOTE)
    hand_supposed: bool = Field(
        default=False,
        description="a stack the hand size supposed is still unchecked: a nigiri read on "
        "a wasabi that no box shows, to make up the hand's count, which a warning asks to "
        "check (the page's hand check shows '?', not a tick, where the count is the hand "
        "size); false once a person has relabelled that box, and for photos stored before "
        "warnings kept their codes",
    )
    warnings: list[str]
    notes: list[str] = Field(description=NOTES)
    problems: list[ProblemPublic]
    confirmed_tally: TallyOut | None
    can_undo: bool
    annotated_url: str | None
    earlier: list[EarlierReadingPublic] = Field(
        description="the readings later photos replaced, most recently replaced first: "
        "every one a person confirmed or corrected, and the last 3 others (GET .../photos "
        "lists every photo; a restore takes any of them)"
    )


class RelabelDetection(Strict):
    action: Literal["relabel"]
    detection: int = Field(strict=True, ge=1, le=100_000)
    label: Label
    version: Version
    author: Author = None


class DeleteDetection(Strict):
    action: Literal["delete"]
    detection: int = Field(strict=True, ge=1, le=100_000)
    version: Version
    author: Author = None


class LeaveOutDetection(Strict):
    """A box that is another player's card (the next collection's, caught in the photo):
    left out of the tally, kept on the photo; the other box of its stack with it.
    Labelling it counts it again."""

    action: Literal["leave_out"]
    detection: int = Field(strict=True, ge=1, le=100_000)
    version: Version
    author: Author = None


class SwapLeftOut(Strict):
    """The cards left out as another player's are this player's, and the cards counted
    another player's: where the reading took the next collection, caught in the photo,
    for this one. Of the boxes as the reading left them, each left out is counted (as
    read) and each counted is left out; a box a person added, labelled or left out stays
    as it is, and counts set by hand are cleared. 422 where no box the reading left out
    is still so (a second swap: undo turns the first back)."""

    action: Literal["swap_left_out"]
    version: Version
    author: Author = None


class AddDetection(Strict):
    action: Literal["add"]
    box: list[Coordinate] = Field(min_length=4, max_length=4, description="x1, y1, x2, y2")
    label: Label
    version: Version
    author: Author = None

    @model_validator(mode="after")
    def _ordered(self) -> AddDetection:
        x1, y1, x2, y2 = self.box
        if not (x1 < x2 and y1 < y2):
            raise ValueError("a box needs x1 < x2 and y1 < y2")
        if x2 - x1 < MIN_BOX_SIDE or y2 - y1 < MIN_BOX_SIDE:
            raise ValueError(f"a box is at least {MIN_BOX_SIDE} pixels wide and high")
        return self


class SetCounts(Strict):
    action: Literal["set_counts"]
    counts: dict[TallyKey, Count | None] = Field(
        description="category -> count (null removes a count set earlier)"
    )
    version: Version
    author: Author = None


class AdjustCount(Strict):
    action: Literal["adjust_count"]
    category: TallyKey
    delta: int = Field(
        strict=True,
        ge=-DECK_SIZE,
        le=DECK_SIZE,
        description="added to the category's count as it stands (+1, -1 from a counter)",
    )
    version: Version
    author: Author = None

    @model_validator(mode="after")
    def _moves(self) -> AdjustCount:
        if self.delta == 0:
            raise ValueError("delta 0 changes nothing: send +1, -1 or another non-zero step")
        return self


CorrectionCreate = Annotated[
    RelabelDetection
    | DeleteDetection
    | LeaveOutDetection
    | SwapLeftOut
    | AddDetection
    | SetCounts
    | AdjustCount,
    Field(discriminator="action"),
]


class VersionedAction(Strict):
    version: Version
    author: Author = None


class RestoreReading(Strict):
    photo: Annotated[int, Field(strict=True, ge=1, le=2**31 - 1)] | None = Field(
        description="the earlier reading's photo id (`earlier[].photo`); null for the "
        "counts entered by hand before any photo",
    )
    version: Version
    author: Author = None


class RecordCreate(Strict):
    version: Version = Field(description="the round's version you last read")
    accept_problems: bool = Field(
        default=False,
        description="record even though tallies break the hand size or the deck",
    )
    author: Author = None


class EventPublic(BaseModel):
    seq: int
    kind: str
    payload: dict[str, Any]
    author: str | None
    created_at: datetime
    undone: bool = Field(description="switched off by a later undo")


class RoundEventPublic(BaseModel):
    kind: Literal["record", "reopen"]
    author: str | None
    created_at: datetime
    accepted: bool = False


class RoundRecordPublic(BaseModel):
    tallies: list[TallyOut]
    scores: list[RoundScorePublic]
    problems: list[ProblemPublic]
    accepted: bool
    author: str | None
    created_at: datetime


class RoundPublic(BaseModel):
    number: int
    status: Literal["open", "recorded", "reopened"]
    version: int
    accepts_entries: bool
    collections: list[CollectionSummary]
    problems: list[ProblemPublic] = Field(
        description="checks of the confirmed tallies so far (hand size, deck)"
    )
    record: RoundRecordPublic | None = Field(description="the latest record, if any")
    history: list[RoundEventPublic]


class CollectionSummary(BaseModel):
    seat: int
    player: str
    status: Literal["empty", "draft", "confirmed"]
    reviewed: bool = Field(description=REVIEWED)
    version: int
    tally: TallyOut
    cards: int
    hand_note: str | None = Field(description=HAND_NOTE)
    photo_id: int | None


RoundPublic.model_rebuild()


def utc(moment: datetime) -> datetime:
    """SQLite hands datetimes back without a zone; they were stored as UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
