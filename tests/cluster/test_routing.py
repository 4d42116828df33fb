"""The route chat of an update (bot/cluster/routing.py, issue 12), on SQLite and PostgreSQL:
updates built as Telegram posts them (aiogram Updates dumped to JSON), games created through
the bot itself (``/newgame``, deep links, ``/startgame``), so the lookups run on real rows."""

from __future__ import annotations

import zlib
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from bot.cluster.routing import route_chat, shard_of
from bot.ui.callbacks import Act, Hist, LobbyAct
from tests.bot.harness import GROUP, Harness, make_harness
from tests.bot.helpers import start_game
from tests.fakes.updates import FakeUser

GROUP2 = -1009876543210
BASIC = -4123456  # a basic group (before it becomes a supergroup)
WATCHER = FakeUser(800_000_000_001, "Watcher", username="watcher")
STRANGER = FakeUser(800_000_000_009, "Stranger", username="stranger")


def js(update) -> dict:
    """The JSON Telegram posts for an aiogram Update."""
    return update.model_dump(mode="json", exclude_none=True, by_alias=True)


@dataclass
class World:
    """Game A running in GROUP (players ``a``), game B a lobby in GROUP2 (player ``b``, who
    also watches A), ``WATCHER`` watching A, ``STRANGER`` in no game."""

    h: Harness
    a: int
    b: int

    @property
    def storage(self):
        return self.h.service.storage

    async def route(self, update) -> int:
        return await route_chat(js(update) if not isinstance(update, dict) else update,
                                self.storage)


@pytest.fixture
async def world(db_url: str) -> AsyncIterator[World]:
    h = await make_harness(db_url, n_users=7)
    h.session.chat_titles[GROUP2] = "Second group"
    for u in (WATCHER, STRANGER):
        h.session.register_user(u)
    try:
        a = await start_game(h, h.users[:6])
        await h.dm(WATCHER, f"/start spectate_{a}")
        lobbyist = h.users[6]
        await h.dm(lobbyist, f"/start spectate_{a}")  # watches A first, then joins B's lobby
        await h.command(lobbyist, "/newgame", chat_id=GROUP2)
        b = await h.service.game_for_chat(GROUP2)
        await h.dm(lobbyist, f"/start join_{b}")
        ga, gb = await h.service.live(a), await h.service.live(b)
        assert set(ga.ui["onlookers"]) == {WATCHER.id, lobbyist.id}
        assert lobbyist.id in gb.state.players
        await h.service.drain()  # the onlooker lists are in the database
        yield World(h, a, b)
    finally:
        await h.stop()


# --- groups --------------------------------------------------------------------------------
async def test_anything_in_a_group_goes_to_the_group(world: World) -> None:
    h, up = world.h, world.h.updates
    player = h.users[0]
    assert await world.route(up.group_command(GROUP2, player, "/newgame")) == GROUP2
    assert await world.route(up.group_text(GROUP, STRANGER, "hello")) == GROUP
    edited = js(up.group_text(GROUP, player, "typo"))
    edited["edited_message"] = edited.pop("message")
    assert await world.route(edited) == GROUP
    # a button on a group message, even one naming the game of another chat
    forged = Act(g=world.b, s=0, a="vote").pack()
    assert await world.route(up.callback(player, (GROUP, 1), forged)) == GROUP
    assert await world.route(up.my_chat_member(GROUP2, "kicked", "member")) == GROUP2
    assert await world.route(up.chat_member(GROUP, player, "left", "member")) == GROUP
    assert await world.route(up.left_chat_member(GROUP, player)) == GROUP
    assert await world.route(up.new_chat_members(GROUP, [STRANGER])) == GROUP


async def test_a_migration_goes_to_the_old_chat_and_its_twin_to_the_new(world: World) -> None:
    up = world.h.updates
    update = js(up.migrate(BASIC, GROUP2))
    assert update["message"]["migrate_to_chat_id"] == GROUP2
    assert await world.route(update) == BASIC
    assert await world.route(up.migrate_from(BASIC, GROUP2)) == GROUP2


# --- private chats: a game named in the update ------------------------------------------------
@pytest.mark.parametrize("kind", ["join", "host", "spectate", "knew", "export"])
async def test_a_deep_link_naming_a_game_goes_to_that_games_group(world: World, kind: str) -> None:
    up = world.h.updates
    assert await world.route(up.private_text(STRANGER, f"/start {kind}_{world.b}")) == GROUP2
    assert await world.route(up.private_text(STRANGER, f"/start {kind}_{world.a}")) == GROUP
    # a player of A following a link to B: the link wins over his own game
    player = world.h.users[0]
    assert await world.route(up.private_text(player, f"/start {kind}_{world.b}")) == GROUP2


async def test_deep_links_that_name_no_game_fall_back(world: World) -> None:
    up, player = world.h.updates, world.h.users[0]
    for text in ("/start", "/start join_", "/start join_99999", "/start join_x1",
                 f"/start nojoin_{world.b}", "/start join_99999999999999999999",
                 f"/start@mafia_test_bot join_{world.b}x"):
        assert await world.route(up.private_text(STRANGER, text)) == STRANGER.id, text
        assert await world.route(up.private_text(player, text)) == GROUP, text
    assert await world.route(up.private_text(STRANGER, f"/start@mafia_test_bot join_{world.b}")) \
        == GROUP2


async def test_buttons_naming_a_game_in_a_private_chat(world: World) -> None:
    up = world.h.updates
    for data in (Act(g=world.b, s=3, a="kill", t=2).pack(), LobbyAct(g=world.b, a="leave").pack(),
                 Hist(a="k", g=world.b, p=1).pack()):
        assert await world.route(up.callback(STRANGER, (STRANGER.id, 5), data)) == GROUP2, data
    player = world.h.users[0]  # the data's game, not his own
    assert await world.route(up.callback(player, (player.id, 5), Act(g=world.b, s=0, a="x").pack())
                             ) == GROUP2
    # no game in the data, an unknown game, junk: his own game, else his id
    for data in (Hist(a="m", p=2).pack(), Act(g=424242, s=0, a="x").pack(), "junk", "a:", "a:-5"):
        assert await world.route(up.callback(player, (player.id, 5), data)) == GROUP, data
        assert await world.route(up.callback(STRANGER, (STRANGER.id, 5), data)) == STRANGER.id


async def test_a_button_on_an_inline_message_goes_to_the_user(world: World) -> None:
    player = world.h.users[0]
    update = js(world.h.updates.callback(player, (player.id, 5), Act(g=world.a, s=0, a="x").pack()))
    del update["callback_query"]["message"]
    update["callback_query"]["inline_message_id"] = "AAAbbb"
    assert await world.route(update) == player.id


# --- private chats: the user's own game -------------------------------------------------------
async def test_a_player_or_host_in_private_goes_to_his_game(world: World) -> None:
    h, up = world.h, world.h.updates
    player = h.users[2]
    for text in ("hi team", "/said 4", "/rules", "/pause", "/panel", "/start"):
        assert await world.route(up.private_text(player, text)) == GROUP, text
    lobbyist = h.users[6]
    assert await world.route(up.private_text(lobbyist, "/rules")) == GROUP2
    assert await world.route(up.private_text(lobbyist, "/start")) == GROUP2


async def test_an_onlooker_goes_to_the_game_he_watches(world: World) -> None:
    up = world.h.updates
    for text in ("what a game", "/unspectate", "/rules", "/me"):
        assert await world.route(up.private_text(WATCHER, text)) == GROUP, text
    # a lobby player of B who watches A: his texts go to the onlookers' chat of A, his
    # /unspectate to A, his other commands to his own game B
    lobbyist = world.h.users[6]
    assert await world.route(up.private_text(lobbyist, "what a game")) == GROUP
    assert await world.route(up.private_text(lobbyist, "/unspectate")) == GROUP
    assert await world.route(up.private_text(lobbyist, "/said 2")) == GROUP2


async def test_an_onlooker_who_stopped_watching_goes_to_himself(world: World) -> None:
    h = world.h
    await h.dm(WATCHER, "/unspectate")
    await h.service.drain()
    assert await world.route(h.updates.private_text(WATCHER, "still here?")) == WATCHER.id


async def test_after_the_game_its_players_and_onlookers_go_to_themselves(world: World) -> None:
    h = world.h
    await h.command(h.users[0], "/cancel")
    await h.service.drain()
    for user in (WATCHER, h.users[1]):
        assert await world.route(h.updates.private_text(user, "hello")) == user.id
    assert await world.route(h.updates.private_text(h.users[6], "hello")) == GROUP2


async def test_a_stranger_goes_to_himself(world: World) -> None:
    up = world.h.updates
    for text in ("hello", "/history", "/me", "/help"):
        assert await world.route(up.private_text(STRANGER, text)) == STRANGER.id


async def test_updates_without_a_chat(world: World) -> None:
    player = world.h.users[0].as_dict()
    inline = {"update_id": 7, "inline_query": {"id": "1", "from": player, "query": "",
                                               "offset": ""}}
    assert await world.route(inline) == GROUP
    answer = {"update_id": 8, "poll_answer": {"poll_id": "p", "user": STRANGER.as_dict(),
                                              "option_ids": [0]}}
    assert await world.route(answer) == STRANGER.id
    poll = {"update_id": 9, "poll": {"id": "p", "question": "?", "options": [],
                                     "total_voter_count": 0, "is_closed": True}}
    assert await world.route(poll) == 0
    assert await world.route({"update_id": 10}) == 0
    assert await world.route({"update_id": 12, "message": {"chat": {"id": "x", "type": 5},
                                                           "text": 7, "from": "me"}}) == 0
    junk = {"update_id": 13, "message": {"chat": {"id": STRANGER.id, "type": "private"},
                                         "from": STRANGER.as_dict(), "text": ["/start"]}}
    assert await world.route(junk) == STRANGER.id
    junk = {"update_id": 14, "callback_query": {"id": "1", "chat_instance": "1", "data": 5,
                                                "from": STRANGER.as_dict(), "message": []}}
    assert await world.route(junk) == STRANGER.id
    assert await world.route({"update_id": 11, "something_new": {"x": 1}}) == 0


def test_shard_of_is_crc32_of_the_decimal_id() -> None:
    assert shard_of(GROUP, 64) == zlib.crc32(b"-1001234567890") % 64
    assert shard_of(7, 1) == 0
    shards = {shard_of(-1000000000000 - i, 64) for i in range(2000)}
    assert shards == set(range(64))  # every shard gets chats


# --- the storage lookups ---------------------------------------------------------------------
async def test_watched_game_for_user_reads_running_games_onlooker_lists(storage) -> None:
    async def game(chat_id: int, status: str, onlookers: list[int]) -> int:
        game_id = await storage.create_game(chat_id, "party", 1, "en", {}, 7)
        await storage.update_ui(game_id, {"onlookers": onlookers, "title": "123"})
        if status != "lobby":
            await storage.set_status(game_id, "running")
        if status == "finished":
            await storage.set_status(game_id, "finished")
        return game_id

    await game(-1, "finished", [5])
    await game(-2, "lobby", [5])
    old = await game(-3, "running", [4, 5, 6])
    await game(-4, "running", [55, 123, 2**40])
    assert await storage.watched_game_for_user(5) == (old, -3)
    assert await storage.watched_game_for_user(12) is None  # no substring of 123
    assert await storage.watched_game_for_user(2**40) is not None
    newer = await game(-5, "running", [5])
    assert await storage.watched_game_for_user(5) == (newer, -5)
    assert await storage.game_chat(newer) == -5 and await storage.game_chat(10**6) is None
    assert await storage.active_chat_for_user(5) is None
