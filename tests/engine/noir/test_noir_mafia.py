"""The mafia's roles: NOIR-19..27, Q06..Q10, Q27, X13, X15."""

from __future__ import annotations

from engine.noir import (
    ChangeIdentity,
    Detonate,
    IdentityCard,
    IdentityChanged,
    Kill,
    MoveToken,
    PlaceBomb,
    PlaceThreats,
    Role,
    Shift,
    Shoot,
    SuspectKilled,
    Swap,
    ThreatsPlaced,
    ThreatsSkipped,
    TurnTimeout,
    chain_links,
)
from engine.noir.errors import InvalidTarget, NotYourRole, WrongPhase

from .helpers import G


def test_NOIR_19_killer_kills_an_adjacent_suspect_or_changes_identity():
    g = G(6, ids={Role.KILLER: "B2"})
    b3 = g.s("B3")
    g.refuse(Kill(user_id=g.u(Role.KILLER), target=g.s("B4")), InvalidTarget)
    g.do(Kill(user_id=g.u(Role.KILLER), target=b3))
    assert b3 in g.st.dead and g.st.points == 1
    g.turn_to(Role.KILLER)
    old = g.ident(Role.KILLER)
    g.do(ChangeIdentity(user_id=g.u(Role.KILLER)))
    new = g.ident(Role.KILLER)
    assert new != old and g.st.killable(new)
    cards = {e.audience.user_id: e for e in g.of(IdentityCard)}
    assert set(cards) == {g.u(Role.KILLER), g.u(Role.PSYCHO), g.u(Role.BOMBER)}
    assert cards[g.u(Role.KILLER)].suspect == new
    assert g.of(IdentityChanged)[0].reason == "chose"


def test_NOIR_20_psycho_threatened_neighbours_die_as_his_turn_opens():
    g = G(6, ids={Role.PSYCHO: "B5"})
    a4, c6, d5 = g.s("A4"), g.s("C6"), g.s("D5")
    g.st.threats |= {a4, c6, d5}
    g.turn_to(Role.UNDERCOVER)
    g.do(Shift(user_id=g.u(Role.UNDERCOVER), line="row", index=0, by=1))
    killed = [e.suspect for e in g.of(SuspectKilled)]
    assert killed == [a4, c6]  # reading order; D5 is not adjacent
    assert d5 in g.st.threats and a4 not in g.st.threats
    assert g.st.current == g.u(Role.PSYCHO) and g.st.step == "act"


def test_NOIR_21_psycho_shifts_or_swaps_never_kills():
    g = G(6, ids={Role.PSYCHO: "B5"})
    g.turn_to(Role.PSYCHO)
    la = g.legal(Role.PSYCHO)
    assert la.shifts and la.swap and not la.kill and not la.accuse
    g.refuse(Kill(user_id=g.u(Role.PSYCHO), target=g.s("B4")), NotYourRole)
    a4, c6 = g.s("A4"), g.s("C6")
    g.do(Swap(user_id=g.u(Role.PSYCHO), first=a4, second=c6))
    assert g.s("A4") == c6 and g.s("C6") == a4
    assert g.st.step == "threats"


def test_NOIR_Q06_swap_only_two_neighbours_of_the_psycho():
    g = G(6, ids={Role.PSYCHO: "B5"})
    g.turn_to(Role.PSYCHO)
    g.refuse(Swap(user_id=g.u(Role.PSYCHO), first=g.s("A4"), second=g.s("A3")), InvalidTarget)
    g.refuse(Swap(user_id=g.u(Role.PSYCHO), first=g.s("A4"), second=g.s("A4")), InvalidTarget)
    assert len(g.legal(Role.PSYCHO).swap) == 28  # 8 neighbours, every pair


def test_NOIR_X13_swap_may_move_the_dead():
    g = G(6, ids={Role.PSYCHO: "B5"})
    g.turn_to(Role.PSYCHO)
    a4 = g.s("A4")
    g.st.dead.add(a4)
    g.do(Swap(user_id=g.u(Role.PSYCHO), first=a4, second=g.s("C6")))
    assert g.s("C6") == a4


def psycho_at_threats(ids=None):
    g = G(6, ids=ids or {Role.PSYCHO: "C3", Role.BOMBER: "E5"})
    g.turn_to(Role.PSYCHO)
    g.do(Shift(user_id=g.u(Role.PSYCHO), line="row", index=5, by=1))
    assert g.st.step == "threats"
    return g


def test_NOIR_22_psycho_must_place_one_to_three_threats_in_a_line():
    g = psycho_at_threats()
    u = g.u(Role.PSYCHO)
    g.refuse(PlaceThreats(user_id=u, targets=()), InvalidTarget)
    four = (g.s("C1"), g.s("C2"), g.s("C4"), g.s("C5"))
    g.refuse(PlaceThreats(user_id=u, targets=four), InvalidTarget)
    g.refuse(PlaceThreats(user_id=u, targets=(g.s("D4"),)), InvalidTarget)  # diagonal
    g.refuse(Shift(user_id=u, line="row", index=0, by=1), WrongPhase)
    assert g.cells(g.legal(Role.PSYCHO).threats) == {
        "C1", "C2", "C4", "C5", "C6", "A3", "B3", "D3", "E3", "F3"}
    g.do(PlaceThreats(user_id=u, targets=four[:3]))
    assert set(four[:3]) <= g.st.threats and g.st.current == g.u(Role.DETECTIVE)


def test_NOIR_Q07_threat_deaths_score_arrest_and_respect_arrests():
    g = G(6, ids={Role.PSYCHO: "B5", Role.KILLER: "A4", Role.UNDERCOVER: "C4"})
    a4, c4, a5 = g.s("A4"), g.s("C4"), g.s("A5")
    g.st.threats |= {a4, c4, a5}
    g.st.arrested.add(a5)
    g.turn_to(Role.UNDERCOVER)
    g.do(Shift(user_id=g.u(Role.UNDERCOVER), line="row", index=0, by=1))
    assert a4 in g.st.arrested and a4 not in g.st.dead  # the Killer's identity: an arrest
    assert c4 in g.st.dead and g.st.points == 2  # the Undercover's identity: 2 points
    assert a5 not in g.st.dead


def test_NOIR_Q08_threat_step_skipped_or_placed_on_timeout():
    g = G(6, ids={Role.PSYCHO: "C3", Role.BOMBER: "E5"})
    g.turn_to(Role.PSYCHO)
    g.do(TurnTimeout(timer_seq=g.st.timer.seq))
    placed = g.of(ThreatsPlaced)
    assert len(placed) == 1 and placed[0].auto and len(placed[0].targets) == 1
    again = G(6, ids={Role.PSYCHO: "C3", Role.BOMBER: "E5"})
    again.turn_to(Role.PSYCHO)
    again.do(TurnTimeout(timer_seq=again.st.timer.seq))
    assert again.of(ThreatsPlaced)[0].targets == placed[0].targets  # the seed decides
    g = G(6, ids={Role.PSYCHO: "A6"})
    for x in (g.s("A3"), g.s("A4"), g.s("A5"), g.s("B6"), g.s("C6"), g.s("D6")):
        g.st.dead.add(x)
    g.turn_to(Role.PSYCHO)
    g.do(Shift(user_id=g.u(Role.PSYCHO), line="row", index=0, by=1))
    assert g.of(ThreatsSkipped) and g.st.current == g.u(Role.DETECTIVE)


def test_NOIR_23_bomb_on_himself_or_a_neighbour():
    g = G(6)
    g.turn_to(Role.BOMBER)
    u = g.u(Role.BOMBER)
    assert g.cells(g.legal(Role.BOMBER).place_bomb) == {
        "B2", "C2", "D2", "B3", "C3", "D3", "B4", "C4", "D4"}
    g.refuse(PlaceBomb(user_id=u, target=g.s("E5")), InvalidTarget)
    g.do(PlaceBomb(user_id=u, target=g.s("C3")))
    assert g.s("C3") in g.st.bombs


def test_NOIR_24_detonation_kills_the_bomb_and_one_neighbour():
    g = G(6)
    g.turn_to(Role.BOMBER)
    c5, d6 = g.s("C5"), g.s("D6")
    g.st.bombs.add(c5)
    g.refuse(Detonate(user_id=g.u(Role.BOMBER), bomb=c5), InvalidTarget)  # a neighbour is due
    g.do(Detonate(user_id=g.u(Role.BOMBER), bomb=c5, chain=(d6,)))
    assert {c5, d6} <= g.st.dead and not g.st.bombs and g.st.points == 2


def test_NOIR_25_the_blast_carries_on_through_bombs():
    g = G(6)
    g.turn_to(Role.BOMBER)
    c5, d6, e5, f4 = g.s("C5"), g.s("D6"), g.s("E5"), g.s("F4")
    g.st.bombs |= {c5, d6}
    assert e5 in chain_links(g.st, c5, (d6,))
    assert chain_links(g.st, c5, (g.s("B5"),)) == []  # no bomb on B5: the chain stops
    g.refuse(Detonate(user_id=g.u(Role.BOMBER), bomb=c5, chain=(g.s("B5"), g.s("A5"))),
             InvalidTarget)
    g.do(Detonate(user_id=g.u(Role.BOMBER), bomb=c5, chain=(d6, e5)))
    assert {c5, d6, e5} <= g.st.dead and f4 not in g.st.dead


def test_NOIR_Q09_any_bomb_may_go_off_and_going_on_is_optional():
    g = G(6)
    g.turn_to(Role.BOMBER)
    far, next_ = g.s("F2"), g.s("E2")
    g.st.bombs |= {far, next_}
    assert set(g.legal(Role.BOMBER).detonate) == {far, next_}
    g.do(Detonate(user_id=g.u(Role.BOMBER), bomb=far, chain=(next_,)))  # stops at E2
    assert {far, next_} <= g.st.dead and not g.st.bombs
    g2 = G(6)
    g2.turn_to(Role.BOMBER)
    g2.st.bombs.add(g2.s("C3"))
    g2.refuse(PlaceBomb(user_id=g2.u(Role.BOMBER), target=g2.s("C3")), InvalidTarget)


def test_NOIR_X15_chain_links_are_living_new_and_adjacent():
    g = G(6)
    g.turn_to(Role.BOMBER)
    c5, d6 = g.s("C5"), g.s("D6")
    g.st.bombs |= {c5, d6}
    g.st.dead.add(g.s("B6"))
    g.st.arrested.add(g.s("B4"))
    links = g.cells(chain_links(g.st, c5))
    assert links == {"C4", "D4", "B5", "D5", "C6", "D6"}
    assert c5 not in chain_links(g.st, c5, (d6,))
    g.st.dead |= set(chain_links(g.st, c5))
    g.do(Detonate(user_id=g.u(Role.BOMBER), bomb=c5))  # nothing left around it: alone
    assert c5 in g.st.dead


def test_NOIR_26_sniper_shoots_along_a_diagonal_up_to_three():
    g = G(8, ids={Role.SNIPER: "A1", Role.KILLER: "G7"})
    g.turn_to(Role.SNIPER)
    assert g.cells(g.legal(Role.SNIPER).shoot) == {"B2", "C3", "D4"}
    g.refuse(Shoot(user_id=g.u(Role.SNIPER), target=g.s("E5")), InvalidTarget)
    d4 = g.s("D4")
    g.do(Shoot(user_id=g.u(Role.SNIPER), target=d4))
    assert d4 in g.st.dead


def test_NOIR_27_sniper_moves_a_token_to_a_neighbour():
    g = G(8)
    g.turn_to(Role.SNIPER)
    c3, c4 = g.s("C3"), g.s("C4")
    g.st.bombs.add(c3)
    g.do(MoveToken(user_id=g.u(Role.SNIPER), kind="bomb", source=c3, dest=c4))
    assert g.st.bombs == {c4}


def test_NOIR_Q10_any_token_kind_onto_a_living_neighbour_without_one():
    g = G(8)
    g.turn_to(Role.SNIPER)
    b2, b3, b4 = g.s("B2"), g.s("B3"), g.s("B4")
    g.st.threats |= {b2, b3}
    g.st.shields.add(b4)
    g.st.dead.add(g.s("A1"))
    u = g.u(Role.SNIPER)
    g.refuse(MoveToken(user_id=u, kind="threat", source=b2, dest=b3), InvalidTarget)
    g.refuse(MoveToken(user_id=u, kind="threat", source=b2, dest=g.s("A1")), InvalidTarget)
    g.refuse(MoveToken(user_id=u, kind="shield", source=b4, dest=g.s("B6")), InvalidTarget)
    moves = g.legal(Role.SNIPER).move_token
    assert {k for k, _, _ in moves} == {"threat", "shield"}
    g.do(MoveToken(user_id=u, kind="shield", source=b4, dest=g.s("C5")))
    assert g.st.shields == {g.s("C5")}


def test_NOIR_Q27_kill_targets_living_unarrested_teammates_included():
    g = G(6, ids={Role.KILLER: "B2", Role.PSYCHO: "B3"})
    a1, c1 = g.s("A1"), g.s("C1")
    g.st.dead.add(a1)
    g.st.arrested.add(c1)
    targets = g.legal(Role.KILLER).kill
    assert a1 not in targets and c1 not in targets and g.s("B3") in targets
