"""Statistics queries of :class:`bot.storage.Storage` (a mixin over the connection of
``store.py``): a chat's overview, the per-role totals and the rating rows behind /stats, /me and
/top, read from the tables :mod:`bot.storage.history` keeps up to date."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select

from bot.db_models import GameSummaryRow, RatingRow, RoleStatRow
from bot.storage.engine import table_of

__all__ = ["ChatOverview", "RatingTrack", "RoleTotals", "StatsStorage", "overview_of"]

if TYPE_CHECKING:  # the mixin runs on the core Storage: its connection, caches and group commit
    from bot.storage.store import Storage as _Core
else:
    _Core = object

summaries = table_of(GameSummaryRow)
ratings = table_of(RatingRow)
role_stats = table_of(RoleStatRow)


@dataclass(frozen=True, slots=True)
class ChatOverview:
    """Game-level aggregates of one chat: ``wins`` team -> games won (None = no winner)."""

    games: int
    wins: dict[str | None, int]
    avg_players: float
    avg_days: float
    avg_duration: float | None  # seconds


@dataclass(frozen=True, slots=True)
class RoleTotals:
    """Aggregates of one (team, role), optionally per chat: games, wins, survived, fouls."""

    chat_id: int
    team: str
    role: str
    games: int
    wins: int
    survived: int
    fouls: int


@dataclass(frozen=True, slots=True)
class RatingTrack:
    """One player's Elo on one team's track in one chat."""

    chat_id: int
    user_id: int
    team: str
    name: str
    rating: float
    games: int
    wins: int


def overview_of(rows: Sequence[Sequence[Any]]) -> ChatOverview:
    """A :class:`ChatOverview` from ``(winner, games, Σ players, Σ days, Σ duration, timed)``
    rows (one a winner; rows of several rulesets may be concatenated)."""
    wins: dict[str | None, int] = {}
    for r in rows:
        wins[r[0]] = wins.get(r[0], 0) + r[1]
    n = sum(r[1] for r in rows)
    timed = sum(r[5] for r in rows)
    return ChatOverview(
        games=n, wins=wins,
        avg_players=sum(r[2] or 0 for r in rows) / n if n else 0.0,
        avg_days=sum(r[3] or 0 for r in rows) / n if n else 0.0,
        avg_duration=sum(r[4] or 0 for r in rows) / timed if timed else None)


class StatsStorage(_Core):
    """Statistics queries; ``self`` is the Storage (``_read``)."""

    # -- statistics --------------------------------------------------------------------------
    async def chat_overview(self, chat_id: int, exclude: Sequence[str] = ()) -> ChatOverview:
        """The chat's games but those of the rulesets in ``exclude`` (e.g. NOIR's, shown apart)."""
        query = (select(summaries.c.winner, func.count(), func.sum(summaries.c.players),
                        func.sum(summaries.c.days), func.sum(summaries.c.duration),
                        func.count(summaries.c.duration))
                 .where(summaries.c.chat_id == chat_id).group_by(summaries.c.winner))
        if exclude:
            query = query.where(summaries.c.ruleset.not_in(list(exclude)))
        async with self._read() as c:
            rows = (await c.execute(query)).all()
        return overview_of([tuple(r) for r in rows])

    async def chat_overviews(self, chat_id: int) -> dict[str, ChatOverview]:
        """:meth:`chat_overview` per ruleset (``party``, ``noir`` ...), rulesets with games only."""
        query = (select(summaries.c.ruleset, summaries.c.winner, func.count(),
                        func.sum(summaries.c.players), func.sum(summaries.c.days),
                        func.sum(summaries.c.duration), func.count(summaries.c.duration))
                 .where(summaries.c.chat_id == chat_id)
                 .group_by(summaries.c.ruleset, summaries.c.winner))
        async with self._read() as c:
            rows = (await c.execute(query)).all()
        by: dict[str, list] = {}
        for r in rows:
            by.setdefault(r[0], []).append(tuple(r[1:]))
        return {ruleset: overview_of(rs) for ruleset, rs in by.items()}

    async def role_totals(self, chat_id: int | None = None, user_id: int | None = None
                          ) -> list[RoleTotals]:
        """Per (chat, team, role) totals, of one chat and/or one user (at least one)."""
        if chat_id is None and user_id is None:
            raise ValueError("give chat_id or user_id")
        t = role_stats
        query = select(t.c.chat_id, t.c.team, t.c.role, func.sum(t.c.games), func.sum(t.c.wins),
                       func.sum(t.c.survived), func.sum(t.c.fouls))
        if chat_id is not None:
            query = query.where(t.c.chat_id == chat_id)
        if user_id is not None:
            query = query.where(t.c.user_id == user_id)
        query = query.group_by(t.c.chat_id, t.c.team, t.c.role)
        async with self._read() as c:
            rows = (await c.execute(query)).all()
        return [RoleTotals(int(r[0]), r[1], r[2], int(r[3]), int(r[4] or 0), int(r[5] or 0),
                           int(r[6] or 0)) for r in rows]

    async def rating_tracks(self, chat_id: int | None = None, user_id: int | None = None
                            ) -> list[RatingTrack]:
        """Rating rows of one chat and/or one user (at least one)."""
        if chat_id is None and user_id is None:
            raise ValueError("give chat_id or user_id")
        query = select(ratings.c.chat_id, ratings.c.user_id, ratings.c.team, ratings.c.name,
                       ratings.c.rating, ratings.c.games, ratings.c.wins)
        if chat_id is not None:
            query = query.where(ratings.c.chat_id == chat_id)
        if user_id is not None:
            query = query.where(ratings.c.user_id == user_id)
        async with self._read() as c:
            return [RatingTrack(*row) for row in (await c.execute(query)).all()]

    async def chat_title(self, chat_id: int) -> str:
        """The chat's title as of its latest recorded game ("" if none)."""
        query = (select(summaries.c.title).where(summaries.c.chat_id == chat_id)
                 .order_by(summaries.c.finished_at.desc(), summaries.c.game_id.desc()).limit(1))
        async with self._read() as c:
            return (await c.execute(query)).scalar_one_or_none() or ""
