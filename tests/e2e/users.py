"""Simulated Telegram users for end-to-end tests against FakeBotAPI.

A SimUser acts like a person with a Telegram client: it starts the bot (optionally via a deep
link), writes in private or group chats, presses inline buttons and waits for the bot's answer to
the callback query, blocks the bot, joins and leaves groups.  Every action becomes the update
Telegram would send the bot; waiting for the bot's reaction is the test's business
(``api.wait_for``, ``api.wait_for_message``, ``api.settle``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

if TYPE_CHECKING:
    from .fake_api import FakeBotAPI
    from .model import CallbackAnswer, StoredMessage

_PAYLOAD_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


class SimUser:
    """A person using Telegram; create with ``api.user(id, first_name, username)``."""

    def __init__(self, api: FakeBotAPI, user_id: int, first_name: str, username: str | None = None, *,
                 last_name: str | None = None, language_code: str | None = "ru") -> None:
        self.api = api
        self.id = user_id
        self.first_name = first_name
        self.last_name = last_name
        self.username = username
        self.language_code = language_code

    def __repr__(self) -> str:
        return f"SimUser({self.id}, {self.first_name!r})"

    def as_dict(self) -> dict[str, Any]:
        """The Bot API ``User`` object."""
        data: dict[str, Any] = {"id": self.id, "is_bot": False, "first_name": self.first_name}
        for key in ("last_name", "username", "language_code"):
            if getattr(self, key):
                data[key] = getattr(self, key)
        return data

    @property
    def started(self) -> bool:
        """Whether the private chat with the bot exists (the user wrote to the bot at least once)."""
        return self.id in self.api.chats

    @property
    def blocked(self) -> bool:
        chat = self.api.chats.get(self.id)
        return bool(chat and chat.blocked)

    # --- private chat -----------------------------------------------------------------------------

    async def start(self, payload: str | None = None) -> StoredMessage:
        """Send ``/start`` (``/start PAYLOAD`` for a deep link) in the private chat, unblocking the bot
        first if needed.  Raises ValueError for a payload Telegram would not pass
        (1-64 of A-Z a-z 0-9 _ -)."""
        if payload is not None and not _PAYLOAD_RE.match(payload):
            raise ValueError(f"invalid deep-link payload {payload!r}")
        return await self.say(self.id, "/start" if payload is None else f"/start {payload}")

    async def follow_deep_link(self, url: str) -> StoredMessage:
        """Open ``https://t.me/<bot>?start=PAYLOAD`` (or ``tg://resolve?domain=<bot>&start=PAYLOAD``).

        Raises ValueError for a link to another bot, or one without a start parameter.
        """
        parts = urlsplit(url)
        query = parse_qs(parts.query)
        if parts.scheme in ("http", "https") and parts.netloc in ("t.me", "telegram.me"):
            username = parts.path.strip("/")
        elif parts.scheme == "tg" and parts.netloc == "resolve":
            username = query.get("domain", [""])[0]
        else:
            raise ValueError(f"not a Telegram link: {url}")
        if username.lower() != str(self.api.bot_user["username"]).lower():
            raise ValueError(f"link {url} is not for @{self.api.bot_user['username']}")
        if "start" not in query:
            raise ValueError(f"link {url} has no start parameter")
        return await self.start(query["start"][0])

    async def block_bot(self) -> None:
        """Block the bot: later messages to this user fail with 403 "bot was blocked by the user"."""
        await self.api.set_blocked(self, True)

    async def unblock_bot(self) -> None:
        await self.api.set_blocked(self, False)

    # --- any chat ------------------------------------------------------------------------------------

    async def say(self, chat_id: int, text: str, *, reply_to: int | None = None,
                  anonymous: bool = False) -> StoredMessage:
        """Send ``text`` to ``chat_id`` (this user's id for the private chat).

        Commands get ``bot_command`` entities (``/cmd`` and ``/cmd@mafia_e2e_bot`` alike).
        ``reply_to`` is a message id in the same chat; ``anonymous`` posts as the group (admins only).
        Raises PermissionError if the user may not write there, LookupError for an unknown chat.
        """
        return await self.api.user_message(self, chat_id, text, reply_to=reply_to, anonymous=anonymous)

    async def press(self, chat_id: int, message_id: int | None, button: str, *, timeout: float = 10.0,
                    wait_answer: bool = True) -> CallbackAnswer | None:
        """Press the inline button ``button`` (exact text or callback_data, else a unique text
        substring) of message ``message_id`` (None: the newest message having it) and return the
        bot's answerCallbackQuery (text, show_alert, ...).  See FakeBotAPI.press_button for errors."""
        return await self.api.press_button(self, chat_id, message_id, button, timeout=timeout,
                                           wait_answer=wait_answer)

    # --- groups ---------------------------------------------------------------------------------------

    async def join_group(self, chat_id: int) -> None:
        await self.api.set_membership(self, chat_id, joined=True)

    async def leave_group(self, chat_id: int) -> None:
        """Leave the group: a left_chat_member service message (and chat_member if the bot is admin)."""
        await self.api.set_membership(self, chat_id, joined=False)
