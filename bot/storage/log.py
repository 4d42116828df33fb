"""The command log of :class:`bot.storage.Storage` (a mixin over the connection of
``store.py``): appends through the group commit (``group_commit.py``), the presentation
snapshots queued with it, and the reads of a game's commands and events."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import select

from bot.storage.fencing import Fence
from bot.storage.group_commit import LogWrite, PlayerOp
from bot.storage.models import GameLogEntry
from bot.storage.records import KEEP, _Keep
from bot.storage.store import Storage as CoreStorage

game_log = GameLogEntry.__table__


class LogStorage(CoreStorage):
    """Mixed into :class:`bot.storage.Storage`; uses its ``_read`` and ``_group``."""

    # -- the command log --------------------------------------------------------------------

    async def append(
        self,
        game_id: int,
        seq: int,
        command: dict[str, Any],
        events: list[dict[str, Any]],
        *,
        status: str | None = None,
        winner: str | None = None,
        deadline: tuple[int | None, datetime | None] | _Keep = KEEP,
        players: Sequence[PlayerOp] = (),
        update_id: int | None = None,
        fence: Fence | None = None,
    ) -> None:
        """Append one command and its events at position ``seq`` in one transaction.

        The transaction is shared with the appends of other games queued meanwhile (group
        commit, ``group_commit.py``); this returns after it committed. ``players``: changes of
        the game's players stored with the command (:class:`PlayerOp`; name None removes).

        ``deadline`` = ``(timer_seq, deadline_at)`` also stores the game's pending timer (as
        :meth:`set_deadline`) in the same transaction; ``KEEP`` leaves it.

        ``seq`` must equal the current log length (0 for the first command); afterwards
        ``games.log_len == seq + 1``. ``status``/``winner`` are applied as by
        :meth:`set_status` in the same transaction. Raises :class:`LogConflict` when
        ``seq`` is taken or out of order (another writer was first: reload and replay),
        :class:`GameNotFound`, :class:`StatusError`. ``fence``: the writer's
        ``(shard, epoch)`` (many workers, :mod:`bot.storage.fencing`), checked in the same
        transaction; :class:`~bot.storage.fencing.StaleEpoch` when another worker took over.
        """
        await self._group.submit(LogWrite(game_id, seq, command, events, status, winner,
                                          deadline, tuple(players), update_id, fence))

    async def update_applied(self, game_id: int, update_id: int) -> bool:
        """True when a command of the game was applied while handling Telegram update
        ``update_id`` (``append(update_id=...)``): an update delivered again after the worker
        that handled it died is then not applied twice (issue 12)."""
        async with self._read() as connection:
            found = await connection.scalar(
                select(game_log.c.seq).where(game_log.c.game_id == game_id,
                                             game_log.c.update_id == update_id).limit(1))
        return found is not None

    def ui_soon(self, game_id: int, ui: dict[str, Any], fence: Fence | None = None
                ) -> asyncio.Future[None]:
        """Store ``ui`` as the game's whole presentation state (keys with value None dropped)
        with the next group commit, without waiting; the newest snapshot of a game wins. The
        future resolves once it is stored, or dropped for a stale ``fence`` (as
        :meth:`append`); a failure is logged, never raised."""
        return self._group.ui_soon(game_id, ui, fence)

    async def drain(self) -> None:
        """Wait until every queued write (:meth:`append`, :meth:`ui_soon`) is stored."""
        await self._group.drain()

    async def load_log(self, game_id: int, start: int = 0) -> list[dict[str, Any]]:
        """The game's commands from ``seq >= start`` in seq order ([] for an unknown game)."""
        query = select(game_log.c.command).where(game_log.c.game_id == game_id, game_log.c.seq >= start)
        async with self._read() as connection:
            return list((await connection.execute(query.order_by(game_log.c.seq))).scalars())

    async def load_logs(self, game_ids: Sequence[int], chunk: int = 50) -> dict[int, list[dict[str, Any]]]:
        """The commands of several games at once (start-up recovery): game id -> its commands in
        seq order; a game without commands is missing. One query per ``chunk`` games."""
        logs: dict[int, list[dict[str, Any]]] = {}
        ids = list(game_ids)
        async with self._read() as connection:
            for first in range(0, len(ids), chunk):
                query = (select(game_log.c.game_id, game_log.c.command)
                         .where(game_log.c.game_id.in_(ids[first:first + chunk]))
                         .order_by(game_log.c.game_id, game_log.c.seq))
                for game_id, command in await connection.execute(query):
                    logs.setdefault(game_id, []).append(command)
        return logs

    async def load_events(self, game_id: int, start: int = 0) -> list[list[dict[str, Any]]]:
        """The events of each command from ``seq >= start``, in seq order (one list per command)."""
        query = select(game_log.c.events).where(game_log.c.game_id == game_id, game_log.c.seq >= start)
        async with self._read() as connection:
            return list((await connection.execute(query.order_by(game_log.c.seq))).scalars())
