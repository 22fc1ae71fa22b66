"""The app's frame: settings from SUSHIGO_* variables, `sushigo serve`'s arguments, the
web page mount point, the docs, and SQLite set up as promised."""

from __future__ import annotations

import argparse
import re
import socket
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from api import commands, main
from api.cli import main as sushigo
from api.main import create_app
from api.settings import Settings, get_settings
from vision.detector import default_weights


def test_settings_come_from_sushigo_variables(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("SUSHIGO_DATA_DIR", str(tmp_path / "d"))
    monkeypatch.setenv("SUSHIGO_MAX_PIXELS", "1234")
    monkeypatch.setenv("SUSHIGO_WEIGHTS", str(tmp_path / "w.onnx"))
    settings = get_settings()
    assert settings.data_dir == tmp_path / "d" and settings.max_pixels == 1234
    assert settings.weights == tmp_path / "w.onnx"
    assert settings.resolved_database_url.endswith("/d/sushigo.sqlite3")
    override = get_settings(database_url="postgresql://db/sushigo", data_dir=None)
    assert override.resolved_database_url == "postgresql://db/sushigo"
    assert override.data_dir == tmp_path / "d"


def test_serve_registers_its_arguments(tmp_path: Path) -> None:
    parser = argparse.ArgumentParser()
    commands.register(parser.add_subparsers())
    args = parser.parse_args(
        ["serve", "--port", "9001", "--data-dir", str(tmp_path), "--weights", "m.onnx"]
    )
    assert args.handler is commands.run_serve
    assert (args.host, args.port) == ("127.0.0.1", 9001)
    settings = commands.settings_from(args)
    assert settings.data_dir == tmp_path and settings.weights == Path("m.onnx")


def test_docs_and_openapi(client: TestClient) -> None:
    assert client.get("/docs").status_code == 200
    paths = client.get("/openapi.json").json()["paths"]
    assert "/api/v1/score/round" in paths and "/api/v1/games" in paths
    root = client.get("/", follow_redirects=False)
    assert root.status_code in (200, 307)


def test_the_web_page_is_served_from_api_web(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, settings: Settings
) -> None:
    web = tmp_path / "web"
    web.mkdir()
    (web / "index.html").write_text("<!doctype html><title>sushigo</title>")
    (web / "app.js").write_text("console.log('hi')")
    monkeypatch.setattr(main, "WEB_DIR", web)
    with TestClient(create_app(settings)) as client:
        assert "sushigo" in client.get("/").text
        assert client.get("/app.js").status_code == 200
        assert client.get("/api/v1/games/nope").status_code == 404
        assert client.get("/docs").status_code == 200


def test_sqlite_runs_in_wal_with_foreign_keys(settings: Settings) -> None:
    app = create_app(settings)
    with app.state.engine.connect() as connection:
        assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert connection.execute(text("PRAGMA foreign_keys")).scalar() == 1
    assert (settings.data_dir / "sushigo.sqlite3").is_file()


def test_serve_says_at_once_that_its_weights_are_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A weights folder still empty (they may be copied in while it runs) is a warning; a
    path that is nothing at all, a mistyped name, is refused: the service had started, and
    every photo had answered 503."""
    (tmp_path / "weights").mkdir()
    commands._say_missing_weights(tmp_path / "weights")
    err = capsys.readouterr().err
    assert err.startswith("sushigo serve: warning: ") and "answers 503" in err
    commands._say_missing_weights(default_weights())
    assert capsys.readouterr().err == ""
    data = tmp_path / "data"
    assert sushigo(["serve", "--data-dir", str(data), "--weights", str(tmp_path / "nowhere")]) == 2
    said = (
        f"sushigo serve: error: --weights: no such weights folder or file: {tmp_path / 'nowhere'}\n"
    )
    assert capsys.readouterr().err == said
    assert not data.exists()


def test_serve_says_in_one_line_that_it_cannot_listen(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A port another program holds, an address this machine does not have: one line,
    exit 2. uvicorn had logged its start, then the error, then its shutdown, exit 3."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert sushigo(["serve", "--port", str(port), "--data-dir", str(tmp_path / "d")]) == 2
    said = f"sushigo serve: error: port {port} on 127.0.0.1 is in use: stop what holds it, "
    assert capsys.readouterr().err == f"{said}or give another --port\n"
    assert sushigo(["serve", "--host", "192.0.2.7", "--data-dir", str(tmp_path / "d")]) == 2
    err = capsys.readouterr().err  # TEST-NET-1: no machine's own address
    assert (
        err.startswith("sushigo serve: error: cannot listen on 192.0.2.7:8000: ")
        and err.count("\n") == 1
    )


def test_sushigo_says_its_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        sushigo(["--version"])
    assert done.value.code == 0
    assert re.fullmatch(r"sushigo \d+\.\d+\.\d+\n", capsys.readouterr().out)


def test_an_unknown_option_is_said_with_its_command(capsys: pytest.CaptureFixture[str]) -> None:
    """argparse had printed the top-level usage, as if `detect` itself were unknown."""
    assert sushigo(["detect", "x.jpg", "--bogus"]) == 2
    assert capsys.readouterr().err == (
        "sushigo detect: error: unrecognized arguments: --bogus "
        "(sushigo detect --help lists them)\n"
    )
    assert sushigo(["faces", "import", "x.jpg", "--as", "egg", "--out", "d", "--fast"]) == 2
    assert "(sushigo faces import --help lists them)" in capsys.readouterr().err
