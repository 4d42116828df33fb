"""In-process bot harness: the real stack (dispatcher, service, engine, storage, presenter,
sender) over a RecordingSession, with deadlines fired by hand."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from aiogram.types import Update

from bot.app import App, build_app
from bot.callbacks import Act
from bot.deadlines import ManualDeadlines
from tests.fakes.session import RecordingSession, TEST_TOKEN
from tests.fakes.updates import FakeUser, Updates

GROUP = -1001234567890


@dataclass
class Harness:
    app: App
    session: RecordingSession
    updates: Updates
    users: list[FakeUser] = field(default_factory=list)

    @property
    def service(self):
        return self.app.service

    async def feed(self, update: Update) -> None:
        await self.app.dp.feed_update(self.app.bot, update)
        await self.app.sender.drain()

    async def command(self, user: FakeUser, text: str, chat_id: int = GROUP) -> None:
        await self.feed(self.updates.group_command(chat_id, user, text))

    async def dm(self, user: FakeUser, text: str) -> None:
        await self.feed(self.updates.private_text(user, text))

    # --- messages the bot sent ---------------------------------------------------------------
    def messages(self, chat_id: int) -> list[dict]:
        return [m for (c, _), m in sorted(self.session.messages.items(), key=lambda kv: kv[0][1])
                if c == chat_id]

    def texts(self, chat_id: int) -> list[str]:
        return [m.get("text", "") for m in self.messages(chat_id)]

    def buttons(self, chat_id: int) -> list[tuple[int, dict]]:
        """(message_id, button) for every inline button in the chat, newest message first."""
        out = []
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
        return answers[-1].request.text if answers else None

    async def fire(self) -> None:
        """Fire the game's pending deadline."""
        dl: ManualDeadlines = self.app.deadlines
        for game_id in list(dl.pending):
            await dl.fire_now(game_id)
        await self.app.sender.drain()

    async def game(self):
        game_id = await self.service.game_for_chat(GROUP)
        return await self.service.live(game_id) if game_id else None


async def make_harness(db_url: str, n_users: int = 6, **kw) -> Harness:
    session = RecordingSession()
    session.chat_titles[GROUP] = "Test group"
    app = build_app(token=TEST_TOKEN, database_url=db_url, session=session,
                    deadlines_cls=ManualDeadlines,
                    sender_kwargs={"group_rate": (10_000, 1.0), "private_rate": (10_000, 1.0),
                                   "global_rate": (10_000, 1.0)}, **kw)
    await app.start()
    updates = Updates(app.bot, session)
    users = [FakeUser(700_000_000_000 + i, f"Player{i}", username=f"p{i}") for i in range(1, n_users + 1)]
    for u in users:
        session.register_user(u)
    return Harness(app=app, session=session, updates=updates, users=users)
