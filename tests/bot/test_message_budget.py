"""Issue 11, target 2: a game spends few messages, and players lose nothing by it
(docs/performance.md, "Messages per game"). Real updates through ``Dispatcher.feed_update``
with the recording session; the budgets are counts of Bot API calls, never times."""

from __future__ import annotations

from datetime import timedelta

from bot.games.mafia.live import LIVE_GAP
from engine import Phase
from tests.bot.driver import press_action
from tests.bot.harness import GROUP, Harness, make_harness
from tests.bot.helpers import start_game, to_day, to_voting


def _group_edits(h: Harness) -> int:
    return len(h.session.calls.calls_to("editMessageText", GROUP))


async def test_the_morning_heads_the_first_turn_in_one_message(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=6)
    try:
        await start_game(h)
        sends = len(h.session.calls.calls_to("sendMessage", GROUP))
        await to_day(h)
        new = [c for c in h.session.calls.calls_to("sendMessage", GROUP)][sends:]
        # night 1's announcement is on the ready message; the morning heads the turn
        assert len(new) == 1, [c.method for c in new]
        text = h.texts(GROUP)[-1]
        assert text.startswith("☀️ Morning.") and "\n\n🎙 Day 1. Speech of №1 " in text
        # the turn's later edits keep the morning on top
        st = (await h.game()).state
        assert await press_action(h, h.user(st.speaker), GROUP, "nom", 3) == "🎯"
        g = await h.game()
        assert h.message(GROUP, g.ui["turn"])["text"].startswith("☀️ Morning.")
        assert g.ui["head:turn"].startswith("☀️ Morning.")  # stored with the ui: a restart keeps it
    finally:
        await h.stop()


async def test_no_keyboard_is_removed_twice_from_a_night_message(sqlite_url: str):
    """A «Sleep» press takes the keyboard off the night message; the morning sends no second,
    empty edit to it -- only the last sleeper's message, whose press ended the night before it
    could be refreshed, loses its keyboard at dawn."""
    h = await make_harness(sqlite_url, n_users=6)
    try:
        await start_game(h)
        last = (await h.game()).state.alive_active()[-1].user_id  # to_day presses in this order
        await to_day(h)
        players = {u.id for u in h.users}
        closes = [c.chat_id for c in h.session.calls.calls_to("editMessageReplyMarkup")
                  if c.chat_id in players]
        assert closes == [last]
        for u in h.users:  # each player's one message: his card, now night 1's message
            assert h.find_button(u.id) is None
    finally:
        await h.stop()


async def test_an_edit_equal_to_what_a_message_shows_never_reaches_telegram(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=6)
    try:
        await start_game(h)
        await to_day(h)
        g = await h.game()
        presenter = h.app.presenter.game("party")
        _ = h.app.presenter.tr.get(g.locale)
        before = _group_edits(h)
        presenter.refresh_table(g, _, g.state)  # the table already shows this state
        presenter.refresh_table(g, _, g.state)
        await h.app.sender.drain()
        assert _group_edits(h) == before
    finally:
        await h.stop()


async def test_held_votes_are_shown_by_a_job_at_the_gap_s_end_when_the_game_is_quiet(
        sqlite_url: str):
    """The held live edit's timer is a job on the deadlines' clock, so the
    benchmark's game time fires it when production's wall clock would."""
    h = await make_harness(sqlite_url, n_users=7)
    try:
        game_id = await start_game(h)
        await to_day(h)
        st = await to_voting(h)
        h.clock.advance(LIVE_GAP)
        voted_at = h.clock()
        before = _group_edits(h)
        for uid in [p.user_id for p in st.alive_active()][:3]:
            assert await press_action(h, h.user(uid), GROUP, "vote") == "🗳"
        assert _group_edits(h) == before + 1  # the first at once, two held
        job = f"clock:{game_id}:live:vote"
        assert h.deadlines.jobs[job][0] == voted_at + timedelta(seconds=LIVE_GAP)
        h.clock.advance(LIVE_GAP)
        await h.deadlines.fire_job(job)
        await h.app.sender.drain()
        assert _group_edits(h) == before + 2
        g = await h.game()
        assert " — 3: " in h.message(GROUP, g.ui["vote"])["text"]
    finally:
        await h.stop()


async def test_votes_pressed_together_cost_one_edit_and_the_rest_follows_the_gap(
        sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=7)
    try:
        await start_game(h)
        await to_day(h)
        st = await to_voting(h)
        h.clock.advance(LIVE_GAP)
        before = _group_edits(h)
        voters = [p.user_id for p in st.alive_active()][:4]
        for uid in voters:  # four votes within one second of game time
            assert await press_action(h, h.user(uid), GROUP, "vote") == "🗳"
        assert _group_edits(h) == before + 1  # the first shown at once, the others held
        g = await h.game()
        text = h.message(GROUP, g.ui["vote"])["text"]
        assert " — 1: " in text
        h.clock.advance(LIVE_GAP)  # the next step after the gap shows all four
        h.app.presenter.game("party").flush_live(g)
        await h.app.sender.drain()
        assert _group_edits(h) == before + 2
        assert " — 4: " in h.message(GROUP, g.ui["vote"])["text"]
        assert g.state.phase is Phase.VOTING
    finally:
        await h.stop()


async def test_BOT_X03_a_turn_costs_no_countdown_edit(sqlite_url: str):
    """A speech of any length costs its send and the one edit at its end (its final text): no
    countdown edit is armed on the deadlines' clock, and none is made while it runs."""
    h = await make_harness(sqlite_url, n_users=7)
    try:
        game_id = await start_game(h)
        st = await to_day(h)
        g = await h.game()
        turn = g.ui["turn"]
        assert st.timer is not None and st.timer.seconds >= 20
        assert [j for j in h.deadlines.jobs if j.startswith(f"clock:{game_id}:")
                and not j.startswith(f"clock:{game_id}:live:")] == []
        before = _group_edits(h)
        h.clock.advance(st.timer.seconds - 1)
        await h.app.sender.drain()
        assert _group_edits(h) == before
        await h.service.visible.settle()
        assert (await h.game()).state.speaker == st.speaker and _group_edits(h) == before
        h.clock.advance(1)
        await h.fire()  # the deadline: the turn's message gets its final text
        assert (await h.game()).state.speaker != st.speaker
        edits = [c for c in h.sent(GROUP, ("editMessageText",)) if c.message_id == turn]
        assert len(edits) == 1 and edits[0].reply_markup is None
    finally:
        await h.stop()
