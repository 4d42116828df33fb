"""The lobby: /newgame, joining by deep link, leaving, starting, expiry and /cancel."""

from __future__ import annotations

import asyncio

from aiogram.methods import AnswerCallbackQuery, EditMessageText

from bot.games.mafia.live import LIVE_GAP
from bot.ui.callbacks import LobbyAct
from engine import Phase
from tests.bot.harness import GROUP, Harness, make_harness, make_users, request_of, text_of
from tests.bot.helpers import start_game

ALREADY_OPEN = "A game is already open in this chat. Finish it or /cancel it first."


def lobby_message(h: Harness, game) -> dict:
    return h.message(GROUP, game.ui["lobby"])


async def lobby_after_the_gap(h: Harness, game) -> dict:
    """The lobby message once a held join or leave is out (issue 11: it may wait LIVE_GAP s)."""
    h.clock.advance(LIVE_GAP)
    h.app.presenter.game(game.state.ruleset).flush_live(await h.game())
    await h.app.sender.drain()
    return lobby_message(h, game)


async def test_two_simultaneous_newgame_open_exactly_one_lobby(db_url: str):
    h = await make_harness(db_url, n_users=2)
    try:
        a, b = h.users
        updates = [h.updates.group_command(GROUP, u, "/newgame") for u in (a, b)]
        await asyncio.gather(*(h.app.dp.feed_update(h.app.bot, u) for u in updates))
        await h.app.sender.drain()
        lobbies = [t for t in h.sent_texts(GROUP, ("sendMessage",)) if "new game" in t]
        refusals = [t for t in h.sent_texts(GROUP, ("sendMessage",)) if t == ALREADY_OPEN]
        assert len(lobbies) == 1 and len(refusals) == 1
        g = await h.game()
        assert g.state.phase is Phase.LOBBY and g.state.organiser in (a.id, b.id)
        assert len(h.service.games) == 1

        await h.command(a, "/newgame")  # and later, too
        assert h.sent_texts(GROUP, ("sendMessage",))[-1] == ALREADY_OPEN
    finally:
        await h.stop()


async def test_join_by_deep_link_and_a_second_join_is_refused(h: Harness):
    organiser, alice = h.users[0], h.users[1]
    await h.command(organiser, "/newgame")
    g = await h.game()
    lobby = lobby_message(h, g)
    join = next(b for row in lobby["reply_markup"]["inline_keyboard"] for b in row if b.get("url"))
    assert join["url"] == f"https://t.me/{h.session.bot_username}?start=join_{g.id}"

    await h.dm(alice, f"/start join_{g.id}")
    assert h.sent_texts(alice.id)[-1].startswith("✅ You joined the game in «Test group»")
    assert "1. Player2" in lobby_message(h, g)["text"]
    assert alice.id in (await h.game()).state.players

    await h.dm(alice, f"/start join_{g.id}")
    assert h.sent_texts(alice.id)[-1] == "You are already in this game."
    assert list((await h.game()).state.players) == [alice.id]

    await h.dm(alice, "/start join_999999")
    assert h.sent_texts(alice.id)[-1] == "This game does not exist any more."


async def test_player_of_a_running_game_elsewhere_cannot_join(h: Harness):
    other_group = GROUP - 1
    others = make_users(5, first=50)
    for u in others:
        h.session.register_user(u)
    await h.command(others[0], "/newgame", chat_id=other_group)
    g2 = await h.game(other_group)
    for u in others:
        await h.dm(u, f"/start join_{g2.id}")
    await h.command(others[0], "/startgame", chat_id=other_group)
    assert (await h.game(other_group)).state.phase is Phase.READY

    await h.command(h.users[0], "/newgame")
    g = await h.game()
    busy = others[1]
    await h.dm(busy, f"/start join_{g.id}")
    assert h.sent_texts(busy.id)[-1] == "You are already in another game. Leave it first."
    assert busy.id not in (await h.game()).state.players
    # ...and a game that has started takes nobody new.
    await h.dm(h.users[1], f"/start join_{g2.id}")
    assert h.sent_texts(h.users[1].id)[-1] == "This game has already started or ended."


async def test_two_deep_links_tapped_at_once_join_one_game_only(h: Harness):
    other_group = GROUP - 1
    await h.command(h.users[0], "/newgame")
    await h.command(h.users[1], "/newgame", chat_id=other_group)
    games = [await h.game(), await h.game(other_group)]
    user = h.users[2]
    updates = [h.updates.private_text(user, f"/start join_{g.id}") for g in games]
    await asyncio.gather(*(h.app.dp.feed_update(h.app.bot, u) for u in updates))
    await h.app.sender.drain()
    joined = [user.id in (await h.service.live(g.id)).state.players for g in games]
    assert sorted(joined) == [False, True]
    assert "You are already in another game. Leave it first." in h.sent_texts(user.id)


async def test_a_join_that_races_the_start_is_told_the_game_started(h: Harness, monkeypatch):
    """The deep link's join waits for the membership check (``getChatMember``) while the
    organiser starts the game: the joiner is told the game has started, not that a button he
    never pressed is out of date (newcomer trial)."""
    from bot.handlers import lobby as lobby_handlers

    organiser, late = h.users[0], h.users[5]
    await h.command(organiser, "/newgame")
    g = await h.game()
    for u in h.users[:5]:
        await h.dm(u, f"/start join_{g.id}")
    real = lobby_handlers.is_group_member

    async def member_while_it_starts(bot, chat_id, user_id):
        await h.command(organiser, "/startgame")
        return await real(bot, chat_id, user_id)

    monkeypatch.setattr(lobby_handlers, "is_group_member", member_while_it_starts)
    await h.dm(late, f"/start join_{g.id}")
    assert h.sent_texts(late.id)[-1] == "This game has already started or ended."
    assert late.id not in (await h.game()).state.players


async def test_leave_the_lobby(h: Harness):
    organiser, alice = h.users[0], h.users[1]
    await h.command(organiser, "/newgame")
    g = await h.game()
    await h.dm(alice, f"/start join_{g.id}")
    leave = LobbyAct(g=g.id, a="leave").pack()
    assert await h.press(alice, GROUP, g.ui["lobby"], leave) == "You left the game."
    assert (await h.game()).state.players == {}
    assert "Player2" not in (await lobby_after_the_gap(h, g))["text"]
    assert await h.service.storage.list_players(g.id) == []
    # Not in the game (any more): refused, nothing changes.
    log_len = await h.log_len(g.id)
    answer = await h.press(alice, GROUP, g.ui["lobby"], leave)
    assert answer == "You are not playing in this game."
    assert await h.log_len(g.id) == log_len
    # He may join again.
    await h.dm(alice, f"/start join_{g.id}")
    assert alice.id in (await h.game()).state.players


async def test_start_below_the_minimum_is_refused_with_a_clear_answer(h: Harness):
    organiser = h.users[0]
    await h.command(organiser, "/newgame")
    g = await h.game()
    for u in h.users[:4]:
        await h.dm(u, f"/start join_{g.id}")
    await h.command(organiser, "/startgame")
    assert h.sent_texts(GROUP, ("sendMessage",))[-1] == "Not enough players yet."
    answer = await h.press(organiser, GROUP, g.ui["lobby"], LobbyAct(g=g.id, a="start").pack())
    assert answer == "Not enough players yet."
    alert = request_of(h.session.calls.calls_to("answerCallbackQuery")[-1], AnswerCallbackQuery)
    assert alert.show_alert is True
    assert (await h.game()).state.phase is Phase.LOBBY

    await h.dm(h.users[4], f"/start join_{g.id}")  # the fifth player: now it starts
    await h.command(organiser, "/startgame")
    assert (await h.game()).state.phase is Phase.READY


async def test_only_the_organiser_or_an_admin_can_start(h: Harness):
    organiser, player, admin = h.users[0], h.users[1], h.users[6]
    await h.command(organiser, "/newgame")
    g = await h.game()
    for u in h.users[:6]:
        await h.dm(u, f"/start join_{g.id}")
    log_len = await h.log_len(g.id)
    await h.command(player, "/startgame")
    assert h.sent_texts(GROUP, ("sendMessage",))[-1] == \
        "Only the organiser or a group admin can do that."
    answer = await h.press(player, GROUP, g.ui["lobby"], LobbyAct(g=g.id, a="start").pack())
    assert answer == "Only the organiser or a group admin can do that."
    await h.command(player, "/cancel")
    assert await h.log_len(g.id) == log_len
    assert (await h.game()).state.phase is Phase.LOBBY

    h.session.set_member(GROUP, admin.id, "administrator")  # an admin who does not even play
    await h.press(admin, GROUP, g.ui["lobby"], LobbyAct(g=g.id, a="start").pack())
    st = (await h.game()).state
    assert st.phase is Phase.READY and len(st.seated()) == 6


async def test_idle_lobby_expires_when_its_deadline_fires(h: Harness):
    await h.command(h.users[0], "/newgame")
    g = await h.game()
    await h.dm(h.users[1], f"/start join_{g.id}")
    seq, run_at = h.deadlines.pending[g.id]
    assert seq is None and (run_at - h.clock()).total_seconds() == 1800
    await h.fire()
    assert await h.game() is None
    rec = await h.service.storage.get_game(g.id)
    assert rec.status == "cancelled"
    lobby = h.message(GROUP, g.ui["lobby"])
    assert lobby["text"] == "⌛ The lobby expired: not enough players."
    assert "reply_markup" not in lobby
    await h.command(h.users[0], "/newgame")  # the chat is free again
    assert (await h.game()).id != g.id


async def test_cancel_the_lobby_and_a_running_game(h: Harness):
    await h.command(h.users[0], "/newgame")
    g = await h.game()
    await h.command(h.users[0], "/cancel")
    assert await h.game() is None
    assert (await h.service.storage.get_game(g.id)).status == "cancelled"
    assert h.message(GROUP, g.ui["lobby"])["text"] == "✖️ The game was cancelled."
    assert g.id not in h.deadlines.pending
    await h.command(h.users[0], "/cancel")
    assert h.sent_texts(GROUP, ("sendMessage",))[-1] == \
        "There is no open game here. /newgame starts one."

    game_id = await start_game(h)
    await h.command(h.users[0], "/cancel")
    assert (await h.service.storage.get_game(game_id)).status == "cancelled"
    assert "✖️ The game was cancelled." in h.sent_texts(GROUP, ("sendMessage",))[-1]
    assert game_id not in h.deadlines.pending
    assert h.session.calls.calls_to("unpinChatMessage", GROUP)


async def test_PARTY_X24_strangers_cannot_join_or_take_the_host_role(sqlite_url):
    from tests.bot.harness import make_harness
    from tests.fakes.updates import FakeUser

    h = await make_harness(sqlite_url, n_users=5)
    try:
        await h.command(h.users[0], "/newgame")
        g = await h.game()
        stranger = FakeUser(800_000_000_009, "Stranger")
        h.session.set_member(GROUP, stranger.id, "left")
        await h.dm(stranger, f"/start join_{g.id}")
        await h.dm(stranger, f"/start host_{g.id}")
        st = (await h.game()).state
        assert stranger.id not in st.players and st.host is None
        assert "Only members of the game's group" in h.texts(stranger.id)[-1]
        await h.dm(h.users[1], f"/start host_{g.id}")
        await h.dm(h.users[2], f"/start host_{g.id}")  # a member, but the host is taken
        st = (await h.game()).state
        assert st.host == h.users[1].id
        await h.dm(h.users[1], f"/start join_{g.id}")  # issue 20: the host presses Join
        assert h.texts(h.users[1].id)[-1] == "You host this game, and the host does not play."
        assert h.users[1].id not in (await h.game()).state.players
    finally:
        await h.stop()


async def test_group_commands_sent_privately_are_answered_and_change_nothing(h: Harness):
    """/newgame, /startgame, /cancel, /stop, /host in the private chat (newcomer trial: no answer
    at all): each gets "send it in a group", and the game in the group goes on untouched."""
    await start_game(h)
    before = (await h.game()).state
    user = h.users[1]
    for command in ("/newgame", "/startgame", "/cancel", "/stop", "/host"):
        await h.dm(user, command)
        assert h.texts(user.id)[-1] == "Send this command in a group where I host games.", command
    after = (await h.game()).state
    assert after.commands == before.commands and after.phase is before.phase


# --- issue 11: joins and leaves edit the lobby at most once per LIVE_GAP -----------------------
def lobby_edits(h: Harness, game) -> list[str]:
    return [text_of(c) for c in h.session.calls.calls_to("editMessageText")
            if c.ok and c.chat_id == GROUP and request_of(c, EditMessageText).message_id == game.ui["lobby"]]


async def test_joins_edit_the_lobby_at_most_once_per_gap_and_the_organisers_changes_at_once(
        h: Harness):
    organiser = h.users[0]
    await h.command(organiser, "/newgame")
    g = await h.game()
    for u in h.users[:4]:
        await h.dm(u, f"/start join_{g.id}")
        assert h.sent_texts(u.id)[-1].startswith("✅ You joined the game")  # answered at once
    # The first join shows at once; the next three, inside the gap, are held.
    assert len(lobby_edits(h, g)) == 1 and "Player2" not in lobby_edits(h, g)[0]
    # The organiser's tempo shows at once, and with it every join held so far.
    tempo = LobbyAct(g=g.id, a="tempo", v="short").pack()
    assert await h.press(organiser, GROUP, g.ui["lobby"], tempo) == "Tempo changed."
    assert len(lobby_edits(h, g)) == 2
    assert all(f"Player{i}" in lobby_message(h, g)["text"] for i in range(1, 5))
    # A join right after it waits for the gap; the next event after the gap shows it.
    await h.dm(h.users[4], f"/start join_{g.id}")
    assert len(lobby_edits(h, g)) == 2
    h.clock.advance(LIVE_GAP)
    await h.dm(h.users[5], f"/start join_{g.id}")
    assert len(lobby_edits(h, g)) == 3
    assert "Player6" in lobby_message(h, g)["text"]


async def test_a_start_right_after_a_held_join_closes_the_lobby_and_no_timer_reopens_it(
        h: Harness):
    organiser = h.users[0]
    await h.command(organiser, "/newgame")
    g = await h.game()
    for u in h.users[:6]:
        await h.dm(u, f"/start join_{g.id}")
    assert len(lobby_edits(h, g)) == 1  # five joins held
    await h.command(organiser, "/startgame")
    assert lobby_edits(h, g)[-1].startswith("🎲 The game has started")
    g = await h.game()
    assert "live:lobby" not in g.refs and "held:lobby" not in g.ui
    # The held join's timer fires late, and the next step comes after the gap: nothing more.
    game = h.app.presenter.game(g.state.ruleset)
    game._live_timer(g, "lobby")
    h.clock.advance(LIVE_GAP)
    game.flush_live(g)
    await h.app.sender.drain()
    assert len(lobby_edits(h, g)) == 2
    assert lobby_message(h, g)["text"].startswith("🎲 The game has started")
    assert not lobby_message(h, g).get("reply_markup")


async def test_a_restart_shows_the_join_the_throttle_held(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=3)
    try:
        await h.command(h.users[0], "/newgame")
        g = await h.game()
        for u in h.users:
            await h.dm(u, f"/start join_{g.id}")
        assert "Player3" not in lobby_message(h, g)["text"]  # held, its timer in memory only
    finally:
        await h.stop()
    h2 = await make_harness(sqlite_url, n_users=3, session=h.session, clock=h.clock)
    try:
        g = await h2.game()
        await h2.app.sender.drain()
        assert all(f"Player{i}" in lobby_message(h2, g)["text"] for i in (1, 2, 3))
        assert "held:lobby" not in g.ui
    finally:
        await h2.stop()
