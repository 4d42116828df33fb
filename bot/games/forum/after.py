"""After the forum game's win (a part of :class:`~bot.games.forum.presenter.ForumPresenter`):
the victory, the bonus round's guesses and results, the cards, the best-player vote
(FORUM-20..24)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import GameState, Team
from engine.forum import events as fev
from engine.forum import winners
from engine.mafia import events as ev

from ...ui.texts import label
from ..hints import Gettext
from ..mafia.base import PresenterBase
from . import views as vf
from .cards import card as _card

if TYPE_CHECKING:
    from ..hints import Live


class AfterGameEvents(PresenterBase):
    """Renders the after-game; ``self`` is the game's presenter."""

    if TYPE_CHECKING:  # presenter.py
        def forum_close_dms(self, g: Live, prefix: str) -> None: ...
        def forum_close_group(self, g: Live, key: str, text: str) -> None: ...
        def close_votes(self, g: Live, _: Gettext, before: GameState | None) -> None: ...

    def on_VictoryDeclared(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                           e: fev.VictoryDeclared) -> None:
        head = _("🏆 <b>Town wins!</b>") if e.winner is Team.TOWN else _("🏆 <b>Mafia wins!</b>")
        # held: it heads the bonus round's offer sent in the same step (issue 11)
        self.announce(g, head + "\n" + _("The survivors' cards stay hidden until the reveal."))
        self.forum_close_dms(g, "night:")
        self.forum_close_dms(g, "console:")
        self.close_votes(g, _, before)  # won by a removal in the discussion or the vote

    def on_GuessesRecorded(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                           e: fev.GuessesRecorded) -> None:
        self.answer_in_place(g, f"bonus:{e.user_id}", e.user_id, _("🎲 Your guesses: {list}.")
                             .format(list=vf.guesses_line(_, st, e.guesses)))

    def answer_in_place(self, g: Live, key: str, uid: int, text: str) -> None:
        """The private message with buttons kept under ``key`` becomes ``text`` without them
        (one edit where closing it and sending the answer took two); a new message when none
        is kept."""
        if self.ref(g, key) is not None:
            self.edit(g, key, uid, text, None)
        else:
            self.dm(uid, text)

    def on_BonusResults(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                        e: fev.BonusResults) -> None:
        hits = dict(e.hits)
        lines = [_("🎲 <b>Bonus round</b>:")]
        for uid, guesses in e.guesses:
            lines.append(_("{player}: {list} — right: {n}").format(
                player=label(st, uid), list=vf.guesses_line(_, st, guesses), n=hits.get(uid, 0)))
        if len(lines) == 1:
            lines.append(_("Nobody guessed."))
        self.announce(g, "\n".join(lines))
        self.forum_close_dms(g, "bonus:")

    def on_RolesRevealed(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                         e: fev.RolesRevealed) -> None:
        sides = dict(e.sides)
        won = set(e.winners)
        lines = [_("🎭 <b>The cards</b>:")]
        disqualified = set(g.ui.get("disqualified") or ())  # 🟥 as in the final list (issue 20)
        for _seat_no, uid, role in e.roles:
            p = st.players[uid]
            extra = ""
            if uid in sides:
                extra = " — " + _("side: {side}").format(side=vf.side_name(_, sides[uid]))
            lines.append(f"{label(st, uid)} — {_card(_, role)}{extra}"
                         + ("" if p.alive else " 🟥" if uid in disqualified else " ☠️")
                         + (" 🏆" if uid in won else ""))
        self.announce(g, "\n".join(lines))  # with the best-player vote's call, one message

    def on_BestPlayerVoted(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                           e: fev.BestPlayerVoted) -> None:
        self.answer_in_place(g, f"best:{e.voter}", e.voter, _("🏅 You voted for {player}.")
                             .format(player=label(st, e.target)))

    def on_BestPlayerChosen(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                            e: fev.BestPlayerChosen) -> None:
        if e.winners:
            text = _("🏅 Best player: {list}.").format(
                list=", ".join(label(st, u) for u in e.winners))
            tally = "; ".join(f"{label(st, u)} — {len(v)}" for u, v in e.tally)
            text += "\n" + tally
        else:
            text = _("🏅 Nobody voted for the best player.")
        self.announce(g, text)  # it heads the result (on_GameEnded), one message
        self.forum_close_dms(g, "best:")

    def result_head(self, _: Gettext, st: GameState, e: ev.GameEnded) -> str:
        head = _("🏆 <b>Town wins!</b>") if e.winner is Team.TOWN else _("🏆 <b>Mafia wins!</b>")
        names = ", ".join(label(st, u) for u in winners(st))
        return head + ("\n" + _("Winners: {list}").format(list=names) if names else "")
