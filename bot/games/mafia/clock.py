"""The timer of a timed message (a part of :class:`~bot.games.mafia.presenter.MafiaPresenter`):
the deadline shown as clock time and the one countdown edit (catalogue §7, "End speech button
next to the timer"; docs/rules/README.md, BOT-X03).

* **The end as clock time.** A turn (speech, defence, last word), the ready gate's wait and a
  preset's timed standing message (the online ballot, the forum's debate and ballot) show their
  deadline as a ``<tg-time>`` entity (``bot/ui/deadline_text.py``): each client renders it in its
  viewer's own time zone. What a message shows is noted (``g.refs["until:<key>"]``).
* **The end moves, the message follows once.** When BOT-X01 moves the running deadline on (its
  step's messages waited in the Sender) by :data:`~bot.ui.deadline_text.MOVED_MIN` seconds or more
  from what the message shows, and after a resume, the message is edited once to the new end;
  never otherwise (no edit every second, no edit for a smaller move).
* **One countdown edit**, :data:`COUNTDOWN` seconds before the end of a turn of
  :data:`COUNTDOWN_MIN` seconds or more ("⏳ 10 s left"). It is a job on the deadlines' clock
  (``Presenter.arm_clock``, job ``clock:{game}:turn``), armed at the deadline minus 10 s and
  armed again when the deadline moves, after a resume and after a restart (``restarted``): in
  production that clock is the wall clock, as before; the benchmark's ``ManualDeadlines`` fires
  it in game time, so it counts the edit a real game makes.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from engine import GameState

from ..hints import Gettext
from .base import Markup, PresenterBase

if TYPE_CHECKING:
    from ..hints import Live

if TYPE_CHECKING:
    from ..hints import Live

from datetime import timedelta

from engine import Phase

from ...ui.deadline_text import MOVED_MIN, until
from . import views

#: seconds before the end: the turn's one countdown edit
COUNTDOWN = 10
#: seconds: a shorter turn gets no countdown edit
COUNTDOWN_MIN = 20
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
        it moved by :data:`MOVED_MIN` s or more) and the countdown edit follows the end."""
        st = g.state
        if st is None or st.over:
            return
        self.show_clock(g, self.tr.get(g.locale), st, always=False)
        if g.refs.get("countdown") == st.phase_seq:
            self.arm_countdown(g, st.phase_seq)

    # --- the countdown edit -----------------------------------------------------------------------
    def with_end(self, g: Live, _: Gettext, st: GameState, text: str, key: str) -> str:
        """``text`` of the timed message ``key`` with its length and its end as clock time
        ("⏱ 60 s. Until 21:04:30.", BOT-X03); as is when the phase has no timer."""
        if st.timer is None:
            return text
        line = _("⏱ {s} s.").format(s=st.timer.seconds)
        at = self.shown_end(g, st, key)
        return text + "\n" + (line + " " + until(_, at) if at is not None else line)

    def countdown(self, g: Live, phase_seq: int, seconds: int) -> None:
        """Arm the turn's countdown edit, :data:`COUNTDOWN` s before ``g.deadline``, for a turn
        with ``seconds`` (its length, or what is left after a resume or a restart) of
        :data:`COUNTDOWN_MIN` or more: the turn's message states its end, so one edit near it
        is all the timer needs (issue 11)."""
        if seconds >= COUNTDOWN_MIN:
            g.refs["countdown"] = phase_seq
            self.arm_countdown(g, phase_seq)

    def arm_countdown(self, g: Live, phase_seq: int) -> None:
        if g.deadline is not None:
            self.out.arm_clock(g, "turn", g.deadline - timedelta(seconds=COUNTDOWN),
                               self.countdown_due, g, phase_seq)

    async def countdown_due(self, g: Live, phase_seq: int) -> None:
        """The countdown job: "⏳ N s left" on the turn message, while its turn runs."""
        st = g.state
        if st is None or st.phase_seq != phase_seq or st.pause is not None or st.over:
            return
        left = COUNTDOWN
        if g.deadline is not None:  # a job late or early (a pause, a move) shows the truth
            left = round((g.deadline - self.clock()).total_seconds())
            if left < 3:
                return
            if left > COUNTDOWN + 1:  # the end moved on since it was armed: 10 s before it
                self.arm_countdown(g, phase_seq)
                return
        _ = self.tr.get(g.locale)
        self.edit(g, "turn", g.chat_id,
                  views.turn_text(_, st, left, at=self.shown_end(g, st, "turn")),
                  views.turn_keyboard(_, g.id, st))

    def restarted(self, g: Live, now: datetime) -> None:
        """After a restart the turn that was running keeps its countdown edit (``now``: aware
        UTC), and a lobby whose last join was held by the throttle (``held:lobby``) shows it."""
        st = g.state
        if st is None:
            return  # not loaded: nothing runs
        if st.phase is Phase.LOBBY and g.ui.get("held:lobby") and self.ref(g, "lobby"):
            self.refresh_lobby(g, self.tr.get(g.locale), st)
        if st.speaker is not None and st.pause is None and g.deadline:
            left = int((g.deadline - now).total_seconds())
            if left > 0:
                self.countdown(g, st.phase_seq, left)
