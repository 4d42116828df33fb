"""What the simulated tables share (benchmarks/players.py): the running table (:data:`CURRENT`),
the fake session that attributes every Bot API call to its table (:class:`BenchSession`), the
recorder of fed updates and the tables' clock for ``build_app`` (:func:`table_clock`)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from aiogram import Bot
from aiogram.methods import TelegramMethod
from aiogram.methods.base import TelegramType
from aiogram.types import Update

from tests.fakes.session import RecordingSession


class TableLike(Protocol):
    """What the session needs of a table (:class:`benchmarks.players.Table`)."""

    def now(self) -> datetime: ...

    def record_call(self, method: str, chat_id: Any, request: Any) -> None: ...

__all__ = ["CURRENT", "READ_METHODS", "BenchSession", "Recorder", "Stuck", "table_clock"]

#: The table whose task is running (read by the bot's clock and by call attribution).
CURRENT: ContextVar[TableLike] = ContextVar("benchmark_table")

READ_METHODS = ("get",)  #: calls that read (getMe, getChatMember ...) and never count as sends


class Stuck(RuntimeError):
    """The table has no planned action and no deadline: the game cannot go on."""


class BenchSession(RecordingSession):
    """A :class:`RecordingSession` that indexes sent messages per chat and reports every call to
    the table owning the chat (or the running table), before performing it."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.chat_messages: defaultdict[int, list[int]] = defaultdict(list)
        self.owners: dict[int, TableLike] = {}  # chat id (group or private) -> table

    def _store(self, message: dict[str, Any]) -> None:
        key = (message["chat"]["id"], message["message_id"])
        if key not in self.messages:
            self.chat_messages[key[0]].append(key[1])
        super()._store(message)

    async def make_request(self, bot: Bot, method: TelegramMethod[TelegramType],
                           timeout: int | None = None) -> TelegramType:
        chat_id = getattr(method, "chat_id", None)
        table = self.owners.get(chat_id) if isinstance(chat_id, int) else None
        table = table or CURRENT.get(None)
        if table is not None:
            table.record_call(method.__api_method__, chat_id, method)
        return await super().make_request(bot, method, timeout)


@dataclass
class Recorder:
    """What all tables fed: every update in order, and the seconds ``feed_update`` took for it."""

    updates: list[Update] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)


def table_clock(fallback: Callable[[], datetime]) -> Callable[[], datetime]:
    """A clock for ``build_app``: the running table's game time, else ``fallback()``."""

    def clock() -> datetime:
        table = CURRENT.get(None)
        return table.now() if table is not None else fallback()

    return clock

