"""Alembic's environment: migrations run on the connection that api.database.upgrade_schema
passes in, or (the `alembic` command line, see README.md here) on the service's own
database from its settings."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from api.models import Base

config = context.config


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is None:
        from api.database import make_engine
        from api.settings import get_settings

        url = config.get_main_option("sqlalchemy.url") or get_settings().resolved_database_url
        engine = make_engine(url)
        try:
            with engine.begin() as connection:
                _migrate(connection)
        finally:
            engine.dispose()
    else:
        _migrate(connection)


def _migrate(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        # SQLite alters a table by copying it: let autogenerate write that form.
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    raise SystemExit("offline (--sql) migrations are not supported: run them on a database")
run()
