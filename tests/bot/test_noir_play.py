"""NOIR played through the bot (issue 9): ``/newgame noir``, the lobby, whole games of 6 and 8
players pressed through the DM menus and cell pickers, the secrets of the group, and the menus'
refusals (stale steps, forged cells, a paused game)."""

from __future__ import annotations

import random

from aiogram.methods import UnpinChatMessage

from bot.games.noir.drafting import stamp
from bot.games.noir.names import SUSPECTS
from bot.ui.callbacks import Act, LobbyAct
from engine.noir import legal_actions
from tests.bot import noir_driver as nd
from tests.bot.harness import GROUP, Harness, make_harness, request_of
from tests.fakes.telegram import plain_text


def _group_texts(h: Harness, start: int = 0) -> list[str]:
    """Every text and caption the group was sent (or edited to), in order, from call ``start``."""
    out = []
    for c in h.session.calls[start:]:
        if c.chat_id != GROUP or not c.ok:
            continue
        req = c.request
        for field in ("text", "caption"):
            v = getattr(req, field, None)
            if isinstance(v, str):
                out.append(plain_text(v))
        media = getattr(req, "media", None)
        if media is not None and isinstance(getattr(media, "caption", None), str):
            out.append(plain_text(media.caption))
    return out


async def _play_checking_secrets(h: Harness, seed: int) -> None:
    """Play to the end; after every press, no new group text names a living player together
    with his current identity on one line (NOIR-05, X25)."""
    rng = random.Random(seed)
    answered: set = set()
    for _ in range(6000):
        start = len(h.session.calls)
        going = await nd.act_once(h, rng, answered)
        g = await h.game()
        st = g.state if g is not None else None
        if st is None or st.over or not going:
            return
        for text in _group_texts(h, start):
            for line in text.splitlines():
                for p in st.players.values():
                    if p.identity is not None and p.name in line:
                        assert SUSPECTS[p.identity] not in line, (p.name, line)
    raise AssertionError("the game did not end")


async def _start(h: Harness, n: int) -> int:
    gid = await nd.open_lobby(h, n)
    await nd.press_start(h)
    st = (await h.service.live(gid)).state
    assert st.phase == "play" and len(st.order) == n
    return gid


async def test_NOIR_01_a_whole_six_player_game_through_the_buttons(h: Harness):
    gid = await _start(h, 6)
    lobby = h.message(GROUP, (await h.service.live(gid)).ui["lobby"])
    assert "The game has started" in lobby["text"] and not lobby.get("reply_markup")
    await _play_checking_secrets(h, seed=11)
    rec = await h.service.storage.get_game(gid)
    assert rec.status == "finished" and rec.winner in ("agents", "mafia", "draw")
    result = [t for t in h.sent_texts(GROUP, ("sendMessage",)) if "Identities:" in t]
    assert len(result) == 1
    board = (await h.service.storage.get_game(gid)).ui["board"]  # NOIR-42: pinned, then unpinned
    unpinned = h.session.calls.calls_to("unpinChatMessage", GROUP)
    assert [request_of(c, UnpinChatMessage).message_id for c in unpinned] == [board]
    st = (await h.service.live(gid)).state if gid in h.service.games else None
    for u in h.users[:6]:  # NOIR-05: every identity revealed at the end, with the role
        assert u.first_name in result[0]
    # every menu was closed: no DM keeps an action button after the end
    for u in h.users[:6]:
        assert not [b for _m, b in h.buttons(u.id)
                    if (b.get("callback_data") or "").startswith("a:")
                    and Act.unpack(b["callback_data"]).a != "z"], u.id
    assert st is None or st.over


async def test_NOIR_01_a_whole_eight_player_game_through_the_buttons(sqlite_url):
    h = await make_harness(sqlite_url, n_users=8)
    try:
        gid = await _start(h, 8)
        st = (await h.service.live(gid)).state
        assert len(st.grid) == 7 and {p.role.value for p in st.players.values()} >= {
            "sniper", "profiler"}
        await _play_checking_secrets(h, seed=5)
        rec = await h.service.storage.get_game(gid)
        assert rec.status == "finished"
        assert len(h.sent(GROUP, ("sendPhoto",))) == 1  # one board, edited in place
        assert len(h.sent(GROUP, ("editMessageMedia",))) > 10
    finally:
        await h.stop()


async def test_NOIR_01_start_refused_with_a_clear_message_for_five_players(h: Harness):
    await nd.open_lobby(h, 5)
    answer = await nd.press_start(h)
    assert answer and "6 or 8" in answer
    g = await h.game()
    assert g.state.phase == "lobby"
    text = h.message(GROUP, g.ui["lobby"])["text"]
    assert "5 players (6 or 8 needed)" in text and "Player5" in text


async def test_newgame_noir_lobby_leave_and_unknown_preset(h: Harness):
    await h.command(h.users[0], "/newgame nope")
    assert "noir" in h.sent_texts(GROUP)[-1]
    gid = await nd.open_lobby(h, 2)
    g = await h.game()
    for mid, b in h.buttons(GROUP):
        if (b.get("callback_data") or "").startswith("l:") and \
                LobbyAct.unpack(b["callback_data"]).a == "leave":
            assert await h.press(h.users[1], GROUP, mid, b["callback_data"]) == "You left the game."
            break
    assert list(g.state.players) == [h.users[0].id]
    await h.dm(h.users[2], f"/start host_{gid}")
    assert "no host" in h.sent_texts(h.users[2].id)[-1]
    await h.command(h.users[2], "/host")
    assert "no host" in h.sent_texts(GROUP)[-1]


async def test_rules_noir_and_help(h: Harness):
    await h.command(h.users[0], "/rules noir")
    assert "FBI vs Mafia" in h.sent_texts(GROUP)[-1] and "noir.md" in h.sent_texts(GROUP)[-1]
    await h.command(h.users[0], "/help")
    assert "/newgame noir" in h.sent_texts(GROUP)[-1]


async def test_NOIR_X30_settings_turn_sets_the_next_noir_games_turn(h: Harness):
    h.session.set_member(GROUP, h.users[0].id, "administrator")
    await h.command(h.users[0], "/settings turn 5")
    assert "30 to 600" in h.sent_texts(GROUP)[-1]
    await h.command(h.users[0], "/settings turn 90")
    assert "NOIR: a turn lasts 90 s" in h.sent_texts(GROUP)[-1]
    gid = await _start(h, 6)
    st = (await h.service.live(gid)).state
    assert st.timings["turn"] == 90 and st.timer.seconds == 90
    board = h.message(GROUP, (await h.service.live(gid)).ui["board"])
    assert "90 s" in board["caption"] and "Until 12:01:30 UTC" in board["caption"]
    await h.command(h.users[0], "/cancel")
    await h.command(h.users[0], "/newgame")  # the party preset is not bothered by NOIR's timing
    g = await h.game()
    assert g is not None and g.state.ruleset == "party"


async def test_NOIR_Q22_the_menu_offers_exactly_the_legal_actions(h: Harness):
    gid = await _start(h, 6)
    st = (await h.service.live(gid)).state
    killer = st.current
    mid, _d, _a = nd.menu_buttons(h, killer, stamp(st))[0]
    codes = {a.a for _m, _d, a in nd.menu_buttons(h, killer, stamp(st))}
    assert codes <= {"o", "n"}
    la = legal_actions(st, killer)
    views = {a.t for _m, _d, a in nd.menu_buttons(h, killer, stamp(st)) if a.a == "o"}
    assert views == {1, 4} | ({2} if la.collapse else set())  # shift, kill (collapse: none yet)
    assert ("n" in codes) == la.change_identity
    # the kill picker: one button per cell, ≤ 8 a row, his own suspect marked, only legal pressable
    kill = next(d for _m, d, a in nd.menu_buttons(h, killer, stamp(st)) if a.a == "o" and a.t == 4)
    await h.press(h.user(killer), killer, mid, kill)
    markup = h.message(killer, mid)["reply_markup"]["inline_keyboard"]
    cells = [b for row in markup[:-1] for b in row]
    assert len(cells) == 36 and all(len(row) <= 8 for row in markup)
    assert sum(len(r) for r in markup) <= 100
    pressable = {Act.unpack(b["callback_data"]).t for b in cells
                 if Act.unpack(b["callback_data"]).a == "c"}
    assert pressable == set(la.kill)
    own = st.players[killer].identity
    assert any(b["text"].lstrip("·").startswith("⭐") and Act.unpack(b["callback_data"]).t == own
               for b in cells)
    mates = {p.identity for p in st.players.values()
             if p.team == st.players[killer].team and p.user_id != killer}
    assert {Act.unpack(b["callback_data"]).t for b in cells if "👥" in b["text"]} == mates
    assert markup[-1][0]["text"].endswith("Back")


async def test_NOIR_X27_a_forged_cell_is_refused_and_changes_nothing(h: Harness):
    gid = await _start(h, 6)
    st = (await h.service.live(gid)).state
    killer = st.current
    seq = stamp(st)
    before = await h.log_len(gid)
    far = next(s for row in st.grid for s in row if s not in legal_actions(st, killer).kill)
    assert await h.press_data(h.user(killer), killer,
                              Act(g=gid, s=seq, a="o", t=4).pack()) is None  # the kill picker
    answer = await h.press_data(h.user(killer), killer, Act(g=gid, s=seq, a="c", t=far).pack())
    assert answer == "You can't choose that now."
    answer = await h.press_data(h.user(killer), killer, Act(g=gid, s=seq, a="u", t=far).pack())
    assert answer == "You can't choose that cell now."
    answer = await h.press_data(h.user(killer), killer, Act(g=gid, s=seq, a="o", t=11).pack())
    assert answer == "You can't choose that now."  # the Detective's interrogation: not his
    answer = await h.press_data(h.user(killer), killer, Act(g=gid, s=seq, a="zz", t=1).pack())
    assert answer == "You can't choose that now."
    other = next(u for u in st.order if u != killer)  # not his turn
    answer = await h.press_data(h.user(other), other, Act(g=gid, s=seq, a="c", t=far).pack())
    assert answer == "This button is out of date."
    assert await h.log_len(gid) == before


async def test_NOIR_X27_a_stale_step_is_out_of_date_and_changes_nothing(h: Harness):
    gid = await _start(h, 6)
    st = (await h.service.live(gid)).state
    killer = st.current
    old = nd.menu_buttons(h, killer, stamp(st))
    shift = next(d for _m, d, a in old if a.a == "o" and a.t == 1)
    await h.press(h.user(killer), killer, old[0][0], shift)
    await h.fire()  # his turn times out
    st = (await h.service.live(gid)).state
    assert st.current != killer
    final = h.message(killer, old[0][0])
    assert "Time is up" in final["text"] and not final.get("reply_markup")
    before = await h.log_len(gid)
    answer = await h.press(h.user(killer), killer, old[0][0], shift)
    assert answer == "This button is out of date."
    assert await h.log_len(gid) == before


async def test_NOIR_X28_a_shift_is_one_command_from_three_presses(h: Harness):
    gid = await _start(h, 6)
    st = (await h.service.live(gid)).state
    u = st.current
    seq = stamp(st)
    for code, t in (("o", 1), ("l", 0), ("i", 2)):
        answers = len(h.session.calls.calls_to("answerCallbackQuery"))
        assert await h.press_data(h.user(u), u, Act(g=gid, s=seq, a=code, t=t).pack()) is None
        assert len(h.session.calls.calls_to("answerCallbackQuery")) == answers + 1  # answered
    bys = sorted(Act.unpack(d).t - 2 for _m, d, a in nd.menu_buttons(h, u, seq) if a.a == "y")
    assert bys == [-2, -1, 1, 2]  # the Killer shifts by 1 or 2 (NOIR-18)
    before = await h.log_len(gid)
    assert await h.press_data(h.user(u), u, Act(g=gid, s=seq, a="y", t=3).pack()) == "✅"
    assert await h.log_len(gid) == before + 1
    st = (await h.service.live(gid)).state
    assert st.last_action == ("shift", "row", 2, 1)
    menu = h.messages(u)[-1]
    assert "You shifted row 3 by +1" in menu["text"] and not menu.get("reply_markup")


async def test_NOIR_X29_accusing_his_own_suspect_asks_first(h: Harness):
    gid = await _start(h, 6)
    st = (await h.service.live(gid)).state
    agent = st.order[1]  # the first agent: every agent may accuse (NOIR-Q25)
    for _ in range(3):
        if st.current == agent:
            break
        await h.fire()
        st = (await h.service.live(gid)).state
    own = st.players[agent].identity
    seq = stamp(st)

    async def press(a: str, t: int) -> str | None:
        return await h.press_data(h.user(agent), agent, Act(g=gid, s=seq, a=a, t=t).pack())

    assert await press("o", 3) is None
    before = await h.log_len(gid)
    assert await press("c", own) is None  # not yet: he is asked
    assert await h.log_len(gid) == before
    menu = h.messages(agent)[-1]
    assert "Accuse your own suspect" in menu["text"]
    assert await press("c", own) == "✅"
    st = (await h.service.live(gid)).state
    assert st.last_action == ("accuse", own) and st.arrests == 0


async def test_NOIR_Q01_newgame_noir_strict_asks_the_role_of_an_accusation(h: Harness):
    await h.command(h.users[0], "/newgame noir loud")
    assert "Unknown option «loud»" in h.sent_texts(GROUP)[-1]
    await h.command(h.users[0], "/newgame noir strict")
    g = await h.game()
    assert g.state.options["strict_accusation"]
    for u in h.users[:6]:
        await h.dm(u, f"/start join_{g.id}")
    await nd.press_start(h)
    st = (await h.service.live(g.id)).state
    agent = st.order[1]
    await h.fire()  # the Killer's turn passes
    st = (await h.service.live(g.id)).state
    assert st.current == agent
    target = next(s for s in legal_actions(st, agent).accuse if s != st.players[agent].identity)
    seq = stamp(st)

    async def press(a: str, t: int) -> str | None:
        return await h.press_data(h.user(agent), agent, Act(g=g.id, s=seq, a=a, t=t).pack())

    assert await press("o", 3) is None
    assert await press("c", target) is None
    menu = h.messages(agent)[-1]
    roles = [b["text"] for row in menu["reply_markup"]["inline_keyboard"] for b in row]
    assert roles[:3] == ["Killer", "Psycho", "Bomber"]
    assert await press("r", 9) == "You can't choose that now."
    assert await press("r", 1) == "✅"
    st = (await h.service.live(g.id)).state
    assert st.last_action == ("accuse", target)
