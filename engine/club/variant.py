"""The club (sport) preset's game object (rule IDs in docs/rules/club.md).

The club plays the shared mafia day and night; its rule set switches them to the sport rules (the
mafia's meeting, the vote right after the speeches, silent votes to the last nominee, a night of
fixed length, checks at dawn).  Its own commands are the judge's tools: fouls, disqualification,
undoing a nomination (:mod:`.fouls`).
"""

from __future__ import annotations

from ..core.commands import Command
from ..core.events import Event
from ..mafia.commands import Disqualify
from ..mafia.state import GameState
from ..mafia.step import Step
from ..mafia.variant import MafiaVariant
from . import clock, fouls, undo
from .commands import (
    AddTime,
    CancelFoul,
    DeclareProceduralLoss,
    EndTurn,
    IssueFoul,
    RestartTurn,
    UndoJudgeAction,
    UndoNomination,
)
from .rules import CLUB
from .state import ClubState


class ClubVariant(MafiaVariant):
    rules = CLUB
    handlers = {**MafiaVariant.handlers, IssueFoul: undo.issue_foul,
                Disqualify: undo.disqualify, CancelFoul: fouls.cancel_foul,
                UndoNomination: undo.undo_nomination, UndoJudgeAction: undo.undo,
                DeclareProceduralLoss: clock.declare_procedural_loss, AddTime: clock.add_time,
                RestartTurn: clock.restart_turn, EndTurn: clock.end_turn}

    def new_lobby(self, st: GameState) -> None:
        st.club = ClubState()

    def execute(self, state: GameState, cmd: Command) -> tuple[GameState, list[Event]]:
        """As every preset; any command but an Undo closes the judge's Undo window (CLUB-X16)."""
        return super().execute(undo.without_stale_undo(state, cmd), cmd)

    def silenced_turn(self, s: Step, user_id: int) -> bool:
        """CLUB-37: his third foul took this regular speech (once)."""
        silenced = s.st.club.silenced
        if user_id not in silenced:
            return False
        silenced.discard(user_id)
        return True

    def vote_cancelled(self, s: Step) -> bool:
        """CLUB-Q17: a disqualification cancelled today's vote."""
        return s.st.club.vote_cancelled_day == s.st.day and s.rs.fouls
