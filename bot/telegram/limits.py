"""Telegram's sending limits, and the small tools that honour and measure them.

Facts (Bot FAQ, Telegram staff): about 20 messages per minute per group (edits share the budget),
about 1 message per second per private chat, about 30 messages per second per bot, text at most
4096 characters. Rates here are ``(max_calls, window_seconds)``.

Who may call when is a :class:`Limiter`: :class:`LocalLimiter` keeps the buckets in this process
(one worker, or many workers when Redis is down); :class:`bot.telegram.shared_limits.SharedLimiter` keeps
them in Redis for all workers together (issue 12, "Telegram limits shared").
"""

from __future__ import annotations

import time
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Protocol

from aiolimiter import AsyncLimiter

MESSAGE_LIMIT = 4096  #: Telegram's maximum text length, counted here in UTF-16 code units
GROUP_RATE = (20, 60.0)  #: at most 20 calls per group chat in any 60 s
PRIVATE_RATE = (1, 1.0)  #: at most 1 call per private chat per second
GLOBAL_RATE = (30, 1.0)  #: at most 30 calls per bot in any second
#: share of a group's window added to it by the limiters (20 in any 61 s): a call reaches Telegram
#: a little after it took its token, so an exact 20 per 60 s could be 21 in Telegram's 60 s
#: (a share, not seconds, so that a benchmark on a compressed clock keeps the same proportions)
GROUP_MARGIN = 1 / 60
#: share of a private chat's window added to it (1 call per 1.15 s): a retry that takes its token
#: the moment the bucket allows would otherwise reach Telegram within its second as often as not
PRIVATE_MARGIN = 0.15

Rate = tuple[int, float]


def window_limiter(max_calls: int, window: float, burst: int | None = None) -> AsyncLimiter:
    """A leaky bucket that admits at most ``max_calls`` in any ``window`` seconds.

    A bucket of capacity *b* draining at *r*/s admits at most ``b + r*window`` calls in a window, so
    ``AsyncLimiter(max_calls, window)`` alone would allow twice the limit. Here *b* = ``burst``
    (default a quarter of ``max_calls``, at least 1) and *r* = ``(max_calls - b) / window``.
    Raises ``ValueError`` unless ``max_calls >= 1``, ``window > 0`` and ``1 <= burst < max_calls``
    (``burst`` is ignored when ``max_calls == 1``: then one call per ``window``).
    """
    if max_calls < 1 or window <= 0:
        raise ValueError("need max_calls >= 1 and window > 0")
    if max_calls == 1:
        return AsyncLimiter(1, window)
    burst = max(1, max_calls // 4) if burst is None else burst
    if not 1 <= burst < max_calls:
        raise ValueError("need 1 <= burst < max_calls")
    return AsyncLimiter(burst, burst * window / (max_calls - burst))


class Limiter(Protocol):
    """What the Sender asks before each Bot API call (see :mod:`bot.telegram.sender`).

    A chat's *lane* rate is the group rate for a negative ``chat_id``, else the private rate.
    """

    #: whether a retry of a failed call (after a 429, a 5xx, a network error) takes tokens again
    #: (both limiters here: a call whose answer was lost may have reached Telegram, which counts it)
    retries_take_tokens: bool

    async def acquire(self, chat_id: int) -> None:
        """Wait for a token of ``chat_id``'s lane, then for a global one (and for any flood
        reported for that chat or for all of them to pass)."""

    async def acquire_global(self) -> None:
        """Wait for a global token only (callback answers, calls without a chat)."""

    async def flood(self, chat_id: int | None, retry_after: float) -> None:
        """Telegram answered 429 with ``retry_after`` seconds for ``chat_id`` (``None``: a call
        without a chat, taken as the whole bot): later acquisitions for it wait that long."""

    def release(self, chat_id: int) -> None:
        """``chat_id``'s lane went idle: per-chat state that is back to fresh may be forgotten."""

    async def close(self) -> None:
        """Free connections; the limiter is not used again."""


class LocalLimiter:
    """A :class:`Limiter` in this process's memory: one :func:`window_limiter` per chat (rates
    ``(max_calls, window_seconds)``; ``group_burst`` as there; a group's window is longer by
    ``group_margin`` of it, see :data:`GROUP_MARGIN`, a private chat's by ``private_margin``,
    :data:`PRIVATE_MARGIN`) and one global bucket. A 429
    pauses only the lane that got it, which waits inside its own retry, so :meth:`flood` has
    nothing to record; every retry takes tokens again (Telegram counts each attempt).

    Across a restart (issue 19): the process before this one may have spent a group's budget
    just before it died, and memory does not say. Each group's bucket therefore starts *full*
    at the limiter's creation (``started``, ``time.monotonic()`` seconds): a bucket admits at
    most ``burst + rate * T`` calls in any ``T`` seconds, so the dead process's calls in the
    last ``window - s`` seconds before the restart (at most ``max_calls - rate * s``) and this
    one's in its first ``s`` seconds (at most ``rate * s``, from a full bucket) are together at
    most ``max_calls`` in any window. The cost: a group's first call after a restart waits
    ``window / (max_calls - burst)`` seconds (4 s), its burst is back ``window / 4`` seconds
    (15 s) after the start. ``restarted=False``: the buckets start empty (tests, a takeover)."""

    retries_take_tokens = True
    #: beyond this many chat buckets, :meth:`acquire` forgets the full ones (bounds memory)
    SWEEP_AT = 4096

    def __init__(self, group_rate: Rate = GROUP_RATE, private_rate: Rate = PRIVATE_RATE,
                 global_rate: Rate = GLOBAL_RATE, group_burst: int | None = None,
                 group_margin: float = GROUP_MARGIN, restarted: bool = True,
                 private_margin: float = PRIVATE_MARGIN) -> None:
        self.group_rate, self.private_rate, self.global_rate = group_rate, private_rate, global_rate
        self.group_burst, self.group_margin = group_burst, group_margin
        self.private_margin = private_margin
        self.started: float | None = time.monotonic() if restarted else None
        self._global = window_limiter(*global_rate)
        self._chats: dict[int, AsyncLimiter] = {}

    def chat_limiter(self, chat_id: int) -> AsyncLimiter:
        """``chat_id``'s bucket, created on first use."""
        limiter = self._chats.get(chat_id)
        if limiter is None:
            if len(self._chats) >= self.SWEEP_AT:
                for idle in [c for c, b in self._chats.items() if b.has_capacity(b.max_rate)]:
                    del self._chats[idle]
            if chat_id < 0:
                max_calls, window = self.group_rate
                limiter = window_limiter(max_calls, window * (1 + self.group_margin),
                                         self.group_burst)
            else:
                max_calls, window = self.private_rate
                limiter = window_limiter(max_calls, window * (1 + self.private_margin))
            self._chats[chat_id] = limiter
        return limiter

    async def acquire(self, chat_id: int) -> None:
        await self.acquire_chat(chat_id)
        await self._global.acquire()

    async def acquire_chat(self, chat_id: int) -> None:
        """Wait for a token of ``chat_id``'s lane only (no global one)."""
        fresh = chat_id not in self._chats
        limiter = self.chat_limiter(chat_id)
        if fresh and chat_id < 0 and self.started is not None:
            # full at the start (see the class docstring), drained since: a fresh bucket's
            # level is 0, so this takes no time
            spent = limiter.max_rate - (time.monotonic() - self.started) * limiter.max_rate \
                / limiter.time_period
            if spent > 0:
                await limiter.acquire(min(spent, limiter.max_rate))
            else:
                self.started = None  # every bucket made from now on is fresh
        await limiter.acquire()

    async def acquire_global(self) -> None:
        await self._global.acquire()

    async def flood(self, chat_id: int | None, retry_after: float) -> None:
        return None  # the lane that got the 429 waits in its retry (see the class docstring)

    def release(self, chat_id: int) -> None:
        # A drained bucket is equivalent to a fresh one: forget it to bound memory.
        limiter = self._chats.get(chat_id)
        if limiter is not None and limiter.has_capacity(limiter.max_rate):
            del self._chats[chat_id]

    async def close(self) -> None:
        return None


def divided(rate: Rate, workers: int) -> Rate:
    """``rate`` shared by ``workers`` processes: ``(max_calls // workers, window)``, or one call
    per ``window * workers / max_calls`` seconds when fewer calls than workers. ``workers >= 1``."""
    max_calls, window = rate
    if workers < 1:
        raise ValueError("need workers >= 1")
    if max_calls // workers >= 1:
        return (max_calls // workers, window)
    return (1, window * workers / max_calls)


def utf16_len(text: str) -> int:
    """Length as Telegram counts it (UTF-16 code units)."""
    return len(text.encode("utf-16-le")) // 2


def split_text(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """Split ``text`` into chunks of at most ``limit`` UTF-16 units, at line breaks when possible,
    else at spaces, else anywhere. Joining the chunks with ``"\\n"`` restores line-split text."""
    if utf16_len(text) <= limit:
        return [text]
    chunks: list[str] = []
    current = ""
    for line in text.split("\n"):
        candidate = f"{current}\n{line}" if current else line
        if utf16_len(candidate) <= limit:
            current = candidate
            continue
        if current:
            chunks.append(current)
        while utf16_len(line) > limit:
            cut = _cut_point(line, limit)
            if head := line[:cut].rstrip():
                chunks.append(head)
            line = line[cut:].lstrip(" ")
        current = line
    if current:
        chunks.append(current)
    return chunks


def _cut_point(line: str, limit: int) -> int:
    """Largest prefix length within ``limit`` UTF-16 units, preferring the last space."""
    end = min(len(line), limit)
    while (over := utf16_len(line[:end]) - limit) > 0:
        end -= (over + 1) // 2  # a character is 1 or 2 units: converges in a few steps
    space = line.rfind(" ", 0, end)
    return space if space > 0 else end


@dataclass
class SenderStats:
    """Counters for tests and benchmarks. Times are ``clock()`` seconds of each attempt; only the
    last ``history`` times per chat are kept."""

    history: int = 100
    calls: Counter[str] = field(default_factory=Counter)  # per Bot API method, every attempt
    #: per outcome: retry_after, migrated, forbidden, ignored, bad_request, network, dropped ...
    errors: Counter[str] = field(default_factory=Counter)
    merged: int = 0  # sends folded into a queued send
    coalesced: int = 0  # edits folded into a queued edit
    chat_calls: dict[int, deque[float]] = field(default_factory=dict)

    def record(self, method: str, chat_id: int | None, at: float) -> None:
        self.calls[method] += 1
        if chat_id is not None:
            self.chat_calls.setdefault(chat_id, deque(maxlen=self.history)).append(at)

    def max_calls_in_window(self, chat_id: int, window: float) -> int:
        """Most attempts to ``chat_id`` within any half-open interval of ``window`` seconds."""
        times = list(self.chat_calls.get(chat_id, ()))
        best = start = 0
        for end, at in enumerate(times):
            while at - times[start] >= window:
                start += 1
            best = max(best, end - start + 1)
        return best
