"""The club (sport) preset's game object (rule IDs in docs/rules/club.md).

The club plays the shared mafia day and night; its rule set switches them to the sport rules (the
mafia's meeting, the vote right after the speeches, silent votes to the last nominee, a night of
fixed length, checks at dawn).  Its own commands are the judge's tools: fouls, disqualification,
undoing a nomination (:mod:`.fouls`).
"""

from __future__ import annotations

from ..mafia.commands import Disqualify
from ..mafia.state import GameState
from ..mafia.step import Step
from ..mafia.variant import MafiaVariant
from . import clock, fouls
from .commands import (
    AddTime,
    CancelFoul,
    DeclareProceduralLoss,
    EndTurn,
    IssueFoul,
    RestartTurn,
    UndoNomination,
)
from .rules import CLUB
from .state import ClubState


class ClubVariant(MafiaVariant):
    rules = CLUB
    handlers = {**MafiaVariant.handlers, IssueFoul: fouls.issue_foul,
                Disqualify: fouls.disqualify, CancelFoul: fouls.cancel_foul,
                UndoNomination: fouls.undo_nomination,
                DeclareProceduralLoss: clock.declare_procedural_loss, AddTime: clock.add_time,
                RestartTurn: clock.restart_turn, EndTurn: clock.end_turn}

    def new_lobby(self, st: GameState) -> None:
        st.club = ClubState()

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
