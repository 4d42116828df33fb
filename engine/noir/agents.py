"""The agents' role actions: Undercover's autopsy, Detective's interrogation, the Suit's
shields and cancel, the Profiler's hand (NOIR-30, 32..36, Q11, Q12, Q15..Q17, X03, X08, X12)."""

from __future__ import annotations

from . import turns
from .commands import AnswerCancel, Autopsy, Interrogate, Profile, Protect, Unprotect
from .common import guard
from .errors import AlreadyUsed, InvalidTarget, NotAllowed, WrongPhase
from .events import AutopsyDone, Interrogated, Profiled, ShieldPlaced, ShieldRemoved
from .grid import neighbours, positions
from .identities import draw, peek, refresh_hand
from .rules import MAX_SHIELDS, Role, Team
from .state import NoirState, Player
from .step import Step


def near_roles(st: NoirState, suspect: int, team: Team | None) -> tuple[str, ...]:
    """Roles (in turn order) of the players of ``team`` (None: everyone) whose identity is
    adjacent to ``suspect`` (NOIR-30, 32, 36, Q15)."""
    pos = positions(st)
    around = set(neighbours(st, suspect, pos))
    return tuple(st.players[u].dealt_role.value for u in st.order
                 if st.players[u].identity in around
                 and (team is None or st.players[u].team == team))


# --- Undercover --------------------------------------------------------------------------------
def autopsy_targets(st: NoirState, p: Player) -> list[int]:
    """NOIR-30: adjacent dead suspects."""
    if p.identity is None:
        return []
    return [x for x in neighbours(st, p.identity) if x in st.dead]


def autopsy(s: Step, cmd: Autopsy) -> None:
    p = guard(s, cmd.user_id, roles=(Role.UNDERCOVER,))
    st = s.st
    if cmd.target not in autopsy_targets(st, p):
        raise InvalidTarget("autopsy")
    st.last_action = ("autopsy", cmd.target)
    s.emit(AutopsyDone(player=p.user_id, target=cmd.target,
                       mafiosi=near_roles(st, cmd.target, Team.MAFIA)))
    turns.finish_action(s)


# --- Detective ---------------------------------------------------------------------------------
def interrogation_cards(st: NoirState) -> list[int]:
    """NOIR-32, Q16, X03: the two cards an interrogation would draw now (living suspects; dead
    ones go under the deck), fewer if the deck holds fewer."""
    return peek(st, st.alive, 2)


def interrogate(s: Step, cmd: Interrogate) -> None:
    """Draw both cards, the other goes under the deck, then the kept one (NOIR-X08); the kept
    suspect is marked and the roles of the identities around it are public."""
    p = guard(s, cmd.user_id, roles=(Role.DETECTIVE,))
    st = s.st
    cards = interrogation_cards(st)
    if cmd.keep not in cards:
        raise InvalidTarget("interrogate")
    drawn = [draw(st, st.alive) for _ in cards]
    # (each draw finds its card: ``cards`` are the ones it takes, so none is None)
    st.deck += [c for c in drawn if c is not None and c != cmd.keep] + [cmd.keep]
    st.interrogated.add(cmd.keep)
    st.last_action = ("interrogate", cmd.keep)
    s.emit(Interrogated(player=p.user_id, suspect=cmd.keep, near=near_roles(st, cmd.keep, None)))
    turns.finish_action(s)


# --- Suit --------------------------------------------------------------------------------------
def protect_targets(st: NoirState, p: Player) -> list[int]:
    """NOIR-33, 35, Q12: with fewer than 6 shields out, any living, unarrested, unshielded
    suspect but his own; empty once the token step is used."""
    if st.token_used or len(st.shields) >= MAX_SHIELDS:
        return []
    return [x for row in st.grid for x in row
            if st.killable(x) and x not in st.shields and x != p.identity]


def unprotect_targets(st: NoirState) -> list[int]:
    if st.token_used:
        return []
    return [x for row in st.grid for x in row if x in st.shields]


def protect(s: Step, cmd: Protect) -> None:
    p = guard(s, cmd.user_id, roles=(Role.SUIT,))
    st = s.st
    if st.token_used:
        raise AlreadyUsed()
    if cmd.target not in protect_targets(st, p):
        raise InvalidTarget("shield")
    st.shields.add(cmd.target)
    st.token_used = True
    st.last_action = ("shield", cmd.target)
    s.emit(ShieldPlaced(player=p.user_id, target=cmd.target))


def unprotect(s: Step, cmd: Unprotect) -> None:
    p = guard(s, cmd.user_id, roles=(Role.SUIT,))
    st = s.st
    if st.token_used:
        raise AlreadyUsed()
    if cmd.target not in st.shields:
        raise InvalidTarget("no shield")
    st.shields.discard(cmd.target)
    st.token_used = True
    st.last_action = ("unshield", cmd.target)
    s.emit(ShieldRemoved(player=p.user_id, target=cmd.target))


def answer_cancel(s: Step, cmd: AnswerCancel) -> None:
    """NOIR-34, Q11, X14: only the Suit, only in line; his last answer counts when the window
    closes."""
    st = s.st
    if st.phase != "play" or st.window is None:
        raise WrongPhase(st.step)
    p = st.players.get(cmd.user_id) if cmd.user_id is not None else None
    if p is None or p.role != Role.SUIT or not st.window.suit_can:
        raise NotAllowed()
    p.misses = 0
    p.auto_pass = False
    st.window.answer = bool(cmd.cancel)


# --- Profiler ----------------------------------------------------------------------------------
def profile_cards(st: NoirState) -> list[int]:
    """NOIR-36: the cards of his hand that are living suspects."""
    return [c for c in st.hand if st.alive(c)]


def profile(s: Step, cmd: Profile) -> None:
    """The card goes under the deck and the hand is refilled to 4 (NOIR-Q17, X12)."""
    p = guard(s, cmd.user_id, roles=(Role.PROFILER,))
    st = s.st
    if cmd.card not in profile_cards(st):
        raise InvalidTarget("card")
    st.hand.remove(cmd.card)
    st.deck.append(cmd.card)
    st.last_action = ("profile", cmd.card)
    s.emit(Profiled(player=p.user_id, card=cmd.card, mafiosi=near_roles(st, cmd.card, Team.MAFIA)))
    refresh_hand(s)
    turns.finish_action(s)
