"""The database engine: SQLite by default (WAL, foreign keys on), any SQLAlchemy URL.

With SQLite every transaction begins IMMEDIATE: it takes the write lock up front, so
two requests never both read a version and then race to write it (a deferred SQLite
transaction that reads first and writes later fails outright when another writer got in
between). Transactions stay short; slow work (detection, drawing) happens outside them.
SQLite's own wait for that lock is not fair (a writer that just finished takes it again
while the others sleep), so the service's transactions queue for it in the order they
asked (`WriteTurns`).

The schema is Alembic's (api/migrations): `upgrade_schema` brings a database to the newest
revision on start and for `sushigo db upgrade`.
"""

from __future__ import annotations

import sqlite3
import threading
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

from sqlalchemy import Connection, Engine, create_engine, event, inspect, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError
from sqlalchemy.orm import Session, sessionmaker

BUSY_TIMEOUT_MS = 30_000
MIGRATIONS = Path(__file__).parent / "migrations"
# The first revision: the schema that `Base.metadata.create_all` made before there were
# migrations. A database with those tables and no alembic_version table is stamped with it.
BASELINE = "0001"
BASELINE_TABLES = frozenset(
    {"games", "players", "rounds", "round_events", "collections", "photos", "review_events"}
)
# Any fixed number: PostgreSQL's lock that lets one starting process migrate at a time.
MIGRATION_LOCK = 0x5005_1060


class WriteTurns:
    """SQLite's write lock handed to one process's transactions first come, first served.

    SQLite's busy wait sleeps with backoff while the writer that just committed begins
    again at once: four threads writing as fast as they could got 796, 1, 1 and 1
    transactions in 2 s; in turns, 186-187 each, 0.97x as many in all
    (benchmarks/bench_write_turns.py). Each waiter is handed the turn in the order it asked.
    A turn not handed over in `timeout` s is given up and SQLite's own wait decides.
    """

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self._mutex = threading.Lock()
        self._taken = False
        self._waiting: deque[threading.Event] = deque()

    def take(self) -> bool:
        """Wait for the turn; False where it was not handed over within the timeout."""
        with self._mutex:
            if not self._taken and not self._waiting:
                self._taken = True
                return True
            handed = threading.Event()
            self._waiting.append(handed)
        if handed.wait(self.timeout):
            return True
        with self._mutex:
            if handed.is_set():  # handed over just as the wait ran out
                return True
            self._waiting.remove(handed)
            return False

    def give_back(self) -> None:
        """End the turn: straight to the longest waiter, if any."""
        with self._mutex:
            if self._waiting:
                self._waiting.popleft().set()  # still taken, by the waiter now
            else:
                self._taken = False


# The drivers the service installs (the `postgresql` extra brings psycopg); a bare
# postgresql:// or postgres:// (as hosts hand them out) means psycopg too.
_DRIVERS: Final = frozenset({"sqlite", "sqlite+pysqlite", "postgresql+psycopg"})
_PSYCOPG: Final = ("postgresql", "postgres")


def database_url(url: str) -> URL:
    """`url` as the service opens it; a ValueError naming it where it is no URL or names
    a database or driver the service does not use (it had ended in a traceback)."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        parsed = None
    if parsed is not None and parsed.drivername in _PSYCOPG:
        parsed = parsed.set(drivername="postgresql+psycopg")
    if parsed is None or parsed.drivername not in _DRIVERS:
        raise _unusable(url if parsed is None else parsed.render_as_string(hide_password=True))
    return parsed


def _unusable(shown: str) -> ValueError:
    return ValueError(
        f"{shown!r} is not a database URL this service can use (sqlite:///PATH or "
        "postgresql+psycopg://USER@HOST/NAME)"
    )


@contextmanager
def opening(url: str) -> Iterator[None]:
    """What goes wrong opening the database at `url` (a URL of a database or driver the
    service does not use, a server that does not answer, a file that is no database, a
    driver not installed) as a ValueError naming it in one line, as the command line
    says a user's mistakes."""
    parsed = database_url(url)
    shown = parsed.render_as_string(hide_password=True)
    try:
        yield
    except (ArgumentError, NoSuchModuleError):
        raise _unusable(shown) from None
    except ModuleNotFoundError as error:
        if error.name != "psycopg":
            raise
        raise ValueError(
            f"{shown} needs the PostgreSQL driver: pip install -e '.[postgresql]'"
        ) from None
    except DBAPIError as error:
        reason = str(error.orig).strip().splitlines()[0] if error.orig else str(error)
        raise ValueError(f"cannot use the database at {shown}: {reason}") from None


def make_engine(url: str, *, take_turns: bool = True) -> Engine:
    """An engine for `url`; SQLite gets its pragmas and IMMEDIATE transactions, which
    take their turns in order (`WriteTurns`; without `take_turns`, as SQLite's busy wait
    lets them: benchmarks/bench_write_turns.py compares the two)."""
    parsed = database_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_engine(parsed, pool_pre_ping=True)
    turns = WriteTurns(BUSY_TIMEOUT_MS / 1000) if take_turns else None
    engine = create_engine(
        parsed,
        connect_args={
            "check_same_thread": False,
            "timeout": BUSY_TIMEOUT_MS / 1000,
            "factory": _connection_taking_turns(turns),
        },
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy, not the driver, say when a transaction begins (see "begin").
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            if parsed.database not in (None, "", ":memory:"):
                cursor.execute("PRAGMA journal_mode=WAL")
                cursor.execute("PRAGMA synchronous=NORMAL")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        connection.connection.dbapi_connection.begin_immediate()

    return engine


def _connection_taking_turns(turns: WriteTurns | None) -> type[sqlite3.Connection]:
    """sqlite3's connection whose transactions take `turns` (if any): begun by `begin_immediate`,
    the turn given back once SQLite's commit or rollback is done (the pool's reset and a
    dropped connection end a transaction the same way), so the next in line finds the
    lock free."""

    class TurnTakingConnection(sqlite3.Connection):
        _holds_turn = False

        def begin_immediate(self) -> None:
            self._holds_turn = turns is not None and turns.take()
            try:
                self.execute("BEGIN IMMEDIATE")
            except BaseException:
                self._end_turn()
                raise

        def commit(self) -> None:
            try:
                super().commit()
            finally:
                self._end_turn()

        def rollback(self) -> None:
            try:
                super().rollback()
            finally:
                self._end_turn()

        def close(self) -> None:
            try:
                super().close()
            finally:
                self._end_turn()

        def _end_turn(self) -> None:
            if self._holds_turn and turns is not None:
                self._holds_turn = False
                turns.give_back()

    return TurnTakingConnection


def alembic_config(connection: Connection | None = None) -> Any:
    """Alembic's configuration for the migrations shipped in api/migrations/; with a
    connection, migrations run on it (env.py)."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def upgrade_schema(engine: Engine) -> str:
    """Bring the database up to the newest revision (idempotent); return that revision.

    An empty database gets every migration. One written before there were migrations
    (the tables, no alembic_version) is stamped as the baseline first: its rows are kept.
    It all happens in one transaction, so a failed migration changes nothing.
    """
    from alembic import command
    from alembic.runtime.migration import MigrationContext

    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            # Two processes starting at once: the second waits, then finds it done.
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config = alembic_config(connection)
        tables = set(inspect(connection).get_table_names())
        if "alembic_version" not in tables and tables & BASELINE_TABLES:
            missing = BASELINE_TABLES - tables
            if missing:
                raise RuntimeError(
                    "the database has some of the service's tables but not "
                    f"{', '.join(sorted(missing))}, and no alembic_version: not upgrading it"
                )
            command.stamp(config, BASELINE)
        command.upgrade(config, "head")
        revision = MigrationContext.configure(connection).get_current_revision()
    return str(revision)


def make_sessionmaker(engine: Engine) -> sessionmaker[Session]:
    # expire_on_commit=False: a route may commit, then keep reading what it loaded
    # while it does slow work outside any transaction.
    return sessionmaker(bind=engine, expire_on_commit=False)
