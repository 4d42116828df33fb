"""Sender: the one owner of outgoing Telegram Bot API calls.

Theory of operation
-------------------
Every call that writes to a chat goes through a per-chat FIFO *lane*: a deque of pending
operations and at most one worker task, created lazily and gone when the lane is empty. Lanes are
independent, so one slow or rate-limited chat never holds up another, and callers never wait for a
budget: ``send``/``edit``/... enqueue and return an ``asyncio.Future`` the caller *may* await for
the result (a ``Message``, ``True``, or ``None`` when the operation was dropped). Futures never
carry exceptions; failures are handled here, per recipient.

Before each attempt a worker takes one token from its chat's limiter and one from the global
limiter (aiolimiter leaky buckets, see :func:`bot.telegram_limits.window_limiter`); only then does
it pop the head of the lane, so while it waits, new work can still be folded into what is queued:

* edits of the same message coalesce, latest wins (``edit`` replaces a queued edit's text and
  keyboard, ``edit_markup`` replaces only the keyboard, ``delete`` discards queued edits);
* consecutive plain sends (no keyboard) to a group are merged into one message, joined by a blank
  line, while the result stays within 4096 characters; longer texts are split at line breaks.

Errors: a 429 sleeps ``retry_after`` seconds inside the lane (pausing only that chat) and retries,
up to ``max_tries`` attempts; 403 and "chat not found" call ``on_forbidden(chat_id)`` in a separate
task and drop the item; "message is not modified" and "query is too old" are ignored; a group
migration re-sends to the new supergroup and calls ``on_migrate(old, new)``; network and 5xx errors
back off and retry ``network_tries`` times; anything else is logged (token redacted) and dropped.

Callback query answers and calls without a chat skip the lanes but still take a global token.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiogram import Bot
from aiogram.exceptions import (
    TelegramAPIError,
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.methods import (
    AnswerCallbackQuery,
    DeleteMessage,
    EditMessageReplyMarkup,
    EditMessageText,
    PinChatMessage,
    SendDocument,
    SendMessage,
    TelegramMethod,
    UnpinChatMessage,
)
from aiogram.utils.backoff import Backoff, BackoffConfig
from aiolimiter import AsyncLimiter

from bot.telegram_limits import (
    GLOBAL_RATE,
    GROUP_RATE,
    MESSAGE_LIMIT,
    PRIVATE_RATE,
    Rate,
    SenderStats,
    split_text,
    utf16_len,
    window_limiter,
)

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

NETWORK_BACKOFF = BackoffConfig(min_delay=0.5, max_delay=8.0, factor=2.0, jitter=0.1)

OnForbidden = Callable[[int], Awaitable[Any]]
OnMigrate = Callable[[int, int], Awaitable[Any]]

_IGNORED = ("message is not modified", "query is too old", "query id is invalid")
_UNREACHABLE = ("chat not found", "peer_id_invalid", "have no rights to send")


class _Unresolved(Exception):
    """An edit/pin of a message whose own send was dropped."""


@dataclass(eq=False)
class _Op:
    kind: str  # send | edit | edit_markup | delete | pin | unpin | document | call
    chat_id: int
    future: asyncio.Future[Any]
    text: str | None = None
    reply_markup: Any = None
    message_id: int | asyncio.Future[Any] | None = None  # a Future: a message queued earlier
    kwargs: dict[str, Any] = field(default_factory=dict)
    method: TelegramMethod[Any] | None = None
    mergeable: bool = False

    def build(self, chat_id: int) -> TelegramMethod[Any]:
        kw = self.kwargs
        if isinstance(self.message_id, asyncio.Future):
            # The id of a message queued earlier in this same lane: FIFO order means its send
            # has finished by now; if it was dropped, so is this operation.
            sent = self.message_id.result() if self.message_id.done() else None
            if sent is None or not getattr(sent, "message_id", None):
                raise _Unresolved(self.kind)
            self.message_id = sent.message_id
        if self.kind == "send":
            return SendMessage(
                chat_id=chat_id, text=self.text, reply_markup=self.reply_markup, **kw
            )
        if self.kind == "edit":
            return EditMessageText(
                chat_id=chat_id,
                message_id=self.message_id,
                text=self.text,
                reply_markup=self.reply_markup,
                **kw,
            )
        if self.kind == "edit_markup":
            return EditMessageReplyMarkup(
                chat_id=chat_id, message_id=self.message_id, reply_markup=self.reply_markup
            )
        if self.kind == "delete":
            return DeleteMessage(chat_id=chat_id, message_id=self.message_id)
        if self.kind == "pin":
            return PinChatMessage(chat_id=chat_id, message_id=self.message_id, **kw)
        if self.kind == "unpin":
            return UnpinChatMessage(chat_id=chat_id, message_id=self.message_id)
        if self.kind == "document":
            return SendDocument(chat_id=chat_id, reply_markup=self.reply_markup, **kw)
        assert self.method is not None
        if getattr(self.method, "chat_id", None) not in (None, chat_id):
            return self.method.model_copy(update={"chat_id": chat_id})
        return self.method


@dataclass(eq=False)
class _Lane:
    chat_id: int
    limiter: AsyncLimiter
    queue: deque[_Op] = field(default_factory=deque)
    task: asyncio.Task[None] | None = None


class Sender:
    """Rate-limited, coalescing, error-absorbing queue of outgoing calls (see module docstring).

    Rates are ``(max_calls, window_seconds)``, defaults Telegram's limits; ``group_burst`` is how
    many group calls may go at once (default a quarter of the group rate, see ``window_limiter``).
    ``on_forbidden(chat_id)`` runs when a chat can no longer be written to (the user blocked the bot
    or never started it: positive id; the bot was kicked from a group: negative id);
    ``on_migrate(old_chat_id, new_chat_id)`` when a group became a supergroup. ``sleep`` and
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
        on_forbidden: OnForbidden | None = None,
        on_migrate: OnMigrate | None = None,
        max_tries: int = 5,
        network_tries: int = 3,
        merge_group_text: bool = True,
        stats_history: int = 100,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.bot = bot
        self.group_rate, self.private_rate, self.group_burst = group_rate, private_rate, group_burst
        self.on_forbidden, self.on_migrate = on_forbidden, on_migrate
        self.max_tries, self.network_tries = max_tries, network_tries
        self.merge_group_text = merge_group_text
        self.stats = SenderStats(history=stats_history)
        self._global = window_limiter(*global_rate)
        self._sleep, self._clock = sleep, clock
        self._lanes: dict[int, _Lane] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._migrated: dict[int, int] = {}
        self._closed = False

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
        """Queue ``sendMessage``. Resolves to the ``Message`` (for split text: the last part, which
        carries ``reply_markup``), or ``None`` if dropped. Plain group text may be merged with the
        queued send before it (``merge=False`` opts out); its future then resolves to the merged
        message. ``kwargs`` go to ``SendMessage`` (``disable_notification``, ``parse_mode`` ...)."""
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
        self, chat_id: int, message_id: int, text: str, reply_markup: Any = None, **kwargs: Any
    ) -> asyncio.Future[Any]:
        """Queue ``editMessageText`` (text and keyboard; no keyboard removes it). Latest wins over a
        still-queued edit of the same message. Resolves to the ``Message`` or ``None``."""
        queued = self._queued_edit(chat_id, message_id)
        if queued is not None:
            queued.kind, queued.text, queued.reply_markup, queued.kwargs = (
                "edit",
                text,
                reply_markup,
                kwargs,
            )
            self.stats.coalesced += 1
            return queued.future
        return self._enqueue(
            _Op(
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
        self, chat_id: int, message_id: int, reply_markup: Any = None
    ) -> asyncio.Future[Any]:
        """Queue ``editMessageReplyMarkup``; folds into a queued edit of the same message."""
        queued = self._queued_edit(chat_id, message_id)
        if queued is not None:
            queued.reply_markup = reply_markup
            self.stats.coalesced += 1
            return queued.future
        return self._enqueue(
            _Op(
                "edit_markup",
                chat_id,
                self._future(),
                reply_markup=reply_markup,
                message_id=message_id,
            )
        )

    def delete(self, chat_id: int, message_id: int) -> asyncio.Future[Any]:
        """Queue ``deleteMessage``; queued edits of that message are dropped (resolve to None)."""
        lane = self._lanes.get(self._resolve(chat_id))
        if lane is not None:
            for op in [
                op
                for op in lane.queue
                if op.kind in ("edit", "edit_markup") and op.message_id == message_id
            ]:
                lane.queue.remove(op)
                _resolve_future(op.future, None)
        return self._enqueue(_Op("delete", chat_id, self._future(), message_id=message_id))

    def pin(
        self, chat_id: int, message_id: int, disable_notification: bool = True
    ) -> asyncio.Future[Any]:
        """Queue ``pinChatMessage`` (silent by default)."""
        kwargs = {"disable_notification": disable_notification}
        return self._enqueue(
            _Op("pin", chat_id, self._future(), message_id=message_id, kwargs=kwargs)
        )

    def unpin(self, chat_id: int, message_id: int | None = None) -> asyncio.Future[Any]:
        """Queue ``unpinChatMessage`` (``None``: the most recent pinned message)."""
        return self._enqueue(_Op("unpin", chat_id, self._future(), message_id=message_id))

    def send_document(
        self, chat_id: int, document: Any, caption: str | None = None, **kwargs: Any
    ) -> asyncio.Future[Any]:
        """Queue ``sendDocument`` (``document``: InputFile or file id); resolves to the Message."""
        markup = kwargs.pop("reply_markup", None)
        kwargs.update(document=document, caption=caption)
        return self._enqueue(
            _Op("document", chat_id, self._future(), reply_markup=markup, kwargs=kwargs)
        )

    def call(self, method: TelegramMethod[Any], chat_id: int | None = None) -> asyncio.Future[Any]:
        """Route any other Bot API call (``RestrictChatMember``, ``SetMyCommands`` ...). With a chat
        (given or ``method.chat_id``) it is queued on that chat's lane, else it only takes a global
        token. Resolves to the method's result or ``None``."""
        if chat_id is None and isinstance(getattr(method, "chat_id", None), int):
            chat_id = method.chat_id  # type: ignore[attr-defined]
        if chat_id is None:
            return self._direct(method)
        return self._enqueue(_Op("call", chat_id, self._future(), method=method))

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
                _resolve_future(lane.queue.popleft().future, None)
        pending = self._pending()
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)

    # ------------------------------------------------------------------ queueing

    def _pending(self) -> list[asyncio.Task[Any]]:
        return [lane.task for lane in self._lanes.values() if lane.task] + list(self._tasks)

    def _future(self) -> asyncio.Future[Any]:
        return asyncio.get_running_loop().create_future()

    def _resolve(self, chat_id: int) -> int:
        return self._migrated.get(chat_id, chat_id)

    def _enqueue_send(
        self, chat_id: int, text: str, markup: Any, merge: bool, kwargs: dict[str, Any]
    ) -> asyncio.Future[Any]:
        chat_id = self._resolve(chat_id)
        mergeable = merge and self.merge_group_text and markup is None and chat_id < 0
        lane = self._lanes.get(chat_id)
        if mergeable and lane is not None and lane.queue:
            tail = lane.queue[-1]
            if tail.mergeable and tail.kwargs == kwargs:
                merged = f"{tail.text}\n\n{text}"
                if utf16_len(merged) <= MESSAGE_LIMIT:
                    tail.text = merged
                    self.stats.merged += 1
                    return tail.future
        op = _Op(
            "send",
            chat_id,
            self._future(),
            text=text,
            reply_markup=markup,
            kwargs=dict(kwargs),
            mergeable=mergeable,
        )
        return self._enqueue(op)

    def _queued_edit(self, chat_id: int, message_id: int) -> _Op | None:
        lane = self._lanes.get(self._resolve(chat_id))
        if lane is None:
            return None
        for op in lane.queue:
            if op.kind in ("edit", "edit_markup") and op.message_id == message_id:
                return op
        return None

    def _enqueue(self, op: _Op) -> asyncio.Future[Any]:
        if self._closed:
            logger.warning("sender is closed; dropping %s to chat %s", op.kind, op.chat_id)
            _resolve_future(op.future, None)
            return op.future
        op.chat_id = self._resolve(op.chat_id)
        lane = self._lanes.get(op.chat_id)
        if lane is None:
            rate = self.group_rate if op.chat_id < 0 else self.private_rate
            burst = self.group_burst if op.chat_id < 0 else None
            lane = self._lanes[op.chat_id] = _Lane(op.chat_id, window_limiter(*rate, burst=burst))
        lane.queue.append(op)
        if lane.task is None:
            lane.task = asyncio.get_running_loop().create_task(
                self._run_lane(lane), name=f"sender:{op.chat_id}"
            )
        return op.future

    def _direct(self, method: TelegramMethod[Any]) -> asyncio.Future[Any]:
        future = self._future()
        if self._closed:
            _resolve_future(future, None)
            return future

        async def run() -> None:
            result = None
            try:
                result = await self._perform(method, None, acquired=False)
            finally:  # also when cancelled by close(): nobody may wait forever
                _resolve_future(future, result)

        self._spawn(run())
        return future

    def _spawn(self, coroutine: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run_lane(self, lane: _Lane) -> None:
        op: _Op | None = None
        result = None
        try:
            while lane.queue:
                await lane.limiter.acquire()
                await self._global.acquire()
                if not lane.queue:
                    break
                op, result = lane.queue.popleft(), None
                try:
                    method = op.build(self._resolve(lane.chat_id))
                except _Unresolved:
                    logger.info("dropping %s in chat %s: its message was never sent", op.kind, lane.chat_id)
                except Exception:  # bad arguments from the caller must not stall the lane
                    logger.exception("cannot build %s for chat %s", op.kind, lane.chat_id)
                else:
                    result = await self._perform(method, lane, acquired=True)
                _resolve_future(op.future, result)
        finally:
            if op is not None:  # cancelled mid-call by close(): nobody may wait forever
                _resolve_future(op.future, result)
            lane.task = None
            # A drained bucket is equivalent to a fresh one: forget idle lanes to bound memory.
            if not lane.queue and lane.limiter.has_capacity(lane.limiter.max_rate):
                self._lanes.pop(lane.chat_id, None)

    # ------------------------------------------------------------------ one call, with error policy

    async def _perform(
        self, method: TelegramMethod[Any], lane: _Lane | None, *, acquired: bool
    ) -> Any:
        name = method.__api_method__
        chat_id = getattr(method, "chat_id", None)
        backoff = Backoff(NETWORK_BACKOFF)
        tries = network_failures = 0
        while True:
            tries += 1
            if not acquired:
                if lane is not None:
                    await lane.limiter.acquire()
                await self._global.acquire()
            acquired = False
            self.stats.record(name, chat_id if isinstance(chat_id, int) else None, self._clock())
            try:
                return await self.bot(method)
            except TelegramRetryAfter as error:
                self.stats.errors["retry_after"] += 1
                if tries >= self.max_tries:
                    return self._drop(name, chat_id, "still rate limited", error)
                logger.info("%s to chat %s: retry after %s s", name, chat_id, error.retry_after)
                await self._sleep(error.retry_after)
            except TelegramMigrateToChat as error:
                self.stats.errors["migrated"] += 1
                new_chat_id = error.migrate_to_chat_id
                if (
                    tries >= self.max_tries
                    or not isinstance(chat_id, int)
                    or new_chat_id == chat_id
                ):
                    return self._drop(name, chat_id, "migration loop", error)
                self._migrated[chat_id] = new_chat_id
                if self.on_migrate is not None:
                    self._spawn(self._callback(self.on_migrate, chat_id, new_chat_id))
                method = method.model_copy(update={"chat_id": new_chat_id})
                chat_id = new_chat_id
            except TelegramForbiddenError as error:
                return self._unreachable(name, chat_id, error)
            except TelegramBadRequest as error:
                text = error.message.lower()
                if any(marker in text for marker in _IGNORED):
                    self.stats.errors["ignored"] += 1
                    return None
                if any(marker in text for marker in _UNREACHABLE):
                    return self._unreachable(name, chat_id, error)
                self.stats.errors["bad_request"] += 1
                return self._drop(name, chat_id, "bad request", error)
            except (TelegramNetworkError, TelegramServerError) as error:
                self.stats.errors["network"] += 1
                network_failures += 1
                if network_failures >= self.network_tries:
                    return self._drop(name, chat_id, "network", error)
                await self._sleep(next(backoff))
            except TelegramAPIError as error:
                self.stats.errors["api"] += 1
                return self._drop(name, chat_id, "api error", error)
            except Exception as error:  # a bug (bad arguments...) must not kill the lane
                self.stats.errors["exception"] += 1
                logger.error("%s to chat %s failed: %s", name, chat_id, self._redact(repr(error)))
                return None

    def _unreachable(self, name: str, chat_id: Any, error: TelegramAPIError) -> None:
        self.stats.errors["forbidden"] += 1
        logger.info("%s: chat %s unreachable: %s", name, chat_id, self._redact(error.message))
        if self.on_forbidden is not None and isinstance(chat_id, int):
            self._spawn(self._callback(self.on_forbidden, chat_id))
        return None

    def _drop(self, name: str, chat_id: Any, reason: str, error: BaseException) -> None:
        self.stats.errors["dropped"] += 1
        logger.warning(
            "%s to chat %s dropped (%s): %s", name, chat_id, reason, self._redact(str(error))
        )
        return None

    async def _callback(self, callback: Callable[..., Awaitable[Any]], *args: Any) -> None:
        try:
            await callback(*args)
        except Exception:
            logger.exception("sender callback %r failed", getattr(callback, "__name__", callback))

    def _redact(self, text: str) -> str:
        token = self.bot.token
        return text.replace(token, "<token>") if token else text


def _resolve_future(future: asyncio.Future[Any], result: Any) -> None:
    if not future.done():
        future.set_result(result)
