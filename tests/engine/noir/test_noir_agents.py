"""The agents' roles: NOIR-13, 28..33, 35, 36, Q01, Q15..Q17, Q24, Q25, X08, X11, X12."""

from __future__ import annotations

from engine.core.audience import Public
from engine.noir import (
    Accuse,
    Accused,
    Arrested,
    Autopsy,
    AutopsyDone,
    ChangeIdentity,
    HandDealt,
    IdentityCard,
    Interrogate,
    Interrogated,
    Profile,
    Profiled,
    Protect,
    Role,
    Shift,
    Unprotect,
)
from engine.noir.errors import AlreadyUsed, InvalidTarget, NotYourRole

from .helpers import G, sid


def test_NOIR_13_accusing_a_mafioso_arrests_him_else_nothing():
    g = G(6, ids={Role.UNDERCOVER: "B2", Role.BOMBER: "C3"})
    g.turn_to(Role.UNDERCOVER)
    c3 = g.s("C3")
    g.do(Accuse(user_id=g.u(Role.UNDERCOVER), target=c3))
    assert g.of(Accused)[0].hit and g.st.arrests == 1 and c3 in g.st.arrested
    assert g.ident(Role.BOMBER) != c3
    g.turn_to(Role.UNDERCOVER)
    g.do(Accuse(user_id=g.u(Role.UNDERCOVER), target=g.s("A3")))
    assert not g.of(Accused)[0].hit and g.st.arrests == 1 and not g.of(Arrested)
    assert g.st.current == g.u(Role.PSYCHO)


def test_NOIR_28_undercover_accuses_adjacent_or_himself():
    g = G(6, ids={Role.UNDERCOVER: "B2"})
    g.turn_to(Role.UNDERCOVER)
    assert g.cells(g.legal(Role.UNDERCOVER).accuse) == {
        "A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3", "C3"}
    g.refuse(Accuse(user_id=g.u(Role.UNDERCOVER), target=g.s("B4")), InvalidTarget)


def test_NOIR_Q24_self_accusation_is_legal_and_arrests_no_one():
    g = G(6, ids={Role.UNDERCOVER: "B2"})
    g.turn_to(Role.UNDERCOVER)
    g.do(Accuse(user_id=g.u(Role.UNDERCOVER), target=g.s("B2")))
    assert not g.of(Accused)[0].hit and g.st.arrests == 0


def test_NOIR_29_undercover_changes_identity():
    g = G(6, deck_rest=[sid("E5")])
    g.turn_to(Role.UNDERCOVER)
    old = g.ident(Role.UNDERCOVER)
    g.do(ChangeIdentity(user_id=g.u(Role.UNDERCOVER)))
    assert g.ident(Role.UNDERCOVER) == sid("E5") and g.st.deck[-1] == old
    to = {e.audience.user_id for e in g.of(IdentityCard)}
    assert to == {g.u(Role.UNDERCOVER), g.u(Role.DETECTIVE), g.u(Role.SUIT)}
    g.turn_to(Role.DETECTIVE)
    g.refuse(ChangeIdentity(user_id=g.u(Role.DETECTIVE)), NotYourRole)


def test_NOIR_30_autopsy_names_the_mafiosi_next_to_the_dead():
    g = G(6, ids={Role.UNDERCOVER: "B1", Role.KILLER: "C3", Role.BOMBER: "F4"})
    b2 = g.s("B2")
    g.st.dead.add(b2)
    g.turn_to(Role.UNDERCOVER)
    g.refuse(Autopsy(user_id=g.u(Role.UNDERCOVER), target=g.s("C1")), InvalidTarget)  # living
    g.do(Autopsy(user_id=g.u(Role.UNDERCOVER), target=b2))
    done = g.of(AutopsyDone)[0]
    assert done.mafiosi == ("killer",) and isinstance(done.audience, Public)


def test_NOIR_Q15_results_are_public_and_name_roles_not_cells():
    g = G(6, ids={Role.UNDERCOVER: "B1", Role.KILLER: "C3", Role.PSYCHO: "A3",
                  Role.BOMBER: "F3"})
    g.st.dead.add(g.s("B2"))
    g.turn_to(Role.UNDERCOVER)
    g.do(Autopsy(user_id=g.u(Role.UNDERCOVER), target=g.s("B2")))
    done = g.of(AutopsyDone)[0]
    assert isinstance(done.audience, Public) and set(done.mafiosi) == {"killer", "psycho"}
    assert set(type(done).__dataclass_fields__) == {"audience", "player", "target", "mafiosi"}


def test_NOIR_31_detective_reaches_three_in_a_line_and_his_neighbours():
    g = G(6, ids={Role.DETECTIVE: "A1", Role.KILLER: "F6"})
    g.turn_to(Role.DETECTIVE)
    cells = g.cells(g.legal(Role.DETECTIVE).accuse)
    assert {"A4", "D1", "B2", "A1"} <= cells
    assert "C3" not in cells and "A5" not in cells and "E1" not in cells
    g.refuse(Accuse(user_id=g.u(Role.DETECTIVE), target=g.s("C3")), InvalidTarget)
    g.do(Accuse(user_id=g.u(Role.DETECTIVE), target=g.s("A4")))


def test_NOIR_32_interrogation_reveals_who_is_around_the_kept_card():
    g = G(6, ids={Role.DETECTIVE: "A1", Role.PSYCHO: "D2", Role.SUIT: "E3", Role.KILLER: "F6",
                  Role.UNDERCOVER: "A5"},
          deck_rest=[sid("E2"), sid("B5")])
    g.turn_to(Role.DETECTIVE)
    assert g.legal(Role.DETECTIVE).interrogate == (sid("E2"), sid("B5"))
    g.refuse(Interrogate(user_id=g.u(Role.DETECTIVE), keep=sid("C3")), InvalidTarget)
    g.do(Interrogate(user_id=g.u(Role.DETECTIVE), keep=sid("E2")))
    done = g.of(Interrogated)[0]
    assert done.suspect == sid("E2") and done.near == ("psycho", "suit")
    assert sid("E2") in g.st.interrogated


def test_NOIR_X08_both_cards_go_under_the_other_first():
    g = G(6, deck_rest=[sid("E2"), sid("B5")])
    g.st.dead.add(sid("E2"))  # a dead card is passed over (NOIR-X03)
    g.turn_to(Role.DETECTIVE)
    cards = g.legal(Role.DETECTIVE).interrogate
    assert cards[0] == sid("B5") and len(cards) == 2
    g.do(Interrogate(user_id=g.u(Role.DETECTIVE), keep=sid("B5")))
    assert g.st.deck[-3:] == [sid("E2"), cards[1], sid("B5")]


def test_NOIR_33_one_shield_step_a_turn_at_most_six():
    g = G(6)
    g.turn_to(Role.SUIT)
    u = g.u(Role.SUIT)
    g.do(Protect(user_id=u, target=g.s("A2")))
    assert g.st.current == u and g.st.shields == {g.s("A2")}
    g.refuse(Protect(user_id=u, target=g.s("A3")), AlreadyUsed)
    g.refuse(Unprotect(user_id=u, target=g.s("A2")), AlreadyUsed)
    assert not g.legal(Role.SUIT).protect and g.legal(Role.SUIT).shifts
    g.do(Shift(user_id=u, line="row", index=5, by=2))
    assert g.st.current == g.u(Role.KILLER)
    g.turn_to(Role.SUIT)
    g.st.shields = {g.s(c) for c in ("B1", "C1", "D1", "B2", "C2", "D2")}
    la = g.legal(Role.SUIT)
    assert not la.protect and len(la.unprotect) == 6
    g.refuse(Protect(user_id=u, target=g.s("A5")), InvalidTarget)
    g.do(Unprotect(user_id=u, target=g.s("B1")))
    assert len(g.st.shields) == 5


def test_NOIR_35_the_suit_never_shields_himself():
    g = G(6)
    g.turn_to(Role.SUIT)
    assert g.ident(Role.SUIT) not in g.legal(Role.SUIT).protect
    g.refuse(Protect(user_id=g.u(Role.SUIT), target=g.ident(Role.SUIT)), InvalidTarget)


def test_NOIR_Q25_every_agent_may_accuse():
    g = G(8, ids={Role.SUIT: "B2", Role.PROFILER: "E5"})
    for role in (Role.SUIT, Role.PROFILER):
        g.turn_to(role)
        assert len(g.legal(role).accuse) == 9
    g.turn_to(Role.KILLER)
    assert not g.legal(Role.KILLER).accuse
    g.refuse(Accuse(user_id=g.u(Role.KILLER), target=g.s("A2")), NotYourRole)


def test_NOIR_Q01_strict_accusation_needs_the_role():
    g = G(6, ids={Role.UNDERCOVER: "B2", Role.BOMBER: "C3"},
          settings={"options": {"strict_accusation": True}})
    g.turn_to(Role.UNDERCOVER)
    u = g.u(Role.UNDERCOVER)
    g.refuse(Accuse(user_id=u, target=g.s("C3")), InvalidTarget)
    g.do(Accuse(user_id=u, target=g.s("C3"), role=Role.PSYCHO))
    assert g.st.arrests == 0
    g.turn_to(Role.UNDERCOVER)
    g.do(Accuse(user_id=u, target=g.s("C3"), role=Role.BOMBER))
    assert g.st.arrests == 1


def test_NOIR_X11_no_accusation_of_the_dead_or_arrested():
    g = G(6, ids={Role.UNDERCOVER: "B2"})
    g.st.dead.add(g.s("A1"))
    g.st.arrested.add(g.s("C1"))
    g.turn_to(Role.UNDERCOVER)
    assert not {g.s("A1"), g.s("C1")} & set(g.legal(Role.UNDERCOVER).accuse)
    g.refuse(Accuse(user_id=g.u(Role.UNDERCOVER), target=g.s("A1")), InvalidTarget)


def test_NOIR_36_profiler_plays_a_card_and_learns_the_mafiosi_around_it():
    g = G(8, ids={Role.KILLER: "A2", Role.BOMBER: "C1"})
    g.turn_to(Role.PROFILER)
    hand = list(g.st.hand)
    assert len(hand) == 4 and g.legal(Role.PROFILER).profile == tuple(hand)
    b1 = sid("B1", 7)
    assert b1 in hand
    g.do(Profile(user_id=g.u(Role.PROFILER), card=b1))
    assert g.of(Profiled)[0].mafiosi == ("killer", "bomber")
    assert len(g.st.hand) == 4 and b1 not in g.st.hand
    g.turn_to(Role.PROFILER)
    g.refuse(Profile(user_id=g.u(Role.PROFILER), card=b1), InvalidTarget)


def test_NOIR_Q17_hand_refilled_to_four_dead_cards_replaced():
    g = G(8)
    g.turn_to(Role.PROFILER)
    first = g.st.hand[0]
    g.do(Profile(user_id=g.u(Role.PROFILER), card=first))
    dealt = g.of(HandDealt)
    assert dealt and dealt[-1].audience.user_id == g.u(Role.PROFILER)
    assert len(dealt[-1].cards) == 4 and first not in dealt[-1].cards
    assert first in g.st.deck


def test_NOIR_X12_dead_cards_leave_the_hand_when_his_turn_opens():
    g = G(8)
    dead = g.st.hand[1]
    g.st.dead.add(dead)
    g.turn_to(Role.SNIPER)
    g.do(Shift(user_id=g.u(Role.SNIPER), line="row", index=3, by=1))
    assert g.st.current == g.u(Role.PROFILER)
    assert dead not in g.st.hand and len(g.st.hand) == 4 and dead in g.st.deck
    assert g.of(HandDealt)


def test_NOIR_Q16_kept_card_is_marked_a_dead_draw_is_replaced():
    g = G(6, deck_rest=[sid("B5"), sid("E2"), sid("C5")])
    g.st.dead.add(sid("E2"))
    g.turn_to(Role.DETECTIVE)
    assert g.legal(Role.DETECTIVE).interrogate == (sid("B5"), sid("C5"))
    g.do(Interrogate(user_id=g.u(Role.DETECTIVE), keep=sid("C5")))
    assert g.st.interrogated == {sid("C5")} and isinstance(g.of(Interrogated)[0].audience, Public)
    g = G(6)
    g.st.deck = [sid("E2")]
    g.st.dead.add(sid("E2"))
    g.turn_to(Role.DETECTIVE)
    assert g.legal(Role.DETECTIVE).interrogate == ()
    g.refuse(Interrogate(user_id=g.u(Role.DETECTIVE), keep=sid("E2")), InvalidTarget)
