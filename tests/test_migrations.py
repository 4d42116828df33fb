"""Alembic migrations: stairway (up/down/up at every revision) and models == migrations,
on SQLite and, when TEST_DATABASE_URL is set, PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.migrations import alembic_config, run_migrations
from bot.storage import ActiveGameExists
from bot.storage.models import Base
from tests.fixtures_db import Database


def revisions_oldest_first() -> list[str]:
    script = ScriptDirectory.from_config(alembic_config())
    return [rev.revision for rev in reversed(list(script.walk_revisions("base", "heads")))]


async def migrate(engine: AsyncEngine, command: str, revision: str) -> None:
    async with engine.connect() as connection:
        await connection.run_sync(run_migrations, command, revision)


async def current_revision(engine: AsyncEngine) -> str | None:
    async with engine.connect() as connection:
        return await connection.run_sync(lambda sync: MigrationContext.configure(sync).get_current_revision())


async def table_names(engine: AsyncEngine) -> set[str]:
    async with engine.connect() as connection:
        return set(await connection.run_sync(lambda sync: inspect(sync).get_table_names()))


def test_there_is_exactly_one_head() -> None:
    script = ScriptDirectory.from_config(alembic_config())
    assert len(script.get_heads()) == 1
    assert revisions_oldest_first()[0] == "0001"


async def test_stairway_up_down_up(database: Database) -> None:
    engine = database.engine()
    try:
        previous = "base"
        for revision in revisions_oldest_first():
            await migrate(engine, "upgrade", revision)
            assert await current_revision(engine) == revision
            await migrate(engine, "downgrade", previous)
            assert await current_revision(engine) == (None if previous == "base" else previous)
            await migrate(engine, "upgrade", revision)
            previous = revision
        await migrate(engine, "downgrade", "base")
        assert await table_names(engine) <= {"alembic_version"}
        await migrate(engine, "upgrade", "head")
        assert await table_names(engine) >= set(Base.metadata.tables)
        assert await current_revision(engine) == revisions_oldest_first()[-1]
    finally:
        await engine.dispose()


async def test_models_match_migrations(database: Database) -> None:
    engine = database.engine()
    try:
        await migrate(engine, "upgrade", "head")

        def diff(sync: Connection) -> list:
            context = MigrationContext.configure(sync, opts={"compare_type": True})
            return compare_metadata(context, Base.metadata)

        async with engine.connect() as connection:
            assert await connection.run_sync(diff) == []
    finally:
        await engine.dispose()


async def test_the_active_game_index_survives_the_stairway(database: Database) -> None:
    engine = database.engine()
    try:
        await migrate(engine, "upgrade", "head")
        await migrate(engine, "downgrade", "base")
    finally:
        await engine.dispose()
    storage = database.storage()
    await storage.start()
    try:
        await storage.create_game(-5, "classic", 1, "ru", {}, 1)
        with pytest.raises(ActiveGameExists):
            await storage.create_game(-5, "classic", 1, "ru", {}, 1)
    finally:
        await storage.close()


async def test_concurrent_starts_migrate_once(database: Database) -> None:
    storages = [database.storage() for _ in range(3)]
    try:
        await asyncio.gather(*(storage.start() for storage in storages))
        game_id = await storages[0].create_game(-1, "classic", 1, "ru", {}, 1)
        assert (await storages[2].get_game(game_id)) is not None
    finally:
        for storage in storages:
            await storage.close()


_START_ONE = """
import asyncio, json, sys
import alembic.command, alembic.script, alembic.runtime.migration
from bot.storage import Storage

async def main():
    storage = Storage(sys.argv[1], **json.loads(sys.argv[2]))
    print("ready", flush=True)
    sys.stdin.readline()
    await storage.start()
    await storage.close()

asyncio.run(main())
"""


async def test_concurrent_processes_migrate_once(database: Database) -> None:
    """Several workers starting at once on one database: PostgreSQL's advisory lock and
    SQLite's BEGIN IMMEDIATE make them migrate one after another."""
    root = Path(__file__).resolve().parent.parent
    processes = [
        await asyncio.create_subprocess_exec(
            sys.executable, "-c", _START_ONE, database.url, json.dumps(database.engine_options),
            cwd=root, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        for _ in range(4)
    ]
    # Each worker reports "ready" once imported; then all are released together.
    for process in processes:
        assert process.stdout is not None and process.stderr is not None  # PIPEs
        line = await asyncio.wait_for(process.stdout.readline(), timeout=60)
        assert line == b"ready\n", (line, (await process.stderr.read()).decode())
    for process in processes:
        assert process.stdin is not None  # a PIPE
        process.stdin.write(b"go\n")
    outputs = await asyncio.wait_for(asyncio.gather(*(p.communicate() for p in processes)), timeout=120)
    for process, (_, stderr) in zip(processes, outputs, strict=True):
        assert process.returncode == 0, stderr.decode()
    engine = database.engine()
    try:
        assert await current_revision(engine) == revisions_oldest_first()[-1]
    finally:
        await engine.dispose()
