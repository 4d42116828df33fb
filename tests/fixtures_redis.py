"""Redis for tests: one shared database (``TEST_REDIS_URL``), each test under a key prefix of its
own, whose keys are deleted afterwards (never ``FLUSHDB``: other tests use the database)."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any


def fresh_prefix(tag: str = "t") -> str:
    """A fresh key prefix, e.g. ``t1f3a9c0b2e:`` (``tag`` + 10 hex digits + ``:``)."""
    return f"{tag}{uuid.uuid4().hex[:10]}:"


@asynccontextmanager
async def redis_namespace(url: str, prefix: str) -> AsyncIterator[Any]:
    """A ``redis.asyncio.Redis`` client on ``url`` (strings decoded); on exit every key under
    ``prefix`` is deleted and the client closed."""
    from redis.asyncio import Redis

    client = Redis.from_url(url, decode_responses=True)
    try:
        yield client
    finally:
        keys = [k async for k in client.scan_iter(f"{prefix}*")]
        if keys:
            await client.delete(*keys)
        await client.aclose()
