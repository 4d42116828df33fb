"""A private chat's calls spaced from the previous call's completion (issue 19).

Telegram allows about one message per second in a private chat, counted when the calls reach it.
The limiters (:mod:`bot.telegram.limits`, :mod:`bot.telegram.shared_limits`) space a chat's calls
*token to token*: a call that took its token at ``t`` but reached Telegram late (a busy event
loop, a slow connection, a retry's new connection) and the next one, which took its token at
``t + 1.15`` and went at once, can reach Telegram less than a second apart — a 429 in a burst of
private messages to one player (his night prompt, his role card, the answers to his commands),
which the many-workers benchmark saw under load.

:class:`PrivateSpacing` closes that gap where every call passes, the session middleware
(:class:`bot.telegram.faults.FaultTolerance`, for the Sender's calls and the handlers' own): one
call at a time per private chat (an attempt waits for the one in flight), each starting at least
``gap`` seconds after the previous one *ended* (its answer or its failure came back, so it had
reached Telegram, if at all, before). A call that ends quickly costs nothing more than the
limiter's pace; only a late one pushes the next back. Group chats (negative ids), reads
(``get*``) and answers to queries (``answer*``: no chat, no message) are not spaced here.
Times are in seconds, ``clock`` monotonic.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

__all__ = ["PrivateSpacing"]


class PrivateSpacing:
    """Per private chat: one call at a time, ``gap`` seconds from the end of the previous one
    (see the module docstring). At most ``memory`` chats' ends are kept (the oldest ones, which
    are more than ``gap`` seconds old, are forgotten first). ``gap >= 0``, else ``ValueError``."""

    def __init__(self, gap: float = 1.0, *, memory: int = 4096,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep) -> None:
        if gap < 0:
            raise ValueError("need gap >= 0")
        self.gap, self.memory = gap, memory
        self._clock, self._sleep = clock, sleep
        self._ended: dict[int, float] = {}  #: chat -> when its last call ended
        self._busy: dict[int, asyncio.Future[None]] = {}  #: chat -> its call in flight

    @staticmethod
    def spaced(method_name: str, chat_id: object) -> bool:
        """Whether a call of ``method_name`` to ``chat_id`` is spaced: a private chat's call
        that is no read and no answer to a query."""
        return isinstance(chat_id, int) and chat_id > 0 and not isinstance(chat_id, bool) \
            and not method_name.startswith(("get", "answer"))

    @asynccontextmanager
    async def turn(self, method_name: str, chat_id: object) -> AsyncIterator[None]:
        """Around one attempt of a call: waits for the chat's call in flight and for ``gap``
        seconds after the end of its last one, then lets the attempt run; its end is noted."""
        if not self.spaced(method_name, chat_id):
            yield
            return
        assert isinstance(chat_id, int)  # spaced() checked it
        while (busy := self._busy.get(chat_id)) is not None:
            await asyncio.shield(busy)
        mine: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._busy[chat_id] = mine
        went = False
        try:
            ended = self._ended.get(chat_id)
            if ended is not None and (wait := ended + self.gap - self._clock()) > 0:
                await self._sleep(wait)
            went = True
            yield
        finally:
            if went:  # (a call cancelled while it waited never went)
                self._note_end(chat_id)
            del self._busy[chat_id]
            mine.set_result(None)

    def _note_end(self, chat_id: int) -> None:
        now = self._clock()
        self._ended.pop(chat_id, None)  # re-inserted last: the dict stays in order of the ends
        self._ended[chat_id] = now
        while len(self._ended) > self.memory:
            oldest, at = next(iter(self._ended.items()))
            if now - at < self.gap:
                break  # a burst over that many chats at once: keep them all a while
            del self._ended[oldest]
