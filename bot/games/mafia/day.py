"""Day events of the mafia presets (a part of :class:`~bot.games.mafia.presenter.MafiaPresenter`):
nominations, the vote and its result, ties, the tied-group vote, eliminations."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import GameState
from engine.mafia import events as ev

from ..hints import Gettext
from .base import PresenterBase

if TYPE_CHECKING:
    from ..hints import Live

if TYPE_CHECKING:
    from ..hints import Live

from engine import Phase

from ...ui.texts import ELIMINATION_CAUSES, NO_ELIMINATION, label
from . import views


class DayEvents(PresenterBase):
    """Renders the day's events; ``self`` is the game's presenter."""

    def on_TurnSkipped(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                       e: ev.TurnSkipped) -> None:
        self.announce(g, _("⏭ {player} is inactive: turn skipped.").format(player=label(st, e.user_id)))

    def on_NominationAccepted(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                              e: ev.NominationAccepted) -> None:
        if st.phase is Phase.SPEECH and st.speaker == e.by:
            self.edit(g, "turn", g.chat_id,
                      views.turn_text(_, st, at=self.shown_end(g, st, "turn")),
                      views.turn_keyboard(_, g.id, st))

    def on_VoteWindowOpened(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                            e: ev.VoteWindowOpened) -> None:
        ref = self.ref(g, "vote")
        if ref is not None and st.phase is Phase.VOTING and st.vote is not None \
                and st.vote.current == e.candidate \
                and e.index > 0:  # the pointer moves: shown at once
            self.edit(g, "vote", g.chat_id, views.vote_text(_, st), views.vote_keyboard(_, g.id, st))

    def on_VoteCast(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                    e: ev.VoteCast) -> None:
        ref = self.ref(g, "vote")
        if ref is not None and st.phase is Phase.VOTING:
            self.live_edit(g, "vote", views.vote_text(_, st), views.vote_keyboard(_, g.id, st))

    def on_VoteResult(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                      e: ev.VoteResult) -> None:
        ref = self.ref(g, "vote")
        if ref is None or before is None or before.vote is None:
            return
        lines = [_("🗳 Result of the vote:")]
        for cand, voters in e.tally:
            names = ", ".join(f"№{st.players[v].seat}" for v in voters)
            lines.append(f"{label(st, cand)} — {len(voters)}" + (f": {names}" if names else ""))
        self.edit(g, "vote", g.chat_id, "\n".join(lines), None)

    def on_TieRevote(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                     e: ev.TieRevote) -> None:
        self.announce(g, _("⚖️ Tie between {list}: they defend again, then a new vote among them.")
                   .format(list=", ".join(label(st, u) for u in e.candidates)))

    def on_ExcludeVoteCast(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                           e: ev.ExcludeVoteCast) -> None:
        ref = self.ref(g, "exclude")
        if ref is not None and st.phase is Phase.EXCLUDE_VOTE:
            self.live_edit(g, "exclude", views.exclude_text(_, st),
                           views.exclude_keyboard(_, g.id, st))

    def on_ExcludeVoteResult(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                             e: ev.ExcludeVoteResult) -> None:
        ref = self.ref(g, "exclude")
        if ref is None:
            return
        verdict = _("Accepted: {yes} of {needed} needed.") if e.passed else \
            _("Rejected: {yes} «yes», {needed} needed.")
        self.edit(g, "exclude", g.chat_id, _("⚖️ Eliminate all of {list}?").format(
            list=", ".join(label(st, u) for u in e.candidates)) + "\n" +
            verdict.format(yes=e.yes, needed=e.needed), None)

    def on_DayWithoutElimination(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                                 e: ev.DayWithoutElimination) -> None:
        self.close_votes(g, _, before)  # a disqualification cancelled it (CLUB-39)
        self.announce(g, "🌗 " + _(NO_ELIMINATION[e.reason]))

    def close_votes(self, g: Live, _: Gettext, before: GameState | None) -> None:
        """A vote cut short -- cancelled by a disqualification, or the game ended or stopped in
        it -- shows where it stood, without buttons (issue 20: its «Against» stayed live to the
        end of the game). A vote whose result was shown is left as it is."""
        if before is None:
            return
        shown = g.refs.get("shown:vote")
        if before.phase is Phase.VOTING and before.vote is not None \
                and self.ref(g, "vote") is not None and (shown is None or shown[1] is not None):
            self.edit(g, "vote", g.chat_id, views.vote_text(_, before, final=True), None)
        if before.phase is Phase.EXCLUDE_VOTE:
            self.close(g, "exclude", g.chat_id)

    def on_PlayerEliminated(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                            e: ev.PlayerEliminated) -> None:
        self.refresh_consoles(g, _, st)
        if e.cause == "disqualified":
            g.ui["disqualified"] = [*(g.ui.get("disqualified") or []), e.user_id]  # 🟥 at the end
            self.announce(g, _(ELIMINATION_CAUSES[e.cause]).format(player=label(st, e.user_id)))
            self.dm(e.user_id, _("🟥 You are disqualified. Please watch without posting; roles are "
                                 "revealed at the end."))
            return
        if e.cause != "night":
            self.announce(g, "☠️ " + _(ELIMINATION_CAUSES[e.cause]).format(player=label(st, e.user_id)))
        self.dm(e.user_id, _("☠️ You are out of the game. You still get your last word; after it "
                             "please watch without posting. Roles are revealed at the end."))
