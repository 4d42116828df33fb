"""Thresholds and the end: NOIR-10, 11, 42, Q19, Q22, Q28, X16."""

from __future__ import annotations

from engine.core.audience import Public
from engine.noir import (
    Accuse,
    AnswerCancel,
    Detonate,
    GameEnded,
    GameStarted,
    Kill,
    PlaceBomb,
    Role,
    Shift,
    SuspectKilled,
    private_card,
    public_board,
)
from engine.noir.errors import GameOver

from .helpers import G


def test_NOIR_10_agents_win_at_four_arrests_five_with_eight():
    g = G(6, ids={Role.UNDERCOVER: "B2", Role.BOMBER: "C3"})
    g.st.arrests = 3
    g.turn_to(Role.UNDERCOVER)
    g.do(Accuse(user_id=g.u(Role.UNDERCOVER), target=g.s("C3")))
    end = g.of(GameEnded)
    assert end and end[0].outcome == "agents" and g.st.phase == "ended"
    g.refuse(Shift(user_id=g.u(Role.PSYCHO), line="row", index=0, by=1), GameOver)
    g8 = G(8, ids={Role.UNDERCOVER: "B2", Role.BOMBER: "C3"})
    g8.st.arrests = 3
    g8.turn_to(Role.UNDERCOVER)
    g8.do(Accuse(user_id=g8.u(Role.UNDERCOVER), target=g8.s("C3")))
    assert not g8.of(GameEnded) and g8.st.arrests == 4


def test_NOIR_11_mafia_wins_at_eighteen_points_twenty_five_with_eight():
    g = G(6, ids={Role.KILLER: "B2"})
    g.st.points = 17
    g.do(Kill(user_id=g.u(Role.KILLER), target=g.s("B3")))
    assert g.of(GameEnded)[0].outcome == "mafia"
    g8 = G(8, ids={Role.KILLER: "B2"})
    g8.st.points = 23
    g8.do(Kill(user_id=g8.u(Role.KILLER), target=g8.s("B3")))
    assert not g8.of(GameEnded) and g8.st.points == 24


def test_NOIR_Q19_both_thresholds_at_once_is_a_draw():
    g = G(6, ids={Role.BOMBER: "C3", Role.KILLER: "D5"})
    g.st.arrests, g.st.points = 3, 17
    g.turn_to(Role.BOMBER)
    c4 = g.s("C4")
    g.st.bombs.add(c4)
    g.do(Detonate(user_id=g.u(Role.BOMBER), bomb=c4, chain=(g.s("D5"),)))
    end = g.of(GameEnded)
    assert len(end) == 1 and end[0].outcome == "draw" and g.st.outcome == "draw"


def test_NOIR_X16_the_end_waits_for_the_whole_action():
    g = G(6, ids={Role.BOMBER: "C3"})
    g.st.points = 17
    g.turn_to(Role.BOMBER)
    c4, d5, e6 = g.s("C4"), g.s("D5"), g.s("E6")
    g.st.bombs |= {c4, d5}
    g.do(Detonate(user_id=g.u(Role.BOMBER), bomb=c4, chain=(d5, e6)))
    assert {c4, d5, e6} <= g.st.dead and g.st.points == 20
    assert len(g.of(GameEnded)) == 1 and g.st.timer is None


def test_NOIR_Q28_scores_and_thresholds_are_public():
    g = G(6, ids={Role.KILLER: "B2"})
    started = G(8).of(GameStarted)[0]
    assert (started.arrests_needed, started.points_needed) == (5, 25)
    g.do(Kill(user_id=g.u(Role.KILLER), target=g.s("B3")))
    killed = g.of(SuspectKilled)[0]
    assert isinstance(killed.audience, Public) and killed.points == 1


def test_NOIR_42_every_action_is_public_and_outlined():
    g = G(6)
    g.turn_to(Role.BOMBER)
    events = g.do(PlaceBomb(user_id=g.u(Role.BOMBER), target=g.s("C3")))
    assert isinstance(events[0].audience, Public) and events[0].target == g.s("C3")
    assert g.st.last_action == ("bomb", g.s("C3"))
    assert g.st.current == g.u(Role.SUIT)


def test_NOIR_Q22_pickers_get_exact_suspect_sets():
    g = G(8, ids={Role.KILLER: "E5"})
    la = g.legal(Role.KILLER)
    assert len(la.kill) == 8 and len(set(la.kill)) == 8
    assert len(la.shifts) == 7 * 4 * 2 and la.change_identity
    assert g.legal(Role.SUIT).step == ""  # not his turn: nothing


def test_NOIR_X25_the_public_board_depends_on_no_identity():
    a = G(6, ids={Role.KILLER: "B2"})
    b = G(6, ids={Role.KILLER: "E2", Role.PSYCHO: "B6", Role.SUIT: "A4"})
    assert public_board(a.st) == public_board(b.st)
    a.do(Shift(user_id=a.u(Role.KILLER), line="row", index=2, by=1))
    b.do(Shift(user_id=b.u(Role.KILLER), line="row", index=2, by=1))
    assert public_board(a.st) == public_board(b.st)
    board = public_board(a.st)
    assert board.current == a.u(Role.UNDERCOVER) and board.timer[0] == "turn"
    assert (board.arrests_needed, board.points_needed) == (4, 18)


def test_NOIR_X25_a_private_card_rebuilds_each_players_secrets():
    g = G(8, ids={Role.KILLER: "B2", Role.SUIT: "C5"})
    g.st.shields.add(g.s("C2"))
    g.do(Kill(user_id=g.u(Role.KILLER), target=g.s("C2")))
    suit = private_card(g.st, g.u(Role.SUIT))
    assert suit.cancel == g.s("C2") and suit.suspect == g.ident(Role.SUIT)
    assert {r for _, r, _ in suit.teammates} == {"undercover", "detective", "profiler"}
    assert private_card(g.st, g.u(Role.PROFILER)).hand == tuple(g.st.hand)
    assert private_card(g.st, g.u(Role.KILLER)).cancel is None
    g.do(AnswerCancel(user_id=g.u(Role.SUIT), cancel=False))
    assert public_board(g.st).window == (g.s("C2"), "kill")


def _accepted(st, make, options) -> set:
    from engine.noir import IllegalCommand, apply
    out = set()
    for o in options:
        try:
            apply(st, make(o))
        except IllegalCommand:
            continue
        out.add(o)
    return out


def test_NOIR_Q22_legal_actions_match_what_apply_accepts():
    from engine.noir import (
        Autopsy,
        Collapse,
        Interrogate,
        Profile,
        Protect,
        Shoot,
        Unprotect,
        legal_actions,
    )

    from .playout import play
    checked = 0
    for seed in (1, 2, 3, 4):
        po = play(seed, 6 if seed % 2 else 8)
        for _, _, st, _ in po.steps[8::6]:
            if st.phase != "play" or st.step != "act" or st.paused:
                continue
            u = st.current
            la = legal_actions(st, u)
            every = [x for row in st.grid for x in row]
            for name, make in (
                ("kill", lambda x, u=u: Kill(user_id=u, target=x)),
                ("shoot", lambda x, u=u: Shoot(user_id=u, target=x)),
                ("place_bomb", lambda x, u=u: PlaceBomb(user_id=u, target=x)),
                ("accuse", lambda x, u=u: Accuse(user_id=u, target=x)),
                ("autopsy", lambda x, u=u: Autopsy(user_id=u, target=x)),
                ("protect", lambda x, u=u: Protect(user_id=u, target=x)),
                ("unprotect", lambda x, u=u: Unprotect(user_id=u, target=x)),
                ("profile", lambda x, u=u: Profile(user_id=u, card=x)),
                ("interrogate", lambda x, u=u: Interrogate(user_id=u, keep=x)),
            ):
                assert _accepted(st, make, every) == set(getattr(la, name)), name
            lines = [(ln, i, by) for ln in ("row", "column") for i in range(7)
                     for by in (-2, -1, 1, 2)]
            shift = _accepted(st, lambda o, u=u: Shift(user_id=u, line=o[0], index=o[1], by=o[2]),
                              lines)
            assert shift == set(la.shifts)
            ends = [(a, e) for a in ("columns", "rows") for e in ("first", "last")]
            assert _accepted(st, lambda o, u=u: Collapse(user_id=u, axis=o[0], end=o[1]),
                             ends) == set(la.collapse)
            checked += 1
    assert checked >= 10
