"""A user is in at most one lobby or running game, whichever worker joins him (issue 12): the
``active_players`` row taken with the ``Join``/``BecomeHost`` command in its transaction. Two
Storage + GameService pairs on one database stand for two workers."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.services.game_service import GameService
from bot.storage import UserInAnotherGame
from engine import BecomeHost, IllegalCommand, game_of
from tests.bot.harness import GROUP, make_harness
from tests.fixtures_db import Database

USER = 700_000_000_999


class Quiet:
    """A presenter that shows nothing."""

    def present(self, *args) -> None:
        pass


@pytest.fixture
async def workers(database: Database) -> AsyncIterator[tuple[GameService, GameService]]:
    storages = [database.storage(), database.storage()]
    for storage in storages:
        await storage.start()
    try:
        yield GameService(storages[0], Quiet()), GameService(storages[1], Quiet())
    finally:
        for storage in storages:
            await storage.close()


def join(uid: int = USER, name: str = "Ann"):
    return lambda g: game_of(g.state).join(uid, name)


async def test_two_workers_joining_one_user_at_once_put_him_in_one_game(workers) -> None:
    one, two = workers
    a = await one.new_game(-1, 1, "en", {})
    b = await two.new_game(-2, 2, "en", {})
    for _round in range(3):
        results = await asyncio.gather(one.execute(a, join()), two.execute(b, join()),
                                       return_exceptions=True)
        failed = [r for r in results if isinstance(r, BaseException)]
        assert len(failed) == 1 and isinstance(failed[0], UserInAnotherGame), results
        winner, loser = (a, b) if failed[0].game_id == b else (b, a)
        assert failed[0].other_game_id == winner
        assert await one.game_for_user(USER) == winner
        lost = two if loser == b else one
        assert USER not in (await lost.state(loser)).players  # nothing applied, nothing stored
        assert [p.user_id for p in await lost.storage.list_players(loser)] == []
        owner = one if winner == a else two
        await owner.execute(winner, lambda g: game_of(g.state).leave(USER))
        assert await one.game_for_user(USER) is None


async def test_a_host_is_held_too_and_an_ended_game_lets_him_go(workers) -> None:
    one, two = workers
    a = await one.new_game(-1, 1, "en", {})
    b = await two.new_game(-2, 2, "en", {})
    await one.execute(a, BecomeHost(user_id=USER, name="Host"))
    with pytest.raises(UserInAnotherGame):
        await two.execute(b, join())
    with pytest.raises(UserInAnotherGame):
        await two.execute(b, BecomeHost(user_id=USER, name="Host"))
    for _twice in range(2):  # another user joins, leaves and joins again: his row follows
        await one.execute(a, join(USER + 1, "Bob"))
        await one.execute(a, lambda g: game_of(g.state).leave(USER + 1))
    await one.execute(a, join(USER + 1, "Bob"))
    await one.execute(a, lambda g: game_of(g.state).cancel("cancelled", by=1))
    await two.execute(b, join())
    assert await two.game_for_user(USER) == b
    await two.execute(b, join(USER + 1, "Bob"))


async def test_a_started_game_keeps_its_players_held(workers) -> None:
    one, two = workers
    a = await one.new_game(-1, 1, "en", {})
    for uid in range(10, 16):
        await one.execute(a, join(uid, f"P{uid}"))
    await one.start(a, 10)
    assert game_of(st := await one.state(a)).status(st) == "running"
    b = await two.new_game(-2, 2, "en", {})
    with pytest.raises(UserInAnotherGame):
        await two.execute(b, join(12, "P12"))
    with pytest.raises(IllegalCommand):  # the rules' refusals are unchanged
        await one.execute(a, join(99, "Late"))


async def test_the_deep_link_answers_when_another_worker_was_first(db_url: str) -> None:
    """The lobby's own check read the database before the other worker's join was stored:
    the store refuses, and the user is told, not put in a second game."""
    h1 = await make_harness(db_url, n_users=2)
    h2 = await make_harness(db_url, n_users=2)
    try:
        other = -1005550001
        h2.session.chat_titles[other] = "Other group"
        user = h1.users[1]
        h2.session.register_user(user)
        await h1.command(h1.users[0], "/newgame")
        await h2.command(h2.users[0], "/newgame", chat_id=other)
        a, b = await h1.service.game_for_chat(GROUP), await h2.service.game_for_chat(other)
        await h1.dm(user, f"/start join_{a}")

        async def stale(_user_id: int) -> None:  # checked before worker 1 committed
            return None

        h2.service.game_for_user = stale
        await h2.dm(user, f"/start join_{b}")
        assert h2.sent_texts(user.id)[-1] == "You are already in another game. Leave it first."
        assert user.id not in (await h2.service.state(b)).players
        assert await h1.service.game_for_user(user.id) == a
    finally:
        await h2.stop()
        await h1.stop()


async def test_a_403_seen_by_another_worker_leaves_the_game_to_its_holder(workers) -> None:
    one, two = workers
    one.owns = lambda chat_id: chat_id == -1  # worker one serves chat -1, two the others
    two.owns = lambda chat_id: chat_id != -1
    a = await one.new_game(-1, 1, "en", {})
    for uid in range(10, 16):
        await one.execute(a, join(uid, f"P{uid}"))
    await one.start(a, 10)
    log_len = (await one.storage.get_game(a)).log_len
    await two.user_unreachable(12)  # a DM of worker two's game to a player of worker one's
    assert a not in two.games and (await two.storage.get_game(a)).log_len == log_len
    await one.user_unreachable(12)  # the holder's own 403: he is marked inactive
    assert (await one.storage.get_game(a)).log_len == log_len + 1
    assert not (await one.state(a)).players[12].active


async def test_the_migration_fills_active_players_from_the_open_games(database: Database) -> None:
    from sqlalchemy import text

    from tests.test_migrations import migrate

    engine = database.engine()
    try:
        await migrate(engine, "upgrade", "0002")
        async with engine.begin() as connection:
            for gid, chat, status in ((1, -1, "finished"), (2, -2, "running"), (3, -3, "lobby")):
                await connection.execute(text(
                    "INSERT INTO games (id, chat_id, ruleset, status, locale, settings, seed, "
                    "creator_id, created_at, ui, log_len) VALUES (:id, :chat, 'party', :status, "
                    "'en', '{}', 1, 1, CURRENT_TIMESTAMP, '{}', 0)"),
                    {"id": gid, "chat": chat, "status": status})
            for gid, uid in ((1, 10), (2, 10), (2, 11), (3, 11), (1, 12)):
                await connection.execute(text(
                    "INSERT INTO game_players (game_id, user_id, name, joined_at) "
                    "VALUES (:g, :u, 'x', CURRENT_TIMESTAMP)"), {"g": gid, "u": uid})
        await migrate(engine, "upgrade", "head")
        async with engine.connect() as connection:
            rows = (await connection.execute(text(
                "SELECT user_id, game_id FROM active_players ORDER BY user_id"))).all()
        # 10: his running game, not the finished one; 11 was in two: the newest; 12: none
        assert [tuple(r) for r in rows] == [(10, 2), (11, 3)]
    finally:
        await engine.dispose()
