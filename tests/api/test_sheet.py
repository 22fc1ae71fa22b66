"""GET /games/{id}/sheet.csv: the score sheet a spreadsheet opens, read with the view link
(no token), its numbers those of the standings, its names never run as formulas."""

from __future__ import annotations

import csv
import io

import pytest
from fastapi.testclient import TestClient

from tests.api.conftest import Table
from tests.api.test_records import ROUND, enter


def read_sheet(client: TestClient, table: Table) -> tuple[list[list[str]], dict[str, str]]:
    response = client.get(f"{table.url}/sheet.csv")  # no token: what the view link sends
    assert response.status_code == 200, response.text
    assert response.content.startswith(b"\xef\xbb\xbf")  # the BOM Excel needs for UTF-8
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    return rows, dict(response.headers)


@pytest.mark.both_databases
def test_sheet_has_every_round_dessert_total_and_winner(client: TestClient) -> None:
    table = Table(client, {"players": ["Ana", "Ben", "Cy"], "title": "Friday"})
    rows, headers = read_sheet(client, table)
    assert headers["content-type"] == "text/csv; charset=utf-8"
    assert headers["content-disposition"].startswith('attachment; filename="sushigo-')
    assert headers["content-disposition"].endswith(f'-{table.id}.csv"')
    header = ["Seat", "Player", "Round 1", "Round 2", "Round 3"]
    assert rows[0] == [*header, "Pudding cards", "Dessert", "Total", "Winner"]
    # Before any record: names, empty rounds, no dessert, no winner.
    assert rows[1] == ["1", "Ana", "", "", "", "0", "", "0", ""]

    for number in (1, 2, 3):
        enter(table, number, ROUND)
        assert table.record(number).status_code == 200
        rows, _ = read_sheet(client, table)
        assert len(rows) == 4 and all(len(row) == 9 for row in rows)
    standings = table.standings()
    assert standings["complete"]
    for row, player in zip(rows[1:], standings["players"], strict=True):
        assert row[1] == player["name"]
        assert [int(v) for v in row[2:5]] == player["rounds"]
        assert int(row[5]) == player["puddings"]
        assert int(row[6]) == player["dessert"] and int(row[7]) == player["total"]
        assert (row[8] == "winner") == (player["name"] in standings["winners"])
    assert any(int(row[6]) < 0 for row in rows[1:])  # a negative dessert stays a number


def test_names_that_a_spreadsheet_would_run_are_escaped(client: TestClient) -> None:
    names = ['=HYPERLINK("x")', "+1", "-Ana", "@SUM(A1)", "Ben = best"]
    table = Table(client, {"players": names})
    rows, _ = read_sheet(client, table)
    assert [row[1] for row in rows[1:]] == [
        '\'=HYPERLINK("x")',
        "'+1",
        "'-Ana",
        "'@SUM(A1)",
        "Ben = best",
    ]


def test_sheet_etag_and_unknown_game(client: TestClient, table: Table) -> None:
    response = client.get(f"{table.url}/sheet.csv")
    tag = response.headers["etag"]
    again = client.get(f"{table.url}/sheet.csv", headers={"If-None-Match": tag})
    assert again.status_code == 304
    table.set_counts(1, 1, {"tempura": 2})
    moved = client.get(f"{table.url}/sheet.csv", headers={"If-None-Match": tag})
    assert moved.status_code == 200 and moved.headers["etag"] != tag
    missing = client.get("/api/v1/games/nosuchgame/sheet.csv")
    assert missing.status_code == 404 and "detail" in missing.json()
