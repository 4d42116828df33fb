"""bot.telegram.shared_limits.SharedLimiter: Telegram's limits held by all workers together (issue 12).

Two Senders, each with its own recording session and its own SharedLimiter on one Redis prefix,
stand for two workers. Real Redis (``TEST_REDIS_URL``); each test has its own key prefix. Rates
are small (a few calls per second) so that a test takes a few seconds, not a minute.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
import uuid

import pytest
from limits.errors import StorageError

from bot.telegram.limits import LocalLimiter, divided
from bot.telegram.sender import Sender
from bot.telegram.shared_limits import SharedLimiter, group_pace
from tests.fakes import RecordingSession, make_bot

REDIS_URL = os.environ.get("TEST_REDIS_URL")
CLOSED_PORT = "redis://127.0.0.1:1/0"  # nothing listens there: connection refused at once
GROUP = -1001000000001
ALICE = 1001
#: Redis keeps the limiter's call times, the fake session the arrival times a moment later: a
#: window this much shorter than the limiter's absorbs that lag (seconds)
LAG = 0.05

needs_redis = pytest.mark.skipif(not REDIS_URL, reason="TEST_REDIS_URL is not set")


def most_in_window(times: list[float], window: float) -> int:
    """Most of ``times`` within any half-open interval of ``window`` seconds."""
    times, best, start = sorted(times), 0, 0
    for end, at in enumerate(times):
        while at - times[start] >= window:
            start += 1
        best = max(best, end - start + 1)
    return best


@pytest.fixture
async def workers():
    """``make(**limiter_kwargs) -> (sender, session)``: one more worker on this test's prefix."""
    prefix = f"test:{uuid.uuid4().hex}:"
    made: list[tuple[Sender, SharedLimiter]] = []

    def make(url: str | None = REDIS_URL, **kwargs) -> tuple[Sender, RecordingSession]:
        assert url is not None, "TEST_REDIS_URL is not set: the test needs @needs_redis"
        session = RecordingSession()
        limiter = SharedLimiter(url, prefix=prefix, **kwargs)
        sender = Sender(make_bot(session), limiter=limiter)
        made.append((sender, limiter))
        return sender, session

    yield make
    for sender, _ in made:
        await sender.close(timeout=1.0)
    limiters = [limiter for _, limiter in made]
    if REDIS_URL:  # never FLUSHDB: other tests share the database
        cleaner = SharedLimiter(REDIS_URL, prefix=prefix)
        keys = [key async for key in cleaner.redis.scan_iter(match=f"{prefix}*")]
        if keys:
            await cleaner.redis.delete(*keys)
        limiters.append(cleaner)
    for limiter in limiters:
        await limiter.close()


@needs_redis
async def test_two_workers_share_a_groups_budget(workers) -> None:
    (first, one), (second, two) = workers(group_rate=(4, 1)), workers(group_rate=(4, 1))

    futures = [sender.send(GROUP, f"{n} {i}", merge=False)
               for i in range(5) for n, sender in (("a", first), ("b", second))]
    assert all(await asyncio.gather(*futures))

    times = [call.time for session in (one, two) for call in session.calls.calls_to("sendMessage")]
    assert len(times) == 10
    assert most_in_window(times, 1.0 - LAG) <= 4  # each alone would have sent 4 at once
    assert max(times) - min(times) >= 2.0 - LAG  # 10 calls at 4 per second: three windows


@needs_redis
async def test_two_workers_share_the_bots_budget(workers) -> None:
    (first, one), (second, two) = workers(global_rate=(5, 1)), workers(global_rate=(5, 1))

    futures = [sender.send(ALICE + i, "your role")  # one call per private chat, ten chats
               for i, sender in enumerate([first, second] * 5)]
    futures += [first.answer("press"), second.answer("press")]  # answers take global tokens
    assert all(await asyncio.gather(*futures))

    times = [call.time for session in (one, two) for call in session.calls]
    assert len(times) == 12
    assert most_in_window(times, 1.0 - LAG) <= 5
    assert max(times) - min(times) >= 2.0 - LAG


@needs_redis
async def test_a_429_makes_every_worker_wait(workers) -> None:
    (first, one), (second, two) = workers(), workers()
    one.fail("sendMessage", chat_id=GROUP, retry_after=1)

    flooded = first.send(GROUP, "refused once")
    await wait_until(lambda: one.calls)
    await wait_until_async(lambda: flood_left(second.limiter, GROUP))
    waiting, other = second.send(GROUP, "waits for the flood"), second.send(ALICE, "not flooded")
    assert (await waiting).text == "waits for the flood" and (await other).text == "not flooded"
    assert (await flooded).text == "refused once"

    refused_at = one.calls[0].time
    waited = two.calls.calls_to("sendMessage", GROUP)[0].time
    assert waited - refused_at >= 0.9
    assert two.calls.calls_to("sendMessage", ALICE)[0].time < waited  # other chats go on
    retried = one.calls.calls_to("sendMessage", GROUP)[1].time
    assert retried - refused_at >= 0.9


@needs_redis
async def test_a_429_without_a_chat_holds_the_whole_bot(workers) -> None:
    (first, one), (second, two) = workers(), workers()
    one.fail("answerCallbackQuery", retry_after=1)

    answered = first.answer("press")
    await wait_until_async(lambda: flood_left(second.limiter, None))
    assert await second.send(ALICE, "held")
    assert await answered is True

    assert two.calls[0].time - one.calls[0].time >= 0.9


async def test_redis_down_falls_back_to_local_limits_and_says_so_once(workers, caplog) -> None:
    sender, session = workers(CLOSED_PORT, workers=3, probe_every=0.0)

    with caplog.at_level(logging.INFO, logger="bot.telegram.shared_limits"):
        futures = [sender.send(GROUP, f"m{i}", merge=False) for i in range(3)]
        futures += [sender.send(ALICE, "dm"), sender.answer("press")]
        assert all(await asyncio.gather(*futures))

    assert len(session.calls) == 5
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "unreachable" in errors[0].getMessage()
    assert "127.0.0.1:1/0" in errors[0].getMessage()
    assert sender.limiter.fallback.global_rate == (10, 1.0)  # 30/s shared by 3 workers
    assert sender.limiter.down_since is not None


async def test_outage_reminders_are_rate_limited(caplog) -> None:
    limiter = SharedLimiter(CLOSED_PORT, probe_every=60.0, remind_every=0.5,
                            global_rate=(1000, 1))  # the fallback's bucket does not hold them up
    try:
        with caplog.at_level(logging.ERROR, logger="bot.telegram.shared_limits"):
            for _ in range(20):
                await limiter.acquire_global()  # 20 calls in far less than 0.5 s
            assert len(caplog.records) == 1
            await asyncio.sleep(0.55)
            await limiter.acquire_global()
            await limiter.acquire_global()
        assert len(caplog.records) == 2 and "still unreachable" in caplog.records[1].getMessage()
    finally:
        await limiter.close()


@needs_redis
async def test_redis_back_is_used_again(workers, caplog, monkeypatch) -> None:
    sender, session = workers(probe_every=0.0)
    limiter: SharedLimiter = sender.limiter
    real_hit = limiter._windows.hit

    async def refused(*args, **kwargs):
        raise StorageError(ConnectionError("Redis went away"))

    monkeypatch.setattr(limiter._windows, "hit", refused)
    with caplog.at_level(logging.WARNING, logger="bot.telegram.shared_limits"):
        assert await sender.send(ALICE, "during the outage")
        assert limiter.down_since is not None
        monkeypatch.setattr(limiter._windows, "hit", real_hit)
        assert await sender.send(GROUP, "after it")
    assert limiter.down_since is None
    assert [r.levelname for r in caplog.records] == ["ERROR", "WARNING"]
    assert "reachable again" in caplog.records[1].getMessage()
    keys = [key async for key in limiter.redis.scan_iter(match=f"{limiter.key_prefix}:*")]
    assert any(str(GROUP).encode() in key for key in keys)  # the group's window is in Redis


@needs_redis
async def test_a_retry_takes_tokens_again(workers) -> None:
    """Telegram counts the retry of a call it refused: with group (2, 1) a refused call, its retry
    and one more call cannot all go within one second."""
    sender, session = workers(group_rate=(2, 1))
    session.fail("sendMessage", chat_id=GROUP, error_code=502)
    assert await sender.send(GROUP, "retried", merge=False)
    assert await sender.send(GROUP, "next", merge=False)
    times = [call.time for call in session.calls]
    assert len(times) == 3 and times[2] - times[0] >= 1.0 - LAG


@needs_redis
async def test_a_groups_window_has_a_margin_for_the_way_to_telegram(workers) -> None:
    """group (2, 1) with the default margin of 1 s: the third call waits 2 s, not 1, so a call
    delayed between its hit and Telegram cannot share Telegram's window with two later ones."""
    sender, session = workers(group_rate=(2, 1), group_burst=1)
    futures = [sender.send(GROUP, f"m{i}", merge=False) for i in range(3)]
    assert all(await asyncio.gather(*futures))
    times = [call.time for call in session.calls]
    assert times[2] - times[0] >= 2.0 - LAG
    with pytest.raises(ValueError):
        SharedLimiter(CLOSED_PORT, group_margin=-1)


@needs_redis
async def test_a_chat_entry_is_not_recorded_before_its_call(workers) -> None:
    """Two answers use up the bot-wide second, so the group's first call waits ~1 s for a
    bot-wide token. Had its group entry been recorded before that wait, it would expire ~1 s
    before the call leaves the window, and a third call would go within 2 s of the other two
    (group rate: 2 in any 2 s)."""
    sender, session = workers(group_rate=(2, 2), global_rate=(2, 1))
    assert all(await asyncio.gather(sender.answer("1"), sender.answer("2")))
    futures = [sender.send(GROUP, f"m{i}", merge=False) for i in range(3)]
    assert all(await asyncio.gather(*futures))
    times = [call.time for call in session.calls.calls_to("sendMessage")]
    assert times[0] - session.calls[0].time >= 1.0 - LAG
    assert most_in_window(times, 2.0 - LAG) <= 2


@needs_redis
async def test_a_groups_calls_are_paced_within_its_window(workers) -> None:
    """group (4, 4) -> pace (1, 1): the four calls of the window are spread a second apart."""
    sender, session = workers(group_rate=(4, 4))
    assert sender.limiter._pace is not None
    futures = [sender.send(GROUP, f"m{i}", merge=False) for i in range(3)]
    assert all(await asyncio.gather(*futures))
    times = [call.time for call in session.calls]
    assert times[1] - times[0] >= 1.0 - LAG and times[2] - times[1] >= 1.0 - LAG


def test_rates_are_checked_and_divided() -> None:
    assert group_pace((20, 60.0)) == (5, 15.0)  # Telegram's: 5 in any 15 s besides 20 in 60 s
    assert group_pace((20, 60.0), burst=10) == (10, 30.0)
    assert group_pace((4, 1.0)) is None  # 1 per 0.25 s: Redis windows are whole seconds
    assert group_pace((1, 1.0)) is None
    with pytest.raises(ValueError):
        SharedLimiter(CLOSED_PORT, group_rate=(20, 0.5))  # Redis windows are whole seconds
    assert divided((30, 1.0), 1) == (30, 1.0)
    assert divided((30, 1.0), 4) == (7, 1.0)
    assert divided((30, 1.0), 60) == (1, 2.0)  # one call per 2 s per worker
    with pytest.raises(ValueError):
        divided((30, 1.0), 0)
    assert LocalLimiter().retries_take_tokens is True  # Telegram counts every attempt (issue 19)


# ---------------------------------------------------------------------- helpers


async def wait_until(predicate, timeout: float = 2.0) -> None:
    async def poll() -> None:
        while not predicate():
            await asyncio.sleep(0.001)

    await asyncio.wait_for(poll(), timeout)


async def wait_until_async(predicate, timeout: float = 2.0) -> None:
    deadline = time.monotonic() + timeout
    while not await predicate():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.005)


async def flood_left(limiter: SharedLimiter, chat_id: int | None) -> bool:
    """True when a flood for ``chat_id`` (None: the bot) is stored in Redis."""
    return await limiter.redis.pttl(limiter._flood_key(chat_id)) > 0


@needs_redis
async def test_a_whole_game_through_build_app_with_redis(tmp_path) -> None:
    """``build_app(redis_url=...)`` paces the whole bot through Redis (fast rates for the test)."""
    assert REDIS_URL is not None  # @needs_redis
    from tests.bot.driver import join_all, play_to_end
    from tests.bot.harness import FAST_RATES, make_harness
    from tests.bot.harness import GROUP as GAME_GROUP

    prefix = f"test:{uuid.uuid4().hex}:"
    rates = {key: value for key, value in FAST_RATES.items() if key.endswith("_rate")}
    h = await make_harness(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}", n_users=7,
                           redis_url=REDIS_URL, redis_prefix=prefix, workers=2,
                           sender_kwargs={**rates, "retry_budget": 3.0})
    limiter = h.app.sender.limiter
    try:
        assert isinstance(limiter, SharedLimiter) and limiter.fallback.global_rate == (5000, 1.0)
        game_id = await join_all(h)
        await h.command(h.users[0], "/startgame")
        await play_to_end(h, seed=7)
        record = await h.service.storage.get_game(game_id)
        assert record.status == "finished" and record.winner
        keys = [key.decode() async for key in limiter.redis.scan_iter(match=f"{prefix}*")]
        assert any(str(GAME_GROUP) in key for key in keys) and limiter.down_since is None
    finally:
        cleaner = SharedLimiter(REDIS_URL, prefix=prefix)
        keys = [key async for key in cleaner.redis.scan_iter(match=f"{prefix}*")]
        if keys:
            await cleaner.redis.delete(*keys)
        await cleaner.close()
        await h.stop()


def test_the_fallback_share_follows_the_live_workers() -> None:
    """Workers started one by one each learn how many are live from the heartbeats: without
    Redis, each keeps to its share of the bot's 30 calls per second."""
    from bot.telegram.shared_limits import SharedLimiter

    limiter = SharedLimiter("redis://127.0.0.1:1/0", workers=1)
    assert limiter.fallback.global_rate == (30, 1.0)
    limiter.set_workers(3)
    assert limiter.fallback.global_rate == (10, 1.0)
    limiter.set_workers(0)  # no heartbeat read yet: alone
    assert limiter.fallback.global_rate == (30, 1.0)
