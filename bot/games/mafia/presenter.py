"""The presenter every mafia preset extends: engine events × audience → messages queued on the
Sender (design.md §1), through the shared :class:`bot.presentation.presenter.Presenter` (the message refs,
the group and private sends).

Group chat: one lobby message (edited), one table message (pinned, edited), one message per
speech turn, one vote message per round (edited live), short announcements (merged by the
Sender).  Private chats: role cards (``protect_content``), night keyboards for every living
player (so timing and message count reveal no role, PARTY-Q23), check results, the mafia relay.
Only ``Public`` events reach the group; before ``GameEnded`` none of them names a role.

A preset subclasses :class:`MafiaPresenter` and overrides the hooks (``phase_started``,
``refresh_night_dm``, ``night_view``, ``result_head``, ``result_extra``, ``send_console``,
``refresh_consoles``, ``lobby_rows``, ``lobby_lines``, ``table_text``) or an ``on_<Event>``.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from engine import GameState
from engine.mafia import events as ev
from engine.mafia.lobby import seat_order

from ..hints import Gettext
from .base import Markup

if TYPE_CHECKING:
    from ..hints import Live

if TYPE_CHECKING:
    from ..hints import Live

import logging

from engine import HostOnly, Phase, Private, Team, TeamChat

from ...ui.callbacks import Act
from ...ui.keyboards import button, markup_of
from ...ui.texts import ROLE_ICONS, ROLE_NAMES, label
from ...ui.timings import timings_text
from . import views
from .clock import ClockEvents
from .control import ControlEvents
from .day import DayEvents
from .host import HostEvents
from .live import LiveMessages
from .lobby import LobbyMessages
from .night_events import NightEvents

logger = logging.getLogger(__name__)


class MafiaPresenter(LobbyMessages, LiveMessages, ClockEvents, DayEvents, NightEvents,
                     ControlEvents, HostEvents):
    """Renders one game's events. ``out`` is the shared :class:`bot.presentation.presenter.Presenter`:
    the sender, the translator and the refs of standing messages live there, once."""

    #: the timings this preset uses, in the order the lobby and /settings show them
    TIMING_KEYS: tuple[str, ...] = ("speech", "defence", "last_word", "vote", "night")

    # --- hooks a preset overrides --------------------------------------------------------------
    def phase_started(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                      e: ev.PhaseStarted) -> bool:
        """Render a phase of the preset's own; False leaves it to the shared code."""
        return False

    def result_head(self, _: Gettext, st: GameState, e: ev.GameEnded) -> str:
        return _("🏆 <b>Town wins!</b>") if e.winner is Team.TOWN else _("🏆 <b>Mafia wins!</b>")

    def result_extra(self, g: Live, _: Gettext, st: GameState) -> str | None:
        """A preset's extra paragraph of the final message (None: nothing)."""
        return None

    def send_console(self, g: Live, _: Gettext, st: GameState, chat_id: int) -> None:
        """The host's (or an admin's) console in ``chat_id``, for presets with one."""

    def refresh_consoles(self, g: Live, _: Gettext, st: GameState) -> None:
        """Bring every console sent up to date (presets with one)."""

    # --- entry point -------------------------------------------------------------------------
    def present(self, g: Live, before: GameState | None, after: GameState, events: list) -> None:
        """Render ``events`` (one engine step: ``before`` -> ``after``) as queued messages."""
        _ = self.tr.get(g.locale)
        self.begin_step(g)
        try:
            for e in events:
                handler = getattr(self, "on_" + type(e).__name__, None)
                if handler is None:
                    continue
                try:
                    handler(g, _, before, after, e)
                except Exception:
                    logger.exception("game %s: rendering %s failed", g.id, type(e).__name__)
        finally:
            self.end_step(g)
        if events and not after.over and after.phase is not Phase.LOBBY:
            night = after.phase is Phase.NIGHT and before is not None and before.phase is Phase.NIGHT
            if not night or any(isinstance(e, (ev.Paused, ev.Resumed)) for e in events):
                # mid-night the table stays as it was: a player coming back by pressing his
                # night button must not show who acted (role hint)
                self.refresh_table(g, _, after)  # skipped by edit() when nothing changed
            if after.host and (before is None or before.phase_seq != after.phase_seq):
                self.refresh_host_next(g, _, after)

    def audience_ids(self, st: GameState, audience: object) -> list[int]:
        if isinstance(audience, Private):
            return [audience.user_id]
        if isinstance(audience, TeamChat):
            return [p.user_id for p in st.alive() if p.team is audience.team]
        if isinstance(audience, HostOnly):
            return [st.host] if st.host else []
        return []

    def timings_line(self, _: Gettext, st: GameState) -> str:
        """The durations this preset uses (``TIMING_KEYS``), from the game's settings."""
        return timings_text(_, st.timings, self.TIMING_KEYS)

    @staticmethod
    def table_text(_: Gettext, st: GameState) -> str:
        """The pinned table (also the onlookers' copy: ``bot.presentation.views.table_text``)."""
        return views.table_text(_, st)

    def on_SettingsChanged(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                           e: ev.SettingsChanged) -> None:
        if st.phase is Phase.LOBBY:
            self.refresh_lobby(g, _, st)
        else:
            self.group(g, _("⚙️ {player} changed the timings; they apply from the next turn: {t}")
                       .format(player=label(st, e.by), t=self.timings_line(_, st)))

    def on_GameStarted(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                       e: ev.GameStarted) -> None:
        if self.ref(g, "lobby") is not None:
            names = ", ".join(label(st, p.user_id) for p in st.seated())
            self.close_lobby(g, _("🎲 The game has started: {names}").format(names=names))
        text, markup = self.table_text(_, st), self.table_markup(g, _, st)
        fut = self.group(g, text, markup, merge=False)
        self.keep(g, "table", fut)
        self.remember(g, "table", text, markup)
        fut.add_done_callback(lambda f: self._pin(g, f))
        # trial22: a tournament's seats are the schedule's (PARTY-X26), not drawn
        self.announce(g, _("🎭 Roles are dealt in private messages. Seats follow the "
                           "tournament's schedule.") if seat_order(st.settings) else
                      _("🎭 Roles are dealt in private messages. Seats are drawn at random."))

    def _pin(self, g: Live, fut: asyncio.Future[Any]) -> None:
        msg = fut.result() if not fut.cancelled() else None
        if msg is not None:
            self.sender.pin(g.chat_id, msg.message_id)

    def refresh_table(self, g: Live, _: Gettext, st: GameState) -> None:
        self.edit(g, "table", g.chat_id, self.table_text(_, st), self.table_markup(g, _, st))

    def table_markup(self, g: Live, _: Gettext, st: GameState) -> Markup:
        """The pinned table's buttons: pause/resume, and the live table's link (Mini App)."""
        markup = views.table_keyboard(_, g.id, st)
        return self.out.with_webapp(_, g, markup, group=True) if not st.over else markup

    def on_RoleAssigned(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                        e: ev.RoleAssigned) -> None:
        markup = None
        if st.phase is Phase.READY and st.ready_purpose == "intro" and not st.host:
            markup = markup_of([[button(
                text=_("✅ I have read my role"),
                callback_data=Act(g=g.id, s=st.phase_seq, a="ready").pack())]])
        markup = self.out.with_webapp(_, g, markup)  # the Mini App, when configured
        text = views.role_card(_, st, e.user_id, g.ui.get("title") or self.titles.get(g.chat_id, ""))
        if markup is None and g.refs.get("stepping"):
            self.hold_card(g, e.user_id, text)  # it may head the first night's message
            return
        self.keep(g, f"role:{e.user_id}", self.dm(e.user_id, text, markup, protect_content=True))
        self.remember(g, f"role:{e.user_id}", text, markup)

    def on_PhaseStarted(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                        e: ev.PhaseStarted) -> None:
        phase = e.phase
        if st.phase.value != phase or st.phase_seq != e.phase_seq:
            return  # a phase that ended within the same step: nothing to show
        if self.phase_started(g, _, before, st, e):
            return
        night_line = None
        if phase == "night":
            if st.timer is not None and st.timer.kind == "meeting":  # CLUB-08
                night_line = _("🌙 <b>Night</b>. The mafia meets for {s} s; everyone else "
                               "sleeps: nobody else has anything to press.").format(s=e.seconds)
            else:
                night_line = _("🌙 <b>Night {n}</b>. The town sleeps; night roles act in private "
                               "chat (up to {s} s).").format(n=st.night, s=e.seconds)
        if self._close_previous(g, _, before, st, night_line):
            night_line = None  # told by the ready message's final text
        if phase in ("speech", "defence", "last_word"):
            self.standing(g, "turn", views.turn_text(_, st, at=self.shown_end(g, st, "turn")),
                          views.turn_keyboard(_, g.id, st))
        elif phase == "ready":
            self.standing(g, "ready", views.ready_text(_, st, at=self.shown_end(g, st, "ready")),
                          views.ready_keyboard(_, g.id, st, self.bot_url()))
            if st.host:
                self.host_prompt(g, _, st, "ready", _(
                    "🌙 Night {n}: press «Next» when the table is ready.").format(n=st.night))
        elif phase == "night":
            if night_line:
                self.announce(g, night_line)
            for p in st.alive():
                self.night_dm(g, _, st, p.user_id)
        elif phase == "voting":
            self.standing(g, "vote", views.vote_text(_, st), views.vote_keyboard(_, g.id, st))
        elif phase == "exclude_vote":
            self.standing(g, "exclude", views.exclude_text(_, st),
                          views.exclude_keyboard(_, g.id, st))

    def _close_previous(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                        night_line: str | None = None) -> bool:
        """The finished turn's message gets its final text and loses its buttons, the ready
        message shows its final count (and ``night_line``, the night's announcement: True when
        it did), and the role cards' «I have read my role» go -- unless the night begins, whose
        messages they become -- so the group is not left with dead controls (one edit each)."""
        if before is None:
            return False
        told = False
        self.close_turn(g, _, before)
        ready = self.ref(g, "ready")
        if ready is not None and before.phase is Phase.READY and st.phase is not Phase.READY:
            # the press that closed the gate is in ``st.ready``, not yet in ``before.ready``
            pressed = before.ready | st.ready
            if before.host:  # PARTY-Q14, X27: the host's «Next» replaced readiness, no count
                text = _("🌙 Night {n}: the host starts the night.").format(n=before.night)
            else:
                text = _("🌙 Night {n}: the table is ready ({r}/{t}).").format(
                    n=before.night, r=sum(1 for p in before.alive_active() if p.user_id in pressed),
                    t=len(before.alive_active()))
            if night_line:
                text, told = text + "\n" + night_line, True
                if self.out.on_group_text is not None:  # the onlookers' copy of it
                    self.out.on_group_text(g, night_line)
            self.edit(g, "ready", g.chat_id, text, None)
        if before.phase is Phase.READY and st.phase is not Phase.READY \
                and before.ready_purpose == "intro" and not before.host \
                and st.phase is not Phase.NIGHT:
            for p in before.seated():  # the gate is closed: «I have read my role» is dead
                self.close_role_card(g, _, p.user_id)
                self.close_dm(g, f"readme:{p.user_id}", p.user_id)
        return told

    def close_turn(self, g: Live, _: Gettext, before: GameState) -> None:
        """The turn of ``before`` (a speech, defence or last word) is over: its message shows
        the final text, without the hint or the buttons (BOT-X03: the one edit at its end)."""
        turn = self.ref(g, "turn")
        if turn is not None and before.phase in (Phase.SPEECH, Phase.DEFENCE, Phase.LAST_WORD) \
                and g.refs.get("closed:turn") != before.phase_seq and before.speaker is not None:
            g.refs["closed:turn"] = before.phase_seq
            self.edit(g, "turn", g.chat_id, views.turn_text(_, before, final=True), None)

    #: private messages kept as ``<prefix>:<chat id>`` whose buttons act on the running game
    GAME_KEYBOARDS: tuple[str, ...] = ("night", "role", "readme", "console", "lastword", "bonus", "best")

    def close_keyboards(self, g: Live, _: Gettext, before: GameState | None) -> None:
        """The game ended or was stopped: none of its buttons stays live (issue 20) -- the last
        turn's «End speech», the night messages and role cards («Sleep»), the judge's console;
        a role card keeps only the Mini App's button."""
        if before is not None:
            self.close_turn(g, _, before)
            self.close_votes(g, _, before)
        for key in {k for k in (*g.ui, *g.refs) if k.count(":") == 1}:
            prefix, chat = key.split(":")
            if prefix in self.GAME_KEYBOARDS and chat.lstrip("-").isdigit():
                keep = self.out.with_webapp(_, g, None) if prefix == "role" else None
                self.close_dm(g, key, int(chat), keep)

    def close_role_card(self, g: Live, _: Gettext, uid: int) -> None:
        """«I have read my role» goes; the Mini App's button (when configured) stays."""
        self.close_dm(g, f"role:{uid}", uid, self.out.with_webapp(_, g, None))

    def close_dm(self, g: Live, key: str, chat_id: int, markup: Markup = None) -> None:
        """The private message kept under ``key`` loses its buttons (once; ``markup``: the
        buttons it keeps, e.g. the Mini App's); its text stays."""
        ref = self.ref(g, key)
        if ref is None or isinstance(ref, (dict, list)):
            return
        self.close(g, key, chat_id, markup)
        g.ui.pop(key, None)
        g.refs.pop(key, None)

    def on_ReadyMarked(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                       e: ev.ReadyMarked) -> None:
        # «I have read my role» stays on the card until the gate closes: the card then becomes
        # the first night's message (night_dm), one edit instead of two; the press is confirmed
        # by its answer and the group's count
        self._refresh_ready(g, _, st)

    def on_ContinueAvailable(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                             e: ev.ContinueAvailable) -> None:
        self._refresh_ready(g, _, st)

    def _refresh_ready(self, g: Live, _: Gettext, st: GameState) -> None:
        ref = self.ref(g, "ready")
        if ref is not None and st.phase is Phase.READY:
            self.live_edit(g, "ready", views.ready_text(_, st, at=self.shown_end(g, st, "ready")),
                           views.ready_keyboard(_, g.id, st, self.bot_url()))

    def on_GameEnded(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                     e: ev.GameEnded) -> None:
        self._close_previous(g, _, before, st)
        self.close_host(g, _, st)
        self.close_keyboards(g, _, before)
        lines = [self.result_head(_, st, e), "", _("Roles:")]
        disqualified = set(g.ui.get("disqualified") or ())
        for _seat_no, uid, role in e.roles:
            p = st.players[uid]
            mark = "" if p.alive else " 🟥" if uid in disqualified else " ☠️"
            lines.append(f"{label(st, uid)} — {ROLE_ICONS[role]} {_(ROLE_NAMES[role])}{mark}")
        extra = self.result_extra(g, _, st)
        if extra:
            lines += ["", extra]
        lines.append("")
        lines.append(_("Days played: {n}. Thanks for the game! /newgame starts another.").format(n=e.days))
        heads = g.refs.pop("heads", None)  # the step's announcements head the result
        self.out.group(g, "\n\n".join([*(heads or ()), "\n".join(lines)]), merge=False)
        ref = self.ref(g, "table")
        if ref is not None:
            self.sender.edit(g.chat_id, ref, self.table_text(_, st), None)
            self.sender.unpin(g.chat_id, ref)

    def on_GameCancelled(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                         e: ev.GameCancelled) -> None:
        self.close_host(g, _, st)
        self.close_keyboards(g, _, before)
        if e.reason == "bot_removed":  # the group is gone for us: tell the players privately
            for p in st.players.values():
                self.dm(p.user_id, _("✖️ The bot was removed from the group, so the game there "
                                     "is over."))
            return
        if e.reason == "expired":
            text = _("⌛ The lobby expired: not enough players.")
        elif e.reason == "abandoned":
            text = _("💤 Every player is away: the game is abandoned. /newgame starts another.")
        else:
            text = _("✖️ The game was cancelled.")
        if before is not None and before.phase is Phase.LOBBY and self.ref(g, "lobby") is not None:
            self.close_lobby(g, text)
        else:
            self.group(g, text)
            table = self.ref(g, "table")
            if table is not None:
                self.sender.edit_markup(g.chat_id, table, None)
                self.sender.unpin(g.chat_id, table)
