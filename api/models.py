"""Tables: games, their players and rounds, each player's collection per round, the
photos taken of it, and the events that reviewed it.

Nothing a person entered is ever overwritten: a photo's detections are stored as the
detector returned them, every correction is a new `ReviewEvent`, and every record or
re-opening of a round is a new `RoundEvent`. The current state of a collection is
replayed from its events (api/review.py). The `version` columns count writes and back
optimistic concurrency: a write names the version it saw and fails if it moved on.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, list[Any]: JSON}


class Game(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    title: Mapped[str | None] = mapped_column(String(120))
    token_hash: Mapped[str] = mapped_column(String(64))
    rounds: Mapped[int] = mapped_column(Integer)
    pass_both_ways: Mapped[bool] = mapped_column(default=False)
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    players: Mapped[list[Player]] = relationship(
        back_populates="game", order_by="Player.seat", cascade="all, delete-orphan"
    )
    round_rows: Mapped[list[Round]] = relationship(
        back_populates="game", order_by="Round.number", cascade="all, delete-orphan"
    )


class Player(Base):
    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)  # 1-based, the order given at creation
    name: Mapped[str] = mapped_column(String(40))

    game: Mapped[Game] = relationship(back_populates="players")


class Round(Base):
    __tablename__ = "rounds"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)  # 1-based
    # "open" (never recorded), "recorded", or "reopened" (recorded, being fixed).
    status: Mapped[str] = mapped_column(String(16), default="open")
    # Moves on every write to the round or to any collection in it.
    version: Mapped[int] = mapped_column(Integer, default=0)

    game: Mapped[Game] = relationship(back_populates="round_rows")
    collections: Mapped[list[Collection]] = relationship(
        back_populates="round", cascade="all, delete-orphan"
    )
    events: Mapped[list[RoundEvent]] = relationship(
        back_populates="round", order_by="RoundEvent.id", cascade="all, delete-orphan"
    )


class RoundEvent(Base):
    """A round recorded (with the tallies and scores of that moment) or re-opened."""

    __tablename__ = "round_events"

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(16))  # "record" or "reopen"
    payload: Mapped[dict[str, Any]] = mapped_column(default=dict)
    author: Mapped[str | None] = mapped_column(String(60))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    round: Mapped[Round] = relationship(back_populates="events")


class Collection(Base):
    """One player's face-up cards in one round: photos, review events, confirmation."""

    __tablename__ = "collections"
    __table_args__ = (UniqueConstraint("round_id", "player_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    version: Mapped[int] = mapped_column(Integer, default=0)  # = the last event's seq

    round: Mapped[Round] = relationship(back_populates="collections")
    player: Mapped[Player] = relationship()
    events: Mapped[list[ReviewEvent]] = relationship(
        back_populates="collection", order_by="ReviewEvent.seq", cascade="all, delete-orphan"
    )
    photos: Mapped[list[Photo]] = relationship(
        back_populates="collection", order_by="Photo.id", cascade="all, delete-orphan"
    )


class Photo(Base):
    """An uploaded photo: the file (by content hash) and what the detector found in it."""

    __tablename__ = "photos"

    id: Mapped[int] = mapped_column(primary_key=True)
    collection_id: Mapped[int] = mapped_column(
        ForeignKey("collections.id", ondelete="CASCADE"), index=True
    )
    sha256: Mapped[str] = mapped_column(String(64), index=True)
    media_type: Mapped[str] = mapped_column(String(40))
    size_bytes: Mapped[int] = mapped_column(Integer)
    width: Mapped[int] = mapped_column(Integer)  # upright, original pixels
    height: Mapped[int] = mapped_column(Integer)
    # As the detector returned them, in original pixels: [{"label","confidence","box"}].
    detections: Mapped[list[Any]] = mapped_column(default=list)
    # What reading it told the reviewer: warnings ask for a check (words, or words, the
    # boxes they name and their code: api.review.StoredWarning), notes only tell
    # (vision.notices.NOTE_CODES).
    warnings: Mapped[list[Any]] = mapped_column(default=list)
    notes: Mapped[list[Any]] = mapped_column(default=list, server_default="[]")
    model: Mapped[dict[str, Any]] = mapped_column(default=dict)
    author: Mapped[str | None] = mapped_column(String(60))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    collection: Mapped[Collection] = relationship(back_populates="photos")


class ReviewEvent(Base):
    """One step of a collection's review: upload, relabel, delete, add, set_counts, undo,
    confirm. `payload` holds what the step needs to be replayed."""

    __tablename__ = "review_events"
    __table_args__ = (UniqueConstraint("collection_id", "seq"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    collection_id: Mapped[int] = mapped_column(
        ForeignKey("collections.id", ondelete="CASCADE"), index=True
    )
    seq: Mapped[int] = mapped_column(Integer)  # 1, 2, ... within the collection
    kind: Mapped[str] = mapped_column(String(16))
    payload: Mapped[dict[str, Any]] = mapped_column(default=dict)
    author: Mapped[str | None] = mapped_column(String(60))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    collection: Mapped[Collection] = relationship(back_populates="events")
