"""How the Sender performs one queued operation, and replaces messages Telegram's faults lost
(a mixin of :class:`bot.telegram.sender.Sender`; the policy is in :mod:`bot.telegram.sender` 's
docstring and in docs/architecture.md, "Talking to Telegram when it misbehaves").

State kept by the Sender (bounded to :data:`MEMORY` entries each, oldest forgotten first):
``_lost`` — sends with buttons dropped after transient errors (their future -> the op);
``_replaced`` — the fresh messages sent in their place (future -> ``Message``);
``_aliases`` — ``(chat_id, old_message_id) -> new_message_id`` for edits sent as fresh messages.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from typing import Any

from aiogram.methods import TelegramMethod

from bot.telegram.calls import TRANSIENT, CallPolicy
from bot.telegram.ops import EDITS, Fenced, Lane, Op, Unresolved, resolve_future
from bot.telegram.results import SendMessage

logger = logging.getLogger("bot.telegram.sender")

MEMORY = 512  #: lost and replaced messages remembered per Sender
_DROPPED = -1  #: :meth:`Replacement._left_behind`: the operation is dropped


class Replacement(CallPolicy):
    """Mixin: ``_run_op`` and the replacement of lost messages; ``_drop_chat`` for left chats."""

    async def _run_op(self, lane: Lane, op: Op) -> Any:
        """Build and perform one operation; replace a lost message with buttons (see the module
        docstring). Returns the result for the op's future."""
        chat_id = self._resolve(lane.chat_id)
        self._rebind(op, chat_id)
        try:
            method = op.build(chat_id)
        except Fenced:
            logger.info("dropping %s in chat %s: queued by a worker that lost the game's shard",
                        op.kind, chat_id)
            return None
        except Unresolved:
            logger.info("dropping %s in chat %s: its message was never sent", op.kind, chat_id)
            return None
        except Exception:  # bad arguments from the caller must not stall the lane
            logger.exception("cannot build %s for chat %s", op.kind, chat_id)
            return None
        moved = self._left_behind(op, chat_id)
        if moved == _DROPPED:
            return None
        if moved is not None:
            method = op.build(chat_id)
        # Sent again even after a failure that may have delivered it: every message the bot
        # sends is harmless to see twice (docs/architecture.md, "Talking to Telegram when it
        # misbehaves"); losing one is not.
        result = await self._perform(method, lane, acquired=True)
        if result is TRANSIENT:
            return await self._after_transient(lane, op, method)
        new_chat = self._resolve(lane.chat_id)
        if new_chat in self._since_migration and getattr(result, "message_id", None):
            self._since_migration[new_chat].add(result.message_id)
            if moved is not None:
                self._remember(self._aliases, (new_chat, moved), result.message_id)
        if op.replaces is not None and result is not None:
            self._remember(self._replaced, op.replaces, result)
            self._lost.pop(op.replaces, None)
        return result

    def _left_behind(self, op: Op, chat_id: int) -> int | None:
        """An operation on a message of a group before it migrated to the supergroup ``chat_id``
        (issue 19: Telegram answers "message to edit not found" there). An edit with buttons is
        sent as a fresh message in the supergroup instead (returns the old id: later edits are
        mapped to the new one); anything else on it is dropped (returns :data:`_DROPPED`).
        None: not such an operation. An id the Sender got from the supergroup since the migration
        is the supergroup's (its ids start at 1, a basic group's come from the bot's account-wide
        sequence: they seldom meet)."""
        sent_here = self._since_migration.get(chat_id)
        ref = op.message_id
        if sent_here is None or not isinstance(ref, int) or op.kind not in (*EDITS, "delete", "pin") \
                or ref in sent_here:
            return None
        if op.kind == "edit" and op.reply_markup is not None:
            logger.info("message %s stayed in the group before chat %s: sent afresh", ref, chat_id)
            op.kind, op.message_id = "send", None
            return ref
        logger.info("%s of message %s dropped: it stayed in the group before chat %s", op.kind,
                    ref, chat_id)
        return _DROPPED

    def _rebind(self, op: Op, chat_id: int) -> None:
        """Point ``op`` at the message that stands in for the one it names, if any; turn an edit
        of a lost message with buttons into a fresh send."""
        ref = op.message_id
        if isinstance(ref, int):
            op.message_id = self._aliases.get((chat_id, ref), ref)
            return
        if not isinstance(ref, asyncio.Future) or (ref.done() and ref.result() is not None):
            return
        if (fresh := self._replaced.get(ref)) is not None:
            op.message_id = fresh.message_id
            return
        lost = self._lost.get(ref)
        if lost is None:
            return
        if op.kind == "delete":
            self._lost.pop(ref, None)
        elif op.kind in EDITS:
            text = op.text if op.kind == "edit" else lost.text
            op.kind, op.text, op.message_id, op.replaces = "send", text, None, ref
            op.kwargs = {**lost.kwargs, **op.kwargs}

    async def _after_transient(self, lane: Lane, op: Op, method: TelegramMethod[Any]) -> Any:
        """Telegram stayed unavailable for the whole budget. A send with buttons is remembered
        (its next edit is sent fresh); an edit with buttons of a sent message is sent fresh now."""
        if op.kind == "send" and op.reply_markup is not None:
            self._remember(self._lost, op.future, op)
            return None
        if op.kind == "edit" and op.reply_markup is not None and isinstance(op.message_id, int):
            chat_id = self._resolve(lane.chat_id)
            fresh = SendMessage(chat_id=chat_id, text=op.required_text(), reply_markup=op.reply_markup,
                                **op.kwargs)
            sent = await self._perform(fresh, lane, acquired=False)
            if sent is not None and sent is not TRANSIENT:
                logger.info("message %s in chat %s replaced by %s", op.message_id, chat_id,
                            sent.message_id)
                self._remember(self._aliases, (chat_id, op.message_id), sent.message_id)
                return sent
        return None

    @staticmethod
    def _remember(memory: OrderedDict[Any, Any], key: Any, value: Any) -> None:
        memory[key] = value
        while len(memory) > MEMORY:
            memory.popitem(last=False)

    def _drop_chat(self, chat_id: int) -> None:
        """The bot left ``chat_id``: everything queued there resolves to ``None`` now, and
        ``on_forbidden(chat_id)`` is called (once, as a task the Sender's ``drain`` waits for)."""
        if self.on_forbidden is not None:
            self._spawn(self._callback(self.on_forbidden, chat_id))
        lane = self._lanes.get(chat_id)
        if lane is None:
            return
        dropped = len(lane.queue)
        while lane.queue:
            resolve_future(lane.queue.popleft().future, None)
        if dropped:
            logger.info("chat %s was left: %d queued call(s) dropped", chat_id, dropped)
