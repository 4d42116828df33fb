"""The online preset's presenter (docs/rules/online-sport.md): the open ballot with
preliminary and final taps, the lift decision, the best move and its score, misfires, AFK."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import GameState, OnlinePhase, Team
from engine.mafia import events as ev
from engine.online import events as oev

from ...ui import drafts
from ...ui.i18n import nget_of
from ...ui.texts import label
from ..hints import Gettext
from ..mafia.base import Markup
from ..mafia.presenter import MafiaPresenter
from . import views as vo

if TYPE_CHECKING:
    from ..hints import Live


class OnlinePresenter(MafiaPresenter):
    """Renders an online game: the mafia presentation with the online phases and results."""

    TIMING_KEYS: tuple[str, ...] = ("discussion", "defence", "last_word", "lift", "night", "meeting")

    def phase_started(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                      e: ev.PhaseStarted) -> bool:
        phase = e.phase
        if phase not in ("discussion", "revote", "lift_vote", "best_move"):
            return False
        self._close_previous(g, _, before, st)
        if phase in ("discussion", "revote"):
            self.standing(g, "ballot", self.ballot_view(g, _, st), vo.ballot_keyboard(_, g.id, st))
        elif phase == "lift_vote":
            self.standing(g, "lift", vo.lift_text(_, st), vo.lift_keyboard(_, g.id, st))
        elif phase == "best_move":
            victim = e.speaker
            if victim is None:
                return True  # ONLINE-08: the best move is the first victim's; none, no move
            self.announce(g, _("🎯 {player}, the first victim of the mafia's shot, makes the best "
                            "move: he names three players he takes for black ({s} s).").format(
                                player=label(st, victim), s=e.seconds))
            markup = vo.best_move_keyboard(_, g.id, st, victim, [])
            text = _("🎯 You are the mafia's first victim. Name three players you take for "
                     "black: tap three names, or skip. Fewer than three when the time runs out "
                     "count as no best move.")  # ONLINE-X18
            fut = self.dm(victim, self.with_end(g, _, st, text, "best_move"), markup)
            self.keep(g, "best_move", fut)
        return True

    def close_votes(self, g: Live, _: Gettext, before: GameState | None) -> None:
        """The open ballot, the lift vote or the best move cut short (the game stopped or
        abandoned in it) shows where it stood, without buttons (issue 20: they stayed live)."""
        super().close_votes(g, _, before)
        if before is None:
            return
        shown = g.refs.get("shown:ballot")
        if before.phase in (OnlinePhase.DISCUSSION, OnlinePhase.REVOTE) and \
                self.ref(g, "ballot") is not None and (shown is None or shown[1] is not None):
            self.edit(g, "ballot", g.chat_id, vo.ballot_text(_, before, final=True), None)
        if before.phase is OnlinePhase.LIFT_VOTE:
            self.close(g, "lift", g.chat_id)
        if before.phase is OnlinePhase.BEST_MOVE and before.speaker is not None:
            self.close(g, "best_move", before.speaker)

    def ballot_view(self, g: Live, _: Gettext, st: GameState) -> str:
        """The open ballot with its length and its end as clock time (BOT-X03)."""
        return self.with_end(g, _, st, vo.ballot_text(_, st), "ballot")

    def clock_key(self, st: GameState) -> str | None:
        if st.phase in (OnlinePhase.DISCUSSION, OnlinePhase.REVOTE):
            return "ballot"
        return super().clock_key(st)

    def clock_view(self, g: Live, _: Gettext, st: GameState) -> tuple[str, str, Markup] | None:
        if st.phase in (OnlinePhase.DISCUSSION, OnlinePhase.REVOTE):
            return "ballot", self.ballot_view(g, _, st), vo.ballot_keyboard(_, g.id, st)
        return super().clock_view(g, _, st)

    def refresh_best_move(self, g: Live, st: GameState, uid: int) -> None:
        _ = self.tr.get(g.locale)
        ref = self.ref(g, "best_move")
        if ref is not None:
            self.sender.edit_markup(uid, ref, vo.best_move_keyboard(_, g.id, st, uid,
                                                                    drafts.best_move(g)))

    def on_VoteTapped(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                      e: oev.VoteTapped) -> None:
        if st.phase in (OnlinePhase.DISCUSSION, OnlinePhase.REVOTE):
            self.live_edit(g, "ballot", self.ballot_view(g, _, st), vo.ballot_keyboard(_, g.id, st))

    def on_LiftCalled(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                      e: oev.LiftCalled) -> None:
        self.announce(g, _("⚖️ Tie between {list}: each defends, then everyone decides whether to lift "
                        "them all from the table.").format(
                            list=", ".join(label(st, c) for c in e.candidates)))

    def on_LiftTapped(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                      e: oev.LiftTapped) -> None:
        if st.phase is OnlinePhase.LIFT_VOTE:
            self.live_edit(g, "lift", vo.lift_text(_, st), vo.lift_keyboard(_, g.id, st))

    def on_VoteResult(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                      e: ev.VoteResult) -> None:
        lines = [_("🗳 Result of the vote:")]
        for cand, voters in e.tally:
            names = ", ".join(f"№{st.players[v].seat}" for v in voters)
            lines.append(f"{label(st, cand)} — {len(voters)}" + (f": {names}" if names else ""))
        if len(lines) == 1:
            lines.append(_("Everyone passed."))
        self.edit(g, "ballot", g.chat_id, "\n".join(lines), None)

    def on_ExcludeVoteResult(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                             e: ev.ExcludeVoteResult) -> None:
        ngettext = nget_of(_)
        verdict = ngettext("Lifted: {yes} «Lift» vote of {needed} needed.",
                           "Lifted: {yes} «Lift» votes of {needed} needed.", e.yes) if e.passed \
            else ngettext("They stay: {yes} «Lift» vote, {needed} needed.",
                          "They stay: {yes} «Lift» votes, {needed} needed.", e.yes)
        self.edit(g, "lift", g.chat_id, _("⚖️ Lift {list}?").format(
            list=", ".join(label(st, u) for u in e.candidates)) + "\n" +
            verdict.format(yes=e.yes, needed=e.needed), None)

    def on_Misfire(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                   e: oev.Misfire) -> None:
        # ONLINE-36/37: no shot at all is a misfire too, but there were no shots to disagree;
        # ``before`` holds the night's picks (a black's pick that ends the night means he shot)
        shooters = [p.user_id for p in before.mafia_alive() if not p.afk] if before else []
        if before is not None and not any(before.mafia_picks.get(u) for u in shooters):
            text = _("🔫 A misfire: the mafia did not shoot ({n} in a row; three in a row and the "
                     "town wins).")
        else:
            text = _("🔫 A misfire: the mafia's shots did not meet ({n} in a row; three in a row "
                     "and the town wins).")
        self.announce(g, text.format(n=e.count))

    def on_BestMove(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                    e: oev.BestMove) -> None:
        ref = self.ref(g, "best_move")
        if ref is not None:
            self.sender.edit_markup(e.user_id, ref, None)
        g.ui["best_move"] = [e.user_id, list(e.targets)]  # scored at the end (Q25)
        if self.on_ui_change:
            self.on_ui_change(g)
        if e.targets:
            self.announce(g, _("🎯 Best move of {player}: {list}.").format(
                player=label(st, e.user_id), list=", ".join(label(st, t) for t in e.targets)))
        else:
            self.announce(g, _("🎯 {player} makes no best move.").format(player=label(st, e.user_id)))

    def on_PlayerAfk(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                     e: ev.PlayerAfk) -> None:
        self.announce(g, _("⚫ {player} is AFK: away too long, no longer waited for.").format(
            player=label(st, e.user_id)))

    def result_head(self, _: Gettext, st: GameState, e: ev.GameEnded) -> str:
        """ONLINE-53: green for the town, red for the mafia (Q24)."""
        return _("🟢 <b>Town wins!</b>") if e.winner is Team.TOWN else _("🔴 <b>Mafia wins!</b>")

    def result_extra(self, g: Live, _: Gettext, st: GameState) -> str | None:
        """ONLINE-Q25: how many of the best move's three were black, shown only at the end."""
        bm = g.ui.get("best_move")
        if not bm or not bm[1]:
            return None
        victim, targets = bm
        black = sum(1 for t in targets if st.players[t].team is Team.MAFIA)
        return _("🎯 Best move of {player}: {k} of 3 were black.").format(
            player=label(st, victim), k=black)

