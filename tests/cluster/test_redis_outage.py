"""Redis blinks (issue 19, item 4): emptied by a restart, it moves no shard, logs no traceback
and the games go on. Needs TEST_REDIS_URL and TEST_DATABASE_URL. (The webhook's hold and
answer while Redis is unreachable: tests/cluster/test_workers.py.)"""

from __future__ import annotations

import asyncio
import logging

import pytest

from tests.bot.driver import join_all
from tests.bot.harness import GROUP
from tests.cluster.workers import Cluster, ClusterHarness, stored_game

pytestmark = pytest.mark.usefixtures("redis")


async def test_redis_restarted_empty_moves_no_shard_and_the_game_goes_on(
        pg_url: str, redis_url: str, prefix: str, caplog: pytest.LogCaptureFixture) -> None:
    c = Cluster(pg_url, redis_url, prefix, workers=2, shards=8)
    await c.start()
    try:
        h = ClusterHarness(c)
        game_id = await join_all(h, c.users[:5])
        serving = {n.name: set(n.worker.serving) for n in c.live()}
        takeovers = {n.name: len(n.worker.takeover_seconds) for n in c.live()}
        redis = c.live()[0].redis
        caplog.set_level(logging.INFO)
        keys = [key async for key in redis.scan_iter(match=f"{prefix}*")]
        await redis.delete(*keys)  # every lease, heartbeat, stream and group gone
        await asyncio.sleep(c.ttl * 3)
        assert {n.name: set(n.worker.serving) for n in c.live()} == serving
        assert {n.name: len(n.worker.takeover_seconds) for n in c.live()} == takeovers
        await h.command(c.users[0], "/startgame")  # the streams and groups are made again
        assert (await stored_game(c.owner_of(GROUP).app.storage, game_id)).status == "running"
        assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
    finally:
        await c.stop()
