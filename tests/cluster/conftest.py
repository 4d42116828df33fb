"""Fixtures for the many-worker tests: a real Redis (``TEST_REDIS_URL``) and a PostgreSQL
database of the test's own (``TEST_DATABASE_URL``); skipped cleanly without them."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator

import pytest
from sqlalchemy.engine import make_url

from bot.storage import create_engine

TEST_REDIS_URL = os.environ.get("TEST_REDIS_URL") or None
TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL") or None
needs_services = pytest.mark.skipif(
    TEST_REDIS_URL is None or TEST_DATABASE_URL is None,
    reason="TEST_REDIS_URL and TEST_DATABASE_URL are needed")


@pytest.fixture
async def redis_url() -> str:
    if TEST_REDIS_URL is None:
        pytest.skip("TEST_REDIS_URL is not set")
    return TEST_REDIS_URL


@pytest.fixture
def prefix() -> str:
    """A Redis key prefix of the test's own (tests share one Redis database)."""
    return f"t{uuid.uuid4().hex[:10]}:"


@pytest.fixture
async def redis(redis_url: str, prefix: str) -> AsyncIterator:
    from redis.asyncio import Redis

    client = Redis.from_url(redis_url, decode_responses=True)
    try:
        yield client
    finally:
        keys = [k async for k in client.scan_iter(f"{prefix}*")]
        if keys:
            await client.delete(*keys)
        await client.aclose()


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    """A fresh PostgreSQL database, dropped afterwards."""
    if TEST_DATABASE_URL is None:
        pytest.skip("TEST_DATABASE_URL is not set")
    name = f"test_{uuid.uuid4().hex[:16]}"
    admin = create_engine(TEST_DATABASE_URL, isolation_level="AUTOCOMMIT")
    try:
        async with admin.connect() as connection:
            await connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
        yield make_url(TEST_DATABASE_URL).set(database=name).render_as_string(hide_password=False)
    finally:
        async with admin.connect() as connection:
            await connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.dispose()
