"""The forum preset through the bot (docs/rules/forum.md, the "bot layer" parts): real updates
through ``Dispatcher.feed_update``, buttons pressed as the bot sent them.

Covered: ``/newgame forum <roles>`` and the lobby's role toggles; a whole 12-player game with
every optional role and a host, from the acquaintance to the best-player vote (the Cop first at
night, the Sleepwalker's reveal and re-pick seen only by the team chat, the Journalist's pair,
sides, the ballot, last-word extras, warnings by the host, the bonus round); no role named in
the group before a player leaves or the game is won.
"""

from __future__ import annotations

import pytest

from engine import ForumActions, ForumPhase, Phase, Role, legal_actions
from engine.forum import team_chat
from tests.bot.driver import press_action
from tests.bot.harness import GROUP, Harness, make_harness
from tests.bot.helpers import role_pairs

ALL_ROLES = "commissar doctor maniac putana journalist sleepwalker werewolf cop"


@pytest.fixture
async def h12(sqlite_url: str):
    harness = await make_harness(sqlite_url, n_users=13)
    try:
        yield harness
    finally:
        await harness.stop()


async def state(h: Harness):
    g = await h.game()
    return g.state if g is not None else await h.service.state(h.notes["game"])


def seat(st, uid: int) -> int:
    return st.players[uid].seat


async def open_forum(h: Harness, args: str, players, host=None) -> int:
    await h.command(players[0], f"/newgame forum {args}".strip())
    g = await h.game()
    assert g is not None and g.state.ruleset == "forum"
    h.notes["game"] = g.id
    for u in players:
        await h.dm(u, f"/start join_{g.id}")
    if host is not None:
        await h.dm(host, f"/start host_{g.id}")
    return g.id


async def test_newgame_forum_roles_and_lobby_toggles(h: Harness) -> None:
    await h.command(h.users[0], "/newgame forum maniac putana cop")
    g = await h.game()
    assert g.state.options["roles"] == ["maniac", "putana", "cop"]
    lobby = h.message(GROUP, g.ui["lobby"])
    assert "Maniac" in lobby["text"] and "Forum mafia" in lobby["text"]
    data = next(b["callback_data"] for _, b in h.buttons(GROUP)
                if b.get("callback_data", "").startswith("l:") and ":role:cop" in b["callback_data"])
    await h.press(h.users[0], GROUP, g.ui["lobby"], data)
    g = await h.game()
    assert g.state.options["roles"] == ["maniac", "putana"]
    await h.command(h.users[0], "/cancel")
    await h.command(h.users[0], "/newgame forum wizard")
    assert any("Unknown role" in t for t in h.sent_texts(GROUP))


async def _press_dm(h: Harness, uid: int, action: str, seat_no: int | None = None) -> str | None:
    return await press_action(h, h.user(uid), uid, action, seat_no)


async def test_a_whole_forum_game_with_every_role(h12: Harness) -> None:
    h = h12
    players, host = h.users[:12], h.users[12]
    await open_forum(h, ALL_ROLES, players, host)
    await h.command(players[0], "/startgame")
    st = await state(h)
    assert st.phase is Phase.NIGHT and st.night == 1
    roles = {p.role for p in st.seated()}
    assert roles >= {Role.MANIAC, Role.PUTANA, Role.JOURNALIST, Role.SLEEPWALKER, Role.WEREWOLF,
                     Role.COP, Role.COMMISSAR, Role.DOCTOR}
    by_role = {p.role: p.user_id for p in st.seated()}
    sw = by_role[Role.SLEEPWALKER]
    # night 1: the Maniac takes the Mafia's side, everybody sleeps
    assert await _press_dm(h, by_role[Role.MANIAC], "side", 2) == "✅"
    for p in (await state(h)).alive():
        if (await state(h)).night == 1 and (await state(h)).phase is Phase.NIGHT:
            await _press_dm(h, p.user_id, "sleep")
    st = await state(h)
    assert st.phase is ForumPhase.DEBATE, st.phase
    # the host warns a player from his panel
    victim_seat = 1
    r = await press_action(h, host, host.id, "warn", victim_seat)
    assert r == "❗", r
    assert any("Warning to №1" in t for t in h.sent_texts(GROUP))
    # day 1: everybody ready, everybody votes for a plain Civilian
    civ = by_role[Role.CIVILIAN]
    await _day(h, civ)
    st = await state(h)
    # night 2: the Cop first, only he has buttons
    assert st.phase is ForumPhase.COP_TURN and st.night == 2, st.phase
    for p in st.alive():
        la = legal_actions(st, p.user_id)
        assert bool(la.night_action) == (p.role is Role.COP)
    mafia = [p.user_id for p in st.alive() if p.role is Role.MAFIA]
    assert await _press_dm(h, by_role[Role.COP], "block", seat(st, by_role[Role.DOCTOR])) == "👮"
    st = await state(h)
    assert st.phase is Phase.NIGHT
    covers = [t for t in h.sent_texts(by_role[Role.COP], ("sendMessage",)) if "You cover" in t]
    assert not covers  # issue 20: his turn's message says it; the night sends it no second time
    assert any("You cover" in t for t in h.sent_texts(by_role[Role.COP]))
    # the Mafia agree on the Sleepwalker: revealed to the team chat only, then a re-pick
    for m in mafia:
        assert await _press_dm(h, m, "kill", seat(st, sw)) == "🕶"
    st = await state(h)
    assert st.forum.revealed == sw
    team = set(team_chat(st))
    for u in h.users:
        shown = any("is the Sleepwalker" in t for t in h.sent_texts(u.id))
        assert shown == (u.id in team and u.id != sw), u.id
    assert not any("is the Sleepwalker" in t for t in h.sent_texts(GROUP))
    # re-pick the Commissar; the rest act
    target = by_role[Role.COMMISSAR]
    for m in mafia:
        await _press_dm(h, m, "kill", seat(st, target))
    await _press_dm(h, by_role[Role.COMMISSAR], "check", seat(st, mafia[0]))
    await _press_dm(h, by_role[Role.DOCTOR], "heal", seat(st, by_role[Role.DOCTOR]))
    j = by_role[Role.JOURNALIST]
    assert await _press_dm(h, j, "cmp", seat(st, mafia[0])) == "📰"
    assert await _press_dm(h, j, "cmp", seat(st, mafia[1])) == "📰"
    assert any("same" in t for t in h.sent_texts(j))
    await _finish(h, mafia)
    st = await state(h)
    assert st.over
    group = h.sent_texts(GROUP)
    assert any("Winners:" in t for t in group)
    assert any("Bonus round" in t for t in group)
    bonus = st.timings["bonus"]  # issue 20: the offer names the round's length, as the round
    assert bonus != st.timings["bonus_offer"]
    assert any(f"the survivors' roles before the reveal, {bonus} s." in t for t in group)
    assert any(f"guess the survivors' roles in your private chat ({bonus} s)" in t for t in group)
    assert any("Best player" in t for t in group)
    _assert_no_leak(h, group)


def _assert_no_leak(h: Harness, group: list[str]) -> None:
    pairs = role_pairs(h.app.presenter.tr)
    start = next(i for i, t in enumerate(group) if "Roles are dealt" in t)
    won = next(i for i, t in enumerate(group) if "wins!" in t)
    assert start < won
    for t in group[start:won]:
        for pair in pairs:
            if pair in t:
                assert "Card:" in t and "His card" not in t, t


async def _day(h: Harness, target: int) -> None:
    st = await state(h)
    assert st.phase is ForumPhase.DEBATE
    for p in st.alive_active():
        if (await state(h)).phase is ForumPhase.DEBATE:
            assert await press_action(h, h.user(p.user_id), GROUP, "ready") == "✅"
    st = await state(h)
    assert st.phase is ForumPhase.BALLOT
    other = next(p.user_id for p in st.alive() if p.user_id != target)
    for p in st.alive():
        if (await state(h)).phase is not ForumPhase.BALLOT:
            break
        t = target if p.user_id != target else other
        assert await press_action(h, h.user(p.user_id), GROUP, "vote", seat(st, t)) == "🗳"
    await _last_words(h)


async def _last_words(h: Harness) -> None:
    st = await state(h)
    while st.phase is Phase.LAST_WORD:
        sp = st.speaker
        la = legal_actions(st, sp)
        assert isinstance(la, ForumActions)
        if la.reveal_check:
            assert await _press_dm(h, sp, "rchk", seat(st, la.reveal_check[0])) == "🔎"
        if la.suspect:
            assert await _press_dm(h, sp, "sus", seat(st, la.suspect[0])) == "🎯"
        assert await press_action(h, h.user(sp), GROUP, "end") == "⏹"
        st = await state(h)


async def _finish(h: Harness, mafia: list[int], max_steps: int = 400, until=None) -> None:
    """Play on: the Mafia's victims are Town, the town votes out the Mafia; the after-game.
    ``until(state)``: stop there instead (the Mini App's tests)."""
    host = h.users[12]
    for _ in range(max_steps):
        g = await h.game()
        if g is None or g.state.over:
            return
        st = g.state
        if until is not None and until(st):
            return
        acted = False
        if st.phase in (Phase.NIGHT, ForumPhase.COP_TURN):
            for p in st.alive_active():
                la = legal_actions(st, p.user_id)
                if la.night_action == "kill" and p.role is Role.MAFIA:
                    if st.mafia_picks.get(p.user_id):
                        continue
                    town = [q for q in st.alive() if q.user_id not in team_chat(st)]
                    r = await _press_dm(h, p.user_id, "kill", town[0].seat)
                elif la.night_action and la.night_action != "kill":
                    r = await _press_dm(h, p.user_id, la.night_action,
                                        seat(st, la.night_targets[0]))
                elif la.sleep:
                    r = await _press_dm(h, p.user_id, "sleep")
                else:
                    continue
                acted = r is not None
                break
        elif st.phase is ForumPhase.DEBATE:
            await _day(h, next((m for m in mafia if st.is_alive(m)),
                               next(p.user_id for p in st.alive() if p.team.value == "mafia")))
            acted = True
        elif st.phase is Phase.LAST_WORD:
            await _last_words(h)
            acted = True
        elif st.phase is ForumPhase.BALLOT and st.forum.stage == "host":
            acted = await press_action(h, host, host.id, "hd", 0) is not None
        elif st.phase is ForumPhase.BONUS_OFFER:
            acted = await press_action(h, host, GROUP, "bon") == "🎲"
        elif st.phase is ForumPhase.BONUS:
            for p in st.seated():
                la = legal_actions(st, p.user_id)
                assert isinstance(la, ForumActions)
                if la.bonus_guess and p.user_id not in st.forum.guesses:
                    await _press_dm(h, p.user_id, "bg", seat(st, la.bonus_guess[0]))
                    acted = await _press_dm(h, p.user_id, "bgs") == "📨"
                    break
        elif st.phase is ForumPhase.BEST_PLAYER:
            for p in st.seated():
                la = legal_actions(st, p.user_id)
                assert isinstance(la, ForumActions)
                if la.best_player:
                    acted = await _press_dm(h, p.user_id, "best",
                                            seat(st, la.best_player[0])) == "🏅"
                    break
        if not acted:
            await h.fire()
    raise AssertionError("the game did not end")
