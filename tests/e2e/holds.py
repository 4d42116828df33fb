"""Held calls of the stand-in Bot API (a mixin of :class:`tests.e2e.fake_api.FakeBotAPI`).

``hold = api.hold("sendMessage", chat_id=GROUP)`` keeps every matching request waiting, before
the method runs, until ``hold.release()``: the bot's call is *in flight* (it left the bot, which
waits for the answer) for as long as the test wants, e.g. while it stops the bot's process.
``await hold.arrived.wait()`` returns once a matching request came in; ``hold.calls`` are the
held calls (their ``at`` is their arrival, when they left the bot). A released hold lets
everything through; ``api.release_all()`` releases every hold. Methods are matched
case-insensitively; several methods at once: ``api.hold("sendMessage", "editMessageText")``.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .model import Call
    from .protocol import Params


@dataclass(eq=False)
class Hold:
    """Requests of ``methods`` (lower case; to ``chat_id`` only, unless None) wait for release."""

    methods: frozenset[str]
    chat_id: str | None
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    released: asyncio.Event = field(default_factory=asyncio.Event)
    calls: list[Call] = field(default_factory=list)

    def matches(self, method: str, params: Params) -> bool:
        return (not self.released.is_set() and method in self.methods
                and self.chat_id in (None, params.text("chat_id")))

    def release(self) -> None:
        self.released.set()


class HoldsMixin:
    """Keeps the holds; the server awaits :meth:`_wait_if_held` for each request."""

    def __init__(self) -> None:
        self.holds: list[Hold] = []

    def hold(self, *methods: str, chat_id: int | str | None = None) -> Hold:
        """Hold the requests of ``methods`` (to ``chat_id`` only, if given) until released."""
        held = Hold(frozenset(m.lower() for m in methods),
                    None if chat_id is None else str(chat_id))
        self.holds.append(held)
        return held

    def release_all(self) -> None:
        for held in self.holds:
            held.release()

    async def _wait_if_held(self, method: str, params: Params, call: Call) -> None:
        for held in self.holds:
            if held.matches(method, params):
                held.calls.append(call)
                held.arrived.set()
                await held.released.wait()
                return
