"""Presenter: engine events × audience → localized messages queued on the Sender (design.md §1).

Group chat: one lobby message (edited), one table message (pinned, edited), one message per
speech turn, one vote message per round (edited live), short announcements (merged by the
Sender).  Private chats: role cards (``protect_content``), night keyboards for every living
player (so timing and message count reveal no role, PARTY-Q23), check results, the mafia relay.
Only ``Public`` events reach the group; before ``GameEnded`` none of them names a role.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timezone
from collections.abc import Callable
from html import escape
from typing import Any

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup
from aiogram.utils.deep_linking import create_deep_link

from engine import GameState, Phase, Private, TeamChat, HostOnly, Role, Team, find_ruleset
from engine import events as ev

from . import views
from .presenter_forum import ForumPresenter
from .presenter_online import OnlinePresenter
from .callbacks import Act
from .i18n import Translator
from .replies import reply_kwargs
from .texts import (
    ELIMINATION_CAUSES, INACTIVE_REASONS, NO_ELIMINATION, ROLE_ICONS, ROLE_NAMES, TEAM_NAMES, label,
)

logger = logging.getLogger(__name__)


class Presenter(OnlinePresenter, ForumPresenter):
    """Renders events. ``on_ui_change(game)`` is called when a message id becomes known."""

    def __init__(self, sender, translator: Translator, bot_username: str,
                 on_ui_change: Callable[[Any], None] | None = None) -> None:
        self.sender = sender
        self.tr = translator
        self.bot_username = bot_username
        self.on_ui_change = on_ui_change
        self.titles: dict[int, str] = {}  # chat id -> title, for DMs
        self.clock = lambda: datetime.now(timezone.utc)  # the service's clock (build_app sets it)
        #: ``on_group_text(game, text)`` for every plain group text (no keyboard): the onlookers'
        #: copies (bot/onlookers.py)
        self.on_group_text: Callable[[Any, str], None] | None = None

    # --- refs to standing messages -----------------------------------------------------------
    def ref(self, g, key: str):
        return g.refs.get(key) or g.ui.get(key)

    def keep(self, g, key: str, future) -> None:
        g.refs[key] = future

        def done(f: asyncio.Future) -> None:
            msg = f.result() if not f.cancelled() else None
            if msg is not None and getattr(msg, "message_id", None):
                g.ui[key] = msg.message_id
                if g.refs.get(key) is f:
                    del g.refs[key]
                if self.on_ui_change:
                    self.on_ui_change(g)

        future.add_done_callback(done)

    def deep_link(self, payload: str) -> str:
        return create_deep_link(self.bot_username, "start", payload)

    def bot_url(self) -> str:
        return f"https://t.me/{self.bot_username}"

    # --- entry point -------------------------------------------------------------------------
    def present(self, g, before: GameState | None, after: GameState, events: list) -> None:
        _ = self.tr.get(g.locale)
        for e in events:
            handler = getattr(self, "on_" + type(e).__name__, None)
            if handler is None:
                continue
            try:
                handler(g, _, before, after, e)
            except Exception:
                logger.exception("game %s: rendering %s failed", g.id, type(e).__name__)
        if events and not after.over and after.phase is not Phase.LOBBY:
            night = after.phase is Phase.NIGHT and before is not None and before.phase is Phase.NIGHT
            if not night or any(isinstance(e, (ev.Paused, ev.Resumed)) for e in events):
                # mid-night the table stays as it was: a player coming back by pressing his
                # night button must not show who acted (role hint)
                self.refresh_table(g, _, after)  # skipped by edit() when nothing changed
            if after.host and (before is None or before.phase_seq != after.phase_seq):
                self.refresh_host_next(g, _, after)

    def group(self, g, text: str, markup=None, **kw):
        kw = {**reply_kwargs(g.chat_id), **kw}  # an answer to a command replies to it
        fut = self.sender.send(g.chat_id, text, markup, **kw)
        if markup is None and self.on_group_text is not None:
            self.on_group_text(g, text)
        return fut

    def dm(self, user_id: int, text: str, markup=None, **kw):
        return self.sender.send(user_id, text, markup, **kw)

    def audience_ids(self, st: GameState, audience) -> list[int]:
        if isinstance(audience, Private):
            return [audience.user_id]
        if isinstance(audience, TeamChat) and st.forum is not None:
            return self.forum_team(st)  # FORUM: the Sleepwalker is in the team chat
        if isinstance(audience, TeamChat):
            return [p.user_id for p in st.alive() if p.team is audience.team]
        if isinstance(audience, HostOnly):
            return [st.host] if st.host else []
        return []

    # --- lobby -------------------------------------------------------------------------------
    def lobby_markup(self, g, _):
        markup = views.lobby_keyboard(_, g.id, self.deep_link(f"join_{g.id}"),
                                      self.deep_link(f"host_{g.id}"))
        st = g.state
        if st is not None and st.ruleset == "forum":  # the optional roles' toggles
            from .views_forum import lobby_role_rows
            markup.inline_keyboard.extend(lobby_role_rows(g.id, st))
        return markup

    def refresh_lobby(self, g, _, st: GameState) -> None:
        text = views.lobby_text(_, self.tr.nget(g.locale), st)
        ref = self.ref(g, "lobby")
        if ref is None:
            self.keep(g, "lobby", self.group(g, text, self.lobby_markup(g, _)))
        else:
            self.sender.edit(g.chat_id, ref, text, self.lobby_markup(g, _))

    def on_GameCreated(self, g, _, before, st, e):
        self.refresh_lobby(g, _, st)

    def on_PlayerJoined(self, g, _, before, st, e):
        if st.phase is Phase.LOBBY:
            self.refresh_lobby(g, _, st)

    on_PlayerLeft = on_PlayerJoined

    def on_HostAssigned(self, g, _, before, st, e):
        self.refresh_lobby(g, _, st)

    def on_SettingsChanged(self, g, _, before, st, e):
        if st.phase is Phase.LOBBY:
            self.refresh_lobby(g, _, st)
        else:
            self.group(g, _("⚙️ {player} changed the timings; they apply from the next turn: {t}")
                       .format(player=label(st, e.by), t=views.timings_line(_, st)))

    def on_GameStarted(self, g, _, before, st, e):
        ref = self.ref(g, "lobby")
        if ref is not None:
            names = ", ".join(label(st, p.user_id) for p in st.seated())
            self.sender.edit(g.chat_id, ref, _("🎲 The game has started: {names}").format(names=names))
        text, markup = views.table_text(_, st), views.table_keyboard(_, g.id, st)
        fut = self.group(g, text, markup, merge=False)
        self.keep(g, "table", fut)
        self.remember(g, "table", text, markup)
        fut.add_done_callback(lambda f: self._pin(g, f))
        self.group(g, _("🎭 Roles are dealt in private messages. Seats are drawn at random."))

    def _pin(self, g, fut) -> None:
        msg = fut.result() if not fut.cancelled() else None
        if msg is not None:
            self.sender.pin(g.chat_id, msg.message_id)

    def refresh_table(self, g, _, st: GameState) -> None:
        self.edit(g, "table", g.chat_id, views.table_text(_, st), views.table_keyboard(_, g.id, st))

    def edit(self, g, key: str, chat_id: int, text: str, markup=None) -> None:
        """Edit a standing message unless it already shows exactly this (saves the group budget)."""
        ref = self.ref(g, key)
        if ref is None:
            return
        shown = (text, markup.model_dump_json() if markup is not None else None)
        if g.refs.get("shown:" + key) == shown:
            return
        g.refs["shown:" + key] = shown
        self.sender.edit(chat_id, ref, text, markup)

    def remember(self, g, key: str, text: str, markup=None) -> None:
        g.refs["shown:" + key] = (text, markup.model_dump_json() if markup is not None else None)

    # --- roles -------------------------------------------------------------------------------
    def on_RoleAssigned(self, g, _, before, st, e):
        markup = None
        if st.phase is Phase.READY and st.ready_purpose == "intro" and not st.host:
            markup = InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(
                text=_("✅ I have read my role"),
                callback_data=Act(g=g.id, s=st.phase_seq, a="ready").pack())]])
        text = views.role_card(_, st, e.user_id, g.ui.get("title") or self.titles.get(g.chat_id, ""))
        self.keep(g, f"role:{e.user_id}", self.dm(e.user_id, text, markup, protect_content=True))

    def on_HostRoles(self, g, _, before, st, e):
        lines = [_("🎩 You host this game. Roles:")]
        for uid, role in e.roles:
            lines.append(f"{label(st, uid)} — {ROLE_ICONS[role]} {_(ROLE_NAMES[role])}")
        lines.append("")
        lines.append(_("Use /next in the group (or the button below) to move the game on."))
        self.dm(st.host, "\n".join(lines), self._host_markup(g, _, st), protect_content=True)
        if find_ruleset(st.ruleset).fouls:
            self.send_foul_panel(g, _, st, st.host)
        elif st.forum is not None:
            self.send_moderation_panel(g, _, st, st.host)

    def send_foul_panel(self, g, _, st: GameState, chat_id: int) -> None:
        """CLUB-36/39, CLUB-Q08: the judge's console: a foul or a disqualification per seat.
        The newest console of each chat is kept up to date (``refresh_consoles``)."""
        text = _("⚖️ Fouls: ⚠️ gives a foul, 🟥 disqualifies. /panel shows this again.")
        markup = views.foul_keyboard(g.id, st)
        key = f"console:{chat_id}"
        self.keep(g, key, self.dm(chat_id, text, markup))
        self.remember(g, key, text, markup)

    def refresh_consoles(self, g, _, st: GameState) -> None:
        """Show the current fouls and only the living seats on every console sent."""
        text = _("⚖️ Fouls: ⚠️ gives a foul, 🟥 disqualifies. /panel shows this again.")
        for key in {k for k in (*g.ui, *g.refs) if k.startswith("console:")}:
            self.edit(g, key, int(key.split(":", 1)[1]), text, views.foul_keyboard(g.id, st))

    def refresh_host_next(self, g, _, st) -> None:
        """The host's «Next» for the phase now running (one message, edited per phase)."""
        text = _("🎩 Now: {phase}. «Next» moves the game on.").format(
            phase=views.phase_name(_, st))
        markup = self._host_markup(g, _, st)
        if self.ref(g, "hostnext") is None:
            self.keep(g, "hostnext", self.dm(st.host, text, markup))
            self.remember(g, "hostnext", text, markup)
        else:
            self.edit(g, "hostnext", st.host, text, markup)

    def _host_markup(self, g, _, st):
        """The host's «Next», bound to the current phase: a double tap moves on once."""
        return InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(
            text=_("⏭ Next"), callback_data=Act(g=g.id, s=st.phase_seq, a="next").pack())]])

    def on_MafiaRevealed(self, g, _, before, st, e):
        for uid in self.audience_ids(st, e.audience):
            mates = [label(st, m) + (" " + _("(Don)") if m == e.don else "")
                     for m in e.members if m != uid]
            text = (_("🕶 Your team: {list}.").format(list=", ".join(mates)) if mates
                    else _("🕶 You are the only mafioso."))
            self.dm(uid, text + "\n" + _("At night, whatever you write here is passed to your team."))

    # --- phases ------------------------------------------------------------------------------
    def on_PhaseStarted(self, g, _, before, st, e):
        phase = e.phase
        if st.phase.value != phase or st.phase_seq != e.phase_seq:
            return  # a phase that ended within the same step: nothing to show
        if st.forum is not None and self.forum_phase_started(g, _, st, e):
            return
        self._close_previous(g, _, before, st)
        if phase in ("speech", "defence", "last_word"):
            text, markup = views.turn_text(_, st), views.turn_keyboard(_, g.id, st)
            fut = self.group(g, text, markup)
            self.keep(g, "turn", fut)
            self.remember(g, "turn", text, markup)
            if e.seconds:
                self.countdown(g, e.phase_seq, e.seconds)
        elif phase == "ready":
            fut = self.group(g, views.ready_text(_, st),
                             views.ready_keyboard(_, g.id, st, self.bot_url()))
            self.keep(g, "ready", fut)
            if st.host:
                self.dm(st.host, _("🌙 Night {n}: press «Next» when the table is ready.")
                        .format(n=st.night), self._host_markup(g, _, st))
        elif phase == "night":
            if st.timer is not None and st.timer.kind == "meeting":  # CLUB-08
                self.group(g, _("🌙 <b>Night</b>. The mafia meets for {s} s; everyone else "
                                "sleeps.").format(s=e.seconds))
            else:
                self.group(g, _("🌙 <b>Night {n}</b>. The town sleeps; night roles act in private "
                                "chat (up to {s} s).").format(n=st.night, s=e.seconds))
            for p in st.alive():
                fut = self.dm(p.user_id, views.night_text(_, st, p.user_id),
                              views.night_keyboard(_, g.id, st, p.user_id))
                self.keep(g, f"night:{p.user_id}", fut)
        elif phase == "voting":
            fut = self.group(g, views.vote_text(_, st), views.vote_keyboard(_, g.id, st))
            self.keep(g, "vote", fut)
        elif phase == "exclude_vote":
            fut = self.group(g, views.exclude_text(_, st), views.exclude_keyboard(_, g.id, st))
            self.keep(g, "exclude", fut)
        else:
            self.online_phase_started(g, _, st, e)

    def _close_previous(self, g, _, before, st) -> None:
        """The finished turn's message loses its buttons, and the ready message shows its final
        count, so the group is not left with dead controls (one edit each)."""
        if before is None:
            return
        turn = self.ref(g, "turn")
        if turn is not None and before.phase in (Phase.SPEECH, Phase.DEFENCE, Phase.LAST_WORD) \
                and g.refs.get("closed:turn") != before.phase_seq:
            g.refs["closed:turn"] = before.phase_seq
            self.sender.edit_markup(g.chat_id, turn, None)
        ready = self.ref(g, "ready")
        if ready is not None and before.phase is Phase.READY and st.phase is not Phase.READY:
            total = len(before.alive_active())
            self.edit(g, "ready", g.chat_id, _("🌙 Night {n}: the table is ready ({r}/{t}).").format(
                n=before.night, r=sum(1 for p in before.alive_active() if p.user_id in before.ready),
                t=total), None)

    def countdown(self, g, phase_seq: int, seconds: int) -> None:
        """Edit the turn message at half time and 10 s before the end (two edits a turn)."""
        marks = sorted({m for m in (seconds // 2, 10) if 10 <= m < seconds and seconds >= 20},
                       reverse=True)
        loop = asyncio.get_running_loop()
        for left in marks:
            loop.call_later(seconds - left, self._tick, g, phase_seq, left)

    def _tick(self, g, phase_seq: int, left: int) -> None:
        st = g.state
        if st is None or st.phase_seq != phase_seq or st.pause is not None or st.over:
            return
        if g.deadline is not None:  # after a pause the real remaining time differs
            left = round((g.deadline - self.clock()).total_seconds())
            if left < 3:
                return
        _ = self.tr.get(g.locale)
        self.edit(g, "turn", g.chat_id, views.turn_text(_, st, left), views.turn_keyboard(_, g.id, st))

    def on_TurnSkipped(self, g, _, before, st, e):
        self.group(g, _("⏭ {player} is inactive: turn skipped.").format(player=label(st, e.user_id)))

    def on_ReadyMarked(self, g, _, before, st, e):
        if st.forum is not None:
            self.forum_ready_marked(g, _, st)
            return
        self._refresh_ready(g, _, st)

    def on_ContinueAvailable(self, g, _, before, st, e):
        self._refresh_ready(g, _, st)

    def _refresh_ready(self, g, _, st):
        ref = self.ref(g, "ready")
        if ref is not None and st.phase is Phase.READY:
            self.sender.edit(g.chat_id, ref, views.ready_text(_, st),
                             views.ready_keyboard(_, g.id, st, self.bot_url()))

    def on_NominationAccepted(self, g, _, before, st, e):
        if st.phase is Phase.SPEECH and st.speaker == e.by:
            self.edit(g, "turn", g.chat_id, views.turn_text(_, st), views.turn_keyboard(_, g.id, st))

    # --- voting ------------------------------------------------------------------------------
    def on_VoteWindowOpened(self, g, _, before, st, e):
        ref = self.ref(g, "vote")
        if ref is not None and st.phase is Phase.VOTING and st.vote.current == e.candidate \
                and e.index > 0:
            self.sender.edit(g.chat_id, ref, views.vote_text(_, st), views.vote_keyboard(_, g.id, st))

    def on_VoteCast(self, g, _, before, st, e):
        ref = self.ref(g, "vote")
        if ref is not None and st.phase is Phase.VOTING:
            self.sender.edit(g.chat_id, ref, views.vote_text(_, st), views.vote_keyboard(_, g.id, st))

    def on_VoteResult(self, g, _, before, st, e):
        if st.ruleset == "online":
            self.online_vote_result(g, _, before, st, e)
            return
        if st.forum is not None:
            self.forum_vote_result(g, _, before, st, e)
            return
        ref = self.ref(g, "vote")
        if ref is None or before is None or before.vote is None:
            return
        lines = [_("🗳 Result of the vote:")]
        for cand, voters in e.tally:
            names = ", ".join(f"№{st.players[v].seat}" for v in voters)
            lines.append(f"{label(st, cand)} — {len(voters)}" + (f": {names}" if names else ""))
        self.sender.edit(g.chat_id, ref, "\n".join(lines), None)

    def on_TieRevote(self, g, _, before, st, e):
        if st.forum is not None:
            self.group(g, _("⚖️ Tie between {list}: a revote among them; they do not vote.")
                       .format(list=", ".join(label(st, u) for u in e.candidates)))
            return
        self.group(g, _("⚖️ Tie between {list}: they defend again, then a new vote among them.")
                   .format(list=", ".join(label(st, u) for u in e.candidates)))

    def on_ExcludeVoteCast(self, g, _, before, st, e):
        ref = self.ref(g, "exclude")
        if ref is not None and st.phase is Phase.EXCLUDE_VOTE:
            self.sender.edit(g.chat_id, ref, views.exclude_text(_, st), views.exclude_keyboard(_, g.id, st))

    def on_ExcludeVoteResult(self, g, _, before, st, e):
        if st.ruleset == "online":
            self.online_lift_result(g, _, before, st, e)
            return
        ref = self.ref(g, "exclude")
        if ref is None:
            return
        verdict = _("Accepted: {yes} of {needed} needed.") if e.passed else \
            _("Rejected: {yes} «yes», {needed} needed.")
        self.sender.edit(g.chat_id, ref, _("⚖️ Eliminate all of {list}?").format(
            list=", ".join(label(st, u) for u in e.candidates)) + "\n" +
            verdict.format(yes=e.yes, needed=e.needed), None)

    def on_DayWithoutElimination(self, g, _, before, st, e):
        self.group(g, "🌗 " + _(NO_ELIMINATION[e.reason]))

    def on_PlayerEliminated(self, g, _, before, st, e):
        if st.forum is not None and e.role is not None:
            self.forum_eliminated(g, _, st, e)
            return
        self.refresh_consoles(g, _, st)
        if e.cause == "disqualified":
            self.group(g, _(ELIMINATION_CAUSES[e.cause]).format(player=label(st, e.user_id)))
            self.dm(e.user_id, _("🟥 You are disqualified. Please watch without posting; roles are "
                                 "revealed at the end."))
            return
        if e.cause != "night":
            self.group(g, "☠️ " + _(ELIMINATION_CAUSES[e.cause]).format(player=label(st, e.user_id)))
        self.dm(e.user_id, _("☠️ You are out of the game. You still get your last word; after it "
                             "please watch without posting. Roles are revealed at the end."))

    # --- night -------------------------------------------------------------------------------
    def _refresh_night_dm(self, g, _, st, uid):
        if st.forum is not None:
            self.forum_night_dm(g, _, st, uid)
            return
        ref = self.ref(g, f"night:{uid}")
        if ref is not None and st.phase is Phase.NIGHT:
            self.sender.edit(uid, ref, views.night_text(_, st, uid), views.night_keyboard(_, g.id, st, uid))

    def on_NightActionAccepted(self, g, _, before, st, e):
        # A party pick is shown to the whole team by on_MafiaPicks; a final (club, online) shot
        # has no MafiaPicks event, so the shooter's own keyboard is refreshed here (CLUB-Q09).
        if e.action != "kill" or find_ruleset(st.ruleset).final_shots:
            self._refresh_night_dm(g, _, st, e.user_id)

    def on_MafiaPicks(self, g, _, before, st, e):
        for uid in self.audience_ids(st, e.audience):
            self._refresh_night_dm(g, _, st, uid)

    def on_CheckResult(self, g, _, before, st, e):
        if st.players[e.checker].role is Role.SHERIFF:  # CLUB-32: a colour
            verdict = _("⭐ {player} is <b>black</b>.") if e.is_mafia else \
                _("⭐ {player} is <b>red</b>.")
        else:
            verdict = _("🔎 {player} is <b>mafia</b>.") if e.is_mafia else \
                _("🔎 {player} is <b>not mafia</b>.")
        self.dm(e.checker, verdict.format(player=label(st, e.target)))

    def on_DonCheckResult(self, g, _, before, st, e):
        verdict = _("🎩 {player} <b>is the Sheriff</b>.") if e.is_sheriff else \
            _("🎩 {player} is not the Sheriff.")
        self.dm(e.checker, verdict.format(player=label(st, e.target)))

    def on_FoulCancelled(self, g, _, before, st, e):
        self.group(g, _("↩️ A foul of {player} is taken back ({n} of 4).").format(
            player=label(st, e.player), n=e.count))
        self.refresh_consoles(g, _, st)

    def on_NominationUndone(self, g, _, before, st, e):
        self.group(g, _("↩️ The nomination of {player} is taken back.").format(
            player=label(st, e.target)))
        if st.phase is Phase.SPEECH:
            self.edit(g, "turn", g.chat_id, views.turn_text(_, st), views.turn_keyboard(_, g.id, st))

    def on_FoulIssued(self, g, _, before, st, e):
        text = _("⚠️ Foul to {player} ({n} of 4).").format(player=label(st, e.player), n=e.count)
        if e.count == 3:
            text += " " + _("He loses his next speech but may still nominate.")
        self.group(g, text)
        self.refresh_consoles(g, _, st)

    def on_RelayedMessage(self, g, _, before, st, e):
        for uid in self.audience_ids(st, e.audience):
            if uid != e.sender:
                self.dm(uid, f"🕶 {label(st, e.sender)}: {escape(e.text)}")

    def on_NightResult(self, g, _, before, st, e):
        if e.killed is None:
            text = _("☀️ Morning. Nobody was killed tonight.")
            if e.saved:
                text += " " + _("The doctor saved the victim.")
        else:
            text = _("☀️ Morning. {player} was killed tonight.").format(player=label(st, e.killed))
        self.group(g, text)
        if before is not None:
            for p in before.alive():
                ref = self.ref(g, f"night:{p.user_id}")
                if ref is not None:
                    self.sender.edit_markup(p.user_id, ref, None)

    # --- control -----------------------------------------------------------------------------
    def on_Paused(self, g, _, before, st, e):
        if e.reason == "host_lost":
            text = _("⏸ The host is unreachable; the game waits for the host (up to {m} min) and "
                     "resumes when the host is back in the group. If it does not, the host sends "
                     "/resume here (or an admin /takehost).")
        else:
            text = _("⏸ {player} paused the game. /resume continues it; it resumes by itself "
                     "in {m} min.")
        self.group(g, text.format(player=label(st, e.by), m=(e.seconds or 0) // 60))

    def on_Resumed(self, g, _, before, st, e):
        if st.phase in (Phase.SPEECH, Phase.DEFENCE, Phase.LAST_WORD) and st.timer:
            self.countdown(g, st.phase_seq, st.timer.seconds)
        self.group(g, _("▶️ The game goes on.") if e.by is None else
                   _("▶️ {player} resumed the game.").format(player=label(st, e.by)))

    def on_PlayerInactive(self, g, _, before, st, e):
        if e.user_id == st.host:
            return
        self.group(g, "💤 " + _(INACTIVE_REASONS.get(e.reason, INACTIVE_REASONS["away"]))
                   .format(player=label(st, e.user_id)))

    def on_PlayerActive(self, g, _, before, st, e):
        if st.phase is not Phase.NIGHT:  # at night it would show who just acted
            self.group(g, _("🟢 {player} is back.").format(player=label(st, e.user_id)))
        self.resync(g, _, st, e.user_id)

    def resync(self, g, _, st: GameState, uid: int) -> None:
        """A returning player gets his role card and, at night, his night keyboard again
        (a DM may have failed while he was away: PARTY-44)."""
        p = st.players.get(uid)
        if p is None or not p.seat:
            return
        text = views.role_card(_, st, uid, g.ui.get("title", ""))
        self.dm(uid, text, None, protect_content=True)
        if p.alive and st.phase is Phase.NIGHT:
            fut = self.dm(uid, views.night_text(_, st, uid), views.night_keyboard(_, g.id, st, uid))
            self.keep(g, f"night:{uid}", fut)
        elif p.alive and st.phase is Phase.READY and st.ready_purpose == "intro" \
                and uid not in st.ready and not st.host:
            self.dm(uid, _("Press the button when you have read your role."),
                    InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(
                        text=_("✅ I have read my role"),
                        callback_data=Act(g=g.id, s=st.phase_seq, a="ready").pack())]]))

    def on_OrganiserChanged(self, g, _, before, st, e):
        self.group(g, _("👑 {player} now holds the game rights (pause, settings, stop).")
                   .format(player=label(st, e.user_id)))

    def on_HostModeEnded(self, g, _, before, st, e):
        self.group(g, _("🤖 The bot runs the game from now on."))

    # --- the end -----------------------------------------------------------------------------
    def on_GameEnded(self, g, _, before, st, e):
        self._close_previous(g, _, before, st)
        if st.ruleset == "online":
            head = self.online_result_head(_, st, e)
        elif st.forum is not None:
            head = self.forum_result_head(_, st, e)
        else:
            head = _("🏆 <b>Town wins!</b>") if e.winner is Team.TOWN else _("🏆 <b>Mafia wins!</b>")
        lines = [head, "", _("Roles:")]
        for seat_no, uid, role in e.roles:
            p = st.players[uid]
            mark = "" if p.alive else " ☠️"
            lines.append(f"{label(st, uid)} — {ROLE_ICONS[role]} {_(ROLE_NAMES[role])}{mark}")
        score = self.online_best_move_score(g, _, st) if st.ruleset == "online" else None
        if score:
            lines += ["", score]
        lines.append("")
        lines.append(_("Days played: {n}. Thanks for the game! /newgame starts another.").format(n=e.days))
        self.group(g, "\n".join(lines), merge=False)
        ref = self.ref(g, "table")
        if ref is not None:
            self.sender.edit(g.chat_id, ref, views.table_text(_, st), None)
            self.sender.unpin(g.chat_id, ref)

    def on_GameCancelled(self, g, _, before, st, e):
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
        ref = self.ref(g, "lobby")
        if before is not None and before.phase is Phase.LOBBY and ref is not None:
            self.sender.edit(g.chat_id, ref, text, None)
        else:
            self.group(g, text)
            table = self.ref(g, "table")
            if table is not None:
                self.sender.edit_markup(g.chat_id, table, None)
                self.sender.unpin(g.chat_id, table)


__all__ = ["Presenter", "Role", "TEAM_NAMES"]
