"""The baseline: the schema as `Base.metadata.create_all` made it before there were
migrations (a database from then has these tables and is stamped 0001, see
api/database.py's upgrade_schema). Dialect-neutral, so that SQLite and PostgreSQL get
exactly what create_all gave them.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _created_at() -> sa.Column[object]:
    return sa.Column("created_at", sa.DateTime(timezone=True), nullable=False)


def _cascade(column: str, target: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint([column], [target], ondelete="CASCADE")


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("title", sa.String(length=120), nullable=True),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("pass_both_ways", sa.Boolean(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        _created_at(),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "seat"),
        _cascade("game_id", "games.id"),
    )
    op.create_index("ix_players_game_id", "players", ["game_id"])
    op.create_table(
        "rounds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "number"),
        _cascade("game_id", "games.id"),
    )
    op.create_index("ix_rounds_game_id", "rounds", ["game_id"])
    op.create_table(
        "collections",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("round_id", "player_id"),
        _cascade("round_id", "rounds.id"),
        _cascade("player_id", "players.id"),
    )
    op.create_index("ix_collections_round_id", "collections", ["round_id"])
    op.create_table(
        "round_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("author", sa.String(length=60), nullable=True),
        _created_at(),
        sa.PrimaryKeyConstraint("id"),
        _cascade("round_id", "rounds.id"),
    )
    op.create_index("ix_round_events_round_id", "round_events", ["round_id"])
    op.create_table(
        "photos",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("collection_id", sa.Integer(), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("media_type", sa.String(length=40), nullable=False),
        sa.Column("size_bytes", sa.Integer(), nullable=False),
        sa.Column("width", sa.Integer(), nullable=False),
        sa.Column("height", sa.Integer(), nullable=False),
        sa.Column("detections", sa.JSON(), nullable=False),
        sa.Column("warnings", sa.JSON(), nullable=False),
        sa.Column("model", sa.JSON(), nullable=False),
        sa.Column("author", sa.String(length=60), nullable=True),
        _created_at(),
        sa.PrimaryKeyConstraint("id"),
        _cascade("collection_id", "collections.id"),
    )
    op.create_index("ix_photos_collection_id", "photos", ["collection_id"])
    op.create_index("ix_photos_sha256", "photos", ["sha256"])
    op.create_table(
        "review_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("collection_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("author", sa.String(length=60), nullable=True),
        _created_at(),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("collection_id", "seq"),
        _cascade("collection_id", "collections.id"),
    )
    op.create_index("ix_review_events_collection_id", "review_events", ["collection_id"])


def downgrade() -> None:
    for table in (
        "review_events", "photos", "round_events", "collections", "rounds", "players", "games"
    ):  # fmt: skip
        op.drop_table(table)  # their indexes go with them
