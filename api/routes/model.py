"""Which detector the service uses."""

from __future__ import annotations

from fastapi import APIRouter

from api.deps import DetectorProviderDep
from api.limits import JsonBodyRoute
from api.schemas import ModelPublic

router = APIRouter(tags=["detect"], route_class=JsonBodyRoute)


@router.get("/model")
def model(provider: DetectorProviderDep) -> ModelPublic:
    """The detector's weights file, its sha256 and its classes; `available` false (with
    the reason in `error`) when it cannot be loaded."""
    return ModelPublic(**provider.info().to_dict())
