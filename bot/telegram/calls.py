"""One Bot API call of the Sender, with its error policy (a mixin of :class:`bot.telegram.sender.Sender`).

Transient errors (5xx, network, timeouts, 429) are retried by the session middleware
:class:`bot.telegram.faults.FaultTolerance` under the policy set here per call; what reaches
:meth:`CallPolicy._perform` is final. It returns the call's result, ``None`` when the call was
dropped, or :data:`TRANSIENT` when it was dropped because Telegram stayed unavailable (the lane
then may replace a lost message, see :mod:`bot.telegram.sender`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from aiogram.exceptions import (
    TelegramAPIError,
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramRetryAfter,
)
from aiogram.methods import TelegramMethod

from bot.telegram.faults import (
    ANSWER_POLICY,
    RetryPolicy,
    current_policy,
    describe,
    is_transient,
    within_answer_window,
)
from bot.telegram.ops import resolve_future
from bot.telegram.state import SenderState

if TYPE_CHECKING:
    from bot.telegram.ops import Lane

logger = logging.getLogger("bot.telegram.sender")

_IGNORED = ("message is not modified", "query is too old", "query id is invalid")
_UNREACHABLE = ("chat not found", "peer_id_invalid", "have no rights to send")


class _Transient:
    def __repr__(self) -> str:
        return "TRANSIENT"


#: what :meth:`CallPolicy._perform` returns for a call dropped after transient errors
TRANSIENT: Any = _Transient()


class CallPolicy(SenderState):
    """Mixin: performing one call. Needs the Sender's ``bot``, ``stats``, ``limiter``, callbacks,
    ``max_tries``, ``retry_budget``, ``attempt_timeout``, ``_sleep``, ``_clock``, ``_future``,
    ``_closed``, ``_tasks``, ``_policies`` (a dict: the policies made so far)."""

    def _policy(self, method: TelegramMethod[Any]) -> RetryPolicy:
        """This Sender's policy for ``method``: answers get Telegram's short window."""
        if method.__api_method__ == "answerCallbackQuery":
            return within_answer_window(self._policy_within(short=True))
        return self._policy_within(short=False)

    def _handler_policy(self, method: TelegramMethod[Any]) -> RetryPolicy:
        """For calls made outside the Sender — a handler's ``getChatMember``, the press answers
        of ``CallbackAnswerMiddleware``: the short window too, as a press waits on them (an
        answer: until the press's window closes, :func:`bot.telegram.faults.within_answer_window`)."""
        if method.__api_method__ == "answerCallbackQuery":
            return within_answer_window(self._policy_within(short=True))
        return self._policy_within(short=True)

    async def _pace_outside(self, method: TelegramMethod[Any]) -> None:
        """A call made outside the Sender (a handler's reply, a deep link's DM) takes the
        limiter's tokens like the Sender's own, so every worker together stays within Telegram's
        limits; reads (``get*``) and press answers (``answer*``, which send no message) do not."""
        name = method.__api_method__
        if name.startswith(("get", "answer")):
            return
        chat_id = getattr(method, "chat_id", None)
        if isinstance(chat_id, int):
            await self.limiter.acquire(chat_id)
        else:
            await self.limiter.acquire_global()

    def _policy_within(self, *, short: bool) -> RetryPolicy:
        """The policy for a call (``short``: within a press answer's window). Made once per set
        of the Sender's settings and shared (it is frozen): building it took ~2 µs a call."""
        key = (short, self.max_tries, self.retry_budget, self.attempt_timeout, self._sleep,
               self._clock, self.limiter.retries_take_tokens)
        policy = self._policies.get(key)
        if policy is None:
            policy = self._policies[key] = self._make_policy(short)
        return policy

    def _make_policy(self, short: bool) -> RetryPolicy:
        return RetryPolicy(
            attempts=max(self.max_tries, ANSWER_POLICY.attempts) if short else self.max_tries,
            budget=min(self.retry_budget, ANSWER_POLICY.budget) if short else self.retry_budget,
            attempt_timeout=(min(self.attempt_timeout, ANSWER_POLICY.attempt_timeout) if short
                             else self.attempt_timeout),
            flood_in_budget=short,
            sleep=self._sleep,
            clock=self._clock,
            on_retry=self._on_retry,
            before_retry=self._before_retry if self.limiter.retries_take_tokens else None,
            max_delay=ANSWER_POLICY.max_delay if short else RetryPolicy.max_delay,
        )

    def _on_retry(self, method: TelegramMethod[Any], error: BaseException) -> None:
        self.stats.errors["retry_after" if isinstance(error, TelegramRetryAfter) else "network"] += 1
        chat_id = getattr(method, "chat_id", None)
        if isinstance(error, TelegramRetryAfter):  # every worker waits too (shared limiter)
            self._spawn(self.limiter.flood(chat_id if isinstance(chat_id, int) else None,
                                           float(error.retry_after)))
        self.stats.record(method.__api_method__, chat_id if isinstance(chat_id, int) else None,
                          self._clock())

    def _direct(self, method: TelegramMethod[Any]) -> asyncio.Future[Any]:
        """Perform ``method`` outside any lane (a global token only); resolves to its result or
        ``None``."""
        future = self._future()
        if self._closed:
            resolve_future(future, None)
            return future

        async def run() -> None:
            result = None
            try:
                result = await self._perform(method, None, acquired=False)
                result = None if result is TRANSIENT else result
            finally:  # also when cancelled by close(): nobody may wait forever
                resolve_future(future, result)

        self._spawn(run())
        return future

    def _spawn(self, coroutine: Awaitable[Any]) -> None:
        """Run ``coroutine`` as a task the Sender's ``drain`` and ``close`` wait for."""
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _perform(
        self, method: TelegramMethod[Any], lane: Lane | None, *, acquired: bool
    ) -> Any:
        name = method.__api_method__
        chat_id = getattr(method, "chat_id", None)
        tries = 0
        while True:
            tries += 1
            if not acquired:
                if lane is not None:  # after a migration: the new chat's budget
                    await self.limiter.acquire(chat_id if isinstance(chat_id, int) else lane.chat_id)
                else:
                    await self.limiter.acquire_global()
            acquired = False
            self.stats.record(name, chat_id if isinstance(chat_id, int) else None, self._clock())
            token = current_policy.set(self._policy(method))
            try:
                return await self.bot(method)
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
                self._since_migration.setdefault(new_chat_id, set())
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
            except TelegramAPIError as error:
                if is_transient(error):
                    self.stats.errors["retry_after" if isinstance(error, TelegramRetryAfter)
                                      else "network"] += 1
                    self._drop(name, chat_id, "Telegram unavailable", error)
                    return TRANSIENT
                self.stats.errors["api"] += 1
                return self._drop(name, chat_id, "api error", error)
            except Exception as error:  # a bug (bad arguments...) must not kill the lane
                self.stats.errors["exception"] += 1
                logger.error("%s to chat %s failed: %s", name, chat_id, self._redact(repr(error)))
                return None
            finally:
                current_policy.reset(token)

    async def _before_retry(self, method: TelegramMethod[Any]) -> None:
        """A retry is one more call to Telegram: with a shared limiter it takes tokens too."""
        chat_id = getattr(method, "chat_id", None)
        if isinstance(chat_id, int):
            await self.limiter.acquire(chat_id)
        else:
            await self.limiter.acquire_global()

    def _unreachable(self, name: str, chat_id: Any, error: TelegramAPIError) -> None:
        self.stats.errors["forbidden"] += 1
        logger.info("%s: chat %s unreachable: %s", name, chat_id, self._redact(error.message))
        if isinstance(chat_id, int) and chat_id > 0 and isinstance(error, TelegramForbiddenError):
            self.blocked.add(chat_id)  # nothing more until he is reachable again (issue 19)
            lane = self._lanes.get(chat_id)
            while lane is not None and lane.queue:
                resolve_future(lane.queue.popleft().future, None)
        if chat_id in self.left:
            return None  # reported once when the chat was marked as left
        if self.on_forbidden is not None and isinstance(chat_id, int):
            self._spawn(self._callback(self.on_forbidden, chat_id))
        return None

    def _drop(self, name: str, chat_id: Any, reason: str, error: BaseException) -> None:
        self.stats.errors["dropped"] += 1
        logger.warning("%s to chat %s dropped (%s): %s", name, chat_id, reason,
                       self._redact(describe(error)))
        return None

    async def _callback(self, callback: Callable[..., Awaitable[Any]], *args: Any) -> None:
        try:
            await callback(*args)
        except Exception:
            logger.exception("sender callback %r failed", getattr(callback, "__name__", callback))

    def _redact(self, text: str) -> str:
        token = self.bot.token
        return text.replace(token, "<token>") if token else text
