"""Which Telegram update the running code is handling (a context variable).

Set for every update by :func:`tag_updates` (an outer middleware of the Dispatcher), and by the
many-worker consumer (``bot/cluster/worker.py``) before it feeds an update that a dead worker
may already have handled (``redelivered``). ``GameService.execute`` stores the ``update_id``
with each command it appends, and skips a redelivered update's command when the log already has
one from it (issue 12: a command is applied once).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from aiogram.types import TelegramObject


@dataclass
class UpdateTag:
    """``update_id``: Telegram's id of the update; ``redelivered``: it may have been handled
    before, by a worker that died before acknowledging it; ``done``: its handling is over;
    ``received``: when its handling began (``time.monotonic()`` seconds; a press's answer must
    land within Telegram's window from then, bot/telegram/faults.py).

    A task started while an update is handled (a timer armed by its command, a Sender lane, a
    background write) inherits a copy of the context and so this tag; once the handling is over
    (``done``) the tag no longer speaks for what such a task does (:func:`current_update`)."""

    update_id: int
    redelivered: bool = False
    done: bool = False
    received: float = field(default_factory=time.monotonic)


CURRENT_UPDATE: ContextVar[UpdateTag | None] = ContextVar("current_update", default=None)


def current_update() -> UpdateTag | None:
    """The update whose handling is running now, or None (a timer, recovery, a task that
    outlived the update that started it)."""
    tag = CURRENT_UPDATE.get()
    return None if tag is None or tag.done else tag


async def tag_updates(handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
                      event: TelegramObject, data: dict[str, Any]) -> Any:
    """Outer update middleware (``dp.update``, so ``event`` is an ``Update``):
    :data:`CURRENT_UPDATE` is the update being handled (kept when the caller already tagged this
    very update, e.g. as redelivered)."""
    update_id: int = event.update_id  # type: ignore[attr-defined]  # dp.update's events are Updates
    current = CURRENT_UPDATE.get()
    if current is not None and current.update_id == update_id:
        return await handler(event, data)
    tag = UpdateTag(update_id)
    token = CURRENT_UPDATE.set(tag)
    try:
        return await handler(event, data)
    finally:
        tag.done = True
        CURRENT_UPDATE.reset(token)


#: Many workers (issue 19): for whom the running task acts. ``GameService.execute`` sets it to a
#: check that the game's worker still holds the game's shard under the epoch it wrote by
#: (``ShardWorker.still_ours``); the tasks the command starts (held live edits, the Sender's lanes)
#: inherit it. Every Sender operation created meanwhile keeps the check (``bot.telegram.ops.Op``)
#: and is dropped, unsent, when it fails right before its call: a worker that lost its shard
#: during a pause (SIGSTOP, a long stall) sends nothing it had queued. None: nothing to check.
ACTING: ContextVar[Callable[[], bool] | None] = ContextVar("bot_acting", default=None)
