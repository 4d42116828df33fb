"""The tournaments' tables (issue 22; docs/tournaments.md), beside the game schema of
``bot/storage/models.py`` on the same declarative ``Base`` (so Alembic's metadata and
``tests/test_migrations.py`` see them: ``bot/storage/__init__.py`` imports this module).

A tournament lives in one group (its home, table 1); other groups are linked as tables 2..N.
Its players register until the organiser closes the registration; the draw
(``engine.tournament.draw``) stores the seating as ``Schedule.to_dict()`` JSON; each scheduled
game that was opened is a row of ``tournament_games`` pointing at its game.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from bot.storage.models import AutoIdType, Base, utcnow

__all__ = ["TournamentGameRow", "TournamentPlayerRow", "TournamentRow", "TournamentTableRow",
           "TOURNAMENT_STATUSES"]

#: every value of ``tournaments.status``, in the order a tournament goes through them:
#: registration open, registration closed (players still added or withdrawn by the organiser),
#: seating drawn, a round's game opened, every scheduled game finished
TOURNAMENT_STATUSES = ("registration", "closed", "drawn", "running", "finished")


class TournamentRow(Base):
    """A tournament: ``chat_id`` its home group (table 1); ``preset`` 'club' | 'online';
    ``games_per_player`` G; ``scoring`` the scoring system's settings
    (``engine.scoring`` ``ScoringSystem.to_settings()`` or {"name": ...}); ``judges`` user ids;
    ``status`` one of :data:`TOURNAMENT_STATUSES`; ``seed`` the draw's seed (signed 64-bit);
    ``schedule`` ``Schedule.to_dict()`` once drawn (None before); ``ui`` its messages
    ({"registration": message id, ...})."""

    __tablename__ = "tournaments"
    __table_args__ = (Index("ix_tournaments_chat", "chat_id", "status"),
                      {"sqlite_autoincrement": True})

    id: Mapped[int] = mapped_column(AutoIdType, primary_key=True, autoincrement=True)
    chat_id: Mapped[int] = mapped_column(BigInteger)
    name: Mapped[str] = mapped_column(String(128))
    preset: Mapped[str] = mapped_column(String(16))
    games_per_player: Mapped[int] = mapped_column(Integer)
    scoring: Mapped[dict[str, Any]]
    judges: Mapped[list[int]] = mapped_column(JSON, default=list)
    status: Mapped[str] = mapped_column(String(16), default="registration")
    seed: Mapped[int] = mapped_column(BigInteger)
    schedule: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_by: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    ui: Mapped[dict[str, Any]] = mapped_column(default=dict)


def _tournament_fk() -> ForeignKey:
    return ForeignKey("tournaments.id", ondelete="CASCADE")


class TournamentPlayerRow(Base):
    """A registered player (``withdrawn``: taken out by the organiser before the draw, kept so a
    second registration brings him back in his place); ``registered_at`` orders them."""

    __tablename__ = "tournament_players"

    tournament_id: Mapped[int] = mapped_column(AutoIdType, _tournament_fk(), primary_key=True,
                                               autoincrement=False)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False,
                                         index=True)
    name: Mapped[str] = mapped_column(String(256))
    withdrawn: Mapped[bool] = mapped_column(Boolean, default=False)
    registered_at: Mapped[datetime] = mapped_column(default=utcnow)


class TournamentTableRow(Base):
    """Table ``table_no`` of a tournament plays in the group ``chat_id`` (table 1: its home)."""

    __tablename__ = "tournament_tables"

    tournament_id: Mapped[int] = mapped_column(AutoIdType, _tournament_fk(), primary_key=True,
                                               autoincrement=False)
    table_no: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    chat_id: Mapped[int] = mapped_column(BigInteger, index=True)


class TournamentGameRow(Base):
    """The game opened for the scheduled game (``round``, ``table_no``); a cancelled one is
    replaced by the next opened. ``substitutes``: {"<scheduled user id>": substitute user id}
    (the judge replaced an absent player; the substitute's points are his own)."""

    __tablename__ = "tournament_games"

    tournament_id: Mapped[int] = mapped_column(AutoIdType, _tournament_fk(), primary_key=True,
                                               autoincrement=False)
    round: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    table_no: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    game_id: Mapped[int] = mapped_column(
        AutoIdType, ForeignKey("games.id", ondelete="CASCADE"), index=True)
    substitutes: Mapped[dict[str, Any]] = mapped_column(default=dict)
