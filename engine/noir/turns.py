"""Turn order, timers, timeouts, pauses and the end (NOIR-07..11, Q19, Q21, X10, X16..X19).

A turn: :func:`begin_turn` (the Psycho's compulsory deaths first, NOIR-20), the player's step
'act' (the Psycho then 'threats'), the kills of his action, then :func:`end_turn` passes to the
next in ``order``.  The game ends when an action completes with a threshold reached.
"""

from __future__ import annotations

from . import kills
from .errors import (
    BadInput,
    GameOver,
    GamePaused,
    NotAllowed,
    NotInGame,
    NotPaused,
    PauseLimit,
    WrongPhase,
)
from .events import (
    GameCancelled,
    GameEnded,
    Paused,
    PlayerReturned,
    Resumed,
    ThreatsPlaced,
    ThreatsSkipped,
    TurnStarted,
    TurnTimedOut,
)
from .grid import neighbours, positions, straight
from .identities import refresh_hand
from .rules import LINE_REACH, MISSES_FOR_AUTO_PASS, PAUSES_PER_PLAYER, Role
from .state import NoirState, Player
from .step import Step


def begin_turn(s: Step) -> None:
    st = s.st
    st.turn_seq += 1
    st.step = "act"
    st.token_used = False
    st.turn_shift = None
    p = st.players[st.order[st.turn]]
    s.emit(TurnStarted(player=p.user_id, role=p.dealt_role.value, turn_seq=st.turn_seq))
    if p.role == Role.PROFILER:
        refresh_hand(s)  # NOIR-X12
    if p.role == Role.PSYCHO and p.identity is not None:  # NOIR-20, Q07: reading order
        pos = positions(st)
        doomed = [n for n in neighbours(st, p.identity, pos)
                  if n in st.threats and st.killable(n)]
        if doomed:
            s.disarm()
            run_kills(s, [(n, "threat") for n in doomed], "psycho")
            return
    choose(s)


def choose(s: Step) -> None:
    """The current player's choosing part: a turn timer, or auto-passed (NOIR-Q21); when every
    player is auto-passed nobody is left at the table and the game is abandoned (NOIR-X18)."""
    st = s.st
    st.step = "act"
    p = st.players[st.order[st.turn]]
    if not p.auto_pass:
        s.arm("turn")
    elif all(q.auto_pass for q in st.players.values()):
        abandon(s)
    else:
        timeout_turn(s, p, auto=True)


def abandon(s: Step) -> None:
    st = s.st
    st.phase = "cancelled"
    st.step = ""
    st.queue = []
    st.window = None
    s.disarm()
    s.emit(GameCancelled(by=None, reason="abandoned"))


def run_kills(s: Step, queue: list[tuple[int, str]], after: str) -> None:
    """Resolve an action's kills (:func:`kills.start`); when no cancel window holds them up, the
    turn goes on at once (:func:`after_queue`)."""
    if kills.start(s, queue, after):
        after_queue(s)


def after_queue(s: Step) -> None:
    """The kills of an action are done: check the end, then go on or pass the turn."""
    st = s.st
    after, st.after = st.after, ""
    if check_end(s):
        return
    if after == "psycho":
        choose(s)
    else:
        end_turn(s)


def end_turn(s: Step) -> None:
    st = s.st
    st.prev_shift = st.turn_shift
    st.turn_shift = None
    st.turn = (st.turn + 1) % len(st.order)
    begin_turn(s)


def finish_action(s: Step) -> None:
    """An action without kills is done."""
    if not check_end(s):
        end_turn(s)


def check_end(s: Step) -> bool:
    """NOIR-10, 11, Q19, X16 (run once an action's kills are done): agents at their arrests,
    mafia at its points, both together a draw."""
    st = s.st
    t = st.table
    agents, mafia = st.arrests >= t.arrests_needed, st.points >= t.points_needed
    if not (agents or mafia):
        return False
    st.outcome = "draw" if agents and mafia else "agents" if agents else "mafia"
    st.phase = "ended"
    st.step = ""
    st.queue = []
    st.window = None
    s.disarm()
    s.emit(GameEnded(outcome=st.outcome, arrests=st.arrests, points=st.points,
                     identities=tuple((u, st.players[u].dealt_role.value, st.players[u].identity)
                                      for u in st.order)))
    return True


# --- the Psycho's closing step -----------------------------------------------------------------
def threat_cells(st: NoirState, p: Player) -> list[int]:
    """NOIR-22, Q05, Q08: living, unarrested, unthreatened suspects 1..3 away in a line."""
    if p.identity is None:
        return []
    return [x for x in straight(st, p.identity, LINE_REACH)
            if st.killable(x) and x not in st.threats]


def open_threats(s: Step) -> None:
    """After the Psycho's shift, swap or collapse: the threat step, or skip it (NOIR-Q08)."""
    st = s.st
    p = st.turn_player()
    if threat_cells(st, p):
        st.step = "threats"
        return
    s.emit(ThreatsSkipped(player=p.user_id))
    finish_action(s)


def seeded_pick(st: NoirState, count: int) -> int:
    """A deterministic index 0..count-1 from the game's seed and the turn (NOIR-Q08)."""
    x = (st.seed * 6364136223846793005 + st.turn_seq * 1442695040888963407 + 1) % 2 ** 64
    x ^= x >> 29
    return x % count


def timeout_turn(s: Step, p: Player, auto: bool) -> None:
    """NOIR-Q21: the turn passes; the Psycho's compulsory threat is placed on a seeded cell."""
    st = s.st
    if not auto:
        p.misses += 1
        if p.misses >= MISSES_FOR_AUTO_PASS:
            p.auto_pass = True
    s.emit(TurnTimedOut(player=p.user_id, auto=auto, auto_pass=p.auto_pass))
    if p.role == Role.PSYCHO:
        cells = threat_cells(st, p)
        if cells:
            cell = cells[seeded_pick(st, len(cells))]
            st.threats.add(cell)
            st.last_action = ("threats", cell)
            s.emit(ThreatsPlaced(player=p.user_id, targets=(cell,), auto=True))
        else:
            s.emit(ThreatsSkipped(player=p.user_id))
    end_turn(s)


def timeout(s: Step, timer_seq: int) -> None:
    """``TurnTimeout``: a stale seq changes nothing; 'turn' passes, 'cancel' closes the Suit's
    window, 'pause' resumes the game."""
    st = s.st
    t = st.timer
    if t is None or t.seq != timer_seq:
        return
    if t.kind == "pause":
        thaw(s, None)
    elif t.kind == "cancel":
        if kills.close_window(s):
            after_queue(s)
    else:
        timeout_turn(s, st.turn_player(), auto=False)


# --- pause and presence ------------------------------------------------------------------------
def pause(s: Step, uid: int | None, remaining: int | None) -> None:
    """NOIR-X17: a player (3 pauses each) or the organiser freezes the running timer."""
    st = s.st
    if st.phase != "play":
        raise WrongPhase(st.phase)
    if st.paused is not None:
        raise GamePaused()
    p = st.players.get(uid) if uid is not None else None
    if p is None and uid != st.organiser:
        raise NotAllowed()
    if p is not None and uid != st.organiser:
        if p.pauses_used >= PAUSES_PER_PLAYER:
            raise PauseLimit()
        p.pauses_used += 1
    if remaining is not None and (not isinstance(remaining, (int, float))
                                  or isinstance(remaining, bool)):
        raise BadInput("remaining must be seconds")
    t = st.timer
    left = None
    if t is not None:
        left = t.seconds if remaining is None else max(1, min(t.seconds, int(remaining)))
    st.paused = (t.kind if t else None, left)
    s.arm("pause")
    s.emit(Paused(by=uid, remaining=left))


def thaw(s: Step, by: int | None) -> None:
    st = s.st
    assert st.paused is not None, "thaw() runs in a pause"
    kind, left = st.paused
    st.paused = None
    if kind:
        s.arm(kind, left)
    else:
        s.disarm()
    s.emit(Resumed(by=by))


def resume(s: Step, uid: int | None) -> None:
    st = s.st
    if st.paused is None:
        raise NotPaused()
    if uid is not None and uid not in st.players and uid != st.organiser:
        raise NotAllowed()
    thaw(s, uid)


def return_to_game(s: Step, uid: int | None) -> None:
    """NOIR-Q21: an auto-passed player is back; his next turn waits for him again."""
    st = s.st
    if st.phase != "play":
        raise GameOver() if st.phase == "ended" else WrongPhase(st.phase)
    p = st.players.get(uid) if uid is not None else None
    if p is None:
        raise NotInGame()
    was = p.auto_pass
    p.auto_pass = False
    p.misses = 0
    if was:
        s.emit(PlayerReturned(player=p.user_id))
