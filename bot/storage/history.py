"""History queries of :class:`bot.storage.Storage` (a mixin over the core queries in store.py).

The game log stays the truth; the tables here (``game_summaries``, ``player_results``,
``ratings``) are derived from finished games' logs by :mod:`bot.history.service` so the history
list, /stats, /me and /top stay fast with 100,000 games.  ``game_deletions`` records games a group
admin removed from the history; ``next_game_subscriptions`` holds /nextgame requests.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Select, bindparam, delete, exists, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage.engine import statement, upsert
from bot.storage.models import (
    Game,
    GameDeletion,
    GameLogEntry,
    GameSummaryRow,
    NextGameSubscription,
    PlayerResultRow,
    RatingRow,
    RoleStatRow,
    utcnow,
)
from bot.storage.models_tournament import TournamentGameRow
from bot.storage.stats import ChatOverview, RatingTrack, RoleTotals
from bot.storage.store import Storage as CoreStorage

__all__ = ["ChatOverview", "HistoryRecord", "HistoryStorage", "RateFn", "RatingTrack", "RoleTotals"]

games = Game.__table__
game_log = GameLogEntry.__table__
summaries = GameSummaryRow.__table__
results = PlayerResultRow.__table__
ratings = RatingRow.__table__
role_stats = RoleStatRow.__table__
deletions = GameDeletion.__table__
subscriptions = NextGameSubscription.__table__

#: ``rate(current, teams, winner) -> new``: (user_id, team) -> rating for one game's players
#: (see :func:`bot.history.stats.rate`).
RateFn = Callable[[Mapping[tuple[int, str], float], Mapping[int, str], str | None],
                  dict[tuple[int, str], float]]


#: a player's newest name on every rating track of his in the chat (executed per player)
_RENAME = update(ratings).where(
    ratings.c.chat_id == bindparam("cid"), ratings.c.user_id == bindparam("uid"),
    ratings.c.name != bindparam("old_name")).values(name=bindparam("new_name"))


def _ratings_upsert(engine: Any) -> Any:
    stmt = upsert(engine, ratings)
    return stmt.on_conflict_do_update(
        index_elements=[ratings.c.chat_id, ratings.c.user_id, ratings.c.team],
        set_={k: stmt.excluded[k] for k in ("name", "rating", "games", "wins", "updated_at")})


def _role_stats_upsert(engine: Any) -> Any:
    stmt = upsert(engine, role_stats)
    return stmt.on_conflict_do_update(
        index_elements=[role_stats.c.chat_id, role_stats.c.user_id, role_stats.c.team,
                        role_stats.c.role],
        set_={k: role_stats.c[k] + stmt.excluded[k] for k in ("games", "wins", "survived", "fouls")})


def _row(record: Any) -> dict[str, Any]:
    """A dataclass as a row: ``dataclasses.asdict`` without its deep copy (the fields are plain
    values: numbers, strings, datetimes)."""
    return {f.name: getattr(record, f.name) for f in dataclasses.fields(record)}


@dataclass(frozen=True, slots=True)
class HistoryRecord:
    """One row of ``game_summaries``: a finished game in the history list. ``duration``: s."""

    game_id: int
    chat_id: int
    title: str
    ruleset: str
    winner: str | None
    players: int
    days: int
    duration: int | None
    finished_at: datetime


def _history_filter(chat_id: int | None, tournament: int | None) -> list[Any]:
    cond: list[Any] = []
    if chat_id is not None:
        cond.append(summaries.c.chat_id == chat_id)
    if tournament is not None:
        tgames = TournamentGameRow.__table__
        cond.append(summaries.c.game_id.in_(
            select(tgames.c.game_id).where(tgames.c.tournament_id == tournament)))
    return cond


class HistoryStorage(CoreStorage):
    """Mixed into :class:`bot.storage.Storage`; uses its ``_read``/``_write``/``engine``."""

    # -- the log -----------------------------------------------------------------------------
    async def load_entries(self, game_id: int) -> list[tuple[int, dict[str, Any], list[dict[str, Any]]]]:
        """``(seq, command, events)`` of every logged command, in seq order ([] if unknown)."""
        query = (select(game_log.c.seq, game_log.c.command, game_log.c.events)
                 .where(game_log.c.game_id == game_id).order_by(game_log.c.seq))
        async with self._read() as c:
            return [tuple(row) for row in (await c.execute(query)).all()]

    # -- recording finished games ------------------------------------------------------------
    async def record_game(self, summary: Any, players: Sequence[Any], rate: RateFn) -> bool:
        """Store a finished game's summary and player results (dataclasses shaped like the
        tables) and update the players' ratings, in one transaction. Returns False (and changes
        nothing) if the game is already recorded or was deleted from the history."""
        async with self._write() as c:
            gid = summary.game_id
            known = select(summaries.c.game_id).where(summaries.c.game_id == gid).union_all(
                select(deletions.c.game_id).where(deletions.c.game_id == gid))
            if (await c.execute(known)).first() is not None:
                return False
            await c.execute(insert(summaries).values(**_row(summary)))
            if players:
                await c.execute(insert(results), [_row(p) for p in players])
            await self._rate_game(c, summary.chat_id, summary.winner, players, rate)
        return True

    async def _rate_game(self, c: AsyncConnection, chat_id: int, winner: str | None,
                         players: Sequence[Any], rate: RateFn) -> None:
        uids = [p.user_id for p in players]
        if not uids:
            return
        rows = (await c.execute(select(ratings).where(ratings.c.chat_id == chat_id,
                                                      ratings.c.user_id.in_(uids)))).all()
        current = {(r.user_id, r.team): r for r in rows}
        new = rate({k: r.rating for k, r in current.items()}, {p.user_id: p.team for p in players},
                   winner)
        now = utcnow()
        values = []
        for p in players:
            if (p.user_id, p.team) not in new:  # a team that feeds no rating (NOIR)
                continue
            old = current.get((p.user_id, p.team))
            values.append({"chat_id": chat_id, "user_id": p.user_id, "team": p.team,
                           "name": p.name, "rating": new[(p.user_id, p.team)],
                           "games": (old.games if old else 0) + 1,
                           "wins": (old.wins if old else 0) + int(p.won), "updated_at": now})
        if values:
            await c.execute(statement(self.engine, "ratings upsert", _ratings_upsert), values)
        # the newest name on the players' other tracks too (one statement, run per player)
        await c.execute(_RENAME, [{"cid": chat_id, "uid": p.user_id, "new_name": p.name,
                                   "old_name": p.name} for p in players])
        await c.execute(statement(self.engine, "role_stats upsert", _role_stats_upsert), [
            {"chat_id": chat_id, "user_id": p.user_id, "team": p.team, "role": p.role, "games": 1,
             "wins": int(p.won), "survived": int(p.survived), "fouls": p.fouls} for p in players])

    async def unrecorded_games(self) -> list[int]:
        """Finished games with no summary that were not deleted, oldest finish first."""
        query = (select(games.c.id).where(
            games.c.status == "finished",
            ~exists().where(summaries.c.game_id == games.c.id),
            ~exists().where(deletions.c.game_id == games.c.id),
        ).order_by(games.c.finished_at, games.c.id))
        async with self._read() as c:
            return list((await c.execute(query)).scalars())

    async def rebuild_ratings(self, chat_id: int, rate: RateFn) -> int:
        """Recompute the chat's ratings and role totals from its player results in finishing
        order. The results are read and rated outside the write transaction (a big group takes
        seconds; games of other chats go on meanwhile); if a game of this chat is recorded in
        the meantime, it starts over. Returns the number of games rated."""
        for attempt in range(3):
            last = attempt == 2
            async with (self._write() if last else self._read()) as c:
                marker = await self._marker(c, chat_id)
                rows: list[tuple[Any, ...]] = []
                result = await c.stream(_results_in_order(chat_id))
                async for part in result.partitions(5_000):
                    rows.extend(tuple(r) for r in part)
                if last:  # under the lock at last: nothing can change now
                    built = _rebuild(chat_id, rows, rate)
                    await self._replace_totals(c, chat_id, *built[:2])
                    return built[2]
            built = await asyncio.to_thread(_rebuild, chat_id, rows, rate)
            async with self._write() as c:
                if await self._marker(c, chat_id) != marker:
                    continue
                await self._replace_totals(c, chat_id, *built[:2])
            return built[2]
        raise AssertionError("unreachable")

    @staticmethod
    async def _marker(c: AsyncConnection, chat_id: int) -> tuple:
        return tuple((await c.execute(select(func.count(), func.max(summaries.c.game_id))
                                      .where(summaries.c.chat_id == chat_id))).one())

    @staticmethod
    async def _replace_totals(c: AsyncConnection, chat_id: int, rating_rows: list,
                              role_rows: list) -> None:
        await c.execute(delete(ratings).where(ratings.c.chat_id == chat_id))
        await c.execute(delete(role_stats).where(role_stats.c.chat_id == chat_id))
        for tbl, rows in ((ratings, rating_rows), (role_stats, role_rows)):
            for i in range(0, len(rows), 5_000):
                await c.execute(insert(tbl), rows[i:i + 5_000])

    async def delete_from_history(self, game_id: int, by: int | None, rate: RateFn) -> int | None:
        """Remove a finished game from the history (summary and results; the log is kept and
        the deletion recorded) and recompute the chat's ratings. Returns the chat id, or None
        if the game is not in the history."""
        async with self._write() as c:
            chat_id = (await c.execute(select(summaries.c.chat_id)
                                       .where(summaries.c.game_id == game_id))).scalar_one_or_none()
            if chat_id is None:
                return None
            await c.execute(insert(deletions).values(game_id=game_id, chat_id=chat_id,
                                                     deleted_by=by, deleted_at=utcnow()))
            await c.execute(delete(results).where(results.c.game_id == game_id))
            await c.execute(delete(summaries).where(summaries.c.game_id == game_id))
        await self.rebuild_ratings(chat_id, rate)
        return chat_id

    async def is_deleted(self, game_id: int) -> bool:
        async with self._read() as c:
            row = (await c.execute(select(deletions.c.game_id)
                                   .where(deletions.c.game_id == game_id))).first()
        return row is not None

    # -- the history list --------------------------------------------------------------------
    async def history_page(self, chat_id: int | None, offset: int = 0, limit: int = 10, *,
                           tournament: int | None = None) -> list[HistoryRecord]:
        """A page of the chat's history (``chat_id`` None: every chat's), most recently
        finished first; ``tournament``: only that tournament's games (issue 22)."""
        query = (select(summaries).where(*_history_filter(chat_id, tournament))
                 .order_by(summaries.c.finished_at.desc(), summaries.c.game_id.desc())
                 .offset(offset).limit(limit))
        async with self._read() as c:
            return [HistoryRecord(**row._mapping) for row in (await c.execute(query)).all()]

    async def history_count(self, chat_id: int | None, *, tournament: int | None = None) -> int:
        """The games :meth:`history_page` pages through."""
        query = select(func.count()).select_from(summaries).where(
            *_history_filter(chat_id, tournament))
        async with self._read() as c:
            return int((await c.execute(query)).scalar_one())

    async def history_record(self, game_id: int) -> HistoryRecord | None:
        async with self._read() as c:
            row = (await c.execute(select(summaries).where(summaries.c.game_id == game_id))).first()
        return None if row is None else HistoryRecord(**row._mapping)

    async def user_history(self, user_id: int, offset: int = 0, limit: int = 10
                           ) -> list[tuple[HistoryRecord, str, bool]]:
        """A page of the games the user played (all groups), newest first, as
        ``(record, his role, whether he won)``."""
        query = (select(summaries, results.c.role, results.c.won)
                 .join(results, results.c.game_id == summaries.c.game_id)
                 .where(results.c.user_id == user_id)
                 .order_by(summaries.c.finished_at.desc(), summaries.c.game_id.desc())
                 .offset(offset).limit(limit))
        async with self._read() as c:
            rows = (await c.execute(query)).all()
        out = []
        for row in rows:
            m = dict(row._mapping)
            role, won = m.pop("role"), m.pop("won")
            out.append((HistoryRecord(**m), role, bool(won)))
        return out

    async def user_history_count(self, user_id: int) -> int:
        query = select(func.count()).select_from(results).where(results.c.user_id == user_id)
        async with self._read() as c:
            return int((await c.execute(query)).scalar_one())

    async def played_in(self, game_id: int, user_id: int) -> bool:
        query = select(results.c.user_id).where(results.c.game_id == game_id,
                                                 results.c.user_id == user_id)
        async with self._read() as c:
            return (await c.execute(query)).first() is not None

    # -- /nextgame ---------------------------------------------------------------------------
    async def subscribe(self, chat_id: int, user_id: int, title: str = "") -> bool:
        """Subscribe the user to the chat's next lobby. False if he already was."""
        stmt = upsert(self.engine, subscriptions).values(
            chat_id=chat_id, user_id=user_id, title=title[:256], created_at=utcnow())
        async with self._write() as c:
            result = await c.execute(stmt.on_conflict_do_nothing())
        return result.rowcount > 0

    async def unsubscribe(self, chat_id: int, user_id: int) -> bool:
        async with self._write() as c:
            result = await c.execute(delete(subscriptions).where(
                subscriptions.c.chat_id == chat_id, subscriptions.c.user_id == user_id))
        return result.rowcount > 0

    async def take_subscriptions(self, chat_id: int) -> list[tuple[int, str]]:
        """Remove and return the chat's subscriptions as ``(user_id, title)``, oldest first."""
        async with self._write() as c:
            rows = (await c.execute(select(subscriptions.c.user_id, subscriptions.c.title)
                                    .where(subscriptions.c.chat_id == chat_id)
                                    .order_by(subscriptions.c.created_at))).all()
            await c.execute(delete(subscriptions).where(subscriptions.c.chat_id == chat_id))
        return [(int(r[0]), r[1]) for r in rows]

    # -- supergroup migration ----------------------------------------------------------------
    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> int:
        """The core move (games, settings) plus the history rows of the chat."""
        moved = await super().move_chat(old_chat_id, new_chat_id)
        async with self._write() as c:
            for table in (summaries, results, deletions):
                await c.execute(update(table).where(table.c.chat_id == old_chat_id)
                                .values(chat_id=new_chat_id))
        for table in (ratings, role_stats, subscriptions):
            try:
                async with self._write() as c:
                    await c.execute(update(table).where(table.c.chat_id == old_chat_id)
                                    .values(chat_id=new_chat_id))
            except IntegrityError:  # the new chat has rows of its own: keep those
                async with self._write() as c:
                    await c.execute(delete(table).where(table.c.chat_id == old_chat_id))
        return moved


def _results_in_order(chat_id: int) -> Select[Any]:
    return (select(results.c.game_id, results.c.user_id, results.c.team, results.c.role,
                   results.c.won, results.c.survived, results.c.fouls, results.c.name,
                   summaries.c.winner)
            .join(summaries, summaries.c.game_id == results.c.game_id)
            .where(results.c.chat_id == chat_id)
            .order_by(summaries.c.finished_at, summaries.c.game_id))


def _rebuild(chat_id: int, rows: Sequence[tuple], rate: RateFn) -> tuple[list, list, int]:
    """(rating rows, role_stats rows, games) from a chat's results in finishing order:
    ``(game_id, user_id, team, role, won, survived, fouls, name, winner)`` tuples."""
    track: dict[tuple[int, str], list] = {}  # (user, team) -> [rating, games, wins]
    roles: dict[tuple[int, str, str], list] = {}  # (user, team, role) -> [games, wins, surv, fouls]
    names: dict[int, str] = {}
    games_rated = 0
    i = 0
    while i < len(rows):
        j = i
        while j < len(rows) and rows[j][0] == rows[i][0]:
            j += 1
        game = rows[i:j]
        games_rated += 1
        teams = {r[1]: r[2] for r in game}
        new = rate({(u, t): track[(u, t)][0] for u, t in teams.items() if (u, t) in track},
                   teams, game[0][8])
        for _gid, uid, team, role, won, survived, fouls, name, _w in game:
            if (uid, team) in new:  # else a team that feeds no rating (NOIR)
                st = track.setdefault((uid, team), [0.0, 0, 0])
                st[0], st[1], st[2] = new[(uid, team)], st[1] + 1, st[2] + int(bool(won))
            rs = roles.setdefault((uid, team, role), [0, 0, 0, 0])
            rs[0] += 1
            rs[1] += int(bool(won))
            rs[2] += int(bool(survived))
            rs[3] += int(fouls or 0)
            names[uid] = name
        i = j
    now = utcnow()
    rating_rows = [{"chat_id": chat_id, "user_id": uid, "team": team, "name": names[uid],
                    "rating": st[0], "games": st[1], "wins": st[2], "updated_at": now}
                   for (uid, team), st in track.items()]
    role_rows = [{"chat_id": chat_id, "user_id": uid, "team": team, "role": role, "games": rs[0],
                  "wins": rs[1], "survived": rs[2], "fouls": rs[3]}
                 for (uid, team, role), rs in roles.items()]
    return rating_rows, role_rows, games_rated
