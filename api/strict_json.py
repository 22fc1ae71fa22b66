"""JSON request bodies read as RFC 8259 has JSON: Python's parser also takes NaN,
Infinity and 1e999 (which no response can carry back) and lone surrogates such as
"\\ud800" (which no UTF-8 response can encode). Each is refused here as a 422 saying where
it is, never met later as a 500; so is an object of more keys than any request needs.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from typing import Any

from fastapi.exceptions import RequestValidationError

from api.errors import MAX_REPORTED

# No object in a request body here needs more keys (a tally has 15): a body of thousands
# of unknown keys is refused here, before validation reports each one (tens of ms).
MAX_OBJECT_KEYS = 64
# Where a lone surrogate can come from: an escape of one, or one encoded as raw UTF-8
# bytes (which json.loads lets through); a UTF-16 or UTF-32 body is looked at anyway.
_MAYBE_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]|\xed[\xa0-\xbf]")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
# A number that may overflow a float (1e999): an exponent of three digits, or 309 digits.
_MAYBE_HUGE = re.compile(rb"[eE]\+?0*[1-9][0-9]{2}|[0-9]{309}")
# A body this small is looked through for where each such value is; a bigger one (a
# 64 kB one holds some 16,000 values, a walk of tens of ms on a busy core) only counted.
LOOKED_THROUGH_BYTES = 8 * 1024


class _ObjectTooLarge(ValueError):
    def __init__(self, keys: int) -> None:
        super().__init__(keys)
        self.keys = keys


class _KeyTwice(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    if len(pairs) > MAX_OBJECT_KEYS:
        raise _ObjectTooLarge(len(pairs))
    value = dict(pairs)
    if len(value) < len(pairs):
        # {"tempura": 1, "tempura": 2}: Python keeps the last, silently; which was meant
        # is no guess to make.
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _KeyTwice(key)
            seen.add(key)
    return value


def parse_json(body: bytes) -> Any:
    """The body's JSON value, or a 422 (RequestValidationError) saying what is wrong.

    Bodies without NaN, Infinity or lone surrogates are parsed once, with C-speed hooks
    only: NaN and Infinity are collected by `list.append` (a Python hook per value cost a
    64 kB body of them 10 ms), and floats are looked at only where the body has one big
    enough to overflow."""
    odd: list[Any] = []  # the NaN and Infinity met, and numbers too big for a float

    def number(text: str) -> float:
        value = float(text)
        if math.isinf(value):
            odd.append(text)
        return value

    huge = _MAYBE_HUGE.search(body) is not None
    value = _loads(body, parse_constant=odd.append, parse_float=number if huge else None)
    maybe_surrogate = bool(_MAYBE_SURROGATE.search(body)) or b"\x00" in body[:4]
    if not (odd or maybe_surrogate):
        return value
    if len(body) <= LOOKED_THROUGH_BYTES:  # parsed again as it was sent, to say where
        invalid = _not_json(_loads(body))
    else:
        invalid = _counted(value, len(odd), maybe_surrogate)
    if invalid is not None:
        raise invalid
    return value


def _loads(body: bytes, **hooks: Any) -> Any:
    try:
        return json.loads(body, object_pairs_hook=_object, **hooks)
    except json.JSONDecodeError as error:
        raise _invalid(("body", error.pos), f"JSON decode error: {error.msg}") from None
    except _ObjectTooLarge as error:
        message = f"an object has {error.keys:,} keys; none here takes over {MAX_OBJECT_KEYS}"
        raise _invalid(("body",), message) from None
    except _KeyTwice as error:
        shown = error.key if _encodable(error.key) else "?"
        raise _invalid(("body",), f"the key {shown!r} appears twice in one object") from None
    except UnicodeDecodeError:
        raise _invalid(("body",), "the body is not UTF-8 text") from None
    except RecursionError:
        raise _invalid(("body",), "the JSON is nested too deeply") from None
    except ValueError:  # a number of more digits than Python converts
        raise _invalid(("body",), "the JSON holds a number with too many digits") from None


def _counted(value: Any, nonfinite: int, maybe_surrogate: bool) -> InvalidJson | None:
    """What JSON cannot hold in a big body, counted at C speed, without where it is."""
    problems: list[dict[str, Any]] = []
    lone = 0
    if maybe_surrogate:  # json.dumps keeps a lone surrogate as it is; a pair was joined
        lone = len(_LONE_SURROGATE.findall(json.dumps(value, ensure_ascii=False)))
    for count, what in ((nonfinite, "NaN or Infinity"), (lone, "lone surrogates")):
        if count:
            message = f"the body holds {count:,} {what}, which JSON cannot"
            problems.append({"type": "json_invalid", "loc": ("body",), "msg": message})
    return InvalidJson(problems, nonfinite + lone) if problems else None


Loc = tuple[str | int, ...]


def _invalid(loc: Loc, message: str) -> RequestValidationError:
    return RequestValidationError([{"type": "json_invalid", "loc": loc, "msg": message}])


class InvalidJson(RequestValidationError):
    """A body JSON cannot hold: its first problems, and how many it has (`count`)."""

    def __init__(self, problems: list[dict[str, Any]], count: int) -> None:
        super().__init__(problems)
        self.count = count


def _not_json(value: Any) -> InvalidJson | None:
    """Where the parsed body holds what JSON cannot: non-finite numbers, lone surrogates
    in strings or keys, in the order they are written. Iterative, so that depth costs no
    recursion; past the first MAX_REPORTED problems they are only counted."""
    found = _Found()
    if not isinstance(value, dict | list):
        found.check(("body",), value)
        return found.invalid()
    stack: list[tuple[Loc, Iterator[tuple[Any, Any]]]] = [(("body",), _children(value))]
    while stack:
        loc, children = stack[-1]
        for key, child in children:
            if isinstance(key, str) and not _encodable(key):
                found.add(loc, "a key is not valid Unicode (a lone surrogate)")
                key = "?"
            if isinstance(child, dict | list):
                stack.append(((*loc, key), _children(child)))
                break
            found.check((*loc, key), child)
        else:
            stack.pop()
    return found.invalid()


def _children(item: dict[str, Any] | list[Any]) -> Iterator[tuple[Any, Any]]:
    return iter(item.items()) if isinstance(item, dict) else enumerate(item)


class _Found:
    def __init__(self) -> None:
        self.problems: list[dict[str, Any]] = []
        self.count = 0

    def check(self, loc: Loc, value: Any) -> None:
        if isinstance(value, float) and not math.isfinite(value):
            self.add(loc, "JSON has no NaN or Infinity: send a finite number")
        elif isinstance(value, str) and not _encodable(value):
            self.add(loc, "the text is not valid Unicode (a lone surrogate)")

    def invalid(self) -> InvalidJson | None:
        return InvalidJson(self.problems, self.count) if self.count else None

    def add(self, loc: Loc, message: str) -> None:
        self.count += 1
        if len(self.problems) < MAX_REPORTED:
            self.problems.append({"type": "json_invalid", "loc": loc, "msg": message})


def _encodable(text: str) -> bool:
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
