"""Kills, arrests, identities and the Suit's window: NOIR-12, 14..17, 34, Q02, Q11, Q12, Q14,
X01..X05, X07, X14, X21."""

from __future__ import annotations

from engine.core.audience import Private, Public
from engine.noir import (
    Accuse,
    AnswerCancel,
    Arrested,
    CancelOffered,
    ChangeIdentity,
    Detonate,
    IdentityCard,
    IdentityChanged,
    Kill,
    KillCancelled,
    Role,
    Shift,
    SuspectKilled,
    TokensCleared,
    TurnTimeout,
    WindowOpened,
)
from engine.noir.errors import InvalidTarget, NotAllowed, NotYourTurn
from engine.noir.identities import draw

from .helpers import G, sid


def test_NOIR_12_killing_an_agents_identity_scores_two():
    g = G(6, ids={Role.KILLER: "B2", Role.DETECTIVE: "C2"})
    g.do(Kill(user_id=g.u(Role.KILLER), target=g.s("C2")))
    killed = g.of(SuspectKilled)[0]
    assert g.st.points == 2 and killed.agent_role == "detective" and killed.points == 2


def test_NOIR_Q02_the_killed_agent_plays_on_under_a_new_identity():
    g = G(6, ids={Role.KILLER: "B2", Role.DETECTIVE: "C2"}, deck_rest=[sid("E6")])
    g.do(Kill(user_id=g.u(Role.KILLER), target=g.s("C2")))
    assert g.ident(Role.DETECTIVE) == sid("E6")
    assert g.of(IdentityChanged)[0].reason == "killed"
    cards = {e.audience.user_id for e in g.of(IdentityCard)}
    assert cards == {g.u(Role.UNDERCOVER), g.u(Role.DETECTIVE), g.u(Role.SUIT)}


def test_NOIR_14_an_arrested_suspect_cannot_be_killed():
    g = G(6, ids={Role.KILLER: "B2"})
    g.st.arrested.add(g.s("B3"))
    assert g.s("B3") not in g.legal(Role.KILLER).kill
    g.refuse(Kill(user_id=g.u(Role.KILLER), target=g.s("B3")), InvalidTarget)


def test_NOIR_15_arrested_mafioso_gets_a_new_secret_identity():
    g = G(6, ids={Role.UNDERCOVER: "B2", Role.PSYCHO: "C3", Role.BOMBER: "E5"},
          deck_rest=[sid("F4")])
    g.turn_to(Role.UNDERCOVER)
    g.do(Accuse(user_id=g.u(Role.UNDERCOVER), target=g.s("C3")))
    assert g.ident(Role.PSYCHO) == sid("F4")
    cards = [e for e in g.of(IdentityCard)]
    assert {e.audience.user_id for e in cards} == {g.u(Role.KILLER), g.u(Role.PSYCHO),
                                                   g.u(Role.BOMBER)}
    public = [e for e in g.events if isinstance(e.audience, Public)]
    assert all(sid("F4") not in getattr(e, "__dict__", {}).values() for e in public)


def test_NOIR_X05_the_group_learns_which_role_was_arrested():
    g = G(6, ids={Role.UNDERCOVER: "B2", Role.PSYCHO: "C3", Role.BOMBER: "E5"})
    g.turn_to(Role.UNDERCOVER)
    g.do(Accuse(user_id=g.u(Role.UNDERCOVER), target=g.s("C3")))
    arrested = g.of(Arrested)[0]
    assert isinstance(arrested.audience, Public) and arrested.role == "psycho"
    assert arrested.by == "accusation" and arrested.arrests == 1


def test_NOIR_16_a_mafia_kill_of_a_mafioso_is_an_arrest():
    g = G(6, ids={Role.KILLER: "B2", Role.BOMBER: "B3"})
    b3 = g.s("B3")
    g.do(Kill(user_id=g.u(Role.KILLER), target=b3))
    assert g.st.arrests == 1 and g.st.points == 0 and b3 in g.st.arrested
    assert b3 not in g.st.dead and g.of(Arrested)[0].by == "kill"
    assert g.ident(Role.BOMBER) != b3


def test_NOIR_17_arrested_bomber_or_psycho_takes_his_tokens_away():
    g = G(6, ids={Role.UNDERCOVER: "B2", Role.BOMBER: "C3", Role.PSYCHO: "E5"})
    g.st.bombs |= {g.s("A5"), g.s("C3"), g.s("F6")}
    g.st.threats |= {g.s("A6")}
    g.turn_to(Role.UNDERCOVER)
    g.do(Accuse(user_id=g.u(Role.UNDERCOVER), target=g.s("C3")))
    assert not g.st.bombs and g.st.threats == {g.s("A6")}
    assert g.of(TokensCleared)[0].kind == "bomb"
    g.turn_to(Role.UNDERCOVER)
    g.st.players[g.u(Role.UNDERCOVER)].identity = g.s("E4")
    g.do(Accuse(user_id=g.u(Role.UNDERCOVER), target=g.s("E5")))
    assert not g.st.threats


def test_NOIR_X01_tokens_leave_the_dead_and_the_arrested():
    g = G(6, ids={Role.KILLER: "B2", Role.BOMBER: "E5"})
    b3 = g.s("B3")
    g.st.threats.add(b3)
    g.st.bombs.add(b3)
    g.do(Kill(user_id=g.u(Role.KILLER), target=b3))
    assert b3 not in g.st.threats | g.st.bombs
    g = G(6, ids={Role.UNDERCOVER: "B2", Role.BOMBER: "E5", Role.KILLER: "C3"})
    g.st.shields.add(g.s("C3"))
    g.st.threats.add(g.s("C3"))
    g.turn_to(Role.UNDERCOVER)
    g.do(Accuse(user_id=g.u(Role.UNDERCOVER), target=g.s("C3")))
    assert not g.st.shields and not g.st.threats


def test_NOIR_Q14_new_identity_is_the_next_living_free_card():
    g = G(6, deck_rest=[sid("B5"), sid("E5"), sid("A3")])
    g.st.dead.add(sid("B5"))
    g.do(ChangeIdentity(user_id=g.u(Role.KILLER)))
    assert g.ident(Role.KILLER) == sid("E5")


def test_NOIR_X03_unusable_cards_go_under_one_pass_at_most():
    g = G(6, deck_rest=[sid("B5"), sid("E5")])
    g.st.dead.add(sid("B5"))
    st = g.st.clone()
    card = draw(st, st.alive)
    assert card == sid("E5") and st.deck[-1] == sid("B5")
    st = g.st.clone()
    st.deck = [sid("B5")]
    assert draw(st, st.alive) is None and st.deck == [sid("B5")]


def test_NOIR_X04_a_given_up_identity_goes_under_the_deck():
    g = G(6)
    old = g.ident(Role.KILLER)
    g.do(ChangeIdentity(user_id=g.u(Role.KILLER)))
    assert g.st.deck[-1] == old


def test_NOIR_X21_no_identity_change_without_a_usable_card():
    g = G(6)
    g.st.deck = [g.s("B5")]
    g.st.dead.add(g.s("B5"))
    assert not g.legal(Role.KILLER).change_identity
    g.refuse(ChangeIdentity(user_id=g.u(Role.KILLER)), InvalidTarget)


def window_game(suit_at: str, target: str = "C2"):
    g = G(6, ids={Role.KILLER: "B2", Role.SUIT: suit_at})
    g.st.shields.add(g.s(target))
    g.do(Kill(user_id=g.u(Role.KILLER), target=g.s(target)))
    return g


def test_NOIR_34_suit_in_line_may_cancel_the_kill():
    g = window_game("C5")
    c2 = g.s("C2")
    offered = g.of(CancelOffered)
    assert offered and offered[0].audience == Private(g.u(Role.SUIT))
    assert g.st.step == "window" and g.st.timer.kind == "cancel"
    g.refuse(Shift(user_id=g.u(Role.UNDERCOVER), line="row", index=0, by=1))
    g.do(AnswerCancel(user_id=g.u(Role.SUIT), cancel=True))
    assert c2 not in g.st.dead and g.st.window is not None  # the window runs its length
    g.do(TurnTimeout(timer_seq=g.st.timer.seq))
    assert g.of(KillCancelled) and c2 not in g.st.dead and c2 not in g.st.shields
    assert g.st.current == g.u(Role.UNDERCOVER) and g.st.points == 0


def test_NOIR_Q11_window_opens_whether_or_not_the_suit_is_in_line():
    out = window_game("E5")
    assert out.of(WindowOpened) and not out.of(CancelOffered)
    inl = window_game("C5")
    assert out.of(WindowOpened)[0].seconds == inl.of(WindowOpened)[0].seconds == 30
    out.refuse(AnswerCancel(user_id=out.u(Role.SUIT), cancel=True), NotAllowed)
    out.do(TurnTimeout(timer_seq=out.st.timer.seq))
    assert out.s("C2") in out.st.dead  # no answer: it happens


def test_NOIR_35_no_cancel_offer_for_the_suits_own_identity():
    g = G(6, ids={Role.KILLER: "B2", Role.SUIT: "C2"})
    g.st.shields.add(g.s("C2"))  # e.g. moved there by the Sniper
    g.do(Kill(user_id=g.u(Role.KILLER), target=g.s("C2")))
    assert g.of(WindowOpened) and not g.of(CancelOffered)


def test_NOIR_Q12_a_shield_leaves_with_its_dead_suspect():
    g = window_game("E5")
    g.do(TurnTimeout(timer_seq=g.st.timer.seq))
    assert not g.st.shields


def test_NOIR_X02_a_cancelled_link_ends_the_chain():
    g = G(6, ids={Role.BOMBER: "C3", Role.SUIT: "D1"})
    g.turn_to(Role.BOMBER)
    c4, d5, e6 = g.s("C4"), g.s("D5"), g.s("E6")
    g.st.bombs |= {c4, d5}
    g.st.shields.add(d5)
    g.do(Detonate(user_id=g.u(Role.BOMBER), bomb=c4, chain=(d5, e6)))
    assert c4 in g.st.dead and g.st.window.suspect == d5
    g.do(AnswerCancel(user_id=g.u(Role.SUIT), cancel=True))
    g.do(TurnTimeout(timer_seq=g.st.timer.seq))
    assert d5 not in g.st.dead and e6 not in g.st.dead and g.st.points == 1


def test_NOIR_X07_a_cancel_spends_the_shield_and_that_links_bomb_threats_stay():
    g = G(6, ids={Role.BOMBER: "C3", Role.SUIT: "D1"})
    g.turn_to(Role.BOMBER)
    c4, d5 = g.s("C4"), g.s("D5")
    g.st.bombs |= {c4, d5}
    g.st.shields.add(d5)
    g.do(Detonate(user_id=g.u(Role.BOMBER), bomb=c4, chain=(d5,)))
    g.do(AnswerCancel(user_id=g.u(Role.SUIT), cancel=True))
    g.do(TurnTimeout(timer_seq=g.st.timer.seq))
    assert d5 not in g.st.bombs and d5 not in g.st.shields
    g = G(6, ids={Role.PSYCHO: "B5", Role.SUIT: "A3"})
    a4 = g.s("A4")
    g.st.threats.add(a4)
    g.st.shields.add(a4)
    g.turn_to(Role.UNDERCOVER)
    g.do(Shift(user_id=g.u(Role.UNDERCOVER), line="row", index=5, by=1))
    g.do(AnswerCancel(user_id=g.u(Role.SUIT), cancel=True))
    g.do(TurnTimeout(timer_seq=g.st.timer.seq))
    assert a4 in g.st.threats and a4 not in g.st.dead
    assert g.st.current == g.u(Role.PSYCHO) and g.st.timer.kind == "turn"


def test_NOIR_X14_the_suits_last_answer_counts_at_the_close():
    g = window_game("C5")
    g.do(AnswerCancel(user_id=g.u(Role.SUIT), cancel=True))
    g.do(AnswerCancel(user_id=g.u(Role.SUIT), cancel=False))
    g.refuse(AnswerCancel(user_id=g.u(Role.KILLER), cancel=True), NotAllowed)
    g.refuse(Kill(user_id=g.u(Role.UNDERCOVER), target=g.s("A1")), NotYourTurn)
    g.do(TurnTimeout(timer_seq=g.st.timer.seq))
    assert g.s("C2") in g.st.dead
