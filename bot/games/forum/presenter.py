"""The forum preset's presenter (docs/rules/forum.md), on top of the shared mafia presentation.
Group: the night and the morning, the discussion, the live ballot, the
leaving cards, warnings and removals, the after-game.  Private chats: night keyboards from
``legal_actions`` (the Cop's turn first), the team chat (``engine.forum.team_chat``: the
Sleepwalker too), last-word extras, the host's decisions and panel, the bonus round and the
best-player vote.  Before ``VictoryDeclared`` the only role a group message names is the card of
a player who leaves (FORUM-Q08)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import ForumPhase, GameState, Phase, TeamChat
from engine.forum import events as fev
from engine.forum import team_chat
from engine.mafia import events as ev

from ...ui import drafts
from ...ui.texts import label
from ..hints import Gettext
from ..mafia import views
from ..mafia.base import Markup
from ..mafia.presenter import MafiaPresenter
from . import views as vf
from .after import AfterGameEvents
from .cards import card as _card
from .moderation import ModerationEvents

if TYPE_CHECKING:
    from ..hints import Live


class ForumPresenter(AfterGameEvents, ModerationEvents, MafiaPresenter):
    """Renders a forum game: its own phases and events, and the shared ones it overrides."""

    TIMING_KEYS: tuple[str, ...] = ("forum_day", "forum_vote", "last_word", "meeting", "cop", "forum_night")
    GAME_KEYBOARDS: tuple[str, ...] = (*MafiaPresenter.GAME_KEYBOARDS, "decide")

    # --- the shared hooks --------------------------------------------------------------------
    def audience_ids(self, st: GameState, audience: object) -> list[int]:
        if isinstance(audience, TeamChat):
            return list(team_chat(st))  # FORUM: the Sleepwalker is in the team chat
        return super().audience_ids(st, audience)

    def lobby_rows(self, _: Gettext, game_id: int, st: GameState) -> list:
        return vf.lobby_role_rows(_, game_id, st)  # the optional roles' toggles

    def lobby_lines(self, _: Gettext, st: GameState) -> tuple[str, ...]:
        return (vf.lobby_roles_line(_, st),)

    @staticmethod
    def table_text(_: Gettext, st: GameState) -> str:
        return views.table_text(_, st, vf.warnings_mark,
                                nights=(*views.NIGHTS, ForumPhase.COP_TURN))

    def refresh_night_dm(self, g: Live, _: Gettext, st: GameState, uid: int) -> None:
        self.forum_night_dm(g, _, st, uid)

    def night_view(self, _: Gettext, g: Live, st: GameState, uid: int) -> tuple[str, Markup]:
        first = drafts.pair_first(g, uid)
        return vf.night_text(_, st, uid, first), vf.night_keyboard(_, g.id, st, uid, first)

    def send_console(self, g: Live, _: Gettext, st: GameState, chat_id: int) -> None:
        self.send_moderation_panel(g, _, st, chat_id)

    def refresh_consoles(self, g: Live, _: Gettext, st: GameState) -> None:
        self.refresh_moderation(g, _, st)

    def on_ReadyMarked(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                       e: ev.ReadyMarked) -> None:
        self.forum_ready_marked(g, _, st)

    def on_VoteResult(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                      e: ev.VoteResult) -> None:
        self.forum_vote_result(g, _, before, st, e)

    def on_TieRevote(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                     e: ev.TieRevote) -> None:
        self.announce(g, _("⚖️ Tie between {list}: a revote among them; they do not vote.")
                   .format(list=", ".join(label(st, u) for u in e.candidates)))

    def on_PlayerEliminated(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                            e: ev.PlayerEliminated) -> None:
        if e.role is None:
            super().on_PlayerEliminated(g, _, before, st, e)
        else:
            self.forum_eliminated(g, _, st, e, e.role)

    # --- the timed messages (BOT-X03) --------------------------------------------------------
    def ballot_view(self, g: Live, _: Gettext, st: GameState) -> str:
        """The open ballot with its length and its end as clock time."""
        return self.with_end(g, _, st, vf.ballot_text(_, st), "ballot")

    def clock_key(self, st: GameState) -> str | None:
        if st.phase is ForumPhase.DEBATE:
            return "debate"
        if st.phase is ForumPhase.BALLOT and st.forum.stage != "host":
            return "ballot"
        return super().clock_key(st)

    def clock_view(self, g: Live, _: Gettext, st: GameState) -> tuple[str, str, Markup] | None:
        key = self.clock_key(st)
        if key == "debate":
            return key, vf.debate_text(_, st, g.refs.get("debate_seconds"),
                                       self.shown_end(g, st, key)), vf.debate_keyboard(_, g.id, st)
        if key == "ballot":
            return key, self.ballot_view(g, _, st), vf.ballot_keyboard(_, g.id, st)
        return super().clock_view(g, _, st)

    # --- helpers -----------------------------------------------------------------------------

    def forum_night_dm(self, g: Live, _: Gettext, st: GameState, uid: int, send: bool = False) -> None:
        first = drafts.pair_first(g, uid)
        text = vf.night_text(_, st, uid, first)
        markup = vf.night_keyboard(_, g.id, st, uid, first)
        key = f"night:{uid}"
        if send:
            self.send_private(g, key, uid, text, markup)
        elif st.phase in (Phase.NIGHT, ForumPhase.COP_TURN):
            self.edit(g, key, uid, text, markup)

    def close_votes(self, g: Live, _: Gettext, before: GameState | None) -> None:
        """The discussion or the ballot cut short -- the game won by a removal, stopped or
        abandoned in it -- shows how it stood, without buttons (issue 20: they stayed live)."""
        if before is not None:
            self.forum_close_group(g, "debate", vf.debate_text(_, before))
            if before.forum is not None and before.vote is not None:
                self.forum_close_group(g, "ballot", vf.ballot_text(_, before, final=True))

    def forum_close_dms(self, g: Live, prefix: str) -> None:
        """Take the keyboards off every private message kept under ``prefix``."""
        for key in {k for k in (*g.ui, *g.refs) if k.startswith(prefix)}:
            self.close(g, key, int(key.split(":", 1)[1]))  # not when it has no keyboard left
            g.ui.pop(key, None)
            g.refs.pop(key, None)

    # --- phases ------------------------------------------------------------------------------
    def phase_started(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                      e: ev.PhaseStarted) -> bool:
        """Render a forum phase; False for phases the shared code renders."""
        phase = e.phase
        if before is not None:  # a finished last word: final text, no buttons (also in DM)
            self.close_turn(g, _, before)
            if before.phase is Phase.LAST_WORD and before.phase_seq != st.phase_seq:
                self.forum_close_dms(g, "lastword:")
            self.forum_close_dms(g, "decide:")  # the host's decision on a tied revote
        if phase == "cop_turn":
            self.forum_close_dms(g, "night:")
            self.group(g, _("🌙 <b>Night {n}</b>. The Cop moves first (up to {s} s); the other "
                            "roles wait.").format(n=st.night, s=e.seconds))
            for p in st.alive():
                if vf.legal_actions(st, p.user_id).night_action == "block":
                    self.forum_night_dm(g, _, st, p.user_id, send=True)
        elif phase == "night":
            self.forum_close_dms(g, "night:")
            if st.night <= 1:
                self.group(g, _("🌙 <b>Night 1</b>: the acquaintance. Nobody acts tonight; the "
                                "mafia meet in private chat (up to {s} s).").format(s=e.seconds))
            else:
                self.group(g, _("🌙 <b>Night {n}</b>. The town sleeps; night roles act in private "
                                "chat (up to {s} s).").format(n=st.night, s=e.seconds))
            for p in st.alive():
                done = st.night_actions.get(p.user_id)
                if done is not None and done[0] == "block" \
                        and vf.night_keyboard(_, g.id, st, p.user_id) is None:
                    continue  # the Cop: his turn's message says whom he covers (issue 20: twice)
                self.forum_night_dm(g, _, st, p.user_id, send=True)
        elif phase == "debate":
            text = vf.debate_text(_, st, e.seconds, self.shown_end(g, st, "debate"))
            markup = vf.debate_keyboard(_, g.id, st)
            self.standing(g, "debate", text, markup)
            g.refs["debate_seconds"] = e.seconds
        elif phase == "ballot":
            self.forum_close_group(g, "debate", vf.debate_text(_, st))
            if st.forum.stage == "host":
                self.group(g, vf.ballot_text(_, st))
                if st.host:  # kept: closed when the phase moves on (issue 20: it stayed live)
                    self.send_private(g, f"decide:{st.host}", st.host, _(
                        "⚖️ The revote is tied. Remove one of the tied, or nobody."),
                        vf.host_decide_keyboard(_, g.id, st))
                return True
            self.standing(g, "ballot", self.ballot_view(g, _, st), vf.ballot_keyboard(_, g.id, st))
        elif phase == "last_word":
            text = views.turn_text(_, st, at=self.shown_end(g, st, "turn"))
            self.standing(g, "turn", text, views.turn_keyboard(_, g.id, st))
            self.forum_last_word_dm(g, _, st, send=True)
        elif phase == "bonus_offer":
            text = _("🎲 The host or the organiser may start a bonus round: everybody guesses "
                     "the survivors' roles before the reveal, {n} s. The offer stands for {s} s.") \
                .format(n=st.timings.get("bonus", 0), s=e.seconds)  # issue 20: the round's own
            self.standing(g, "bonus_offer", text, vf.bonus_offer_keyboard(_, g.id, st))
        elif phase == "bonus":
            self.forum_close_group(g, "bonus_offer", _("🎲 The bonus round is on."))
            self.group(g, _("🎲 <b>Bonus round</b>: guess the survivors' roles in your private "
                            "chat ({s} s).").format(s=e.seconds))
            for p in st.seated():
                self.forum_bonus_dm(g, _, st, p.user_id, send=True)
        elif phase == "best_player":
            self.forum_close_group(g, "bonus_offer", _("🎲 No bonus round."))
            self.announce(g, _("🏅 Vote for the best player of the game in your private chat "
                               "({s} s).").format(s=e.seconds))
            for p in st.seated():
                ballot = vf.best_player_keyboard(_, g.id, st, p.user_id)
                if ballot is not None:
                    self.keep(g, f"best:{p.user_id}", self.dm(
                        p.user_id, _("🏅 Who was the best player?"), ballot))
        else:
            return False
        return True

    def forum_close_group(self, g: Live, key: str, text: str) -> None:
        ref = self.ref(g, key)
        if ref is not None:
            self.edit(g, key, g.chat_id, text, None)
            g.ui.pop(key, None)
            g.refs.pop(key, None)

    def forum_last_word_dm(self, g: Live, _: Gettext, st: GameState, send: bool = False) -> None:
        uid = st.speaker
        if uid is None:
            return
        markup = vf.last_word_keyboard(_, g.id, st, uid)
        key = f"lastword:{uid}"
        text = vf.last_word_text(_, st, uid)
        if send:
            la = vf.legal_actions(st, uid)
            if la.suspect or la.reveal_check:
                self.keep(g, key, self.dm(uid, text, markup))
                self.remember(g, key, text, markup)
        else:
            self.edit(g, key, uid, text, markup)

    def forum_bonus_dm(self, g: Live, _: Gettext, st: GameState, uid: int, send: bool = False) -> None:
        draft = drafts.bonus(g, uid)
        text, markup = vf.bonus_text(_, st, draft), vf.bonus_keyboard(_, g.id, st, uid, draft)
        key = f"bonus:{uid}"
        if send:
            if markup is not None:
                self.keep(g, key, self.dm(uid, text, markup))
                self.remember(g, key, text, markup)
        else:
            self.edit(g, key, uid, text, markup)

    # --- the night ---------------------------------------------------------------------------
    def on_NightWake(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                     e: fev.NightWake) -> None:
        wake = _("🌙 You wake as {card} and meet the host.") if st.host else \
            _("🌙 Night 1: you wake as {card}.")
        lines = [wake.format(card=_card(_, e.role))]
        if e.mafia:
            lines.append(_("🕶 The mafiosi: {list}. They do not know you.").format(
                list=", ".join(label(st, m) for m in e.mafia)))
        self.dm(e.user_id, "\n".join(lines))

    def on_SideChosen(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                      e: fev.SideChosen) -> None:
        side = vf.side_name(_, e.side)
        for uid in self.audience_ids(st, e.audience):
            if uid == e.user_id:
                text = (_("No side chosen: you play for {side}.") if e.by_default
                        else _("Your side: {side}.")).format(side=side)
                self.forum_night_dm(g, _, st, uid)
            else:
                text = _("🎩 {player} plays for {side}.").format(player=label(st, e.user_id),
                                                               side=side)
            self.dm(uid, text)

    def on_MafiaBlocked(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                        e: fev.MafiaBlocked) -> None:
        for uid in self.audience_ids(st, e.audience):
            self.dm(uid, _("👮 The Cop covered one of the mafia: no kill tonight."))
            self.forum_night_dm(g, _, st, uid)

    def on_CheckShrugged(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                         e: fev.CheckShrugged) -> None:
        self.dm(e.checker, _("🔎 No answer about {player} tonight.").format(
            player=label(st, e.target)))

    def on_ComparisonResult(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                            e: fev.ComparisonResult) -> None:
        pair = {"a": label(st, e.first), "b": label(st, e.second)}
        if e.same is None:
            text = _("📰 No answer about {a} and {b} tonight.")
        elif e.same:
            text = _("📰 {a} and {b} play for the <b>same</b> side.")
        else:
            text = _("📰 {a} and {b} play for <b>different</b> sides.")
        self.dm(e.checker, text.format(**pair))
        self.forum_night_dm(g, _, st, e.checker)

    def on_SleepwalkerRevealed(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                               e: fev.SleepwalkerRevealed) -> None:
        for uid in self.audience_ids(st, e.audience):
            if uid == e.user_id:
                self.dm(uid, _("🌛 The mafia chose you: you are revealed and leave in the "
                               "morning."))
            else:
                self.dm(uid, _("🌛 {player} is the Sleepwalker! He leaves in the morning; choose "
                               "again.").format(player=label(st, e.user_id)))
            self.forum_night_dm(g, _, st, uid)

    def on_NightExtended(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                         e: fev.NightExtended) -> None:
        self.group(g, _("⏳ The night goes on for {s} s more.").format(s=e.seconds))

    def on_NightDeaths(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                       e: fev.NightDeaths) -> None:
        if e.killed:
            text = _("☀️ Morning. Tonight the town lost: {list}.").format(
                list=", ".join(label(st, u) for u in e.killed))
        elif st.night <= 1:  # the acquaintance: no shot was possible
            text = _("☀️ Morning. On the first night the mafia only met: nobody was shot.")
        else:
            text = _("☀️ Morning. Nobody died tonight.")
            if e.saved:
                text += " " + _("The doctor saved the victim.")
        self.announce(g, text)
        self.forum_close_dms(g, "night:")

    def on_WerewolfTurned(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                          e: fev.WerewolfTurned) -> None:
        self.dm(e.user_id, _("🐺 The last mafioso is gone: you are the Mafia now."))

    # --- the day -----------------------------------------------------------------------------
    def on_BallotCast(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                      e: fev.BallotCast) -> None:
        if st.phase is ForumPhase.BALLOT:
            self.live_edit(g, "ballot", self.ballot_view(g, _, st), vf.ballot_keyboard(_, g.id, st))

    def forum_ready_marked(self, g: Live, _: Gettext, st: GameState) -> None:
        if st.phase is ForumPhase.DEBATE:
            self.live_edit(g, "debate", vf.debate_text(_, st, g.refs.get("debate_seconds"),
                                                       self.shown_end(g, st, "debate")),
                           vf.debate_keyboard(_, g.id, st))

    def forum_vote_result(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                          e: ev.VoteResult) -> None:
        lines = [_("🗳 Result of the vote:")]
        for cand, voters in e.tally:
            names = ", ".join(f"№{st.players[v].seat}" for v in voters)
            lines.append(f"{label(st, cand)} — {len(voters)}" + (f": {names}" if names else ""))
        if len(lines) == 1:
            lines.append(_("Nobody voted."))
        self.edit(g, "ballot", g.chat_id, "\n".join(lines), None)
        g.ui.pop("ballot", None)
        g.refs.pop("ballot", None)

    def on_SuspectNamed(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                        e: fev.SuspectNamed) -> None:
        self.announce(g, _("🎯 {player} names {target} as the Mafia.").format(
            player=label(st, e.user_id), target=label(st, e.target)))
        self.forum_last_word_dm(g, _, st)

    def on_CheckRevealed(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                         e: fev.CheckRevealed) -> None:
        text = _("🔎 {player} reveals his check: {target} is <b>mafia</b>.") if e.is_mafia else \
            _("🔎 {player} reveals his check: {target} is <b>not mafia</b>.")
        self.announce(g, text.format(player=label(st, e.user_id), target=label(st, e.target)))
        self.forum_last_word_dm(g, _, st)
