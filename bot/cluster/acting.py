"""What the current task acts for (many workers, issue 19): no message from a stale worker.

``GameService.execute`` sets :data:`ACTING` to a check that the game's worker still holds the
game's shard under the epoch it wrote by (``ShardWorker.still_ours``); the tasks the command
starts (countdowns, the Sender's lanes) inherit it. Every Sender operation created meanwhile
keeps the check (:class:`bot.sender_ops.Op`) and is dropped, unsent, when it fails right before
its call: a worker that lost its shard during a pause (SIGSTOP, a long stall) sends nothing it
had queued. None (one process, or no game): nothing to check.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar

ACTING: ContextVar[Callable[[], bool] | None] = ContextVar("bot_cluster_acting", default=None)
