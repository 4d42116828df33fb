"""The online sport preset's game object (rule IDs in docs/rules/online-sport.md): the open day
vote with ties by table size and the lift decision (:mod:`.day`), the night's shot, misfires and
the best move (:mod:`.night`), and the AFK status (``rules.afk_after``, :mod:`engine.mafia.presence`)."""

from __future__ import annotations

from typing import Any

from ..mafia.roles import Team
from ..mafia.state import GameState
from ..mafia.step import Step
from ..mafia.variant import MafiaVariant
from . import day, night
from .actions import OnlineActions
from .commands import ChooseBestMove, TapLift, TapVote
from .rules import ONLINE
from .state import OnlineState


class OnlineVariant(MafiaVariant):
    rules = ONLINE
    actions = OnlineActions
    handlers = {**MafiaVariant.handlers, TapVote: day.tap_vote, TapLift: day.tap_lift,
                ChooseBestMove: night.choose_best_move}

    def new_lobby(self, st: GameState) -> None:
        st.online = OnlineState()

    def forced_winner(self, st: GameState) -> Team | None:
        """ONLINE-36: Town after ``rules.misfires_to_lose`` misfires in a row."""
        limit = self.rules.misfires_to_lose
        return Team.TOWN if limit and st.online.misfires >= limit else None

    def start_day(self, s: Step) -> None:
        day.start_day(s)

    def defences_done(self, s: Step) -> None:
        day.defences_done(s)

    def night_complete(self, s: Step) -> bool:
        return night.night_complete(s)

    def end_night(self, s: Step, timed_out: bool) -> None:
        night.end_night(s, timed_out)

    def phase_timeout(self, s: Step) -> bool:
        if s.st.phase not in day.PHASES:
            return False
        day.phase_timeout(s)  # the discussion, the revote, the lift vote, the best move
        return True

    def presence_changed(self, s: Step) -> None:
        if s.st.phase in day.PHASES:  # a ballot may be complete; a best move lost
            day.presence_changed(s)

    def add_actions(self, st: GameState, user_id: int, kw: dict[str, Any]) -> bool:
        if st.phase in day.PHASES:
            kw.update(day.legal(st, user_id))
        return False
