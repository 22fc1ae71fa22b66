"""The service's own errors. Each names what is wrong; api/main.py maps them (and the
errors of scoring and vision) to HTTP status codes, in one place."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """Base: `message` for people, `extra` merged into the JSON error body."""

    status_code = 400

    def __init__(self, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        self.extra = extra


class NotFound(ApiError):
    """An unknown game, round, player, photo or detection."""

    status_code = 404


class MissingToken(ApiError):
    """A write without the game's edit token."""

    status_code = 401


class WrongToken(ApiError):
    """A write with a token that is not this game's."""

    status_code = 403


class Conflict(ApiError):
    """The game is not in a state that allows this: a round out of order, a record before
    every player confirmed, a change to a recorded round."""

    status_code = 409


class StaleVersion(Conflict):
    """The write named a version that has moved on; `current` is the state now."""


class Unprocessable(ApiError):
    """Input that is well-formed but cannot be used: an impossible count, a box outside
    the photo, a round whose tallies break the hand size or the deck."""

    status_code = 422


class PayloadTooLarge(ApiError):
    status_code = 413


class DetectorUnavailable(ApiError):
    """The detector cannot be loaded (no weights, no runtime)."""

    status_code = 503
