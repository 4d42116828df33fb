"""The Sender's queued operations and lanes (see :mod:`bot.telegram.sender` for the theory of operation).

An :class:`Op` is one queued Bot API call: its kind, chat, arguments and the future the caller
holds. ``message_id`` may be a *future* — the result of a send queued earlier in the same lane —
which is resolved when the operation is built, just before it is performed. Sends and edits are
built with :mod:`bot.telegram.results`' methods: their messages are parsed only when read.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiogram.methods import DeleteMessage, PinChatMessage, TelegramMethod, UnpinChatMessage

from bot.telegram.results import EditMessageReplyMarkup, EditMessageText, SendDocument, SendMessage
from bot.telegram.shown import note_chat
from bot.telegram.update_context import ACTING

#: operations that change an existing message and fold into one another
EDITS = ("edit", "edit_markup")


class Unresolved(Exception):
    """An edit/pin of a message whose own send was dropped and cannot be replaced."""


class Fenced(Unresolved):
    """Any call queued by a worker that lost the game's shard since (``Op.guard``, issue 19)."""


#: a message: its id, or the future of its send queued earlier (resolved when its turn comes)
MessageRef = int | asyncio.Future[Any]

@dataclass(eq=False)
class Op:
    """One queued call. ``kind``: send | edit | edit_markup | delete | pin | unpin | document |
    call. ``replaces``: for a send made in place of an edit, the future of the lost message."""

    kind: str
    chat_id: int
    future: asyncio.Future[Any]
    text: str | None = None
    reply_markup: Any = None
    message_id: MessageRef | None = None  # a Future: a message queued earlier
    kwargs: dict[str, Any] = field(default_factory=dict)
    method: TelegramMethod[Any] | None = None
    mergeable: bool = False
    replaces: asyncio.Future[Any] | None = None
    #: many workers: False once the worker lost the shard it was queued for (issue 19)
    guard: Callable[[], bool] | None = field(default_factory=ACTING.get, repr=False)

    def required_text(self) -> str:
        """The text of a send or an edit; ``ValueError`` when it has none (as the Bot API's
        method would raise)."""
        if self.text is None:
            raise ValueError(f"{self.kind} without a text")
        return self.text

    def required_id(self) -> int:
        """The resolved message id of a delete or a pin; ``ValueError`` when it has none."""
        if not isinstance(self.message_id, int):
            raise ValueError(f"{self.kind} without a message id")
        return self.message_id

    def __post_init__(self) -> None:
        note_chat(self.future, self.chat_id)  # the step being presented knows its chats

    def build(self, chat_id: int) -> TelegramMethod[Any]:
        """The Bot API method for this operation in ``chat_id`` (the lane's current id, which a
        migration may have changed). Raises :class:`Unresolved` for a message never sent, and
        for any call queued by a worker that lost the game's shard since (``guard``:
        :class:`Fenced`)."""
        if self.guard is not None and not self.guard():
            raise Fenced(f"{self.kind} queued by a worker that lost the shard")
        kw = self.kwargs
        if isinstance(self.message_id, asyncio.Future):
            sent = self.message_id.result() if self.message_id.done() else None
            if sent is None or not getattr(sent, "message_id", None):
                raise Unresolved(self.kind)
            self.message_id = sent.message_id
        message_id = self.message_id
        assert not isinstance(message_id, asyncio.Future)  # resolved just above
        if self.kind == "send":
            return SendMessage(
                chat_id=chat_id, text=self.required_text(), reply_markup=self.reply_markup, **kw
            )
        if self.kind == "edit":
            return EditMessageText(
                chat_id=chat_id,
                message_id=message_id,
                text=self.required_text(),
                reply_markup=self.reply_markup,
                **kw,
            )
        if self.kind == "edit_markup":
            return EditMessageReplyMarkup(
                chat_id=chat_id, message_id=message_id, reply_markup=self.reply_markup
            )
        if self.kind == "delete":
            return DeleteMessage(chat_id=chat_id, message_id=self.required_id())
        if self.kind == "pin":
            return PinChatMessage(chat_id=chat_id, message_id=self.required_id(), **kw)
        if self.kind == "unpin":
            return UnpinChatMessage(chat_id=chat_id, message_id=message_id)
        if self.kind == "document":
            return SendDocument(chat_id=chat_id, reply_markup=self.reply_markup, **kw)
        assert self.method is not None
        if getattr(self.method, "chat_id", None) not in (None, chat_id):
            return self.method.model_copy(update={"chat_id": chat_id})
        return self.method


@dataclass(eq=False)
class Lane:
    """One chat's FIFO of operations and its worker task (``None`` when idle)."""

    chat_id: int
    queue: deque[Op] = field(default_factory=deque)
    task: asyncio.Task[None] | None = None


def resolve_future(future: asyncio.Future[Any], result: Any) -> None:
    """Set ``result`` unless the future is already done."""
    if not future.done():
        future.set_result(result)
