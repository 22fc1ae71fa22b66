"""Dependency aliases shared by the routes: the settings, a database session, the
photo store, the detector, and the game a request names (checked for its edit token
where the request changes it)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends, Header, Path, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.orm import Session

from api import games
from api.detection import Detector, DetectorProvider
from api.models import Game
from api.settings import Settings
from api.storage import PhotoStore

GAME_ID_PATTERN = r"^[A-Za-z0-9_-]{1,32}$"


def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def get_session(request: Request) -> Iterator[Session]:
    with request.app.state.sessionmaker() as session:
        yield session


def get_store(request: Request) -> PhotoStore:
    store: PhotoStore = request.app.state.store
    return store


def get_detector_provider(request: Request) -> DetectorProvider:
    provider: DetectorProvider = request.app.state.detectors
    return provider


def get_detector(provider: Annotated[DetectorProvider, Depends(get_detector_provider)]) -> Detector:
    """The loaded detector (503 if it cannot load). Tests override this dependency."""
    return provider.get()


SettingsDep = Annotated[Settings, Depends(get_settings)]
SessionDep = Annotated[Session, Depends(get_session)]
StoreDep = Annotated[PhotoStore, Depends(get_store)]
DetectorDep = Annotated[Detector, Depends(get_detector)]
DetectorProviderDep = Annotated[DetectorProvider, Depends(get_detector_provider)]

GameId = Annotated[
    str, Path(pattern=GAME_ID_PATTERN, description="the id returned when the game was created")
]
RoundNumber = Annotated[int, Path(description="the round, from 1")]
Seat = Annotated[int, Path(description="the player's seat, from 1 (the order of creation)")]

_bearer = HTTPBearer(auto_error=False, description="the game's edit token")


def get_edit_token(
    bearer: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    x_edit_token: Annotated[
        str | None, Header(description="the game's edit token (or use Authorization: Bearer)")
    ] = None,
) -> str | None:
    if bearer is not None and bearer.credentials:
        return bearer.credentials
    return x_edit_token


def get_game(game_id: GameId, session: SessionDep) -> Game:
    return games.get_game(session, game_id)


def get_writable_game(
    game: Annotated[Game, Depends(get_game)],
    token: Annotated[str | None, Depends(get_edit_token)],
) -> Game:
    games.authorize(game, token)
    return game


GameDep = Annotated[Game, Depends(get_game)]
WritableGameDep = Annotated[Game, Depends(get_writable_game)]
