"""Workers of one bot agree on SHARDS, WEBHOOK_SECRET and the database (issue 12,
the newcomer trial: a worker with other SHARDS lost updates silently; one with another secret
made every other worker refuse every update)."""

from __future__ import annotations

import pytest

from bot.cluster.agreement import Disagreement, agree
from bot.config import Settings

PG = "postgresql+asyncpg://u:pw1@db:5432/mafia"


def settings(**values) -> Settings:
    base = {"bot_token": "123456:ABCdef", "database_url": PG, "redis_url": "redis://r:6379/0",
            "webhook_url": "https://bot.example.com", "webhook_secret": "s3cret-A"}
    return Settings(_env_file=None, **{**base, **values})


async def test_the_same_settings_agree(redis, prefix: str) -> None:
    await agree(redis, prefix, settings(), ttl=5)
    await agree(redis, prefix, settings(), ttl=5)
    stored = await redis.hgetall(f"{prefix}config")
    assert "s3cret-A" not in str(stored) and "pw1" not in str(stored)


@pytest.mark.parametrize("values, name", [
    ({"shards": 32}, "SHARDS"),
    ({"webhook_secret": "s3cret-B"}, "WEBHOOK_SECRET"),
    ({"database_url": "postgresql+asyncpg://u:pw1@db:5432/other"}, "DATABASE_URL"),
])
async def test_a_worker_that_differs_is_refused_and_told_which_setting(
        redis, prefix: str, values, name) -> None:
    await agree(redis, prefix, settings(), ttl=5)
    with pytest.raises(Disagreement) as caught:
        await agree(redis, prefix, settings(**values), ttl=5)
    assert name in str(caught.value)
    assert "s3cret" not in str(caught.value) and "pw1" not in str(caught.value)


async def test_the_record_expires_when_no_worker_is_left(redis, prefix: str) -> None:
    import asyncio

    await agree(redis, prefix, settings(), ttl=0.2)
    await asyncio.sleep(0.4)
    await agree(redis, prefix, settings(shards=32), ttl=5)  # all stopped: a new setting is fine
