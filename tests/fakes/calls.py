"""What the fake session records (calls) and how errors are injected (fail rules)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from aiogram.methods import TelegramMethod
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup


def buttons(markup: InlineKeyboardMarkup | None) -> list[InlineKeyboardButton]:
    """All buttons of an inline keyboard, row by row (empty for ``None``)."""
    if markup is None:
        return []
    return [button for row in markup.inline_keyboard for button in row]


def button_data(markup: InlineKeyboardMarkup | None, text_part: str) -> str:
    """``callback_data`` of the first button whose text contains ``text_part``.

    Raises ``LookupError`` when no such button exists.
    """
    for button in buttons(markup):
        if text_part in button.text and button.callback_data is not None:
            return button.callback_data
    available = [button.text for button in buttons(markup)]
    raise LookupError(f"no button containing {text_part!r}; buttons: {available}")


@dataclass
class Call:
    """One recorded API call. ``time`` is ``loop.time()`` (seconds) when the request arrived."""

    method: str
    request: TelegramMethod[Any]
    chat_id: int | str | None
    text: str | None
    reply_markup: Any
    message_id: int | None
    time: float
    result: Any = None
    error: BaseException | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


class CallLog(list[Call]):
    """The list of recorded calls, with query helpers."""

    def calls_to(
        self, method: str, chat_id: int | None = None, *, ok_only: bool = False
    ) -> list[Call]:
        """Calls of one API method (``"sendMessage"``), optionally to one chat / successful only."""
        return [
            call
            for call in self
            if call.method == method
            and (chat_id is None or call.chat_id == chat_id)
            and (call.ok or not ok_only)
        ]

    def in_chat(self, chat_id: int) -> list[Call]:
        return [call for call in self if call.chat_id == chat_id]

    def texts_in(self, chat_id: int, *, include_edits: bool = False) -> list[str]:
        """Texts of successful ``sendMessage`` calls to ``chat_id`` in order, as sent (markup kept).

        With ``include_edits`` the texts of ``editMessageText`` calls are included too.
        """
        wanted = {"sendMessage", "editMessageText"} if include_edits else {"sendMessage"}
        return [
            call.text
            for call in self
            if call.method in wanted
            and call.chat_id == chat_id
            and call.ok
            and call.text is not None
        ]

    def last_markup(self, chat_id: int) -> Any:
        """``reply_markup`` of the latest successful send/edit to ``chat_id`` that carried one."""
        for call in reversed(self):
            if (
                call.chat_id == chat_id
                and call.ok
                and call.reply_markup is not None
                and call.method in {"sendMessage", "editMessageText", "editMessageReplyMarkup"}
            ):
                return call.reply_markup
        return None

    def methods(self) -> list[str]:
        return [call.method for call in self]


@dataclass
class FailRule:
    """An injected error; ``times=None`` fails forever. ``remaining`` counts down."""

    method: str | None
    chat_id: int | str | None
    error_code: int
    description: str
    remaining: int | None
    retry_after: int | None = None
    migrate_to_chat_id: int | None = None
    network: bool | str = False  # True/"timeout" | "dropped" | "refused"
    body: str | None = None  # a raw (non-JSON) body sent with ``error_code``, e.g. an HTML page
    hang: float = 0.0  # seconds the call hangs before failing
    hits: int = 0

    def matches(self, method: str, chat_id: Any) -> bool:
        if self.remaining is not None and self.remaining <= 0:
            return False
        if self.method is not None and self.method.lower() != method.lower():
            return False
        return self.chat_id is None or self.chat_id == chat_id


def error_payload(rule: FailRule) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "ok": False,
        "error_code": rule.error_code,
        "description": rule.description,
    }
    parameters: dict[str, Any] = {}
    if rule.retry_after is not None:
        parameters["retry_after"] = rule.retry_after
    if rule.migrate_to_chat_id is not None:
        parameters["migrate_to_chat_id"] = rule.migrate_to_chat_id
    if parameters:
        payload["parameters"] = parameters
    return payload
