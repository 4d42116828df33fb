"""Talking to Telegram when it misbehaves: one session middleware for every Bot API call.

:class:`FaultTolerance` is an aiogram request middleware (``bot.session.middleware(...)``), so it
wraps every call the bot makes — the Sender's lanes, ``CallbackAnswerMiddleware``'s answers, a
handler's ``getChatMember`` — in one policy (docs/architecture.md, "Talking to Telegram when it
misbehaves"):

* a body that is not JSON (an HTML "502 Bad Gateway" page from a proxy) becomes a
  ``TelegramServerError`` instead of aiogram's ``ClientDecodeError``;
* each attempt is bounded by ``RetryPolicy.attempt_timeout`` seconds (a hanging request becomes a
  ``TelegramNetworkError``); ``getUpdates`` keeps its own long-poll timeout, and is retried for at
  most 10 s before aiogram's poller (which logs an error and backs off) sees the failure;
* transient errors — 5xx, network errors, timeouts, 429 — are retried with exponential backoff
  (429: after ``retry_after``) until ``RetryPolicy.attempts`` attempts or ``RetryPolicy.budget``
  seconds in all are used up; then the last error is raised (callers log one warning line);
* a group the bot has left (:class:`LeftChats`) is never called again: a call to it raises
  ``TelegramForbiddenError`` at once, without a request, and a 403 "bot was kicked" from any call
  marks the group as left;
* a private chat's attempts go one at a time, each at least a second after the previous one
  ended (:class:`bot.telegram.spacing.PrivateSpacing`: Telegram counts a call when it arrives).

The policy of one call comes from :data:`current_policy` (a context variable the Sender sets for
its own calls) or else ``FaultTolerance.policy_for(method)`` (the Sender installs its own
settings there too; :func:`default_policy` until then).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.exceptions import (
    ClientDecodeError,
    TelegramForbiddenError,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.methods import GetUpdates, TelegramMethod
from aiogram.utils.backoff import Backoff, BackoffConfig

from bot.telegram.spacing import PrivateSpacing
from bot.telegram.update_context import current_update

if TYPE_CHECKING:
    from aiogram import Bot
    from aiogram.client.session.base import BaseSession

logger = logging.getLogger(__name__)

BACKOFF = BackoffConfig(min_delay=0.5, max_delay=8.0, factor=2.0, jitter=0.1)

#: markers of a 403 that means "the bot is no longer in this group"
LEFT_MARKERS = ("bot was kicked", "bot is not a member", "bot was removed")
#: Bot API methods that create something: a retry after an ambiguous failure may duplicate it
CREATING_PREFIXES = ("send", "forward", "copy", "create")


@dataclass(frozen=True)
class RetryPolicy:
    """How hard one call tries. Seconds throughout.

    ``attempts``: at most this many requests; ``budget``: no retry starts (and no wait is begun)
    that would end later than this many seconds after the first attempt; ``attempt_timeout``: one
    request's limit; ``resend_ambiguous``: whether a creating call (``send*``...) is retried after
    a failure that may have happened after Telegram acted (a timeout, a dropped connection) —
    such a retry may duplicate the message. ``sleep`` and ``clock`` are injectable for tests.
    """

    attempts: int = 6
    budget: float = 40.0
    attempt_timeout: float = 10.0
    resend_ambiguous: bool = True
    #: whether waits for ``retry_after`` (429) count against ``budget``; a Sender lane paused by
    #: flood control waits as long as Telegram says (``attempts`` still bounds it)
    flood_in_budget: bool = True
    sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep
    clock: Callable[[], float] = time.monotonic
    #: called as ``on_retry(method, error)`` before each retry (the Sender counts them)
    on_retry: Callable[[TelegramMethod[Any], BaseException], Any] | None = None
    #: awaited as ``before_retry(method)`` after the wait, just before each retry (a Sender with
    #: a shared limiter takes rate-limit tokens there); its time does not count against ``budget``
    before_retry: Callable[[TelegramMethod[Any]], Awaitable[Any]] | None = None
    #: the longest backoff between two attempts, seconds (an answer's window is short)
    max_delay: float = 8.0


#: seconds Telegram accepts a callback query's answer after the press ("query is too old" after)
ANSWER_WINDOW = 15.0
#: seconds of that window left unused: the update's way to the bot, the answer's way back
ANSWER_MARGIN = 2.0
#: answers are retried as often as the window allows (issue 19: bounded by the window, not by a
#: count); ``budget``: when the press's arrival is unknown, seconds from the first attempt
ANSWER_POLICY = RetryPolicy(attempts=1000, budget=ANSWER_WINDOW - ANSWER_MARGIN,
                            attempt_timeout=4.0, max_delay=1.5)
DEFAULT_POLICY = RetryPolicy()

#: the policy of the call being made in this context (the Sender sets it for its lanes)
current_policy: ContextVar[RetryPolicy | None] = ContextVar("telegram_retry_policy", default=None)


def default_policy(method: TelegramMethod[Any]) -> RetryPolicy:
    """The policy for a call nobody chose one for: answers get a short budget."""
    if method.__api_method__ == "answerCallbackQuery":
        return within_answer_window(ANSWER_POLICY)
    return DEFAULT_POLICY


def within_answer_window(policy: RetryPolicy) -> RetryPolicy:
    """``policy`` for the answer to the press being handled: no retry starts later than
    :data:`ANSWER_WINDOW` - :data:`ANSWER_MARGIN` seconds after the update arrived
    (``UpdateTag.received``); ``policy`` itself outside an update's handling."""
    tag = current_update()
    if tag is None:
        return policy
    left = ANSWER_WINDOW - ANSWER_MARGIN - (time.monotonic() - tag.received)
    return replace(policy, budget=max(0.0, min(policy.budget, left)))


def is_transient(error: BaseException) -> bool:
    """True for errors worth retrying: 5xx, network errors and timeouts, 429."""
    return isinstance(error, TelegramServerError | TelegramNetworkError | TelegramRetryAfter)


def is_ambiguous(error: BaseException) -> bool:
    """True when Telegram may have acted although no answer came: a timeout or a connection lost
    after the request was written. A refused connection or a 5xx/429 answer is not ambiguous."""
    if not isinstance(error, TelegramNetworkError):
        return False
    cause = error.__cause__
    name = type(cause).__name__ if cause is not None else ""
    return name not in ("ClientConnectorError", "ClientConnectorDNSError",
                        "ClientConnectorCertificateError", "ConnectionRefusedError")


def creates(method: TelegramMethod[Any]) -> bool:
    """True for calls whose repetition makes a second object (a second message)."""
    return method.__api_method__.startswith(CREATING_PREFIXES)


def describe(error: BaseException) -> str:
    """One short line for a log: the class and the first line of the message."""
    text = getattr(error, "message", None) or str(error)
    return f"{type(error).__name__}: {str(text).splitlines()[0] if text else ''}"


class LeftChats:
    """Groups the bot has left (kicked, removed, or it left): nothing more is sent there.

    ``on_left(chat_id)`` callbacks run (as tasks) the first time a group is marked; a group is
    forgotten again by :meth:`rejoined` (the bot was added back).
    """

    def __init__(self) -> None:
        self._chats: set[int] = set()
        self.listeners: list[Callable[[int], Any]] = []

    def __contains__(self, chat_id: object) -> bool:
        return chat_id in self._chats

    def mark(self, chat_id: int) -> bool:
        """Remember that the bot is not in ``chat_id``; True if that is news."""
        if chat_id in self._chats or chat_id >= 0:
            return False
        self._chats.add(chat_id)
        logger.info("left chat %s: nothing more is sent there", chat_id)
        for listener in self.listeners:
            listener(chat_id)
        return True

    def rejoined(self, chat_id: int) -> None:
        self._chats.discard(chat_id)


class BlockedUsers:
    """Users whose private chat answered 403 (the bot was blocked, never started, the account is
    gone): nothing more is sent to them until they are reachable again (:meth:`reachable`: he
    pressed a button, wrote to the bot, or unblocked it). At most ``limit`` are remembered, the
    oldest forgotten first (one more 403 each, then)."""

    def __init__(self, limit: int = 100_000) -> None:
        self._users: dict[int, None] = {}
        self.limit = limit

    def __contains__(self, user_id: object) -> bool:
        return user_id in self._users

    def __len__(self) -> int:
        return len(self._users)

    def add(self, user_id: int) -> None:
        if user_id not in self._users:
            logger.info("user %s is unreachable: no private message until he is back", user_id)
        self._users[user_id] = None
        while len(self._users) > self.limit:
            del self._users[next(iter(self._users))]

    def reachable(self, user_id: int) -> None:
        """``user_id`` was heard from: his private chat is written to again."""
        if self._users.pop(user_id, 0) is None:
            logger.info("user %s is reachable again", user_id)


def left_error(method: TelegramMethod[Any], chat_id: int) -> TelegramForbiddenError:
    return TelegramForbiddenError(
        method=method, message=f"Forbidden: bot is not a member of chat {chat_id} (known)")


class FaultTolerance(BaseRequestMiddleware):
    """The request middleware described in the module docstring. ``left``: the shared
    :class:`LeftChats` (a fresh one if omitted); ``policy_for(method)``: the policy of a call
    made outside a :data:`current_policy` context (the Sender sets its own here)."""

    def __init__(self, left: LeftChats | None = None,
                 policy_for: Callable[[TelegramMethod[Any]], RetryPolicy] = default_policy
                 ) -> None:
        self.left = left if left is not None else LeftChats()
        self.policy_for = policy_for
        #: ``await pace(method)`` before a call made outside the Sender (a handler's own reply):
        #: it takes the limiter's tokens, so those calls count against Telegram's limits too
        self.pace: Callable[[TelegramMethod[Any]], Awaitable[None]] | None = None
        #: every attempt to a private chat spaced from the end of the one before (issue 19)
        self.spacing = PrivateSpacing()

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[Any],
        bot: Bot,
        method: TelegramMethod[Any],
    ) -> Any:
        chat_id = getattr(method, "chat_id", None)
        if isinstance(chat_id, int) and chat_id in self.left:
            raise left_error(method, chat_id)
        policy = current_policy.get()
        if policy is None:
            policy = self.policy_for(method)
            if self.pace is not None:
                await self.pace(method)
        timeout: float | None = policy.attempt_timeout
        if isinstance(method, GetUpdates):  # a long poll: its own timeout, a short budget
            policy, timeout = replace(policy, budget=min(policy.budget, 10.0)), None
        backoff = Backoff(BACKOFF if policy.max_delay >= BACKOFF.max_delay else
                          replace(BACKOFF, max_delay=max(BACKOFF.min_delay, policy.max_delay)))
        started = policy.clock()
        attempt, flood_waits = 0, 0.0
        while True:
            attempt += 1
            try:
                async with self.spacing.turn(method.__api_method__, chat_id):
                    return await self._once(make_request, bot, method, timeout)
            except TelegramForbiddenError as error:
                if isinstance(chat_id, int) and chat_id < 0 and any(
                        marker in error.message.lower() for marker in LEFT_MARKERS):
                    self.left.mark(chat_id)
                raise
            except (TelegramServerError, TelegramNetworkError, TelegramRetryAfter) as error:
                if is_ambiguous(error) and creates(method) and not policy.resend_ambiguous:
                    raise
                delay = (float(error.retry_after) if isinstance(error, TelegramRetryAfter)
                         else max(0.0, next(backoff)))
                flood = isinstance(error, TelegramRetryAfter)
                uncounted = 0.0 if policy.flood_in_budget else flood_waits
                counted = 0.0 if flood and not policy.flood_in_budget else delay
                spent = policy.clock() - started - uncounted
                if attempt >= policy.attempts or spent + counted > policy.budget:
                    raise
                logger.info("%s to chat %s: %s; retry %d in %.1f s", method.__api_method__,
                            chat_id, describe(error), attempt, delay)
                if policy.on_retry is not None:
                    policy.on_retry(method, error)
                await policy.sleep(delay)
                if flood:
                    flood_waits += delay
                if policy.before_retry is not None:
                    waited = policy.clock()
                    await policy.before_retry(method)
                    started += policy.clock() - waited
                if isinstance(chat_id, int) and chat_id in self.left:
                    raise left_error(method, chat_id) from error

    @staticmethod
    async def _once(make_request: NextRequestMiddlewareType[Any], bot: Bot,
                    method: TelegramMethod[Any], timeout: float | None) -> Any:
        try:
            async with asyncio.timeout(timeout):  # no extra task: call order is kept
                return await make_request(bot, method)
        except TimeoutError as error:
            raise TelegramNetworkError(method=method, message="Request timeout error") from error
        except ClientDecodeError as error:
            if isinstance(error.data, str | bytes):  # not JSON at all: a proxy's error page
                raise TelegramServerError(
                    method=method, message="Bad Gateway: the answer was not JSON") from error
            raise


def install(session: BaseSession, left: LeftChats | None = None) -> FaultTolerance:
    """Add :class:`FaultTolerance` to ``session`` once and return it (an existing one is kept;
    ``left`` replaces its :class:`LeftChats` when given)."""
    for index in range(len(session.middleware)):
        middleware = session.middleware[index]
        if isinstance(middleware, FaultTolerance):
            if left is not None:
                middleware.left = left
            return middleware
    middleware = FaultTolerance(left)
    session.middleware(middleware)
    return middleware
