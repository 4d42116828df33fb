"""Sender: the one owner of outgoing Telegram Bot API calls.

Theory of operation
-------------------
Every call that writes to a chat goes through a per-chat FIFO *lane*: a deque of pending
operations and at most one worker task, created lazily and gone when the lane is empty. Lanes are
independent, so one slow or rate-limited chat never holds up another, and callers never wait for a
budget: ``send``/``edit``/... enqueue and return an ``asyncio.Future`` the caller *may* await for
the result (a ``Message``, ``True``, or ``None`` when the operation was dropped). Futures never
carry exceptions; failures are handled here, per recipient.

Before each attempt a worker takes a token of its chat and a global one from the Sender's
:class:`bot.telegram.limits.Limiter` -- in memory by default (aiolimiter leaky buckets, see
:func:`bot.telegram.limits.window_limiter`), or shared by all workers through Redis
(:class:`bot.telegram.shared_limits.SharedLimiter`), which also spreads a 429's ``retry_after`` to every
worker; only then does it pop the head of the lane, so while it waits, new work can still be
folded into what is queued:

* edits of the same message coalesce, latest wins (``edit`` replaces a queued edit's text and
  keyboard, ``edit_markup`` replaces only the keyboard, ``delete`` discards queued edits);
* consecutive plain sends (no keyboard, the same options) to a chat -- a group or a private
  chat -- are merged into one message, joined by a blank line, while the result stays within
  4096 characters; longer texts are split at line breaks.

Errors (the calls themselves: :mod:`bot.telegram.calls`; the retries: :mod:`bot.telegram.faults`):
transient errors (5xx, an HTML error page, network errors, timeouts, 429) are retried with backoff
within ``retry_budget`` seconds and ``max_tries`` attempts, the lane waiting meanwhile (so a 429
pauses only that chat); 403 and "chat not found" call ``on_forbidden(chat_id)`` in a task and drop
the item (a user's 403: his chat gets nothing until he is heard from, ``blocked``); "message is not
modified", "query is too old" are ignored; a migration re-sends to the supergroup, calls
``on_migrate(old, new)``; anything else is logged (token redacted, one line) and dropped.

A message with buttons that could not be sent because Telegram stayed unavailable is not lost for
good: the next edit of it is sent as a fresh message (and later edits, pins and deletes follow
that one); an edit with buttons of an existing message that failed the same way is sent as a
fresh message too, and the old id is mapped to the new one. A group the bot has left
(:class:`bot.telegram.faults.LeftChats`) has its lane dropped at once and gets nothing more.

Callback query answers and calls without a chat skip the lanes but still take a global token.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import Bot
from aiogram.methods import AnswerCallbackQuery, TelegramMethod

from bot.telegram.faults import BlockedUsers, LeftChats, install
from bot.telegram.lanes import Lanes
from bot.telegram.limits import (
    GLOBAL_RATE,
    GROUP_RATE,
    MESSAGE_LIMIT,
    PRIVATE_RATE,
    Limiter,
    LocalLimiter,
    Rate,
    SenderStats,
    split_text,
    utf16_len,
    window_limiter,
)
from bot.telegram.ops import EDITS, Lane, MessageRef, Op, resolve_future
from bot.telegram.shown import note
from bot.telegram.state import OnForbidden, OnMigrate

__all__ = [
    "GLOBAL_RATE",
    "GROUP_RATE",
    "MESSAGE_LIMIT",
    "PRIVATE_RATE",
    "Sender",
    "SenderStats",
    "split_text",
    "utf16_len",
    "window_limiter",
]

logger = logging.getLogger(__name__)


class Sender(Lanes):
    """Rate-limited, coalescing, error-absorbing queue of outgoing calls (see module docstring).

    Rates are ``(max_calls, window_seconds)``, defaults Telegram's limits; ``group_burst`` is how
    many group calls may go at once (default a quarter of the group rate, see ``window_limiter``);
    they make the in-memory :class:`bot.telegram.limits.LocalLimiter` unless a ``limiter`` is given
    (e.g. the Redis-backed :class:`bot.telegram.shared_limits.SharedLimiter`, which brings its own rates).
    ``on_forbidden(chat_id)`` runs when a chat can no longer be written to (the user blocked the bot
    or never started it: positive id; the bot left or was removed from a group: negative id, once,
    when the group is marked in ``left``);
    ``on_migrate(old_chat_id, new_chat_id)`` when a group became a supergroup. Transient errors
    are retried up to ``max_tries`` attempts within ``retry_budget`` seconds, each attempt at most
    ``attempt_timeout`` seconds (answers: at most 9 s and 4 s, inside Telegram's window). ``left``
    is the shared registry of groups the bot has left (installed on the bot's session with the
    :class:`bot.telegram.faults.FaultTolerance` middleware; a fresh one if omitted). ``sleep`` and
    ``clock`` (seconds) are injectable for tests; ``stats`` counts every attempt and keeps the last
    ``stats_history`` attempt times per chat (benchmarks raise it).
    """

    def __init__(
        self,
        bot: Bot,
        *,
        group_rate: Rate = GROUP_RATE,
        private_rate: Rate = PRIVATE_RATE,
        global_rate: Rate = GLOBAL_RATE,
        group_burst: int | None = None,
        limiter: Limiter | None = None,
        on_forbidden: OnForbidden | None = None,
        on_migrate: OnMigrate | None = None,
        max_tries: int = 6,
        retry_budget: float = 40.0,
        attempt_timeout: float = 10.0,
        left: LeftChats | None = None,
        merge_group_text: bool = True,
        stats_history: int = 100,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.bot = bot
        self.limiter: Limiter = limiter if limiter is not None else LocalLimiter(
            group_rate, private_rate, global_rate, group_burst)
        self.on_forbidden, self.on_migrate = on_forbidden, on_migrate
        self.max_tries, self.retry_budget = max_tries, retry_budget
        self.attempt_timeout = attempt_timeout
        faults = install(bot.session, left)
        faults.policy_for = self._handler_policy  # calls made outside the Sender
        faults.pace = self._pace_outside
        faults.spacing.gap = private_rate[1] / private_rate[0]  # issue 19: from a call's end
        self.left = faults.left
        self.left.listeners.append(self._drop_chat)
        self.blocked, self.merge_group_text = BlockedUsers(), merge_group_text  # blocked: issue 19
        self.stats = SenderStats(history=stats_history)
        self._sleep, self._clock = sleep, clock
        self._policies: dict[tuple[Any, ...], Any] = {}  # bot.telegram.calls: made once
        self._lanes: dict[int, Lane] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._migrated: dict[int, int] = {}
        self._since_migration: dict[int, set[int]] = {}  # supergroup -> ids sent there since
        self._closed = False
        # sends with buttons lost to Telegram's faults (their future -> the op), the fresh
        # messages sent in their place (future -> Message), and edited-away ids (old -> new)
        self._lost: OrderedDict[asyncio.Future[Any], Op] = OrderedDict()
        self._replaced: OrderedDict[asyncio.Future[Any], Any] = OrderedDict()
        self._aliases: OrderedDict[tuple[int, int], int] = OrderedDict()

    # ------------------------------------------------------------------ public API

    def send(
        self,
        chat_id: int,
        text: str,
        reply_markup: Any = None,
        *,
        merge: bool = True,
        **kwargs: Any,
    ) -> asyncio.Future[Any]:
        """Queue ``sendMessage``. Resolves to the message (for split text: the last part, which
        carries ``reply_markup``) as a :class:`bot.telegram.results.LazyMessage` (``message_id``
        at once, anything else parsed on first read), or ``None`` if dropped. Plain group text
        may be merged with the queued send before it (``merge=False`` opts out); its future then
        resolves to the merged message. ``kwargs`` go to ``SendMessage`` (``parse_mode`` ...)."""
        chunks = split_text(text)
        future: asyncio.Future[Any] | None = None
        for index, chunk in enumerate(chunks):
            last = index == len(chunks) - 1
            future = self._enqueue_send(
                chat_id, chunk, reply_markup if last else None, merge, kwargs
            )
        assert future is not None
        return future

    def edit(
        self, chat_id: int, message_id: MessageRef, text: str, reply_markup: Any = None, **kwargs: Any
    ) -> asyncio.Future[Any]:
        """Queue ``editMessageText`` (text and keyboard; no keyboard removes it). Latest wins over a
        still-queued edit of the same message. Resolves to the message (a ``LazyMessage``) or
        ``None``."""
        queued = self._queued_edit(chat_id, message_id)
        if queued is not None:
            queued.kind, queued.text, queued.reply_markup, queued.kwargs = (
                "edit",
                text,
                reply_markup,
                kwargs,
            )
            self.stats.coalesced += 1
            return note(queued.future)
        return self._enqueue(
            Op(
                "edit",
                chat_id,
                self._future(),
                text=text,
                reply_markup=reply_markup,
                message_id=message_id,
                kwargs=kwargs,
            )
        )

    def edit_markup(
        self, chat_id: int, message_id: MessageRef, reply_markup: Any = None
    ) -> asyncio.Future[Any]:
        """Queue ``editMessageReplyMarkup``; folds into a queued edit of the same message."""
        queued = self._queued_edit(chat_id, message_id)
        if queued is not None:
            queued.reply_markup = reply_markup
            self.stats.coalesced += 1
            return note(queued.future)
        return self._enqueue(
            Op(
                "edit_markup",
                chat_id,
                self._future(),
                reply_markup=reply_markup,
                message_id=message_id,
            )
        )

    def delete(self, chat_id: int, message_id: MessageRef) -> asyncio.Future[Any]:
        """Queue ``deleteMessage``; queued edits of that message are dropped (resolve to None)."""
        lane = self._lanes.get(self._resolve(chat_id))
        if lane is not None:
            for op in [
                op
                for op in lane.queue
                if op.kind in EDITS and op.message_id == message_id
            ]:
                lane.queue.remove(op)
                resolve_future(op.future, None)
        return self._enqueue(Op("delete", chat_id, self._future(), message_id=message_id))

    def pin(
        self, chat_id: int, message_id: MessageRef, disable_notification: bool = True
    ) -> asyncio.Future[Any]:
        """Queue ``pinChatMessage`` (silent by default)."""
        kwargs = {"disable_notification": disable_notification}
        return self._enqueue(
            Op("pin", chat_id, self._future(), message_id=message_id, kwargs=kwargs)
        )

    def unpin(self, chat_id: int, message_id: int | None = None) -> asyncio.Future[Any]:
        """Queue ``unpinChatMessage`` (``None``: the most recent pinned message)."""
        return self._enqueue(Op("unpin", chat_id, self._future(), message_id=message_id))

    def send_document(
        self, chat_id: int, document: Any, caption: str | None = None, **kwargs: Any
    ) -> asyncio.Future[Any]:
        """Queue ``sendDocument`` (``document``: InputFile or file id); resolves to the Message."""
        markup = kwargs.pop("reply_markup", None)
        kwargs.update(document=document, caption=caption)
        return self._enqueue(
            Op("document", chat_id, self._future(), reply_markup=markup, kwargs=kwargs)
        )

    def call(self, method: TelegramMethod[Any], chat_id: int | None = None) -> asyncio.Future[Any]:
        """Route any other Bot API call (``RestrictChatMember``, ``SetMyCommands`` ...). With a chat
        (given or ``method.chat_id``) it is queued on that chat's lane, else it only takes a global
        token. Resolves to the method's result or ``None``."""
        if chat_id is None and isinstance(getattr(method, "chat_id", None), int):
            chat_id = method.chat_id  # type: ignore[attr-defined]
        if chat_id is None:
            return self._direct(method)
        return self._enqueue(Op("call", chat_id, self._future(), method=method))

    def answer(
        self,
        callback_query_id: str,
        text: str | None = None,
        show_alert: bool = False,
        **kwargs: Any,
    ) -> asyncio.Future[Any]:
        """Answer a callback query at once (no chat lane; global limiter only). A "query is too old"
        error is ignored. Resolves to ``True`` or ``None``."""
        return self._direct(
            AnswerCallbackQuery(
                callback_query_id=callback_query_id, text=text, show_alert=show_alert, **kwargs
            )
        )

    @property
    def idle(self) -> bool:
        """True when nothing is queued or running."""
        return not self._tasks and all(lane.task is None for lane in self._lanes.values())

    async def drain(self) -> None:
        """Wait until every lane is empty and every worker and callback task has finished."""
        while pending := self._pending():
            await asyncio.wait(pending)

    async def close(self, timeout: float | None = 10.0) -> None:
        """Stop accepting work, drain for up to ``timeout`` seconds, then cancel what is left
        (their futures resolve to ``None``). Does not close the bot's session."""
        self._closed = True
        try:
            await asyncio.wait_for(self.drain(), timeout)
        except TimeoutError:
            logger.warning("sender closed with work pending; dropping it")
        for lane in self._lanes.values():
            while lane.queue:
                resolve_future(lane.queue.popleft().future, None)
        pending = self._pending()
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
