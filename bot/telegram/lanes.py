"""The Sender's lanes (a mixin of :class:`bot.telegram.sender.Sender`; the theory of operation is
in :mod:`bot.telegram.sender` 's docstring): one operation queued on its chat's lane -- a plain
send merged into the queued one before it, an edit folded into a queued edit, nothing queued for
a chat the bot cannot reach -- and the lane's worker, which takes the limiter's tokens before it
pops each operation and forgets the lane once it is empty."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from bot.telegram.limits import MESSAGE_LIMIT, utf16_len
from bot.telegram.ops import EDITS, Lane, MessageRef, Op, resolve_future
from bot.telegram.replace import Replacement
from bot.telegram.shown import note, suppressed

logger = logging.getLogger("bot.telegram.sender")


class Lanes(Replacement):
    """The per-chat FIFO queues of the Sender and their workers."""


    def _pending(self) -> list[asyncio.Task[Any]]:
        return [lane.task for lane in self._lanes.values() if lane.task] + list(self._tasks)

    def _future(self) -> asyncio.Future[Any]:
        """A fresh future, noted for the step being presented (bot/telegram/shown.py)."""
        return note(asyncio.get_running_loop().create_future())

    def _resolve(self, chat_id: int) -> int:
        return self._migrated.get(chat_id, chat_id)

    def _enqueue_send(
        self, chat_id: int, text: str, markup: Any, merge: bool, kwargs: dict[str, Any]
    ) -> asyncio.Future[Any]:
        chat_id = self._resolve(chat_id)
        mergeable = merge and self.merge_group_text and markup is None
        lane = self._lanes.get(chat_id)
        if mergeable and lane is not None and lane.queue:
            tail = lane.queue[-1]
            if tail.mergeable and tail.kwargs == kwargs:
                merged = f"{tail.text}\n\n{text}"
                if utf16_len(merged) <= MESSAGE_LIMIT:
                    tail.text = merged
                    self.stats.merged += 1
                    return note(tail.future)
        op = Op(
            "send",
            chat_id,
            self._future(),
            text=text,
            reply_markup=markup,
            kwargs=dict(kwargs),
            mergeable=mergeable,
        )
        return self._enqueue(op)

    def _queued_edit(self, chat_id: int, message_id: MessageRef) -> Op | None:
        lane = self._lanes.get(self._resolve(chat_id))
        if lane is None:
            return None
        for op in lane.queue:
            if op.kind in EDITS and op.message_id == message_id:
                return op
        return None

    def _enqueue(self, op: Op) -> asyncio.Future[Any]:
        if self._closed:
            logger.warning("sender is closed; dropping %s to chat %s", op.kind, op.chat_id)
            resolve_future(op.future, None)
            return op.future
        op.chat_id = self._resolve(op.chat_id)
        if op.chat_id in self.left or op.chat_id in self.blocked or suppressed(op.chat_id):
            logger.debug("chat %s is unreachable; dropping %s", op.chat_id, op.kind)  # no call
            resolve_future(op.future, None)
            if op.chat_id in self.blocked and self.on_forbidden is not None:  # as a 403 would
                self._spawn(self._callback(self.on_forbidden, op.chat_id))
            return op.future
        lane = self._lanes.get(op.chat_id)
        if lane is None:
            lane = self._lanes[op.chat_id] = Lane(op.chat_id)
        lane.queue.append(op)
        if lane.task is None:
            lane.task = asyncio.get_running_loop().create_task(
                self._run_lane(lane), name=f"sender:{op.chat_id}"
            )
        return op.future

    async def _run_lane(self, lane: Lane) -> None:
        op: Op | None = None
        result = None
        try:
            while lane.queue:
                await self.limiter.acquire(lane.chat_id)
                if not lane.queue:
                    break
                op, result = lane.queue.popleft(), None
                result = await self._run_op(lane, op)
                resolve_future(op.future, result)
        finally:
            if op is not None:  # cancelled mid-call by close(): nobody may wait forever
                resolve_future(op.future, result)
            lane.task = None
            if not lane.queue:  # forget idle lanes (and fresh buckets) to bound memory
                self._lanes.pop(lane.chat_id, None)
                self.limiter.release(lane.chat_id)
