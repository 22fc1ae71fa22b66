"""kill -9 with writers at work: the real server (uvicorn, SQLite in a data folder) is
killed while four clients correct their hands as fast as it answers, then started again
on the same folder. Every write it acknowledged is still there (each seat reads as its
last acknowledged write or the one in flight after it), and a temporary upload file the
dead process left is gone."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import httpx

from api.storage import INCOMING_PREFIX
from benchmarks.bench_hostile import start_server, stop_server

SEATS = (1, 2, 3, 4)
WRITING_S = 2.0
# Every seat must have writes acknowledged before the kill for the test to mean anything:
# on a slow machine WRITING_S may not be enough (by SQLite's busy wait alone, before the
# writes took turns, one seat got 0-2 while the others got 23-55). The kill waits until
# every seat has had ACKED_BEFORE_KILL writes acknowledged, for up to MAX_WRITING_S.
ACKED_BEFORE_KILL = 3
MAX_WRITING_S = 30.0


def counts_of(k: int) -> dict[str, int]:
    """The hand a seat's k-th write sets: each write a different one."""
    return {"tempura": k % 7, "egg": (k // 7) % 5}


def write_until_killed(base: str, url: str, token: str, acked: list[int]) -> None:
    """Correct one seat's hand over and over; `acked` gets each write the server answered."""
    version = 0
    k = 0
    with httpx.Client(base_url=base, timeout=30) as client:
        while True:
            k += 1
            body = {"action": "set_counts", "counts": counts_of(k), "version": version}
            try:
                response = client.post(url, json=body, headers={"X-Edit-Token": token})
            except httpx.TransportError:
                return  # the server is gone
            assert response.status_code == 200, response.text
            version = response.json()["version"]
            acked.append(k)


def test_no_acknowledged_write_is_lost_to_a_kill(tmp_path: Path) -> None:
    data = tmp_path / "data"
    process, port = start_server(data)
    base = f"http://127.0.0.1:{port}"
    try:
        game = httpx.post(f"{base}/api/v1/games", json={"players": ["A", "B", "C", "D"]}).json()
        seat_url = f"/api/v1/games/{game['id']}/rounds/1/players/{{seat}}"
        acked: dict[int, list[int]] = {seat: [] for seat in SEATS}
        writers = [
            threading.Thread(
                target=write_until_killed,
                args=(base, seat_url.format(seat=s) + "/corrections", game["edit_token"], acked[s]),
            )
            for s in SEATS
        ]
        for writer in writers:
            writer.start()
        time.sleep(WRITING_S)
        deadline = time.monotonic() + MAX_WRITING_S - WRITING_S
        while min(map(len, acked.values())) < ACKED_BEFORE_KILL and time.monotonic() < deadline:
            time.sleep(0.05)
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
        for writer in writers:
            writer.join(timeout=60)
        dead_pid = process.pid
    finally:
        if process.poll() is None:
            process.kill()
    assert all(len(acked[s]) >= ACKED_BEFORE_KILL for s in SEATS), {s: len(acked[s]) for s in SEATS}
    # What a process killed mid-write leaves: a temporary file under its own process id.
    left = data / "photos" / "ab" / f"{INCOMING_PREFIX}{dead_pid}.run-left"
    left.parent.mkdir(parents=True, exist_ok=True)
    left.write_bytes(b"half a photo")

    process, port = start_server(data)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            for seat in SEATS:
                body = client.get(seat_url.format(seat=seat)).json()
                last = acked[seat][-1]
                # The write in flight at the kill may or may not have committed.
                assert body["counts"] in (counts_of(last), counts_of(last + 1)), (seat, body)
                assert body["version"] >= len(acked[seat]), (seat, body["version"])
    finally:
        stop_server(process)
    assert not left.exists()
    assert not list(data.rglob(f"{INCOMING_PREFIX}*"))
