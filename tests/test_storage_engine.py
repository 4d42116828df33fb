"""bot.storage's database itself: data survives a restart, SQLite's WAL mode and foreign keys,
no use before start, in-memory URLs under concurrent coroutines."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from sqlalchemy import text

from bot.storage import Storage
from tests.fixtures_db import Database
from tests.storage_helpers import new_game


async def test_data_survives_a_restart(database: Database) -> None:
    first = database.storage()
    await first.start()
    game_id = await new_game(first)
    await first.append(game_id, 0, {"type": "join"}, [])
    await first.close()
    second = database.storage()
    await second.start()  # migrating an up-to-date schema is a no-op
    try:
        assert await second.load_log(game_id) == [{"type": "join"}]
        assert [g.id for g in await second.active_games()] == [game_id]
    finally:
        await second.close()


async def test_sqlite_runs_in_wal_mode_with_foreign_keys(database: Database) -> None:
    if database.backend != "sqlite":
        pytest.skip("SQLite only")
    storage = database.storage()
    await storage.start()
    try:
        async with storage.engine.connect() as connection:
            assert (await connection.exec_driver_sql("PRAGMA journal_mode")).scalar() == "wal"
            assert (await connection.exec_driver_sql("PRAGMA foreign_keys")).scalar() == 1
        game_id = await new_game(storage)
        await storage.append(game_id, 0, {}, [])
        await storage.set_player(game_id, 1, "x")
        async with storage.engine.begin() as connection:  # ON DELETE CASCADE works
            await connection.execute(text("DELETE FROM games"))
        assert await storage.load_log(game_id) == []
        assert await storage.list_players(game_id) == []
    finally:
        await storage.close()


async def test_storage_refuses_use_before_start(tmp_path) -> None:
    storage = Storage(f"sqlite+aiosqlite:///{tmp_path / 'sub' / 'dir' / 'x.db'}")
    with pytest.raises(RuntimeError):
        await storage.get_game(1)
    await storage.start()  # creates the missing folders
    try:
        assert (tmp_path / "sub" / "dir" / "x.db").exists()
    finally:
        await storage.close()


@pytest.mark.parametrize("url", ["sqlite+aiosqlite://", "sqlite+aiosqlite:///:memory:"])
async def test_in_memory_url_supports_concurrent_coroutines(url: str) -> None:
    storage = Storage(url)
    await storage.start()
    try:
        games = await asyncio.gather(*(new_game(storage, chat_id=-n) for n in range(1, 6)))
        await asyncio.gather(*(storage.append(game_id, 0, {"g": game_id}, []) for game_id in games))
        assert [await storage.load_log(game_id) for game_id in games] == [[{"g": g}] for g in games]
        assert storage._tmpdir is not None  # an in-memory URL: a file in a temporary folder
        folder = storage._tmpdir.name
    finally:
        await storage.close()
    assert not Path(folder).exists()
