"""The fencing side of a :class:`bot.cluster.worker.ShardWorker` (issue 19): which shards it
may act on, by which epoch, and what happens when the database says it may not.

A shard is this worker's while it holds the shard's lease in time (``Leases.holds``) *and* has
its fencing epoch (``epochs``, got from PostgreSQL at the takeover, bot/storage/fencing.py).
The epoch goes when the lease is lost without a hand-over (``_revoked``: nothing more is
written or sent for it — ``GameService.persist_ui_soon`` skips, the Sender drops what was
queued, ``bot.telegram.update_context.ACTING``), at the end of a hand-over, and when the database
refuses a write as stale (``_stale``: the shard is given up at once).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from .routing import shard_of

logger = logging.getLogger("bot.cluster.worker")


class Fencing:
    """Mixed into ``ShardWorker`` (uses its ``leases``, ``shards``, ``app``, ``_lost`` and
    ``_takeovers``)."""

    leases: Any
    shards: int
    app: Any
    epochs: dict[int, int]
    _takeovers: set[asyncio.Task]

    async def _lost(self, shards: set[int]) -> None:
        raise NotImplementedError

    def owns(self, chat_id: int) -> bool:
        """True while this worker serves ``chat_id``'s shard (``GameService.owns``): its lease
        and its fencing epoch."""
        shard = shard_of(chat_id, self.shards)
        return shard in self.epochs and self.leases.holds(shard)

    def fence(self, chat_id: int) -> tuple[int, int]:
        """``(shard, epoch)`` of ``chat_id``'s writes (epoch 0: not this worker's to write)."""
        shard = shard_of(chat_id, self.shards)
        return shard, self.epochs.get(shard, 0)

    def still_ours(self, fence: tuple[int, int]) -> bool:
        """True while ``fence`` is this worker's (its lease held in time, the same epoch)."""
        shard, epoch = fence
        return self.epochs.get(shard) == epoch and self.leases.holds(shard)

    def _revoked(self, shards: set[int]) -> None:
        """Shards lost without a hand-over: nothing more is written or sent for them."""
        for shard in shards:
            self.epochs.pop(shard, None)

    def _stale(self, fences: set[tuple[int, int]]) -> None:
        """The database refused writes as stale: the shards they name (under the epoch this
        worker still has) were taken over elsewhere; they are given up at once."""
        lost = {shard for shard, epoch in fences if self.epochs.get(shard) == epoch}
        if not lost:
            return
        for shard in lost:
            self.leases.held.pop(shard, None)
        self._revoked(lost)
        logger.error("gave up %d shard(s): another worker took them over (stale epoch)",
                     len(lost))
        task = asyncio.get_running_loop().create_task(self._lost(lost))
        self._takeovers.add(task)
        task.add_done_callback(self._takeovers.discard)

    def _busy(self, shard: int) -> bool:
        """True while a game of ``shard`` is in memory here."""
        return any(shard_of(g.chat_id, self.shards) == shard
                   for g in list(self.app.service.games.values()))
