"""The database engine: SQLite by default (WAL, foreign keys on), any SQLAlchemy URL.

With SQLite every transaction begins IMMEDIATE: it takes the write lock up front, so
two requests never both read a version and then race to write it (a deferred SQLite
transaction that reads first and writes later fails outright when another writer got in
between). Transactions stay short; slow work (detection, drawing) happens outside them.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

from api.models import Base

BUSY_TIMEOUT_MS = 30_000


def make_engine(url: str) -> Engine:
    """An engine for `url`; SQLite gets its pragmas and IMMEDIATE transactions."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True)
    engine = create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": BUSY_TIMEOUT_MS / 1000},
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
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def create_schema(engine: Engine) -> None:
    """Create the tables that do not exist yet (idempotent)."""
    Base.metadata.create_all(engine)


def make_sessionmaker(engine: Engine) -> sessionmaker[Session]:
    # expire_on_commit=False: a route may commit, then keep reading what it loaded
    # while it does slow work outside any transaction.
    return sessionmaker(bind=engine, expire_on_commit=False)
