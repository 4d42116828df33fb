"""Which Telegram update the running code is handling (a context variable).

Set for every update by :func:`tag_updates` (an outer middleware of the Dispatcher), and by the
many-worker consumer (``bot/cluster/worker.py``) before it feeds an update that a dead worker
may already have handled (``redelivered``). ``GameService.execute`` stores the ``update_id``
with each command it appends, and skips a redelivered update's command when the log already has
one from it (issue 12: a command is applied once).
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class UpdateTag:
    """``update_id``: Telegram's id of the update; ``redelivered``: it may have been handled
    before, by a worker that died before acknowledging it."""

    update_id: int
    redelivered: bool = False


CURRENT_UPDATE: ContextVar[UpdateTag | None] = ContextVar("current_update", default=None)


async def tag_updates(handler, event, data: dict[str, Any]) -> Any:
    """Outer update middleware: :data:`CURRENT_UPDATE` is the update being handled (kept when
    the caller already tagged this very update, e.g. as redelivered)."""
    current = CURRENT_UPDATE.get()
    if current is not None and current.update_id == event.update_id:
        return await handler(event, data)
    token = CURRENT_UPDATE.set(UpdateTag(event.update_id))
    try:
        return await handler(event, data)
    finally:
        CURRENT_UPDATE.reset(token)
