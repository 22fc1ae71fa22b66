"""SQLite's write lock taken in turns: the service's transactions get it in the order they
asked (api.database.WriteTurns), not by SQLite's busy wait, where one writer kept it while
three others got one transaction each in 2 s."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import Engine, text

from api.database import WriteTurns, make_engine

SEATS = 4


@pytest.fixture
def engine(tmp_path: Path) -> Engine:
    engine = make_engine(f"sqlite:///{tmp_path / 'turns.db'}")
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE writes (seat INTEGER)"))
    yield engine
    engine.dispose()


def test_turns_are_handed_over_in_the_order_asked() -> None:
    turns = WriteTurns(timeout=10)
    assert turns.take()
    order: list[int] = []

    def wait_for_turn(seat: int) -> None:
        assert turns.take()
        order.append(seat)
        turns.give_back()

    waiters = []
    for seat in range(SEATS):
        waiter = threading.Thread(target=wait_for_turn, args=(seat,))
        waiter.start()
        waiters.append(waiter)
        deadline = time.monotonic() + 5
        while len(turns._waiting) <= seat and time.monotonic() < deadline:
            time.sleep(0.001)  # each asks only once the one before it waits
    turns.give_back()
    for waiter in waiters:
        waiter.join(timeout=5)
    assert order == list(range(SEATS))
    assert turns.take(), "the last one gave the turn back"


def test_a_turn_not_handed_over_in_time_is_given_up() -> None:
    turns = WriteTurns(timeout=0.05)
    assert turns.take()
    assert not turns.take()
    turns.give_back()
    assert turns.take(), "the waiter that gave up is no longer in line"


def test_every_writer_gets_its_share(engine: Engine) -> None:
    """Four threads writing as fast as they can until 400 writes are in, each holding the
    lock a millisecond as a route's work would: each gets at least a tenth of them (a
    fair share is a quarter; by SQLite's busy wait alone one got them nearly all)."""
    counts = [0] * SEATS
    total = 400

    def write(seat: int) -> None:
        while sum(counts) < total:
            with engine.begin() as connection:
                connection.execute(text("INSERT INTO writes VALUES (:seat)"), {"seat": seat})
                connection.execute(text("SELECT count(*) FROM writes")).scalar()
                time.sleep(0.001)
            counts[seat] += 1

    writers = [threading.Thread(target=write, args=(seat,)) for seat in range(SEATS)]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(timeout=120)
    assert min(counts) >= total // 10, counts


def _begins_within(engine: Engine, seconds: float) -> bool:
    """Whether another thread's transaction begins within `seconds`."""
    began = threading.Event()

    def begin() -> None:
        with engine.begin() as connection:
            connection.execute(text("SELECT 1"))
            began.set()

    threading.Thread(target=begin, daemon=True).start()
    return began.wait(seconds)


def test_a_failed_transaction_gives_its_turn_back(engine: Engine) -> None:
    with pytest.raises(ZeroDivisionError), engine.begin() as connection:
        connection.execute(text("INSERT INTO writes VALUES (1)"))
        _ = 1 / 0
    assert _begins_within(engine, 5)


def test_a_connection_closed_in_its_transaction_gives_its_turn_back(engine: Engine) -> None:
    connection = engine.connect()
    connection.begin()
    connection.execute(text("INSERT INTO writes VALUES (1)"))
    assert not _begins_within(engine, 0.2), "a transaction in progress holds the turn"
    connection.close()
    assert _begins_within(engine, 5)


def test_a_dropped_connection_gives_its_turn_back(engine: Engine) -> None:
    connection = engine.connect()
    connection.begin()
    connection.execute(text("INSERT INTO writes VALUES (1)"))
    connection.invalidate()
    assert _begins_within(engine, 5)
    connection.close()


def test_a_view_waiting_on_the_database_holds_up_no_other_view(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A collection's view looks up the game's other photos (same_photo) when asked: one
    view waiting there for its write turn must not hold up another's lookup. With
    functools.cached_property (one lock for every view on Python 3.11) it did, and three
    phones uploading at once stalled 60 s, then failed with "database is locked"."""
    from api import collections

    entered, release = threading.Event(), threading.Event()

    def lookup(game: object, collection: object, photo: object) -> list[object]:
        if collection == "waits":
            entered.set()
            release.wait(10)
        return []

    monkeypatch.setattr(collections, "_same_photo", lookup)
    views = [
        collections.CollectionView(None, None, name, None, None, None)  # type: ignore[arg-type]
        for name in ("waits", "asks")
    ]
    waiting = threading.Thread(target=lambda: views[0].same_photo)
    waiting.start()
    try:
        assert entered.wait(10)
        answered = threading.Event()
        asking = threading.Thread(target=lambda: (views[1].same_photo, answered.set()))
        asking.start()
        assert answered.wait(5), "the second view's lookup waited for the first's"
    finally:
        release.set()
        waiting.join()
    asking.join()
    assert views[1].same_photo == [] and views[0].same_photo == []
