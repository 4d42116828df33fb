"""Many workers in one process (issue 12): full bot stacks sharing PostgreSQL and Redis, updates
entering through the webhook inbox. Needs TEST_REDIS_URL and TEST_DATABASE_URL."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.callbacks import Act
from bot.cluster.routing import shard_of
from engine import Phase
from tests.bot.driver import join_all, play_to_end, step
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


async def test_shards_are_split_between_the_workers(cluster: Cluster) -> None:
    a, b = cluster.nodes
    assert a.worker.serving and b.worker.serving
    assert a.worker.serving.isdisjoint(b.worker.serving)
    assert a.worker.serving | b.worker.serving == set(range(cluster.shards))


async def test_a_whole_game_across_workers(cluster: Cluster) -> None:
    h = ClusterHarness(cluster)
    game_id = await join_all(h)
    await h.command(cluster.users[0], "/startgame")
    owner = cluster.owner_of(GROUP)
    other = next(n for n in cluster.nodes if n is not owner)
    await play_to_end(h, seed=3)
    st = (await owner.app.storage.get_game(game_id))
    assert st.status == "finished"
    assert game_id not in other.app.service.games  # only the owner ever held it
    # updates came in through both workers' inboxes
    assert h.sent_via[owner.name] > 10 and h.sent_via[other.name] > 10


async def test_the_same_update_twice_is_handled_once(cluster: Cluster) -> None:
    h = ClusterHarness(cluster)
    update = cluster.updates.group_command(GROUP, cluster.users[0], "/newgame")
    a, b = cluster.nodes
    assert await cluster.send(update, via=a) is True
    assert await cluster.send(update, via=b) is False  # Telegram's retry: seen
    await cluster.settle()
    lobbies = [t for t in h.texts(GROUP) if "/newgame" not in t and "join" in t.lower()]
    assert len(lobbies) == 1
    g = await h.game()
    assert g.state.commands == 1


async def test_two_presses_at_once_have_one_effect(cluster: Cluster) -> None:
    h = ClusterHarness(cluster)
    await join_all(h)
    g = await h.game()
    await h.command(cluster.users[0], "/startgame")
    rng = random.Random(5)  # play to the first vote
    for _ in range(400):
        st = (await h.game()).state
        if st.phase is Phase.VOTING or st.over:
            break
        await step(h, rng)
    assert st.phase is Phase.VOTING
    voter = next(u for u in cluster.users if st.players.get(u.id) and st.players[u.id].alive
                 and u.id not in st.vote.votes)
    mid, data = next((mid, b["callback_data"]) for mid, b in h.buttons(GROUP)
                     if (b.get("callback_data") or "").startswith("a:")
                     and Act.unpack(b["callback_data"]).a == "vote")
    a, b = cluster.nodes
    before = (await h.game()).state.commands
    one = cluster.updates.callback(voter, (GROUP, mid), data)
    two = cluster.updates.callback(voter, (GROUP, mid), data)
    # the same vote button pressed twice at once (two updates), through two workers
    await asyncio.gather(cluster.send(one, via=a), cluster.send(two, via=b))
    await cluster.settle()
    after = (await h.game()).state
    assert after.commands == before + 1
    assert g.id == (await h.game()).id


async def test_a_killed_worker_s_game_goes_on_elsewhere(cluster: Cluster) -> None:
    h = ClusterHarness(cluster)
    game_id = await join_all(h)
    await h.command(cluster.users[0], "/startgame")
    owner = cluster.owner_of(GROUP)
    survivor = next(n for n in cluster.nodes if n is not owner)
    await cluster.kill(owner)
    took = await cluster.wait_served(timeout=10)
    assert took <= 10
    assert shard_of(GROUP, cluster.shards) in survivor.worker.serving
    assert game_id in survivor.app.service.games  # recovered with the shard
    await play_to_end(h, seed=4)
    assert (await survivor.app.storage.get_game(game_id)).status == "finished"
