"""Receiving a photo upload: the multipart body is parsed as it arrives, the photo's
bytes are kept in memory (bounded by the size limit), and the small form fields beside it
are validated like any FastAPI form. The photo is hashed later, off the event loop
(api/collections.py), beside its decode.

Why not FastAPI's `File()` / `Form()`: Starlette spools every file part over 1 MB to a
temporary file on disk, one worker-thread hop per 64 KB chunk, only for the route to read
it all back. For a 3 MB phone photo that was a tenth of the request.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar
from urllib.parse import parse_qsl

from fastapi import HTTPException, Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ValidationError
from python_multipart.exceptions import FormParserError
from python_multipart.multipart import MultipartParser, parse_options_header
from starlette.requests import ClientDisconnect

from api.errors import PayloadTooLarge, Unprocessable
from api.limits import read_body
from api.schemas import error_response
from vision.photo import Photo, PhotoError, load_photo

if TYPE_CHECKING:
    from python_multipart.multipart import MultipartCallbacks

log = logging.getLogger(__name__)

PHOTO_ERRORS: dict[int | str, dict[str, Any]] = {
    413: error_response("the file or the image is over the size limit"),
    415: error_response("the file is not an image in a supported format"),
    422: error_response("the image is truncated or corrupt, or a field is invalid"),
    503: error_response("the card detector is not available"),
}

# Form fields beside the photo are a few digits or a name: anything longer is refused.
MAX_FIELD_BYTES = 64 * 1024
# What a text part in the photo's field is told.
_AS_TEXT = "expected a file (a part with a filename), received text"
MAX_PARTS = 32


Fields = TypeVar("Fields", bound=BaseModel)


@dataclass(frozen=True)
class PhotoForm(Generic[Fields]):
    """A valid upload: the photo's bytes, the form fields beside it."""

    data: bytes
    fields: Fields


@dataclass(frozen=True)
class ReceivedPhoto(Generic[Fields]):
    """An upload as received: valid, or the 422 entries saying why not. The route
    asks for `valid()` where FastAPI would have reported them, after the game and its
    token are checked (a 404 or 401 still comes before a 422)."""

    form: PhotoForm[Fields] | None
    errors: list[dict[str, Any]]

    def valid(self) -> PhotoForm[Fields]:
        if self.form is None:
            raise RequestValidationError(self.errors)
        return self.form


@dataclass
class _Part:
    name: str = ""
    filename: str | None = None
    chunks: list[bytes] = field(default_factory=list)
    size: int = 0


class _FormReader:
    """python-multipart callbacks collecting one file field (hashed as it arrives) and
    small text fields; other parts are read past and dropped."""

    def __init__(self, file_field: str, max_bytes: int) -> None:
        self.file_field = file_field
        self.max_bytes = max_bytes
        self.photo: _Part | None = None
        self.fields: dict[str, str] = {}
        self.parts = 0
        self.names: set[str] = set()
        self.in_part = False  # a part begun and not ended: a body cut short ends so
        self._part = _Part()
        self._header_name = b""
        self._header_value = b""
        self._disposition = b""

    def callbacks(self) -> MultipartCallbacks:
        return {
            "on_part_begin": self.on_part_begin,
            "on_header_field": self.on_header_field,
            "on_header_value": self.on_header_value,
            "on_header_end": self.on_header_end,
            "on_headers_finished": self.on_headers_finished,
            "on_part_data": self.on_part_data,
            "on_part_end": self.on_part_end,
        }

    def on_part_begin(self) -> None:
        self.parts += 1
        if self.parts > MAX_PARTS:
            raise Unprocessable(f"the form has more than {MAX_PARTS} parts")
        self._part = _Part()
        self._disposition = b""
        self.in_part = True

    def on_header_field(self, data: bytes, start: int, end: int) -> None:
        self._header_name += data[start:end]

    def on_header_value(self, data: bytes, start: int, end: int) -> None:
        self._header_value += data[start:end]

    def on_header_end(self) -> None:
        if self._header_name.lower() == b"content-disposition":
            self._disposition = self._header_value
        self._header_name = self._header_value = b""

    def on_headers_finished(self) -> None:
        _, options = parse_options_header(self._disposition)
        if b"name" not in options:
            raise FormParserError('a form part has no "name" in its Content-Disposition')
        self._part.name = _text(options[b"name"])
        if b"filename" in options:
            self._part.filename = _text(options[b"filename"])
        # Two photos, or two versions: which was meant is no guess to make.
        if self._part.name in self.names:
            raise Unprocessable(
                f"form field {self._part.name!r} is sent twice: send it once",
                field=self._part.name,
            )
        self.names.add(self._part.name)

    def on_part_data(self, data: bytes, start: int, end: int) -> None:
        part = self._part
        part.size += end - start
        if self._is_photo(part):
            if part.size > self.max_bytes:
                raise PayloadTooLarge(
                    f"the file is over {self.max_bytes:,} bytes, the limit for a photo",
                    limit_bytes=self.max_bytes,
                )
            part.chunks.append(data[start:end])
        elif part.filename is None:
            if part.size > MAX_FIELD_BYTES:
                if part.name == self.file_field:
                    # A photo sent as text (curl -F "image=<photo.jpg"): said as such, not
                    # as a field over the limit for text.
                    raise Unprocessable(f"form field {part.name!r}: {_AS_TEXT}", field=part.name)
                raise PayloadTooLarge(
                    f"form field {part.name!r} is over {MAX_FIELD_BYTES:,} bytes, the limit",
                    limit_bytes=MAX_FIELD_BYTES,
                )
            part.chunks.append(data[start:end])
        # Other files are not kept: nothing here needs them.

    def on_part_end(self) -> None:
        part = self._part
        self.in_part = False
        if self._is_photo(part):
            self.photo = part
        elif part.filename is None:
            self.fields[part.name] = _text(b"".join(part.chunks))

    def _is_photo(self, part: _Part) -> bool:
        return part.name == self.file_field and part.filename is not None


async def receive_photo(
    request: Request, *, fields: type[Fields], max_bytes: int, file_field: str = "image"
) -> ReceivedPhoto[Fields]:
    """Read a multipart/form-data body with one photo in `file_field` (at most
    `max_bytes`: 413 as soon as it passes) and the text fields `fields` validates.

    A missing photo or an invalid field gives the same 422 `errors` as a `File()` /
    `Form()` parameter would (from `valid()`); a body that is not multipart is 400, a
    urlencoded one over MAX_FIELD_BYTES 413.
    """
    content_type, options = parse_options_header(request.headers.get("content-type", ""))
    reader = _FormReader(file_field, max_bytes)
    if content_type == b"multipart/form-data":
        if not options.get(b"boundary"):
            raise HTTPException(400, "Missing boundary in multipart.")
        try:
            parser = MultipartParser(options[b"boundary"], reader.callbacks())
            async for chunk in request.stream():
                parser.write(chunk)
            parser.finalize()
            if reader.in_part:
                raise HTTPException(400, "the form ends in the middle of a part: was it cut short?")
        except FormParserError as error:
            raise HTTPException(400, "There was an error parsing the body") from error
        except ClientDisconnect:  # a phone that lost its signal mid-photo: no 500 logged
            raise HTTPException(400, "the client closed the connection mid-body") from None
    elif content_type == b"application/x-www-form-urlencoded":
        # No photo can come this way, but the fields still get checked, as FastAPI does.
        text = _text(await read_body(request, max_bytes=MAX_FIELD_BYTES))
        reader.fields = dict(parse_qsl(text, keep_blank_values=True))
    errors: list[dict[str, Any]] = []
    if reader.photo is None:
        errors.append(_photo_error(file_field, reader.fields.get(file_field)))
    # As FastAPI's Form(): an empty value is a missing one.
    given = {name: value for name, value in reader.fields.items() if value != ""}
    try:
        values = fields.model_validate(given)
    except ValidationError as error:
        errors += [_body_error(e) for e in error.errors(include_url=False)]
    photo = reader.photo
    if errors or photo is None:
        return ReceivedPhoto(form=None, errors=errors)
    data = photo.chunks[0] if len(photo.chunks) == 1 else b"".join(photo.chunks)
    form = PhotoForm(data=data, fields=values)
    return ReceivedPhoto(form=form, errors=[])


def multipart_openapi(
    fields: type[BaseModel], *, title: str, file_field: str = "image", file_description: str
) -> dict[str, Any]:
    """The `requestBody` FastAPI would document for `File()` + `Form()` parameters, for a
    route that reads its body with `receive_photo`."""
    schema = fields.model_json_schema()
    schema["properties"] = {
        file_field: {
            "type": "string",
            "contentMediaType": "application/octet-stream",
            "title": file_field.title(),
            "description": file_description,
        },
        **schema.get("properties", {}),
    }
    schema["required"] = [file_field, *schema.get("required", [])]
    schema["title"] = title
    schema.pop("description", None)
    return {
        "requestBody": {
            "required": True,
            "content": {"multipart/form-data": {"schema": schema}},
        }
    }


def _photo_error(file_field: str, text: str | None) -> dict[str, Any]:
    """The 422 entry for a File() parameter that is missing or sent as text."""
    if text is None:
        return {"type": "missing", "loc": ("body", file_field), "msg": "Field required"}
    return {"type": "value_error", "loc": ("body", file_field), "msg": _AS_TEXT}


def _body_error(error: Any) -> dict[str, Any]:
    return {**error, "loc": ("body", *error["loc"])}


def _text(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def decode_photo(data: bytes, *, max_bytes: int, max_pixels: int) -> Photo:
    """vision.photo's decode, with a last line of defence: whatever else a decoder raises
    on a hostile file (a library patched by another, a codec bug) is a 415, not a 500."""
    try:
        return load_photo(data, max_bytes=max_bytes, max_pixels=max_pixels)
    except PhotoError:
        raise
    except Exception as error:
        log.exception("decoding an uploaded photo failed unexpectedly")
        raise PhotoError(
            "unsupported", f"the image could not be decoded ({type(error).__name__})"
        ) from error
