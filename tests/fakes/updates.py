"""Builders of real aiogram ``Update`` objects for feeding a ``Dispatcher`` in tests.

Shapes::

    alice = FakeUser(1001, "Alice", username="alice")
    updates = Updates(bot, session)                 # both optional; with them updates are bound
    await dp.feed_update(bot, updates.group_command(-100, alice, "/newgame@mafia_test_bot"))
    await dp.feed_update(bot, updates.callback(alice, sent_message, "vote:3"))

Commands carry a ``bot_command`` entity as Telegram sends them. ``update_id`` auto-increments;
message ids come from the session's per-chat counter when a session is given, so they never clash
with ids of messages the bot sent.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from typing import Any

from aiogram import Bot
from aiogram.types import Message, Update

from tests.fakes.session import RecordingSession
from tests.fakes.telegram import BOT_FIRST_NAME, BOT_USERNAME, member_dict

GROUP_ANONYMOUS_BOT_ID = (
    1087968824  # the "GroupAnonymousBot" user Telegram puts on anonymous admins
)


@dataclass(frozen=True)
class FakeUser:
    """A Telegram user for tests. ``id`` must be positive."""

    id: int
    first_name: str
    username: str | None = None
    last_name: str | None = None
    language_code: str | None = None
    is_bot: bool = False

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        for key in ("username", "last_name", "language_code"):
            if (value := getattr(self, key)) is not None:
                data[key] = value
        return data


class Updates:
    """Factory of incoming updates (see module docstring)."""

    def __init__(
        self,
        bot: Bot | None = None,
        session: RecordingSession | None = None,
        *,
        bot_username: str | None = None,
        first_update_id: int = 1,
    ) -> None:
        self.bot = bot
        self.session = session
        self.bot_username = bot_username or (session.bot_username if session else BOT_USERNAME)
        self._update_ids = itertools.count(first_update_id)
        self._message_ids: dict[int, itertools.count[int]] = {}
        self._callback_ids = itertools.count(1)

    # ----------------------------------------------------------------- messages

    def group_command(
        self, chat_id: int, user: FakeUser, text: str, **message_fields: Any
    ) -> Update:
        """A command (``/newgame`` or ``/newgame@mafia_test_bot args``) sent in a group."""
        return self._message_update(self._group_chat(chat_id), user, text, **message_fields)

    def group_text(self, chat_id: int, user: FakeUser, text: str, **message_fields: Any) -> Update:
        """A group message (plain text reaches the bot only with privacy mode off or as a reply)."""
        return self._message_update(self._group_chat(chat_id), user, text, **message_fields)

    def anonymous_admin_command(self, chat_id: int, text: str) -> Update:
        """A command from an anonymous group admin.

        ``from`` is GroupAnonymousBot and ``sender_chat`` the group itself."""
        chat = self._group_chat(chat_id)
        anonymous = FakeUser(
            GROUP_ANONYMOUS_BOT_ID, "Group", username="GroupAnonymousBot", is_bot=True
        )
        return self._message_update(chat, anonymous, text, sender_chat=chat)

    def private_text(self, user: FakeUser, text: str, **message_fields: Any) -> Update:
        """A message (or command, e.g. a deep link ``/start join-1``) in the user's private chat."""
        chat = {"id": user.id, "type": "private", "first_name": user.first_name}
        if user.username:
            chat["username"] = user.username
        return self._message_update(chat, user, text, **message_fields)

    private_command = private_text

    def left_chat_member(self, chat_id: int, user: FakeUser, by: FakeUser | None = None) -> Update:
        """Service message: ``user`` left the group (or was removed by ``by``)."""
        return self._service_update(
            self._group_chat(chat_id), by or user, left_chat_member=user.as_dict()
        )

    def new_chat_members(
        self, chat_id: int, users: list[FakeUser], by: FakeUser | None = None
    ) -> Update:
        """Service message: ``users`` joined (or were added by ``by``)."""
        return self._service_update(
            self._group_chat(chat_id), by or users[0], new_chat_members=[u.as_dict() for u in users]
        )

    def migrate(self, old_chat_id: int, new_chat_id: int, by: FakeUser | None = None) -> Update:
        """Service message in the old (basic) group: it became supergroup ``new_chat_id``."""
        chat = {"id": old_chat_id, "type": "group", "title": self._title(old_chat_id)}
        return self._service_update(chat, by or self._someone(), migrate_to_chat_id=new_chat_id)

    def migrate_from(
        self, old_chat_id: int, new_chat_id: int, by: FakeUser | None = None
    ) -> Update:
        """The twin service message, in the new supergroup: it was migrated from ``old_chat_id``."""
        chat = {"id": new_chat_id, "type": "supergroup", "title": self._title(new_chat_id)}
        return self._service_update(chat, by or self._someone(), migrate_from_chat_id=old_chat_id)

    # ----------------------------------------------------------------- callback queries

    def callback(
        self,
        user: FakeUser,
        message: Message | tuple[int, int],
        data: str,
        *,
        chat_instance: str | None = None,
    ) -> Update:
        """A press on an inline button of ``message`` (``Message`` or ``(chat_id, message_id)``)."""
        if isinstance(message, Message):
            message_data = message.model_dump(mode="json", by_alias=True, exclude_none=True)
            chat_id = message.chat.id
        else:
            chat_id, message_id = message
            known = self.session.message(chat_id, message_id) if self.session else None
            message_data = known or {
                "message_id": message_id,
                "date": int(time.time()),
                "chat": self._chat(chat_id),
                "from": self._bot_user(),
                "text": "",
            }
        query = {
            "id": str(next(self._callback_ids)),
            "from": self._user(user),
            "chat_instance": chat_instance or str(abs(chat_id)),
            "message": message_data,
            "data": data,
        }
        return self._update(callback_query=query)

    # ----------------------------------------------------------------- membership

    def my_chat_member(
        self,
        chat_id: int,
        new_status: str = "member",
        old_status: str = "left",
        by: FakeUser | None = None,
        **rights: Any,
    ) -> Update:
        """The bot's own membership changed (added, promoted with ``rights``, demoted, kicked)."""
        return self._update(
            my_chat_member=self._member_updated(
                chat_id, self._bot_user(), old_status, new_status, by, rights
            )
        )

    def chat_member(
        self,
        chat_id: int,
        user: FakeUser,
        new_status: str = "left",
        old_status: str = "member",
        by: FakeUser | None = None,
    ) -> Update:
        """Another user's membership changed.

        Telegram sends these only with ``chat_member`` in allowed_updates and admin rights."""
        return self._update(
            chat_member=self._member_updated(
                chat_id, self._user(user), old_status, new_status, by, {}
            )
        )

    # ----------------------------------------------------------------- internals

    def _member_updated(
        self,
        chat_id: int,
        user: dict[str, Any],
        old_status: str,
        new_status: str,
        by: FakeUser | None,
        rights: dict[str, Any],
    ) -> dict[str, Any]:
        actor = self._user(by) if by else self._someone().as_dict()
        return {
            "chat": self._chat(chat_id),
            "from": actor,
            "date": int(time.time()),
            "old_chat_member": member_dict(user, old_status),
            "new_chat_member": member_dict(user, new_status, **rights),
        }

    def _message_update(
        self, chat: dict[str, Any], user: FakeUser, text: str, **fields: Any
    ) -> Update:
        message = self._message(chat, user)
        message["text"] = text
        if text.startswith("/"):
            command = text.split(maxsplit=1)[0]
            message["entities"] = [{"type": "bot_command", "offset": 0, "length": len(command)}]
        message.update(fields)
        return self._update(message=message)

    def _service_update(self, chat: dict[str, Any], user: FakeUser, **fields: Any) -> Update:
        message = self._message(chat, user)
        message.update(fields)
        return self._update(message=message)

    def _message(self, chat: dict[str, Any], user: FakeUser) -> dict[str, Any]:
        return {
            "message_id": self._next_message_id(chat["id"]),
            "date": int(time.time()),
            "chat": chat,
            "from": self._user(user),
        }

    def _update(self, **payload: Any) -> Update:
        data = {"update_id": next(self._update_ids), **payload}
        if self.bot is not None:
            return Update.model_validate(data, context={"bot": self.bot})
        return Update.model_validate(data)

    def _next_message_id(self, chat_id: int) -> int:
        if self.session is not None:
            return self.session.next_message_id(chat_id)
        counter = self._message_ids.setdefault(chat_id, itertools.count(1))
        return next(counter)

    def _user(self, user: FakeUser) -> dict[str, Any]:
        if self.session is not None:
            self.session.register_user(user)
        return user.as_dict()

    def _chat(self, chat_id: int) -> dict[str, Any]:
        if self.session is not None:
            return self.session.chat_dict(chat_id)
        if chat_id > 0:
            return {"id": chat_id, "type": "private", "first_name": f"User {chat_id}"}
        return self._group_chat(chat_id)

    def _group_chat(self, chat_id: int) -> dict[str, Any]:
        if chat_id > 0:
            raise ValueError("group chat ids are negative")
        chat_type = (
            self.session.chat_types.get(chat_id, "supergroup") if self.session else "supergroup"
        )
        return {"id": chat_id, "type": chat_type, "title": self._title(chat_id)}

    def _title(self, chat_id: int) -> str:
        if self.session is not None:
            return self.session.chat_titles.get(chat_id, f"Group {chat_id}")
        return f"Group {chat_id}"

    def _bot_user(self) -> dict[str, Any]:
        if self.session is not None:
            if self.bot is not None:
                self.session.bot_id = self.bot.id
            return self.session.bot_user_dict()
        bot_id = self.bot.id if self.bot is not None else 123456
        return {
            "id": bot_id,
            "is_bot": True,
            "first_name": BOT_FIRST_NAME,
            "username": self.bot_username,
        }

    @staticmethod
    def _someone() -> FakeUser:
        return FakeUser(999_000_001, "Admin", username="group_admin")
