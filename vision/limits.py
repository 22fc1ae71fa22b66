"""The largest photo read, by its file and by its pixels (from the header, before any
decode): `sushigo detect`'s and the service's defaults (api.settings), one limit, so that
`detect --json` reads what `/detect` reads. Kept apart from vision.photo, which loads
OpenCV, for the settings to read at no cost."""

from __future__ import annotations

from typing import Final

MAX_PHOTO_BYTES: Final[int] = 30_000_000
MAX_PHOTO_PIXELS: Final[int] = 64_000_000
