"""Database fixtures: every test using them runs on SQLite and, when
``TEST_DATABASE_URL`` is set (``postgresql+asyncpg://...``), on PostgreSQL too.

* ``database`` -- a :class:`Database`: an empty, isolated database (a temporary SQLite
  file, or a fresh PostgreSQL schema dropped afterwards). ``database.storage()`` builds
  a not yet started :class:`bot.storage.Storage` on it (call it again to simulate a
  restart of the bot on the same data).
* ``storage`` -- a started Storage on ``database``, closed after the test.
* ``db_url`` -- just a URL of an empty, isolated database, for code that builds its own
  Storage from a URL (``bot.app.build_app``): a temporary SQLite file, or a fresh PostgreSQL
  database created for the test and dropped afterwards.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.storage import Storage, create_engine

__all__ = ["Database", "database", "db_url", "fresh_postgres_database", "storage",
           "TEST_DATABASE_URL"]

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL") or None

_BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param(
        "postgres",
        id="postgres",
        marks=pytest.mark.skipif(TEST_DATABASE_URL is None, reason="TEST_DATABASE_URL is not set"),
    ),
]


@asynccontextmanager
async def fresh_postgres_database(prefix: str = "test") -> AsyncIterator[str]:
    """A new PostgreSQL database on ``TEST_DATABASE_URL``'s server (named ``<prefix>_<random>``),
    dropped afterwards (connections forced out); yields its URL."""
    assert TEST_DATABASE_URL is not None
    name = f"{prefix}_{uuid.uuid4().hex[:16]}"
    admin = create_engine(TEST_DATABASE_URL, isolation_level="AUTOCOMMIT")
    try:
        async with admin.connect() as connection:
            await connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
        yield make_url(TEST_DATABASE_URL).set(database=name).render_as_string(hide_password=False)
    finally:
        async with admin.connect() as connection:
            await connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.dispose()


@dataclass
class Database:
    """An isolated test database: ``url`` plus the engine options that select it."""

    backend: str  # "sqlite" | "postgres"
    url: str
    engine_options: dict[str, Any] = field(default_factory=dict)

    def storage(self) -> Storage:
        """A new, not yet started Storage on this database."""
        return Storage(self.url, **self.engine_options)

    def engine(self) -> AsyncEngine:
        """A new engine on this database (dispose of it yourself)."""
        return create_engine(self.url, **self.engine_options)


@pytest.fixture(params=_BACKENDS)
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Database]:
    if request.param == "sqlite":
        yield Database("sqlite", f"sqlite+aiosqlite:///{tmp_path / 'mafia.db'}")
        return
    assert TEST_DATABASE_URL is not None
    schema = f"test_{uuid.uuid4().hex[:16]}"
    admin = create_engine(TEST_DATABASE_URL)
    try:
        async with admin.begin() as connection:
            await connection.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
        yield Database(
            "postgres",
            TEST_DATABASE_URL,
            {"connect_args": {"server_settings": {"search_path": schema}}},
        )
    finally:
        async with admin.begin() as connection:
            await connection.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        await admin.dispose()


@pytest.fixture
async def storage(database: Database) -> AsyncIterator[Storage]:
    store = database.storage()
    await store.start()
    try:
        yield store
    finally:
        await store.close()


@pytest.fixture(params=_BACKENDS)
async def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'mafia.db'}"
        return
    assert TEST_DATABASE_URL is not None
    async with fresh_postgres_database("test") as url:
        yield url
