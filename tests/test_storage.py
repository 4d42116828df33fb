"""bot.storage against SQLite, and PostgreSQL when TEST_DATABASE_URL is set: games, their logs and
statuses (chats and players: test_storage_chats.py; the database itself: test_storage_engine.py)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from bot.storage import ActiveGameExists, GameNotFound, LogConflict, StatusError, Storage
from tests.storage_helpers import BIG_USER, SUPERGROUP, new_game


async def test_create_and_get_game_round_trips_every_column(storage: Storage) -> None:
    settings = {"day_seconds": 60, "roles": ["mafia", "doctor"], "title": "Вечерняя игра"}
    game_id = await storage.create_game(SUPERGROUP, "classic", BIG_USER, "en", settings, 2**63 - 1)
    game = await storage.get_game(game_id)
    assert game is not None
    assert (game.id, game.chat_id, game.creator_id, game.seed) == (game_id, SUPERGROUP, BIG_USER, 2**63 - 1)
    assert (game.ruleset, game.status, game.locale, game.settings) == ("classic", "lobby", "en", settings)
    assert (game.ui, game.log_len, game.winner, game.timer_seq, game.deadline_at) == ({}, 0, None, None, None)
    assert game.created_at.tzinfo is not None and game.created_at.utcoffset() == timedelta(0)
    assert abs(datetime.now(UTC) - game.created_at) < timedelta(minutes=1)
    assert game.started_at is None and game.finished_at is None
    assert await storage.get_game(game_id + 1000) is None


async def test_append_and_load_keep_seq_order(storage: Storage) -> None:
    game_id = await new_game(storage)
    commands = [{"type": "join", "user_id": BIG_USER + n, "name": f"игрок {n}"} for n in range(12)]
    for seq, command in enumerate(commands):
        await storage.append(game_id, seq, command, [{"event": "joined", "n": seq}, {"event": "tick"}])
    assert await storage.load_log(game_id) == commands
    events = await storage.load_events(game_id)
    assert events == [[{"event": "joined", "n": seq}, {"event": "tick"}] for seq in range(12)]
    assert await storage.load_log(game_id, start=10) == commands[10:]
    assert await storage.load_events(game_id, start=11) == events[11:]
    game = await storage.get_game(game_id)
    assert game is not None and game.log_len == 12
    # logs of different games do not mix
    other = await new_game(storage, chat_id=SUPERGROUP - 1)
    await storage.append(other, 0, {"type": "x"}, [])
    assert await storage.load_log(other) == [{"type": "x"}]
    assert len(await storage.load_log(game_id)) == 12
    assert await storage.load_log(other + 1000) == []


async def test_append_rejects_taken_or_out_of_order_seq(storage: Storage) -> None:
    game_id = await new_game(storage)
    await storage.append(game_id, 0, {"n": 0}, [])
    with pytest.raises(LogConflict) as taken:
        await storage.append(game_id, 0, {"n": "again"}, [])
    assert (taken.value.game_id, taken.value.seq, taken.value.log_len) == (game_id, 0, 1)
    with pytest.raises(LogConflict) as gap:
        await storage.append(game_id, 5, {"n": 5}, [])
    assert gap.value.log_len == 1
    assert await storage.load_log(game_id) == [{"n": 0}]
    game = await storage.get_game(game_id)
    assert game is not None and game.log_len == 1
    with pytest.raises(GameNotFound):
        await storage.append(game_id + 1000, 0, {}, [])


async def test_concurrent_appends_of_one_seq_exactly_one_wins(storage: Storage) -> None:
    game_id = await new_game(storage)
    results = await asyncio.gather(
        *(storage.append(game_id, 0, {"writer": n}, []) for n in range(5)), return_exceptions=True
    )
    conflicts = [r for r in results if isinstance(r, LogConflict)]
    assert len(conflicts) == 4 and results.count(None) == 1
    winner = results.index(None)
    assert await storage.load_log(game_id) == [{"writer": winner}]


async def test_second_active_game_in_a_chat_is_refused(storage: Storage) -> None:
    first = await new_game(storage)
    with pytest.raises(ActiveGameExists) as refused:
        await new_game(storage)
    assert refused.value.chat_id == SUPERGROUP
    await storage.set_status(first, "running")
    with pytest.raises(ActiveGameExists):
        await new_game(storage)
    assert (await new_game(storage, chat_id=SUPERGROUP + 1)) != first  # other chats are free
    await storage.set_status(first, "finished", winner="town")
    second = await new_game(storage)  # the chat is free again once the game ended
    active = await storage.active_game_for_chat(SUPERGROUP)
    assert active is not None and active.id == second
    await storage.set_status(second, "cancelled")
    assert await storage.active_game_for_chat(SUPERGROUP) is None
    await new_game(storage)


async def test_concurrent_create_game_exactly_one_wins(storage: Storage) -> None:
    results = await asyncio.gather(
        *(new_game(storage, creator_id=BIG_USER + n) for n in range(6)), return_exceptions=True
    )
    ids = [r for r in results if isinstance(r, int)]
    assert len(ids) == 1
    assert all(isinstance(r, ActiveGameExists) for r in results if not isinstance(r, int))
    active = await storage.active_game_for_chat(SUPERGROUP)
    assert active is not None and active.id == ids[0]


async def test_status_transitions_stamp_times_and_refuse_going_back(storage: Storage) -> None:
    game_id = await new_game(storage)
    await storage.set_status(game_id, "running")
    running = await storage.get_game(game_id)
    assert running is not None and running.status == "running" and running.started_at is not None
    with pytest.raises(StatusError):
        await storage.set_status(game_id, "lobby")
    with pytest.raises(StatusError):
        await storage.set_status(game_id, "paused")
    await storage.set_status(game_id, "running")  # re-entering is allowed and keeps the stamp
    again = await storage.get_game(game_id)
    assert again is not None and again.started_at == running.started_at
    await storage.set_status(game_id, "finished", winner="mafia")
    done = await storage.get_game(game_id)
    assert done is not None and (done.status, done.winner) == ("finished", "mafia")
    assert done.finished_at is not None and done.finished_at >= running.started_at
    for status in ("running", "cancelled", "lobby"):
        with pytest.raises(StatusError) as refused:
            await storage.set_status(game_id, status)
        assert refused.value.current == "finished"
    with pytest.raises(GameNotFound):
        await storage.set_status(game_id + 1000, "running")


async def test_append_applies_status_and_winner_atomically(storage: Storage) -> None:
    game_id = await new_game(storage)
    await storage.append(game_id, 0, {"type": "start"}, [{"event": "started"}], status="running")
    game = await storage.get_game(game_id)
    assert game is not None and game.status == "running" and game.started_at is not None
    await storage.append(game_id, 1, {"type": "vote"}, [{"event": "won"}], status="finished", winner="town")
    game = await storage.get_game(game_id)
    assert game is not None and (game.status, game.winner, game.log_len) == ("finished", "town", 2)
    assert game.finished_at is not None
    # a refused status change writes nothing, not even the log row
    with pytest.raises(StatusError):
        await storage.append(game_id, 2, {"type": "late"}, [], status="running")
    assert await storage.load_log(game_id) == [{"type": "start"}, {"type": "vote"}]
    game = await storage.get_game(game_id)
    assert game is not None and game.log_len == 2


async def test_active_and_finished_game_listings(storage: Storage) -> None:
    lobby = await new_game(storage, chat_id=-1)
    running = await new_game(storage, chat_id=-2)
    await storage.set_status(running, "running")
    finished = []
    for n in range(5):
        game_id = await new_game(storage, chat_id=SUPERGROUP)
        await storage.set_status(game_id, "running")
        await storage.set_status(game_id, "finished" if n != 2 else "cancelled", winner="town")
        finished.append(game_id)
    assert [g.id for g in await storage.active_games()] == [lobby, running]
    newest_first = [finished[4], finished[3], finished[1], finished[0]]
    assert [g.id for g in await storage.finished_games(SUPERGROUP, 0, 10)] == newest_first
    assert [g.id for g in await storage.finished_games(SUPERGROUP, 1, 2)] == newest_first[1:3]
    with_cancelled = await storage.finished_games(SUPERGROUP, 0, 10, include_cancelled=True)
    assert [g.id for g in with_cancelled] == finished[::-1]
    assert await storage.count_finished_games(SUPERGROUP) == 4
    assert await storage.count_finished_games(SUPERGROUP, include_cancelled=True) == 5
    assert await storage.finished_games(-1, 0, 10) == []
