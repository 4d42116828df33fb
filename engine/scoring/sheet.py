"""The score sheet of a finished mafia game (docs/rules/scoring.md, SCORE-X05..X09).

Computed, like every other statistic, from the game's log: the final state gives each seat's
role, team and fouls, the events give how each player left the table, the best move and a
procedural loss.  The same log (a replay) gives the same sheet; the judge's additional points
are the only input from outside (per user id, checked against the system's range and step).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from ..club.events import FoulIssued, JudgeActionUndone, ProceduralLoss
from ..club.fouls import DISQUALIFY_AT
from ..club.state import fouls_of
from ..core.commands import Command
from ..core.events import Event
from ..core.game import replay
from ..mafia.events import PlayerEliminated
from ..mafia.roles import Role, Team
from ..mafia.state import GameState, Phase
from ..online.events import BestMove
from .systems import BadScoring, ScoringSystem

#: SCORE-X06: how a player left the table, by the engine's elimination cause
LEFT_BY_CAUSE = {"night": "killed", "vote": "voted_out", "sole_nominee": "voted_out",
                 "exclude_all": "voted_out", "lift": "voted_out", "disqualified": "disqualified"}


class NotFinished(ValueError):
    """The game has no sheet: it is not a finished mafia game (still running, cancelled, or
    another kind of game)."""


@dataclass(frozen=True)
class SeatScore:
    """One seat's line (SCORE-X05).  ``left``: None (at the table at the end) | 'killed' |
    'voted_out' | 'disqualified' | 'fourth_foul'; ``best_move``: the blacks among the three he
    named as first victim (None: no best move of his); the point columns: ``win_points``,
    ``best_move_points``, ``penalty`` (<= 0: disqualification, fourth foul, procedural loss),
    ``additional`` (the judge's), ``total`` their sum."""

    seat: int
    user_id: int
    name: str
    role: Role
    team: Team
    won: bool
    fouls: int
    left: str | None
    best_move: int | None
    procedural_loss: bool
    win_points: float
    best_move_points: float
    penalty: float
    additional: float
    total: float


@dataclass(frozen=True)
class ScoreSheet:
    """A finished game's sheet: ``system`` the figures used, ``winner`` the winning team,
    ``procedural_loss`` the user whose breach decided it (None: played to the end), ``seats``
    in seat order."""

    system: ScoringSystem
    winner: Team
    procedural_loss: int | None
    seats: tuple[SeatScore, ...]

    def seat_of(self, user_id: int) -> SeatScore:
        """The line of ``user_id``. Raises KeyError."""
        for line in self.seats:
            if line.user_id == user_id:
                return line
        raise KeyError(user_id)


@dataclass(frozen=True)
class Facts:
    """What the events say (SCORE-X06): user -> how he left; the first victim's best move
    (user, named users) or None; the culprit of a procedural loss or None."""

    left: dict[int, str]
    best_move: tuple[int, tuple[int, ...]] | None
    procedural_loss: int | None


def facts_of(events: Iterable[Event]) -> Facts:
    """SCORE-X06: read the log's events in order.  A disqualification that follows the
    player's fourth foul (``FoulIssued(count >= 4)``) is 'fourth_foul'; the first ``BestMove``
    is the first victim's (ONLINE-07, Q12).  A disqualification or fourth foul the judge took
    back (``JudgeActionUndone``, CLUB-X16) is forgotten: the player is back at the table."""
    left: dict[int, str] = {}
    best: tuple[int, tuple[int, ...]] | None = None
    culprit: int | None = None
    fourth: set[int] = set()
    for e in events:
        if isinstance(e, FoulIssued):
            if e.count >= DISQUALIFY_AT:
                fourth.add(e.player)
        elif isinstance(e, PlayerEliminated):
            how = LEFT_BY_CAUSE.get(e.cause, e.cause)
            if how == "disqualified" and e.user_id in fourth:
                how = "fourth_foul"
            left.setdefault(e.user_id, how)
        elif isinstance(e, JudgeActionUndone):
            if e.action in ("disqualification", "fourth_foul") \
                    and left.get(e.player) in ("disqualified", "fourth_foul"):
                del left[e.player]
            if e.action == "fourth_foul":
                fourth.discard(e.player)
        elif isinstance(e, BestMove):
            if best is None:
                best = (e.user_id, tuple(e.targets))
        elif isinstance(e, ProceduralLoss):
            culprit = e.player
    return Facts(left=left, best_move=best, procedural_loss=culprit)


def _sum(*values: float) -> float:
    return float(sum((Decimal(str(v)) for v in values), Decimal(0)))


def score_sheet(state: GameState, events: Iterable[Event], system: ScoringSystem,
                additional: Mapping[int, object] | None = None) -> ScoreSheet:
    """SCORE-X05: the sheet of the finished game ``state`` whose log produced ``events`` (every
    event of every command, in order), scored with ``system``; ``additional``: the judge's
    additional points by user id (a seat left out: 0).

    Raises :class:`NotFinished` for a game that did not end with a winner, and
    :class:`~engine.scoring.systems.BadScoring` (field ``additional``) for points outside the
    system's range or step, or given to somebody without a seat (reason ``not_a_player``)."""
    if not isinstance(state, GameState) or state.phase is not Phase.ENDED or state.winner is None:
        raise NotFinished("the game has not ended with a winner")
    seated = state.seated()
    extra: dict[int, float] = {}
    for user, value in (additional or {}).items():
        if not any(p.user_id == user for p in seated):
            raise BadScoring("additional", "not_a_player", user)
        extra[user] = system.check_additional(value)
    facts = facts_of(events)
    teams = {p.user_id: p.team for p in seated}
    lines = []
    for p in seated:
        assert p.role is not None and p.team is not None
        won = p.team is state.winner
        left = facts.left.get(p.user_id)
        blacks: int | None = None
        if facts.best_move is not None and facts.best_move[0] == p.user_id:
            blacks = sum(1 for u in facts.best_move[1] if teams.get(u) is Team.MAFIA)
        win_points = system.win if won else 0.0
        best_points = system.best_move[blacks] if blacks is not None else 0.0
        penalty = _sum(system.disqualification if left == "disqualified" else 0.0,
                       system.fourth_foul if left == "fourth_foul" else 0.0,
                       system.procedural_loss if facts.procedural_loss == p.user_id else 0.0)
        add = extra.get(p.user_id, 0.0)
        lines.append(SeatScore(
            seat=p.seat, user_id=p.user_id, name=p.name, role=p.role, team=p.team, won=won,
            fouls=fouls_of(state, p.user_id), left=left, best_move=blacks,
            procedural_loss=facts.procedural_loss == p.user_id, win_points=win_points,
            best_move_points=best_points, penalty=penalty, additional=add,
            total=_sum(win_points, best_points, penalty, add)))
    return ScoreSheet(system=system, winner=state.winner, procedural_loss=facts.procedural_loss,
                      seats=tuple(lines))


def sheet_of_log(commands: Sequence[Command], system: ScoringSystem,
                 additional: Mapping[int, object] | None = None) -> ScoreSheet:
    """SCORE-X09: replay the stored log ``commands`` and score it (:func:`score_sheet`).
    Raises what :func:`engine.replay` raises for a corrupt log, and what ``score_sheet`` does."""
    state, produced = replay(commands)
    if not isinstance(state, GameState):
        raise NotFinished("not a mafia game")
    events = (e for evs in produced for e in evs if isinstance(e, Event))
    return score_sheet(state, events, system, additional)
