"""The FastAPI app, built by `create_app(settings)`: routes under /api/v1, the error
mapping (the one place where domain errors become HTTP status codes), and the web page.

Nothing here loads a model: the detector is loaded by the first request that needs it.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from http import HTTPStatus
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.utils import is_body_allowed_for_status_code
from sqlalchemy.exc import OperationalError
from starlette.exceptions import HTTPException
from starlette.routing import Match, Mount
from starlette.types import Scope

from api.database import make_engine, make_sessionmaker, upgrade_schema
from api.detection import DetectorProvider
from api.errors import ApiError, invalid_request_body, safe_text
from api.limits import BodySizeLimit
from api.routes import collections, detect, games, model, photos, rounds, score
from api.schemas import error_response
from api.settings import Settings, get_settings
from api.storage import PhotoStore, remove_incoming
from api.strict_json import InvalidJson
from scoring import InvalidTallyError, ScoringError
from vision.photo import PhotoError

API_PREFIX = "/api/v1"
WEB_DIR = Path(__file__).parent / "web"
# Multipart framing and the small form fields around a photo.
FORM_OVERHEAD_BYTES = 64 * 1024

# Documented on every route, each in the one error shape (ErrorPublic); a route's own
# entry for a status adds its cases.
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    413: error_response("the request body is over the route's limit"),
    422: error_response("the request is not valid: `errors` lists its first problems"),
    503: error_response("the database is busy: try again (`Retry-After`)"),
    "4XX": error_response(
        "any other client error: an unknown path (404), a method the path does not take "
        "(405), a malformed body (400)"
    ),
}
MAX_DETAIL = 1_000  # characters of an error's `detail`

PHOTO_STATUS: dict[str, int] = {
    "too_large": 413,
    "too_many_pixels": 413,
    "not_an_image": 415,
    "unsupported": 415,
    "truncated": 422,
}


def create_app(settings: Settings | None = None) -> FastAPI:
    """The service over `settings` (default: SUSHIGO_* environment variables).

    Creates the data folder if it does not exist yet and brings the database schema up to
    the newest migration (api/migrations; a database from before migrations is kept).
    """
    settings = settings or get_settings()
    settings.make_data_dir()
    remove_incoming(settings.data_dir)
    engine = make_engine(settings.resolved_database_url)
    upgrade_schema(engine)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        engine.dispose()

    app = FastAPI(
        title="sushigo",
        summary="Score Sushi Go! from photos of each player's cards.",
        version="0.1.0",
        lifespan=lifespan,
        responses=ERROR_RESPONSES,
    )
    app.state.settings = settings
    app.state.engine = engine
    app.state.sessionmaker = make_sessionmaker(engine)
    app.state.store = PhotoStore(settings.data_dir)
    app.state.detectors = DetectorProvider(
        settings.weights, concurrency=settings.detect_concurrency
    )
    app.add_middleware(BodySizeLimit, max_bytes=settings.max_upload_bytes + FORM_OVERHEAD_BYTES)
    _add_error_handlers(app)
    for router in (
        score.router,
        detect.router,
        model.router,
        games.router,
        rounds.router,
        collections.router,
        photos.router,
    ):
        app.include_router(router, prefix=API_PREFIX)
    _add_web(app)
    return app


def _error(status: int, detail: str, *, reason: str, **extra: Any) -> JSONResponse:
    """The one error body (api.schemas.ErrorPublic): `detail` in words, `reason` a code."""
    headers: dict[str, str] = {}
    if status == 503:
        headers["Retry-After"] = "1"
    if status == 413:  # the rest of the body is left unread: the connection cannot go on
        headers["Connection"] = "close"
    body = {"detail": safe_text(detail, MAX_DETAIL), "reason": reason, **extra}
    return JSONResponse(body, status_code=status, headers=headers)


def http_reason(status: int) -> str:
    """The `reason` of Starlette's own errors: the status's phrase in snake_case
    ("not_found", "method_not_allowed"); a 413 is `too_large`, as the service's own are."""
    if status == 413:
        return "too_large"
    try:
        phrase = HTTPStatus(status).phrase
    except ValueError:
        return "http_error"
    return re.sub(r"[^a-z0-9]+", "_", phrase.lower()).strip("_")


def _add_error_handlers(app: FastAPI) -> None:
    async def api_error(_: Request, error: Exception) -> Response:
        assert isinstance(error, ApiError)
        headers = {"WWW-Authenticate": "Bearer"} if error.status_code == 401 else None
        response = _error(error.status_code, error.message, **error.extra)
        if headers:
            response.headers.update(headers)
        return response

    async def scoring_error(_: Request, error: Exception) -> Response:
        assert isinstance(error, ScoringError)
        extra: dict[str, Any] = {"code": error.code}
        if isinstance(error, InvalidTallyError):
            extra["key"] = error.key
        return _error(422, str(error), reason=error.code, **extra)

    async def photo_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, PhotoError)
        status = PHOTO_STATUS.get(error.reason, 422)
        extra: dict[str, Any] = {}
        if status == 413:  # the photo's limits, as the upload routes decode with them
            limits: Settings = request.app.state.settings
            extra["limit_bytes"] = limits.max_upload_bytes
            if error.reason == "too_many_pixels":
                extra["limit_pixels"] = limits.max_pixels
        return _error(status, str(error), reason=error.reason, **extra)

    async def invalid_request(_: Request, error: Exception) -> Response:
        assert isinstance(error, RequestValidationError)
        count = error.count if isinstance(error, InvalidJson) else None
        body = invalid_request_body(error.errors(), count=count)
        return _error(422, body.pop("detail"), **body)

    async def http_error(request: Request, error: Exception) -> Response:
        """Starlette's and FastAPI's own (404 of an unknown path, 405, a bad multipart
        body), in the same shape."""
        assert isinstance(error, HTTPException)
        if not is_body_allowed_for_status_code(error.status_code):
            return Response(status_code=error.status_code, headers=error.headers)
        extra: dict[str, Any] = {}
        if error.status_code == 413:  # a body over the app's limit (BodyTooLarge)
            limits: Settings = request.app.state.settings
            whole = limits.max_upload_bytes + FORM_OVERHEAD_BYTES
            extra = {"limit_bytes": getattr(error, "limit_bytes", whole)}
        reason = http_reason(error.status_code)
        response = _error(error.status_code, str(error.detail), reason=reason, **extra)
        response.headers.update(error.headers or {})
        return response

    async def database_busy(_: Request, error: Exception) -> Response:
        return _error(503, "the database is busy; try again in a moment", reason="busy")

    async def server_fault(_: Request, error: Exception) -> Response:
        """A fault of the service's own, in the one shape too (a phone page reads
        `detail`); Starlette still logs it with its traceback after this answer."""
        return _error(
            500, "the service failed on this request (its fault, not the request's); what "
            "was already stored is kept: try again, and report it if it happens again",
            reason="internal",
        )  # fmt: skip

    app.add_exception_handler(RequestValidationError, invalid_request)
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(ApiError, api_error)
    app.add_exception_handler(ScoringError, scoring_error)
    app.add_exception_handler(PhotoError, photo_error)
    app.add_exception_handler(OperationalError, database_busy)
    app.add_exception_handler(Exception, server_fault)


class _PageMount(Mount):
    """The page's files at /, leaving /api/ to the API: a method an API path does not
    take is then its 405 (GET /api/v1/games had been the page's 404), an unknown API
    path its JSON 404."""

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if scope["type"] == "http" and scope["path"].startswith("/api/"):
            return Match.NONE, {}
        return super().matches(scope)


def _add_web(app: FastAPI) -> None:
    """The phone page from api/web/ at /, when it is there; else / leads to the docs."""
    if (WEB_DIR / "index.html").is_file():
        app.router.routes.append(_PageMount("/", StaticFiles(directory=WEB_DIR, html=True)))
        return

    @app.get("/", include_in_schema=False)
    def root() -> RedirectResponse:
        return RedirectResponse("/docs")
