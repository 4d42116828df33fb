"""NOIR after a crash right after a move (NOIR-X32): what the last step should have shown but
did not deliver (a menu's edit, the board's edit, the news) is shown again after a restart."""

from __future__ import annotations

from bot.games.noir.drafting import stamp
from bot.ui.callbacks import Act
from engine.noir import Role, legal_actions
from tests.bot import noir_driver as nd
from tests.bot.harness import GROUP, Harness, make_harness

LOST = "Bad Request: the process died before this call"


_state, _until_turn, _press = nd.live_state, nd.until_turn, nd.press_code


async def test_NOIR_X32_the_psychos_threats_step_and_the_board_come_back_after_a_crash(
        sqlite_url):
    h = await make_harness(sqlite_url, n_users=6)
    gid = await nd.open_lobby(h, 6)
    await nd.press_start(h)
    psycho = (await _state(h, gid)).by_role(Role.PSYCHO).user_id
    await _until_turn(h, gid, psycho)
    assert await _press(h, gid, psycho, "o", 1) is None  # a shift: row 1, +1
    assert await _press(h, gid, psycho, "l", 0) is None
    assert await _press(h, gid, psycho, "i", 0) is None
    menu = h.messages(psycho)[-1]
    board_id = (await h.service.live(gid)).ui["board"]
    # the process dies before the step's messages go out: none of them is delivered
    h.session.fail("editMessageText", psycho, description=LOST, times=None)
    h.session.fail("editMessageMedia", GROUP, description=LOST, times=None)
    assert await _press(h, gid, psycho, "y", 3) == "✅"
    assert legal_actions(await _state(h, gid), psycho).step == "threats"
    assert "Place 1 to" not in h.message(psycho, menu["message_id"])["text"]
    assert "shift of row 1" not in h.message(GROUP, board_id)["caption"]
    await h.service.drain()
    await h.stop()
    h.session.clear_failures()
    h2 = await make_harness(sqlite_url, n_users=6, session=h.session)
    try:
        shown = h2.message(psycho, menu["message_id"])
        assert "Place 1 to" in shown["text"]  # his threats picker, in the same message
        assert Act.unpack(shown["reply_markup"]["inline_keyboard"][0][0]["callback_data"]).s \
            == stamp(await _state(h2, gid))
        assert "shift of row 1 by +1" in h2.message(GROUP, board_id)["caption"]
    finally:
        await h2.stop()


BLOCKED = "Forbidden: bot was blocked by the user"


async def test_NOIR_X31_start_after_a_403_during_his_turn_sends_his_card_and_menu(h: Harness):
    gid = await nd.open_lobby(h, 6)
    blocked = h.users[3]
    h.session.fail("sendMessage", chat_id=blocked.id, error_code=403, description=BLOCKED,
                   times=None)
    await nd.press_start(h)
    await _until_turn(h, gid, blocked.id)
    assert not any((m.get("text") or "").startswith("Your role:")
                   for m in h.messages(blocked.id))  # nothing of the game reached him
    h.session.clear_failures()  # he unblocks the bot and sends /start
    await h.dm(blocked, "/start")
    g = await h.service.live(gid)
    assert blocked.id not in (g.ui.get("unreachable") or [])
    texts = [m.get("text") or "" for m in h.messages(blocked.id)]
    assert any(t.startswith("Your role:") for t in texts)  # his identity card again
    menu = h.messages(blocked.id)[-1]
    assert "Your turn" in menu["text"]
    acts = [Act.unpack(b["callback_data"]) for row in menu["reply_markup"]["inline_keyboard"]
            for b in row if (b.get("callback_data") or "").startswith("a:")]
    assert acts and all(a.s == stamp(g.state) for a in acts)
    assert await _press(h, gid, blocked.id, "o", 1) is None  # the menu works
    count = len(h.messages(blocked.id))
    await h.dm(blocked, "hello")  # once only: he is reachable now
    assert not any(t.startswith("Your role:") for t in
                   [m.get("text") or "" for m in h.messages(blocked.id)[count:]])


async def test_NOIR_player_names_are_bidi_isolated_everywhere(h: Harness):
    import re

    from bot.ui.names import FSI, PDI
    from tests.fakes.updates import FakeUser
    rlo = "\u202e"
    old = h.users[1]
    h.users[1] = FakeUser(old.id, f"{rlo}evil", username=old.username)
    h.session.register_user(h.users[1])
    await nd.open_lobby(h, 6)
    await nd.press_start(h)
    await nd.play(h, seed=5)
    texts = [c.text for c in h.session.calls if c.text and rlo in c.text]
    assert len(texts) > 3, "the RTL name was never shown"
    for text in texts:  # an RTL override always ends on the name: inside an isolate
        for line in text.splitlines():
            for m in re.finditer(rlo, line):
                before, after = line[:m.start()], line[m.end():]
                assert before.count(FSI) > before.count(PDI), line
                assert PDI in after, line


async def test_startgame_during_a_running_noir_game_says_it_has_started(h: Harness):
    await nd.open_lobby(h, 6)
    await nd.press_start(h)
    await h.command(h.users[0], "/startgame")
    assert h.sent_texts(GROUP)[-1] == "This game has already started or ended."


async def test_NOIR_Q01_the_strict_lobby_says_so(h: Harness):
    await h.command(h.users[0], "/newgame noir strict")
    g = await h.game()
    assert "Strict accusation: name the role too" in h.message(GROUP, g.ui["lobby"])["text"]
    await h.command(h.users[0], "/cancel")
    await h.command(h.users[0], "/newgame noir")
    g = await h.game()
    assert "Strict accusation" not in h.message(GROUP, g.ui["lobby"])["text"]


async def test_NOIR_X30_a_bad_turn_value_gets_the_turns_limits(h: Harness):
    h.session.set_member(GROUP, h.users[0].id, "administrator")
    for bad in ("/settings turn abc", "/settings turn 30.5", "/settings turn"):
        await h.command(h.users[0], bad)
        answer = h.sent_texts(GROUP)[-1]
        assert "A NOIR turn lasts from 30 to 600 seconds, in whole seconds" in answer, bad
        assert "/settings turn 90" in answer
    await h.command(h.users[0], "/settings turn 90")
    assert "NOIR: a turn lasts 90 s" in h.sent_texts(GROUP)[-1]


async def test_NOIR_X32_a_kill_lost_with_a_crash_shows_on_the_board_after_the_restart(
        sqlite_url):
    h = await make_harness(sqlite_url, n_users=6)
    gid = await nd.open_lobby(h, 6)
    await nd.press_start(h)
    st = await _state(h, gid)
    killer = st.current
    target = legal_actions(st, killer).kill[0]
    board_id = (await h.service.live(gid)).ui["board"]
    assert await _press(h, gid, killer, "o", 4) is None  # the kill picker
    h.session.fail("editMessageMedia", GROUP, description=LOST, times=None)
    h.session.fail("sendMessage", GROUP, description=LOST, times=None)  # the «☠️» news
    assert await _press(h, gid, killer, "c", target) == "✅"
    nxt = (await _state(h, gid)).current
    assert "Last: kill" not in h.message(GROUP, board_id)["caption"]
    await h.service.drain()
    await h.stop()
    h.session.clear_failures()
    h2 = await make_harness(sqlite_url, n_users=6, session=h.session)
    try:
        caption = h2.message(GROUP, board_id)["caption"]
        assert "Last: kill" in caption  # the news the group missed, on the board
        assert f"{h2.user(nxt).first_name}" in caption.splitlines()[-1]  # whose turn now
    finally:
        await h2.stop()
