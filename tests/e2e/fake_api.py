"""A stand-in Telegram Bot API server for end-to-end tests.

Theory of operation
-------------------
The bot under test runs as a separate process with ``TELEGRAM_API_URL`` pointing here and talks
HTTP exactly as it would to api.telegram.org (aiogram's AiohttpSession posts form data; JSON
bodies and GET queries work too).  The test drives the other side in-process, in the event loop
that runs this server: ``api.user(...)`` returns a SimUser whose actions (``start``, ``say``,
``press``, ...) become updates queued for ``getUpdates``; observers (``messages``,
``last_message``, ``find_button``, ``wait_for``) read what the bot did.

The model is small but keeps Telegram's rules the bot relies on: private chats exist only after
the user started the bot (else 403), blocking, group membership and admin rights, privacy mode,
HTML parse errors, "message is not modified", 64-byte callback data, 409 for concurrent polling,
webhook delivery instead of getUpdates once the bot called setWebhook (``webhooks``: retries,
spreading over several worker processes, duplicated deliveries), counters of the busiest group
minute and bot second (``rates``),
photos sent and edited as multipart uploads (``media_api``: the picture kept per message and per
edit, "not enough rights to send photos to the chat" without the media right), and injected
faults (``fail_next``: an error or a dropped connection for the next calls of a method), random
faults on every method (``inject_faults``: 500, 502 with an HTML body, 429, a dropped connection
before or after the method acted, a hanging request) or opt-in flood control
(``enable_flood_control``) for 429s; calls held in flight until the test releases them
(``holds``: ``api.hold(method, chat_id=...)``); each call names the bot process that made it when
its ``TELEGRAM_API_URL`` was ``<base>/w/<name>`` (``Call.worker``).
Every answer is ``{"ok": true, "result": ...}`` or ``{"ok": false, "error_code": N,
"description": ..., "parameters": {...}}`` with HTTP status N.  Times are in seconds.

    api = FakeBotAPI()
    base_url = await api.start()            # give the bot TELEGRAM_API_URL=base_url
    alice = api.user(1001, "Alice")
    api.group(-1001234, "Mafia night", members=[alice], admins=[alice])
    await alice.start()
    await api.wait_for_message(1001, containing="Welcome")
    await api.stop()
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from aiohttp import web

from . import chats_api, media_api, messages_api  # noqa: F401 - registers the Bot API methods
from .faults import FAULT_KINDS, RandomFaultsMixin
from .holds import HoldsMixin
from .model import (
    BOT_FIRST_NAME,
    BOT_USERNAME,
    Call,
    ChatState,
    Member,
    StoredMessage,
    full_rights,
)
from .protocol import METHODS, ApiError, Params, UploadedFile
from .rates import RateCountersMixin
from .updates import UpdatesMixin
from .users import SimUser
from .webhooks import WebhookMixin

T = TypeVar("T")
__all__ = ["FAULT_KINDS", "FakeBotAPI"]
_FAULT_DESCRIPTIONS = {400: "Bad Request: injected failure", 403: "Forbidden: injected failure",
                       404: "Not Found", 409: "Conflict: injected failure", 500: "Internal Server Error",
                       502: "Bad Gateway"}


@dataclass
class _Fault:
    method: str
    chat_id: str | None
    error: ApiError
    times: int
    drop: str | None = None  # "drop" | "drop_after": close the connection instead of answering


class FakeBotAPI(RandomFaultsMixin, UpdatesMixin, WebhookMixin, RateCountersMixin, HoldsMixin):
    """The stand-in server plus its test-side control and observation API (one event loop).

    ``token`` is the only token accepted (others get 401); the bot's user id is its numeric prefix.
    ``privacy_mode``: in groups where the bot is not an administrator, plain texts that are neither
    commands nor replies to the bot are stored but not delivered.
    """

    def __init__(self, token: str = "123456:TEST", *, username: str = BOT_USERNAME,
                 first_name: str = BOT_FIRST_NAME, privacy_mode: bool = True) -> None:
        self.token = token
        self.bot_id = int(token.split(":", 1)[0])
        self.bot_user: dict[str, Any] = {"id": self.bot_id, "is_bot": True, "first_name": first_name,
                                         "username": username}
        self.privacy_mode = privacy_mode
        self.users: dict[int, SimUser] = {}
        self.chats: dict[int, ChatState] = {}
        self.calls: list[Call] = []
        """Every request but getUpdates, in arrival order."""
        self.poll_count = 0
        self.long_poll_count = 0
        """getUpdates calls with a timeout (long polls), see chats_api.get_updates."""
        self.commands: dict[tuple[str, str], list[dict[str, str]]] = {}
        self.settings: dict[tuple[str, str], Any] = {}
        self.files: dict[str, UploadedFile] = {}
        self.flood_limits: dict[str, float] | None = None
        self.flood_log: dict[tuple[Any, ...], list[float]] = {}
        self.changed = asyncio.Condition()
        """Notified on every bot call and every queued update; see wait_for."""
        self.closing = False
        self._faults: list[_Fault] = []
        RandomFaultsMixin.__init__(self)
        self._last_call_at = 0.0
        self._runner: web.AppRunner | None = None
        self.base_url: str | None = None
        UpdatesMixin.__init__(self)
        WebhookMixin.__init__(self)
        HoldsMixin.__init__(self)

    # --- server ----------------------------------------------------------------------------------

    async def start(self, port: int = 0, host: str = "127.0.0.1") -> str:
        """Serve on ``host:port`` (0 picks a free port); returns the base URL, e.g. http://127.0.0.1:40123."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        # a bot process told TELEGRAM_API_URL=<base>/w/<name>: its calls carry that worker name
        app.router.add_route("*", "/w/{worker}/bot{token}/{method}", self._handle)
        self._runner = web.AppRunner(app, handler_cancellation=True, shutdown_timeout=1.0, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        bound_host, bound_port = self._runner.addresses[0][:2]
        self.base_url = f"http://{bound_host}:{bound_port}"
        return self.base_url

    async def stop(self) -> None:
        """End pending long polls (they answer ``[]``) and close the server."""
        self.closing = True
        await self.notify()
        for waiter in self.callback_waiters.values():
            if not waiter.done():
                waiter.cancel()
        await self.stop_webhook_delivery()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeBotAPI:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        method = request.match_info["method"]
        if request.match_info["token"] != self.token:
            return web.json_response({"ok": False, "error_code": 401, "description": "Unauthorized"},
                                     status=401)
        try:
            params = await self._read_params(request)
        except ValueError:
            error = ApiError(400, "Bad Request: can't parse request body")
            return web.json_response(error.payload(), status=error.code)
        key = method.lower()
        call = Call(method=method, params=params.loggable(), at=time.monotonic(),
                    worker=request.match_info.get("worker"))
        await self._wait_if_held(key, params, call)  # holds: the call is in flight meanwhile
        scripted = self._next_fault(key, params)  # fail_next, in the order they were asked for
        fault = scripted.drop if scripted is not None else self._pick_fault(key)
        if fault is not None and fault != "drop_after":
            return await self._inject(request, key, call, fault)
        try:
            implementation = METHODS.get(key)
            if implementation is None:
                raise ApiError(404, "Not Found: method not found")
            if scripted is not None and scripted.drop is None:
                raise scripted.error
            call.result = await implementation(self, params)
            payload, status = {"ok": True, "result": call.result}, 200
        except ApiError as error:
            call.ok, call.error_code, call.description = False, error.code, error.description
            payload, status = error.payload(), error.code
        if key != "getupdates":
            self.calls.append(call)
            self._last_call_at = time.monotonic()
            await self.notify()
        if fault == "drop_after":  # it happened, but the bot never hears so
            self.injected[fault] += 1
            return self._drop(request)
        return web.json_response(payload, status=status)

    @staticmethod
    async def _read_params(request: web.Request) -> Params:
        data: dict[str, Any] = dict(request.query)
        files: dict[str, UploadedFile] = {}
        if request.content_type == "application/json":
            body = await request.json()
            if not isinstance(body, dict):
                raise ValueError("JSON body must be an object")
            data.update(body)
        elif request.can_read_body:
            for name, value in (await request.post()).items():
                if isinstance(value, web.FileField):
                    files[name] = UploadedFile(value.file.read(), value.filename, value.content_type)
                else:
                    data[name] = value
        return Params(data, files)

    # --- faults and limits -------------------------------------------------------------------------

    def fail_next(self, method: str, chat_id: int | str | None = None, error_code: int = 429,
                  retry_after: int = 1, *, description: str | None = None,
                  parameters: dict[str, Any] | None = None, times: int = 1,
                  drop: str | None = None) -> None:
        """Make the next ``times`` calls of ``method`` (for ``chat_id`` only, if given) fail.

        ``error_code`` 429 answers "Too Many Requests: retry after N" with ``retry_after`` N
        seconds; other codes use ``description`` or a generic Telegram-style one.  ``drop``
        instead closes the connection without an answer: "drop" before the method runs,
        "drop_after" once it ran (Telegram acted, the bot cannot know).
        """
        if drop not in (None, "drop", "drop_after"):
            raise ValueError(f"drop must be 'drop' or 'drop_after', not {drop!r}")
        if error_code == 429:
            description = description or f"Too Many Requests: retry after {retry_after}"
            parameters = {"retry_after": retry_after, **(parameters or {})}
        error = ApiError(error_code, description or _FAULT_DESCRIPTIONS.get(error_code, "Injected failure"),
                         parameters)
        self._faults.append(
            _Fault(method.lower(), None if chat_id is None else str(chat_id), error, times, drop))

    def _next_fault(self, method: str, params: Params) -> _Fault | None:
        """The first pending ``fail_next`` fault for this call (used up by it), else None."""
        for fault in self._faults:
            if fault.method == method and fault.chat_id in (None, params.text("chat_id")):
                fault.times -= 1
                if fault.times <= 0:
                    self._faults.remove(fault)
                return fault
        return None

    def enable_flood_control(self, *, group_per_minute: int = 20, private_per_second: int = 1,
                             global_per_second: int = 30, group_window: float = 60.0) -> None:
        """Answer 429 (with retry_after) when sends and edits exceed Telegram's published rates:
        ``group_per_minute`` per group in any ``group_window`` seconds (60: Telegram's; a test on a
        shorter clock gives its own), ``private_per_second`` per private chat in any 1 s,
        ``global_per_second`` over all chats in any 1 s."""
        self.flood_limits = {"group_per_minute": group_per_minute, "private_per_second": private_per_second,
                             "global_per_second": global_per_second, "group_window": group_window}
        self.flood_log.clear()

    def disable_flood_control(self) -> None:
        self.flood_limits = None

    # --- world setup ---------------------------------------------------------------------------------

    def user(self, user_id: int, first_name: str, username: str | None = None, *,
             last_name: str | None = None, language_code: str | None = "ru") -> SimUser:
        """Register (or return the already registered) simulated user ``user_id`` (> 0)."""
        if user_id in self.users:
            return self.users[user_id]
        if user_id <= 0 or user_id == self.bot_id:
            raise ValueError(f"invalid user id {user_id}")
        self.users[user_id] = SimUser(self, user_id, first_name, username, last_name=last_name,
                                      language_code=language_code)
        return self.users[user_id]

    def group(self, chat_id: int, title: str, members: Iterable[SimUser | int] = (),
              admins: Iterable[SimUser | int] = (), *, creator: SimUser | int | None = None,
              chat_type: str = "supergroup", username: str | None = None, bot_status: str = "administrator",
              bot_rights: dict[str, bool] | None = None) -> ChatState:
        """Create group ``chat_id`` (< 0) with the bot already in it (``bot_status``: administrator
        with ``bot_rights`` (default all), member, restricted, left or kicked).  ``admins`` and
        ``creator`` are members too; everyone must be registered with ``user()`` first."""
        if chat_id >= 0:
            raise ValueError("group chat ids are negative")
        if chat_id in self.chats:
            raise ValueError(f"chat {chat_id} already exists")
        chat = ChatState(id=chat_id, type=chat_type, title=title, username=username,
                         bot=Member(bot_status, rights=bot_rights or full_rights()))
        for status, people in (("member", members), ("administrator", admins),
                               ("creator", [creator] if creator is not None else [])):
            for person in people:
                chat.members[self._known_user(person).id] = Member(status)
        self.chats[chat_id] = chat
        return chat

    def _known_user(self, person: SimUser | int) -> SimUser:
        user_id = person if isinstance(person, int) else person.id
        if user_id not in self.users:
            raise KeyError(f"user {user_id} is not registered; call api.user() first")
        return self.users[user_id]

    def set_member_status(self, chat_id: int, user: SimUser | int, status: str, **rights: bool) -> None:
        """Set a user's status in a group without producing updates (creator, administrator, ...)."""
        member = Member(status)
        member.rights.update(rights)
        self.chats[chat_id].members[self._known_user(user).id] = member

    # --- observers --------------------------------------------------------------------------------------

    def chat(self, chat_id: int) -> ChatState:
        if chat_id not in self.chats:
            raise KeyError(f"no chat {chat_id} (a private chat exists only after the user started the bot)")
        return self.chats[chat_id]

    def messages(self, chat_id: int, *, include_users: bool = False) -> list[StoredMessage]:
        """Messages of ``chat_id`` in order, deleted ones left out; only the bot's unless
        ``include_users``.  Empty for a chat that does not exist (yet)."""
        chat = self.chats.get(chat_id)
        if chat is None:
            return []
        return [m for m in chat.messages.values() if not m.deleted and (include_users or m.from_bot)]

    def last_message(self, chat_id: int, containing: str | None = None) -> StoredMessage | None:
        """The newest non-deleted bot message in ``chat_id`` (whose text or caption contains
        ``containing``)."""
        for message in reversed(self.messages(chat_id)):
            if containing is None or message.contains(containing):
                return message
        return None

    def message(self, chat_id: int, message_id: int) -> StoredMessage:
        """A message by id, deleted or not.  Raises KeyError."""
        return self.chat(chat_id).messages[message_id]

    def find_button(self, chat_id: int, text: str) -> tuple[int, dict[str, Any]]:
        """``(message_id, button)`` for the newest bot message in ``chat_id`` with a button whose text
        (or callback_data) matches ``text`` (see StoredMessage.find_button).  Raises LookupError."""
        for message in reversed(self.messages(chat_id)):
            try:
                return message.message_id, message.find_button(text)
            except LookupError:
                continue
        raise LookupError(f"no button {text!r} in chat {chat_id}")

    def pinned_messages(self, chat_id: int) -> list[StoredMessage]:
        chat = self.chat(chat_id)
        return [chat.messages[message_id] for message_id in chat.pins]

    def member_status(self, chat_id: int, user: SimUser | int) -> str:
        member = self.chat(chat_id).members.get(self._known_user(user).id)
        return member.status if member else "left"

    def calls_to(self, method: str) -> list[Call]:
        return [call for call in self.calls if call.method.lower() == method.lower()]

    async def notify(self) -> None:
        async with self.changed:
            self.changed.notify_all()

    async def wait_for(self, predicate: Callable[[], T | None], timeout: float = 10.0) -> T:
        """Wait until ``predicate()`` is truthy, re-checking after every bot call and queued update;
        returns its value (so never None).  Raises TimeoutError (listing the latest bot calls) after
        ``timeout`` seconds."""
        async with self.changed:
            try:
                value = await asyncio.wait_for(self.changed.wait_for(predicate), timeout)
            except TimeoutError:
                recent = "; ".join(
                    f"{c.method}({c.params.get('chat_id', '')}){'' if c.ok else f' -> {c.description}'}"
                    for c in self.calls[-8:]
                )
                raise TimeoutError(f"condition not met within {timeout} s; "
                                   f"latest bot calls: {recent or 'none'}") from None
        assert value is not None  # Condition.wait_for returns only once the predicate is truthy
        return value

    async def wait_for_message(self, chat_id: int, containing: str | None = None, *,
                               timeout: float = 10.0) -> StoredMessage:
        """Wait for a bot message in ``chat_id`` containing ``containing`` and return the newest such."""
        return await self.wait_for(lambda: self.last_message(chat_id, containing), timeout)

    async def settle(self, quiet: float = 0.3, timeout: float = 10.0) -> None:
        """Wait until the bot has fetched every queued update and made no call for ``quiet`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            await self.wait_for(lambda: not self.pending_updates, max(deadline - time.monotonic(), 0.01))
            idle = time.monotonic() - self._last_call_at
            if idle >= quiet:
                return
            if time.monotonic() + quiet - idle > deadline:
                raise TimeoutError(f"the bot did not go quiet within {timeout} s")
            await asyncio.sleep(quiet - idle)
