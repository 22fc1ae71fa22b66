"""Request body limits, enforced while the body arrives (not after it is on disk).

Two limits: `BodySizeLimit` is the whole app's, the largest body any route reads (a
photo); `JsonBodyRoute` gives each route with a JSON body the settings' much smaller
`max_json_bytes`, checked before FastAPI reads or parses a byte, and parses what it read
with api.strict_json. A 14 MB body of unknown keys once held the event loop for half a
minute in parsing and validation.
"""

from __future__ import annotations

import email.message
import json
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response, params
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.errors import NotJson, PayloadTooLarge
from api.strict_json import parse_json


class BodyTooLarge(HTTPException):
    """Raised from `receive` when a request body passes the limit. An HTTPException, so
    that the body parsers let it through and it becomes a 413 response."""

    def __init__(self, max_bytes: int) -> None:
        super().__init__(413, f"the request is over {max_bytes:,} bytes, the limit")
        self.limit_bytes = max_bytes


class BodySizeLimit:
    """Refuse request bodies over `max_bytes` with 413: at once when Content-Length says
    so, else as soon as the streamed body passes the limit."""

    def __init__(self, app: ASGIApp, *, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.max_bytes:
            await self._refuse(send)
            return
        seen = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise BodyTooLarge(self.max_bytes)
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except BodyTooLarge:
            if not started:
                await self._refuse(send)

    async def _refuse(self, send: Send) -> None:
        body = json.dumps(
            {
                "detail": f"the request is over {self.max_bytes:,} bytes, the limit",
                "reason": "too_large",
                "limit_bytes": self.max_bytes,
            }
        ).encode()
        headers: list[Any] = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
        ]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


async def read_body(request: Request, *, max_bytes: int) -> bytes:
    """The request's body, at most `max_bytes`: 413 at once when Content-Length says more,
    else as soon as the streamed (chunked) body passes the limit, the rest unread."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > max_bytes:
        raise _too_large(max_bytes)
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > max_bytes:
                raise _too_large(max_bytes)
            chunks.append(chunk)
    except ClientDisconnect:
        raise HTTPException(400, "the client closed the connection mid-body") from None
    return b"".join(chunks)


def _too_large(max_bytes: int) -> PayloadTooLarge:
    return PayloadTooLarge(
        f"the request body is over {max_bytes:,} bytes, the limit for this route",
        limit_bytes=max_bytes,
    )


def is_json(request: Request) -> bool:
    """Whether FastAPI reads this body as JSON (its own test of the Content-Type)."""
    value = request.headers.get("content-type")
    if not value:
        return False
    message = email.message.Message()
    message["content-type"] = value
    subtype = message.get_content_subtype()
    return message.get_content_maintype() == "application" and (
        subtype == "json" or subtype.endswith("+json")
    )


class _ReadRequest(Request):
    """The request with its body already read and parsed, for FastAPI's handler."""

    def __init__(self, request: Request, body: bytes, parsed: Any) -> None:
        super().__init__(request.scope, request.receive)
        self._read, self._parsed = body, parsed

    async def body(self) -> bytes:
        return self._read

    async def json(self) -> Any:
        return self._parsed


class JsonBodyRoute(APIRoute):
    """An APIRoute that reads a JSON body itself, before FastAPI's handler: at most the
    settings' `max_json_bytes` (`read_body`), parsed by `parse_json`. Routes without a
    JSON body (reads, and photo uploads, which read their own form) are left as they are."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()
        field = self.body_field
        if field is None or isinstance(field.field_info, params.Form):  # File is a Form
            return handler

        async def read_json_first(request: Request) -> Response:
            max_bytes: int = request.app.state.settings.max_json_bytes
            body = await read_body(request, max_bytes=max_bytes)
            if body and not is_json(request):
                # FastAPI would read it as no object at all, and say only that.
                given = request.headers.get("content-type")
                came = f"it came as {given}" if given else "it came without a Content-Type"
                raise NotJson(f"send the body as JSON (Content-Type: application/json): {came}")
            parsed = parse_json(body) if body else None
            return await handler(_ReadRequest(request, body, parsed))

        return read_json_first
