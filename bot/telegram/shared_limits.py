"""Telegram's limits shared by every worker through Redis (issue 12, "Telegram limits shared").

:class:`SharedLimiter` is the :class:`bot.telegram.limits.Limiter` of a bot run as many workers:
the buckets live in Redis, so all workers together make at most 20 calls per group in any 60 s,
1 per private chat in any second and 30 per bot in any second (the rates are constructor
arguments, ``(max_calls, window_seconds)`` with a whole number of seconds).

Strategy: the ``limits`` library's :class:`~limits.aio.strategies.MovingWindowRateLimiter` with
its Redis storage (redis-py's asyncio client). A moving window keeps the time of each of the last
``max_calls`` calls and admits a call only when the oldest of them is more than ``window`` seconds
old: that is exactly "at most N in any window", which Telegram counts. The fixed window admits 2N
around a window's edge, and the sliding window *counter* only approximates the previous window's
calls by weight, so neither guarantees it. The calls' times are the workers' wall clocks
(``time.time()``) at the hit: workers on different hosts need NTP, and the few milliseconds
between a hit and the request's arrival at Telegram are covered by a margin: the group's window
is ``group_margin`` seconds longer than Telegram's (20 in any 61 s by default), since a call
delayed after its hit (a busy event loop, a slow connection) and the 21st call hit just as the
first left the window would otherwise both reach Telegram within its 60 s. A group also has a
*pace* window, the local bucket's burst (:func:`group_pace`:
at most 5 calls in any 15 s besides 20 in any 60 s), so that its calls are spread over the
minute as in one process.

Acquire: wait until no flood is stored for the chat or the bot and the chat's windows have room
(``get_window_stats()``: ``remaining``, and ``reset_time``, the oldest call's time + ``window``),
take a bot-wide token (``hit()``, waiting for the reset when refused), then ``hit()`` the chat's
windows (if another worker took the room meanwhile, again from the start). So no entry is
recorded before its call may go. A 429's ``retry_after`` is stored as a key with
``PX = retry_after`` (one per chat, one for the whole bot when the refused call had no chat);
every worker's acquisition waits for those keys to expire. A retry of a failed call takes tokens
again (``retries_take_tokens``): Telegram counts it.

Keys, under ``prefix + "limits"`` (e.g. ``mafia:limits``): the ``limits`` library's moving
windows (lists of call times) ``<p>:group/<chat>/20/61/second``, ``<p>:pace/<chat>/5/15/second``,
``<p>:private/<chat>/1/1/second``, ``<p>:global/bot/30/1/second``, and the floods
``<p>:flood:<chat>``, ``<p>:flood:bot``.

Redis emptied (restarted without its data, flushed): the windows are gone, but a group's calls
also take a token of the worker's local bucket (:class:`bot.telegram.limits.LocalLimiter`, the
same rate and margin), which still holds the group's last minute for the worker that owns it.
(That bucket starts empty: after a worker's restart Redis holds the minute.)

Redis down (a connection error, or no answer within ``timeout`` seconds): one ERROR line, then a
reminder at most every ``remind_every`` seconds, and the calls go on through an in-memory
:class:`bot.telegram.limits.LocalLimiter` whose global rate is divided by ``workers``, so the
workers together stay within 30/s without Redis (per-chat rates stay whole: a chat's messages
come from the one worker owning its shard). Redis is tried again at most every ``probe_every``
seconds, by one acquisition at a time; when it answers, a WARNING says so and the shared windows
are used again.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from limits import RateLimitItem, RateLimitItemPerSecond
from limits.aio.storage import RedisStorage
from limits.aio.strategies import MovingWindowRateLimiter
from limits.errors import StorageError
from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from bot.config import parse_sentinel_url
from bot.storage.redis import redis_client
from bot.telegram.limits import (
    GLOBAL_RATE,
    GROUP_RATE,
    PRIVATE_RATE,
    LocalLimiter,
    Rate,
    divided,
    window_limiter,
)

logger = logging.getLogger(__name__)

#: what a Redis outage looks like from here
REDIS_DOWN = (StorageError, RedisError, OSError, TimeoutError)
#: shortest wait before hitting a refused window again, seconds (another worker won the race)
MIN_WAIT = 0.01
BOT_KEY = "bot"


def _item(rate: Rate, namespace: str) -> RateLimitItem:
    max_calls, window = rate
    if max_calls < 1 or window < 1 or window != int(window):
        raise ValueError(f"{namespace} rate needs max_calls >= 1 and a whole window >= 1 s: {rate}")
    return RateLimitItemPerSecond(max_calls, int(window), namespace=namespace)


def group_pace(rate: Rate, burst: int | None = None) -> Rate | None:
    """The local bucket's burst as a second moving window of a group: ``burst`` calls (default a
    quarter of ``max_calls``, as :func:`bot.telegram.limits.window_limiter`) in any
    ``burst * window / max_calls`` seconds, e.g. 5 in any 15 s for 20 per 60 s, so that a group's
    calls are spread over its minute instead of 20 at once and then none for 60 s. ``None`` when
    that period is not a whole number of seconds (Redis windows are) or the rate has no burst."""
    max_calls, window = rate
    burst = max(1, max_calls // 4) if burst is None else burst
    if max_calls < 2 or not 1 <= burst < max_calls:
        return None
    period = burst * window / max_calls
    return (burst, period) if period >= 1 and period == int(period) else None


class SharedLimiter:
    """The Redis-backed :class:`bot.telegram.limits.Limiter` (see the module docstring).

    ``redis_url``: ``redis://[:password@]host:port/db``; ``prefix``: the deployment's
    ``REDIS_PREFIX`` (keys go under ``prefix + "limits"``); ``workers``: how many workers share
    the bot, all processes counted (divides the global rate of the fallback); rates
    ``(max_calls, window_seconds)``, whole seconds, else ``ValueError``; ``group_margin``: whole
    seconds added to the group's window in Redis (the module docstring); ``group_burst`` sets the
    group's pace (:func:`group_pace`) and the fallback's burst. ``timeout``: seconds one Redis
    command may take before Redis counts as down; ``probe_every``, ``remind_every``: seconds.
    ``sleep`` is injectable for tests (waits for windows and floods; seconds).
    """

    retries_take_tokens = True

    def __init__(
        self,
        redis_url: str,
        *,
        prefix: str = "mafia:",
        workers: int = 1,
        group_rate: Rate = GROUP_RATE,
        private_rate: Rate = PRIVATE_RATE,
        global_rate: Rate = GLOBAL_RATE,
        group_burst: int | None = None,
        group_margin: int = 1,
        timeout: float = 1.0,
        probe_every: float = 2.0,
        remind_every: float = 60.0,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        if group_margin < 0 or group_margin != int(group_margin):
            raise ValueError(f"group_margin needs whole seconds >= 0: {group_margin}")
        self._group = _item((group_rate[0], group_rate[1] + group_margin), "group")
        self._private = _item(private_rate, "private")
        self._global = _item(global_rate, "global")
        pace = group_pace(group_rate, group_burst)
        self._pace = None if pace is None else _item(pace, "pace")
        self._global_rate = global_rate
        self.fallback = LocalLimiter(group_rate, private_rate, divided(global_rate, workers),
                                     group_burst, group_margin / group_rate[1], restarted=False)
        sentinel = parse_sentinel_url(redis_url)  # issue 19: Redis through Sentinel
        self.redis = Redis.from_url(redis_url, socket_connect_timeout=timeout,
                                    socket_timeout=timeout, retry=Retry(NoBackoff(), 0)) \
            if sentinel is None else redis_client(
                redis_url, decode_responses=False, socket_connect_timeout=timeout,
                socket_timeout=timeout, retry=Retry(NoBackoff(), 0), health_check_interval=0)
        self.key_prefix = f"{prefix}limits"
        storage = RedisStorage("redis://" if sentinel else redis_url, wrap_exceptions=True,
                               implementation="redispy",
                               key_prefix=self.key_prefix,
                               connection_pool=self.redis.connection_pool)  # type: ignore[arg-type]  # limits types **options as float | str | bool, but hands them to redis-py, whose pool this is
        self._windows = MovingWindowRateLimiter(storage)
        self.workers, self.probe_every, self.remind_every = workers, probe_every, remind_every
        self._sleep = sleep
        #: monotonic time Redis was found down (None: it is up), next probe, next reminder
        self.down_since: float | None = None
        self._next_probe = self._next_reminder = 0.0
        self._probing = False
        self._bot_turn = asyncio.Lock()
        self.local_calls = 0  # acquisitions served by the fallback during the current outage

    def set_workers(self, workers: int) -> None:
        """``workers`` workers are live now (their heartbeats, bot/cluster/leases.py): the
        fallback's share of the bot's global rate follows (processes started one by one by a
        process manager each know only of themselves at start)."""
        workers = max(1, workers)
        if workers != self.workers:
            self.workers = workers
            self.fallback.global_rate = divided(self._global_rate, workers)
            self.fallback._global = window_limiter(*self.fallback.global_rate)

    # ------------------------------------------------------------------ Limiter

    async def acquire(self, chat_id: int) -> None:
        if chat_id >= 0:
            if not await self._shared(self._acquire_chat, chat_id):
                await self.fallback.acquire(chat_id)
            return
        # A group's calls take the local bucket too: a group's messages come from the one worker
        # owning its shard, so the bucket remembers the group's minute if Redis forgets it
        # (restarted empty, flushed), as if this worker had restarted (issue 19).
        await self.fallback.acquire_chat(chat_id)
        if not await self._shared(self._acquire_chat, chat_id):
            await self.fallback.acquire_global()

    async def acquire_global(self) -> None:
        if not await self._shared(self._acquire_bot):
            await self.fallback.acquire_global()

    async def flood(self, chat_id: int | None, retry_after: float) -> None:
        """Store the flood for every worker: ``SET NX PX``, or a longer ``PEXPIRE GT`` of a
        flood already stored. Without Redis nothing more is done (the lane waits in its retry)."""
        key = self._flood_key(chat_id)
        ms = max(1, int(retry_after * 1000))
        try:
            async with self.redis.pipeline(transaction=True) as pipe:
                pipe.set(key, "1", px=ms, nx=True)
                pipe.pexpire(key, ms, gt=True)
                await pipe.execute()
        except REDIS_DOWN as error:
            self._went_down(error)
            return
        logger.info("flood control for %s: every worker waits %.1f s",
                    "the bot" if chat_id is None else f"chat {chat_id}", retry_after)

    def release(self, chat_id: int) -> None:
        self.fallback.release(chat_id)

    async def close(self) -> None:
        await self.redis.aclose()

    # ------------------------------------------------------------------ Redis

    async def _acquire_chat(self, chat_id: int) -> None:
        """Room in the chat's windows (no entry yet), then a bot-wide token, then the chat's
        entries. A window's entry is never recorded earlier than its call goes: a chat entry
        taken before a wait for the bot-wide window (or a bot-wide flood) would be, and its early
        expiry could let a 21st call into some 60 s."""
        windows = self._chat_windows(chat_id)
        floods = (self._flood_key(chat_id), self._flood_key(None))
        while True:
            await self._wait_for_room(windows, floods)
            await self._acquire_bot()
            if all([await self._windows.hit(item, key) for item, key in windows]):
                return
            # Another worker took the room meanwhile. The bot-wide token (and a pace entry) goes
            # unused: that makes fewer calls possible, never more.

    def _chat_windows(self, chat_id: int) -> list[tuple[RateLimitItem, str]]:
        """The moving windows a call to ``chat_id`` must fit: the pace first, then the limit."""
        if chat_id > 0:
            return [(self._private, str(chat_id))]
        if self._pace is None:
            return [(self._group, str(chat_id))]
        return [(self._pace, str(chat_id)), (self._group, str(chat_id))]

    async def _wait_for_room(self, windows: list[tuple[RateLimitItem, str]],
                             floods: tuple[str, ...]) -> None:
        """Wait until no flood is stored under ``floods`` and every window has room."""
        while True:
            wait = await self._flood_wait(floods)
            for item, key in windows:
                stats = await self._windows.get_window_stats(item, key)
                if stats.remaining < 1:
                    wait = max(wait, stats.reset_time - time.time(), MIN_WAIT)
            if wait <= 0:
                return
            await self._sleep(wait)

    async def _acquire_bot(self) -> None:
        # One lane of this worker at a time asks Redis for a bot-wide token (FIFO): hundreds of
        # waiting lanes would otherwise all poll the window each time it moves.
        async with self._bot_turn:
            await self._take(self._global, BOT_KEY, (self._flood_key(None),))

    async def _take(self, item: RateLimitItem, identifier: str, floods: tuple[str, ...]) -> None:
        """Wait out the floods, then hit ``item``'s moving window until it admits the call."""
        while True:
            if (wait := await self._flood_wait(floods)) > 0:
                await self._sleep(wait)
                continue
            if await self._windows.hit(item, identifier):
                return
            stats = await self._windows.get_window_stats(item, identifier)
            await self._sleep(max(stats.reset_time - time.time(), MIN_WAIT))

    async def _flood_wait(self, keys: tuple[str, ...]) -> float:
        """Seconds until the longest of the flood ``keys`` expires (0: none is set)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.pttl(key)
            ttls = await pipe.execute()
        return max(0, *ttls) / 1000

    def _flood_key(self, chat_id: int | None) -> str:
        return f"{self.key_prefix}:flood:{BOT_KEY if chat_id is None else chat_id}"

    # ------------------------------------------------------------------ outages

    async def _shared(self, take: Callable[..., Awaitable[None]], *args: Any) -> bool:
        """Run ``take`` on Redis; False (after logging) when Redis is down or a probe is due
        but another acquisition is probing: the caller then uses the fallback."""
        if self.down_since is not None:
            now = time.monotonic()
            if self._probing or now < self._next_probe:
                self._remind(now)
                return False
            self._probing = True
        try:
            await take(*args)
        except REDIS_DOWN as error:
            self._went_down(error)
            return False
        finally:
            self._probing = False
        self._bot_turn = asyncio.Lock()
        if self.down_since is not None:
            logger.warning("Redis at %s is reachable again after %.0f s: Telegram limits are "
                           "shared by all workers again", self._where(),
                           time.monotonic() - self.down_since)
            self.down_since = None
        return True

    def _went_down(self, error: BaseException) -> None:
        now = time.monotonic()
        self._next_probe = now + self.probe_every
        if self.down_since is None:
            self.down_since, self._next_reminder, self.local_calls = now, now + self.remind_every, 0
            global_calls, window = self.fallback.global_rate
            logger.error("Redis at %s is unreachable (%s): Telegram limits are kept by each "
                         "worker alone until it is back (bot-wide %d calls per %g s per worker, "
                         "%d workers)", self._where(), _describe(error), global_calls, window,
                         self.workers)

    def _remind(self, now: float) -> None:
        self.local_calls += 1
        if self.down_since is not None and now >= self._next_reminder:
            self._next_reminder = now + self.remind_every
            logger.error("Redis at %s still unreachable after %.0f s: %d calls limited by this "
                         "worker alone", self._where(), now - self.down_since, self.local_calls)

    def _where(self) -> str:
        """host:port/db of the Redis server (never the password)."""
        kwargs = self.redis.connection_pool.connection_kwargs
        if "path" in kwargs:
            return f"unix:{kwargs['path']}"
        return f"{kwargs.get('host')}:{kwargs.get('port')}/{kwargs.get('db', 0)}"


def _describe(error: BaseException) -> str:
    cause = error.storage_error if isinstance(error, StorageError) else error
    text = str(cause).splitlines()[0] if str(cause) else ""
    return f"{type(cause).__name__}: {text}"
