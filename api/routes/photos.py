"""Photos on record: any uploaded photo, its original bytes and its detections drawn."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path
from fastapi.responses import FileResponse

from api import collections, public
from api.annotated import annotated_jpeg
from api.deps import GameDep, SessionDep, StoreDep
from api.limits import JsonBodyRoute
from api.routes.games import WRITE_ERRORS
from api.schemas import PhotoPublic

router = APIRouter(prefix="/games/{game_id}/photos", tags=["review"], route_class=JsonBodyRoute)

PhotoId = Annotated[int, Path(ge=1, le=2**31 - 1)]


@router.get("/{photo_id}", responses={404: WRITE_ERRORS[404]})
def read_photo(photo_id: PhotoId, game: GameDep, session: SessionDep) -> PhotoPublic:
    """A photo's record: its hash, size and the detections as the detector found them."""
    return public.photo_public(game, collections.get_photo(session, game, photo_id))


@router.get(
    "/{photo_id}/image",
    response_class=FileResponse,
    responses={200: {"content": {"image/*": {}}}, 404: WRITE_ERRORS[404]},
)
def photo_image(
    photo_id: PhotoId, game: GameDep, session: SessionDep, store: StoreDep
) -> FileResponse:
    """The photo as uploaded."""
    photo = collections.get_photo(session, game, photo_id)
    return FileResponse(store.photo_path(photo.sha256), media_type=photo.media_type)


@router.get(
    "/{photo_id}/annotated.jpg",
    response_class=FileResponse,
    responses={200: {"content": {"image/jpeg": {}}}, 404: WRITE_ERRORS[404]},
)
def photo_annotated(
    photo_id: PhotoId, game: GameDep, session: SessionDep, store: StoreDep
) -> FileResponse:
    """The photo with the detector's original boxes drawn (before any correction)."""
    photo = collections.get_photo(session, game, photo_id)
    session.commit()
    path = annotated_jpeg(store, photo, photo.detections, players=len(game.players))
    return FileResponse(path, media_type="image/jpeg")
