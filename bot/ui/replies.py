"""Answers to a group command are replies to it (issue 10, item 6).

A handler that runs a command for a message wraps the work in :func:`answering`; every group
message the presenter sends for that command meanwhile (the foul it announces, the pause, the
start of the game) carries ``reply_parameters`` to the command message, so after several
``/foul`` s each answer shows whose it is. ``allow_sending_without_reply`` keeps the answer when
the command was deleted meanwhile. A context variable, so concurrent updates never mix.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from aiogram.types import Message, ReplyParameters

_ANSWERING: ContextVar[tuple[int, int] | None] = ContextVar("answering", default=None)


@contextmanager
def answering(message: Message | None) -> Iterator[None]:
    """Within the block, group messages to ``message``'s chat reply to it (groups only)."""
    if message is None or message.chat.type == "private":
        yield
        return
    token = _ANSWERING.set((message.chat.id, message.message_id))
    try:
        yield
    finally:
        _ANSWERING.reset(token)


def reply_kwargs(chat_id: int) -> dict[str, Any]:
    """``{"reply_parameters": ...}`` for a send to ``chat_id`` inside :func:`answering` of a
    message of that chat, else ``{}``."""
    current = _ANSWERING.get()
    if current is None or current[0] != chat_id:
        return {}
    return {"reply_parameters": ReplyParameters(message_id=current[1],
                                                allow_sending_without_reply=True)}
