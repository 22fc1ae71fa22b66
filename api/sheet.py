"""A game's score sheet as CSV, for a spreadsheet: one row per player in seat order, a
column per round of the game, then pudding cards, dessert, total and the winner mark.

Cells a person typed (names) are escaped against formula injection: a spreadsheet runs a
cell that starts with = + - @ (or a tab or carriage return) as a formula, so such a cell
gets a leading apostrophe, as OWASP advises. Numbers are written as numbers.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from api.models import Game
from scoring import GameResult

MEDIA_TYPE = "text/csv; charset=utf-8"
# Excel reads a CSV as the machine's code page unless it starts with a byte order mark.
BOM = "\ufeff"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(text: str) -> str:
    """`text` as a spreadsheet shows it, never run as a formula."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def sheet_rows(game: Game, result: GameResult) -> list[list[str | int]]:
    """The header row and one row per player. Rounds not recorded yet, and dessert and
    the winner before the last round, are empty cells (0 there would read as a score)."""
    header: list[str | int] = ["Seat", "Player"]
    header += [f"Round {n}" for n in range(1, game.rounds + 1)]
    header += ["Pudding cards", "Dessert", "Total", "Winner"]
    rows = [header]
    winners = set(result.winners)
    for seat, player in enumerate(result.players, start=1):
        rounds: Sequence[int | str] = list(player.rounds)
        rounds = [*rounds, *[""] * (game.rounds - len(rounds))]
        rows.append(
            [
                seat,
                safe_cell(player.name),
                *rounds,
                player.puddings,
                player.dessert if result.complete else "",
                player.total,
                "winner" if player.name in winners else "",
            ]
        )
    return rows


def sheet_csv(game: Game, result: GameResult) -> str:
    """The score sheet as CSV text (RFC 4180: CRLF line ends), with a byte order mark."""
    out = io.StringIO()
    csv.writer(out).writerows(sheet_rows(game, result))
    return BOM + out.getvalue()


def sheet_filename(game: Game) -> str:
    """A file name made of the game's date and id (ids are URL-safe base64: no quoting)."""
    return f"sushigo-{game.created_at:%Y-%m-%d}-{game.id}.csv"
