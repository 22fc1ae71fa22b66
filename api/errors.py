"""The service's own errors. Each names what is wrong; api/main.py maps them (and the
errors of scoring and vision) to HTTP status codes, in one place. Every 4xx and 503 body
has one shape (api.schemas.ErrorPublic): `{"detail": str, "reason": str, ...}`, `detail`
in words and `reason` a stable snake_case code, with fields that depend on the error
(`code`, `problems`, or for an invalid request `errors` and `error_count`; every 413 its
limit, `limit_bytes`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


class ApiError(Exception):
    """Base: `message` for people, `extra` merged into the JSON error body. `extra` always
    holds `reason`: the class's own unless the raise site names a narrower one."""

    status_code = 400
    reason = "bad_request"

    def __init__(self, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        self.extra = {"reason": type(self).reason, **extra}


class NotFound(ApiError):
    """An unknown game, round, player, photo or detection."""

    status_code = 404
    reason = "not_found"


class MissingToken(ApiError):
    """A write without the game's edit token."""

    status_code = 401
    reason = "missing_token"


class WrongToken(ApiError):
    """A write with a token that is not this game's."""

    status_code = 403
    reason = "wrong_token"


class Conflict(ApiError):
    """The game is not in a state that allows this: a round out of order, a record before
    every player confirmed, a change to a recorded round."""

    status_code = 409
    reason = "conflict"


class StaleVersion(Conflict):
    """The write named a version that has moved on; `current_version` is the version now."""

    reason = "stale_version"


class Unprocessable(ApiError):
    """Input that is well-formed but cannot be used: an impossible count, a box outside
    the photo, a round whose tallies break the hand size or the deck."""

    status_code = 422
    reason = "unprocessable"


class NotJson(ApiError):
    """A body sent to a JSON route as something else (text/plain, a form)."""

    status_code = 415
    reason = "not_json"


class PayloadTooLarge(ApiError):
    """A body, a photo or a form field over its limit: every 413 body carries the limit
    as a number, `limit_bytes`, beside its sentence (a client need not read the words)."""

    status_code = 413
    reason = "too_large"

    def __init__(self, message: str, *, limit_bytes: int, **extra: Any) -> None:
        super().__init__(message, limit_bytes=int(limit_bytes), **extra)


class DetectorUnavailable(ApiError):
    """The detector cannot be loaded (no weights, no runtime)."""

    status_code = 503
    reason = "unavailable"


# --- the body of an invalid request (422) ----------------------------------------------

MAX_REPORTED = 5  # problems listed in a 422; `error_count` says how many there are
MAX_MESSAGE = 200  # characters of one problem's message
MAX_LOC_PART = 40  # characters of one step of its location (a key may be anything)


def invalid_request_body(
    errors: Sequence[Mapping[str, Any]], *, count: int | None = None
) -> dict[str, Any]:
    """The 422 body of a request that does not validate: the house's `{"detail": str}`
    naming the first problems, `errors` listing them (where and what, never the input),
    and `error_count` (`count`, where `errors` are only the first of them). Bounded
    whatever the request held: a body of a million unknown keys once came back as a
    100 MB list echoing each of them."""
    total = len(errors) if count is None else count
    shown = [_problem(error) for error in errors[:MAX_REPORTED]]
    sentences = [_sentence(problem) for problem in shown]
    more = total - len(shown)
    detail = "; ".join(sentences) or "the request is not valid"
    if more:
        detail += f" (and {more:,} more)"
    return {"detail": detail, "reason": "invalid", "errors": shown, "error_count": total}


def _problem(error: Mapping[str, Any]) -> dict[str, Any]:
    kind = str(error.get("type", "invalid"))
    message = str(error.get("msg", ""))
    ctx = error.get("ctx") or {}
    if kind == "union_tag_invalid":  # pydantic's message repeats the tag that was sent
        message = f"{ctx.get('discriminator', 'the tag')} must be one of {ctx.get('expected_tags')}"
    elif kind == "union_tag_not_found":  # pydantic: "Unable to extract tag using ..."
        message = f"{ctx.get('discriminator', 'the tag')} is missing"
    elif kind == "json_invalid" and "error" in ctx:
        message = f"{message}: {ctx['error']}"
    message = message.removeprefix("Value error, ")
    loc = [
        part if isinstance(part, int) else safe_text(str(part), MAX_LOC_PART)
        for part in error.get("loc", ())
    ]
    return {"loc": loc, "msg": safe_text(message, MAX_MESSAGE), "type": safe_text(kind, 60)}


def _sentence(problem: Mapping[str, Any]) -> str:
    where = ".".join(str(part) for part in problem["loc"] if part != "body")
    return f"{where}: {problem['msg']}" if where else str(problem["msg"])


def safe_text(text: str, limit: int) -> str:
    """At most `limit` characters, and encodable as UTF-8 (a lone surrogate is written
    as its escape), so that no error body fails to be sent."""
    short = text if len(text) <= limit else text[: limit - 1] + "…"
    return short.encode("utf-8", "backslashreplace").decode("utf-8")
