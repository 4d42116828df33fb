"""BOT-X01 (docs/rules/README.md): a phase's clock starts when its message has left, not when
the command that opened it was stored — a vote window whose message waited in a busy group's
queue is not lost (bot/services/visible_clock.py)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from bot.services.visible_clock import HOLD_MAX
from engine import Phase
from tests.bot.driver import press_action
from tests.bot.harness import GROUP, Harness
from tests.bot.helpers import end_speech, nominate, start_game, to_day


async def _open_vote_while_the_group_waits(h: Harness, waited: float) -> tuple:
    """Day 1 up to the last defence, then its end opens the vote while every call to the group
    takes 0.3 s, during which ``waited`` seconds pass on the service's clock. Returns
    ``(game_id, timer_seq, deadline planned when the vote was stored)``."""
    game_id = await start_game(h)
    st = await to_day(h)
    for seat in (2, 3):
        await nominate(h, seat)
        st = await end_speech(h)
    while st.phase is Phase.SPEECH or (st.phase is Phase.DEFENCE and st.queue):
        st = await end_speech(h)
    assert st.phase is Phase.DEFENCE
    h.session.set_latency(GROUP, 0.3)
    planned_from = h.clock()

    async def time_passes() -> None:
        await asyncio.sleep(0.1)
        h.clock.advance(waited)

    clock = asyncio.create_task(time_passes())
    assert st.speaker is not None
    assert await press_action(h, h.user(st.speaker), GROUP, "end") == "⏹"
    await clock
    await h.service.visible.settle()
    st = (await h.game()).state
    assert st.phase is Phase.VOTING
    return game_id, st.timer.seq, planned_from + timedelta(seconds=st.timer.seconds)


@pytest.mark.parametrize("waited, moved", [(8.0, 8.0), (600.0, HOLD_MAX), (0.5, 0.0)])
async def test_BOT_X01_the_vote_window_starts_when_its_message_left(
        h: Harness, waited: float, moved: float) -> None:
    """The vote's message waited ``waited`` s: its window ends that much later (at most
    HOLD_MAX s later; under a second, the deadline stays), armed and stored."""
    game_id, seq, planned = await _open_vote_while_the_group_waits(h, waited)
    expected = planned + timedelta(seconds=moved)
    assert h.deadlines.pending[game_id] == (seq, expected)
    record = await h.service.storage.get_game(game_id)
    assert (record.timer_seq, record.deadline_at) == (seq, expected)



async def test_BOT_X01_a_deadline_that_comes_before_its_message_left_does_not_fire(h: Harness):
    """Issue 20: the group is 35 s behind and the 15-s window's deadline comes while the vote's
    message is still queued: it does not fire; the window ends 35 s later than planned, a full
    window after the message is visible."""
    game_id = await start_game(h)
    st = await to_day(h)
    for seat in (2, 3):
        await nominate(h, seat)
        st = await end_speech(h)
    while st.phase is Phase.SPEECH or (st.phase is Phase.DEFENCE and st.queue):
        st = await end_speech(h)
    h.session.set_latency(GROUP, 0.3)
    planned_from = h.clock()
    fired: list[tuple[int, int]] = []

    async def the_deadline_comes() -> None:
        while (await h.game()).state.phase is not Phase.VOTING:
            await asyncio.sleep(0.01)
        window = (await h.game()).state.timer.seq
        h.clock.advance(35.0)
        await h.deadlines.fire_now(game_id)  # the 15-s window's deadline, message still queued
        fired.append((window, (await h.game()).state.timer.seq))

    task = asyncio.create_task(the_deadline_comes())
    assert st.speaker is not None
    assert await press_action(h, h.user(st.speaker), GROUP, "end") == "⏹"
    await task
    await h.service.visible.settle()
    st = (await h.game()).state
    (window, after), = fired
    assert after == window and st.phase is Phase.VOTING and st.timer.seq == window
    seq, at = h.deadlines.pending[game_id]
    assert seq == window
    assert at == planned_from + timedelta(seconds=st.timer.seconds + 35.0)
