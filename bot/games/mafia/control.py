"""Pause, presence and game rights (a part of :class:`~bot.games.mafia.presenter.MafiaPresenter`):
paused and resumed, a player away and back (his night message again, PARTY-44),
the organiser and the end of host mode."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from engine import GameState
from engine.mafia import events as ev

from ..hints import Gettext
from .base import PresenterBase

if TYPE_CHECKING:
    from ..hints import Live

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from engine import Phase

from ...ui.callbacks import Act
from ...ui.texts import INACTIVE_REASONS, label
from . import views


class ControlEvents(PresenterBase):
    """Renders the control events; ``self`` is the game's presenter."""

    def on_Paused(self, g: Live, _: Gettext, before: GameState | None, st: GameState, e: ev.Paused) -> None:
        if e.reason == "host_lost":
            text = _("⏸ The host is unreachable; the game waits for the host (up to {m} min) and "
                     "resumes when the host is back in the group. If it does not, the host sends "
                     "/resume here (or an admin /takehost).")
        else:
            text = _("⏸ {player} paused the game. /resume continues it; it resumes by itself "
                     "in {m} min.")
        self.group(g, text.format(player=label(st, e.by), m=(e.seconds or 0) // 60))

    def on_Resumed(self, g: Live, _: Gettext, before: GameState | None, st: GameState, e: ev.Resumed) -> None:
        self.show_clock(g, _, st, always=True)  # the end moved by the pause (BOT-X03)
        self.group(g, _("▶️ The game goes on.") if e.by is None else
                   _("▶️ {player} resumed the game.").format(player=label(st, e.by)))

    def on_PlayerInactive(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                          e: ev.PlayerInactive) -> None:
        if e.user_id == st.host or _eliminated(st, e.user_id):
            return  # an eliminated player's presence means nothing to the table
        if e.reason == "blocked":  # said once until a DM reaches him again (issue 20: flapping)
            blocked = list(g.ui.get("blocked") or [])
            if e.user_id in blocked:
                return
            g.ui["blocked"] = [*blocked, e.user_id]
        self.group(g, "💤 " + _(INACTIVE_REASONS.get(e.reason, INACTIVE_REASONS["away"]))
                   .format(player=label(st, e.user_id)))

    def on_PlayerActive(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                        e: ev.PlayerActive) -> None:
        if _eliminated(st, e.user_id):
            return  # no "back" for him, no role card again (newcomer trial)
        unreachable = e.user_id in (g.ui.get("blocked") or [])
        typed = bool(g.refs.get(f"back:{e.user_id}"))  # his /back: told as his /away was
        if (typed or st.phase is not Phase.NIGHT) and not unreachable:  # a night press: no
            self.group(g, _("🟢 {player} is back.").format(player=label(st, e.user_id)))
        # his role card reached him unless he blocked the bot (issue 20: a press or a /back
        # sent it again, and a second night message beside the live one he had just pressed)
        card = self.resync(g, _, st, e.user_id, card=unreachable)
        if unreachable and card is not None:  # a press of a player who blocked the bot: silent
            card.add_done_callback(lambda f: self._reached(g, e.user_id, f))

    @staticmethod
    def _reached(g: Any, uid: int, future: asyncio.Future[Any]) -> None:  # g: the LiveGame
        """His role card reached him: the bot is unblocked, a later block is told again."""
        if not future.cancelled() and future.exception() is None and future.result() is not None:
            g.ui["blocked"] = [u for u in g.ui.get("blocked") or [] if u != uid]

    def resync(self, g: Live, _: Gettext, st: GameState, uid: int,
               card: bool = True) -> asyncio.Future[Any] | None:
        """A returning player gets his role card again when ``card`` (he had blocked the bot:
        his DMs failed) and, at night, his night message: the one he has, shown as the night now
        is (its buttons stay the live ones), or a new one when he has none or his DMs failed
        (the old one then loses its buttons). PARTY-44. Returns the card's send future (None:
        no card)."""
        p = st.players.get(uid)
        if p is None or not p.seat:
            return None
        sent = None
        if card:
            text = views.role_card(_, st, uid, g.ui.get("title", ""))
            sent = self.dm(uid, text, None, protect_content=True)
        if p.alive and st.phase is Phase.NIGHT:
            key = f"night:{uid}"
            if not card and self.ref(g, key) is not None:
                self.refresh_night_dm(g, _, st, uid)  # an edit only if it shows something else
            else:
                self.close(g, key, uid)  # no second live keyboard beside the new one
                self.keep(g, key, self.dm(uid, *self.night_view(_, g, st, uid)))
        elif p.alive and st.phase is Phase.READY and st.ready_purpose == "intro" \
                and uid not in st.ready and not st.host:
            self.keep(g, f"readme:{uid}", self.dm(
                uid, _("Press the button when you have read your role."),
                InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(
                    text=_("✅ I have read my role"),
                    callback_data=Act(g=g.id, s=st.phase_seq, a="ready").pack())]])))
        return sent

    def on_OrganiserChanged(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                            e: ev.OrganiserChanged) -> None:
        self.group(g, _("👑 {player} now holds the game rights (pause, settings, stop).")
                   .format(player=label(st, e.user_id)))

    def on_HostModeEnded(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                         e: ev.HostModeEnded) -> None:
        self.group(g, _("🤖 The bot runs the game from now on."))


def _eliminated(st: GameState, uid: int) -> bool:
    """``uid`` was seated and is out of the game (his activity no longer matters)."""
    p = st.players.get(uid)
    return bool(p is not None and p.seat and not p.alive)
