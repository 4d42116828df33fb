"""The online sport preset through the bot (docs/rules/online-sport.md): the best move
(ONLINE-07/08, Q12, Q25), misfires (ONLINE-36/37, Q16), night 1 (X17, Q20), the mafia relay on
night 1 only (ONLINE-39), checks answered at once (Q13); real updates through ``feed_update``."""

from __future__ import annotations

import pytest

from bot.ui.callbacks import Act
from engine import OnlinePhase, Phase, Role, Team
from tests.bot.driver import press_action
from tests.bot.harness import GROUP, make_harness, text_of
from tests.bot.helpers import act
from tests.bot.online_support import (
    all_pass,
    assert_no_secrets,
    blacks,
    by_role,
    end_turns,
    group_texts,
    name,
    night,
    night_1,
    reds,
    result_index,
    said,
    seat_of,
    start_online,
    state,
    tap,
    texts_of,
)
from tests.fakes.telegram import plain_text


@pytest.mark.parametrize("skip", [False, True], ids=["three-taps", "skip"])
async def test_ONLINE_07_08_Q25_the_best_move(sqlite_url: str, skip: bool):
    h = await make_harness(sqlite_url, n_users=6)
    try:
        game_id = await start_online(h)
        await night_1(h)
        st = await all_pass(h)
        assert said(h, GROUP, "🌗 Nobody got a vote: nobody leaves.")
        victim, don = reds(st)[0], by_role(st, Role.DON)[0]
        await night(h, {b: victim for b in blacks(st)})
        st = await state(h)
        assert st.phase is OnlinePhase.BEST_MOVE and st.speaker == victim
        assert said(h, GROUP, f"☀️ Morning. {name(st, victim)} was killed tonight.")
        assert said(h, GROUP, f"🎯 {name(st, victim)}, the first victim of the mafia's shot, "
                              "makes the best move")
        v = h.user(victim)
        offered = [a.t for _, b in h.buttons(victim) if (b.get("callback_data") or "")[:2] == "a:"
                   for a in [Act.unpack(b["callback_data"])] if a.a == "bm" and a.s == st.phase_seq]
        assert sorted(offered) == sorted(p.seat for p in st.alive() if p.user_id != victim)
        # ONLINE-X18: the prompt says what a short draft means and shows its end
        prompt = next(t for t in texts_of(h, victim) if "You are the mafia's first victim" in t)
        assert "Fewer than three when the time runs out count as no best move." in prompt
        assert "⏱ 30 s. Until " in prompt
        # Another player's taps are refused, even with the victim's button data.
        forged = act(game_id, st, "bm", seat_of(st, don))
        assert await h.press_data(h.user(don), don, forged) == "It's not your turn."
        skip_data = act(game_id, st, "bmx")
        assert await h.press_data(h.user(don), don, skip_data) == "It's not your turn."
        picks = blacks(st) + [u for u in reds(st) if u != victim][:1]  # two blacks and a red
        if skip:
            assert await press_action(h, v, victim, "bmx") == "⏭"
            assert said(h, GROUP, f"🎯 {name(st, victim)} makes no best move.")
        else:
            assert await press_action(h, v, victim, "bm", seat_of(st, picks[0])) == "1 of 3 chosen."
            assert await press_action(h, v, victim, "bm", seat_of(st, picks[0])) == "0 of 3 chosen."
            assert await press_action(h, v, victim, "bm", seat_of(st, picks[0])) == "1 of 3 chosen."
            # his own seat (a forged button) is refused at once and his pick stays
            own = act(game_id, st, "bm", seat_of(st, victim))
            assert await h.press_data(v, victim, own) == "You can't choose that player now."
            marked = [plain_text(b["text"], strict=False) for _, b in h.buttons(victim)
                      if b["text"].startswith("✅")]
            assert marked == [f"✅ {name(st, picks[0])}"]
            assert await press_action(h, v, victim, "bm", seat_of(st, picks[1])) == "2 of 3 chosen."
            assert await press_action(h, v, victim, "bm", seat_of(st, picks[2])) == "🎯"
            listed = ", ".join(name(st, u) for u in picks)
            assert said(h, GROUP, f"🎯 Best move of {name(st, victim)}: {listed}.")
        st = await state(h)
        assert st.phase is Phase.LAST_WORD and st.speaker == victim  # ONLINE-07: then his word
        await end_turns(h, Phase.LAST_WORD)
        st = await all_pass(h)  # day 2: nobody out; night 3: 2 blacks against 2 reds
        await night(h, {b: reds(st)[0] for b in blacks(st)})
        await end_turns(h, Phase.LAST_WORD)
        result = plain_text(text_of(h.session.calls[result_index(h)]))
        assert result.startswith("🔴 Mafia wins!")
        score = f"🎯 Best move of {name(st, victim)}: 2 of 3 were black."
        assert (score in result) is not skip  # ONLINE-Q25: scored at the end only
        assert "were black" not in "\n".join(group_texts(h, 0, result_index(h)))
    finally:
        await h.stop()


async def test_ONLINE_36_Q16_three_misfires_in_a_row_and_the_town_wins(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=6)
    try:
        await start_online(h)
        await night_1(h)
        for count in (1, 2, 3):
            st = await all_pass(h)
            assert st.phase is Phase.NIGHT and st.night == count + 1
            b1, b2 = blacks(st)
            mark = len(h.session.calls)
            await night(h, {b1: reds(st)[0], b2: reds(st)[1]})  # split shots
            said_now = "\n".join(group_texts(h, mark))
            misfire = f"🔫 A misfire: the mafia's shots did not meet ({count} in a row;"
            order = [said_now.find("☀️ Morning. Nobody was killed tonight."), said_now.find(misfire)]
            if count < 3:
                assert (await state(h)).phase is OnlinePhase.DISCUSSION
                order.append(said_now.find("☀️ Day"))
            else:  # announced that morning, before anything else
                order.append(said_now.find("🟢 Town wins!"))
                assert "☀️ Day" not in said_now
            assert -1 < order[0] < order[1] < order[2], order
        st = await state(h)
        assert st.over and st.winner is Team.TOWN and len(st.alive()) == 6
    finally:
        await h.stop()


async def test_ONLINE_36_37_a_night_without_a_single_shot_is_a_misfire_told_as_no_shot(
        sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=6)
    try:
        await start_online(h)
        await night_1(h)
        st = await all_pass(h)
        assert st.phase is Phase.NIGHT and st.night == 2
        for uid in reds(st):  # the reds sleep; no black shoots
            assert await press_action(h, h.user(uid), uid, "sleep") == "💤"
        mark = len(h.session.calls)
        await h.fire()  # the night ends at its timer
        said_now = "\n".join(group_texts(h, mark))
        assert "🔫 A misfire: the mafia did not shoot (1 in a row;" in said_now, said_now
        assert "did not meet" not in said_now
        assert (await state(h)).online.misfires == 1  # ONLINE-37: counted all the same
    finally:
        await h.stop()


async def test_ONLINE_X17_night_1_without_a_single_tap_goes_on_to_day_1_with_everybody_active(
        sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=8)
    try:
        await start_online(h)
        st = await state(h)
        assert said(h, GROUP, "everyone else sleeps: nobody else has anything to press.")
        for uid in reds(st):  # the Sheriff and the civilians: told so, and no button
            assert said(h, uid, "You have nothing to do tonight: the day starts by itself.")
            assert not [b for _mid, b in h.buttons(uid) if "a:" in (b.get("callback_data") or "")]
        for uid in blacks(st):
            assert said(h, uid, "the day starts once every black is ready")
        await h.fire()  # not a single tap: the meeting ends at its timer
        st = await state(h)
        assert st.phase is OnlinePhase.DISCUSSION and st.day == 1
        assert all(p.active and not p.afk for p in st.players.values())
        assert not said(h, GROUP, "inactive") and not said(h, GROUP, "abandoned")
    finally:
        await h.stop()


async def test_ONLINE_X17_a_black_who_tapped_ready_on_night_1_is_told_he_is_ready(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=10)
    try:
        await start_online(h)
        st = await state(h)
        dons = by_role(st, Role.DON)
        ready = dons + [b for b in blacks(st) if b not in dons][:-1]  # the last tap ends the night
        assert len(ready) == 2 and len(blacks(st)) == 3
        for uid in ready:  # the Don and the mafiosi alike
            found = h.find_button(uid, action="sleep")
            assert found is not None
            assert await press_action(h, h.user(uid), uid, "sleep") == "💤"
            last = plain_text(h.message(uid, found[0])["text"])
            assert "you are ready. The day starts once every black is ready" in last, last
            assert "nothing to do tonight" not in last and "Press «Sleep»" not in last
            assert not [b for _mid, b in h.buttons(uid) if "a:" in (b.get("callback_data") or "")]
    finally:
        await h.stop()


async def test_ONLINE_Q20_the_night_sleep_prompt_says_the_tap_is_required(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=6)
    try:
        await start_online(h)
        await night_1(h)
        st = await all_pass(h)
        assert st.phase is Phase.NIGHT and st.night == 2
        civilians = by_role(st, Role.CIVILIAN)
        required = "Press «Sleep» before the night ends, or you will be marked inactive."
        for uid in civilians:
            assert said(h, uid, f"🌙 Night 2. You sleep. {required}")
            assert not said(h, uid, "so the night can end sooner")
        found = h.find_button(civilians[0], action="sleep")
        assert found is not None
        assert await press_action(h, h.user(civilians[0]), civilians[0], "sleep") == "💤"
        assert plain_text(h.message(civilians[0], found[0])["text"]) == "💤 You sleep. Good night."
    finally:
        await h.stop()


async def test_ONLINE_39_the_mafia_relay_works_on_night_1_only(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=6)
    try:
        await start_online(h)
        st = await state(h)
        (b1, b2), red = blacks(st), reds(st)[0]
        await h.dm(h.user(b1), "hello team")
        assert said(h, b2, f"🕶 {name(st, b1)}: hello team")
        await h.dm(h.user(red), "hello anyone")
        assert not [c for c in h.session.calls if "hello anyone" in (c.text or "")]
        await night_1(h)
        await all_pass(h)
        assert (await state(h)).night == 2
        mark = len(h.session.calls)
        await h.dm(h.user(b1), "night two")
        assert not [c for c in h.session.calls[mark:] if "night two" in (c.text or "")]
        assert [c.chat_id for c in h.session.calls[mark:] if c.method == "sendMessage"] == [b1]
    finally:
        await h.stop()


async def test_ONLINE_Q13_sheriff_and_don_results_come_by_dm_at_once(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=6)
    try:
        await start_online(h)
        await night_1(h)
        st = await all_pass(h)
        sheriff, don = by_role(st, Role.SHERIFF)[0], by_role(st, Role.DON)[0]
        mafioso = by_role(st, Role.MAFIA)[0]
        civilian = by_role(st, Role.CIVILIAN)[0]
        mark = len(h.session.calls)
        checked = seat_of(st, mafioso)
        assert await press_action(h, h.user(sheriff), sheriff, "scheck", checked) == "⭐"
        assert said(h, sheriff, f"⭐ {name(st, mafioso)} is black.")  # a mafioso like the Don
        assert await press_action(h, h.user(don), don, "dcheck", seat_of(st, sheriff)) == "🎩"
        assert said(h, don, f"🎩 {name(st, sheriff)} is the Sheriff.")
        assert (await state(h)).phase is Phase.NIGHT  # at once, not at dawn
        await night(h, {b: civilian for b in blacks(st)})
        assert_no_secrets(h, group_texts(h, mark))
    finally:
        await h.stop()


async def test_ONLINE_X18_two_picks_when_the_time_runs_out_are_no_best_move(sqlite_url: str):
    """Issue 20: two of three picks made when the 30 s ran out were dropped without a word.
    ONLINE-X18 decides it (three names or none): the prompt says so and shows its end, the
    group is told he makes no best move, and neither pick is published or scored."""
    h = await make_harness(sqlite_url, n_users=6)
    try:
        await start_online(h)
        await night_1(h)
        st = await all_pass(h)
        victim = reds(st)[0]
        await night(h, {b: victim for b in blacks(st)})
        st = await state(h)
        assert st.phase is OnlinePhase.BEST_MOVE and st.speaker == victim
        prompt = next(t for t in texts_of(h, victim) if "You are the mafia's first victim" in t)
        assert "Fewer than three when the time runs out count as no best move." in prompt
        assert "⏱ 30 s. Until " in prompt
        v = h.user(victim)
        picks = blacks(st)[:2]
        assert await press_action(h, v, victim, "bm", seat_of(st, picks[0])) == "1 of 3 chosen."
        assert await press_action(h, v, victim, "bm", seat_of(st, picks[1])) == "2 of 3 chosen."
        mark = len(h.session.calls)
        await h.fire()  # the best move's 30 s run out with a draft of two
        st = await state(h)
        assert st.phase is Phase.LAST_WORD and st.speaker == victim
        told = group_texts(h, mark)
        assert any(f"🎯 {name(st, victim)} makes no best move." in t for t in told), told
        assert not any("Best move of" in t for t in told)
        assert not [b for _, b in h.buttons(victim) if (b.get("callback_data") or "")[:2] == "a:"
                    and Act.unpack(b["callback_data"]).a in ("bm", "bmx")]  # the prompt is closed
    finally:
        await h.stop()


async def test_ONLINE_a_ballot_cut_short_by_stop_loses_its_buttons(sqlite_url: str):
    """Issue 20 (online tried again): /stop during the discussion left the group's ballot with
    every name and PASS live; a game stopped in the best move left the victim's prompt live."""
    h = await make_harness(sqlite_url, n_users=6)
    try:
        h.session.set_member(GROUP, h.users[0].id, "administrator")
        await start_online(h)
        st = await night_1(h)
        ballot = (await h.game()).ui["ballot"]
        s = [p.user_id for p in st.seated()]
        assert await tap(h, s[0], s[1]) == "🗳"
        await h.command(h.users[0], "/stop")
        await h.app.sender.drain()
        assert await h.game() is None
        shown = h.message(GROUP, ballot)
        assert not (shown.get("reply_markup") or {}).get("inline_keyboard")
        assert "☀️ Day 1: discussion and vote.\n\n" + f"{name(st, s[1])} — 1" in shown["text"]

        await start_online(h)
        await night_1(h)
        st = await all_pass(h)
        victim = reds(st)[0]
        await night(h, {b: victim for b in blacks(st)})
        assert (await state(h)).phase is OnlinePhase.BEST_MOVE
        assert h.find_button(victim, action="bm") is not None
        await h.command(h.users[0], "/stop")
        await h.app.sender.drain()
        assert h.find_button(victim, action="bm") is None and h.find_button(victim, action="bmx") is None
    finally:
        await h.stop()
