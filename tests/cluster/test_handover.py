"""A worker's hand-over races (issue 12): what a worker that does not (or no longer) serve a
chat must not do. Needs TEST_REDIS_URL and TEST_DATABASE_URL."""

from __future__ import annotations

import asyncio

import pytest

from bot.cluster.routing import shard_of
from tests.bot.harness import GROUP
from tests.cluster.workers import Cluster, ClusterHarness

pytestmark = pytest.mark.usefixtures("redis")


@pytest.fixture
async def cluster(pg_url: str, redis_url: str, prefix: str):
    c = Cluster(pg_url, redis_url, prefix, workers=2, shards=8)
    await c.start()
    try:
        yield c
    finally:
        await c.stop()


async def test_newgame_on_a_worker_not_serving_the_chat_stores_nothing(cluster: Cluster) -> None:
    """A worker that does not serve the group refuses to create its lobby before inserting the
    game (an empty lobby left behind would make the owner's /newgame answer "already open")."""
    from bot.services.game_service import NotOwner

    owner = cluster.owner_of(GROUP)
    other = next(n for n in cluster.nodes if n is not owner)
    with pytest.raises(NotOwner):
        await other.app.service.new_game(GROUP, cluster.users[0].id, "en", {})
    assert await other.app.storage.active_game_for_chat(GROUP) is None


async def test_an_entry_read_just_after_its_shard_was_handed_over_is_queued_again(
        cluster: Cluster, monkeypatch: pytest.MonkeyPatch) -> None:
    """The blocking read began while the shard was served and returned after it was handed
    over: the worker does not handle the entry but queues it again for the shard's owner."""
    from bot.cluster.inbox import stream_key

    h = ClusterHarness(cluster)
    owner = cluster.owner_of(GROUP)
    shard = shard_of(GROUP, cluster.shards)
    key = stream_key(cluster.prefix, shard)
    real_read = owner.redis.xreadgroup
    handed: list[bool] = []

    async def read_then_hand_over(*args, **kwargs):
        replies = await real_read(*args, **kwargs)
        if any(k == key for k, _entries in replies or ()) and not handed:
            owner.worker.serving.discard(shard)  # as _lost does, while the read was blocked
            handed.append(True)
        return replies

    monkeypatch.setattr(owner.redis, "xreadgroup", read_then_hand_over)
    await asyncio.sleep(0.7)  # the read under way (0.5 s at most) is over: the next is patched
    update = cluster.updates.group_command(GROUP, cluster.users[0], "/newgame")
    assert await cluster.send(update, via=owner)
    for _ in range(40):
        await asyncio.sleep(0.05)
        if handed:
            break
    assert handed
    await asyncio.sleep(0.6)  # the entry is back on the stream, and nobody reads the shard
    assert await owner.app.storage.active_game_for_chat(GROUP) is None
    assert owner.worker.counts["handled"] == 0
    owner.worker.serving.add(shard)  # served again (by the owner): handled there, once
    await cluster.settle()
    g = await h.game()
    assert g is not None and g.state.commands == 1
    lobbies = [t for t in h.texts(GROUP) if "join" in t.lower()]
    assert len(lobbies) == 1
