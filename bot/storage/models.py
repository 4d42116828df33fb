"""SQLAlchemy 2 declarative models: the database schema of mafia-bot.

The schema works on SQLite and PostgreSQL alike. Telegram chat and user ids do not
fit in 32 bits, so every one of them is ``BIGINT``. Autoincrementing primary keys are
``BIGINT`` on PostgreSQL and ``INTEGER`` on SQLite (only ``INTEGER PRIMARY KEY`` is a
rowid alias there). Datetimes are stored in UTC and come back timezone-aware.

Changing anything here needs an Alembic revision in ``bot/migrations/versions``
(``python -m bot.migrations revision --autogenerate -m "..."``);
``tests/test_migrations.py`` fails while models and migrations disagree.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    UniqueConstraint,
    text,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

__all__ = [
    "ACTIVE_STATUSES",
    "GAME_STATUSES",
    "Base",
    "ChatSettingsRow",
    "Game",
    "GameDeletion",
    "GameSummaryRow",
    "NextGameSubscription",
    "PlayerResultRow",
    "RatingRow",
    "RoleStatRow",
    "GameLogEntry",
    "GamePlayer",
    "UTCDateTime",
    "utcnow",
]

#: Every value of ``games.status``.
GAME_STATUSES = ("lobby", "running", "finished", "cancelled")
#: Statuses of a game that still occupies its chat (at most one per chat).
ACTIVE_STATUSES = ("lobby", "running")

# Stable constraint names, so migrations can refer to them on every dialect.
NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

#: Autoincrementing primary key type: BIGINT, INTEGER on SQLite (rowid alias).
AutoIdType = BigInteger().with_variant(Integer, "sqlite")


def utcnow() -> datetime:
    """The current time as a timezone-aware UTC datetime."""
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """``TIMESTAMP WITH TIME ZONE`` that always round-trips as an aware UTC datetime.

    SQLite has no time zones: values are stored as naive UTC text and the UTC zone is
    re-attached on load. Binding a naive datetime raises ``ValueError``.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given; use an aware one, e.g. datetime.now(UTC)")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


class Base(DeclarativeBase):
    #: every model here is mapped to one plain Table (no joined or aliased mappings), so the
    #: queries may use ``Model.__table__`` as the Table it is (DeclarativeBase says FromClause)
    if TYPE_CHECKING:
        __table__: ClassVar[Table]
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map = {
        datetime: UTCDateTime(),
        dict[str, Any]: JSON(),
        list[dict[str, Any]]: JSON(),
    }


class Game(Base):
    """One game in one chat, from lobby to its end. Its state is the replay of its log."""

    __tablename__ = "games"
    __table_args__ = (
        # At most one lobby/running game per chat, enforced by the database so that
        # two concurrent /newgame in one chat cannot both succeed.
        Index(
            "uq_games_active_chat",
            "chat_id",
            unique=True,
            sqlite_where=text("status IN ('lobby', 'running')"),
            postgresql_where=text("status IN ('lobby', 'running')"),
        ),
        {"sqlite_autoincrement": True},  # never reuse the id of a deleted game
    )

    id: Mapped[int] = mapped_column(AutoIdType, primary_key=True, autoincrement=True)
    chat_id: Mapped[int] = mapped_column(BigInteger, index=True)
    ruleset: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16), default="lobby")
    locale: Mapped[str] = mapped_column(String(8))
    settings: Mapped[dict[str, Any]] = mapped_column(default=dict)
    seed: Mapped[int] = mapped_column(BigInteger)
    creator_id: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]
    winner: Mapped[str | None] = mapped_column(String(16))
    timer_seq: Mapped[int | None] = mapped_column(Integer)
    deadline_at: Mapped[datetime | None]
    ui: Mapped[dict[str, Any]] = mapped_column(default=dict)
    log_len: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))


class GameLogEntry(Base):
    """One applied command of a game and the events it produced; ``seq`` counts from 0."""

    __tablename__ = "game_log"
    __table_args__ = (UniqueConstraint("game_id", "seq"), {"sqlite_autoincrement": True})

    id: Mapped[int] = mapped_column(AutoIdType, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(AutoIdType, ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    command: Mapped[dict[str, Any]]
    events: Mapped[list[dict[str, Any]]]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    #: the Telegram ``update_id`` whose handling applied this command (None: a timer, recovery,
    #: a test); an update delivered again after its worker died is not applied twice
    #: (issue 12, ``GameService.execute``)
    update_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


class GamePlayer(Base):
    """A user who joined a game, with their display name, seat (once dealt) and join time."""

    __tablename__ = "game_players"

    game_id: Mapped[int] = mapped_column(
        AutoIdType, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False, index=True)
    seat: Mapped[int | None] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(256))
    joined_at: Mapped[datetime] = mapped_column(default=utcnow)


class ActivePlayer(Base):
    """A user in a lobby or running game (a player or its host): one row per user, so a user is
    in at most one active game -- the primary key holds it across every worker (issue 12). Taken
    by a ``Join``/``BecomeHost`` stored with its command, dropped by a ``Leave`` and when the
    game ends (``bot/storage/group_commit.py``)."""

    __tablename__ = "active_players"

    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    game_id: Mapped[int] = mapped_column(
        AutoIdType, ForeignKey("games.id", ondelete="CASCADE"), index=True)


class ShardEpoch(Base):
    """The fencing token of a shard (issue 19): its epoch moves on each time a worker takes
    the shard over, and every write of a game of the shard checks it in the same transaction
    (``bot/storage/fencing.py``), so a worker that lost the shard writes nothing more."""

    __tablename__ = "shard_epochs"

    shard: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    epoch: Mapped[int] = mapped_column(BigInteger)


class ChatSettingsRow(Base):
    """Per-chat preferences: chosen locale (None = default) and a dict of game settings."""

    __tablename__ = "chat_settings"

    chat_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    locale: Mapped[str | None] = mapped_column(String(8))
    data: Mapped[dict[str, Any]] = mapped_column(default=dict)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


# --- history (bot/history): rows derived from finished games' logs, kept for fast queries -------


class GameSummaryRow(Base):
    """A finished game as the history list shows it (written when the game ends)."""

    __tablename__ = "game_summaries"
    __table_args__ = (Index("ix_game_summaries_history", "chat_id", "finished_at", "game_id"),)

    game_id: Mapped[int] = mapped_column(
        AutoIdType, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    chat_id: Mapped[int] = mapped_column(BigInteger)
    title: Mapped[str] = mapped_column(String(256), default="")
    ruleset: Mapped[str] = mapped_column(String(32))
    winner: Mapped[str | None] = mapped_column(String(16))
    players: Mapped[int] = mapped_column(Integer)
    days: Mapped[int] = mapped_column(Integer)
    duration: Mapped[int | None] = mapped_column(Integer)  # seconds
    finished_at: Mapped[datetime]


class PlayerResultRow(Base):
    """One player's result in one finished game (/stats, /me; the rating is rebuilt from it)."""

    __tablename__ = "player_results"
    __table_args__ = (
        Index("ix_player_results_chat", "chat_id", "user_id"),
        Index("ix_player_results_user", "user_id"),
    )

    game_id: Mapped[int] = mapped_column(
        AutoIdType, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    chat_id: Mapped[int] = mapped_column(BigInteger)
    name: Mapped[str] = mapped_column(String(256))
    seat: Mapped[int] = mapped_column(Integer)
    role: Mapped[str] = mapped_column(String(16))
    team: Mapped[str] = mapped_column(String(16))
    won: Mapped[bool] = mapped_column(Boolean)
    survived: Mapped[bool] = mapped_column(Boolean)
    fouls: Mapped[int] = mapped_column(Integer, default=0)
    finished_at: Mapped[datetime]


class RatingRow(Base):
    """A player's Elo rating on one team's track in one chat (see bot/history/stats.py)."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_user", "user_id"),)

    chat_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    team: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(256))
    rating: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class RoleStatRow(Base):
    """A player's totals in one role in one chat (kept with the ratings; rebuilt from
    ``player_results``), so /stats and /me never scan every result of a big group."""

    __tablename__ = "role_stats"
    __table_args__ = (Index("ix_role_stats_user", "user_id"),)

    chat_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    team: Mapped[str] = mapped_column(String(16), primary_key=True)
    role: Mapped[str] = mapped_column(String(16), primary_key=True)
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
    survived: Mapped[int] = mapped_column(Integer)
    fouls: Mapped[int] = mapped_column(Integer)


class GameDeletion(Base):
    """A game a group admin removed from the history (its log is kept, never shown)."""

    __tablename__ = "game_deletions"

    game_id: Mapped[int] = mapped_column(
        AutoIdType, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    chat_id: Mapped[int] = mapped_column(BigInteger)
    deleted_by: Mapped[int | None] = mapped_column(BigInteger)
    deleted_at: Mapped[datetime] = mapped_column(default=utcnow)


class NextGameSubscription(Base):
    """/nextgame: DM ``user_id`` when the next lobby opens in ``chat_id``."""

    __tablename__ = "next_game_subscriptions"

    chat_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    title: Mapped[str] = mapped_column(String(256), default="")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


# --- score sheets (bot/services/sheets.py): the judge's sheet of a finished sport game ---------------


class ScoreSheetRow(Base):
    """The score sheet of a finished club/online game (issue 21, docs/rules/scoring.md): the
    scoring ``system`` it uses (``ScoringSystem.to_settings()``), the judge's ``additional``
    points ({"<user id>": points}), ``status`` 'draft' (the judge fills it in; the group sees the
    plain result) or 'published'; ``publish_by``: when a draft is published by itself;
    ``corrections_until``: the end of the judge's window to correct the published sheet;
    ``ui``: the judge's private sheet message ({"chat_id", "message_id"}) and other UI state."""

    __tablename__ = "score_sheets"
    __table_args__ = (Index("ix_score_sheets_due", "status", "publish_by"),)

    game_id: Mapped[int] = mapped_column(
        AutoIdType, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    chat_id: Mapped[int] = mapped_column(BigInteger, index=True)
    judge_id: Mapped[int | None] = mapped_column(BigInteger)
    system: Mapped[dict[str, Any]]
    additional: Mapped[dict[str, Any]] = mapped_column(default=dict)
    status: Mapped[str] = mapped_column(String(16), default="draft")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    publish_by: Mapped[datetime | None]
    published_at: Mapped[datetime | None]
    corrections_until: Mapped[datetime | None]
    ui: Mapped[dict[str, Any]] = mapped_column(default=dict)


class ScoreSheetChange(Base):
    """One change of a score sheet, kept for good (the judge's corrections are logged): ``kind``
    'additional' (a draft's points set), 'published' (by the judge), 'auto_published' (its time
    ran out), 'corrected' (after publication); ``by`` the user (None: the bot); ``data`` the
    change ({"additional": {...}} before and after where it applies)."""

    __tablename__ = "score_sheet_changes"
    __table_args__ = ({"sqlite_autoincrement": True},)

    id: Mapped[int] = mapped_column(AutoIdType, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(
        AutoIdType, ForeignKey("games.id", ondelete="CASCADE"), index=True)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    by: Mapped[int | None] = mapped_column(BigInteger)
    kind: Mapped[str] = mapped_column(String(16))
    data: Mapped[dict[str, Any]] = mapped_column(default=dict)


class PlayerPointsRow(Base):
    """One player's points in one published score sheet (a row per seat; rewritten when the
    sheet is corrected), so /top, /me, /history and the standings sum them without replaying
    logs. Columns as ``engine.scoring.SeatScore``."""

    __tablename__ = "player_points"
    __table_args__ = (
        Index("ix_player_points_chat", "chat_id", "user_id"),
        Index("ix_player_points_user", "user_id"),
    )

    game_id: Mapped[int] = mapped_column(
        AutoIdType, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    chat_id: Mapped[int] = mapped_column(BigInteger)
    name: Mapped[str] = mapped_column(String(256))
    seat: Mapped[int] = mapped_column(Integer)
    role: Mapped[str] = mapped_column(String(16))
    team: Mapped[str] = mapped_column(String(16))
    won: Mapped[bool] = mapped_column(Boolean)
    win_points: Mapped[float] = mapped_column(Float)
    best_move_points: Mapped[float] = mapped_column(Float)
    penalty: Mapped[float] = mapped_column(Float)
    additional: Mapped[float] = mapped_column(Float)
    total: Mapped[float] = mapped_column(Float)
    published_at: Mapped[datetime]
