"""The last router: presses no other router understood (data that does not parse, an unknown
prefix, a keyboard of an older bot version, forged bytes) are answered "This button is out of
date" and change nothing. Registered after every other router (``bot.app.build_dispatcher``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiogram import Router
from aiogram.types import CallbackQuery
from aiogram.utils.callback_answer import CallbackAnswer

from .common import chat_locale

if TYPE_CHECKING:
    from ..storage import Storage
    from ..ui.i18n import Translator


def router() -> Router:
    r = Router(name="fallback")
    r.callback_query.register(unknown_button)
    return r


async def unknown_button(query: CallbackQuery, storage: Storage, tr: Translator,
                         callback_answer: CallbackAnswer) -> None:
    """Answer a press nobody handled, in the group's language when it came from a group."""
    chat = query.message.chat if query.message is not None else None
    locale = None
    if chat is not None and chat.id < 0:
        locale = await chat_locale(storage, chat.id)
    _ = tr.get(locale)
    callback_answer.text = _("This button is out of date.")
