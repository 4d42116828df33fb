"""Fencing tokens of the shards (issue 19): no write from a worker that lost its shard.

Many workers (bot/cluster/) serve a shard under a Redis lease, but a lease is judged by each
worker's own clock: a worker paused (SIGSTOP, a long GC, a VM migration) past its lease wakes up
believing it still holds the shard while another worker already serves it. So every write of a
game carries a :data:`Fence` — ``(shard, epoch)``, the epoch its worker got when it took the
shard over (:func:`bump_epochs`, one ``shard_epochs`` row per shard, moved on by each takeover in
its own transaction) — and the transaction that writes checks it first (:func:`stale_fences`):
the shard's row is read ``FOR SHARE``, so a takeover's bump waits for the writes in progress and
every write after it sees the new epoch (a writer paused inside its transaction is cut off by
PostgreSQL after :data:`IDLE_IN_TRANSACTION_MS`, its transaction rolled back). A write whose
epoch is not the row's is refused with :class:`StaleEpoch` and nothing of it lands; a takeover
reads the games after its bump, so it sees every write that landed before.

A fence with epoch 0 is never valid (no worker acts on a shard it never took over). ``None``
instead of a fence: one process, nothing to check.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage.engine import upsert
from bot.storage.models import ShardEpoch
from bot.storage.records import StorageError

__all__ = ["Fence", "StaleEpoch", "bump_epochs", "stale_fences", "without_stale"]

log = logging.getLogger(__name__)
shard_epochs = ShardEpoch.__table__

#: milliseconds PostgreSQL lets a fenced transaction wait for its client before ending it: a
#: worker paused in the middle of a write (holding its shard's row) cannot hold a takeover up
IDLE_IN_TRANSACTION_MS = 5000
#: ``(shard, epoch)``: the shard a write's game belongs to and the epoch its writer holds it by
Fence = tuple[int, int]


class StaleEpoch(StorageError):
    """A write refused: its worker's epoch of ``shard`` is not the current one (another worker
    took the shard over). ``chat_id``: the game's chat when known (else None)."""

    def __init__(self, shard: int, epoch: int, chat_id: int | None = None) -> None:
        super().__init__(f"shard {shard}: epoch {epoch} is stale; another worker serves it")
        self.shard, self.epoch, self.chat_id = shard, epoch, chat_id


async def stale_fences(connection: AsyncConnection, fences: Iterable[Fence | None]
                       ) -> set[Fence]:
    """The fences among ``fences`` (None skipped) that are stale, read in ``connection``'s
    transaction with the shards' rows locked ``FOR SHARE`` until it ends."""
    wanted = {f for f in fences if f is not None}
    if not wanted:
        return set()
    shards = sorted({shard for shard, _epoch in wanted})
    if connection.dialect.name == "postgresql":  # a writer paused holding the lock loses it
        await connection.execute(text(
            f"SET LOCAL idle_in_transaction_session_timeout = {IDLE_IN_TRANSACTION_MS}"))
    rows = dict((await connection.execute(
        select(shard_epochs.c.shard, shard_epochs.c.epoch)
        .where(shard_epochs.c.shard.in_(shards)).with_for_update(read=True))).all())
    return {(shard, epoch) for shard, epoch in wanted
            if epoch <= 0 or rows.get(shard) != epoch}


async def bump_epochs(connection: AsyncConnection, shards: Iterable[int]) -> dict[int, int]:
    """Move the epoch of each of ``shards`` on by one (a takeover; call in a transaction of its
    own, which waits for the writes in progress under the old epochs). Returns shard -> new
    epoch."""
    order = sorted(set(shards))
    if not order:
        return {}
    stmt = upsert(connection.engine, shard_epochs).values(
        [{"shard": s, "epoch": 1} for s in order])
    stmt = stmt.on_conflict_do_update(index_elements=[shard_epochs.c.shard],
                                      set_={"epoch": shard_epochs.c.epoch + 1})
    result = await connection.execute(stmt.returning(shard_epochs.c.shard, shard_epochs.c.epoch))
    return {int(shard): int(epoch) for shard, epoch in result.all()}


async def without_stale(connection: AsyncConnection, batch: list[Any],
                        uis: dict[int, tuple[dict, Any, Any]],
                        on_stale: Callable[[set[Fence]], None] | None
                        ) -> tuple[list[Any], dict[int, tuple[dict, Any, Any]]]:
    """The group commit's ``batch`` (``LogWrite``s, each with ``fence`` and ``future``) and
    ``uis`` (game id -> ``(ui, future, fence)``) without the writes whose fence is stale in
    ``connection``'s transaction: a stale log write's future fails with :class:`StaleEpoch`, a
    stale snapshot is dropped (its future resolved); ``on_stale(fences)`` is told which."""
    stale = await stale_fences(connection, [i.fence for i in batch] +
                               [fence for _ui, _f, fence in uis.values()])
    if not stale:
        return batch, uis
    for item in batch:
        if item.fence in stale and item.future is not None and not item.future.done():
            item.future.set_exception(StaleEpoch(*item.fence))
    dropped = {gid for gid, (_ui, _f, fence) in uis.items() if fence in stale}
    for gid in dropped:
        if not uis[gid][1].done():
            uis[gid][1].set_result(None)
    shards = {shard for shard, _epoch in stale}
    log.warning("refused %d write(s) of a worker that lost shard(s) %s (stale epoch)",
                sum(i.fence in stale for i in batch) + len(dropped), sorted(shards))
    if on_stale is not None:
        on_stale(stale)
    return ([i for i in batch if i.fence not in stale],
            {gid: u for gid, u in uis.items() if gid not in dropped})
