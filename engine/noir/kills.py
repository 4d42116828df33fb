"""Kills and the Suit's reaction window (NOIR-12, 14, 16, 20, 34, 35, Q07, Q11, Q27, X02, X07).

Every kill of an action goes through one queue, resolved in order: a suspect no longer killable
is skipped; a protected one opens the Suit's window (a fixed ``cancel`` timer, whether or not the
Suit is in line) and the queue waits; otherwise the kill happens at once.  A kill of a mafioso's
identity is an arrest (NOIR-16); of an agent's, 2 points and a new identity (NOIR-12, Q02).
"""

from __future__ import annotations

from engine.core.audience import Private

from .events import CancelOffered, KillCancelled, SuspectKilled, WindowOpened
from .grid import in_line
from .identities import arrest, new_identity, strip_tokens
from .rules import POINTS_FOR_AGENT, Role, Team
from .state import Window
from .step import Step


def start(s: Step, kills: list[tuple[int, str]], after: str) -> bool:
    """Queue ``kills`` (suspect, cause) and resolve them; ``after``: 'end' (the turn ends) |
    'psycho' (the Psycho's turn goes on to his choice), read by :func:`turns.after_queue`.
    Returns True when the queue is done, False when a cancel window opened (the queue goes on
    when it closes)."""
    s.st.queue = list(kills)
    s.st.after = after
    return resolve(s)


def resolve(s: Step) -> bool:
    """Kill the queued suspects in order until a protected one opens a window (False) or the
    queue is empty (True)."""
    st = s.st
    while st.queue:
        suspect, cause = st.queue.pop(0)
        if not st.killable(suspect):
            continue
        if suspect in st.shields:
            open_window(s, suspect, cause)
            return False
        kill_now(s, suspect, cause)
    return True


def open_window(s: Step, suspect: int, cause: str) -> None:
    """NOIR-34, 35, Q11: the window opens for every protected target; the Suit may cancel only
    when his identity shares the target's row or column and is not the target."""
    st = s.st
    suit = st.by_role(Role.SUIT)
    can = (suit is not None and suit.identity is not None and suit.identity != suspect
           and in_line(st, suit.identity, suspect))
    st.window = Window(suspect=suspect, cause=cause, suit_can=can)
    st.step = "window"
    t = s.arm("cancel")
    s.emit(WindowOpened(suspect=suspect, cause=cause, seconds=t.seconds, timer_seq=t.seq))
    if can and suit is not None:
        s.emit(CancelOffered(audience=Private(suit.user_id), suspect=suspect, seconds=t.seconds))


def close_window(s: Step) -> bool:
    """The window's timer fired: cancel (the shield is used up; a bomb chain ends at this link,
    NOIR-X02, and this link's bomb is spent, X07) or let it happen; then the queue goes on."""
    st = s.st
    w = st.window
    assert w is not None, "the window's timer fires while it is open"
    st.window = None
    s.disarm()
    if w.suit_can and w.answer:
        st.shields.discard(w.suspect)
        if w.cause == "bomb":
            st.bombs.discard(w.suspect)
            st.queue.clear()
        s.emit(KillCancelled(suspect=w.suspect, cause=w.cause))
    else:
        kill_now(s, w.suspect, w.cause)
    return resolve(s)


def kill_now(s: Step, suspect: int, cause: str) -> None:
    st = s.st
    owner = st.owner(suspect)
    if owner is not None and owner.team == Team.MAFIA:
        arrest(s, owner, suspect, "kill")  # NOIR-16
        return
    st.dead.add(suspect)
    strip_tokens(st, suspect)
    st.points += POINTS_FOR_AGENT if owner is not None else 1
    s.emit(SuspectKilled(suspect=suspect, cause=cause,
                         agent_role=owner.dealt_role.value if owner else None, points=st.points))
    if owner is not None:
        new_identity(s, owner, "killed")  # NOIR-Q02
