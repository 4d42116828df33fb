"""Group commit of the command log (bot/storage/group_commit.py, issue 11): the appends of
several games share one transaction, a refused write fails alone, players and presentation
snapshots ride along. SQLite, and PostgreSQL when TEST_DATABASE_URL is set."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from bot.storage import GameRecord, LogConflict, PlayerOp, StatusError, Storage
from tests.storage_helpers import SUPERGROUP, new_game


async def stored(storage: Storage, game_id: int) -> GameRecord:
    """The stored row of ``game_id`` (the test fails here when there is none)."""
    record = await storage.get_game(game_id)
    assert record is not None, f"game {game_id} is not stored"
    return record


async def test_concurrent_appends_of_several_games_share_one_transaction(storage: Storage) -> None:
    games = [await new_game(storage, chat_id=SUPERGROUP - n) for n in range(5)]
    batches, writes = storage._group.batches, storage._group.writes  # noqa: SLF001
    at = datetime(2030, 5, 6, 7, 8, 9, tzinfo=UTC)
    await asyncio.gather(*(storage.append(g, 0, {"g": g}, [{"e": g}],
                                          deadline=(3, at) if g % 2 else (None, None))
                           for g in games))
    assert (storage._group.batches - batches, storage._group.writes - writes) == (1, 5)  # noqa: SLF001
    for g in games:
        assert await storage.load_log(g) == [{"g": g}]
        assert await storage.load_events(g) == [[{"e": g}]]
        rec = await stored(storage, g)
        assert rec.log_len == 1
        assert (rec.timer_seq, rec.deadline_at) == ((3, at) if g % 2 else (None, None))


async def test_a_refused_write_fails_alone_and_the_others_commit(storage: Storage) -> None:
    first, second, third = [await new_game(storage, chat_id=SUPERGROUP - n) for n in range(3)]
    await storage.append(first, 0, {"n": 0}, [])
    results = await asyncio.gather(
        storage.append(first, 0, {"n": "taken"}, []),
        storage.append(second, 0, {"n": 0}, []),
        storage.append(third, 5, {"n": "gap"}, []),
        return_exceptions=True)
    assert isinstance(results[0], LogConflict) and results[0].log_len == 1
    assert results[1] is None
    assert isinstance(results[2], LogConflict) and results[2].log_len == 0
    assert await storage.load_log(first) == [{"n": 0}]
    assert await storage.load_log(second) == [{"n": 0}]
    assert await storage.load_log(third) == []


async def test_a_status_change_in_a_batch_is_checked_per_game(storage: Storage) -> None:
    running, other = [await new_game(storage, chat_id=SUPERGROUP - n) for n in range(2)]
    await storage.append(running, 0, {"n": 0}, [], status="finished", winner="town")
    results = await asyncio.gather(
        storage.append(running, 1, {"n": 1}, [], status="running"),  # finished is final
        storage.append(other, 0, {"n": 0}, [], status="running"),
        return_exceptions=True)
    assert isinstance(results[0], StatusError) and results[1] is None
    assert (await stored(storage, other)).status == "running"
    assert (await stored(storage, running)).log_len == 1


async def test_players_are_stored_with_their_command(storage: Storage) -> None:
    game = await new_game(storage)
    await storage.append(game, 0, {"type": "join"}, [], players=[PlayerOp(7, "Аня"), PlayerOp(8, "Bo")])
    await storage.append(game, 1, {"type": "deal"}, [], players=[PlayerOp(7, "Аня", seat=2)])
    await storage.append(game, 2, {"type": "leave"}, [], players=[PlayerOp(8, None)])
    assert [(p.user_id, p.name, p.seat) for p in await storage.list_players(game)] == [(7, "Аня", 2)]
    with pytest.raises(LogConflict):  # a refused command stores no player either
        await storage.append(game, 2, {"type": "again"}, [], players=[PlayerOp(9, "Cy")])
    assert [p.user_id for p in await storage.list_players(game)] == [7]


async def test_ui_snapshots_newest_wins_and_none_is_dropped(storage: Storage) -> None:
    game = await new_game(storage)
    first = storage.ui_soon(game, {"table": 1, "names": {"7": "A"}})
    second = storage.ui_soon(game, {"table": 2, "names": None})
    assert first is second  # one write, the newest snapshot
    await storage.drain()
    assert (await stored(storage, game)).ui == {"table": 2}
