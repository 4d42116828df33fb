"""Bot API results the Sender mostly does not read, parsed only when read.

aiogram parses every answer into pydantic objects (``BaseSession.check_response`` validates
``Response[method.__returning__]``): an ``editMessageText`` answer becomes a whole ``Message``
with its chat, its sender and every button of its keyboard (~0.1 ms of CPU each), although the
bot reads at most its ``message_id``. The Sender's own calls are therefore made with the
subclasses below, whose ``__returning__`` keeps a message as the JSON Telegram sent
(a :class:`LazyMessage`): ``message_id`` is read from it directly, anything else parses the whole
``Message`` once, on first read. Everything else about a call is aiogram's own: the request is
the same, and ``check_response`` still raises the same errors for the same answers (4xx, 429,
migrations, 5xx, bodies that are not JSON); an answer that is not a message (``True`` for an
inline message, a malformed result) is validated at once as before.

Shapes::

    sent = await bot(SendMessage(chat_id=1, text="hi"))   # the class of this module
    sent.message_id        # int, no parsing
    sent.chat.id           # parses the Message once (sent.message is the parsed Message)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from aiogram import methods
from aiogram.methods import Response
from aiogram.types import Message
from pydantic import TypeAdapter, ValidationInfo
from pydantic.functional_validators import PlainValidator

if TYPE_CHECKING:
    from aiogram import Bot

__all__ = [
    "EditMessageReplyMarkup",
    "EditMessageText",
    "LazyMessage",
    "SendDocument",
    "SendMessage",
    "parsed",
]


class LazyMessage:
    """A ``Message`` result kept as its JSON (a dict with an int ``message_id``).

    ``message_id`` (int) is read from the JSON; :attr:`message` is the parsed aiogram ``Message``
    (bound to the bot, so ``.edit_text()`` and friends work), built on first use; any other
    attribute is read from it. Raises ``pydantic.ValidationError`` on first parse if the JSON is
    not a valid message (Telegram's never is)."""

    __slots__ = ("_bot", "_data", "_message")

    def __init__(self, data: dict[str, Any], bot: Bot | None) -> None:
        self._data = data
        self._bot = bot
        self._message: Message | None = None

    @property
    def message_id(self) -> int:
        return self._data["message_id"]

    @property
    def message(self) -> Message:
        """The parsed ``Message`` (parsed once)."""
        if self._message is None:
            self._message = Message.model_validate(self._data, context={"bot": self._bot})
        return self._message

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):  # copy, pickle and friends must not parse
            raise AttributeError(name)
        return getattr(self.message, name)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyMessage):
            other = other.message
        return self.message == other

    def __hash__(self) -> int:
        return hash(self.message)

    def __repr__(self) -> str:
        chat = self._data.get("chat")
        chat_id = chat.get("id") if isinstance(chat, dict) else None
        return f"LazyMessage(message_id={self.message_id!r}, chat_id={chat_id!r})"


def parsed(result: Any) -> Any:
    """``result`` with a :class:`LazyMessage` replaced by its parsed ``Message``."""
    return result.message if isinstance(result, LazyMessage) else result


#: ``check_response`` parametrises ``Response[method.__returning__]`` on every call, and pydantic
#: caches parametrised models weakly: without these references each would be rebuilt (~40 ms)
#: whenever the garbage collector has dropped it.
_RESPONSES: list[Any] = []


def _lazy(returning: Any) -> Any:
    """The type to validate a result of ``returning`` with: a message stays a LazyMessage."""
    full = TypeAdapter(returning)

    def validate(value: Any, info: ValidationInfo) -> Any:
        if isinstance(value, dict) and type(value.get("message_id")) is int:
            return LazyMessage(value, (info.context or {}).get("bot"))
        return full.validate_python(value, context=info.context)

    lazy = Annotated[returning, PlainValidator(validate)]
    _RESPONSES.append(Response[lazy])
    return lazy


class SendMessage(methods.SendMessage):
    """aiogram's ``SendMessage``; its result is a :class:`LazyMessage`."""

    __returning__ = _lazy(Message)


class EditMessageText(methods.EditMessageText):
    """aiogram's ``EditMessageText``; its result is a :class:`LazyMessage` (or ``True``)."""

    __returning__ = _lazy(Message | bool)


class EditMessageReplyMarkup(methods.EditMessageReplyMarkup):
    """aiogram's ``EditMessageReplyMarkup``; its result is a :class:`LazyMessage` (or ``True``)."""

    __returning__ = _lazy(Message | bool)


class SendDocument(methods.SendDocument):
    """aiogram's ``SendDocument``; its result is a :class:`LazyMessage`."""

    __returning__ = _lazy(Message)
