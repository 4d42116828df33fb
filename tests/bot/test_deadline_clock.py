"""BOT-X03 (docs/rules/README.md; catalogue §7, "End speech button next to the timer"): a timed
message shows its deadline as clock time -- a ``date_time`` entity each client renders in its
viewer's time zone -- and is edited once when the deadline moves on by 2 s or more (BOT-X01),
once after a resume and when the turn ends (its final text, without buttons); never otherwise:
no countdown edit (bot/games/mafia/clock.py).

The sent HTML is parsed by the stand-in Bot API's parser (tests/e2e/markup.py), which builds
the entities Telegram would."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from aiogram.methods import EditMessageMedia, SendPhoto

from bot.ui.deadline_text import clock_time
from engine import Phase
from tests.bot import noir_driver as nd
from tests.bot.driver import press_action
from tests.bot.harness import GROUP, Harness, make_harness, request_of, text_of
from tests.bot.helpers import end_speech, start_game, to_day
from tests.bot.online_support import night_1, start_online, tap
from tests.e2e.markup import parse_html
from tests.fakes.telegram import plain_text


def _turn_calls(h: Harness, message_id: int) -> list:
    """Every successful send or edit of the turn message, in order."""
    sends = [c for c in h.sent(GROUP, ("sendMessage",))
             if c.result is not None and getattr(c.result, "message_id", None) == message_id]
    edits = [c for c in h.sent(GROUP, ("editMessageText",)) if c.message_id == message_id]
    return sorted(sends + edits, key=lambda c: h.session.calls.index(c))


def _ends(html: str) -> list[tuple[int, str | None, str]]:
    """The ``date_time`` entities of ``html``: (unix time, format, the fallback text)."""
    text, entities = parse_html(html)
    utf16 = text.encode("utf-16-le")
    return [(e["unix_time"], e.get("date_time_format"),
             utf16[2 * e["offset"]:2 * (e["offset"] + e["length"])].decode("utf-16-le"))
            for e in entities if e["type"] == "date_time"]


def _unix(at: datetime) -> int:
    return int(at.timestamp())


def _clock_jobs(h: Harness, game_id: int) -> list[str]:
    """The game's jobs on the deadlines' clock other than the held live edits (which edit the
    vote, the ready gate and the lobby, never the turn): a countdown edit would be one."""
    return [j for j in h.deadlines.jobs
            if j.startswith(f"clock:{game_id}:") and not j.startswith(f"clock:{game_id}:live:")]


async def _no_countdown_until_the_end(h: Harness, game_id: int, turn: int) -> None:
    """Time runs to 1 s before the turn's end, every job then due on the deadlines' clock is
    fired: the turn message is not edited, and nothing says how many seconds are left."""
    g = await h.game()
    assert _clock_jobs(h, game_id) == []
    shown = len(_turn_calls(h, turn))
    h.clock.advance((g.deadline - h.clock()).total_seconds() - 1)
    for job, (at, _f, _a) in list(h.deadlines.jobs.items()):
        if job.startswith(f"clock:{game_id}:") and at <= h.clock():
            await h.deadlines.fire_job(job)
    await h.service.visible.settle()
    await h.app.sender.drain()
    assert len(_turn_calls(h, turn)) == shown
    assert not any(" s left" in (c.text or "") for c in h.sent(GROUP, ("editMessageText",)))


def _final_edit(h: Harness, turn: int) -> None:
    """The turn's last call is the edit to its final text, without buttons (its one edit at the
    turn's end) -- no clock time, no countdown."""
    last = _turn_calls(h, turn)[-1]
    assert last.method == "editMessageText" and last.reply_markup is None
    assert _ends(last.text) == [] and " s left" not in last.text


def test_BOT_X03_the_clock_time_is_a_date_time_entity_with_a_utc_fallback():
    at = datetime(2026, 1, 1, 21, 4, 30, 700_000, tzinfo=UTC)
    html = clock_time(at)
    assert html == f'<tg-time unix="{_unix(at)}" format="T">21:04:30 UTC</tg-time>'
    assert _ends(html) == [(_unix(at), "T", "21:04:30 UTC")]


async def test_BOT_X03_the_turn_message_shows_its_deadline_and_no_countdown_edit(h: Harness):
    game_id = await start_game(h)
    st = await to_day(h)
    g = await h.game()
    turn = g.ui["turn"]
    [sent] = _turn_calls(h, turn)
    end = g.deadline
    assert st.timer is not None and st.speaker is not None
    assert end == h.clock() + timedelta(seconds=st.timer.seconds)
    assert _ends(sent.text) == [(_unix(end), "T", end.strftime("%H:%M:%S UTC"))]
    assert f"— {st.timer.seconds} s. Until {end:%H:%M:%S} UTC.\n" in plain_text(text_of(sent))
    # no countdown edit: nothing armed for it, nothing edited up to the end
    await _no_countdown_until_the_end(h, game_id, turn)
    # the turn ends: its message gets its final text, without buttons (the one edit)
    await end_speech(h)
    await h.app.sender.drain()
    assert len(_turn_calls(h, turn)) == 2
    _final_edit(h, turn)
    # the next speaker's turn shows its own deadline
    g = await h.game()
    [sent] = _turn_calls(h, g.ui["turn"])
    assert _ends(sent.text) == [(_unix(g.deadline), "T", g.deadline.strftime("%H:%M:%S UTC"))]


async def _next_turn_while_the_group_waits(h: Harness, waited: float) -> tuple:
    """Day 1: speaker 1 ends his speech while every call to the group takes 0.3 s, during
    which ``waited`` seconds pass on the service's clock (BOT-X01 moves the deadline on).
    Returns (the live game, the deadline planned when the turn was stored)."""
    await start_game(h)
    st = await to_day(h)
    h.session.set_latency(GROUP, 0.3)
    assert st.timer is not None and st.speaker is not None
    planned = h.clock() + timedelta(seconds=st.timer.seconds)

    async def time_passes() -> None:
        await asyncio.sleep(0.1)
        h.clock.advance(waited)

    clock = asyncio.create_task(time_passes())
    assert await press_action(h, h.user(st.speaker), GROUP, "end") == "⏹"
    await clock
    await h.service.visible.settle()
    await h.app.sender.drain()
    g = await h.game()
    assert g.state.phase is Phase.SPEECH
    return g, planned


@pytest.mark.parametrize("waited, edits", [(8.0, 1), (1.5, 0)])
async def test_BOT_X03_a_moved_deadline_is_shown_once(h: Harness, waited: float, edits: int):
    """BOT-X01 moves the turn's deadline by ``waited`` s: 2 s or more, the turn message is
    edited once to its new end; less, it is left as it is. No countdown edit either way."""
    g, planned = await _next_turn_while_the_group_waits(h, waited)
    assert g.deadline == planned + timedelta(seconds=waited)  # BOT-X01 moved it
    calls = _turn_calls(h, g.ui["turn"])
    assert _ends(calls[0].text)[0][0] == _unix(planned)
    assert len(calls) == 1 + edits
    if edits:
        assert _ends(calls[-1].text)[0][0] == _unix(g.deadline)
    await h.service.visible.settle()  # nothing more
    assert len(_turn_calls(h, g.ui["turn"])) == 1 + edits
    await _no_countdown_until_the_end(h, g.id, g.ui["turn"])


async def test_BOT_X03_a_resume_shows_the_new_end(h: Harness):
    game_id = await start_game(h)
    await to_day(h)
    g = await h.game()
    turn, speaker = g.ui["turn"], g.state.speaker
    other = next(u for u in h.users if u.id != speaker)
    h.clock.advance(20)
    await h.command(other, "/pause")
    assert len(_turn_calls(h, turn)) == 1  # a pause leaves the turn message as it is
    h.clock.advance(300)
    await h.command(other, "/resume")
    g = await h.game()
    assert g.state.speaker == speaker and g.deadline == h.clock() + timedelta(seconds=40)
    calls = _turn_calls(h, turn)
    assert len(calls) == 2
    assert _ends(calls[-1].text)[0][0] == _unix(g.deadline)
    await _no_countdown_until_the_end(h, game_id, turn)


async def test_BOT_X03_a_resume_with_little_time_left_edits_once_then_only_at_the_end(h: Harness):
    """Paused 45 s into a 60-s speech, resumed with 15 s left: the turn message shows the new
    end once; no countdown edit follows, and the deadline closes it with its final text."""
    game_id = await start_game(h)
    await to_day(h)
    g = await h.game()
    turn, speaker = g.ui["turn"], g.state.speaker
    other = next(u for u in h.users if u.id != speaker)
    h.clock.advance(45)
    await h.command(other, "/pause")
    h.clock.advance(5)
    await h.command(other, "/resume")
    g = await h.game()
    end = g.deadline
    assert end == h.clock() + timedelta(seconds=15)
    calls = _turn_calls(h, turn)
    assert len(calls) == 2 and _ends(calls[-1].text)[0][0] == _unix(end)
    await _no_countdown_until_the_end(h, game_id, turn)
    h.clock.advance(1)
    await h.fire()  # the deadline: the next turn
    assert (await h.game()).state.speaker != speaker
    assert len(_turn_calls(h, turn)) == 3
    _final_edit(h, turn)


async def test_BOT_X03_a_restart_arms_no_countdown_edit(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=7)
    await start_game(h)
    await to_day(h)
    g = await h.game()
    turn, end, game_id = g.ui["turn"], g.deadline, g.id
    h.clock.advance(15)
    await h.stop()
    h2 = await make_harness(sqlite_url, n_users=7, session=h.session, clock=h.clock)
    try:
        g = await h2.game()
        assert g.deadline == end and g.ui["turn"] == turn
        await _no_countdown_until_the_end(h2, game_id, turn)
        assert len(_turn_calls(h2, turn)) == 1  # the message still shows its end
        await end_speech(h2)
        await h2.app.sender.drain()
        _final_edit(h2, turn)
    finally:
        await h2.stop()


async def test_BOT_X03_noir_a_moved_turn_deadline_is_shown_once(h: Harness):
    """NOIR: the board's caption and the player's menu show the turn's end as clock time; when
    BOT-X01 moves it on (the board waited in the group's queue), both show the new end."""
    gid = await nd.open_lobby(h, 6)
    h.session.set_latency(GROUP, 0.3)

    async def time_passes() -> None:
        await asyncio.sleep(0.1)
        h.clock.advance(8)

    clock = asyncio.create_task(time_passes())
    await nd.press_start(h)
    await clock
    await h.service.visible.settle()
    await h.app.sender.drain()
    g = await h.service.live(gid)
    end = g.deadline
    boards = h.sent(GROUP, ("sendPhoto", "editMessageMedia"))
    assert len(boards) == 2  # the board, then once its new end
    first = request_of(boards[0], SendPhoto).caption
    last = request_of(boards[-1], EditMessageMedia).media.caption
    assert first is not None and last is not None
    assert _ends(last) == [(_unix(end), "T", end.strftime("%H:%M:%S UTC"))]
    assert _ends(first)[0][0] == _unix(end - timedelta(seconds=8))
    menu = h.messages(g.state.current)[-1]
    assert f"Until {end:%H:%M:%S} UTC" in menu["text"]


async def test_BOT_X03_the_online_ballot_keeps_its_end_through_its_live_edits(sqlite_url: str):
    """The online preset's ballot (its own timed message) shows its end as clock time, also
    after a tap's live edit, and a resume shows the new end."""
    h = await make_harness(sqlite_url, n_users=6)
    try:
        await start_online(h)
        st = await night_1(h)
        g = await h.game()
        ballot, end = g.ui["ballot"], g.deadline
        [sent] = _turn_calls(h, ballot)
        assert st.timer is not None
        assert f"⏱ {st.timer.seconds} s. Until {end:%H:%M:%S} UTC." in plain_text(text_of(sent))
        assert _ends(sent.text) == [(_unix(end), "T", end.strftime("%H:%M:%S UTC"))]
        voter = st.seated()[0].user_id
        await tap(h, voter, st.seated()[1].user_id)
        calls = _turn_calls(h, ballot)
        assert len(calls) == 2 and _ends(calls[-1].text)[0][0] == _unix(end)
        h.clock.advance(20)
        await h.command(h.user(voter), "/pause")
        h.clock.advance(100)
        await h.command(h.user(voter), "/resume")
        g = await h.game()
        assert g.deadline == end + timedelta(seconds=100)
        calls = _turn_calls(h, ballot)
        assert _ends(calls[-1].text)[0][0] == _unix(g.deadline)
    finally:
        await h.stop()
