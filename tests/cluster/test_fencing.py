"""Fencing between workers (issue 19, item 3): a worker paused past its lease — with messages
queued and an update in flight — writes and sends nothing once another worker took its shard
over, and nothing is lost. In-process workers (tests/cluster/workers.py); the pause is
simulated: the owner's lease loop and reader stop, its database writes and its sends wait at
a gate that opens after the takeover. Needs TEST_REDIS_URL and TEST_DATABASE_URL."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from functools import partial

import pytest
from sqlalchemy import select

from bot.cluster.routing import shard_of
from bot.storage.models import GamePlayer
from bot.telegram.update_context import ACTING
from tests.bot.driver import join_all
from tests.bot.harness import GROUP
from tests.cluster.workers import Cluster, ClusterHarness, state_of, stored_game

pytestmark = pytest.mark.usefixtures("redis")


def pause(node, gate: asyncio.Event) -> dict[str, bool]:
    """The node's sends to the group and its database transactions wait for ``gate`` (a paused
    process; its private replies go on, or a join handler could wait for one of them)."""
    limiter, group = node.app.sender.limiter, node.app.storage._group
    acquire, write = limiter.acquire, group._write

    async def gated_acquire(chat_id: int) -> None:
        if chat_id == GROUP:
            await gate.wait()
        await acquire(chat_id)

    @asynccontextmanager
    async def gated_write():
        if closed["write"]:
            closed["waiting"] = True
            await gate.wait()
        async with write() as connection:
            yield connection

    closed = {"write": False, "waiting": False}
    limiter.acquire, group._write = gated_acquire, gated_write
    return closed


async def test_a_worker_paused_past_its_lease_writes_and_sends_nothing_and_loses_nothing(
        pg_url: str, redis_url: str, prefix: str) -> None:
    c = Cluster(pg_url, redis_url, prefix, workers=2, shards=8)
    await c.start()
    gate = asyncio.Event()
    try:
        h = ClusterHarness(c)
        game_id = await join_all(h, c.users[:5])
        owner = c.owner_of(GROUP)
        survivor = next(n for n in c.live() if n is not owner)
        storage = owner.app.storage
        length = (await stored_game(storage, game_id)).log_len
        closed = pause(owner, gate)
        # a join whose messages stay queued in the owner's Sender ...
        await c.send(c.updates.private_text(c.users[5], f"/start join_{game_id}"), via=owner)
        await c.wait_until(lambda: game_id in owner.app.service.games
                           and state_of(owner.app.service.games[game_id]).commands == length + 1)

        async def queue_for_the_game() -> asyncio.Future:  # as the presenter does, in a command
            ACTING.set(partial(owner.worker.still_ours, owner.worker.fence(GROUP)))
            return owner.app.sender.send(GROUP, "queued by the owner before its pause")

        queued = await asyncio.create_task(queue_for_the_game())
        assert not owner.app.sender.idle
        closed["write"] = True
        # ... then the owner's process stops: its writes wait, a second join is in flight
        owner.worker.leases._task.cancel()
        for task in owner.worker._tasks:
            task.cancel()
        await asyncio.gather(owner.worker.leases._task, *owner.worker._tasks,
                             return_exceptions=True)
        await c.send(c.updates.private_text(c.users[6], f"/start join_{game_id}"), via=owner)
        read = await owner.redis.xreadgroup(
            "workers", owner.name, {f"{prefix}s:{shard_of(GROUP, c.shards)}": ">"}, count=10)
        for entry_id, fields in read[0][1]:
            owner.worker._spawn(shard_of(GROUP, c.shards), entry_id, fields)
        await c.wait_until(lambda: closed["waiting"])  # its append waits at the gate
        g = owner.app.service.games[game_id]
        g.ui["stale"] = 1
        owner.app.service.persist_ui_soon(g)  # a presentation write queued by the paused owner
        calls = sum(owner.app.sender.stats.calls.values())
        owner.alive = False
        await c.wait_served(timeout=15)  # the survivor took every shard over
        assert game_id in survivor.app.service.games
        owner.alive = True
        gate.set()  # SIGCONT
        await c.wait_until(lambda: not any(owner.worker._inflight.values()), timeout=10)
        owner.alive = False
        await c.settle()
        await owner.app.sender.drain()
        await storage.drain()
        # none of its writes landed, none of its messages went out
        assert sum(owner.app.sender.stats.calls.values()) == calls
        assert queued.done() and queued.result() is None
        rec = await stored_game(survivor.app.storage, game_id)
        assert "stale" not in (rec.ui or {})
        assert not owner.worker.owns(GROUP)  # the refused write gave the shard up at once
        assert shard_of(GROUP, c.shards) not in owner.worker.epochs
        # nothing was lost: both joins are in the game, each once (the second by the survivor)
        async with survivor.app.storage._read() as connection:
            players = set((await connection.execute(
                select(GamePlayer.user_id).where(GamePlayer.game_id == game_id))).scalars())
        assert {c.users[5].id, c.users[6].id} <= players
        assert rec.log_len == length + 2
        assert survivor.worker.counts["handled"] >= 1
    finally:
        gate.set()
        await c.stop()
