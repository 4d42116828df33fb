"""Group commit of the command log (issue 11, target 1): the appends of many games in one
transaction.

:meth:`bot.storage.Storage.append` does not open a transaction of its own: it queues a
:class:`LogWrite` and awaits it. One flusher task takes everything queued meanwhile (at most one
write per game; a game's next write waits for the next round) and stores it in **one**
transaction with a few ``executemany`` statements — the games rows (log length, pending timer),
the log rows, the players, the presentation snapshots — then resolves each caller's future after
the commit. So a command is still in the log before its caller sends anything, and the cost of a
transaction (pool checkout, ``BEGIN``, ``COMMIT``, the round trips to the driver) is shared by all
the games that pressed meanwhile.

When the batch fails (a taken or out-of-order ``seq``, a status that may not change, a game that
does not exist), it is rolled back and each write is retried alone in its own transaction, which
raises exactly the error the old one-write-per-transaction ``append`` raised — to that caller
only. Presentation snapshots (``games.ui``) ride along without a caller waiting: the newest
snapshot of a game replaces an older one still queued, and batches run one at a time, so an older
snapshot never overwrites a newer one.

Many workers (issue 19): a write may carry its shard's fencing token (``fence``,
:mod:`bot.storage.fencing`), checked first in the very transaction that writes it; a write whose
worker lost the shard is refused (:class:`~bot.storage.fencing.StaleEpoch` to its caller, a
stale snapshot dropped) and ``on_stale(fences)`` tells the worker.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage.engine import statement as cached_statement
from bot.storage.engine import upsert
from bot.storage.failures import database_failure
from bot.storage.fencing import Fence, without_stale
from bot.storage.models import (
    GAME_STATUSES,
    ActivePlayer,
    Game,
    GameLogEntry,
    GamePlayer,
    UTCDateTime,
    utcnow,
)
from bot.storage.records import (
    KEEP,
    GameNotFound,
    LogConflict,
    StatusError,
    UserInAnotherGame,
    _Keep,
)

__all__ = ["GroupCommit", "LogWrite", "PlayerOp"]

log = logging.getLogger(__name__)

games = Game.__table__
game_log = GameLogEntry.__table__
game_players = GamePlayer.__table__
active_players = ActivePlayer.__table__

#: Statuses each status may be entered from (re-entering a status is a no-op update).
ENTERED_FROM = {
    "lobby": ("lobby",),
    "running": ("lobby", "running"),
    "finished": ("lobby", "running", "finished"),
    "cancelled": ("lobby", "running", "cancelled"),
}
#: Most writes one transaction takes (SQLite's limit of bound variables stays far away).
MAX_BATCH = 500


@dataclass(frozen=True)
class PlayerOp:
    """A change of ``game_players`` stored with a command: ``name`` None removes the user.

    ``exclusive``: the user enters the game (``Join``, ``BecomeHost``) and takes his one
    ``active_players`` row with it; if another active game holds it, the write fails with
    :class:`~bot.storage.UserInAnotherGame` (issue 12: a user in one active game at most,
    whichever worker joins him). A removal gives the row back."""

    user_id: int
    name: str | None
    seat: int | None = None
    exclusive: bool = False


@dataclass
class LogWrite:
    """One command to append (see :meth:`bot.storage.Storage.append` for the fields)."""

    game_id: int
    seq: int
    command: dict[str, Any]
    events: list[dict[str, Any]]
    status: str | None = None
    winner: str | None = None
    deadline: tuple[int | None, datetime | None] | _Keep = KEEP
    players: tuple[PlayerOp, ...] = ()
    update_id: int | None = None
    fence: Fence | None = None
    future: asyncio.Future[None] | None = field(default=None, repr=False)

    def check(self) -> None:
        """``StatusError`` for an unknown status, ``ValueError`` for a naive deadline."""
        if self.status is not None and self.status not in GAME_STATUSES:
            raise StatusError(self.game_id, None, self.status)
        if not isinstance(self.deadline, _Keep) and self.deadline[1] is not None \
                and self.deadline[1].tzinfo is None:
            raise ValueError("deadline_at must be timezone-aware")

    @property
    def plain(self) -> bool:
        """Neither status nor winner: the games row only moves its log length (and timer)."""
        return self.status is None and self.winner is None


_LOG_LEN = (update(games).where(games.c.id == bindparam("gid"), games.c.log_len == bindparam("seq"))
            .values(log_len=bindparam("n")))
_LOG_LEN_TIMER = _LOG_LEN.values(timer_seq=bindparam("ts"),
                                 deadline_at=bindparam("da", type_=UTCDateTime()))
_UI = update(games).where(games.c.id == bindparam("gid")).values(
    ui=bindparam("ui_value", type_=games.c.ui.type))
_REMOVE = delete(game_players).where(game_players.c.game_id == bindparam("gid"),
                                     game_players.c.user_id == bindparam("uid"))
_RELEASE = delete(active_players).where(active_players.c.game_id == bindparam("gid"),
                                        active_players.c.user_id == bindparam("uid"))


def _players_upsert(engine: Any) -> Any:
    stmt = upsert(engine, game_players)
    return stmt.on_conflict_do_update(index_elements=[game_players.c.game_id,
                                                      game_players.c.user_id],
                                      set_={"name": stmt.excluded.name, "seat": stmt.excluded.seat})


def _claim(engine: Any) -> Any:
    return upsert(engine, active_players).on_conflict_do_nothing(
        index_elements=[active_players.c.user_id])


#: Statuses that end a game: its players' ``active_players`` rows are given back.
FINAL = ("finished", "cancelled")


def stamps(status: str, now: datetime) -> dict[str, Any]:
    """Column updates that entering ``status`` implies: status and first start/finish stamps."""
    values: dict[str, Any] = {"status": status}
    stamp = bindparam(None, now, type_=UTCDateTime())
    if status == "running":
        values["started_at"] = func.coalesce(games.c.started_at, stamp)
    elif status in ("finished", "cancelled"):
        values["finished_at"] = func.coalesce(games.c.finished_at, stamp)
    return values


class GroupCommit:
    """The queue and the flusher task of one :class:`~bot.storage.Storage`.

    ``write()`` opens the storage's write transaction (serialised on SQLite); ``engine_of()``
    gives the engine (for the dialect's upsert)."""

    def __init__(self, write: Callable[[], AbstractAsyncContextManager[AsyncConnection]],
                 engine_of: Callable[[], Any]) -> None:
        self._write, self._engine_of = write, engine_of
        self._queue: list[LogWrite] = []
        self._ui: dict[int, tuple[dict[str, Any], asyncio.Future[None], Fence | None]] = {}
        #: ``on_stale(fences)``: writes under these fences were refused as stale (issue 19)
        self.on_stale: Callable[[set[Fence]], None] | None = None
        self._flusher: asyncio.Task[None] | None = None
        self.batches = 0  #: transactions committed by the flusher (figures for the benchmark)
        self.writes = 0  #: log writes they carried

    # -- the callers' side ----------------------------------------------------------------
    def submit(self, item: LogWrite) -> Awaitable[None]:
        """Queue ``item``; the returned future resolves after its commit (or raises its error)."""
        item.check()
        item.future = asyncio.get_running_loop().create_future()
        self._queue.append(item)
        self._kick()
        return item.future

    def ui_soon(self, game_id: int, ui: dict[str, Any], fence: Fence | None = None
                ) -> asyncio.Future[None]:
        """Queue the game's presentation snapshot (replacing one still queued); the future
        resolves after it is stored (a failure is logged and resolves it too)."""
        queued = self._ui.get(game_id)
        future = queued[1] if queued is not None else asyncio.get_running_loop().create_future()
        self._ui[game_id] = ({k: v for k, v in ui.items() if v is not None}, future, fence)
        self._kick()
        return future

    async def drain(self) -> None:
        """Wait until everything queued so far is stored."""
        while self._flusher is not None and not self._flusher.done():
            await asyncio.shield(self._flusher)

    def _kick(self) -> None:
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.get_running_loop().create_task(self._flush())

    # -- the flusher ------------------------------------------------------------------------
    async def _flush(self) -> None:
        await asyncio.sleep(0)  # let the callers of this loop iteration queue theirs too
        while self._queue or self._ui:
            batch: list[LogWrite] = []
            seen: set[int] = set()
            rest: list[LogWrite] = []
            for item in self._queue:
                if item.game_id in seen or len(batch) >= MAX_BATCH:
                    rest.append(item)  # a game's next write goes in the next transaction
                else:
                    seen.add(item.game_id)
                    batch.append(item)
            self._queue = rest
            uis, self._ui = self._ui, {}
            try:
                await self._store(batch, uis)
            except Exception:  # noqa: BLE001 - every write is retried alone below
                await self._one_by_one(batch, uis)
            else:
                self.batches += 1
                self.writes += len(batch)
                for item in batch:
                    _resolve(item.future)
                for _ui, future, _fence in uis.values():
                    _resolve(future)

    async def _store(self, batch: list[LogWrite], uis: dict[int, tuple[dict, Any, Any]]) -> None:
        async with self._write() as connection:
            batch, uis = await self._fenced(connection, batch, uis)
            await self.store(connection, batch, exact=False)
            if uis:
                await connection.execute(_UI, [{"gid": gid, "ui_value": ui}
                                               for gid, (ui, _f, _fence) in uis.items()])

    async def _fenced(self, connection: AsyncConnection, batch: list[LogWrite],
                      uis: dict[int, tuple[dict, Any, Any]]
                      ) -> tuple[list[LogWrite], dict[int, tuple[dict, Any, Any]]]:
        """``batch`` and ``uis`` without the writes whose fence is stale (checked in
        ``connection``'s transaction): those fail with ``StaleEpoch`` or are dropped."""
        return await without_stale(connection, batch, uis, self.on_stale)

    async def _one_by_one(self, batch: list[LogWrite],
                          uis: dict[int, tuple[dict, Any, Any]]) -> None:
        for item in batch:
            try:
                async with self._write() as connection:
                    kept, _none = await self._fenced(connection, [item], {})
                    await self.store(connection, kept, exact=True)
            except IntegrityError:
                # Only reachable if the log has rows beyond log_len (written outside append()).
                _fail(item.future, LogConflict(item.game_id, item.seq, item.seq))
            except Exception as error:  # noqa: BLE001 - handed to its caller
                _fail(item.future, error)
            else:
                _resolve(item.future)
        for gid, (ui, future, fence) in uis.items():
            try:
                async with self._write() as connection:
                    _kept, left = await self._fenced(connection, [], {gid: (ui, future, fence)})
                    if left:
                        await connection.execute(_UI, [{"gid": gid, "ui_value": ui}])
            except Exception as error:  # noqa: BLE001 - a snapshot is presentation only
                if database_failure(error) is None:
                    log.exception("game %s: storing the ui snapshot failed", gid)
                else:  # the next snapshot carries it; the database's outage is logged elsewhere
                    log.warning("game %s: storing the ui snapshot failed: %s", gid, error)
            _resolve(future)

    async def store(self, connection: AsyncConnection, batch: list[LogWrite], *, exact: bool
                    ) -> None:
        """Write ``batch`` (at most one write per game) on ``connection``'s transaction.

        ``exact``: a refused write raises its own error (``LogConflict``, ``GameNotFound``,
        ``StatusError``); otherwise any refusal raises ``LogConflict`` for the whole batch."""
        if not batch:
            return
        plain = [i for i in batch if i.plain]
        for item in (i for i in batch if not i.plain):
            await self._store_status(connection, item)
        keep: list[dict[str, Any]] = [{"gid": i.game_id, "seq": i.seq, "n": i.seq + 1} for i in plain
                if isinstance(i.deadline, _Keep)]
        timed: list[dict[str, Any]] = [{"gid": i.game_id, "seq": i.seq, "n": i.seq + 1, "ts": i.deadline[0],
                  "da": i.deadline[1]} for i in plain if not isinstance(i.deadline, _Keep)]
        for statement, rows in ((_LOG_LEN, keep), (_LOG_LEN_TIMER, timed)):
            if not rows:
                continue
            result = await connection.execute(statement, rows)
            if connection.dialect.supports_sane_multi_rowcount:
                if result.rowcount != len(rows):
                    await self._refused(connection, [r["gid"] for r in rows], batch, exact)
            elif (exact or len(rows) == 1) and result.rowcount == 0:
                await self._refused(connection, [r["gid"] for r in rows], batch, exact)
        if not connection.dialect.supports_sane_multi_rowcount and len(plain) > 1:
            await self._verify(connection, plain)
        await connection.execute(insert(game_log), [
            {"game_id": i.game_id, "seq": i.seq, "command": i.command, "events": i.events,
             "update_id": i.update_id} for i in batch])
        await self._store_players(connection, batch)

    async def _store_status(self, connection: AsyncConnection, item: LogWrite) -> None:
        values: dict[str, Any] = {"log_len": item.seq + 1}
        condition = [games.c.id == item.game_id, games.c.log_len == item.seq]
        if item.status is not None:
            values.update(stamps(item.status, utcnow()))
            condition.append(games.c.status.in_(ENTERED_FROM[item.status]))
        if item.winner is not None:
            values["winner"] = item.winner
        if not isinstance(item.deadline, _Keep):
            values["timer_seq"], values["deadline_at"] = item.deadline
        result = await connection.execute(update(games).where(*condition).values(**values))
        if result.rowcount == 0:
            await self._refused(connection, [item.game_id], [item], True)
        if item.status in FINAL:
            await release_game(connection, item.game_id)

    async def _refused(self, connection: AsyncConnection, game_ids: list[int],
                       batch: list[LogWrite], exact: bool) -> None:
        """Raise the error of a refused write (the precise one when ``exact``)."""
        if not exact:
            raise LogConflict(game_ids[0], -1, -1)
        item = next(i for i in batch if i.game_id == game_ids[0])
        row = (await connection.execute(select(games.c.log_len, games.c.status)
                                        .where(games.c.id == item.game_id))).first()
        if row is None:
            raise GameNotFound(item.game_id)
        if row.log_len != item.seq:
            raise LogConflict(item.game_id, item.seq, row.log_len)
        raise StatusError(item.game_id, row.status, item.status or row.status)

    @staticmethod
    async def _verify(connection: AsyncConnection, plain: list[LogWrite]) -> None:
        """Where the driver gives no per-batch row count (asyncpg): every game's log length
        must now be ``seq + 1`` (a taken ``seq`` fails later on the log's unique key)."""
        found = dict((await connection.execute(
            select(games.c.id, games.c.log_len).where(games.c.id.in_([i.game_id for i in plain]))
        )).all())
        if any(found.get(i.game_id) != i.seq + 1 for i in plain):
            raise LogConflict(plain[0].game_id, -1, -1)

    async def _store_players(self, connection: AsyncConnection, batch: list[LogWrite]) -> None:
        sets = [{"game_id": i.game_id, "user_id": op.user_id, "name": op.name, "seat": op.seat}
                for i in batch for op in i.players if op.name is not None]
        removals = [{"gid": i.game_id, "uid": op.user_id}
                    for i in batch for op in i.players if op.name is None]
        if sets:
            upsert_players = cached_statement(self._engine_of(), "game_players upsert",
                                              _players_upsert)
            await connection.execute(upsert_players, sets)
        if removals:
            await connection.execute(_REMOVE, removals)
            await connection.execute(_RELEASE, removals)
        await self._claim(connection, batch)

    async def _claim(self, connection: AsyncConnection, batch: list[LogWrite]) -> None:
        """Take the ``active_players`` row of each user an exclusive op brings in; raise
        :class:`UserInAnotherGame` if another game holds one. On PostgreSQL a concurrent
        transaction taking the same user's row makes this one wait for its commit (the primary
        key's insert lock), then see its row: of two workers joining a user at once, one wins."""
        claims = {(i.game_id, op.user_id) for i in batch for op in i.players
                  if op.exclusive and op.name is not None}
        if not claims:
            return
        claim = cached_statement(self._engine_of(), "active_players claim", _claim)
        await connection.execute(claim, [{"user_id": uid, "game_id": gid}
                                         for gid, uid in sorted(claims)])
        found = dict((await connection.execute(
            select(active_players.c.user_id, active_players.c.game_id)
            .where(active_players.c.user_id.in_([uid for _gid, uid in claims]))
        )).all())
        for gid, uid in sorted(claims):
            if found.get(uid) != gid:
                raise UserInAnotherGame(gid, uid, found.get(uid))


async def release_game(connection: AsyncConnection, game_id: int) -> None:
    """Give back the ``active_players`` rows of a game that ended."""
    await connection.execute(delete(active_players).where(active_players.c.game_id == game_id))


def _resolve(future: asyncio.Future[None] | None) -> None:
    if future is not None and not future.done():
        future.set_result(None)


def _fail(future: asyncio.Future[None] | None, error: BaseException) -> None:
    if future is not None and not future.done():
        future.set_exception(error)
