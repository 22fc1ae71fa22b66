"""SQLite's write lock under contention: writes per writer with the service's turns
(api.database.WriteTurns) and with SQLite's busy wait alone, in one run.

    python benchmarks/bench_write_turns.py [--writers 4] [--seconds 2] [--hold-ms 2]

Each writer runs transactions as fast as it can for `--seconds`, each holding the lock
`--hold-ms` as a route's work inside its transaction would; the two ways alternate
three times, so that their ratio holds on a noisy machine.
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
from pathlib import Path

from sqlalchemy import text

from api.database import make_engine


def writes_per_writer(
    folder: Path, take_turns: bool, writers: int, seconds: float, hold: float
) -> list[int]:
    path = folder / f"bench-{take_turns}-{time.monotonic_ns()}.db"
    engine = make_engine(f"sqlite:///{path}", take_turns=take_turns)
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE writes (writer INTEGER)"))
    counts = [0] * writers
    stop = time.monotonic() + seconds

    def write(writer: int) -> None:
        while time.monotonic() < stop:
            with engine.begin() as connection:
                connection.execute(text("INSERT INTO writes VALUES (:w)"), {"w": writer})
                connection.execute(text("SELECT count(*) FROM writes")).scalar()
                time.sleep(hold)
            counts[writer] += 1

    threads = [threading.Thread(target=write, args=(w,)) for w in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    engine.dispose()
    return counts


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--hold-ms", type=float, default=2.0)
    args = parser.parse_args()
    totals = {True: 0, False: 0}
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(3):
            for take_turns in (True, False):
                counts = writes_per_writer(
                    Path(folder), take_turns, args.writers, args.seconds, args.hold_ms / 1000
                )
                totals[take_turns] += sum(counts)
                way = "in turns      " if take_turns else "busy wait only"
                print(
                    f"{way} writes per writer {counts}  fewest/most {min(counts) / max(counts):.2f}"
                )
    print(f"all writes, in turns / busy wait only: {totals[True] / totals[False]:.2f}x")


if __name__ == "__main__":
    main()
