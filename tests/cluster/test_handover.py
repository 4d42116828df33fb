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


async def test_an_update_passed_on_after_its_owner_applied_it_is_not_applied_again(
        cluster: Cluster) -> None:
    """Issue 19: a worker frozen while it handled an update lost the game's shard; the new owner
    claimed the update and applied it; the frozen worker woke up, found the game not its own
    and passed the update on. The owner gets it once more, as a new entry: the log has it, so
    nothing is applied twice (a passed-on update is handled as redelivered)."""
    import json

    from bot.cluster.inbox import stream_key
    from engine import game_of
    from tests.bot.driver import join_all
    from tests.cluster.workers import state_of, stored_game

    h = ClusterHarness(cluster)
    game_id = await join_all(h, cluster.users[:5])
    owner = cluster.owner_of(GROUP)
    late = cluster.users[5]
    join = cluster.updates.private_text(late, f"/start join_{game_id}")
    await cluster.send(join)
    await cluster.settle()
    assert await owner.app.storage.update_applied(game_id, join.update_id)
    # he left since: the join applied again would seat him again
    await owner.app.service.execute(game_id, lambda g: game_of(g.state).leave(late.id))
    length = (await stored_game(owner.app.storage, game_id)).log_len
    # the same update, passed on by the worker that woke up (one hop)
    data = join.model_dump(mode="json", exclude_none=True, by_alias=True)
    shard = shard_of(GROUP, cluster.shards)
    await owner.redis.xadd(stream_key(cluster.prefix, shard),
                           {"u": json.dumps(data), "h": "1"})
    await cluster.settle()
    assert (await stored_game(owner.app.storage, game_id)).log_len == length
    assert late.id not in state_of(owner.app.service.games[game_id]).players
    assert owner.worker.counts["redelivered"] >= 1
