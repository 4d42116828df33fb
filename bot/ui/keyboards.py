"""Inline keyboard building blocks shared by every game's views (``bot/games/*``)."""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from engine import GameState

from .names import isolate_plain

#: what :func:`button` and :func:`markup_of` copy: validated once, so a copy with ``str`` fields
#: (or buttons) put in is what validating them would build (the same fields, fields set and bot)
_BUTTON = InlineKeyboardButton(text="-", callback_data="-")
_MARKUP = InlineKeyboardMarkup(inline_keyboard=[])


@lru_cache(maxsize=2048)  # ~1.4 KB a button: at most ~3 MB
def button(text: str, callback_data: str | None = None, url: str | None = None,
           web_app: str | None = None) -> InlineKeyboardButton:
    """An ``InlineKeyboardButton`` with exactly one of ``callback_data`` (packed), ``url`` or
    ``web_app`` (the Mini App's URL). Shared, not rebuilt: aiogram's buttons are frozen, and
    validating one costs 7–9 µs — the same table, vote and night buttons are made again for every
    update. A new callback button (``text`` and ``callback_data`` both ``str``, the only types
    the field takes) is a copy of a validated one with them put in (half the time: the fields are
    plain strings, there is nothing to convert). Anything else raises ``pydantic.ValidationError``
    for invalid values, as the constructor does."""
    if web_app is not None:
        return InlineKeyboardButton(text=text, web_app=WebAppInfo(url=web_app))
    if url is not None:
        return InlineKeyboardButton(text=text, url=url)
    if type(text) is str and type(callback_data) is str:
        return _BUTTON.model_copy(update={"text": text, "callback_data": callback_data})
    return InlineKeyboardButton(text=text, callback_data=callback_data)


def markup_of(rows: list[list[InlineKeyboardButton]]) -> InlineKeyboardMarkup:
    """``InlineKeyboardMarkup(inline_keyboard=rows)``: when ``rows`` is a list of lists of
    buttons (what validation would keep as they are), a copy of a validated markup holding
    ``rows`` itself, not a copy (half the time of validating them); anything else is
    validated by the constructor (``pydantic.ValidationError`` as it raises)."""
    if type(rows) is list and all(type(row) is list and all(
            type(b) is InlineKeyboardButton for b in row) for row in rows):
        return _MARKUP.model_copy(update={"inline_keyboard": rows})
    return InlineKeyboardMarkup(inline_keyboard=rows)


class InlineKeyboardBuilder:
    """A lean stand-in for aiogram's builder (which deep-copies every button: ~3 ms a keyboard,
    paid on every mafia pick and vote). Same calls as used here: ``button``, ``row``,
    ``adjust`` (the last size repeats) and ``as_markup``."""

    def __init__(self) -> None:
        self._rows: list[list[InlineKeyboardButton]] = []
        self._buttons: list[InlineKeyboardButton] = []
        self._sizes: tuple[int, ...] = (8,)

    def button(self, *, text: str, callback_data: CallbackData | str) -> None:
        data = callback_data.pack() if isinstance(callback_data, CallbackData) else callback_data
        self._buttons.append(button(text, data))

    def row(self, *buttons: InlineKeyboardButton) -> None:
        self._rows.append(list(buttons))

    def adjust(self, *sizes: int) -> None:
        self._sizes = sizes or (8,)

    def as_markup(self) -> InlineKeyboardMarkup:
        rows = [list(r) for r in self._rows]
        i = 0
        for size in self._iter_sizes():
            if i >= len(self._buttons):
                break
            rows.append(self._buttons[i:i + size])
            i += size
        return markup_of(rows)

    def _iter_sizes(self) -> Iterator[int]:
        yield from self._sizes
        while True:
            yield self._sizes[-1]


def plain_label(st: GameState, uid: int) -> str:
    """A button label for a player: "№3 Name" with the name isolated and cut to 30 characters
    (buttons take no HTML; bot/ui/names.py)."""
    p = st.players[uid]
    return f"№{p.seat} {isolate_plain(p.name, '', 30)}".rstrip()
