"""What a player's name is: text a person typed, put in one form so that two names that
look alike compare alike. The HTTP API cleans its other text (a game's title, who made a
change) with the same `clean_text`, so that there is one rule for text in one place.
"""

from __future__ import annotations

import unicodedata
from typing import Final

MAX_NAME_LENGTH: Final = 40

# Cc: control characters (tabs, escapes); Cf: format characters (bidi overrides, zero-width
# spaces and joiners); Cs: lone surrogates; Zl/Zp: line and paragraph separators. None of
# them shows as itself in a name on a score sheet, and each can make two names look alike.
REFUSED_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
# unicodedata has no names for control characters; these are the ones people meet.
CONTROL_NAMES: Final = {0: "NUL", 9: "TAB", 10: "LINE FEED", 13: "CARRIAGE RETURN", 27: "ESCAPE"}


def clean_text(text: str, *, max_length: int) -> str:
    """`text` in Unicode NFC, trimmed; ValueError if it is empty then, longer than
    `max_length` characters, or holds a control or format character. The message says
    what is wrong without repeating the text (it may be anything)."""
    cleaned = unicodedata.normalize("NFC", text).strip()
    if not cleaned:
        raise ValueError("cannot be empty (or only spaces)")
    if len(cleaned) > max_length:
        raise ValueError(f"is at most {max_length} characters, not {len(cleaned)}")
    for character in cleaned:
        if unicodedata.category(character) in REFUSED_CATEGORIES:
            raise ValueError(
                f"cannot hold control or invisible characters ({_describe(character)})"
            )
    return cleaned


def _describe(character: str) -> str:
    code = ord(character)
    name = unicodedata.name(character, "") or CONTROL_NAMES.get(code, "")
    return f"U+{code:04X} {name}".rstrip()


def name_key(name: str) -> str:
    """What two names are compared by: "Ana" and "ANA" are one player's name, and so are
    "Cy" and its fullwidth "Ｃy" (NFKC: they read the same on the score sheet)."""
    return unicodedata.normalize("NFKC", name).casefold()
