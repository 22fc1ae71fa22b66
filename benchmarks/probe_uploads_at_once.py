"""Three phones uploading their photos at the same moment, while three others read the
game as the page does (the game, the standings, the round and each player's cards, once
a second): how long each upload takes, and whether any answer is a 5xx or never comes.

    python -m benchmarks.probe_uploads_at_once [--games 2] [--app-dir CHECKOUT]

`--app-dir` serves another checkout's code (the same photos and clients), to compare.
Before 7c70ee3 a view's lookup of the game's other photos held one lock for every view
(functools.cached_property on Python 3.11): a view waiting there for the database's
write turn held up the requests that held it, until the 30 s timeouts answered 500
"database is locked". Exits 1 where an answer was a 5xx or timed out.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
import numpy as np

from benchmarks.bench_hostile import ROOT, start_server, stop_server
from datasets.deck import CHECKOUT_DECK, load_deck
from datasets.scene import make_scene

PLAYERS = ("Ana", "Ben", "Cleo")
ROUNDS = 3
TIMEOUT_S = 90.0


class Table:
    """One game, its edit token, and what went wrong while it was played."""

    def __init__(self, base: str) -> None:
        created = httpx.post(f"{base}/api/v1/games", json={"players": list(PLAYERS)}).json()
        self.url = f"{base}/api/v1/games/{created['id']}"
        self.headers = {"X-Edit-Token": created["edit_token"]}
        self.round = 1
        self.failed: list[str] = []
        self.stop = threading.Event()

    def seat(self, seat: int) -> str:
        return f"{self.url}/rounds/{self.round}/players/{seat}"

    def get(self, url: str) -> dict:
        try:
            answer = httpx.get(url, headers=self.headers, timeout=TIMEOUT_S)
        except httpx.TimeoutException:
            self.failed.append(f"GET {url}: no answer in {TIMEOUT_S:.0f} s")
            return {}
        if answer.status_code >= 500:
            self.failed.append(f"GET {url}: {answer.status_code}")
        return answer.json() if answer.status_code < 400 else {}

    def read(self) -> None:
        """What a phone's page reads every few seconds, once a second."""
        while not self.stop.is_set():
            for path in ("", "/standings", f"/rounds/{self.round}"):
                self.get(self.url + path)
            for seat in range(1, len(PLAYERS) + 1):
                self.get(self.seat(seat))
            self.stop.wait(1.0)

    def upload(self, seat: int, photo: bytes, took: dict[int, float]) -> None:
        version = self.get(self.seat(seat)).get("version", 0)
        started = time.perf_counter()
        try:
            answer = httpx.post(
                f"{self.seat(seat)}/photos",
                headers=self.headers,
                data={"version": str(version)},
                files={"image": ("cards.jpg", photo, "image/jpeg")},
                timeout=TIMEOUT_S,
            )
            if answer.status_code != 201:
                self.failed.append(f"upload seat {seat}: {answer.status_code} {answer.text[:80]}")
        except httpx.TimeoutException:
            self.failed.append(f"upload seat {seat}: no answer in {TIMEOUT_S:.0f} s")
        took[seat] = time.perf_counter() - started

    def record(self) -> None:
        for seat in range(1, len(PLAYERS) + 1):
            version = self.get(self.seat(seat)).get("version", 0)
            httpx.post(
                f"{self.seat(seat)}/confirm", headers=self.headers, json={"version": version}
            )
        version = self.get(f"{self.url}/rounds/{self.round}").get("version", 0)
        body = {"version": version, "accept_problems": True}
        httpx.post(f"{self.url}/rounds/{self.round}/record", headers=self.headers, json=body)


def photos(faces: Path, count: int) -> list[bytes]:
    deck = load_deck(faces)
    rng = np.random.default_rng(5150)
    return [make_scene(rng, deck, size=2016, players=len(PLAYERS)).jpeg for _ in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--faces", type=Path, default=CHECKOUT_DECK, help="a deck folder")
    parser.add_argument("--app-dir", type=Path, default=ROOT, help="the checkout to serve")
    args = parser.parse_args()
    shots = photos(args.faces, ROUNDS * len(PLAYERS))
    slowest: list[float] = []
    failed: list[str] = []
    with tempfile.TemporaryDirectory() as data:
        process, port = start_server(Path(data), app_dir=args.app_dir)
        try:
            for _ in range(args.games):
                table = Table(f"http://127.0.0.1:{port}")
                readers = [threading.Thread(target=table.read) for _ in range(3)]
                for reader in readers:
                    reader.start()
                for number in range(1, ROUNDS + 1):
                    table.round = number
                    took: dict[int, float] = {}
                    uploads = [
                        threading.Thread(
                            target=table.upload,
                            args=(seat, shots[(number - 1) * len(PLAYERS) + seat - 1], took),
                        )
                        for seat in range(1, len(PLAYERS) + 1)
                    ]
                    for upload in uploads:
                        upload.start()
                    for upload in uploads:
                        upload.join()
                    slowest.append(max(took.values()))
                    print(f"round {number}: uploads took " + ", ".join(
                        f"{took[s]:.2f} s" for s in sorted(took)))  # fmt: skip
                    table.record()
                table.stop.set()
                for reader in readers:
                    reader.join()
                failed += table.failed
        finally:
            stop_server(process)
    print(f"{len(slowest)} rounds of {len(PLAYERS)} uploads at once, read meanwhile")
    print(f"slowest upload of a round: median {np.median(slowest):.2f} s, max {max(slowest):.2f} s")
    print(f"answers that were a 5xx or never came: {len(failed)}")
    for line in failed[:10]:
        print(f"  {line}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
