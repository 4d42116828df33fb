"""The judge's clock and the procedural loss (CLUB-X17..X20; rule IDs in docs/rules/club.md).

The engine's clock is a duration (``Timer``, seconds); the shell measures how much of it has
run, as it does for a pause.  Adding time or restarting a turn arms a fresh timer (a new
``timer_seq``: the shell re-arms its deadline, and the old deadline's ``PhaseTimeout`` is a
no-op).  Every tool here is the judge's: refused in a preset without one (``NotAllowed``), in
the lobby (``PhaseClosed``), from anybody but the game's host when it has one (``NotAllowed``),
and while paused (``GamePaused``, by the variant).
"""

from __future__ import annotations

import math

from ..core.errors import NotAllowed, NotInGame, PhaseClosed
from ..mafia import flow
from ..mafia.events import GameEnded
from ..mafia.roles import Team
from ..mafia.state import Phase
from ..mafia.step import Step
from .commands import AddTime, DeclareProceduralLoss, EndTurn, RestartTurn
from .events import ProceduralLoss, TimeAdded, TurnEnded, TurnRestarted
from .fouls import judge

#: CLUB-X18: seconds one AddTime gives
ADD_TIME = 30
#: CLUB-X18: the longest a turn may run after additions (seconds from now)
MAX_TURN = 300
#: the turns the judge's clock works on
TURN_PHASES = (Phase.SPEECH, Phase.DEFENCE, Phase.LAST_WORD)


def _turn(s: Step, cmd: AddTime | RestartTurn | EndTurn) -> int:
    """The judge's check plus a running turn; returns its speaker."""
    judge(s, cmd)
    st = s.st
    if st.phase not in TURN_PHASES or st.speaker is None or st.timer is None:
        raise PhaseClosed(st.phase.value)
    return int(st.speaker)


def add_time(s: Step, cmd: AddTime) -> None:
    """CLUB-X18: ``ADD_TIME`` more seconds on the running turn: a fresh timer of the same kind
    with the time left (``cmd.remaining``, clamped to the timer's length; None: all of it) plus
    30 s.  Refused on a silenced turn (it has no speech, CLUB-37: ``NotAllowed``) and when the
    turn would run past ``MAX_TURN`` seconds (``NotAllowed``)."""
    speaker = _turn(s, cmd)
    t = s.st.timer
    assert t is not None
    if t.kind == "silenced":
        raise NotAllowed("a silenced turn has no speech")
    left = t.seconds if cmd.remaining is None else max(0, min(t.seconds, math.ceil(cmd.remaining)))
    total = left + ADD_TIME
    if total > MAX_TURN:
        raise NotAllowed("the turn is long enough")
    nt = s.set_timer(t.kind, total)
    s.emit(TimeAdded(speaker=speaker, seconds=ADD_TIME, timer_seq=nt.seq, total=total,
                     by=cmd.user_id))


def restart_turn(s: Step, cmd: RestartTurn) -> None:
    """CLUB-X19: the running turn starts again with its full length (the timing of its kind)."""
    speaker = _turn(s, cmd)
    t = s.st.timer
    assert t is not None
    nt = s.set_timer(t.kind)
    s.emit(TurnRestarted(speaker=speaker, timer_seq=nt.seq, seconds=nt.seconds, by=cmd.user_id))


def end_turn(s: Step, cmd: EndTurn) -> None:
    """CLUB-X20: the running turn ends now; the next speaker (or what follows the turns)."""
    speaker = _turn(s, cmd)
    s.emit(TurnEnded(speaker=speaker, by=cmd.user_id))
    flow.next_turn(s)


def declare_procedural_loss(s: Step, cmd: DeclareProceduralLoss) -> None:
    """CLUB-X17: the game ends at once; ``cmd.player``'s team loses (any seated player, living
    or not: a gone player can still breach the rules).  ``NotInGame`` for anybody else."""
    judge(s, cmd)
    st = s.st
    p = st.players.get(cmd.player)
    if p is None or not p.seat or p.team is None:
        raise NotInGame()
    loser = p.team
    winner = Team.TOWN if loser is Team.MAFIA else Team.MAFIA
    s.emit(ProceduralLoss(player=cmd.player, team=loser, by=cmd.user_id, reason=cmd.reason[:200]))
    st.winner = winner
    st.phase = Phase.ENDED
    st.phase_seq += 1
    st.speaker = None
    s.clear_timer()
    s.emit(GameEnded(winner=winner, days=st.day,
                     roles=tuple((q.seat, q.user_id, q.dealt_role) for q in st.seated())))
