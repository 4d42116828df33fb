"""bot.telegram.sender.Sender: rate limits -- the group limiter's spacing, answers outside the
lanes, Telegram's default rates, the window statistics, calls made outside the Sender."""

from __future__ import annotations

import asyncio

import pytest
from aiogram.types import Message

from bot.telegram.results import parsed
from bot.telegram.sender import GLOBAL_RATE, GROUP_RATE, PRIVATE_RATE, SenderStats, window_limiter
from tests.sender.support import ALICE, GROUP, wait_until


async def test_group_limiter_spaces_calls(session, make_sender) -> None:
    sender = make_sender(group_rate=(3, 1.0))
    futures = [sender.send(GROUP, f"m{i}", merge=False) for i in range(6)]
    dm = sender.send(ALICE, "not held up by the group budget")

    assert isinstance(parsed(await asyncio.wait_for(dm, 0.3)), Message)
    await asyncio.gather(*futures)

    times = [call.time for call in session.calls.calls_to("sendMessage", GROUP)]
    assert session.calls.texts_in(GROUP) == [f"m{i}" for i in range(6)]
    assert times[-1] - times[0] >= 0.95  # 6 calls at <= 3 per second cannot fit in one second
    assert all(sum(1 for t in times if start <= t < start + 1.0) <= 3 for start in times)
    assert sender.stats.max_calls_in_window(GROUP, 1.0) <= 3


async def test_answers_skip_chat_lanes_but_take_global_tokens(
    session, sleeper, make_sender
) -> None:
    sender = make_sender(global_rate=(2, 0.1))  # burst 1, then one every 0.1 s
    sleeper.gate = asyncio.Event()
    session.fail("sendMessage", chat_id=GROUP, retry_after=5)
    blocked = sender.send(GROUP, "paused by 429")
    await wait_until(lambda: sleeper.calls)

    results = await asyncio.gather(*(sender.answer(str(i), "ok") for i in range(3)))

    assert results == [True, True, True] and not blocked.done()
    times = [call.time for call in session.calls.calls_to("answerCallbackQuery")]
    assert times[2] - times[0] >= 0.18
    sleeper.gate.set()
    assert isinstance(parsed(await blocked), Message)


def test_default_rates_are_telegram_limits() -> None:
    assert (GROUP_RATE, PRIVATE_RATE, GLOBAL_RATE) == ((20, 60.0), (1, 1.0), (30, 1.0))
    group = window_limiter(*GROUP_RATE)
    # burst b, drain r/s: at most b + r * 60 calls in any 60 s
    assert group.max_rate + group.max_rate / group.time_period * 60.0 == pytest.approx(20)
    private = window_limiter(*PRIVATE_RATE)
    assert (private.max_rate, private.time_period) == (1, 1.0)
    with pytest.raises(ValueError):
        window_limiter(0, 1.0)
    with pytest.raises(ValueError):
        window_limiter(5, 1.0, burst=5)


def test_max_calls_in_window() -> None:
    stats = SenderStats()
    for at in (0.0, 0.5, 1.0, 1.2, 1.4, 5.0):
        stats.record("sendMessage", GROUP, at)
    assert stats.max_calls_in_window(GROUP, 1.0) == 4  # 0.5, 1.0, 1.2, 1.4
    assert stats.max_calls_in_window(GROUP, 0.5) == 3  # 1.0, 1.2, 1.4
    assert stats.max_calls_in_window(ALICE, 1.0) == 0
    assert stats.calls["sendMessage"] == 6


async def test_calls_made_outside_the_sender_take_its_tokens(session, make_sender) -> None:
    """A handler's own reply (not through the Sender) counts against Telegram's limits like the
    Sender's calls (issue 12: every worker together within 30 calls/s); reads and press answers
    send no message and take none."""

    class Counting:
        retries_take_tokens = False

        def __init__(self) -> None:
            self.chats: list[int] = []
            self.globals = 0

        async def acquire(self, chat_id: int) -> None:
            self.chats.append(chat_id)

        async def acquire_global(self) -> None:
            self.globals += 1

        async def flood(self, chat_id, retry_after) -> None:
            pass

        def release(self, chat_id: int) -> None:
            pass

        async def close(self) -> None:
            pass

    limiter = Counting()
    sender = make_sender(limiter=limiter)
    await sender.bot.send_message(GROUP, "a handler's reply")
    await sender.bot.get_me()
    await sender.bot.answer_callback_query("17", text="ok")
    assert limiter.chats == [GROUP] and limiter.globals == 0
    await sender.send(ALICE, "through the Sender")
    assert limiter.chats == [GROUP, ALICE]  # once: the Sender's own call is not paced twice
