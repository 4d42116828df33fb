"""In-process bot harness: the real stack (dispatcher, service, engine, storage, presenter,
sender) over a RecordingSession, with deadlines fired by hand and a clock moved by hand.

Shapes::

    h = await make_harness(db_url, n_users=7)       # started; users are registered FakeUsers
    await h.command(h.users[0], "/newgame")         # a group command (GROUP by default)
    await h.dm(h.users[1], "/start join_1")         # a private message
    answer = await h.press(user, chat_id, message_id, callback_data)   # -> callback answer text
    await h.fire()                                  # fire every pending deadline
    h.clock.advance(20)                             # seconds
    await h.stop()
    h2 = await make_harness(db_url, session=h.session)   # a restart: same Telegram, same database

Every ``feed`` waits until the Sender has nothing queued, so after it every message the update
caused is in ``session.messages`` / ``session.calls``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol, TypeVar

from aiogram.methods import AnswerCallbackQuery, TelegramMethod
from aiogram.types import Update

from bot.app import App, build_app
from bot.services.deadlines import ManualDeadlines
from bot.ui.callbacks import Act
from tests.fakes.calls import Call
from tests.fakes.session import TEST_TOKEN, RecordingSession
from tests.fakes.telegram import plain_text
from tests.fakes.updates import FakeUser, Updates

GROUP = -1001234567890


class Table(Protocol):
    """What the drivers (``tests.bot.driver``, ``tests.bot.noir_driver``) play a game through:
    :class:`Harness` (one process) and ``tests.cluster.workers.ClusterHarness`` (many)."""

    users: list[FakeUser]
    notes: dict[str, Any]

    async def command(self, user: FakeUser, text: str, chat_id: int = ...) -> None: ...
    async def dm(self, user: FakeUser, text: str) -> None: ...
    async def press(self, user: FakeUser, chat_id: int, message_id: int, data: str) -> str | None: ...
    def buttons(self, chat_id: int) -> list[tuple[int, dict[str, Any]]]: ...
    async def fire(self) -> None: ...
    async def game(self, chat_id: int = ...) -> Any: ...
SEND_METHODS = ("sendMessage", "editMessageText")
FAST_RATES = {"group_rate": (10_000, 1.0), "private_rate": (10_000, 1.0),
              "global_rate": (10_000, 1.0), "retry_budget": 3.0}  # Telegram "down" for 3 s

M = TypeVar("M", bound=TelegramMethod[Any])


def request_of(call: Call, cls: type[M]) -> M:
    """``call.request`` as the aiogram method ``cls`` it must be (AssertionError otherwise)."""
    assert isinstance(call.request, cls), (call.method, cls)
    return call.request


def text_of(call: Call) -> str:
    """The raw text (HTML as sent) of a send/edit ``call``; AssertionError if it has none."""
    assert call.text is not None, call.method
    return call.text


class FakeClock:
    """The service's clock (aware UTC), moved only by :meth:`advance` (seconds)."""

    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime(2026, 1, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@dataclass
class Harness:
    app: App
    session: RecordingSession
    updates: Updates
    clock: FakeClock
    users: list[FakeUser] = field(default_factory=list)
    notes: dict[str, Any] = field(default_factory=dict)  # scratch space for drivers (tests/bot/driver.py)

    @property
    def service(self):
        return self.app.service

    @property
    def deadlines(self) -> ManualDeadlines:
        return self.app.deadlines

    async def feed(self, update: Update) -> None:
        await self.app.dp.feed_update(self.app.bot, update)
        await self.app.sender.drain()

    async def command(self, user: FakeUser, text: str, chat_id: int = GROUP) -> None:
        await self.feed(self.updates.group_command(chat_id, user, text))

    async def dm(self, user: FakeUser, text: str) -> None:
        await self.feed(self.updates.private_text(user, text))

    async def stop(self) -> None:
        await self.app.stop()

    # --- messages the bot sent ---------------------------------------------------------------
    def messages(self, chat_id: int) -> list[dict[str, Any]]:
        return [m for (c, _), m in sorted(self.session.messages.items(), key=lambda kv: kv[0][1])
                if c == chat_id]

    def message(self, chat_id: int, message_id: int) -> dict[str, Any]:
        """The stored message ``message_id`` of ``chat_id`` as users see it now (the Bot API's
        Message dict); AssertionError if the bot never sent it."""
        message = self.session.message(chat_id, message_id)
        assert message is not None, (chat_id, message_id)
        return message

    def texts(self, chat_id: int) -> list[str]:
        return [m.get("text", "") for m in self.messages(chat_id)]

    def sent(self, chat_id: int, methods: tuple[str, ...] = SEND_METHODS, *,
             ok_only: bool = True) -> list[Call]:
        """Every send/edit call to ``chat_id`` in order (successful ones by default)."""
        return [c for c in self.session.calls if c.method in methods and c.chat_id == chat_id
                and (c.ok or not ok_only)]

    def sent_texts(self, chat_id: int, methods: tuple[str, ...] = SEND_METHODS) -> list[str]:
        """Plain texts (as users see them) of every successful send/edit to ``chat_id``."""
        return [plain_text(c.text) for c in self.sent(chat_id, methods) if c.text is not None]

    def buttons(self, chat_id: int) -> list[tuple[int, dict[str, Any]]]:
        """(message_id, button) for every inline button in the chat, newest message first."""
        out: list[tuple[int, dict[str, Any]]] = []
        for m in reversed(self.messages(chat_id)):
            markup = m.get("reply_markup") or {}
            for row in markup.get("inline_keyboard", []):
                for b in row:
                    out.append((m["message_id"], b))
        return out

    def find_button(self, chat_id: int, *, action: str | None = None, text: str | None = None,
                    target_seat: int | None = None):
        for mid, b in self.buttons(chat_id):
            data = b.get("callback_data")
            if text is not None and text not in b.get("text", ""):
                continue
            if action is not None:
                if not data or not data.startswith("a:"):
                    continue
                act = Act.unpack(data)
                if act.a != action or (target_seat is not None and act.t != target_seat):
                    continue
            return mid, b
        return None

    async def press(self, user: FakeUser, chat_id: int, message_id: int, data: str) -> str | None:
        """Press a button; returns the callback answer text."""
        before = len(self.session.calls.calls_to("answerCallbackQuery"))
        await self.feed(self.updates.callback(user, (chat_id, message_id), data))
        answers = self.session.calls.calls_to("answerCallbackQuery")[before:]
        return request_of(answers[-1], AnswerCallbackQuery).text if answers else None

    async def press_data(self, user: FakeUser, chat_id: int, data: str) -> str | None:
        """Press a (possibly forged) ``data`` as if on the newest bot message in ``chat_id``."""
        mids = [m["message_id"] for m in self.messages(chat_id)]
        return await self.press(user, chat_id, mids[-1] if mids else 1, data)

    async def fire(self) -> None:
        """Fire every pending deadline, once the messages that showed it have left (BOT-X01:
        a deadline that comes while they wait is held, not fired)."""
        await self.app.sender.drain()
        await self.service.visible.settle()
        dl = self.deadlines
        for game_id in list(dl.pending):
            await dl.fire_now(game_id)
        await self.app.sender.drain()

    async def game(self, chat_id: int = GROUP):
        game_id = await self.service.game_for_chat(chat_id)
        return await self.service.live(game_id) if game_id else None

    async def log_len(self, game_id: int) -> int:
        return (await self.service.storage.get_game(game_id)).log_len

    def user(self, user_id: int) -> FakeUser:
        return next(u for u in self.users if u.id == user_id)


def make_users(n: int, first: int = 1) -> list[FakeUser]:
    return [FakeUser(700_000_000_000 + i, f"Player{i}", username=f"p{i}")
            for i in range(first, first + n)]


async def make_harness(db_url: str, n_users: int = 6, *, session: RecordingSession | None = None,
                       clock: FakeClock | None = None, **kw: Any) -> Harness:
    """A started harness. Pass the ``session`` of a stopped harness to restart on the same
    "Telegram" (its messages and ids stay); ``kw`` go to :func:`bot.app.build_app`
    (``default_locale`` is "en" unless given)."""
    session = session or RecordingSession()
    session.chat_titles.setdefault(GROUP, "Test group")
    clock = clock or FakeClock()
    kw.setdefault("sender_kwargs", FAST_RATES)
    kw.setdefault("default_locale", "en")  # assertions read English; test_settings covers ru
    app = build_app(token=TEST_TOKEN, database_url=db_url, session=session,
                    deadlines_cls=ManualDeadlines, clock=clock, **kw)
    await app.start()
    updates = Updates(app.bot, session, first_update_id=len(session.calls) + 1)
    users = make_users(n_users)
    for u in users:
        session.register_user(u)
    return Harness(app=app, session=session, updates=updates, clock=clock, users=users)
