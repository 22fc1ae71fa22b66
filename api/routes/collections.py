"""One player's collection in one round: upload a photo, review and correct its
detections or set counts, undo, confirm; the audit of every step."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, status
from fastapi.responses import FileResponse, Response

from api import collections, games, public
from api.annotated import annotated_jpeg, review_told
from api.deps import (
    AuthorizedUploadDep,
    DetectorDep,
    DetectorProviderDep,
    GameDep,
    GameId,
    ReadingDep,
    RoundNumber,
    Seat,
    SessionDep,
    StoreDep,
    UploadDep,
    WritableGameDep,
)
from api.errors import NotFound
from api.limits import JsonBodyRoute
from api.routes.games import WRITE_ERRORS
from api.schemas import (
    CollectionPublic,
    CorrectionCreate,
    EventPublic,
    PhotoPublic,
    PhotoUploadForm,
    RestoreReading,
    VersionedAction,
    error_response,
)
from api.uploads import PHOTO_ERRORS, multipart_openapi

router = APIRouter(
    prefix="/games/{game_id}/rounds/{number}/players/{seat}",
    tags=["review"],
    route_class=JsonBodyRoute,
)

UPLOAD_ERRORS = {**WRITE_ERRORS, **PHOTO_ERRORS}
CORRECTION_ERRORS = {
    **WRITE_ERRORS,
    422: error_response("an unknown detection, a box outside the photo, an impossible count"),
}


@router.get("", responses={404: WRITE_ERRORS[404]})
def read_collection(
    number: RoundNumber, seat: Seat, game: GameDep, session: SessionDep
) -> CollectionPublic:
    """The player's draft: photo, boxes after corrections, tally, hand-size check."""
    collection = collections.get_collection(session, game, number, seat)
    return public.collection_public(collections.view_collection(game, collection))


@router.post(
    "/photos",
    status_code=status.HTTP_201_CREATED,
    response_model=CollectionPublic,
    responses=UPLOAD_ERRORS,
    openapi_extra=multipart_openapi(
        PhotoUploadForm,
        title="Body_upload_photo",
        file_description="a photo of the player's face-up cards",
    ),
)
def upload_photo(
    game_id: GameId,
    number: RoundNumber,
    seat: Seat,
    authorized: AuthorizedUploadDep,  # first: no byte of a photo is read without the token
    upload: UploadDep,  # then the body, with no transaction open
    reading: ReadingDep,  # then its decode and detection start, on another thread
    session: SessionDep,
    store: StoreDep,
    detector: DetectorDep,  # the one reading the photo (a short hand is looked at closer)
    provider: DetectorProviderDep,
) -> Response:
    """Upload the player's photo for the round (multipart: `image`, `version`, optional
    `author` and `replace`): it is stored, detected, and becomes the draft. A reading a
    person confirmed or corrected is replaced only with `replace=true` (else 409, reason
    `would_replace`, and nothing is stored); the reading replaced is kept, listed in
    `earlier`, and POST .../restore brings it back."""
    # The game is read here rather than by a dependency, and the body is serialized
    # here: every thread hand-off saved is a scheduler wake-up on a busy machine.
    # The game and the collection are checked while the photo is decoded and detected;
    # their errors still come first (the token's came before the body), then the
    # form's, then the photo's.
    game = games.get_game(session, game_id)
    form = upload.valid()
    assert reading is not None  # a valid form has started one
    view = collections.upload_photo(
        session,
        store,
        game,
        number,
        seat,
        version=form.fields.version,
        data=form.data,
        reading=reading,
        detector=detector,
        author=form.fields.author,
        model=_model_stamp(provider),
        replace=form.fields.replace,
    )
    return public.json_response(public.collection_public(view), status.HTTP_201_CREATED)


def _model_stamp(provider: DetectorProviderDep) -> dict[str, str | None]:
    """Which weights found the boxes, when the real detector did."""
    try:
        info = provider.info() if provider.loaded else None
    except Exception:  # the stamp is a courtesy; it must never cost an upload
        info = None
    return {} if info is None else {"weights": info.weights, "sha256": info.sha256}


@router.get("/photos", responses={404: WRITE_ERRORS[404]})
def list_photos(
    number: RoundNumber, seat: Seat, game: GameDep, session: SessionDep
) -> list[PhotoPublic]:
    """Every photo uploaded for this collection, oldest first (the last is current)."""
    collection = collections.get_collection(session, game, number, seat)
    return [public.photo_public(game, photo) for photo in collection.photos]


@router.post("/corrections", responses=CORRECTION_ERRORS)
def add_correction(
    number: RoundNumber,
    seat: Seat,
    body: Annotated[CorrectionCreate, Body()],
    game: WritableGameDep,
    session: SessionDep,
) -> CollectionPublic:
    """Correct the draft, one step at a time, each kept as an event:

    - `relabel` a detection (`detection` id, new `label`)
    - `delete` a detection
    - `add` a missed card (`box` in photo pixels, `label`)
    - `set_counts` per category (`counts`; null removes a count set earlier), with or
      without a photo: the calculator way.
    - `adjust_count` a category by `delta` (+1, -1...) from its count as it stands; the
      result is kept as that category's count, like `set_counts`, and the event records
      `delta`, `from` and `to`; a step back to the photo's own count lets the category
      follow the photo's boxes again (`back_to_photo` in the event). Below 0 or over the
      deck is a 422.

    `version` is the collection's. A correction of a confirmed tally un-confirms it.
    """
    view = collections.correct(
        session,
        game,
        number,
        seat,
        correction=body,
        author=body.author,
    )
    return public.collection_public(view)


@router.post("/undo", responses=WRITE_ERRORS)
def undo_correction(
    number: RoundNumber,
    seat: Seat,
    body: VersionedAction,
    game: WritableGameDep,
    session: SessionDep,
) -> CollectionPublic:
    """Undo the latest correction still in effect (it stays in the audit, marked undone)."""
    view = collections.undo(session, game, number, seat, version=body.version, author=body.author)
    return public.collection_public(view)


@router.post("/confirm", responses=WRITE_ERRORS)
def confirm_tally(
    number: RoundNumber,
    seat: Seat,
    body: VersionedAction,
    game: WritableGameDep,
    session: SessionDep,
) -> CollectionPublic:
    """Mark the player's tally final for the round."""
    view = collections.confirm(
        session, game, number, seat, version=body.version, author=body.author
    )
    return public.collection_public(view)


@router.post("/restore", responses=WRITE_ERRORS)
def restore_reading(
    number: RoundNumber,
    seat: Seat,
    body: RestoreReading,
    game: WritableGameDep,
    session: SessionDep,
) -> CollectionPublic:
    """Bring back a reading a later photo replaced (`photo`: its id, from `earlier`),
    with its corrections and confirmation exactly as they stood; the reading it replaces
    is kept in `earlier` in its turn. 404 for a photo that is not among `earlier`.

    `version` is the collection's.
    """
    view = collections.restore(
        session,
        game,
        number,
        seat,
        version=body.version,
        photo=body.photo,
        author=body.author,
    )
    return public.collection_public(view)


@router.get("/events", responses={404: WRITE_ERRORS[404]})
def list_events(
    number: RoundNumber, seat: Seat, game: GameDep, session: SessionDep
) -> list[EventPublic]:
    """The audit: every upload, correction, undo and confirmation, who and when."""
    collection = collections.get_collection(session, game, number, seat)
    return public.events_public(collections.view_collection(game, collection))


@router.get(
    "/annotated.jpg",
    response_class=FileResponse,
    responses={200: {"content": {"image/jpeg": {}}}, 404: WRITE_ERRORS[404]},
)
def annotated_draft(
    number: RoundNumber, seat: Seat, game: GameDep, session: SessionDep, store: StoreDep
) -> FileResponse:
    """The current photo with the reviewed boxes, labels and tally drawn on it."""
    collection = collections.get_collection(session, game, number, seat)
    view = collections.view_collection(game, collection)
    photo = view.photo
    if photo is None:
        raise NotFound("this collection has no photo")
    records = [box.record() for box in view.state.boxes.values()]
    tally = view.assessment.tally.to_dict()
    told = review_told(view, list(view.state.boxes))
    session.commit()  # drawing is slow: hold no transaction meanwhile
    path = annotated_jpeg(store, photo, records, players=len(game.players), tally=tally, told=told)
    return FileResponse(path, media_type="image/jpeg")
