"""What a :class:`bot.telegram.sender.Sender` holds, declared once for its parts.

The Sender is one class assembled from parts kept in their own modules (``calls.py``: one Bot API
call and its error policy; ``replace.py``: one queued operation and the replacement of lost
messages; ``lanes.py``: the per-chat queues and their workers; ``sender.py``: the public API).
:class:`SenderState` declares the attributes ``Sender.__init__`` sets and the methods one part
calls on another, so that each part is checked against them; it holds no behaviour.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from bot.telegram.faults import BlockedUsers, LeftChats
from bot.telegram.limits import Limiter, SenderStats
from bot.telegram.ops import Lane, Op

if TYPE_CHECKING:
    from aiogram import Bot

#: ``on_forbidden(chat_id)``: the chat can no longer be written to
OnForbidden = Callable[[int], Awaitable[Any]]
#: ``on_migrate(old_chat_id, new_chat_id)``: a group became a supergroup
OnMigrate = Callable[[int, int], Awaitable[Any]]


class SenderState:
    """The Sender's attributes (set by ``Sender.__init__``; see its docstring)."""

    bot: Bot
    limiter: Limiter
    on_forbidden: OnForbidden | None
    on_migrate: OnMigrate | None
    max_tries: int
    retry_budget: float  #: seconds
    attempt_timeout: float  #: seconds
    left: LeftChats
    merge_group_text: bool
    stats: SenderStats
    _sleep: Callable[[float], Awaitable[Any]]
    _clock: Callable[[], float]  #: monotonic seconds
    _policies: dict[tuple[Any, ...], Any]
    _lanes: dict[int, Lane]
    _tasks: set[asyncio.Task[Any]]
    _migrated: dict[int, int]
    _since_migration: dict[int, set[int]]  #: supergroup -> ids of messages sent there since
    blocked: BlockedUsers
    _closed: bool
    _lost: OrderedDict[asyncio.Future[Any], Op]
    _replaced: OrderedDict[asyncio.Future[Any], Any]
    _aliases: OrderedDict[tuple[int, int], int]

    def _resolve(self, chat_id: int) -> int:
        """The chat's current id (a migrated group's supergroup id); ``Sender._resolve``."""
        raise NotImplementedError

    def _future(self) -> asyncio.Future[Any]:
        """A future on the running loop; ``Sender._future``."""
        raise NotImplementedError
