"""The database schema is versioned (api/migrations): a database written by the release
before migrations (tables made by `Base.metadata.create_all`, no alembic_version) opens
under this one, is stamped at the baseline and upgraded, and keeps every row; an empty
database upgraded to head is exactly what the models describe; a second start changes
nothing. Each test runs over SQLite and PostgreSQL."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from fastapi.testclient import TestClient
from sqlalchemy import (
    JSON,
    Column,
    Engine,
    Integer,
    MetaData,
    Table,
    event,
    insert,
    inspect,
    select,
)
from sqlalchemy.orm import Session

from api.cli import main
from api.database import BASELINE, alembic_config, make_engine, upgrade_schema
from api.main import create_app
from api.models import Base, Collection, Game, Player, ReviewEvent, Round
from api.settings import Settings

pytestmark = pytest.mark.both_databases

TOKEN = "an-edit-token-from-the-old-release"
GAME = "oldgame12345"


def head() -> str:
    revision = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert revision is not None
    return revision


@contextmanager
def engine_for(settings: Settings) -> Iterator[Engine]:
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    engine = make_engine(settings.resolved_database_url)
    try:
        yield engine
    finally:
        engine.dispose()


def build_previous_release(engine: Engine) -> None:
    """The schema as the release before migrations made it on start (the baseline's
    tables, no alembic_version), and a game in it."""
    with engine.begin() as connection:
        config = alembic_config(connection)
        command.upgrade(config, BASELINE)
        connection.exec_driver_sql("DROP TABLE alembic_version")
    with Session(engine) as session:
        game = Game(
            id=GAME,
            title="Friday",
            token_hash=hashlib.sha256(TOKEN.encode()).hexdigest(),
            rounds=3,
            pass_both_ways=False,
            version=0,
        )
        game.players = [Player(seat=1, name="Ana"), Player(seat=2, name="Ben")]
        for number in (1, 2, 3):
            row = Round(number=number, status="open", version=0)
            row.collections = [Collection(player=p, version=0) for p in game.players]
            game.round_rows.append(row)
        session.add(game)
        ana, ben = game.round_rows[0].collections
        tally = {"tempura": 2, "sashimi": 0, "dumpling": 0, "maki_1": 0, "maki_2": 0,
                 "maki_3": 0, "egg": 0, "salmon": 0, "squid": 0, "egg_on_wasabi": 0,
                 "salmon_on_wasabi": 0, "squid_on_wasabi": 0, "wasabi": 0, "chopsticks": 0,
                 "pudding": 0}  # fmt: skip
        ana.events = [
            ReviewEvent(seq=1, kind="set_counts", payload={"counts": {"tempura": 2}}),
            ReviewEvent(seq=2, kind="confirm", payload={"tally": tally}, author="Ana"),
        ]
        ana.version = 2
        ben.events = [ReviewEvent(seq=1, kind="set_counts", payload={"counts": {"sashimi": 3}})]
        ben.version = 1
        game.round_rows[0].version = 3
        session.commit()
        # A photo row in a round nobody reads here: it must come through untouched. Written
        # to the baseline's table as it is, which lacks the columns added since.
        collection = game.round_rows[2].collections[1].id
    photos = Table("photos", MetaData(), autoload_with=engine)
    with engine.begin() as connection:
        connection.execute(
            insert(photos).values(
                collection_id=collection, sha256="ab" * 32, media_type="image/jpeg",
                size_bytes=1234, width=640, height=480, warnings=["a warning of then"],
                detections=[{"label": "egg", "confidence": 0.9, "box": [1, 2, 30, 40]}],
                model={"name": "old"}, author="Ben", created_at=datetime.now(UTC),
            )
        )  # fmt: skip


def rows(engine: Engine) -> dict[str, list[dict[str, Any]]]:
    """Every row of every table of the models, in primary-key order, as the database has
    them (the columns it has)."""
    names = [table.name for table in Base.metadata.sorted_tables]
    tables = MetaData()
    tables.reflect(engine, only=names)
    found: dict[str, list[dict[str, Any]]] = {}
    with engine.connect() as connection:
        for name in names:
            table = tables.tables[name]
            query = select(table).order_by(*table.primary_key.columns)
            found[name] = [dict(row._mapping) for row in connection.execute(query)]
    return found


def kept(before: dict[str, list[dict[str, Any]]], after: dict[str, list[dict[str, Any]]]) -> bool:
    """Whether every row of `before` is in `after` with every value it had (columns added
    since may hold their defaults)."""
    return all(
        len(after[name]) == len(old)
        and all(row.items() <= new.items() for row, new in zip(old, after[name], strict=True))
        for name, old in before.items()
    )


def stamped(engine: Engine) -> list[str]:
    with engine.connect() as connection:
        if "alembic_version" not in inspect(connection).get_table_names():
            return []
        return list(connection.exec_driver_sql("SELECT version_num FROM alembic_version").scalars())


def schema_differences(engine: Engine, metadata: MetaData = Base.metadata) -> list[Any]:
    with engine.connect() as connection:
        return list(compare_metadata(MigrationContext.configure(connection), metadata))


def test_a_database_of_the_previous_release_is_stamped_and_kept(settings: Settings) -> None:
    with engine_for(settings) as engine:
        build_previous_release(engine)
        assert stamped(engine) == []
        before = rows(engine)
    assert len(before["players"]) == 2 and len(before["collections"]) == 6
    assert len(before["review_events"]) == 3 and len(before["photos"]) == 1

    app = create_app(settings)  # the new release starts on it
    with engine_for(settings) as engine:
        assert stamped(engine) == [head()]
        after = rows(engine)
        assert kept(before, after)
        assert schema_differences(engine) == []
    # The photo of then keeps its warnings as they were shown, and has no notes.
    assert [(p["warnings"], p["notes"]) for p in after["photos"]] == [(["a warning of then"], [])]

    headers = {"Authorization": f"Bearer {TOKEN}"}
    url = f"/api/v1/games/{GAME}"
    with TestClient(app) as client:
        game = client.get(url).json()
        assert game["title"] == "Friday"
        assert [p["name"] for p in game["players"]] == ["Ana", "Ben"]
        ana = client.get(f"{url}/rounds/1/players/1").json()
        assert ana["status"] == "confirmed" and ana["tally"]["tempura"] == 2
        ben = client.get(f"{url}/rounds/1/players/2").json()
        assert ben["status"] != "confirmed" and ben["tally"]["sashimi"] == 3
        assert ben["version"] == 1
        # The old token still edits, and the game goes on: Ben confirms, round 1 is recorded.
        answer = client.post(
            f"{url}/rounds/1/players/2/confirm", json={"version": 1}, headers=headers
        )
        assert answer.status_code == 200, answer.text
        version = client.get(f"{url}/rounds/1").json()["version"]
        answer = client.post(f"{url}/rounds/1/record", json={"version": version}, headers=headers)
        assert answer.status_code == 200, answer.text
        standings = client.get(f"{url}/standings").json()
        assert [p["total"] for p in standings["players"]] == [5, 10]
        assert standings["rounds_played"] == 1


def test_the_command_upgrades_a_previous_release_database(
    settings: Settings, database_url: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    with engine_for(settings) as engine:
        build_previous_release(engine)
        before = rows(engine)
    argv = ["db", "upgrade", "--data-dir", str(settings.data_dir)]
    if database_url:
        argv += ["--database-url", database_url]
    assert main(argv) == 0
    assert capsys.readouterr().out.strip() == f"database at revision {head()} (head)"
    with engine_for(settings) as engine:
        assert stamped(engine) == [head()]
        assert kept(before, rows(engine))


def test_an_empty_database_upgraded_to_head_is_what_the_models_say(settings: Settings) -> None:
    with engine_for(settings) as engine:
        assert upgrade_schema(engine) == head()
        assert stamped(engine) == [head()]
        assert schema_differences(engine) == []
        # The comparison does see a difference where there is one.
        more = MetaData()
        for table in Base.metadata.sorted_tables:
            table.to_metadata(more)
        Table("extra", more, Column("id", Integer, primary_key=True), Column("x", JSON))
        more.tables["games"].append_column(Column("colour", Integer))
        kinds = {difference[0] for difference in schema_differences(engine, more)}
        assert kinds == {"add_table", "add_column"}


def test_a_second_start_changes_nothing(settings: Settings) -> None:
    with TestClient(create_app(settings)) as client:
        created = client.post("/api/v1/games", json={"players": ["Ana", "Ben"]})
        assert created.status_code == 201, created.text
    with engine_for(settings) as engine:
        before = rows(engine)
        version = stamped(engine)
    assert version == [head()] and len(before["games"]) == 1

    with TestClient(create_app(settings)) as client:
        game = client.get(f"/api/v1/games/{created.json()['id']}")
        assert game.status_code == 200, game.text
    with engine_for(settings) as engine:
        assert stamped(engine) == version
        assert rows(engine) == before
        # And upgrading again issues no statement that writes or alters anything.
        statements: list[str] = []
        event.listen(
            engine,
            "before_cursor_execute",
            lambda _c, _cur, statement, *_: statements.append(statement),
        )
        assert upgrade_schema(engine) == head()
        assert statements, "the listener saw the upgrade's queries"
        writes = ("CREATE", "ALTER", "DROP", "INSERT", "UPDATE", "DELETE")
        assert [s for s in statements if s.lstrip().upper().startswith(writes)] == []


def test_a_database_with_only_some_old_tables_is_refused(settings: Settings) -> None:
    with engine_for(settings) as engine:
        Base.metadata.tables["games"].create(engine)
        with pytest.raises(RuntimeError, match=r"not collections, .*review_events"):
            upgrade_schema(engine)
        assert stamped(engine) == []
