"""Who may act, and the actions open to every role: shift, collapse, and every agent's
accusation (NOIR-09, 13, 18, 28, 31, 37..39, Q01, Q13, Q23..Q25, X06, X11)."""

from __future__ import annotations

from . import turns
from .commands import Accuse, Collapse, Shift
from .errors import (
    GameOver,
    InvalidTarget,
    NotInGame,
    NotYourRole,
    NotYourTurn,
    UndoForbidden,
    WrongPhase,
)
from .events import Accused, Collapsed, Shifted
from .grid import (
    apply_collapse,
    apply_shift,
    collapse_options,
    neighbours,
    positions,
    shift_ok,
    shift_options,
    straight,
    undoes,
)
from .identities import arrest
from .rules import LINE_REACH, Role, Team, shift_reach
from .state import NoirState, Player
from .step import Step


def guard(s: Step, uid: int | None, roles: tuple[Role, ...] | None = None,
          step: str = "act") -> Player:
    """The acting player, or a refusal: not playing, not his turn, wrong step, wrong role.
    An accepted action shows he is there: his timeout count and auto-pass reset (NOIR-Q21)."""
    st = s.st
    if st.phase != "play":
        raise GameOver() if st.phase in ("ended", "cancelled") else WrongPhase(st.phase)
    p = st.players.get(uid) if uid is not None else None
    if p is None:
        raise NotInGame()
    if st.current != uid:
        raise NotYourTurn()
    if st.step != step:
        raise WrongPhase(st.step)
    if roles is not None and p.role not in roles:
        raise NotYourRole(p.dealt_role.value)
    p.misses = 0
    p.auto_pass = False
    return p


def main_done(s: Step, p: Player) -> None:
    """A shift or collapse ends the turn, except the Psycho's, who goes on to his threats."""
    if p.role == Role.PSYCHO:
        turns.open_threats(s)
    else:
        turns.finish_action(s)


# --- shift -------------------------------------------------------------------------------------
def legal_shifts(st: NoirState, p: Player) -> list[tuple[str, int, int]]:
    """NOIR-18, 38, X06: the shifts open to ``p`` now."""
    return [o for o in shift_options(st, shift_reach(p.dealt_role)) if not undoes(st.prev_shift, *o)]


def shift(s: Step, cmd: Shift) -> None:
    p = guard(s, cmd.user_id)
    st = s.st
    option = (cmd.line, cmd.index, cmd.by)
    if not shift_ok(st, *option, shift_reach(p.dealt_role)):
        raise InvalidTarget("shift")
    if undoes(st.prev_shift, *option):
        raise UndoForbidden()
    apply_shift(st, *option)
    st.turn_shift = option
    st.last_action = ("shift", cmd.line, cmd.index, cmd.by)
    s.emit(Shifted(player=p.user_id, line=cmd.line, index=cmd.index, by=cmd.by))
    main_done(s, p)


# --- collapse ----------------------------------------------------------------------------------
def collapse(s: Step, cmd: Collapse) -> None:
    p = guard(s, cmd.user_id)
    st = s.st
    if (cmd.axis, cmd.end) not in collapse_options(st):
        raise InvalidTarget("collapse")
    removed = apply_collapse(st, cmd.axis, cmd.end)
    st.last_action = ("collapse", *removed)
    s.emit(Collapsed(player=p.user_id, axis=cmd.axis, end=cmd.end, removed=tuple(removed),
                     rows=st.rows, cols=st.cols))
    main_done(s, p)


# --- accusation --------------------------------------------------------------------------------
def accuse_targets(st: NoirState, p: Player) -> list[int]:
    """NOIR-28, 31, Q24, Q25, X11: his own suspect, adjacent ones, and for the Detective up to
    3 in a straight line; only living, unarrested suspects (no other accusation can arrest)."""
    if p.team != Team.AGENTS or p.identity is None:
        return []
    pos = positions(st)
    cells = [p.identity] + neighbours(st, p.identity, pos)
    if p.role == Role.DETECTIVE:
        cells += [x for x in straight(st, p.identity, LINE_REACH, pos) if x not in cells]
    return [x for x in cells if st.killable(x)]


def accuse(s: Step, cmd: Accuse) -> None:
    """NOIR-13, Q01: a mafioso hiding at the target is arrested (with the strict option, only if
    ``cmd.role`` names his role); anything else is a wasted turn."""
    p = guard(s, cmd.user_id, roles=(Role.UNDERCOVER, Role.DETECTIVE, Role.SUIT, Role.PROFILER))
    st = s.st
    if cmd.target not in accuse_targets(st, p):
        raise InvalidTarget("accuse")
    strict = st.options.get("strict_accusation")
    if strict and cmd.role is None:
        raise InvalidTarget("accuse needs a role")
    owner = st.owner(cmd.target)
    hit = (owner is not None and owner.team == Team.MAFIA
           and (not strict or owner.role == cmd.role))
    st.last_action = ("accuse", cmd.target)
    s.emit(Accused(player=p.user_id, target=cmd.target, hit=hit))
    if hit and owner is not None:
        arrest(s, owner, cmd.target, "accusation")
    turns.finish_action(s)
