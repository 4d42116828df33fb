"""The online preset's night and best move (rule IDs in docs/rules/online-sport.md).

Night 1 is the blacks' meeting plus everybody's Sleep (Ready) tap; from night 2 every black
shoots once, the Don also searches for the Sheriff (or skips with Sleep), the Sheriff checks or
sleeps, civilians sleep -- collected by the shared ``NightAction`` handler.  Here: when the night
may close early (every counted player done, ONLINE-Q15), the shot (every counted black on one
living target, ONLINE-13, Q14), the misfire count and its Town win (ONLINE-36, 37, Q16), and the
first victim's best move (ONLINE-07, 08, Q12).  ``flow`` calls :func:`night_complete` and
:func:`end_night` through :class:`~engine.online.variant.OnlineVariant`.
"""

from __future__ import annotations

from ..core.errors import InvalidTarget, NotYourTurn, PhaseClosed, TargetNotAlive
from ..mafia import flow
from ..mafia import night as mafia_night
from ..mafia.events import NightResult
from ..mafia.presence import counted
from ..mafia.roles import Role, Team
from ..mafia.rules import rules_revision
from ..mafia.state import GameState
from ..mafia.step import Step
from .commands import ChooseBestMove
from .events import BestMove, Misfire
from .phases import OnlinePhase

#: ONLINE-08: the best move names exactly this many players
BEST_MOVE_SIZE = 3


# --- the night -------------------------------------------------------------------------------
def night_complete(s: Step) -> bool:
    """The online ``night_complete`` (ONLINE-02, 06, Q15, X17): every counted player is
    done -- night 1: every counted black has tapped Ready (Sleep), the reds have nothing to do;
    later: a black has shot (the Don has also checked or skipped), everybody else has checked
    or slept."""
    st = s.st
    reds_rest = rules_revision(st.settings) >= 2  # REV-X01: revision 1 waited for every tap
    for p in counted(st):
        if st.night <= 1 and p.team is not Team.MAFIA and reds_rest:
            continue
        if st.night > 1 and p.team is Team.MAFIA:
            if p.user_id not in st.mafia_picks:
                return False
            if p.role is Role.DON and p.user_id not in st.night_actions:
                return False
        elif p.user_id not in st.night_actions:
            return False
    return True


def shot_target(st: GameState) -> int | None:
    """ONLINE-13, Q14: the living target every counted black chose; else None (a misfire, also
    when no black is counted)."""
    shooters = [p.user_id for p in st.mafia_alive() if not p.afk]
    picks = {st.mafia_picks.get(u) for u in shooters}
    if len(picks) != 1:
        return None
    (target,) = picks
    return target if target is not None and st.is_alive(target) else None


def end_night(s: Step, timed_out: bool) -> None:
    """The online ``end_night``: the shot, the misfire count, the morning."""
    st = s.st
    if timed_out and (st.night > 1 or rules_revision(st.settings) < 2):  # ONLINE-Q20, X17
        # a missed night action -> OFFLINE (night 1 of revision 2 asks for none: REV-X01)
        mafia_night.record_misses(s, set(st.night_actions) | set(st.mafia_picks))
    killed = shot_target(st) if st.night > 1 else None
    st.night_actions, st.mafia_picks = {}, {}
    s.emit(NightResult(killed=killed))
    if st.night > 1:
        o = st.online
        o.misfires = 0 if killed is not None else o.misfires + 1  # ONLINE-37, Q16
        if killed is None:
            s.emit(Misfire(count=o.misfires))
            if flow.check_win(s):  # ONLINE-36: the third misfire in a row
                return
    if killed is None:
        flow.start_day(s)
        return
    flow.eliminate(s, killed, "night")
    st.after_last_words = "day"
    if st.night == 2:  # ONLINE-Q12: the first night with a shot, and it killed
        start_best_move(s, killed)
    else:
        flow.start_last_words(s)


# --- the best move ---------------------------------------------------------------------------
def start_best_move(s: Step, victim: int) -> None:
    if not s.st.players[victim].active:  # his turns are skipped (PARTY-42): so is this
        flow.start_last_words(s)
        return
    s.new_phase(OnlinePhase.BEST_MOVE, "best_move", speaker=victim, purpose="best_move")


def best_move_choices(st: GameState, uid: int) -> list[int]:
    """Whom the best move may name: living players other than the victim himself (Q12)."""
    if st.phase is not OnlinePhase.BEST_MOVE or uid != st.speaker:
        return []
    return [p.user_id for p in st.alive() if p.user_id != uid]


def choose_best_move(s: Step, cmd: ChooseBestMove) -> None:
    """ONLINE-08, Q12: exactly three distinct living others, or () to skip."""
    st = s.st
    if st.phase is not OnlinePhase.BEST_MOVE:
        raise PhaseClosed(st.phase.value)
    if cmd.user_id is None or cmd.user_id != st.speaker:
        raise NotYourTurn()
    targets = tuple(cmd.targets)
    if targets:
        if len(targets) != BEST_MOVE_SIZE or len(set(targets)) != BEST_MOVE_SIZE \
                or cmd.user_id in targets:
            raise InvalidTarget(f"name {BEST_MOVE_SIZE} other players")
        if not all(st.is_alive(t) for t in targets):
            raise TargetNotAlive()
    finish_best_move(s, targets)


def finish_best_move(s: Step, targets: tuple[int, ...]) -> None:
    st = s.st
    assert st.speaker is not None, "the best move is the speaker's"
    s.emit(BestMove(user_id=st.speaker, targets=targets))  # ONLINE-08: published at once
    st.speaker = None
    flow.start_last_words(s)
