"""Issue 29 tried as a new user would: every hostile request of the issue sent to a running
`sushigo serve` while another client plays a game, each answer checked, then the game.

    python -m benchmarks.probe_hostile                    # starts its own `sushigo serve`
    python -m benchmarks.probe_hostile --url http://HOST:PORT
    python -m benchmarks.probe_hostile --quick            # without the 14 MB / 25 MB bodies

One thread plays a 3-player game on its own connection (counts set, a count adjusted and
undone, each hand confirmed, the round recorded, round after round) until the probe is
done. Meanwhile the probe sends each case, against that game where the case is about
credentials or sizes, against a game of its own (with a photo, for boxes) where it needs
a write to get past the token. A case passes when it is answered within 10 s with its
expected 4xx, in the house's error shape (JSON, `detail` a string), under 4 kB, without
echoing the marker it sent. Then: every move of the player answered 200; the game's rounds,
scores and standings exactly those of the moves (scoring.score_game on the tallies sent);
the probe's own game unchanged by every refused write; one of two corrections sent with
the same version taken, the other 409; and on a server it started, no `.incoming-*` file
left in its data folder and its resident memory before and after.

Prints a line per case and a last line PASS or FAIL; exits 1 on a failure.
"""

from __future__ import annotations

import argparse
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from benchmarks import bench_hostile
from benchmarks.bench_api import free_port, wait_until_serving

ROOT = Path(__file__).resolve().parents[1]
MARKER = "probe-marker-29"  # sent in the input; an answer that holds it echoed the input
MAX_ANSWER_BYTES = 4_096
TIMEOUT_S = 10.0  # "answered in milliseconds": anything near this is a hang
PLAYERS = ["Ana", "Ben", "Cy"]
# What the player enters each round, per seat (9 cards each: the 3-player hand size).
HANDS = [
    {"tempura": 2, "sashimi": 3, "maki_3": 1, "salmon_on_wasabi": 1, "pudding": 1},
    {"dumpling": 4, "maki_2": 1, "egg": 1, "squid": 1, "sashimi": 1, "chopsticks": 1},
    {"tempura": 2, "maki_1": 2, "pudding": 2, "salmon": 1, "salmon_on_wasabi": 1},
]
JSON = {"Content-Type": "application/json"}


# --- the server ----------------------------------------------------------------------------


def start_serve(data_dir: Path, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    """`sushigo serve` (api.cli is the console script's module) over `data_dir`, its
    output in `log`."""
    port = free_port()
    command = [sys.executable, "-m", "api.cli", "serve", "--port", str(port)]
    command += ["--data-dir", str(data_dir)]
    with log.open("wb") as out:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}  # each log line as it happens
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    wait_until_serving(process, base, seconds=180)
    return process, base


# --- games ---------------------------------------------------------------------------------


@dataclass
class Game:
    id: str
    token: str

    @property
    def url(self) -> str:
        return f"/api/v1/games/{self.id}"

    @property
    def auth(self) -> dict[str, str]:
        return {"X-Edit-Token": self.token}

    def seat(self, number: int, seat: int) -> str:
        return f"{self.url}/rounds/{number}/players/{seat}"


def new_game(client: httpx.Client, players: list[str]) -> Game:
    response = client.post("/api/v1/games", json={"players": players})
    response.raise_for_status()
    body = response.json()
    return Game(body["id"], body["edit_token"])


def marked_keys(count: int) -> bytes:
    """A game body with `count` made-up keys, each holding the marker."""
    keys = "".join(f', "k{i}": "{MARKER}"' for i in range(count))
    return ('{"players": ["Ana", "Ben"]' + keys + "}").encode()


def a_photo() -> bytes:
    """A 640 x 480 JPEG of a bare table: the detector reads it (no cards), boxes can be
    added to it by hand."""
    import cv2
    import numpy as np

    image = np.full((480, 640, 3), (35, 70, 120), np.uint8)
    ok, encoded = cv2.imencode(".jpg", image)
    assert ok
    return encoded.tobytes()


@dataclass
class Player:
    """Plays `game` on its own connection: its three rounds, then fixes of the last until
    `stop` is set; every answer is kept."""

    base: str
    game: Game
    stop: threading.Event
    answers: list[tuple[str, int, float]] = field(default_factory=list)
    recorded: list[list[dict[str, int]]] = field(default_factory=list)
    moves: dict[tuple[int, int], int] = field(default_factory=dict)  # events per collection

    def play(self) -> None:
        with httpx.Client(base_url=self.base, timeout=60, headers=self.game.auth) as client:
            for number in (1, 2, 3):
                hands = [HANDS[(seat + number) % 3] for seat in range(3)]
                self._round(client, number, hands)
                self.recorded.append(hands)
            # Then the last round is fixed (re-opened, entered again, recorded), over and
            # over, so that the table is busy for as long as the probe runs.
            while not self.stop.is_set():
                version = self._call(client, "GET", f"{self.game.url}/rounds/3")["version"]
                self._call(client, "POST", f"{self.game.url}/rounds/3/reopen", {"version": version})
                self._round(client, 3, self.recorded[2])

    def _round(self, client: httpx.Client, number: int, hands: list[dict[str, int]]) -> None:
        for seat, hand in enumerate(hands, start=1):
            self._hand(client, number, seat, hand)
        version = self._call(client, "GET", f"{self.game.url}/rounds/{number}")["version"]
        body = {"version": version, "author": "Ana"}
        self._call(client, "POST", f"{self.game.url}/rounds/{number}/record", body)

    def _hand(self, client: httpx.Client, number: int, seat: int, hand: dict[str, int]) -> None:
        url = self.game.seat(number, seat)
        view = self._call(client, "GET", url)
        moves = [
            ("corrections", {"action": "set_counts", "counts": hand}),
            ("corrections", {"action": "adjust_count", "category": "tempura", "delta": 1}),
            ("undo", {}),
            ("confirm", {}),
        ]
        for path, body in moves:
            before = view["version"]
            view = self._call(client, "POST", f"{url}/{path}", {**body, "version": before})
            # A write that changes nothing (the same hand again, a confirmation that the
            # undo gave back) stores no event and keeps the version.
            if view["version"] != before:
                self.moves[number, seat] = self.moves.get((number, seat), 0) + 1

    def _call(self, client: httpx.Client, method: str, url: str, body: Any = None) -> Any:
        started = time.perf_counter()
        response = client.request(method, url, json=body)
        self.answers.append(
            (f"{method} {url}", response.status_code, time.perf_counter() - started)
        )
        response.raise_for_status()
        return response.json()


# --- the cases ---------------------------------------------------------------------------------


@dataclass
class Answer:
    status: int
    body: bytes = b""
    content_type: str = ""


@dataclass
class Case:
    name: str
    send: Callable[[], Answer]
    expected: frozenset[int]
    shape: bool = True  # the answer's body is read and checked (raw sends read the status)


class Probe:
    def __init__(self, base: str, player_game: Game, own: Game) -> None:
        self.base = base
        self.port = int(base.rsplit(":", 1)[1])
        self.player_game = player_game
        self.own = own
        self.client = httpx.Client(base_url=base, timeout=TIMEOUT_S)

    def version(self, game: Game, number: int = 1, seat: int = 1) -> int:
        return int(self.client.get(game.seat(number, seat)).json()["version"])

    def raw(self, path: str, body: bytes, headers: dict[str, str] | None = None) -> Answer:
        response = self.client.post(path, content=body, headers={**JSON, **(headers or {})})
        return Answer(
            response.status_code, response.content, response.headers.get("content-type", "")
        )

    def json(
        self, method: str, path: str, body: Any, headers: dict[str, str] | None = None
    ) -> Answer:
        response = self.client.request(method, path, json=body, headers=headers)
        return Answer(
            response.status_code, response.content, response.headers.get("content-type", "")
        )

    def correct(self, body: dict[str, Any]) -> Answer:
        """A correction on the probe's own game, with its current version and token."""
        body = {**body, "version": self.version(self.own)}
        return self.json("POST", f"{self.own.seat(1, 1)}/corrections", body, self.own.auth)

    def bench_case(self, name: str) -> Callable[[], Answer]:
        """One of bench_hostile's raw-socket requests (the size limits, the stall)."""
        table = bench_hostile.Table(self.port, self.player_game.id, self.player_game.token)
        return lambda: Answer(bench_hostile.HOSTILE[name](table))

    def cases(self, quick: bool) -> list[Case]:
        c: list[Case] = []
        E = frozenset

        for name in bench_hostile.HOSTILE:
            if quick and ("14 MB" in name or "25 MB" in name):
                continue
            c.append(Case(name, self.bench_case(name), E({401, 413, 422}), shape=False))

        # JSON that JSON cannot hold, and bodies whose errors once echoed the input.
        def create(body: bytes) -> Callable[[], Answer]:
            return lambda: self.raw("/api/v1/games", body)

        c += [
            Case("a lone surrogate, the answer read",
                 create(b'{"players": ["\\ud800x", "B"]}'), E({422})),
            Case("NaN as a title", create(b'{"players": ["A", "B"], "title": NaN}'), E({422})),
            Case("50,000 opening brackets", create(b"[" * 50_000), E({422})),
            Case("a 5,000-digit number of rounds",
                 create(b'{"players": ["A", "B"], "rounds": ' + b"9" * 5000 + b"}"), E({422})),
            Case("bytes that are not UTF-8 in a name",
                 create(b'{"players": ["Ana", "\xff"]}'), E({422})),
            Case("1,500 unknown keys", create(marked_keys(1500)), E({422})),
            Case("a 100 kB body of spaces", create(b" " * 100_000), E({413})),
        ]  # fmt: skip

        # Names and titles that are not names.
        def players(names: list[str], **extra: Any) -> Callable[[], Answer]:
            return lambda: self.json("POST", "/api/v1/games", {"players": names, **extra})

        c += [
            Case("a name made of a zero-width space", players(["\u200b", "Ben"]), E({422})),
            Case("a name with a right-to-left override", players(["Ana\u202e", "Ben"]), E({422})),
            Case("a name with a bell character", players(["A\x07na", "Ben"]), E({422})),
            Case("a name of spaces and a tab", players(["Ana", " \t "]), E({422})),
            Case("a 41-character name", players(["Ana", "x" * 41]), E({422})),
            Case("two names alike once normalised", players(["José", "Jose\u0301"]), E({422})),
            Case("two names alike but for case", players(["Ana", " ANA "]), E({422})),
            Case("control characters in a title",
                 players(["Ana", "Ben"], title="Fri\x1bday"), E({422})),
            Case("a 121-character title", players(["Ana", "Ben"], title="t" * 121), E({422})),
            Case("a player who is a number", players(["Ana", 7]), E({422})),  # type: ignore[list-item]
        ]  # fmt: skip

        # Boxes and counts, on the probe's own game (past its token, at its version).
        def box(coordinates: list[Any]) -> Callable[[], Answer]:
            return lambda: self.correct({"action": "add", "box": coordinates, "label": "egg"})

        def box_raw(text: bytes) -> Callable[[], Answer]:
            def send() -> Answer:
                body = b'{"action": "add", "label": "egg", "version": %d, "box": %s}'
                return self.raw(
                    f"{self.own.seat(1, 1)}/corrections",
                    body % (self.version(self.own), text),
                    self.own.auth,
                )

            return send

        def correct(body: dict[str, Any]) -> Callable[[], Answer]:
            return lambda: self.correct(body)

        def count(value: Any) -> Callable[[], Answer]:
            return correct({"action": "set_counts", "counts": {"egg": value}})

        unknown = {f"k{i}": MARKER for i in range(700)}

        c += [
            Case("NaN in a box", box_raw(b"[NaN, 0, 50, 50]"), E({422})),
            Case("Infinity in a box", box_raw(b"[0, 0, Infinity, 50]"), E({422})),
            Case("1e999 in a box", box_raw(b"[0, 0, 1e999, 50]"), E({422})),
            Case("box coordinates as strings", box(["0", "0", "50", "50"]), E({422})),
            Case("a box 0.000000001 px wide", box([0, 0, 0.000000001, 50]), E({422})),
            Case("a box outside the photo", box([0, 0, 641, 50]), E({422})),
            Case("a box upside down", box([50, 50, 10, 10]), E({422})),
            Case("a box of three numbers", box([0, 0, 50]), E({422})),
            Case("a count that is true", count(True), E({422})),
            Case("a count that is a string", count("3"), E({422})),
            Case("a count of 2.5", count(2.5), E({422})),
            Case("700 unknown counts", correct({"action": "set_counts", "counts": unknown}),
                 E({422})),
            Case("an action that is no action", correct({"action": MARKER * 50}), E({422})),
            Case("a delta that is a string",
                 correct({"action": "adjust_count", "category": "egg", "delta": "1"}), E({422})),
        ]  # fmt: skip

        # Credentials: every write of the player's game, without its token or with a wrong one.
        game = self.player_game
        writes = [
            ("PATCH", game.url, {"version": 0, "title": "taken"}),
            ("POST", f"{game.seat(1, 1)}/corrections",
             {"action": "set_counts", "counts": {"egg": 1}, "version": 0}),
            ("POST", f"{game.seat(1, 1)}/undo", {"version": 0}),
            ("POST", f"{game.seat(1, 1)}/confirm", {"version": 0}),
            ("POST", f"{game.url}/rounds/1/record", {"version": 0}),
            ("POST", f"{game.url}/rounds/1/reopen", {"version": 0}),
            ("POST", f"{game.seat(1, 1)}/restore", {"photo": None, "version": 0}),
        ]  # fmt: skip
        credentials = {
            "no token": {},
            "Bearer and no token": {"Authorization": "Bearer"},
            "a wrong token": {"X-Edit-Token": "wrong"},
            "another game's token": self.own.auth,
            "the token's first half": {"X-Edit-Token": game.token[: len(game.token) // 2]},
            "the token and a space": {"Authorization": f"Bearer {game.token} x"},
            "Basic, not Bearer": {"Authorization": f"Basic {game.token}"},
        }
        for kind, headers in credentials.items():
            for method, path, body in writes:
                route = path.removeprefix(game.url) or "/"
                send = (lambda m, p, b, h: lambda: self.json(m, p, b, h))(
                    method, path, body, headers
                )
                c.append(Case(f"{kind}: {method} {route}", send, E({401, 403})))

        def upload(headers: dict[str, str]) -> Callable[[], Answer]:
            def send() -> Answer:
                response = self.client.post(
                    f"{game.seat(1, 2)}/photos",
                    files={"image": ("a.jpg", a_photo(), "image/jpeg")},
                    data={"version": "0"},
                    headers=headers,
                )
                return Answer(
                    response.status_code, response.content, response.headers.get("content-type", "")
                )

            return send

        c += [
            Case("a photo upload without a token", upload({}), E({401})),
            Case("a photo upload with another game's token", upload(self.own.auth), E({403})),
            Case("an upload cut off half way (token sent)", self.cut_upload,
                 E({0, 400, 408, 422}), shape=False),
        ]  # fmt: skip
        return c

    def cut_upload(self) -> Answer:
        """Half of a 2 MB upload with the game's token, then the connection is dropped:
        the server must leave no temporary file behind (checked at the end)."""
        head = (
            b'--x\r\nContent-Disposition: form-data; name="version"\r\n\r\n0\r\n'
            b'--x\r\nContent-Disposition: form-data; name="image"; filename="a.jpg"\r\n'
            b"Content-Type: image/jpeg\r\n\r\n\xff\xd8\xff"
        )
        request = (
            f"POST {self.own.seat(1, 2)}/photos HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"X-Edit-Token: {self.own.token}\r\n"
            "Content-Type: multipart/form-data; boundary=x\r\n"
            f"Content-Length: {len(head) + 2_000_000}\r\n\r\n"
        ).encode()
        with socket.create_connection(("127.0.0.1", self.port), timeout=TIMEOUT_S) as sock:
            sock.sendall(request + head + bytes(1_000_000))
            time.sleep(0.3)  # the server is reading it into its temporary file
        time.sleep(0.3)  # and has seen the connection go
        return Answer(0)

    def concurrent_corrections(self) -> list[int]:
        """Two corrections with one version at the same moment: one 200, one 409."""
        version = self.version(self.own, 1, 2)
        url = f"{self.own.seat(1, 2)}/corrections"
        statuses: list[int] = []
        barrier = threading.Barrier(2)

        def send(count: int) -> None:
            with httpx.Client(base_url=self.base, timeout=TIMEOUT_S) as client:
                body = {"action": "set_counts", "counts": {"egg": count}, "version": version}
                barrier.wait()
                statuses.append(client.post(url, json=body, headers=self.own.auth).status_code)

        threads = [threading.Thread(target=send, args=(n,)) for n in (1, 2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return sorted(statuses)


def judge(case: Case, answer: Answer, seconds: float) -> str | None:
    """What is wrong with `answer`, or None."""
    if answer.status not in case.expected:
        return f"status {answer.status}, expected {'/'.join(map(str, sorted(case.expected)))}"
    if seconds > TIMEOUT_S * 0.9:
        return f"answered after {seconds:.1f} s"
    if not case.shape:
        return None
    if len(answer.body) > MAX_ANSWER_BYTES:
        return f"a {len(answer.body):,}-byte answer"
    if MARKER.encode() in answer.body:
        return "the answer echoes the input"
    if not answer.content_type.startswith("application/json"):
        return f"answered as {answer.content_type or 'nothing'}"
    import json

    body = json.loads(answer.body)
    if not isinstance(body, dict) or not isinstance(body.get("detail"), str):
        return "not the house's error shape (no `detail` string)"
    return None


# --- the run -----------------------------------------------------------------------------------


def snapshot(client: httpx.Client, game: Game) -> Any:
    state = {"game": client.get(game.url).json()}
    for number in (1, 2, 3):
        state[number] = client.get(f"{game.url}/rounds/{number}").json()
    return state


def check_game(client: httpx.Client, player: Player) -> list[str]:
    """What the server says of the player's game against what the player did."""
    from scoring import Tally, score_game, score_round

    problems = []
    game = client.get(player.game.url).json()
    if [p["name"] for p in game["players"]] != PLAYERS or game["title"] is not None:
        problems.append(
            f"the game's players or title changed: {game['players']}, {game['title']!r}"
        )
    if game["version"] != 0:
        problems.append(f"the game's version moved to {game['version']} (a PATCH landed)")
    for number, hands in enumerate(player.recorded, start=1):
        body = client.get(f"{player.game.url}/rounds/{number}").json()
        record = body["record"] or {}
        expected = [s.to_dict() for s in score_round([Tally.from_mapping(h) for h in hands])]
        if body["status"] != "recorded" or record.get("scores") != expected:
            problems.append(f"round {number}: {body['status']}, scores {record.get('scores')}")
        for seat in (1, 2, 3):
            events = client.get(f"{player.game.seat(number, seat)}/events").json()
            if len(events) != player.moves[number, seat]:
                moves = player.moves[number, seat]
                problems.append(f"round {number} seat {seat}: {len(events)} events, not {moves}")
    standings = client.get(f"{player.game.url}/standings").json()
    tallies = [[Tally.from_mapping(h) for h in hands] for hands in player.recorded]
    want = score_game(PLAYERS, tallies, validate=False).to_dict()
    got = {key: standings[key] for key in want}
    if got != want:
        problems.append(f"standings {got} are not {want}")
    return problems


def server_errors(log: Path) -> list[str]:
    """The lines of the server's log that say it failed: a traceback, a 5xx answered."""
    lines = log.read_text(errors="replace").splitlines()
    return [line for line in lines if "Traceback" in line or re.search(r'HTTP/1\.1" 5\d\d', line)]


def run(
    base: str, *, quick: bool, data_dir: Path | None, pid: int | None, log: Path | None = None
) -> bool:
    setup = httpx.Client(base_url=base, timeout=120)
    player_game = new_game(setup, PLAYERS)
    own = new_game(setup, ["Dee", "Eve"])
    response = setup.post(
        f"{own.seat(1, 1)}/photos",
        files={"image": ("table.jpg", a_photo(), "image/jpeg")},
        data={"version": "0"},
        headers=own.auth,
    )
    assert response.status_code == 201, response.text  # loads the networks, first
    memory_start = bench_hostile.resident_mb(pid) if pid else None

    probe = Probe(base, player_game, own)
    cases = probe.cases(quick)
    if not quick:
        bench_hostile.body_14mb()  # made before the timing: most of a second of this process
    own_before = snapshot(setup, own)
    stop = threading.Event()
    player = Player(base, player_game, stop)
    errors: list[str] = []
    playing = threading.Thread(target=lambda: _guard(player.play, errors))
    playing.start()
    failures = 0
    print(f"{len(cases)} hostile requests to {base} while a client plays game {player_game.id}:")
    for case in cases:
        started = time.perf_counter()
        try:
            answer = case.send()
            wrong = judge(case, answer, time.perf_counter() - started)
        except (httpx.HTTPError, OSError) as error:
            answer, wrong = Answer(0), f"no answer: {error!r}"
        seconds = time.perf_counter() - started
        failures += wrong is not None
        verdict = "ok  " if wrong is None else "FAIL"
        size = f"{len(answer.body):6,d} B" if answer.body else "       -"
        print(f"{verdict} {answer.status:3d} {seconds * 1000:8.1f} ms {size}  {case.name}"
              + (f"  <- {wrong}" if wrong else ""))  # fmt: skip
    stop.set()
    playing.join()

    checks: list[str] = list(errors)
    own_after = snapshot(setup, own)
    if own_after != own_before:
        checks.append("the probe's own game changed under refused writes")
    statuses = probe.concurrent_corrections()
    if statuses != [200, 409]:
        checks.append(f"two corrections with one version answered {statuses}, not [200, 409]")
    checks += [
        f"the player's {call} answered {status}"
        for call, status, _ in player.answers
        if status != 200
    ]
    checks += check_game(setup, player)
    slowest = max((s for _, _, s in player.answers), default=0.0)
    print(
        f"the player: {len(player.answers)} requests, "
        f"all 200: {all(s == 200 for _, s, _ in player.answers)}, "
        f"slowest {slowest * 1000:.1f} ms; rounds recorded: {len(player.recorded)}; "
        f"two corrections with one version: {statuses}"
    )  # fmt: skip
    if data_dir is not None:
        left = sorted(p.name for p in data_dir.rglob(".incoming-*"))
        print(f"temporary upload files left in the data folder: {len(left)}")
        if left:
            checks.append(f"temporary upload files left: {left}")
    if log is not None:
        failed = server_errors(log)
        print(f"server log: {len(failed)} tracebacks or 5xx answers")
        checks += [f"the server logged: {line}" for line in failed[:5]]
    if pid:
        memory_end = bench_hostile.resident_mb(pid)
        print(f"server memory (resident, private MB): {memory_start} with the networks "
              f"loaded, {memory_end} after")  # fmt: skip
    for check in checks:
        print(f"FAIL {check}")
    passed = failures == 0 and not checks
    verdict = "PASS" if passed else "FAIL"
    print(f"{verdict}: {len(cases) - failures} of {len(cases)} hostile requests answered as "
          f"expected; {len(checks)} problems with the game played meanwhile")  # fmt: skip
    return passed


def _guard(work: Callable[[], None], errors: list[str]) -> None:
    try:
        work()
    except Exception as error:  # the report names it; the probe goes on
        errors.append(f"the player stopped: {error!r}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--url", help="a running service; else one is started")
    parser.add_argument("--quick", action="store_true", help="without the 14 MB / 25 MB bodies")
    args = parser.parse_args(argv)
    if args.url:
        return 0 if run(args.url.rstrip("/"), quick=args.quick, data_dir=None, pid=None) else 1
    with tempfile.TemporaryDirectory(prefix="probe-hostile-") as folder:
        data_dir = Path(folder) / "data"
        log = Path(folder) / "server.log"
        process, base = start_serve(data_dir, log)
        try:
            passed = run(base, quick=args.quick, data_dir=data_dir, pid=process.pid, log=log)
        finally:
            bench_hostile.stop_server(process)
    return 0 if passed else 1


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    sys.exit(main())
