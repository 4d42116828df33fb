"""The online preset's buttons: :class:`OnlineActions`, what ``engine.legal_actions`` answers
in an online game (rule IDs in docs/rules/online-sport.md)."""

from __future__ import annotations

from dataclasses import dataclass

from ..mafia.queries import LegalActions


@dataclass(frozen=True)
class OnlineActions(LegalActions):
    """The shared buttons plus the open ballot, the lift decision and the best move."""

    #: the open day vote / revote -- the players offered (user ids, seat order; empty =
    #: no vote now, e.g. his vote is final), whether PASS is offered, and his preliminary tap
    #: (``ballot_marked``; ``ballot_mark`` its choice, None = PASS)
    ballot: tuple[int, ...] = ()
    ballot_pass: bool = False
    ballot_marked: bool = False
    ballot_mark: int | None = None
    #: the Lift/Leave decision is open to him; ``lift_mark`` his preliminary tap
    #: (True Lift, False Leave, None no tap yet)
    lift_vote: bool = False
    lift_mark: bool | None = None
    #: the best move -- the players he may name (three of them), empty if not his
    best_move: tuple[int, ...] = ()
