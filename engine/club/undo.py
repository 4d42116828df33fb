"""The judge's Undo (CLUB-X16; rule IDs in docs/rules/club.md).

The judge's fouls, disqualifications and removed nominations are recorded with the state they
changed (``ClubState.undo``); ``UndoJudgeAction`` puts that state back.  Its window is short by
design: the undo must be the very next command of the log (any other command accepted in
between, even a deadline, closes it: :func:`without_stale_undo` drops the record), and the
action must not have moved the game on (a removal that ended a turn, cancelled a running vote
or decided the game: ``NotAllowed``).  So the state put back is the one the table saw a moment
ago, with the same ``phase_seq``, ``timer_seq`` and running deadline.  Later on, a foul is
taken back with ``CancelFoul`` (CLUB-Q15).
"""

from __future__ import annotations

from dataclasses import replace

from ..core.commands import Command
from ..core.errors import NotAllowed
from ..mafia.commands import Disqualify
from ..mafia.state import GameState
from ..mafia.step import Step
from . import fouls
from .commands import IssueFoul, UndoJudgeAction, UndoNomination
from .events import JudgeActionUndone
from .state import JudgeAction


def _before(s: Step) -> GameState:
    before: GameState = s.st.clone()
    before.club.undo = None
    return before


def _record(s: Step, before: GameState, action: str, player: int) -> None:
    st: GameState = s.st
    st.club.undo = JudgeAction(action=action, player=player, commands=st.commands, before=before)


def issue_foul(s: Step, cmd: IssueFoul) -> None:
    """IssueFoul (CLUB-36..38), recorded for Undo ('foul', or 'fourth_foul' when it removed
    the player)."""
    before = _before(s)
    fouls.issue_foul(s, cmd)
    _record(s, before, "foul" if s.st.players[cmd.player].alive else "fourth_foul", cmd.player)


def disqualify(s: Step, cmd: Disqualify) -> None:
    """Disqualify (CLUB-39), recorded for Undo."""
    before = _before(s)
    fouls.disqualify(s, cmd)
    _record(s, before, "disqualification", cmd.player)


def undo_nomination(s: Step, cmd: UndoNomination) -> None:
    """UndoNomination (CLUB-Q06), recorded for Undo."""
    before = _before(s)
    fouls.undo_nomination(s, cmd)
    _record(s, before, "nomination", cmd.target)


def undo(s: Step, cmd: UndoJudgeAction) -> None:
    """CLUB-X16: put back the state before the judge's last action.  ``NotAllowed`` when there
    is none (or another command came after it), and when it moved the game on (its phase
    ended)."""
    fouls.judge(s, cmd)
    st: GameState = s.st
    last: JudgeAction | None = st.club.undo
    if last is None or last.commands + 1 != st.commands:
        raise NotAllowed("nothing to undo")
    if last.before.phase_seq != st.phase_seq:
        raise NotAllowed("the game has moved on")
    restored = last.before.clone()
    for name, value in vars(restored).items():
        setattr(st, name, value)
    st.commands = last.commands + 1  # the log goes on: this undo is one of its commands
    s.emit(JudgeActionUndone(action=last.action, player=last.player, by=cmd.user_id))


def without_stale_undo(state: GameState, cmd: Command) -> GameState:
    """``state`` for ``cmd``: any command but an Undo closes the Undo window, so its record is
    dropped before the state is copied (a shallow copy; ``state`` itself is not changed)."""
    club = state.club
    if club is None or club.undo is None or isinstance(cmd, UndoJudgeAction):
        return state
    return replace(state, club=replace(club, undo=None))
