"""What every part of :class:`~bot.games.mafia.presenter.MafiaPresenter` stands on: the shared
output (``self.out``, the shared :class:`bot.presentation.presenter.Presenter`: the sender, the translator,
the refs of standing messages), reached through the same few methods by every part.

The presenter is put together from parts (``lobby.py``, ``live.py``, ``clock.py``, ``day.py``,
``night_events.py``, ``control.py``, ``host.py``), each a class over :class:`PresenterBase`;
a part calls what another part defines (the lobby edits through ``live_edit``, the night
through ``send_private``...).  Those calls are declared here for the type checker only: the
definitions are the parts' own, and the presenter class joins them."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from aiogram.types import InlineKeyboardMarkup

from engine import GameState

from ..hints import Gettext

if TYPE_CHECKING:
    from ...telegram.sender import Sender
    from ...ui.i18n import Translator
    from ..hints import Live, Out


#: an inline keyboard, or none
Markup = InlineKeyboardMarkup | None


class PresenterBase:
    """The shared output of one game's presenter (``out``: the shared presenter)."""

    def __init__(self, out: Out) -> None:
        self.out = out

    @property
    def sender(self) -> Sender:
        return self.out.sender

    @property
    def tr(self) -> Translator:
        return self.out.tr

    @property
    def titles(self) -> dict[int, str]:
        return self.out.titles

    @property
    def clock(self) -> Callable[[], datetime]:
        return self.out.clock

    @property
    def on_ui_change(self) -> Callable[[Any], None] | None:
        return self.out.on_ui_change

    def ref(self, g: Live, key: str) -> Any:
        """The message id (int) of the standing message ``key``, the future of its send still
        in flight, or None."""
        return self.out.ref(g, key)

    def keep(self, g: Live, key: str, future: asyncio.Future[Any]) -> None:
        """Keep ``future`` as the standing message ``key``: a new message, so what was noted
        about the old one (its head, shown text, held live edit) goes."""
        for note in ("head:", "shown:", "live:", "edited:"):
            g.refs.pop(note + key, None)
        g.ui.pop("head:" + key, None)
        self.out.keep(g, key, future)

    def dm(self, user_id: int, text: str, markup: Markup = None, **kw: Any
           ) -> asyncio.Future[Any]:
        return self.out.dm(user_id, text, markup, **kw)

    def remember(self, g: Live, key: str, text: str, markup: Markup = None) -> None:
        self.out.remember(g, key, text, markup)

    def deep_link(self, payload: str) -> str:
        return self.out.deep_link(payload)

    def bot_url(self) -> str:
        return self.out.bot_url()

    if TYPE_CHECKING:  # the parts' methods other parts call (defined in the files named)
        # live.py
        def group(self, g: Live, text: str, markup: Markup = None, **kw: Any
                  ) -> asyncio.Future[Any]: ...
        def edit(self, g: Live, key: str, chat_id: int, text: str, markup: Markup = None
                 ) -> None: ...
        def live_edit(self, g: Live, key: str, text: str, markup: Markup, *,
                      stored: bool = False) -> None: ...
        def drop_live(self, g: Live, key: str) -> None: ...
        def close(self, g: Live, key: str, chat_id: int, markup: Markup = None) -> None: ...
        def send_private(self, g: Live, key: str, uid: int, text: str, markup: Markup
                         ) -> None: ...
        def announce(self, g: Live, text: str) -> None: ...
        # lobby.py
        def refresh_lobby(self, g: Live, _: Gettext, st: GameState, *,
                          throttled: bool = False) -> None: ...
        # clock.py
        def shown_end(self, g: Live, st: GameState, key: str) -> datetime | None: ...
        def show_clock(self, g: Live, _: Gettext, st: GameState, *, always: bool) -> None: ...
        # night_events.py
        def night_view(self, _: Gettext, g: Live, st: GameState, uid: int
                       ) -> tuple[str, Markup]: ...
        def refresh_night_dm(self, g: Live, _: Gettext, st: GameState, uid: int) -> None: ...
        # presenter.py
        def timings_line(self, _: Gettext, st: GameState) -> str: ...
        def audience_ids(self, st: GameState, audience: object) -> list[int]: ...
        def close_role_card(self, g: Live, _: Gettext, uid: int) -> None: ...
        def close_dm(self, g: Live, key: str, chat_id: int, markup: Markup = None) -> None: ...
        def send_console(self, g: Live, _: Gettext, st: GameState, chat_id: int) -> None: ...
        def refresh_consoles(self, g: Live, _: Gettext, st: GameState) -> None: ...
