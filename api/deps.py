"""Dependency aliases shared by the routes: the settings, a database session, the
photo store, the detector, and the game a request names (checked for its edit token
where the request changes it).

Dependencies that do no blocking work are `async`: FastAPI runs a plain `def` one in a
worker thread, and on a busy two-core machine each such hand-off cost about a
millisecond of every request.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import Future
from typing import Annotated, TypeVar

from fastapi import Depends, Header, Path, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from api import games, tokens
from api.detection import Detector, DetectorProvider, detect_in_background
from api.models import Game
from api.schemas import DetectForm, PhotoUploadForm
from api.settings import Settings
from api.storage import PhotoStore
from api.uploads import ReceivedPhoto, decode_photo, receive_photo
from vision.detections import Detections
from vision.notices import Notice
from vision.photo import Photo

GAME_ID_PATTERN = r"^[A-Za-z0-9_-]{1,32}$"


async def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


async def get_session(request: Request) -> AsyncIterator[Session]:
    """A session for the request. Making one touches no database (it connects on first
    use); closing one that is still in a transaction rolls it back, which may wait on
    the database, so that is done off the event loop."""
    session: Session = request.app.state.sessionmaker()
    try:
        yield session
    finally:
        if session.in_transaction():
            await run_in_threadpool(session.close)
        else:
            session.close()


async def get_store(request: Request) -> PhotoStore:
    store: PhotoStore = request.app.state.store
    return store


async def get_detector_provider(request: Request) -> DetectorProvider:
    provider: DetectorProvider = request.app.state.detectors
    return provider


async def get_detector(
    provider: Annotated[DetectorProvider, Depends(get_detector_provider)],
) -> Detector:
    """The loaded detector (503 if it cannot load). Tests override this dependency."""
    if provider.loaded:
        return provider.get()
    return await run_in_threadpool(provider.get)  # loading takes seconds: not on the loop


Fields = TypeVar("Fields", bound=BaseModel)


def photo_form(fields: type[Fields]) -> Callable[[Request], Awaitable[ReceivedPhoto[Fields]]]:
    """A dependency reading a multipart photo upload with `fields` beside it. Async, so
    that the body streams through the event loop with no thread hop per chunk; a route
    lists it before any dependency that opens a database transaction, so that no lock is
    held while a slow phone sends its photo."""

    async def read_form(request: Request) -> ReceivedPhoto[Fields]:
        settings: Settings = request.app.state.settings
        return await receive_photo(request, fields=fields, max_bytes=settings.max_upload_bytes)

    return read_form


SettingsDep = Annotated[Settings, Depends(get_settings)]
SessionDep = Annotated[Session, Depends(get_session)]
StoreDep = Annotated[PhotoStore, Depends(get_store)]
DetectorDep = Annotated[Detector, Depends(get_detector)]
DetectorProviderDep = Annotated[DetectorProvider, Depends(get_detector_provider)]
UploadDep = Annotated[ReceivedPhoto[PhotoUploadForm], Depends(photo_form(PhotoUploadForm))]
DetectUploadDep = Annotated[ReceivedPhoto[DetectForm], Depends(photo_form(DetectForm))]


Reading = Future[tuple[Photo, Detections, list[Notice]]]


async def start_reading(
    upload: UploadDep, settings: SettingsDep, detector: DetectorDep
) -> Reading | None:
    """Start decoding and detecting a well-formed upload as soon as its body is in, from
    the event loop (no thread hop before it starts); the route checks the game meanwhile.
    None for a malformed form, which the route reports after the game's own errors."""
    form = upload.form
    if form is None:
        return None
    data, max_bytes, max_pixels = form.data, settings.max_upload_bytes, settings.max_pixels
    return detect_in_background(
        lambda: decode_photo(data, max_bytes=max_bytes, max_pixels=max_pixels), detector
    )


ReadingDep = Annotated[Reading | None, Depends(start_reading)]

GameId = Annotated[
    str, Path(pattern=GAME_ID_PATTERN, description="the id returned when the game was created")
]
RoundNumber = Annotated[int, Path(description="the round, from 1")]
Seat = Annotated[int, Path(description="the player's seat, from 1 (the order of creation)")]

_bearer = HTTPBearer(auto_error=False, description="the game's edit token")


async def get_edit_token(
    bearer: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    x_edit_token: Annotated[
        str | None, Header(description="the game's edit token (or use Authorization: Bearer)")
    ] = None,
) -> str | None:
    if bearer is not None and bearer.credentials:
        return bearer.credentials
    return x_edit_token


EditTokenDep = Annotated[str | None, Depends(get_edit_token)]


def get_game(game_id: GameId, session: SessionDep) -> Game:
    return games.get_game(session, game_id)


async def get_writable_game(
    game: Annotated[Game, Depends(get_game)],
    token: Annotated[str | None, Depends(get_edit_token)],
) -> Game:
    tokens.authorize(game, token)
    return game


GameDep = Annotated[Game, Depends(get_game)]
WritableGameDep = Annotated[Game, Depends(get_writable_game)]


def authorize_upload(game_id: GameId, token: EditTokenDep, session: SessionDep) -> None:
    """The game and its edit token, checked before an upload's body is read: a photo
    sent without the game's token is never read, let alone decoded. The check's read
    transaction ends before the body arrives (a slow phone holds no database lock)."""
    tokens.authorize_by_id(session, game_id, token)


AuthorizedUploadDep = Annotated[None, Depends(authorize_upload)]
