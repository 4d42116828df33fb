"""Onlookers with many workers (issue 12): a user watching a game held by another worker must
stop watching it there before he watches one here (only its holder may change its list). Two
harnesses on one database stand for two workers, each holding the game it created."""

from __future__ import annotations

from engine import Phase
from tests.bot.harness import GROUP, Harness, make_harness, make_users
from tests.bot.helpers import start_game
from tests.fakes.updates import FakeUser

GROUP2 = -1009876543210
WATCHER = FakeUser(800_000_000_001, "Watcher", username="watcher")
ELSEWHERE = "👁 You are watching another game. Send me /unspectate in the private chat"
WELCOME = "👁 You are watching the game in «Second group»."


async def start_second(h: Harness) -> int:
    """Game B in GROUP2 with players of its own."""
    h.users = make_users(6, first=20)
    for u in h.users:
        h.session.register_user(u)
    h.session.chat_titles[GROUP2] = "Second group"
    await h.command(h.users[0], "/newgame", chat_id=GROUP2)
    b = await h.service.game_for_chat(GROUP2)
    for u in h.users:
        await h.dm(u, f"/start join_{b}")
    await h.command(h.users[0], "/startgame", chat_id=GROUP2)
    assert (await h.service.state(b)).phase is Phase.READY
    return b


async def test_watching_a_game_of_another_worker_first_stops_the_old_one(db_url: str) -> None:
    h1 = await make_harness(db_url, n_users=6)
    h2 = await make_harness(db_url, n_users=6)
    try:
        for h in (h1, h2):
            h.session.register_user(WATCHER)
        a = await start_game(h1)
        b = await start_second(h2)
        assert a not in h2.service.games and b not in h1.service.games
        await h1.dm(WATCHER, f"/start spectate_{a}")
        await h1.service.drain()

        await h2.dm(WATCHER, f"/start spectate_{b}")  # B's worker cannot drop him from A
        assert h2.sent_texts(WATCHER.id)[-1].startswith(ELSEWHERE)
        assert WATCHER.id not in ((await h2.service.live(b)).ui.get("onlookers") or [])
        await h2.command(WATCHER, "/spectate", chat_id=GROUP2)
        assert h2.sent_texts(GROUP2)[-1].startswith(ELSEWHERE)
        await h2.command(WATCHER, "/unspectate", chat_id=GROUP2)  # the group's worker: not A's
        assert h2.sent_texts(GROUP2)[-1] == \
            "👁 Send /unspectate in your private chat with me to stop watching."
        assert WATCHER.id in (await h1.service.live(a)).ui["onlookers"]

        await h1.dm(WATCHER, "/unspectate")  # routed to A's worker (bot/cluster/routing.py)
        await h1.service.drain()
        await h2.dm(WATCHER, f"/start spectate_{b}")
        assert h2.sent_texts(WATCHER.id)[-1].startswith(WELCOME)
        assert (await h2.service.live(b)).ui["onlookers"] == [WATCHER.id]
    finally:
        await h2.stop()
        await h1.stop()


async def test_one_worker_moves_an_onlooker_between_its_games_as_before(db_url: str) -> None:
    h = await make_harness(db_url, n_users=6)
    try:
        h.session.register_user(WATCHER)
        a = await start_game(h)
        players = h.users
        b = await start_second(h)
        await h.dm(WATCHER, f"/start spectate_{a}")
        await h.service.drain()
        await h.dm(WATCHER, f"/start spectate_{b}")
        assert h.sent_texts(WATCHER.id)[-1].startswith(WELCOME)
        assert not (await h.service.live(a)).ui.get("onlookers")
        assert players[0].id in (await h.service.state(a)).players
        assert (await h.game(GROUP)).id == a
    finally:
        await h.stop()


async def test_the_watched_games_worker_takes_a_lobby_players_text_without_loading_his_lobby(
        db_url: str) -> None:
    """Routed to the worker of the game he watches (bot/cluster/routing.py), his text reaches
    the onlookers' chat there; his lobby, held by the other worker, is not loaded."""
    h1 = await make_harness(db_url, n_users=6)
    h2 = await make_harness(db_url, n_users=6)
    try:
        for h in (h1, h2):
            h.session.register_user(WATCHER)
        a = await start_game(h1)
        second = FakeUser(800_000_000_002, "Second", username="second")
        h1.session.register_user(second)
        await h1.dm(WATCHER, f"/start spectate_{a}")
        await h1.dm(second, f"/start spectate_{a}")
        h2.session.chat_titles[GROUP2] = "Second group"
        await h2.command(h2.users[0], "/newgame", chat_id=GROUP2)
        b = await h2.service.game_for_chat(GROUP2)
        await h2.dm(WATCHER, f"/start join_{b}")
        assert WATCHER.id in (await h2.service.state(b)).players
        await h1.dm(WATCHER, "anyone here?")
        assert b not in h1.service.games
        assert any("anyone here?" in t for t in h1.sent_texts(second.id))
    finally:
        await h2.stop()
        await h1.stop()
