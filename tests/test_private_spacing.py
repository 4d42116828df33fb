"""bot.telegram.spacing (issue 19): a private chat's calls one at a time, each ``gap`` seconds
after the previous one ended; groups, reads and answers are not spaced. A fake clock: no wall
time is measured."""

from __future__ import annotations

import asyncio

import pytest

from bot.telegram.spacing import PrivateSpacing


class FakeTime:
    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def spacing(t: FakeTime, gap: float = 1.0) -> PrivateSpacing:
    return PrivateSpacing(gap, clock=t.clock, sleep=t.sleep)


async def call(s: PrivateSpacing, t: FakeTime, chat: int, lasts: float, log: list,
               method: str = "sendMessage") -> None:
    async with s.turn(method, chat):
        log.append(("start", chat, t.now))
        await asyncio.sleep(0)  # another call may try meanwhile
        t.now += lasts  # the request reaches Telegram and its answer comes back
        log.append(("end", chat, t.now))


async def test_the_next_call_starts_a_gap_after_the_previous_one_ended() -> None:
    t, log = FakeTime(), list[tuple[str, int, float]]()
    s = spacing(t)
    await call(s, t, 42, 0.6, log)  # a slow call: ended at 0.6
    await call(s, t, 42, 0.0, log)
    assert log == [("start", 42, 0.0), ("end", 42, 0.6), ("start", 42, 1.6), ("end", 42, 1.6)]


async def test_calls_to_one_private_chat_go_one_at_a_time() -> None:
    t, log = FakeTime(), list[tuple[str, int, float]]()
    s = spacing(t)
    await asyncio.gather(call(s, t, 42, 0.2, log), call(s, t, 42, 0.2, log),
                         call(s, t, 7, 0.2, log))
    mine = [(kind, at) for kind, chat, at in log if chat == 42]
    assert [kind for kind, _at in mine] == ["start", "end", "start", "end"]
    assert mine[2][1] == pytest.approx(mine[1][1] + 1.0)  # the second a gap after the first
    assert [at for kind, chat, at in log if chat == 7] == [0.0, 0.4]  # another chat: at once


async def test_groups_reads_and_answers_are_not_spaced() -> None:
    t, log = FakeTime(), list[tuple[str, int, float]]()
    s = spacing(t)
    for _ in range(3):
        await call(s, t, -100123, 0.1, log)
        await call(s, t, 42, 0.1, log, method="getChatMember")
        await call(s, t, 42, 0.1, log, method="answerCallbackQuery")
    assert t.slept == []


async def test_a_call_cancelled_while_it_waits_does_not_count() -> None:
    t = FakeTime()
    gate = asyncio.Event()

    async def forever(seconds: float) -> None:
        await gate.wait()

    s = PrivateSpacing(1.0, clock=t.clock, sleep=forever)
    await call(s, t, 42, 0.0, [])
    waiting = asyncio.ensure_future(call(s, t, 42, 0.0, []))
    await asyncio.sleep(0)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert s._busy == {} and s._ended == {42: 0.0}


def test_a_negative_gap_is_refused() -> None:
    with pytest.raises(ValueError):
        PrivateSpacing(-1.0)
