"""What both planners of the simulated players share: the human delays, a planned press, and
what a planner may read and change on its table.

The party preset's hand-tuned planner (:class:`benchmarks.players.Table`) and the generic one of
the other presets (:mod:`benchmarks.buttons`) both plan :class:`Option` presses after the
:data:`DELAYS`; the generic one reaches its table only through :class:`PlanningTable`, so that
``buttons`` needs nothing from ``players`` (no import cycle: ``tests/test_architecture.py``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from aiogram.types import Update

from tests.fakes.updates import FakeUser, Updates

#: Human delays, seconds after a phase window opened: (low, high) of a uniform draw.
DELAYS = {
    "join": (5.0, 60.0), "start": (3.0, 15.0), "press": (2.0, 8.0), "vote": (1.5, 8.0),
    "night": (3.0, 25.0), "speech": (5.0, 40.0), "defence": (5.0, 25.0), "last_word": (3.0, 30.0),
}

#: A key of a table's plans for the current window: ``(user id, kind)``, or
#: ``(user id, "generic", presses done)`` for the generic planner's presses.
PlanKey = tuple[int, str] | tuple[int, str, int]


@dataclass(frozen=True)
class Option:
    """One planned press: at game time ``due`` (seconds since the table's ``/newgame``) ``user``
    presses the button of ``action`` (a callback code, :class:`bot.ui.callbacks.Act` ``a``) on
    seat ``seat`` (None: any) in chat ``chat_id``; ``kind`` is its plan key."""

    due: float
    user: FakeUser
    kind: str
    chat_id: int
    action: str
    seat: int | None = None


class SentMessages(Protocol):
    """The fake Bot API session's sent messages: the ids per chat in order, and each message's
    Bot API dict by ``(chat id, message id)``."""

    @property
    def chat_messages(self) -> Mapping[int, Sequence[int]]: ...

    @property
    def messages(self) -> Mapping[tuple[int | str, int], dict[str, Any]]: ...


class PlanningTable(Protocol):
    """What a planner reads and changes on its table (:class:`benchmarks.players.Table`):
    its chats and players, the game clock ``vnow`` and the opening of the window
    ``window_start`` (seconds), the window's ``plan`` (values: a due time, a pick, a decision or
    a planned press, None when he does not act), the figures it counts, and ``feed``."""

    group_id: int
    rng: random.Random
    vnow: float
    window_start: float
    plan: dict[PlanKey, Any]
    presses: int
    missing: int
    refused: int
    refusals: Counter[str]
    last_answer: str | None

    @property
    def session(self) -> SentMessages: ...

    @property
    def updates(self) -> Updates: ...

    @property
    def by_id(self) -> Mapping[int, FakeUser]: ...

    async def feed(self, update: Update) -> None:
        """Feed one update through the bot and wait until its calls were performed."""
        ...
