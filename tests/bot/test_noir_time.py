"""NOIR's time and trouble through the bot (issue 9): timeouts and auto-pass with «I'm back»,
pause and resume, a player whose DMs fail with 403, restarts in the middle of a turn and of a
Bomber's detonation draft, and the text board when photos cannot go."""

from __future__ import annotations

from bot.games.noir.drafting import draft
from bot.ui.callbacks import Act
from engine.noir import Role, chain_links, legal_actions
from tests.bot import noir_driver as nd
from tests.bot.harness import GROUP, Harness, make_harness

BLOCKED = "Forbidden: bot was blocked by the user"


async def _start(h: Harness, n: int = 6) -> int:
    gid = await nd.open_lobby(h, n)
    await nd.press_start(h)
    return gid


_state, _until_turn, _press = nd.live_state, nd.until_turn, nd.press_code


async def test_NOIR_Q21_two_timeouts_auto_pass_and_im_back(h: Harness):
    gid = await _start(h)
    killer = (await _state(h, gid)).current
    await h.fire()  # his first miss
    assert "time is up: the turn passes" in h.sent_texts(GROUP)[-1]
    await _until_turn(h, gid, killer)
    await h.fire()  # his second: auto-pass from now on
    st = await _state(h, gid)
    assert st.players[killer].auto_pass
    assert any("Two in a row" in t for t in h.sent_texts(GROUP)[-3:])
    back = h.find_button(killer, action="z")
    assert back is not None and "I'm back" in back[1]["text"]
    answer = await h.press(h.user(killer), killer, back[0], back[1]["callback_data"])
    assert answer == "Welcome back: your turns wait for you again."
    st = await _state(h, gid)
    assert not st.players[killer].auto_pass and st.players[killer].misses == 0
    assert "is back" in h.sent_texts(GROUP)[-1]


async def test_NOIR_Q21_any_message_of_an_auto_passed_player_brings_him_back(h: Harness):
    gid = await _start(h)
    killer = (await _state(h, gid)).current
    await h.fire()
    await _until_turn(h, gid, killer)
    await h.fire()
    assert (await _state(h, gid)).players[killer].auto_pass
    await h.dm(h.user(killer), "sorry, I was away")
    assert not (await _state(h, gid)).players[killer].auto_pass
    assert "no private team chat" in h.sent_texts(killer)[-1]  # NOIR-40
    other = (await _state(h, gid)).order[1]
    await _until_turn(h, gid, other)  # he missed one turn already, as everyone
    await h.fire()
    assert (await _state(h, gid)).players[other].auto_pass
    await h.feed(h.updates.group_text(GROUP, h.user(other), "back in the group"))
    assert not (await _state(h, gid)).players[other].auto_pass


async def test_NOIR_X17_pause_keeps_the_menu_and_resume_goes_on(h: Harness):
    gid = await _start(h)
    st = await _state(h, gid)
    u = st.current
    menu = h.messages(u)[-1]
    assert "Until 12:02:00 UTC" in menu["text"]
    h.clock.advance(10)
    await h.command(h.users[0], "/pause")
    st = await _state(h, gid)
    assert st.paused is not None
    board = h.message(GROUP, (await h.service.live(gid)).ui["board"])
    assert "paused" in board["caption"]
    assert h.message(u, menu["message_id"])["reply_markup"]  # the menu stays
    assert await _press(h, gid, u, "o", 1) == "The game is paused."
    h.clock.advance(60)
    await h.command(h.users[1], "/resume")
    st = await _state(h, gid)
    assert st.paused is None and st.current == u
    assert "Until 12:03:00 UTC" in h.message(u, menu["message_id"])["text"]
    board = h.message(GROUP, (await h.service.live(gid)).ui["board"])
    assert "Until 12:03:00 UTC" in board["caption"]
    assert await _press(h, gid, u, "o", 1) is None  # the same menu works again
    assert draft(await h.service.live(gid), u) == {"k": "shift"}


async def test_NOIR_X31_a_403_dm_is_told_once_and_his_turns_time_out(h: Harness):
    users = h.users[:6]
    gid = await nd.open_lobby(h, 6)
    blocked = users[3]
    h.session.fail("sendMessage", chat_id=blocked.id, error_code=403, description=BLOCKED,
                   times=None)
    await nd.press_start(h)
    told = [t for t in h.sent_texts(GROUP) if "cannot get my private messages" in t]
    assert len(told) == 1 and blocked.first_name in told[0]
    await _until_turn(h, gid, blocked.id)
    await h.fire()  # his turn passes on time
    st = await _state(h, gid)
    assert st.current != blocked.id and st.phase == "play"
    await _until_turn(h, gid, blocked.id)
    await h.fire()
    assert (await _state(h, gid)).players[blocked.id].auto_pass  # NOIR-Q21: then auto-pass
    told = [t for t in h.sent_texts(GROUP) if "cannot get my private messages" in t]
    assert len(told) == 1
    h.session.clear_failures()  # he unblocks the bot and presses «Start»: he is back
    await h.dm(blocked, "/start")
    assert not (await _state(h, gid)).players[blocked.id].auto_pass


async def test_NOIR_X28_restart_mid_turn_the_menu_and_its_draft_still_work(sqlite_url):
    h = await make_harness(sqlite_url, n_users=6)
    gid = await _start(h)
    st = await _state(h, gid)
    killer = st.current
    assert await _press(h, gid, killer, "o", 4) is None  # the kill picker
    target = legal_actions(st, killer).kill[0]
    await h.service.drain()
    await h.stop()
    h2 = await make_harness(sqlite_url, n_users=6, session=h.session)
    try:
        g = await h2.service.live(gid)
        assert draft(g, killer) == {"k": "kill"}
        mid, data = next((m, b["callback_data"]) for m, b in h2.buttons(killer)
                         if (b.get("callback_data") or "").startswith("a:")
                         and Act.unpack(b["callback_data"]).a == "c"
                         and Act.unpack(b["callback_data"]).t == target)
        assert await h2.press(h2.user(killer), killer, mid, data) == "✅"
        assert (await _state(h2, gid)).last_action == ("kill", target)
        assert "You killed" in h2.message(killer, mid)["text"]
    finally:
        await h2.stop()


async def test_NOIR_X28_a_half_built_detonation_survives_a_restart_and_goes_off(sqlite_url):
    h = await make_harness(sqlite_url, n_users=6)
    gid = await _start(h)
    st = await _state(h, gid)
    bomber = st.by_role(Role.BOMBER).user_id
    await _until_turn(h, gid, bomber)
    la = legal_actions(await _state(h, gid), bomber)
    assert await _press(h, gid, bomber, "o", 6) is None  # place a bomb
    assert await _press(h, gid, bomber, "c", la.place_bomb[-1]) == "✅"
    await _until_turn(h, gid, bomber)
    st = await _state(h, gid)
    bomb = legal_actions(st, bomber).detonate[0]
    assert await _press(h, gid, bomber, "o", 7) is None
    assert await _press(h, gid, bomber, "c", bomb) is None
    links = chain_links(st, bomb, ())
    assert links
    assert await _press(h, gid, bomber, "c", links[0]) is None  # the first link
    assert draft(await h.service.live(gid), bomber) == {"k": "det", "b": bomb, "c": [links[0]]}
    await h.service.drain()
    await h.stop()
    h2 = await make_harness(sqlite_url, n_users=6, session=h.session)
    try:
        g = await h2.service.live(gid)
        assert draft(g, bomber) == {"k": "det", "b": bomb, "c": [links[0]]}
        menu = h2.messages(bomber)[-1]
        assert "Blast:" in menu["text"]
        boom = next(b["callback_data"] for row in menu["reply_markup"]["inline_keyboard"]
                    for b in row if Act.unpack(b["callback_data"]).a == "d")
        before = await h2.log_len(gid)
        assert await h2.press(h2.user(bomber), bomber, menu["message_id"], boom) == "✅"
        assert await h2.log_len(gid) == before + 1
        assert (await _state(h2, gid)).last_action == ("detonate", bomb, links[0])
        assert "Detonated" in h2.message(bomber, menu["message_id"])["text"]
    finally:
        await h2.stop()


async def test_NOIR_42_the_text_board_through_a_whole_start_when_photos_cannot_go(h: Harness):
    h.session.fail("sendPhoto", GROUP, description="Bad Request: not enough rights to send "
                   "photos to the chat", times=None)
    gid = await _start(h)
    texts = h.sent_texts(GROUP, ("sendMessage",))
    assert any("Arrests 0/4 · Dead 0/18" in t for t in texts)
    st = await _state(h, gid)
    assert await _press(h, gid, st.current, "o", 1) is None
    assert await _press(h, gid, st.current, "l", 0) is None
    assert await _press(h, gid, st.current, "i", 0) is None
    assert await _press(h, gid, st.current, "y", 3) == "✅"
    edits = h.sent_texts(GROUP, ("editMessageText",))
    assert any("shift of row 1 by +1" in t for t in edits)


async def test_NOIR_X23_cancel_mid_game_closes_the_menus(h: Harness):
    gid = await _start(h)
    st = await _state(h, gid)
    u = st.current
    assert await _press(h, gid, u, "o", 1) is None
    menu = h.messages(u)[-1]
    await h.command(h.users[1], "/cancel")  # not the organiser, no admin: refused
    assert "Only the organiser" in h.sent_texts(GROUP)[-1]
    await h.command(h.users[0], "/cancel")
    rec = await h.service.storage.get_game(gid)
    assert rec.status == "cancelled"
    assert "The game was cancelled." in h.sent_texts(GROUP)[-1]
    closed = h.message(u, menu["message_id"])
    assert closed["text"] == "The game is over." and not closed.get("reply_markup")
