"""NOIR grid rules: NOIR-06, 18, 37..39, Q04, Q05, Q13, Q23, X06, X20."""

from __future__ import annotations

from engine.noir import Collapse, Collapsed, Role, Shift, Shifted
from engine.noir.errors import InvalidTarget, UndoForbidden, WrongPhase
from engine.noir.grid import straight

from .helpers import G


def test_NOIR_06_adjacent_means_eight_cells():
    g = G(6, ids={Role.KILLER: "B2"})
    assert g.cells(g.legal(Role.KILLER).kill) == {"A1", "B1", "C1", "A2", "C2", "A3", "B3", "C3"}


def test_NOIR_Q04_no_wrap_at_the_edges():
    g = G(6, ids={Role.KILLER: "A1"})
    assert g.cells(g.legal(Role.KILLER).kill) == {"B1", "A2", "B2"}
    g = G(6, ids={Role.KILLER: "F6", Role.DETECTIVE: "C1"})
    assert g.cells(g.legal(Role.KILLER).kill) == {"E5", "F5", "E6"}


def test_NOIR_18_reach_of_a_shift():
    g = G(6)
    assert {by for _, _, by in g.legal(Role.KILLER).shifts} == {-2, -1, 1, 2}
    for role in (Role.UNDERCOVER, Role.PSYCHO, Role.DETECTIVE, Role.BOMBER):
        g.turn_to(role)
        assert {by for _, _, by in g.legal(role).shifts} == {-1, 1}
    for role in (Role.SUIT,):
        g.turn_to(role)
        assert {by for _, _, by in g.legal(role).shifts} == {-2, -1, 1, 2}
    g8 = G(8)
    g8.turn_to(Role.SNIPER)
    assert {by for _, _, by in g8.legal(Role.SNIPER).shifts} == {-2, -1, 1, 2}
    g.turn_to(Role.DETECTIVE)
    g.refuse(Shift(user_id=g.u(Role.DETECTIVE), line="row", index=0, by=2), InvalidTarget)


def test_NOIR_37_shift_wraps_around():
    g = G(6)
    f2, a2 = g.s("F2"), g.s("A2")
    g.do(Shift(user_id=g.u(Role.KILLER), line="row", index=1, by=1))
    assert g.s("A2") == f2 and g.s("B2") == a2
    assert g.of(Shifted)[0].line == "row"
    c1, c6 = g.s("C1"), g.s("C6")
    g.do(Shift(user_id=g.u(Role.UNDERCOVER), line="column", index=2, by=-1))
    assert g.s("C6") == c1 and g.s("C5") == c6


def test_NOIR_38_no_immediate_undo():
    g = G(6)
    g.do(Shift(user_id=g.u(Role.KILLER), line="row", index=1, by=1))
    u = g.u(Role.UNDERCOVER)
    g.refuse(Shift(user_id=u, line="row", index=1, by=-1), UndoForbidden)
    assert ("row", 1, -1) not in g.legal(Role.UNDERCOVER).shifts
    assert ("row", 1, 1) in g.legal(Role.UNDERCOVER).shifts
    g.do(Shift(user_id=u, line="column", index=2, by=-1))
    g.turn_to(Role.PSYCHO)  # the previous turn's shift is column C up
    assert ("row", 1, -1) in g.legal(Role.PSYCHO).shifts


def test_NOIR_Q23_undo_covers_any_distance_after_a_shift_only():
    g = G(6)
    g.do(Shift(user_id=g.u(Role.KILLER), line="column", index=3, by=1))
    g.turn_to(Role.SUIT)
    g.st.prev_shift = ("column", 3, 1)
    g.refuse(Shift(user_id=g.u(Role.SUIT), line="column", index=3, by=-2), UndoForbidden)
    g.st.prev_shift = None  # the previous player did something else
    assert ("column", 3, -2) in g.legal(Role.SUIT).shifts


def test_NOIR_X06_shift_by_two_needs_a_line_longer_than_two():
    g = G(6)
    g.st.grid = [row[:2] for row in g.st.grid]  # 6 rows of 2
    g.st.players[g.u(Role.KILLER)].identity = g.st.grid[0][0]
    opts = g.legal(Role.KILLER).shifts
    assert ("row", 0, 2) not in opts and ("row", 0, 1) in opts and ("column", 0, 2) in opts
    g.refuse(Shift(user_id=g.u(Role.KILLER), line="row", index=0, by=-2), InvalidTarget)


def kill_one_per_column(g, row_name: str):
    for col in "ABCDEF":
        g.st.dead.add(g.s(f"{col}{row_name}"))


def test_NOIR_39_collapse_when_every_column_has_a_dead():
    g = G(6)
    assert not g.legal(Role.KILLER).collapse
    kill_one_per_column(g, "2")
    assert ("columns", "first") in g.legal(Role.KILLER).collapse
    assert ("rows", "first") not in g.legal(Role.KILLER).collapse
    g.do(Collapse(user_id=g.u(Role.KILLER), axis="columns", end="first"))
    assert (g.st.rows, g.st.cols) == (5, 6)
    assert g.of(Collapsed)[0].removed == tuple(range(6, 12))


def test_NOIR_Q13_collapse_picks_the_end_per_line():
    g = G(6)
    kill_one_per_column(g, "2")
    g.st.dead.add(g.s("B5"))
    c_b5 = g.s("B5")
    b2 = g.s("B2")
    g.do(Collapse(user_id=g.u(Role.KILLER), axis="columns", end="last"))
    assert c_b5 in g.st.removed and b2 not in g.st.removed and g.s("B2") == b2
    assert g.s("B5") == 5 * 6 + 1  # B6 moved up into B5
    g2 = G(6)
    for r in range(1, 7):
        g2.st.dead.add(g2.s(f"E{r}"))
    g2.do(Collapse(user_id=g2.u(Role.KILLER), axis="rows", end="first"))
    assert (g2.st.rows, g2.st.cols) == (6, 5)


def test_NOIR_X20_collapse_keeps_a_line_and_is_the_psychos_middle_step():
    g = G(6)
    g.st.grid = [g.st.grid[0]]
    for s in g.st.grid[0]:
        g.st.dead.add(s)
    assert ("columns", "first") not in g.legal(Role.KILLER).collapse
    g = G(6)
    kill_one_per_column(g, "2")
    g.turn_to(Role.PSYCHO)
    g.do(Collapse(user_id=g.u(Role.PSYCHO), axis="columns", end="first"))
    assert g.st.step == "threats" and g.st.current == g.u(Role.PSYCHO)
    g.refuse(Collapse(user_id=g.u(Role.PSYCHO), axis="columns", end="first"), WrongPhase)


def test_NOIR_Q05_straight_means_orthogonal_up_to_three():
    g = G(6)
    cells = g.cells(straight(g.st, g.s("A1"), 3))
    assert cells == {"B1", "C1", "D1", "A2", "A3", "A4"}
