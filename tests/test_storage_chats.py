"""bot.storage against SQLite (and PostgreSQL with TEST_DATABASE_URL): chats and players -- a
migrated chat, big ids, chat settings, players joining and leaving, the UI record and deadlines."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta, timezone

import pytest

from bot.storage import ActiveGameExists, ChatSettings, GameNotFound, LogConflict, Storage
from tests.storage_helpers import BIG_USER, OTHER_USER, SUPERGROUP, new_game


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
