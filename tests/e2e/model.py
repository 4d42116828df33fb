"""State of the stand-in Bot API: chats, members, messages, recorded calls.

Everything here is plain data plus the serialisers that turn it into Bot API JSON objects
(``Chat``, ``ChatFullInfo``, ``Message``, ``ChatMember``) complete enough for aiogram to parse.
Times are Unix seconds (``int``) in Telegram objects and ``time.monotonic()`` seconds in ``Call``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

BOT_USERNAME = "mafia_e2e_bot"
BOT_FIRST_NAME = "Mafia E2E"
GROUP_ANONYMOUS_BOT = {"id": 1087968824, "is_bot": True, "first_name": "Group",
                       "username": "GroupAnonymousBot"}

PERMISSION_FIELDS = (
    "can_send_messages",
    "can_send_audios",
    "can_send_documents",
    "can_send_photos",
    "can_send_videos",
    "can_send_video_notes",
    "can_send_voice_notes",
    "can_send_polls",
    "can_send_other_messages",
    "can_add_web_page_previews",
    "can_react_to_messages",
    "can_edit_tag",
    "can_change_info",
    "can_invite_users",
    "can_pin_messages",
    "can_manage_topics",
)
ADMIN_RIGHT_FIELDS = (
    "can_manage_chat",
    "can_delete_messages",
    "can_manage_video_chats",
    "can_restrict_members",
    "can_promote_members",
    "can_change_info",
    "can_invite_users",
    "can_post_stories",
    "can_edit_stories",
    "can_delete_stories",
    "can_send_welcome_messages",
    "can_pin_messages",
    "can_manage_topics",
)
MEMBER_STATUSES = ("creator", "administrator", "member", "restricted", "left", "kicked")


def now() -> int:
    """Current Unix time in whole seconds, as Telegram dates are."""
    return int(time.time())


def full_rights() -> dict[str, bool]:
    """Administrator rights with every right granted."""
    return dict.fromkeys(ADMIN_RIGHT_FIELDS, True)


def full_permissions() -> dict[str, bool]:
    """Chat permissions with everything allowed."""
    return dict.fromkeys(PERMISSION_FIELDS, True)


@dataclass
class Member:
    """One user's (or the bot's) membership in a group.

    ``status`` is one of MEMBER_STATUSES; ``rights`` applies to administrators,
    ``permissions`` to restricted members; ``until_date`` is Unix seconds, 0 for forever.
    """

    status: str
    rights: dict[str, bool] = field(default_factory=full_rights)
    permissions: dict[str, bool] = field(default_factory=full_permissions)
    until_date: int = 0

    @property
    def is_present(self) -> bool:
        return self.status in ("creator", "administrator", "member", "restricted")

    @property
    def is_admin(self) -> bool:
        return self.status in ("creator", "administrator")

    def can(self, right: str) -> bool:
        """Whether this member, as an administrator, holds ``right`` (creators hold all)."""
        return self.status == "creator" or (self.status == "administrator" and self.rights.get(right, False))

    def as_dict(self, user: dict[str, Any], *, is_bot_self: bool = False) -> dict[str, Any]:
        """The Bot API ``ChatMember`` object for ``user`` with this membership."""
        data: dict[str, Any] = {"status": self.status, "user": user}
        if self.status == "creator":
            data["is_anonymous"] = False
        elif self.status == "administrator":
            data.update({"can_be_edited": is_bot_self, "is_anonymous": False})
            data.update({key: bool(self.rights.get(key, False)) for key in ADMIN_RIGHT_FIELDS})
        elif self.status == "restricted":
            data.update({"is_member": True, "until_date": self.until_date})
            data.update({key: bool(self.permissions.get(key, False)) for key in PERMISSION_FIELDS})
        elif self.status == "kicked":
            data["until_date"] = self.until_date
        return data


@dataclass
class Edit:
    """One state of a message before an edit replaced it (``date``: Unix seconds of the edit;
    ``entities`` are the text's or the caption's)."""

    date: int
    text: str | None
    entities: list[dict[str, Any]] | None
    reply_markup: dict[str, Any] | None
    caption: str | None = None
    photo_bytes: bytes | None = field(default=None, repr=False)


@dataclass(eq=False)
class StoredMessage:
    """A message in a chat, sent by the bot or by a simulated user.

    ``reply_markup`` is the current inline keyboard (None if none); ``photo`` the Bot API
    ``PhotoSize`` list of a photo message and ``photo_bytes`` the picture as uploaded (PNG, JPEG,
    ...); ``edits`` holds the earlier states, oldest first; ``deleted`` messages stay stored but
    are hidden from ``messages()``.
    ``service`` carries service-message fields such as ``left_chat_member``.
    """

    chat: ChatState = field(repr=False)
    message_id: int
    date: int
    sender: dict[str, Any]
    text: str | None = None
    entities: list[dict[str, Any]] | None = None
    reply_markup: dict[str, Any] | None = None
    caption: str | None = None
    document: dict[str, Any] | None = None
    document_bytes: bytes | None = field(default=None, repr=False)
    photo: list[dict[str, Any]] | None = None
    photo_bytes: bytes | None = field(default=None, repr=False)
    reply_to: StoredMessage | None = field(default=None, repr=False)
    sender_chat: dict[str, Any] | None = None
    forward_origin: dict[str, Any] | None = None
    service: dict[str, Any] = field(default_factory=dict)
    edits: list[Edit] = field(default_factory=list, repr=False)
    edit_date: int | None = None
    deleted: bool = False
    raw_markup: Any = None  # the reply_markup as sent (reply keyboards, force reply, ...)

    @property
    def chat_id(self) -> int:
        return self.chat.id

    @property
    def pinned(self) -> bool:
        return self.message_id in self.chat.pins

    @property
    def from_bot(self) -> bool:
        return bool(self.sender.get("is_bot")) and self.sender.get("username") == BOT_USERNAME

    @property
    def buttons(self) -> list[dict[str, Any]]:
        """All inline buttons of the current keyboard, row by row."""
        if not self.reply_markup:
            return []
        return [button for row in self.reply_markup["inline_keyboard"] for button in row]

    @property
    def button_texts(self) -> list[str]:
        return [button["text"] for button in self.buttons]

    def find_button(self, query: str) -> dict[str, Any]:
        """The button whose text or callback_data equals ``query``, else the only one whose text
        contains it.  Raises LookupError if none matches, ValueError if several texts contain it.
        """
        buttons = self.buttons
        for button in buttons:
            if button["text"] == query or button.get("callback_data") == query:
                return button
        matches = [button for button in buttons if query.lower() in button["text"].lower()]
        if len(matches) == 1:
            return matches[0]
        if matches:
            msg = f"{query!r} matches several buttons: {[b['text'] for b in matches]}"
            raise ValueError(msg)
        msg = f"no button {query!r} in message {self.message_id} (buttons: {self.button_texts})"
        raise LookupError(msg)

    def contains(self, fragment: str) -> bool:
        """``fragment`` in the text or caption as a reader searches it: the invisible bidi
        isolation marks around user names (U+2066..U+2069) are ignored."""
        fragment = unisolated(fragment)
        return fragment in unisolated(self.text) or fragment in unisolated(self.caption)

    def as_dict(self, *, with_reply: bool = True) -> dict[str, Any]:
        """The Bot API ``Message`` object for the current state of this message."""
        data: dict[str, Any] = {
            "message_id": self.message_id,
            "date": self.date,
            "chat": self.chat.as_dict(),
            "from": self.sender,
        }
        optional = {
            "sender_chat": self.sender_chat,
            "forward_origin": self.forward_origin,
            "edit_date": self.edit_date,
            "text": self.text,
            "entities": self.entities if self.text is not None else None,
            "caption": self.caption,
            "caption_entities": self.entities if self.caption is not None else None,
            "document": self.document,
            "photo": self.photo,
            "reply_markup": self.reply_markup,
        }
        data.update({key: value for key, value in optional.items() if value is not None})
        if with_reply and self.reply_to is not None:
            data["reply_to_message"] = self.reply_to.as_dict(with_reply=False)
        data.update(self.service)
        return data


@dataclass(eq=False)
class ChatState:
    """A chat the bot knows: a private chat (``id`` = user id) or a group (negative ``id``).

    Private chats: ``user`` is the Telegram User dict; ``blocked`` means the user blocked the bot.
    Groups: ``members`` maps user id to Member; ``bot`` is the bot's own membership;
    ``migrated_to`` is set once a basic group was upgraded to a supergroup; ``pins`` lists the
    pinned message ids, most recent last.
    """

    id: int
    type: str
    title: str | None = None
    username: str | None = None
    user: dict[str, Any] | None = None
    blocked: bool = False
    members: dict[int, Member] = field(default_factory=dict)
    bot: Member = field(default_factory=lambda: Member("member"))
    permissions: dict[str, bool] = field(default_factory=full_permissions)
    migrated_to: int | None = None
    messages: dict[int, StoredMessage] = field(default_factory=dict, repr=False)
    pins: list[int] = field(default_factory=list)  # pinned message ids, oldest pin first
    next_message_id: int = 1

    @property
    def is_private(self) -> bool:
        return self.type == "private"

    @property
    def chat_instance(self) -> str:
        """A stable opaque identifier of this chat for callback queries."""
        return str((self.id * 2654435761) % (1 << 63))

    def as_dict(self) -> dict[str, Any]:
        """The Bot API ``Chat`` object."""
        if self.is_private:
            assert self.user is not None
            keys = ("first_name", "last_name", "username")
            return {"id": self.id, "type": "private", **{k: self.user[k] for k in keys if self.user.get(k)}}
        data: dict[str, Any] = {"id": self.id, "type": self.type, "title": self.title}
        if self.username:
            data["username"] = self.username
        return data

    def full_info(self) -> dict[str, Any]:
        """The Bot API ``ChatFullInfo`` object returned by getChat."""
        data = self.as_dict()
        data.update({
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": dict.fromkeys(
                ("unlimited_gifts", "limited_gifts", "unique_gifts", "premium_subscription",
                 "gifts_from_channels"),
                False,
            ),
        })
        if not self.is_private:
            data["permissions"] = dict(self.permissions)
        if self.pins:
            data["pinned_message"] = self.messages[self.pins[-1]].as_dict()
        return data

    def add_message(self, **fields: Any) -> StoredMessage:
        message = StoredMessage(chat=self, message_id=self.next_message_id, date=now(), **fields)
        self.messages[message.message_id] = message
        self.next_message_id += 1
        return message


@dataclass
class Call:
    """One request the bot made: ``method`` as called, decoded ``params``, ``at`` (monotonic
    seconds), and either ``result`` or ``error_code``/``description``; ``worker``: the name in
    the path the bot process called (``TELEGRAM_API_URL=<base>/w/<name>``), else None."""

    method: str
    params: dict[str, Any]
    at: float
    ok: bool = True
    result: Any = None
    error_code: int | None = None
    description: str | None = None
    worker: str | None = None


@dataclass
class CallbackAnswer:
    """What the bot answered to a callback query (answerCallbackQuery parameters)."""

    text: str | None = None
    show_alert: bool = False
    url: str | None = None
    cache_time: int = 0


def unisolated(text: str | None) -> str:
    """``text`` without the bidi isolation marks the bot puts around names (bot/ui/names.py)."""
    return (text or "").translate({0x2066: None, 0x2067: None, 0x2068: None, 0x2069: None})
