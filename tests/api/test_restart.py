"""A restart loses nothing: the real server process is started (`sushigo serve`), used,
stopped, and started again (uvicorn's --factory) on the same data folder; every game,
correction, confirmation and record is still there."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from benchmarks.bench_api import free_port, wait_until_serving
from tests.api.conftest import make_photo

REPO = Path(__file__).resolve().parents[2]


@contextmanager
def server(command: Sequence[str], port: int, env: dict[str, str]) -> Iterator[httpx.Client]:
    process = subprocess.Popen(
        list(command),
        cwd=REPO,
        env={**os.environ, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        try:
            wait_until_serving(process, base, seconds=180)
        except RuntimeError as error:
            process.wait()  # killed on a timeout; read what it said either way
            output = process.stdout.read().decode() if process.stdout else ""
            pytest.fail(f"{error}:\n{output}")
        with httpx.Client(base_url=base, timeout=120) as client:
            yield client
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def snapshot(client: httpx.Client, game_id: str) -> dict[str, Any]:
    url = f"/api/v1/games/{game_id}"
    state: dict[str, Any] = {
        "game": client.get(url).json(),
        "standings": client.get(f"{url}/standings").json(),
    }
    for number in (1, 2):
        state[f"round {number}"] = client.get(f"{url}/rounds/{number}").json()
        for seat in (1, 2):
            base = f"{url}/rounds/{number}/players/{seat}"
            state[f"{number}/{seat}"] = client.get(base).json()
            state[f"{number}/{seat} events"] = client.get(f"{base}/events").json()
            state[f"{number}/{seat} photos"] = client.get(f"{base}/photos").json()
    return state


@pytest.mark.both_databases
def test_a_restart_loses_nothing(tmp_path: Path, database_url: str | None) -> None:
    data = tmp_path / "data"
    env = {"SUSHIGO_MAX_UPLOAD_BYTES": "5000000"}
    port = free_port()
    # `sushigo serve` (api.cli is the console script's module).
    first = [sys.executable, "-m", "api.cli", "serve", "--port", str(port), "--data-dir", str(data)]
    if database_url:
        first += ["--database-url", database_url]  # the flag; the restart uses the variable
    with server(first, port, env) as client:
        created = client.post("/api/v1/games", json={"players": ["Ana", "Ben"]}).json()
        game_id, headers = created["id"], {"X-Edit-Token": created["edit_token"]}
        url = f"/api/v1/games/{game_id}"

        def post(path: str, body: dict[str, Any]) -> dict[str, Any]:
            response = client.post(f"{url}{path}", json=body, headers=headers)
            assert response.status_code == 200, response.text
            return dict(response.json())

        for seat, counts in ((1, {"tempura": 4, "maki_3": 2}), (2, {"sashimi": 3, "pudding": 2})):
            base = f"/rounds/1/players/{seat}"
            post(f"{base}/corrections", {"action": "set_counts", "counts": counts, "version": 0})
            post(f"{base}/confirm", {"version": 1, "author": "Ana"})
        post("/rounds/1/record", {"version": 4, "author": "Ana"})

        base = "/rounds/2/players/1"
        post(f"{base}/corrections", {"action": "set_counts", "counts": {"egg": 2}, "version": 0})
        post(f"{base}/undo", {"version": 1})
        post(f"{base}/corrections", {"action": "set_counts", "counts": {"squid": 2}, "version": 2})
        post(f"{base}/confirm", {"version": 3})
        if client.get("/api/v1/model").json()["available"]:
            # Only where the real detector loads; otherwise entries are counts alone.
            response = client.post(
                f"{url}/rounds/2/players/2/photos",
                files={"image": ("p.jpg", make_photo((640, 480)), "image/jpeg")},
                data={"version": "0"},
                headers=headers,
            )
            assert response.status_code == 201, response.text
        before = snapshot(client, game_id)

    assert before["round 1"]["status"] == "recorded"
    assert before["2/1"]["status"] == "confirmed" and before["2/1"]["tally"]["squid"] == 2
    assert [e["undone"] for e in before["2/1 events"]] == [True, False, False, False]

    port = free_port()
    second = [
        sys.executable,
        "-m",
        "uvicorn",
        "api.main:create_app",
        "--factory",
        "--port",
        str(port),
    ]
    restart_env = {**env, "SUSHIGO_DATA_DIR": str(data)}
    if database_url:
        restart_env["SUSHIGO_DATABASE_URL"] = database_url
    with server(second, port, restart_env) as client:
        after = snapshot(client, game_id)
        assert after == before
        # And the game goes on: the token still works.
        response = client.post(
            f"{url}/rounds/2/players/2/corrections",
            json={
                "action": "set_counts",
                "counts": {"dumpling": 5},
                "version": after["2/2"]["version"],
            },
            headers=headers,
        )
        assert response.status_code == 200, response.text
    assert (data / "sushigo.sqlite3").is_file() == (database_url is None)
