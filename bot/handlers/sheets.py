"""The judge's score sheet in his private chat (issue 21, docs/rules/scoring.md SCORE-X12..X15):
every :class:`bot.ui.callbacks.Sheet` press goes to :meth:`bot.history.sheets.SheetService.press`,
whose answer (a refusal, the seat's new points) is the press's callback answer.  Forged data
that does not parse never reaches here (``handlers/fallback.py`` answers it)."""

from __future__ import annotations

from aiogram import Router
from aiogram.types import CallbackQuery
from aiogram.utils.callback_answer import CallbackAnswer

from ..history.sheets import SheetService
from ..ui.callbacks import Pressed, Sheet


def router() -> Router:
    r = Router(name="sheets")
    r.callback_query.register(sheet_button, Pressed(Sheet))
    return r


async def sheet_button(query: CallbackQuery, callback_data: Sheet, sheets: SheetService,
                       callback_answer: CallbackAnswer) -> None:
    msg = query.message
    if msg is None:  # too old for Telegram to say where it was: the sheet is found by its game
        return
    answer = await sheets.press(query.from_user.id, msg.chat.id, msg.message_id, callback_data)
    if answer:
        callback_answer.text = answer
