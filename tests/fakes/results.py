"""The Bot API results :class:`tests.fakes.session.RecordingSession` fabricates: one
``_result_<method>`` a method (none: ``True``), the JSON shapes of chats, users and messages,
and the messages the bot sent as Telegram keeps them (edits, "message is not modified", parsed
HTML). The session's recording, failure injection and configuration stay in ``session.py``."""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from aiogram import Bot
from aiogram.client.default import Default
from aiogram.client.session.base import BaseSession
from aiogram.enums import ParseMode
from aiogram.methods import SetMyCommands

from tests.fakes.calls import CallLog, FailRule
from tests.fakes.telegram import NOT_MODIFIED, member_dict, plain_text


@dataclass
class IdCounter:
    values: dict[int | str, Iterator[int]] = field(default_factory=dict)

    def next(self, key: int | str) -> int:
        if key not in self.values:
            self.values[key] = itertools.count(1)
        return next(self.values[key])


class FakeResults(BaseSession):
    """The fabrication half of :class:`~tests.fakes.session.RecordingSession` (which sets every
    attribute below in its ``__init__``); never used on its own."""

    bot_username: str
    bot_first_name: str
    bot_id: int
    strict_edits: bool
    strict_html: bool
    calls: CallLog
    messages: dict[tuple[int | str, int], dict[str, Any]]
    chat_types: dict[int, str]
    chat_titles: dict[int, str]
    users: dict[int, dict[str, Any]]
    members: dict[tuple[int | str, int], dict[str, Any]]
    photos: dict[str, bytes]
    _message_ids: IdCounter
    _file_ids: Iterator[int]

    def next_message_id(self, chat_id: int | str) -> int:
        """Allocate the next message id in ``chat_id`` (shared with incoming updates)."""
        return self._message_ids.next(chat_id)

    def _result_getMe(self, bot: Bot, method: Any) -> dict[str, Any]:
        return {
            **self._bot_user(bot),
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
        }

    def _result_sendMessage(self, bot: Bot, method: Any) -> dict[str, Any]:
        message = self._new_message(bot, method.chat_id)
        message["text"] = self._plain(bot, method.text, getattr(method, "parse_mode", None))
        self._attach_markup(bot, message, method.reply_markup)
        self._store(message)
        return message

    def _result_sendDocument(self, bot: Bot, method: Any) -> dict[str, Any]:
        message = self._new_message(bot, method.chat_id)
        number = next(self._file_ids)
        file_name = getattr(method.document, "filename", None) or f"document{number}"
        message["document"] = {
            "file_id": f"DOC{number}",
            "file_unique_id": f"UDOC{number}",
            "file_name": file_name,
        }
        if method.caption:
            message["caption"] = self._plain(
                bot, method.caption, getattr(method, "parse_mode", None)
            )
        self._attach_markup(bot, message, method.reply_markup)
        self._store(message)
        return message

    def _result_sendPhoto(self, bot: Bot, method: Any) -> dict[str, Any]:
        """A photo upload: its bytes are kept in ``photos`` (file id -> bytes)."""
        message = self._new_message(bot, method.chat_id)
        message["photo"] = [self._photo(method.photo)]
        if method.caption:
            message["caption"] = self._plain(
                bot, method.caption, getattr(method, "parse_mode", None)
            )
        self._attach_markup(bot, message, method.reply_markup)
        self._store(message)
        return message

    def _result_editMessageMedia(self, bot: Bot, method: Any) -> dict[str, Any] | bool | FailRule:
        key = (method.chat_id, method.message_id)
        known = self.messages.get(key)
        if known is None or "photo" not in known:
            return FailRule(None, None, 400, "Bad Request: message can't be edited", None)
        media = method.media
        message = dict(known)
        message["photo"] = [self._photo(media.media)]
        message.pop("caption", None)
        if media.caption:
            message["caption"] = self._plain(bot, media.caption, getattr(media, "parse_mode", None))
        message.pop("reply_markup", None)
        self._attach_markup(bot, message, method.reply_markup)
        message["edit_date"] = int(time.time())
        self.messages[key] = message
        return message

    def _photo(self, photo: Any) -> dict[str, Any]:
        number = next(self._file_ids)
        data = getattr(photo, "data", None)
        if data is not None:
            self.photos[f"PHOTO{number}"] = data
        return {"file_id": f"PHOTO{number}", "file_unique_id": f"UPHOTO{number}",
                "width": 1, "height": 1, "file_size": len(data or b"")}

    def _result_editMessageText(self, bot: Bot, method: Any) -> dict[str, Any] | bool | FailRule:
        if method.inline_message_id:
            return True
        text = self._plain(bot, method.text, getattr(method, "parse_mode", None))
        markup = self._dump(bot, method.reply_markup)
        return self._edit(bot, method, text=text, markup=markup)

    def _result_editMessageReplyMarkup(
        self, bot: Bot, method: Any
    ) -> dict[str, Any] | bool | FailRule:
        if method.inline_message_id:
            return True
        known = self.messages.get((method.chat_id, method.message_id))
        text = known.get("text") if known else None
        return self._edit(bot, method, text=text, markup=self._dump(bot, method.reply_markup))

    def _result_deleteMessage(self, bot: Bot, method: Any) -> bool:
        self.messages.pop((method.chat_id, method.message_id), None)
        return True

    def _result_getChatMember(self, bot: Bot, method: Any) -> dict[str, Any]:
        key = (method.chat_id, method.user_id)
        if key in self.members:
            return self.members[key]
        user = self._bot_user(bot) if method.user_id == bot.id else self._user_dict(method.user_id)
        return member_dict(user, "member")

    def _result_getChatAdministrators(self, bot: Bot, method: Any) -> list[dict[str, Any]]:
        return [
            member
            for (chat_id, _), member in self.members.items()
            if chat_id == method.chat_id and member["status"] in {"creator", "administrator"}
        ]

    def _result_getChat(self, bot: Bot, method: Any) -> dict[str, Any]:
        return {
            **self.chat_dict(method.chat_id),
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": {
                "unlimited_gifts": False,
                "limited_gifts": False,
                "unique_gifts": False,
                "premium_subscription": False,
                "gifts_from_channels": False,
            },
        }

    def _result_getFile(self, bot: Bot, method: Any) -> dict[str, Any]:
        """A file's path is ``files/<file_id>``: a test puts its bytes in
        ``downloads["files/<file_id>"]``."""
        return {"file_id": method.file_id, "file_unique_id": f"U{method.file_id}",
                "file_path": f"files/{method.file_id}"}

    def _result_getMyCommands(self, bot: Bot, method: Any) -> list[dict[str, Any]]:
        for call in reversed(self.calls):
            if call.method == "setMyCommands" and call.ok:
                assert isinstance(call.request, SetMyCommands)
                return [
                    {"command": c.command, "description": c.description}
                    for c in call.request.commands
                ]
        return []

    def _result_getUpdates(self, bot: Bot, method: Any) -> list[Any]:
        return []

    def _result_getWebhookInfo(self, bot: Bot, method: Any) -> dict[str, Any]:
        return {"url": "", "has_custom_certificate": False, "pending_update_count": 0}

    # ----------------------------------------------------------------- helpers

    def chat_dict(self, chat_id: int | str) -> dict[str, Any]:
        """JSON shape of a chat: private for positive ids, else supergroup (see ``chat_types``)."""
        if isinstance(chat_id, str):  # "@channelusername"
            return {
                "id": -1_000_000_000_000 - abs(hash(chat_id)) % 10**9,
                "type": "channel",
                "title": chat_id,
            }
        chat_type = self.chat_types.get(chat_id, "private" if chat_id > 0 else "supergroup")
        if chat_type == "private":
            user = self._user_dict(chat_id)
            chat = {"id": chat_id, "type": "private", "first_name": user["first_name"]}
            if user.get("username"):
                chat["username"] = user["username"]
            return chat
        return {
            "id": chat_id,
            "type": chat_type,
            "title": self.chat_titles.get(chat_id, f"Group {chat_id}"),
        }

    def _bot_user(self, bot: Bot) -> dict[str, Any]:
        return {
            "id": bot.id,
            "is_bot": True,
            "first_name": self.bot_first_name,
            "username": self.bot_username,
        }

    def bot_user_dict(self) -> dict[str, Any]:
        return {
            "id": self.bot_id,
            "is_bot": True,
            "first_name": self.bot_first_name,
            "username": self.bot_username,
        }

    def _user_dict(self, user_id: int) -> dict[str, Any]:
        if user_id == self.bot_id:
            return self.bot_user_dict()
        return self.users.get(
            user_id, {"id": user_id, "is_bot": False, "first_name": f"User {user_id}"}
        )

    def _new_message(self, bot: Bot, chat_id: int | str) -> dict[str, Any]:
        chat = self.chat_dict(chat_id)
        return {
            "message_id": self.next_message_id(chat["id"]),
            "date": int(time.time()),
            "chat": chat,
            "from": self._bot_user(bot),
        }

    def _store(self, message: dict[str, Any]) -> None:
        self.messages[(message["chat"]["id"], message["message_id"])] = message

    def _edit(
        self, bot: Bot, method: Any, *, text: str | None, markup: Any
    ) -> dict[str, Any] | FailRule:
        key = (method.chat_id, method.message_id)
        known = self.messages.get(key)
        if known is None:
            message = {**self._new_message(bot, method.chat_id), "message_id": method.message_id}
        else:
            if (
                self.strict_edits
                and known.get("text") == text
                and known.get("reply_markup") == markup
            ):
                return FailRule(None, None, 400, NOT_MODIFIED, None)
            message = dict(known)
        if text is not None:
            message["text"] = text
        message.pop("reply_markup", None)
        if markup:
            message["reply_markup"] = markup
        message["edit_date"] = int(time.time())
        self.messages[key] = message
        return message

    def _attach_markup(self, bot: Bot, message: dict[str, Any], markup: Any) -> None:
        dumped = self._dump(bot, markup)
        # Only inline keyboards are echoed back on a message; reply keyboards are not.
        if dumped and "inline_keyboard" in dumped:
            message["reply_markup"] = dumped

    def _dump(self, bot: Bot, value: Any) -> Any:
        if value is None:
            return None
        return self.prepare_value(value, bot=bot, files={}, _dumps_json=False)

    def _plain(self, bot: Bot, text: str, parse_mode: Any) -> str:
        """Text as Telegram returns it (HTML parsed; malformed HTML fails if ``strict_html``)."""
        if isinstance(parse_mode, Default):
            parse_mode = bot.default[parse_mode.name]
        if parse_mode != ParseMode.HTML:
            return text
        return plain_text(text, strict=self.strict_html)
