"""An in-process stand-in for the Telegram Bot API, plugged into aiogram as a session.

``RecordingSession`` subclasses aiogram's ``BaseSession``. Every API call a ``Bot`` makes is
recorded in ``session.calls`` and answered with a plausible fabricated result, which is parsed
through ``BaseSession.check_response`` exactly as a real HTTP answer would be. Results are therefore
real aiogram objects bound to the bot: ``(await bot.send_message(...)).edit_text(...)`` works.

Errors are injected with :meth:`RecordingSession.fail`; they are also produced by
``check_response``, so tests see the same exception classes production code sees
(``TelegramForbiddenError``, ``TelegramRetryAfter``, ``TelegramMigrateToChat``, ...).

Incoming updates are built with :class:`tests.fakes.updates.Updates`.

Shapes::

    session = RecordingSession()
    bot = make_bot(session)                # token "123456:TEST-TOKEN-NOT-REAL", HTML parse mode
    session.fail("sendMessage", chat_id=42, error_code=403)
    session.calls.calls_to("sendMessage")       # -> list[Call]
    session.calls.texts_in(-100)                # -> list[str] (texts as sent, HTML included)
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import AsyncGenerator
from typing import TYPE_CHECKING, Any, cast

from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.base import BaseSession
from aiogram.enums import ParseMode
from aiogram.exceptions import TelegramNetworkError
from aiogram.methods import TelegramMethod
from aiogram.methods.base import TelegramType

from tests.fakes.calls import Call, CallLog, FailRule, error_payload
from tests.fakes.results import FakeResults, IdCounter
from tests.fakes.telegram import (
    BOT_FIRST_NAME,
    BOT_USERNAME,
    DEFAULT_DESCRIPTIONS,
    MIGRATED,
    TEST_TOKEN,
    EntityError,
    member_dict,
)

if TYPE_CHECKING:
    from tests.fakes.updates import FakeUser


def network_error(method: TelegramMethod[Any], kind: bool | str) -> TelegramNetworkError:
    """The ``TelegramNetworkError`` aiogram's aiohttp session raises, with the aiohttp cause."""
    import aiohttp
    from aiohttp.client_reqrep import ConnectionKey

    if kind == "dropped":
        cause: Exception = aiohttp.ServerDisconnectedError("Server disconnected")
    elif kind == "refused":
        key = ConnectionKey(host="api.telegram.org", port=443, is_ssl=True, ssl=True, proxy=None,
                            proxy_auth=None, proxy_headers_hash=None)
        cause = aiohttp.ClientConnectorError(key, ConnectionRefusedError(111, "refused"))
    else:
        cause = TimeoutError()
        error = TelegramNetworkError(method=method, message="Request timeout error")
        error.__cause__ = cause
        return error
    error = TelegramNetworkError(method=method, message=f"{type(cause).__name__}: {cause}")
    error.__cause__ = cause
    return error


def make_bot(session: BaseSession, token: str = TEST_TOKEN) -> Bot:
    """A ``Bot`` on ``session`` with HTML as the default parse mode and an obviously fake token."""
    bot = Bot(token=token, session=session, default=DefaultBotProperties(parse_mode=ParseMode.HTML))
    if isinstance(session, RecordingSession):
        session.bot_id = bot.id
    return bot


class RecordingSession(FakeResults):
    """aiogram session that records calls and fabricates Bot API results in process (the
    results: :class:`tests.fakes.results.FakeResults`).

    Attributes worth touching in tests:
      ``calls`` (:class:`CallLog`), ``messages`` (current state of messages the bot sent, keyed by
      ``(chat_id, message_id)``, JSON-shaped dicts), ``chat_types`` / ``chat_titles`` (overrides),
      ``latency`` (seconds added to every call) and :meth:`set_latency` per chat, ``strict_edits``
      (editing a known message to identical content raises "message is not modified", as
      Telegram does),
      ``strict_html`` (malformed HTML raises "can't parse entities", as Telegram does).
    """

    def __init__(
        self,
        *,
        bot_username: str = BOT_USERNAME,
        bot_first_name: str = BOT_FIRST_NAME,
        latency: float = 0.0,
        strict_edits: bool = True,
        strict_html: bool = True,
    ) -> None:
        super().__init__()
        self.bot_username = bot_username
        self.bot_first_name = bot_first_name
        self.latency = latency
        self.strict_edits = strict_edits
        self.strict_html = strict_html
        self.calls = CallLog()
        self.messages: dict[tuple[int | str, int], dict[str, Any]] = {}
        self.chat_types: dict[int, str] = {}
        self.chat_titles: dict[int, str] = {}
        self.users: dict[int, dict[str, Any]] = {}
        self.members: dict[tuple[int | str, int], dict[str, Any]] = {}
        self.downloads: dict[str, bytes] = {}
        self.closed = False
        self._rules: list[FailRule] = []
        self._latency_by_chat: dict[int | str, float] = {}
        self._message_ids = IdCounter()
        self._file_ids = itertools.count(1)
        #: file id -> the bytes of every photo uploaded (sendPhoto, editMessageMedia)
        self.photos: dict[str, bytes] = {}
        self.bot_id: int = int(TEST_TOKEN.split(":", 1)[0])

    # ----------------------------------------------------------------- configuration for tests

    def fail(
        self,
        method: str | None = "sendMessage",
        chat_id: int | str | None = None,
        error_code: int = 400,
        description: str | None = None,
        times: int | None = 1,
        retry_after: int | None = None,
        migrate_to_chat_id: int | None = None,
        network: bool | str = False,
        body: str | None = None,
        hang: float = 0.0,
    ) -> FailRule:
        """Make matching calls fail.

        ``method`` is the Bot API name (``"sendMessage"``; ``None`` = any), ``chat_id`` ``None`` =
        any chat, ``times`` how many calls fail (``None`` = forever). ``retry_after`` (seconds)
        makes a 429
        (``TelegramRetryAfter``); ``migrate_to_chat_id`` a ``TelegramMigrateToChat``; ``network``
        raises ``TelegramNetworkError`` as aiohttp does: ``True``/``"timeout"`` a request timeout,
        ``"dropped"`` a connection lost after the request was written (``ServerDisconnectedError``:
        Telegram may have acted), ``"refused"`` a connection never made (``ClientConnectorError``).
        ``body`` answers ``error_code`` with that raw text instead of JSON (an HTML 502 page from a
        proxy: aiogram raises ``ClientDecodeError``). ``hang`` (seconds) delays the failure (a
        hanging request). Rules are checked in the order added.
        """
        if retry_after is not None:
            error_code = 429
        if description is None:
            if migrate_to_chat_id is not None:
                description = MIGRATED
            else:
                template = DEFAULT_DESCRIPTIONS.get(error_code, "Error")
                description = template.format(retry_after=retry_after)
        rule = FailRule(
            method=method,
            chat_id=chat_id,
            error_code=error_code,
            description=description,
            remaining=times,
            retry_after=retry_after,
            migrate_to_chat_id=migrate_to_chat_id,
            network=network,
            body=body,
            hang=hang,
        )
        self._rules.append(rule)
        return rule

    def clear_failures(self) -> None:
        self._rules.clear()

    def set_latency(self, chat_id: int | str, seconds: float) -> None:
        """Delay every call to ``chat_id`` by ``seconds`` (simulates a slow chat)."""
        self._latency_by_chat[chat_id] = seconds

    def register_user(self, user: FakeUser) -> None:
        """Remember a user so private chats and chat members get their names."""
        self.users[user.id] = user.as_dict()

    def set_member(
        self, chat_id: int, user_id: int, status: str = "administrator", **fields: Any
    ) -> None:
        """Make ``getChatMember(chat_id, user_id)`` answer with ``status`` (``creator``,
        ``administrator``, ``member``, ``restricted``, ``left``, ``kicked``); ``fields`` override
        the rights (e.g. ``can_delete_messages=False``)."""
        self.members[(chat_id, user_id)] = member_dict(self._user_dict(user_id), status, **fields)

    def message(self, chat_id: int | str, message_id: int) -> dict[str, Any] | None:
        """Current JSON-shaped state of a message the bot sent (``None`` if unknown/deleted)."""
        return self.messages.get((chat_id, message_id))

    def clear(self) -> None:
        """Forget recorded calls (messages and configuration stay)."""
        self.calls.clear()

    # ----------------------------------------------------------------- BaseSession interface

    async def close(self) -> None:
        self.closed = True

    async def stream_content(
        self,
        url: str,
        headers: dict[str, Any] | None = None,
        timeout: int = 30,
        chunk_size: int = 65536,
        raise_for_status: bool = True,
    ) -> AsyncGenerator[bytes, None]:
        """Yield bytes registered in ``self.downloads`` for a URL ending with the key."""
        for suffix, content in self.downloads.items():
            if url.endswith(suffix):
                for start in range(0, len(content), chunk_size):
                    yield content[start : start + chunk_size]
                return
        raise FileNotFoundError("no fake download registered for this file path")

    async def make_request(
        self,
        bot: Bot,
        method: TelegramMethod[TelegramType],
        timeout: int | None = None,
    ) -> TelegramType:
        name = method.__api_method__
        chat_id = getattr(method, "chat_id", None)
        loop = asyncio.get_running_loop()
        call = Call(
            method=name,
            request=method,
            chat_id=chat_id,
            text=getattr(method, "text", None) or getattr(method, "caption", None),
            reply_markup=getattr(method, "reply_markup", None),
            message_id=getattr(method, "message_id", None),
            time=loop.time(),
        )
        self.calls.append(call)
        self.bot_id = bot.id

        delay = (
            self._latency_by_chat.get(chat_id, self.latency)
            if chat_id is not None
            else self.latency
        )
        if delay > 0:
            await asyncio.sleep(delay)

        try:
            status, payload = self._answer(bot, method, name, chat_id)
            if isinstance(payload, FailRule):  # a hang, then a raw body
                if payload.hang:
                    await asyncio.sleep(payload.hang)
                assert payload.body is not None  # _answer sets the body of a rule it returns
                status, content = payload.error_code, payload.body
            else:
                content = json.dumps(payload)
            response = self.check_response(
                bot=bot, method=method, status_code=status, content=content
            )
        except BaseException as error:
            call.error = error
            raise
        call.result = response.result
        # an ok answer carries its result (aiogram's own sessions cast it the same way)
        return cast(TelegramType, response.result)

    # ----------------------------------------------------------------- fabrication

    def _answer(
        self, bot: Bot, method: TelegramMethod[Any], name: str, chat_id: Any
    ) -> tuple[int, dict[str, Any] | FailRule]:
        """``(status, the JSON answer)``, or ``(status, the rule)`` of a failure with a raw body or
        a hang; raises the network error of a ``network`` rule."""
        for rule in self._rules:
            if rule.matches(name, chat_id):
                if rule.remaining is not None:
                    rule.remaining -= 1
                rule.hits += 1
                if rule.network:
                    raise network_error(method, rule.network)
                if rule.body is not None or rule.hang:
                    if rule.body is None:
                        rule.body = json.dumps(error_payload(rule))
                    return rule.error_code, rule
                return rule.error_code, error_payload(rule)

        handler = getattr(self, f"_result_{name}", None)
        if handler is not None:
            try:
                outcome = handler(bot, method)
            except EntityError as error:
                return 400, {"ok": False, "error_code": 400, "description": str(error)}
            if isinstance(outcome, FailRule):
                return outcome.error_code, error_payload(outcome)
            return 200, {"ok": True, "result": outcome}
        # answerCallbackQuery, deleteMessage, pinChatMessage, setMyCommands, restrictChatMember, ...
        return 200, {"ok": True, "result": True}
