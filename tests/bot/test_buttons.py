"""Callback queries that must change nothing: stale buttons, forged buttons (design.md §5), and
presses that race each other."""

from __future__ import annotations

import asyncio
from collections import Counter

from aiogram.methods import AnswerCallbackQuery

from bot.games.mafia.live import LIVE_GAP
from engine import Phase, Role
from tests.bot.driver import press_action
from tests.bot.harness import GROUP, Harness, make_users, request_of
from tests.bot.helpers import act, drive_until, end_speech, start_game, to_day, to_voting

CONFIRMATIONS = {"✅", "▶️", "⏹", "🎯", "🗳", "❌", "🕶", "🔎", "💉", "💤", "⏸", "⏭"}


async def refused(h: Harness, user, chat_id: int, data: str) -> str:
    """Press forged/stale ``data``; assert a short refusal and that nothing was stored."""
    g = await h.game()
    before_len, before_seq = await h.log_len(g.id), g.state.phase_seq
    answer = await h.press_data(user, chat_id, data)
    assert answer and answer not in CONFIRMATIONS and len(answer) < 80, answer
    assert await h.log_len(g.id) == before_len
    assert (await h.game()).state.phase_seq == before_seq
    return answer


async def test_PARTY_35_stale_button_is_out_of_date_and_changes_nothing(h: Harness):
    await start_game(h)
    cards = {u.id: h.find_button(u.id, action="ready") for u in h.users}
    st = await to_day(h)
    assert st.speaker is not None
    first = h.user(st.speaker)
    mid, button = h.find_button(GROUP, action="end")
    await end_speech(h)
    g = await h.game()
    log_len = await h.log_len(g.id)
    answer = await h.press(first, GROUP, mid, button["callback_data"])
    assert answer == "This button is out of date."
    assert await h.log_len(g.id) == log_len
    # The role card's «I have read my role» is stale once the night has begun: the card lost
    # the button (issue 10), and a press of its old data is still refused.
    card = cards[first.id]
    assert card is not None and h.find_button(first.id, action="ready") is None
    assert await h.press(first, first.id, card[0], card[1]["callback_data"]) == \
        "This button is out of date."
    assert await h.log_len(g.id) == log_len


async def test_PARTY_36_nomination_by_someone_who_is_not_the_speaker_is_refused(h: Harness):
    await start_game(h)
    st = await to_day(h)
    g = await h.game()
    other = next(p for p in st.alive() if p.user_id != st.speaker)
    answer = await refused(h, h.user(other.user_id), GROUP, act(g.id, st, "nom", t=3))
    assert answer == "It's not your turn."
    answer = await refused(h, h.user(other.user_id), GROUP, act(g.id, st, "end"))
    assert answer == "It's not your turn."


async def test_forged_target_seat_that_does_not_exist_is_refused(h: Harness):
    await start_game(h)
    st = await to_day(h)
    g = await h.game()
    assert st.speaker is not None
    speaker = h.user(st.speaker)
    await refused(h, speaker, GROUP, act(g.id, st, "nom", t=99))
    st = await to_voting(h)
    voter = h.user(st.alive()[0].user_id)
    await refused(h, voter, GROUP, act(g.id, st, "vote", t=99))
    await refused(h, voter, GROUP, act(g.id, st, "vote", t=0))


async def test_PARTY_15_vote_for_a_dead_player_or_off_window_candidate_is_refused(h: Harness):
    await start_game(h)
    await to_day(h)
    st = await drive_until(h, lambda s: s.phase is Phase.VOTING and any(not p.alive for p in s.seated()),
                           seed=2)
    g = await h.game()
    dead = next(p for p in st.seated() if not p.alive)
    voter = h.user(st.alive_active()[0].user_id)
    answer = await refused(h, voter, GROUP, act(g.id, st, "vote", t=dead.seat))
    assert answer == "You can't choose that player now."
    assert st.vote is not None
    later = [c for c in st.vote.candidates if c != st.vote.current]
    assert later
    await refused(h, voter, GROUP, act(g.id, st, "vote", t=st.players[later[0]].seat))
    # A dead player may not vote at all (PARTY-49).
    answer = await refused(h, h.user(dead.user_id), GROUP,
                           act(g.id, st, "vote", t=st.players[st.vote.current].seat))
    assert answer == "You are out of the game; you can only watch."


async def test_PARTY_06_no_night_action_on_night_one_or_for_a_role_without_it(h: Harness):
    await start_game(h)
    by_id = {u.id: u for u in h.users}
    st = (await h.game()).state
    for p in st.alive():
        await press_action(h, by_id[p.user_id], p.user_id, "ready")
    st = (await h.game()).state
    assert st.phase is Phase.NIGHT and st.night == 1
    g = await h.game()
    mafioso = next(p for p in st.alive() if p.role is Role.MAFIA)
    victim = next(p for p in st.alive() if p.role is not Role.MAFIA)
    answer = await refused(h, by_id[mafioso.user_id], mafioso.user_id,
                           act(g.id, st, "kill", t=victim.seat))
    assert answer == "Nothing to do for you tonight."
    for p in st.alive():
        await press_action(h, by_id[p.user_id], p.user_id, "sleep")
    # Day 1 without nominations, then night 2.
    st = (await h.game()).state
    while st.phase is Phase.SPEECH:
        st = await end_speech(h)
    for p in st.alive():
        await press_action(h, by_id[p.user_id], GROUP, "ready")
    st = (await h.game()).state
    assert st.phase is Phase.NIGHT and st.night == 2
    civilian = next(p for p in st.alive() if p.role is Role.CIVILIAN)
    for action in ("check", "heal", "kill"):
        answer = await refused(h, by_id[civilian.user_id], civilian.user_id,
                               act(g.id, st, action, t=victim.seat))
        assert answer == "Nothing to do for you tonight."
    commissar = next(p for p in st.alive() if p.role is Role.COMMISSAR)
    await refused(h, by_id[commissar.user_id], commissar.user_id,
                  act(g.id, st, "kill", t=victim.seat))


async def test_button_of_another_groups_game_is_refused(h: Harness):
    other_group = GROUP - 1
    others = make_users(5, first=50)
    for u in others:
        h.session.register_user(u)
    await start_game(h)
    st = await to_day(h)
    # A second game in another group, by other people, running too.
    await h.command(others[0], "/newgame", chat_id=other_group)
    g2 = await h.game(other_group)
    for u in others:
        await h.dm(u, f"/start join_{g2.id}")
    await h.command(others[0], "/startgame", chat_id=other_group)
    g2 = await h.game(other_group)
    st2 = g2.state
    assert st2.phase is Phase.READY
    log2 = await h.log_len(g2.id)

    assert st.speaker is not None
    player = h.user(st.speaker)
    for chat in (GROUP, player.id):
        answer = await refused(h, player, chat, act(g2.id, st2, "ready"))
        assert answer == "You are not playing in this game."
        await refused(h, player, chat, act(g2.id, st2, "pause", s=0))
    assert await h.log_len(g2.id) == log2
    assert (await h.game(other_group)).state.ready == set()


async def _press_together(h: Harness, presses) -> list[str | None]:
    """Feed several callback queries at once; returns their answers in order."""
    updates = [h.updates.callback(user, (GROUP, mid), data) for user, mid, data in presses]
    await asyncio.gather(*(h.app.dp.feed_update(h.app.bot, u) for u in updates))
    await h.app.sender.drain()
    requests = [request_of(c, AnswerCallbackQuery) for c in h.session.calls.calls_to("answerCallbackQuery")]
    answers = {r.callback_query_id: r.text for r in requests}
    out = []
    for u in updates:
        assert u.callback_query is not None
        out.append(answers.get(u.callback_query.id))
    return out


async def test_PARTY_14_simultaneous_votes_are_each_counted_once(h: Harness):
    await start_game(h)
    await to_day(h)
    st = await to_voting(h)
    g = await h.game()
    log_len = await h.log_len(g.id)
    mid, button = h.find_button(GROUP, action="vote")
    a, b, c = (h.user(p.user_id) for p in st.alive_active()[:3])

    answers = await _press_together(h, [(a, mid, button["callback_data"]),
                                         (b, mid, button["callback_data"])])
    assert answers == ["🗳", "🗳"]
    st = (await h.game()).state
    assert st.vote.votes == {a.id: st.vote.current, b.id: st.vote.current}
    assert await h.log_len(g.id) == log_len + 2
    seats = sorted(st.players[u].seat for u in (a.id, b.id))
    # issue 11: the second press's edit is held for LIVE_GAP s and shown by the next step after it
    h.clock.advance(LIVE_GAP)
    h.app.presenter.game("party").flush_live(await h.game())
    await h.app.sender.drain()
    assert f"— 2: №{seats[0]}, №{seats[1]}" in h.message(GROUP, mid)["text"]

    # The same voter pressing twice at once: one vote, one refusal.
    answers = await _press_together(h, [(c, mid, button["callback_data"])] * 2)
    assert Counter(answers) == Counter(["🗳", "You have already voted in this round."])
    st = (await h.game()).state
    assert len(st.vote.votes) == 3 and st.vote.votes[c.id] == st.vote.current
    assert await h.log_len(g.id) == log_len + 3


async def test_forged_game_id_too_large_for_the_database_is_refused(h: Harness):
    """A callback with a game id no column can hold (``a:999…9:1:vote:1``) was an
    OverflowError with a traceback; it is a game that does not exist."""
    await start_game(h)
    await to_day(h)
    st = await to_voting(h)
    voter = h.user(st.alive()[0].user_id)
    for g in ("9" * 40, str(2**63), "-5", "0"):
        await refused(h, voter, GROUP, f"a:{g}:{st.phase_seq}:vote:1")
    for data in (f"l:{'9' * 40}:start:", f"h:p:{'9' * 40}:0:0"):
        assert await h.press_data(voter, GROUP, data), data


async def test_unknown_lobby_action_is_out_of_date(h: Harness):
    """A lobby press whose action no lobby button carries (``l:<g>:bogus:``) gets the same
    answer as other forged data, not an empty one (found by the newcomer trial)."""
    await h.command(h.users[0], "/newgame")
    g = await h.game()
    answer = await h.press_data(h.users[0], GROUP, f"l:{g.id}:bogus:")
    assert answer == "This button is out of date.", answer
