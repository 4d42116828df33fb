"""The online sport preset through the bot (docs/rules/online-sport.md, the "bot layer" parts):
real updates through ``Dispatcher.feed_update``, buttons pressed as the bot sent them.

Covered: whole games for 6, 8 and 10 ending green or red with every role and no secret in the
group before (ONLINE-46/53, Q24/Q25); the live ballot with preliminary (·) and final (✔) taps
and PASS (ONLINE-16..20); the revote (ONLINE-34) and the lift decision (ONLINE-24/32/33, Q09);
the day-1 single vote (ONLINE-23, Q03). The nights, the best move and misfires:
test_online_night.py; the OFFLINE → AFK clock: test_online_afk.py; the shared helpers:
online_support.py.
"""

from __future__ import annotations

import random

import pytest

from bot.ui.callbacks import Act
from bot.ui.texts import ROLE_ICONS, ROLE_NAMES
from engine import (
    BestMove,
    GameState,
    OnlineActions,
    OnlinePhase,
    Phase,
    Team,
    command_from_dict,
    legal_actions,
    replay,
)
from tests.bot.driver import press_action
from tests.bot.harness import GROUP, Harness, make_harness, text_of
from tests.bot.helpers import act
from tests.bot.online_support import (
    ALREADY_VOTED,
    CANT_CHOOSE,
    assert_no_secrets,
    end_turns,
    group_texts,
    mafia_plan,
    name,
    night_1,
    online_step,
    random_plan,
    result_index,
    said,
    shown,
    start_online,
    state,
    tap,
    town_plan,
    vote,
)
from tests.fakes.telegram import plain_text

# --- a whole game -----------------------------------------------------------------------------
GAMES = [(6, "mafia", 1), (8, "town", 2), (10, "random", 3), (6, "random", 4), (8, "random", 5),
         (10, "random", 6)]
PLANS = {"town": town_plan, "mafia": mafia_plan, "random": random_plan}


@pytest.mark.parametrize(("n", "plan", "seed"), GAMES, ids=[f"{n}p-{p}-{s}" for n, p, s in GAMES])
async def test_ONLINE_46_53_a_whole_game_ends_green_or_red_with_every_role(
        sqlite_url: str, n: int, plan: str, seed: int):
    h = await make_harness(sqlite_url, n_users=n)
    try:
        game_id = await start_online(h)
        rng = random.Random(seed)
        for _ in range(500):
            if not await online_step(h, rng, PLANS[plan]):
                break
        else:
            raise AssertionError("the game did not end")
        log = await h.service.storage.load_log(game_id)
        st, events = replay(command_from_dict(c) for c in log)
        assert isinstance(st, GameState)
        assert st.phase is Phase.ENDED
        if plan != "random":
            assert st.winner is {"town": Team.TOWN, "mafia": Team.MAFIA}[plan]
        assert (await h.service.storage.get_game(game_id)).status == "finished"

        end = result_index(h)
        result = plain_text(text_of(h.session.calls[end])).splitlines()
        assert result[0] == ("🟢 Town wins!" if st.winner is Team.TOWN else "🔴 Mafia wins!")
        _ = h.app.translator.get("en")
        for p in st.seated():  # ONLINE-46: every role, the dead marked
            assert p.role is not None
            line = f"№{p.seat} {p.name} — {ROLE_ICONS[p.role]} {_(ROLE_NAMES[p.role])}"
            assert line + ("" if p.alive else " ☠️") in result
        best = [e for step in events for e in step if isinstance(e, BestMove)]
        if best and best[0].targets:  # ONLINE-Q25: scored only now
            k = sum(st.players[t].team is Team.MAFIA for t in best[0].targets)
            score = f"🎯 Best move of {name(st, best[0].user_id)}: {k} of 3 were black."
            assert score in result
            assert not [t for t in group_texts(h, 0, end) if "were black" in t]
        else:
            assert not [line for line in result if "were black" in line]
        texts = group_texts(h, 0, end)
        assert len(texts) > 10
        assert_no_secrets(h, texts)
        assert not [t for t in texts if "Town wins" in t or "Mafia wins" in t]
    finally:
        await h.stop()


# --- the ballot --------------------------------------------------------------------------------
async def test_ONLINE_16_17_18_19_20_the_ballot_shows_preliminary_and_final_taps(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=6)
    try:
        await start_online(h)
        st = await night_1(h)
        s = [p.user_id for p in st.seated()]  # s[0] is seat №1
        text = await shown(h, "ballot")
        assert "Day 1" in text and "No votes yet." in text and "PASS abstains" in text
        seats = sorted(a.t for a in await ballot_buttons(h))
        assert seats == [0, 1, 2, 3, 4, 5, 6]  # every living player and PASS (Q05, ONLINE-19)

        assert await tap(h, s[0], s[1]) == "🗳"  # ONLINE-16: preliminary
        assert f"{name(st, s[1])} — 1: №1·" in await shown(h, "ballot")
        la = legal_actions(await state(h), s[0])
        assert isinstance(la, OnlineActions)
        assert la.ballot_marked and la.ballot_mark == s[1]
        assert await tap(h, s[0], s[2]) == "🗳"  # ONLINE-17: the second tap switches, final
        text = await shown(h, "ballot")
        assert f"{name(st, s[2])} — 1: №1✔" in text and name(st, s[1]) + " —" not in text
        log_len = await h.log_len((await h.game()).id)
        assert await tap(h, s[0], s[1]) == ALREADY_VOTED  # ONLINE-18: a final vote stands
        assert await h.log_len((await h.game()).id) == log_len
        la = legal_actions(await state(h), s[0])
        assert isinstance(la, OnlineActions) and la.ballot == ()

        assert await tap(h, s[3], None) == "🗳"
        assert "PASS — 1: №4·" in await shown(h, "ballot")
        assert await tap(h, s[3], None) == "🗳"
        assert "PASS — 1: №4✔" in await shown(h, "ballot")
        # ONLINE-19: three PASS, two votes for №3, one for №4: №3 is the sole leader.
        await vote(h, {s[4]: None, s[5]: None, s[1]: s[2], s[2]: s[3]})
        texts = h.sent_texts(GROUP)
        # the ballot keeps the announcements that headed it (the morning, issue 11)
        result = next(t for t in reversed(texts) if "🗳 Result of the vote:" in t)
        result = result[result.index("🗳 Result of the vote:"):]
        assert result.splitlines()[1:] == [f"{name(st, s[2])} — 2: №1, №2",
                                           f"{name(st, s[3])} — 1: №3"]
        # issue 11: the announcement heads the next standing message (the last word)
        assert any(t.startswith(f"☠️ {name(st, s[2])} is voted out.") for t in texts)
        st = await state(h)
        assert st.phase is Phase.LAST_WORD and st.speaker == s[2]
    finally:
        await h.stop()


async def ballot_buttons(h: Harness, key: str = "ballot") -> list:
    """The in-game buttons of the standing group message ``key`` (unpacked ``Act``)."""
    markup = h.message(GROUP, (await h.game()).ui[key]).get("reply_markup") or {}
    return [Act.unpack(b["callback_data"]) for row in markup.get("inline_keyboard", [])
            for b in row]


async def test_ONLINE_34_a_revote_offers_only_the_leaders_and_no_pass(h: Harness):
    await start_online(h)  # 7 players: any tie revotes (ONLINE-31)
    st = await night_1(h)
    s = [p.user_id for p in st.seated()]
    await vote(h, {s[0]: s[2], s[1]: s[2], s[2]: s[4], s[3]: s[4], s[4]: None, s[5]: None,
                   s[6]: None})
    assert said(h, GROUP, f"⚖️ Tie between {name(st, s[2])}, {name(st, s[4])}: they defend "
                          "again, then a new vote among them.")
    st = await end_turns(h, Phase.DEFENCE)  # ONLINE-Q11: №3, then №5
    assert st.phase is OnlinePhase.REVOTE
    text = await shown(h, "ballot")
    assert f"Revote among {name(st, s[2])}, {name(st, s[4])}." in text
    assert "there is no PASS" in text
    assert sorted(a.t for a in await ballot_buttons(h)) == [3, 5]  # no PASS (t=0), no other seat
    g = await h.game()
    for forged in (0, 1):  # a PASS or a player who is not a leader, pressed with forged data
        assert await h.press_data(h.user(s[0]), GROUP, act(g.id, st, "tv", forged)) == CANT_CHOOSE
    assert await tap(h, s[0], s[2]) == "🗳"
    assert f"{name(st, s[2])} — 1: №1·" in await shown(h, "ballot")
    assert await tap(h, s[0], s[2]) == "🗳"
    await vote(h, {s[1]: s[2], s[2]: s[2], s[3]: s[2], s[4]: s[4], s[5]: s[4],
                   s[6]: s[4]})
    assert said(h, GROUP, f"☠️ {name(st, s[2])} is voted out.")


@pytest.mark.parametrize("passed", [True, False], ids=["lifted", "stay"])
async def test_ONLINE_24_32_Q09_the_lift_decision(sqlite_url: str, passed: bool):
    h = await make_harness(sqlite_url, n_users=6)
    try:
        await start_online(h)
        st = await night_1(h)
        s = [p.user_id for p in st.seated()]
        await vote(h, {s[0]: s[2], s[1]: s[2], s[2]: s[4], s[3]: s[4], s[4]: None, s[5]: None})
        both = f"{name(st, s[2])}, {name(st, s[4])}"
        # ONLINE-24: two leaders at a table of six go straight to the lift decision
        assert said(h, GROUP, f"⚖️ Tie between {both}: each defends, then everyone decides "
                              "whether to lift them all from the table.")
        st = await end_turns(h, Phase.DEFENCE)
        assert st.phase is OnlinePhase.LIFT_VOTE
        text = await shown(h, "lift")
        assert text.splitlines() == [
            f"⚖️ Lift {both} from the table?",
            "It takes 4 «Lift» votes of 6 players; otherwise they stay and night falls.",
            "⬆️ Lift (0): —", "⬇️ Leave (0): —"]
        assert [a.a for a in await ballot_buttons(h, "lift")] == ["lift", "leave"]
        user = h.user
        assert await press_action(h, user(s[0]), GROUP, "lift") == "⬆️"
        assert "⬆️ Lift (1): №1·" in await shown(h, "lift")
        assert await press_action(h, user(s[1]), GROUP, "leave") == "⬇️"
        assert await press_action(h, user(s[0]), GROUP, "lift") == "⬆️"
        text = await shown(h, "lift")
        assert "⬆️ Lift (1): №1✔" in text and "⬇️ Leave (1): №2·" in text
        assert await press_action(h, user(s[0]), GROUP, "leave") == ALREADY_VOTED
        if passed:  # five Lift taps, the candidates' too: 5 ≥ 4
            for uid in s[2:]:
                assert await press_action(h, user(uid), GROUP, "lift") == "⬆️"
                assert await press_action(h, user(uid), GROUP, "lift") == "⬆️"
            assert await press_action(h, user(s[1]), GROUP, "leave") == "⬇️"
        else:  # two more preliminary Lift taps count (Q09), the silent ones do not: 3 < 4
            for uid in s[2:4]:
                assert await press_action(h, user(uid), GROUP, "lift") == "⬆️"
            await h.fire()
        if passed:
            assert said(h, GROUP, f"⚖️ Lift {both}?\nLifted: 5 «Lift» votes of 4 needed.")
            for uid in (s[2], s[4]):
                assert said(h, GROUP, f"☠️ {name(st, uid)} is lifted from the table.")
            st = await state(h)
            assert st.phase is Phase.LAST_WORD and st.speaker == s[2]  # seat order
        else:
            assert said(h, GROUP, f"⚖️ Lift {both}?\nThey stay: 3 «Lift» votes, 4 needed.")
            assert said(h, GROUP, "🌗 Not enough «Lift» votes: the candidates stay.")
            st = await state(h)
            assert st.phase is Phase.NIGHT and st.night == 2 and len(st.alive()) == 6
    finally:
        await h.stop()


async def test_ONLINE_23_Q03_a_single_vote_on_day_1_removes_nobody(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=6)
    try:
        await start_online(h)
        st = await night_1(h)
        s = [p.user_id for p in st.seated()]
        assert await tap(h, s[0], s[1]) == "🗳"  # preliminary; nobody else taps: PASS
        await h.fire()  # the discussion's timer
        assert said(h, GROUP, f"🗳 Result of the vote:\n{name(st, s[1])} — 1: №1")  # counted (Q03)
        assert said(h, GROUP, "🌗 On day 1 a single vote with everyone else on PASS removes nobody.")
        st = await state(h)
        assert st.phase is Phase.NIGHT and st.night == 2 and len(st.alive()) == 6
    finally:
        await h.stop()
