"""Restarts move no unrelated game (issue 19, item 5): stable worker ids, and a shard with a
game moves only when its holder is gone or leaves. Needs TEST_REDIS_URL and TEST_DATABASE_URL
(the id tests do not)."""

from __future__ import annotations

import asyncio
import socket

import pytest

from bot.cluster.routing import shard_of
from bot.cluster.serve import worker_name
from tests.bot.driver import join_all
from tests.bot.harness import GROUP
from tests.cluster.test_settings import settings
from tests.cluster.workers import Cluster, ClusterHarness


def test_an_unset_worker_id_is_the_host_and_the_index_not_the_pid(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MAFIA_WORKER_INDEX", raising=False)
    assert worker_name(settings()) == f"{socket.gethostname()}-0"
    monkeypatch.setenv("MAFIA_WORKER_INDEX", "3")
    assert worker_name(settings()) == f"{socket.gethostname()}-3"
    assert worker_name(settings(worker_id="eu")) == "eu-3"


@pytest.mark.usefixtures("redis")
async def test_a_worker_back_after_a_crash_leaves_the_games_where_they_went(
        pg_url: str, redis_url: str, prefix: str) -> None:
    """The owner of a lobby dies; the other worker takes its shards and the lobby. The dead
    worker comes back under its id: it takes back its idle shards, not the lobby's (no move
    back), and no shard the survivor served before moves."""
    c = Cluster(pg_url, redis_url, prefix, workers=2, shards=8)
    await c.start()
    try:
        h = ClusterHarness(c)
        game_id = await join_all(h)
        owner = c.owner_of(GROUP)
        survivor = next(n for n in c.live() if n is not owner)
        its_own, owners = set(survivor.worker.serving), set(owner.worker.serving)
        await c.kill(owner)
        await c.wait_served(timeout=10)
        assert game_id in survivor.app.service.games
        back = await c.add_node(owner.name)
        await c.wait_until(lambda: back.worker.serving, timeout=10)
        await asyncio.sleep(c.ttl * 2)  # a move back would have happened by now
        await c.wait_served(timeout=5)
        game_shard = shard_of(GROUP, c.shards)
        assert game_shard in survivor.worker.serving and game_shard not in back.worker.serving
        assert its_own <= survivor.worker.serving
        assert back.worker.serving == owners - {game_shard}  # its idle shards came back
        assert len(survivor.worker.takeover_seconds) == 2  # its start, the dead one's shards
    finally:
        await c.stop()
