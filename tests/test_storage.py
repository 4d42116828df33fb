"""bot.storage against SQLite, and PostgreSQL when TEST_DATABASE_URL is set."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from bot.storage import (
    ActiveGameExists,
    ChatSettings,
    GameNotFound,
    LogConflict,
    StatusError,
    Storage,
)
from tests.fixtures_db import Database

SUPERGROUP = -1001234567890123  # |id| > 2**40, like real supergroup ids
BIG_USER = 2**62 + 12345
OTHER_USER = 2**41 + 7


async def new_game(storage: Storage, chat_id: int = SUPERGROUP, **overrides) -> int:
    args: dict[str, Any] = {"ruleset": "classic", "creator_id": BIG_USER, "locale": "ru",
                            "settings": {}, "seed": 42}
    args.update(overrides)
    return await storage.create_game(chat_id, **args)


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


async def test_move_chat_moves_games_and_settings(storage: Storage) -> None:
    old, new = -123456, SUPERGROUP
    ended = await new_game(storage, chat_id=old)
    await storage.set_status(ended, "cancelled")
    active = await new_game(storage, chat_id=old)
    await storage.save_chat_settings(old, locale="en", data={"night_seconds": 45})
    await storage.save_chat_settings(new, data={"stale": True})
    assert await storage.move_chat(old, new) == 2
    game = await storage.active_game_for_chat(new)
    assert game is not None and game.id == active and game.chat_id == new
    assert await storage.active_game_for_chat(old) is None
    assert await storage.finished_games(new, 0, 10, include_cancelled=True) != []
    assert await storage.get_chat_settings(new) == ChatSettings("en", {"night_seconds": 45})
    assert await storage.get_chat_settings(old) == ChatSettings()
    # both chats with an active game: refused, nothing changed
    other = await new_game(storage, chat_id=old)
    with pytest.raises(ActiveGameExists):
        await storage.move_chat(old, new)
    moved_back = await storage.active_game_for_chat(old)
    assert moved_back is not None and moved_back.id == other
    assert await storage.move_chat(-999, -998) == 0


async def test_big_ids_round_trip_everywhere(storage: Storage) -> None:
    chat = -(2**52) - 3
    game_id = await storage.create_game(chat, "classic", BIG_USER, "ru", {"owner": BIG_USER}, -(2**63))
    await storage.set_player(game_id, BIG_USER, "Big", seat=1)
    await storage.set_player(game_id, OTHER_USER, "Other")
    await storage.append(game_id, 0, {"user_id": BIG_USER}, [{"chat_id": chat}])
    await storage.save_chat_settings(chat, data={"admin": OTHER_USER})
    game = await storage.get_game(game_id)
    assert game is not None and (game.chat_id, game.creator_id, game.seed) == (chat, BIG_USER, -(2**63))
    assert game.settings == {"owner": BIG_USER}
    assert await storage.load_log(game_id) == [{"user_id": BIG_USER}]
    assert await storage.load_events(game_id) == [[{"chat_id": chat}]]
    assert [p.user_id for p in await storage.list_players(game_id)] == [BIG_USER, OTHER_USER]
    assert await storage.active_game_for_user(OTHER_USER) == game_id
    assert (await storage.get_chat_settings(chat)).data == {"admin": OTHER_USER}


async def test_chat_settings_round_trip(storage: Storage) -> None:
    assert await storage.get_chat_settings(SUPERGROUP) == ChatSettings(None, {})
    data = {"night_seconds": 40, "roles": {"doctor": True, "sheriff": False}, "note": "ночь — 40 с"}
    assert await storage.save_chat_settings(SUPERGROUP, locale="en", data=data) == ChatSettings("en", data)
    assert await storage.get_chat_settings(SUPERGROUP) == ChatSettings("en", data)
    await storage.save_chat_settings(SUPERGROUP, locale="ru")  # data kept
    assert await storage.get_chat_settings(SUPERGROUP) == ChatSettings("ru", data)
    await storage.save_chat_settings(SUPERGROUP, data={"night_seconds": 30})  # locale kept, data replaced
    assert await storage.get_chat_settings(SUPERGROUP) == ChatSettings("ru", {"night_seconds": 30})
    await storage.save_chat_settings(SUPERGROUP, locale=None)  # back to the default locale
    assert await storage.get_chat_settings(SUPERGROUP) == ChatSettings(None, {"night_seconds": 30})
    assert await storage.get_chat_settings(SUPERGROUP + 1) == ChatSettings()
    # concurrent first saves of one chat do not collide
    await asyncio.gather(*(storage.save_chat_settings(-77, data={"n": n}) for n in range(5)))
    assert (await storage.get_chat_settings(-77)).data["n"] in range(5)


async def test_players_join_leave_and_active_game_for_user(storage: Storage) -> None:
    game_id = await new_game(storage)
    await storage.set_player(game_id, BIG_USER, "Анна")
    await storage.set_player(game_id, OTHER_USER, "Boris")
    await storage.set_player(game_id, 5, "Carl")
    assert [p.name for p in await storage.list_players(game_id)] == ["Анна", "Boris", "Carl"]
    await storage.set_player(game_id, 5, "Carl", seat=1)
    await storage.set_player(game_id, BIG_USER, "Anna", seat=2)
    players = await storage.list_players(game_id)
    assert [(p.name, p.seat) for p in players] == [("Carl", 1), ("Anna", 2), ("Boris", None)]
    assert players[0].joined_at.tzinfo is not None
    assert await storage.remove_player(game_id, OTHER_USER) is True
    assert await storage.remove_player(game_id, OTHER_USER) is False
    assert await storage.active_game_for_user(OTHER_USER) is None
    assert await storage.active_game_for_user(BIG_USER) == game_id
    await storage.set_status(game_id, "cancelled")
    assert await storage.active_game_for_user(BIG_USER) is None
    with pytest.raises(GameNotFound):
        await storage.set_player(game_id + 1000, BIG_USER, "ghost")


async def test_ui_merge_and_deadlines(storage: Storage) -> None:
    game_id = await new_game(storage)
    assert await storage.update_ui(game_id, {"lobby_message_id": 10, "pinned": 11}) == {
        "lobby_message_id": 10,
        "pinned": 11,
    }
    assert await storage.update_ui(game_id, {"pinned": None, "night_message_id": 12}) == {
        "lobby_message_id": 10,
        "night_message_id": 12,
    }
    game = await storage.get_game(game_id)
    assert game is not None and game.ui == {"lobby_message_id": 10, "night_message_id": 12}
    moscow = timezone(timedelta(hours=3))
    deadline = datetime(2030, 5, 1, 21, 30, 15, 250000, tzinfo=moscow)
    await storage.set_deadline(game_id, 7, deadline)
    game = await storage.get_game(game_id)
    assert game is not None and game.timer_seq == 7 and game.deadline_at == deadline
    assert game.deadline_at.utcoffset() == timedelta(0)  # comes back in UTC
    await storage.set_deadline(game_id, None, None)
    game = await storage.get_game(game_id)
    assert game is not None and (game.timer_seq, game.deadline_at) == (None, None)
    with pytest.raises(ValueError):
        await storage.set_deadline(game_id, 1, datetime(2030, 1, 1))
    with pytest.raises(GameNotFound):
        await storage.set_deadline(game_id + 1000, 1, deadline)
    with pytest.raises(GameNotFound):
        await storage.update_ui(game_id + 1000, {})


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


async def test_append_stores_the_deadline_in_the_same_transaction(storage: Storage) -> None:
    game_id = await new_game(storage)
    at = datetime(2030, 1, 2, 3, 4, 5, tzinfo=UTC)
    await storage.append(game_id, 0, {"type": "a"}, [], deadline=(7, at))
    game = await storage.get_game(game_id)
    assert game is not None and (game.timer_seq, game.deadline_at) == (7, at)
    await storage.append(game_id, 1, {"type": "b"}, [])  # KEEP: unchanged
    game = await storage.get_game(game_id)
    assert game is not None and (game.timer_seq, game.deadline_at) == (7, at)
    await storage.append(game_id, 2, {"type": "c"}, [], deadline=(None, None))
    game = await storage.get_game(game_id)
    assert game is not None and (game.timer_seq, game.deadline_at) == (None, None)
    # a refused append stores no deadline either
    with pytest.raises(LogConflict):
        await storage.append(game_id, 2, {"type": "dup"}, [], deadline=(9, at))
    game = await storage.get_game(game_id)
    assert game is not None and game.timer_seq is None
    with pytest.raises(ValueError):
        await storage.append(game_id, 3, {"type": "d"}, [], deadline=(1, datetime(2030, 1, 1)))


async def test_chat_settings_are_read_once_and_refreshed_by_every_write(database) -> None:
    """issue 11: a chat's settings come from memory after the first read; the writes of this
    Storage refresh them; another process's are seen only where this one does not cache
    (many workers: chats it does not serve) or after ``forget_chat_settings``."""
    from sqlalchemy import event

    mine, other = database.storage(), database.storage()
    await mine.start()
    await other.start()
    reads: list[str] = []

    def note(_conn, _cursor, statement, *_args) -> None:
        if "FROM chat_settings" in statement and statement.lstrip().startswith("SELECT"):
            reads.append(statement)

    event.listen(mine.engine.sync_engine, "before_cursor_execute", note)
    try:
        await mine.save_chat_settings(SUPERGROUP, locale="en", data={"tempo": "short"})
        reads.clear()
        first = await mine.get_chat_settings(SUPERGROUP)
        first.data["tempo"] = "changed by the caller"  # a copy: the cache keeps its own
        assert await mine.get_chat_settings(SUPERGROUP) == ChatSettings("en", {"tempo": "short"})
        assert len(reads) == 1
        await mine.save_chat_settings(SUPERGROUP, data={"tempo": "detailed"})
        assert await mine.get_chat_settings(SUPERGROUP) == ChatSettings("en", {"tempo": "detailed"})
        await mine.move_chat(SUPERGROUP, SUPERGROUP - 1)
        assert await mine.get_chat_settings(SUPERGROUP) == ChatSettings()
        assert await mine.get_chat_settings(SUPERGROUP - 1) == ChatSettings("en", {"tempo": "detailed"})
        await other.save_chat_settings(SUPERGROUP - 1, locale="ru")  # another process
        assert (await mine.get_chat_settings(SUPERGROUP - 1)).locale == "en"  # cached here
        mine.forget_chat_settings()  # e.g. its shard was handed over
        assert (await mine.get_chat_settings(SUPERGROUP - 1)).locale == "ru"
        mine.settings_owned = lambda chat_id: chat_id != SUPERGROUP - 1  # served elsewhere
        await other.save_chat_settings(SUPERGROUP - 1, locale="en")
        assert (await mine.get_chat_settings(SUPERGROUP - 1)).locale == "en"  # not cached
    finally:
        event.remove(mine.engine.sync_engine, "before_cursor_execute", note)
        await mine.close()
        await other.close()
