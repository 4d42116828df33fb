"""Identities, the deck and arrests (NOIR-03, 05, 13..17, Q02, Q14, Q17, X03, X04).

The deck is a list of suspect cards, top first.  A drawn card that cannot be used goes under the
deck and the next is drawn, one pass at most (NOIR-X03); a card given up goes under the deck
(NOIR-X04).  Cards held as identities or in the Profiler's hand are never in the deck.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.core.audience import Private

from .events import Arrested, HandDealt, IdentityCard, IdentityChanged, TokensCleared
from .rules import HAND_SIZE, Role, Team
from .state import NoirState, Player
from .step import Step


def identity_usable(st: NoirState, card: int) -> bool:
    """A new identity is a living, unarrested suspect nobody holds (NOIR-Q14)."""
    return st.killable(card) and st.owner(card) is None


def peek(st: NoirState, usable: Callable[[int], bool], count: int) -> list[int]:
    """The first ``count`` usable cards one pass would draw, without drawing them."""
    return [c for c in st.deck if usable(c)][:count]


def draw(st: NoirState, usable: Callable[[int], bool]) -> int | None:
    """Take the top usable card; unusable ones go under the deck, one pass at most (NOIR-X03)."""
    for _ in range(len(st.deck)):
        card = st.deck.pop(0)
        if usable(card):
            return card
        st.deck.append(card)
    return None


def send_cards(s: Step, team: Team) -> None:
    """NOIR-05: every member of ``team`` gets his identity card again (his and his mates')."""
    members = s.st.team_of(team)
    for p in members:
        s.emit(IdentityCard(audience=Private(p.user_id), role=p.dealt_role.value, suspect=p.identity,
                            teammates=tuple((m.user_id, m.dealt_role.value, m.identity)
                                            for m in members if m is not p)))


def send_hand(s: Step) -> None:
    p = s.st.by_role(Role.PROFILER)
    if p is not None:
        s.emit(HandDealt(audience=Private(p.user_id), cards=tuple(s.st.hand)))


def new_identity(s: Step, p: Player, reason: str) -> None:
    """NOIR-15, 19, 29, Q02, Q14: ``p`` takes the next usable card; the old card goes under the
    deck.  ``reason``: 'chose' | 'arrested' | 'killed'.  Public: only that it happened."""
    st = s.st
    old = p.identity
    p.identity = draw(st, lambda c: identity_usable(st, c))
    if old is not None:
        st.deck.append(old)
    s.emit(IdentityChanged(player=p.user_id, role=p.dealt_role.value, reason=reason))
    send_cards(s, p.dealt_role.team)


def strip_tokens(st: NoirState, suspect: int) -> None:
    """The issue's decision (NOIR-X01): every token leaves a suspect who dies or is arrested."""
    st.bombs.discard(suspect)
    st.threats.discard(suspect)
    st.shields.discard(suspect)


def arrest(s: Step, p: Player, suspect: int, by: str) -> None:
    """NOIR-13, 14, 16, 17, X05 (the role is public): mark ``suspect`` arrested, score it,
    clear an arrested Bomber's bombs or Psycho's threats, and give ``p`` a new identity.
    ``by``: 'accusation' | 'kill'."""
    st = s.st
    st.arrested.add(suspect)
    strip_tokens(st, suspect)
    st.arrests += 1
    s.emit(Arrested(role=p.dealt_role.value, suspect=suspect, by=by, arrests=st.arrests))
    for role, kind, tokens in ((Role.BOMBER, "bomb", st.bombs),
                               (Role.PSYCHO, "threat", st.threats)):
        if p.role == role and tokens:
            s.emit(TokensCleared(kind=kind, suspects=tuple(sorted(tokens))))
            tokens.clear()
    new_identity(s, p, "arrested")


def refresh_hand(s: Step) -> None:
    """NOIR-Q17, X12: dead cards leave the Profiler's hand (under the deck) and the hand is
    refilled to 4 with living suspects."""
    st = s.st
    if st.by_role(Role.PROFILER) is None:
        return
    before = list(st.hand)
    for dead in [c for c in st.hand if not st.alive(c)]:
        st.hand.remove(dead)
        st.deck.append(dead)
    while len(st.hand) < HAND_SIZE:
        card = draw(st, st.alive)
        if card is None:
            break
        st.hand.append(card)
    if st.hand != before:
        send_hand(s)
