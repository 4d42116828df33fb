"""The names the games' bot packages annotate with (types only: nothing here runs).

``Gettext``: a ``gettext`` bound to one locale (``Translator.get``); ``NGettext``: its plural
form (``Translator.nget``: singular, plural, count).  :class:`Live` is the live game
(``bot.services.game_service.LiveGame``) and :class:`Out` the shared presenter
(``bot.presentation.presenter.Presenter``)
as the games use them: protocols, since both of those modules import the games' registry (an
import of them from here would close a cycle, which the import contracts forbid)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from aiogram.types import InlineKeyboardMarkup

from engine import GameState

if TYPE_CHECKING:
    from ..telegram.sender import Sender
    from ..ui.i18n import Translator

Gettext = Callable[[str], str]
NGettext = Callable[[str, str, int], str]


class LiveRefs(Protocol):
    """What the shared presenter reads of any live game: ``id``, its group ``chat_id``, ``ui``
    (message ids and drafts persisted in ``games.ui``) and ``refs`` (sends still in flight,
    what the standing messages show; in memory only)."""

    id: int
    chat_id: int
    ui: dict[str, Any]
    refs: dict[str, Any]


class Live(LiveRefs, Protocol):
    """A live game of a mafia preset: its ``locale``, ``state`` (None until loaded) and the
    running timer's ``deadline`` (aware UTC; None without one)."""

    locale: str
    state: GameState | None
    deadline: datetime | None


class Out(Protocol):
    """The shared presenter: the Sender, the translator, the chats' titles (for DMs), the
    service's clock, the callbacks ``on_ui_change(game)`` (a message id became known) and
    ``on_group_text(game, text)`` (the onlookers' copy of a plain group text), the Mini App's
    URL (None: off), and the standing messages' refs and sends (``bot/presentation/presenter.py``)."""

    sender: Sender
    tr: Translator
    titles: dict[int, str]
    clock: Callable[[], datetime]
    on_ui_change: Callable[[Any], None] | None
    on_group_text: Callable[[Any, str], None] | None
    webapp_url: str | None

    def ref(self, g: LiveRefs, key: str) -> Any: ...

    def keep(self, g: LiveRefs, key: str, future: asyncio.Future[Any]) -> None: ...

    def edit(self, g: LiveRefs, key: str, chat_id: int, text: str,
             markup: InlineKeyboardMarkup | None = None) -> None: ...

    def remember(self, g: LiveRefs, key: str, text: str,
                 markup: InlineKeyboardMarkup | None = None) -> None: ...

    def group(self, g: LiveRefs, text: str, markup: InlineKeyboardMarkup | None = None,
              **kw: Any) -> asyncio.Future[Any]: ...

    def dm(self, user_id: int, text: str, markup: InlineKeyboardMarkup | None = None,
           **kw: Any) -> asyncio.Future[Any]: ...

    def deep_link(self, payload: str) -> str: ...

    def bot_url(self) -> str: ...

    def with_webapp(self, _: Gettext, g: LiveRefs, markup: InlineKeyboardMarkup | None, *,
                    group: bool = False) -> InlineKeyboardMarkup | None: ...

    def arm_clock(self, g: LiveRefs, what: str, run_at: datetime,
                  func: Callable[..., Any], *args: Any) -> None: ...


__all__ = ["Gettext", "Live", "LiveRefs", "NGettext", "Out"]
