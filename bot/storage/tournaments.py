"""Tournament queries of :class:`bot.storage.Storage` (a mixin over the core queries, issue 22).

Tables in ``bot/storage/models_tournament.py``. Ids are ints (user and chat ids signed 64-bit);
times timezone-aware UTC. A tournament's players come in registration order; the withdrawn ones
are kept (``withdrawn``) and left out unless asked for.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Text, and_, cast, delete, insert, select, update

from bot.storage.models import Game, PlayerResultRow, utcnow
from bot.storage.models_tournament import (
    TournamentGameRow,
    TournamentPlayerRow,
    TournamentRow,
    TournamentTableRow,
)
from bot.storage.store import Storage as CoreStorage

__all__ = ["TournamentGame", "TournamentPlayer", "TournamentRecord", "TournamentStorage"]

tours = TournamentRow.__table__
tplayers = TournamentPlayerRow.__table__
ttables = TournamentTableRow.__table__
tgames = TournamentGameRow.__table__
games = Game.__table__

#: statuses of a tournament that is not over (a group has at most one of them at home)
OPEN_STATUSES = ("registration", "closed", "drawn", "running")


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    """A stored tournament (see :class:`bot.storage.models_tournament.TournamentRow`)."""

    id: int
    chat_id: int
    name: str
    preset: str
    games_per_player: int
    scoring: dict[str, Any]
    judges: list[int]
    status: str
    seed: int
    schedule: dict[str, Any] | None
    created_by: int
    created_at: datetime
    ui: dict[str, Any]


@dataclass(frozen=True, slots=True)
class TournamentPlayer:
    user_id: int
    name: str
    withdrawn: bool


@dataclass(frozen=True, slots=True)
class TournamentGame:
    """A scheduled game that was opened: its ``game_id``, the game's status ('lobby' |
    'running' | 'finished' | 'cancelled') and ``substitutes`` {scheduled user id: substitute}."""

    tournament_id: int
    round: int
    table_no: int
    game_id: int
    status: str
    substitutes: dict[int, int]


def _record(row: Any) -> TournamentRecord:
    return TournamentRecord(
        id=int(row.id), chat_id=int(row.chat_id), name=row.name, preset=row.preset,
        games_per_player=int(row.games_per_player), scoring=dict(row.scoring or {}),
        judges=[int(j) for j in row.judges or []], status=row.status, seed=int(row.seed),
        schedule=None if row.schedule is None else dict(row.schedule),
        created_by=int(row.created_by), created_at=row.created_at, ui=dict(row.ui or {}))


class TournamentStorage(CoreStorage):
    """Tournament queries; ``self`` is the Storage (``_read``, ``_write``)."""

    async def create_tournament(self, chat_id: int, name: str, preset: str, games_per_player: int,
                                scoring: Mapping[str, Any], judges: Sequence[int],
                                created_by: int, seed: int) -> TournamentRecord:
        """A new tournament in registration, its home group ``chat_id`` linked as table 1."""
        async with self._write() as c:
            result = await c.execute(insert(tours).values(
                chat_id=chat_id, name=name, preset=preset, games_per_player=games_per_player,
                scoring=dict(scoring), judges=list(judges), status="registration", seed=seed,
                schedule=None, created_by=created_by, created_at=utcnow(), ui={}))
            key = result.inserted_primary_key
            assert key is not None  # an insert of one row has its key
            tid = int(key[0])
            await c.execute(insert(ttables).values(tournament_id=tid, table_no=1, chat_id=chat_id))
            row = (await c.execute(select(tours).where(tours.c.id == tid))).one()
        return _record(row)

    async def get_tournament(self, tournament_id: int) -> TournamentRecord | None:
        async with self._read() as c:
            row = (await c.execute(select(tours).where(tours.c.id == tournament_id))).first()
        return None if row is None else _record(row)

    async def running_tournaments(self) -> list[TournamentRecord]:
        """Every tournament whose rounds are being played (status ``running``), oldest first."""
        async with self._read() as c:
            rows = (await c.execute(select(tours).where(tours.c.status == "running")
                                    .order_by(tours.c.id))).all()
        return [_record(row) for row in rows]

    async def tournament_for_chat(self, chat_id: int) -> TournamentRecord | None:
        """The newest tournament whose home or linked table is ``chat_id``, open first (a
        finished one when none is open), or None."""
        async with self._read() as c:
            rows = (await c.execute(
                select(tours).join(ttables, ttables.c.tournament_id == tours.c.id)
                .where(ttables.c.chat_id == chat_id).order_by(tours.c.id.desc()))).all()
        for row in rows:
            if row.status in OPEN_STATUSES:
                return _record(row)
        return _record(rows[0]) if rows else None

    async def update_tournament(self, tournament_id: int, *, expect_status: str | None = None,
                                **values: Any) -> TournamentRecord | None:
        """Set columns (``status``, ``schedule``, ``seed``, ``ui``...). With ``expect_status``
        only if the status is still that one (two presses of «Draw»: one draw); returns the
        updated tournament, or None when nothing was written."""
        cond = [tours.c.id == tournament_id]
        if expect_status is not None:
            cond.append(tours.c.status == expect_status)
        async with self._write() as c:
            done = await c.execute(update(tours).where(and_(*cond)).values(**values))
            if not done.rowcount:
                return None
            row = (await c.execute(select(tours).where(tours.c.id == tournament_id))).one()
        return _record(row)

    async def claim_round_post(self, tournament_id: int, round_no: int, *, finished: bool = False
                               ) -> TournamentRecord | None:
        """Mark round ``round_no`` posted (``ui["rounds_posted"]``; with ``finished`` the status
        becomes 'finished' in the same write) and return the tournament — only for the first
        caller, across every worker: the UPDATE is conditional on the ``ui`` read in the same
        transaction being unchanged (compare-and-set on its stored text), so of two workers whose
        tables' sheets are published together one writes the mark and posts, the other gets
        None. A concurrent change of another ``ui`` key is retried over; None too when the
        round was posted already or the tournament does not exist."""
        for _attempt in range(5):
            async with self._write() as c:
                row = (await c.execute(select(tours, cast(tours.c.ui, Text).label("ui_text"))
                                       .where(tours.c.id == tournament_id))).first()
                if row is None:
                    return None
                ui = dict(row.ui or {})
                posted = {int(x) for x in ui.get("rounds_posted") or []}
                if round_no in posted:
                    return None
                ui["rounds_posted"] = sorted(posted | {round_no})
                values: dict[str, Any] = {"ui": ui}
                if finished:
                    values["status"] = "finished"
                cond = tours.c.id == tournament_id
                if row.ui_text is None:
                    cond = and_(cond, tours.c.ui.is_(None))
                else:
                    cond = and_(cond, cast(tours.c.ui, Text) == row.ui_text)
                done = await c.execute(update(tours).where(cond).values(**values))
                if done.rowcount:
                    fresh = (await c.execute(select(tours).where(tours.c.id == tournament_id))
                             ).one()
                    return _record(fresh)
        return None

    # --- players -----------------------------------------------------------------------------
    async def add_tournament_player(self, tournament_id: int, user_id: int, name: str) -> bool:
        """Register ``user_id`` (a withdrawn player comes back in his place). False when he is
        registered already (his name is refreshed)."""
        async with self._write() as c:
            old = (await c.execute(select(tplayers).where(
                tplayers.c.tournament_id == tournament_id, tplayers.c.user_id == user_id))).first()
            if old is None:
                await c.execute(insert(tplayers).values(
                    tournament_id=tournament_id, user_id=user_id, name=name[:256],
                    withdrawn=False, registered_at=utcnow()))
                return True
            await c.execute(update(tplayers).where(
                tplayers.c.tournament_id == tournament_id, tplayers.c.user_id == user_id)
                .values(name=name[:256], withdrawn=False))
            return bool(old.withdrawn)

    async def withdraw_tournament_player(self, tournament_id: int, user_id: int) -> bool:
        """Withdraw a registered player; False when he was not registered (or withdrawn)."""
        async with self._write() as c:
            done = await c.execute(update(tplayers).where(
                tplayers.c.tournament_id == tournament_id, tplayers.c.user_id == user_id,
                tplayers.c.withdrawn.is_(False)).values(withdrawn=True))
        return bool(done.rowcount)

    async def tournament_players(self, tournament_id: int, *, withdrawn: bool = False
                                 ) -> list[TournamentPlayer]:
        """The players in registration order (with the withdrawn ones when ``withdrawn``)."""
        query = select(tplayers).where(tplayers.c.tournament_id == tournament_id)
        if not withdrawn:
            query = query.where(tplayers.c.withdrawn.is_(False))
        async with self._read() as c:
            rows = (await c.execute(query.order_by(tplayers.c.registered_at,
                                                   tplayers.c.user_id))).all()
        return [TournamentPlayer(int(r.user_id), r.name, bool(r.withdrawn)) for r in rows]

    # --- tables ------------------------------------------------------------------------------
    async def link_tournament_table(self, tournament_id: int, chat_id: int) -> int:
        """Link the group ``chat_id`` as the tournament's next table; returns its number (the
        one it has already when linked before)."""
        async with self._write() as c:
            rows = (await c.execute(select(ttables).where(
                ttables.c.tournament_id == tournament_id))).all()
            for r in rows:
                if int(r.chat_id) == chat_id:
                    return int(r.table_no)
            table_no = max((int(r.table_no) for r in rows), default=0) + 1
            await c.execute(insert(ttables).values(tournament_id=tournament_id,
                                                   table_no=table_no, chat_id=chat_id))
        return table_no

    async def tournament_tables(self, tournament_id: int) -> dict[int, int]:
        """Table number -> its group's chat id."""
        async with self._read() as c:
            rows = (await c.execute(select(ttables).where(
                ttables.c.tournament_id == tournament_id))).all()
        return {int(r.table_no): int(r.chat_id) for r in rows}

    # --- games -------------------------------------------------------------------------------
    async def set_tournament_game(self, tournament_id: int, round_no: int, table_no: int,
                                  game_id: int, substitutes: Mapping[int, int] | None = None
                                  ) -> None:
        """Record (or replace: a cancelled game opened again) the game of a scheduled slot."""
        subs = {str(k): int(v) for k, v in (substitutes or {}).items()}
        async with self._write() as c:
            await c.execute(delete(tgames).where(
                tgames.c.tournament_id == tournament_id, tgames.c.round == round_no,
                tgames.c.table_no == table_no))
            await c.execute(insert(tgames).values(
                tournament_id=tournament_id, round=round_no, table_no=table_no,
                game_id=game_id, substitutes=subs))

    async def set_tournament_substitute(self, game_id: int, absent: int, substitute: int) -> bool:
        """Record that ``substitute`` plays the tournament game ``game_id`` for ``absent``;
        False when ``game_id`` is no tournament's game. The map keeps the scheduled player as
        the key: replacing a substitute re-points his scheduled player's entry, and the
        scheduled player taking his seat back removes it (else he would count as a
        substitute in his own seat, TOUR-X07)."""
        async with self._write() as c:
            row = (await c.execute(select(tgames).where(tgames.c.game_id == game_id))).first()
            if row is None:
                return False
            subs = dict(row.substitutes or {})
            scheduled = next((k for k, v in subs.items() if int(v) == absent), str(absent))
            if int(scheduled) == substitute:
                subs.pop(scheduled, None)
            else:
                subs[scheduled] = substitute
            await c.execute(update(tgames).where(tgames.c.game_id == game_id)
                            .values(substitutes=subs))
        return True

    async def tournament_games(self, tournament_id: int) -> list[TournamentGame]:
        """The opened games, by round then table, with their games' status."""
        async with self._read() as c:
            rows = (await c.execute(
                select(tgames, games.c.status).join(games, games.c.id == tgames.c.game_id)
                .where(tgames.c.tournament_id == tournament_id)
                .order_by(tgames.c.round, tgames.c.table_no))).all()
        return [TournamentGame(int(r.tournament_id), int(r.round), int(r.table_no),
                               int(r.game_id), r.status,
                               {int(k): int(v) for k, v in (r.substitutes or {}).items()})
                for r in rows]

    async def tournament_of_game(self, game_id: int) -> TournamentGame | None:
        """The scheduled slot ``game_id`` plays, or None (not a tournament's game)."""
        async with self._read() as c:
            row = (await c.execute(
                select(tgames, games.c.status).join(games, games.c.id == tgames.c.game_id)
                .where(tgames.c.game_id == game_id))).first()
        if row is None:
            return None
        return TournamentGame(int(row.tournament_id), int(row.round), int(row.table_no),
                              int(row.game_id), row.status,
                              {int(k): int(v) for k, v in (row.substitutes or {}).items()})

    async def game_fouls(self, game_ids: Sequence[int]) -> dict[int, dict[int, int]]:
        """Fouls of finished games: game id -> user id -> fouls (from ``player_results``; an
        imported archive game, which has no results, from its ``ui["fouls"]``)."""
        if not game_ids:
            return {}
        results = PlayerResultRow.__table__
        async with self._read() as c:
            rows = (await c.execute(select(results.c.game_id, results.c.user_id, results.c.fouls)
                                    .where(results.c.game_id.in_(list(game_ids))))).all()
            out: dict[int, dict[int, int]] = {}
            for gid, uid, fouls in rows:
                out.setdefault(int(gid), {})[int(uid)] = int(fouls or 0)
            missing = [g for g in game_ids if g not in out]
            if missing:
                for gid, ui in (await c.execute(select(games.c.id, games.c.ui).where(
                        games.c.id.in_(missing)))).all():
                    kept = (ui or {}).get("fouls")
                    if isinstance(kept, dict):
                        out[int(gid)] = {int(k): int(v) for k, v in kept.items()}
        return out
