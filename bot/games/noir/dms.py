"""NOIR's private messages beyond the identity card (NOIR-Q21, Q22, 34): each player's menu
message, and the «I'm back» prompt after auto-pass.

One menu message per turn of a player (``g.ui["m<turn_seq>:<user>"]``, the Suit's window
``"w<stamp>:<user>"``), opened when he has something to do (``legal_actions(...).any``), edited
in place as his draft grows and when his turn goes on (the Suit's shield step, the Psycho's
threats), and closed when he has nothing to do any more: its final text says what he did
(``codec.done_text``) or that his time ran out, without buttons.  ``g.ui["menu_at:<user>"]``
= ``[stamp, turn_seq, key]`` of his open menu, persisted with ``games.ui``, so a restart finds
the menu and its draft still valid; a pause changes nothing (the menus stay)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from engine.noir import Command, Event, NoirState, Resumed, TurnTimedOut, legal_actions

from ...ui.callbacks import Act
from ...ui.deadline_text import clock_time
from ..hints import Gettext
from .codec import done_text
from .drafting import draft, stamp
from .live import NoirLive
from .menus import view

if TYPE_CHECKING:
    from ...ui.i18n import Translator
    from ..hints import Out

logger = logging.getLogger(__name__)


def clock_text(at: datetime | None) -> str | None:
    """A deadline (aware UTC) as HTML clock time, each viewer's own (BOT-X03,
    ``bot/ui/deadline_text.py``: ``<tg-time unix=… format="T">12:02:30 UTC</tg-time>``), None
    without one."""
    return clock_time(at) if at is not None else None


class MenuMixin:
    """The presenter's DM menus; ``self.out`` is the shared presenter, ``self.tr`` its
    translator."""

    out: Out
    tr: Translator

    def until(self, g: NoirLive) -> str | None:
        """The running turn's deadline as clock time (None: paused, no timer); what is shown
        is noted (``g.refs["until"]``) so a deadline moved later is shown again once
        (``deadline_moved``)."""
        st = g.state
        if st is None or st.paused is not None or st.timer is None:
            return None
        g.refs["until"] = g.deadline
        return clock_text(g.deadline)

    def sync_menus(self, g: NoirLive, _: Gettext, before: NoirState | None, st: NoirState,
                   events: Sequence[Event],
                   refresh: bool = False) -> None:
        """Open, move on or close every player's menu after one engine step.  ``refresh``
        (after a restart): every open menu is shown again for the current step, since what
        ``menu_at`` records may have been persisted before its edit went out (an identical
        edit is "not modified", ignored by the Sender)."""
        if st.phase == "play" and st.paused is not None:
            return  # a pause keeps every menu as it is
        timed_out = {e.player for e in events if isinstance(e, TurnTimedOut)}
        resumed = any(isinstance(e, Resumed) for e in events)  # a new deadline to show
        for uid in st.order:
            try:
                self._sync(g, _, before, st, uid, uid in timed_out, resumed or refresh)
            except Exception:  # one player's menu must not stop the others'
                logger.exception("game %s: menu of %s failed", g.id, uid)

    def _sync(self, g: NoirLive, _: Gettext, before: NoirState | None, st: NoirState, uid: int,
              timed_out: bool, resumed: bool = False) -> None:
        la = legal_actions(st, uid)
        at: list[Any] | None = g.ui.get(f"menu_at:{uid}")
        key = at[2] if at else None
        ref = self.out.ref(g, key) if key else None
        s = stamp(st)
        done = g.refs.get(f"done:{uid}")
        if not la.any:
            if at:
                self._close(g, _, before, st, uid, at, done, timed_out)
            return
        if at and at[0] == s and ref is not None:
            if resumed:  # the same menu and draft, until the new deadline
                self.out.edit(g, at[2], uid, *view(_, st, uid, draft(g, uid), g.id, self.until(g)))
            return  # his menu is still the right one
        text, markup = view(_, st, uid, draft(g, uid), g.id, self.until(g))
        if done is not None and before is not None:
            text = done_text(_, before, done) + "\n\n" + text
        same_turn = at and ref is not None and at[1] == st.turn_seq and at[0] >= 0 and s >= 0
        if same_turn and at:  # the Suit's shield step or the Psycho's threats: the same message
            self.out.edit(g, at[2], uid, text, markup)
            g.ui[f"menu_at:{uid}"] = [s, st.turn_seq, key]
            self._changed(g)
            return
        if at:
            self._close(g, _, before, st, uid, at, None, timed_out)
        key = f"w{-s}:{uid}" if s < 0 else f"m{st.turn_seq}:{uid}"
        self.out.keep(g, key, self.out.dm(uid, text, markup))
        self.out.remember(g, key, text, markup)
        g.ui[f"menu_at:{uid}"] = [s, st.turn_seq, key]
        self._changed(g)

    def _close(self, g: NoirLive, _: Gettext, before: NoirState | None, st: NoirState, uid: int,
               at: list[Any], done: Command | None, timed_out: bool) -> None:
        key = at[2]
        ref = self.out.ref(g, key)
        if done is not None and before is not None:
            text = done_text(_, before, done)
        elif at[0] < 0:
            text = _("🛡 The window is closed.")
        elif timed_out:
            text = _("⌛ Time is up: your turn passed.")
        elif st.over:
            text = _("The game is over.")
        else:
            text = _("Your turn is over.")
        if ref is not None:
            self.out.edit(g, key, uid, text, None)
            if not isinstance(ref, int):  # still being sent: forget its id when it comes
                def forget(_sent: asyncio.Future[Any]) -> None:
                    g.ui.pop(key, None)
                    self._changed(g)

                ref.add_done_callback(forget)
        g.ui.pop(key, None)
        g.refs.pop(key, None)
        g.refs.pop("shown:" + key, None)
        g.ui.pop(f"menu_at:{uid}", None)
        self._changed(g)

    def refresh_menu(self, g: NoirLive, uid: int) -> None:
        """Show ``uid``'s menu for his draft now (after a press that only changed the draft)."""
        st = g.state
        at = g.ui.get(f"menu_at:{uid}")
        _ = self.tr.get(g.locale)
        if st is None:
            return  # not loaded: no menu to show
        if not at or at[0] != stamp(st):
            return self.sync_menus(g, _, None, st, [])
        text, markup = view(_, st, uid, draft(g, uid), g.id, self.until(g))
        self.out.edit(g, at[2], uid, text, markup)

    def away_prompt(self, g: NoirLive, _: Gettext, uid: int) -> None:
        """NOIR-Q21: two timeouts in a row; his turns pass until he presses «I'm back» (or
        sends anything)."""
        markup = InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(
            text=_("👋 I'm back"), callback_data=Act(g=g.id, s=0, a="z").pack())]])
        self.out.dm(uid, _("💤 You missed two turns in a row: your turns now pass by themselves. "
                           "Press «I'm back» (or write to me) to play again."), markup)

    def _changed(self, g: NoirLive) -> None:
        if self.out.on_ui_change:
            self.out.on_ui_change(g)
