"""Fixtures for the many-worker tests: a real Redis (``TEST_REDIS_URL``) and a PostgreSQL
database of the test's own (``TEST_DATABASE_URL``); skipped cleanly without them."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator

import pytest

from tests.fixtures_db import fresh_postgres_database
from tests.fixtures_redis import fresh_prefix, redis_namespace

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
    return fresh_prefix("t")


@pytest.fixture
async def redis(redis_url: str, prefix: str) -> AsyncIterator:
    async with redis_namespace(redis_url, prefix) as client:
        yield client


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    """A fresh PostgreSQL database, dropped afterwards."""
    if TEST_DATABASE_URL is None:
        pytest.skip("TEST_DATABASE_URL is not set")
    async with fresh_postgres_database("test") as url:
        yield url
