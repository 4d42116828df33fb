"""Durability (design.md §3-4): the bot stops mid-vote and a new process on the same database
carries on in the same phase, with the votes already cast and the deadline armed again."""

from __future__ import annotations

from engine import Phase
from tests.bot.driver import play_to_end, press_action
from tests.bot.harness import GROUP, make_harness
from tests.bot.helpers import start_game, to_day, to_voting


async def test_restart_mid_vote_keeps_phase_votes_and_deadline(db_url: str):
    h = await make_harness(db_url, n_users=7)
    stopped = False
    try:
        game_id = await start_game(h)
        await to_day(h)
        st = await to_voting(h, seats=(2, 3))
        voters = [h.user(p.user_id) for p in st.alive_active()[:2]]
        for u in voters:
            assert await press_action(h, u, GROUP, "vote") == "🗳"
        before = (await h.game()).state
        assert len(before.vote.votes) == 2
        pending = h.deadlines.pending[game_id]
        assert pending[0] == before.timer.seq
        vote_message = (await h.game()).ui["vote"]
        await h.stop()
        stopped = True
    finally:
        if not stopped:
            await h.stop()

    h2 = await make_harness(db_url, n_users=7, session=h.session, clock=h.clock)
    try:
        assert h2.deadlines.pending[game_id] == pending  # re-armed from the database
        g = await h2.game()
        assert g.id == game_id and g.ui["vote"] == vote_message
        st = g.state
        assert st.phase is Phase.VOTING and st.phase_seq == before.phase_seq
        assert st.vote.votes == before.vote.votes and st.vote.index == before.vote.index
        assert st.timer == before.timer

        # A third vote on the message sent before the restart is counted with the earlier two.
        third = h2.user(next(p.user_id for p in st.alive_active() if p.user_id not in st.vote.votes))
        assert await press_action(h2, third, GROUP, "vote") == "🗳"
        st = (await h2.game()).state
        assert len(st.vote.votes) == 3
        assert f"{st.players[st.vote.current].name} — 3:" in h2.message(GROUP, vote_message)["text"]

        # The re-armed deadline closes the window; the game plays on to its end.
        await h2.fire()
        st = (await h2.game()).state
        assert st.phase_seq > before.phase_seq or st.vote.index == 1
        await play_to_end(h2, seed=5)
        assert (await h2.service.storage.get_game(game_id)).status == "finished"
    finally:
        await h2.stop()


async def test_restart_right_after_a_burst_of_messages_keeps_every_message_id(sqlite_url: str):
    """The ids of messages sent just before the stop (role cards, table) are written to the
    database before it closes, so the new process can still edit them."""
    h = await make_harness(sqlite_url, n_users=7)
    game_id = await start_game(h)
    ui = dict((await h.game()).ui)
    await h.stop()
    h2 = await make_harness(sqlite_url, n_users=7, session=h.session, clock=h.clock)
    try:
        rec = await h2.service.storage.get_game(game_id)
        assert {k: v for k, v in rec.ui.items()} == ui
        assert all(f"role:{u.id}" in rec.ui for u in h.users)
        assert {"lobby", "table", "ready"} <= set(rec.ui)
    finally:
        await h2.stop()
