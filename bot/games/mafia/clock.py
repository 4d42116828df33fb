"""The timer of a timed message (a part of :class:`~bot.games.mafia.presenter.MafiaPresenter`):
the deadline shown as clock time (catalogue §7, "End speech button next to the timer";
docs/rules/README.md, BOT-X03).

* **The end as clock time.** A turn (speech, defence, last word), the ready gate's wait and a
  preset's timed standing message (the online ballot, the forum's debate and ballot) show their
  deadline as a ``<tg-time>`` entity (``bot/ui/deadline_text.py``): each client renders it in its
  viewer's own time zone. What a message shows is noted (``g.refs["until:<key>"]``).
* **The end moves, the message follows once.** When BOT-X01 moves the running deadline on (its
  step's messages waited in the Sender) by :data:`~bot.ui.deadline_text.MOVED_MIN` seconds or more
  from what the message shows, and after a resume, the message is edited once to the new end;
  never otherwise (no edit every second, no edit for a smaller move).
* **No countdown edit.** The clock time tells every viewer the end, and each edit would spend
  the group's 20 calls a minute (catalogue §7, decided 2026-12-04): besides the moves above, a
  turn's message is edited only when the turn ends (its final text, without buttons:
  ``close_turn``).
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from engine import GameState, Phase

from ...ui.deadline_text import MOVED_MIN, until
from ..hints import Gettext
from . import views
from .base import Markup, PresenterBase

if TYPE_CHECKING:
    from ..hints import Live

#: the phases whose message is the turn message
TURNS = (Phase.SPEECH, Phase.DEFENCE, Phase.LAST_WORD)


class ClockEvents(PresenterBase):
    """The deadline on the timed messages; ``self`` is the game's presenter."""

    def shown_end(self, g: Live, st: GameState, key: str) -> datetime | None:
        """The end the message ``key`` of ``st`` shows: the running timer's deadline, or None
        (no timer, paused, no deadline clock). Noted as what ``key`` shows."""
        at = g.deadline if st.timer is not None and st.pause is None else None
        if at is not None:
            g.refs["until:" + key] = at
        return at

    def clock_view(self, g: Live, _: Gettext, st: GameState) -> tuple[str, str, Markup] | None:
        """``(key, text, keyboard)`` of the standing message that shows the running timer's
        end, or None. A preset with timed messages of its own extends it."""
        if st.phase in TURNS and st.speaker is not None:
            return ("turn", views.turn_text(_, st, at=self.shown_end(g, st, "turn")),
                    views.turn_keyboard(_, g.id, st))
        if st.phase is Phase.READY and st.timer is not None and st.timer.kind == "ready_wait":
            return ("ready", views.ready_text(_, st, at=self.shown_end(g, st, "ready")),
                    views.ready_keyboard(_, g.id, st, self.bot_url()))
        return None

    def show_clock(self, g: Live, _: Gettext, st: GameState, *, always: bool) -> None:
        """Edit the message showing the running deadline to its current end: ``always`` (a
        resume), else only when the end moved by :data:`MOVED_MIN` s or more from what it
        shows. An edit equal to what the message shows is skipped anyway."""
        if st.over or st.pause is not None or g.deadline is None:
            return
        probe = self.clock_key(st)
        shown = g.refs.get("until:" + probe) if probe else None
        if not always and (shown is None
                           or abs((g.deadline - shown).total_seconds()) < MOVED_MIN):
            return
        view = self.clock_view(g, _, st)
        if view is not None and self.ref(g, view[0]) is not None:
            self.edit(g, view[0], g.chat_id, view[1], view[2])

    def clock_key(self, st: GameState) -> str | None:
        """The key of the message that shows the running deadline (as ``clock_view``; a
        preset extends both)."""
        if st.phase in TURNS and st.speaker is not None:
            return "turn"
        if st.phase is Phase.READY:
            return "ready"
        return None

    def deadline_moved(self, g: Live) -> None:
        """BOT-X01 moved the running deadline on: the message shows the new end (once, when
        it moved by :data:`MOVED_MIN` s or more)."""
        st = g.state
        if st is None or st.over:
            return
        self.show_clock(g, self.tr.get(g.locale), st, always=False)

    def with_end(self, g: Live, _: Gettext, st: GameState, text: str, key: str) -> str:
        """``text`` of the timed message ``key`` with its length and its end as clock time
        ("⏱ 60 s. Until 21:04:30.", BOT-X03); as is when the phase has no timer."""
        if st.timer is None:
            return text
        line = _("⏱ {s} s.").format(s=st.timer.seconds)
        at = self.shown_end(g, st, key)
        return text + "\n" + (line + " " + until(_, at) if at is not None else line)

    def restarted(self, g: Live, now: datetime) -> None:
        """After a restart (``now``: aware UTC) a lobby whose last join was held by the throttle
        (``held:lobby``) shows it; a running turn's message already shows its end (BOT-X03)."""
        st = g.state
        if st is None:
            return  # not loaded: nothing runs
        if st.phase is Phase.LOBBY and g.ui.get("held:lobby") and self.ref(g, "lobby"):
            self.refresh_lobby(g, self.tr.get(g.locale), st)
