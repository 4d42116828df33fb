"""The lobby message of the mafia presets (a part of
:class:`~bot.games.mafia.presenter.MafiaPresenter`): sent when the game is created, edited as
players join and leave and as the organiser changes the settings, closed by the start or the
cancellation (``close_lobby``, called from the presenter's ``on_GameStarted`` /
``on_GameCancelled``).

Issue 11 (docs/performance.md, "Messages per game"): a join or a leave edits the lobby at most
once per :data:`~bot.games.mafia.live.LIVE_GAP` seconds of game time (``live_edit``; the joiner
is answered at once in his private chat or by the Mini App); the organiser's own changes
(tempo, the forum's roles, a host) show at once, with every join held so far.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiogram.types import InlineKeyboardMarkup

from engine import GameState
from engine.core import events as cev
from engine.mafia import events as ev

from ..hints import Gettext
from .base import PresenterBase

if TYPE_CHECKING:
    from ..hints import Live

if TYPE_CHECKING:
    from ..hints import Live

from engine import Phase

from . import views


class LobbyMessages(PresenterBase):
    """``self`` is the game's presenter (``views``' lobby text and keyboard, ``live_edit``)."""

    def lobby_markup(self, g: Live, _: Gettext) -> InlineKeyboardMarkup:
        markup = views.lobby_keyboard(_, g.id, self.deep_link(f"join_{g.id}"),
                                      self.deep_link(f"host_{g.id}"))
        if g.state is not None:
            markup.inline_keyboard.extend(self.lobby_rows(_, g.id, g.state))
        return markup

    def lobby_rows(self, _: Gettext, game_id: int, st: GameState) -> list:
        """A preset's own rows of lobby buttons (none here)."""
        return []

    def lobby_lines(self, _: Gettext, st: GameState) -> tuple[str, ...]:
        """A preset's own lines of the lobby text (none here)."""
        return ()

    def refresh_lobby(self, g: Live, _: Gettext, st: GameState, *, throttled: bool = False) -> None:
        """Send or edit the lobby message. ``throttled`` (a join or a leave): at most one edit
        per ``LIVE_GAP`` (``live_edit``; issue 11); otherwise (the organiser's changes, a
        rename) at once."""
        text = views.lobby_text(_, self.tr.nget(g.locale), st, self.timings_line(_, st),
                                self.lobby_lines(_, st))
        markup = self.lobby_markup(g, _)
        if self.ref(g, "lobby") is None:
            self.keep(g, "lobby", self.group(g, text, markup))
            self.remember(g, "lobby", text, markup)
        elif throttled:
            self.live_edit(g, "lobby", text, markup, stored=True)
        else:
            g.refs["edited:lobby"] = self.clock()
            self.edit(g, "lobby", g.chat_id, text, markup)

    def close_lobby(self, g: Live, text: str) -> None:
        """The lobby's last edit (started, cancelled, expired): at once, without buttons; a
        held join is dropped, so no timer edits the closed lobby."""
        self.drop_live(g, "lobby")
        self.sender.edit(g.chat_id, self.ref(g, "lobby"), text, None)

    def on_GameCreated(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                       e: cev.GameCreated) -> None:
        self.refresh_lobby(g, _, st)

    def on_PlayerJoined(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                        e: ev.PlayerJoined) -> None:
        if st.phase is Phase.LOBBY:
            self.refresh_lobby(g, _, st, throttled=True)

    on_PlayerLeft = on_PlayerJoined

    def on_HostAssigned(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                        e: ev.HostAssigned) -> None:
        self.refresh_lobby(g, _, st)

