"""The command line's word on a database it cannot use: one line naming it, never a
traceback, never its password, and nothing of it changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from api.cli import main


@pytest.mark.parametrize(
    ("where", "said"),
    [
        (["--database-url", "nonsense://x"], "'nonsense://x' is not a database URL"),
        # No URL at all, and a database the service has no driver for: they had ended in
        # tracebacks (ArgumentError from `corrections export`, MySQLdb not found).
        (["--database-url", "notaurl"], "'notaurl' is not a database URL"),
        (["--database-url", "mysql://who:secret@db/x"], "'mysql://who:***@db/x' is not a"),
        # A bare postgresql:// is psycopg's, as a host hands it out (not psycopg2's).
        (
            ["--database-url", "postgresql://who:secret@127.0.0.1:9/none"],
            "cannot use the database at postgresql+psycopg://who:***@127.0.0.1:9/none: ",
        ),
        (
            ["--database-url", "postgresql+psycopg://who:secret@127.0.0.1:9/none"],
            "cannot use the database at postgresql+psycopg://who:***@127.0.0.1:9/none: ",
        ),
        (["--data-dir", "{corrupt}"], "sushigo.sqlite3: file is not a database"),
    ],
)
@pytest.mark.parametrize("command", [["db", "upgrade"], ["corrections", "export"], ["serve"]])
def test_a_database_that_cannot_be_used_is_said_in_one_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    command: list[str],
    where: list[str],
    said: str,
) -> None:
    """A URL without a driver, a server that does not answer, a file that is no
    database: one line naming it (and never its password), not a traceback."""
    corrupt = tmp_path / "corrupt"
    corrupt.mkdir()
    (corrupt / "sushigo.sqlite3").write_text("not a database")
    extra = ["--out", str(tmp_path / "export")] if command[0] == "corrections" else []
    argv = [*command, *extra, *(w.format(corrupt=corrupt) for w in where)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"sushigo {command[0]}: error: ") and err.count("\n") == 1, err
    assert said in err and "secret" not in err
    assert (corrupt / "sushigo.sqlite3").read_text() == "not a database"


@pytest.mark.parametrize("command", [["db", "upgrade"], ["serve"]])
def test_a_data_folder_that_is_a_file_is_said_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    """mkdir had said only "PATH: file exists"."""
    taken = tmp_path / "photo.jpg"
    taken.write_bytes(b"\xff\xd8\xff")
    assert main([*command, "--data-dir", str(taken)]) == 2
    err = capsys.readouterr().err
    assert (
        err == f"sushigo {command[0]}: error: {taken} is a file: the data folder must be a folder\n"
    )
    assert taken.read_bytes() == b"\xff\xd8\xff"
