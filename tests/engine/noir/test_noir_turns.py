"""Turns, time and presence: NOIR-07, 09, Q03, Q21, X10, X17..X19."""

from __future__ import annotations

from engine.noir import (
    COMMAND_TYPES,
    GameCancelled,
    Kill,
    Pause,
    PlaceThreats,
    PlayerReturned,
    Protect,
    Resume,
    ReturnToGame,
    Role,
    Shift,
    TimerArmed,
    TurnStarted,
    TurnTimedOut,
    TurnTimeout,
)
from engine.noir.errors import GamePaused, NotPaused, NotYourTurn, PauseLimit

from .helpers import G


def test_NOIR_07_turns_alternate_and_cycle():
    g = G(6)
    seen = []
    for _ in range(7):
        seen.append(g.st.players[g.st.current].role)
        g.do(Shift(user_id=g.st.current, line="column", index=len(seen) % 6, by=1))
        if g.st.step == "threats":
            g.do(PlaceThreats(user_id=g.st.current, targets=(g.legal(Role.PSYCHO).threats[0],)))
    assert [r.team.value for r in seen] == ["mafia", "agents"] * 3 + ["mafia"]
    assert seen[6] == Role.KILLER


def test_NOIR_09_one_action_a_turn():
    g = G(6)
    g.turn_to(Role.DETECTIVE)
    u = g.u(Role.DETECTIVE)
    g.do(Shift(user_id=u, line="row", index=2, by=1))
    assert g.st.current == g.u(Role.BOMBER)
    g.refuse(Shift(user_id=u, line="row", index=3, by=1), NotYourTurn)


def test_NOIR_Q03_psycho_and_suit_turns_have_two_parts():
    g = G(6)
    g.turn_to(Role.SUIT)
    g.do(Protect(user_id=g.u(Role.SUIT), target=g.s("A3")))
    assert g.st.current == g.u(Role.SUIT)
    g.do(Shift(user_id=g.u(Role.SUIT), line="row", index=2, by=1))
    assert g.st.current == g.u(Role.KILLER)
    g.turn_to(Role.PSYCHO)
    g.do(Shift(user_id=g.u(Role.PSYCHO), line="row", index=3, by=1))
    assert g.st.current == g.u(Role.PSYCHO) and g.st.step == "threats"


def act(g, index: int = 0):
    """The current player shifts (the Psycho also places one threat)."""
    g.do(Shift(user_id=g.st.current, line="column", index=index, by=1))
    if g.st.step == "threats":
        g.do(PlaceThreats(user_id=g.st.current, targets=(g.legal(Role.PSYCHO).threats[0],)))


def test_NOIR_Q21_timeout_passes_two_in_a_row_auto_pass():
    g = G(6, settings={"timings": {"turn": 90}})
    assert g.st.timer.seconds == 90
    g.do(TurnTimeout(timer_seq=g.st.timer.seq))
    assert g.st.current == g.u(Role.UNDERCOVER) and g.p(Role.KILLER).misses == 1
    for i in range(5):
        act(g, i)
    g.do(TurnTimeout(timer_seq=g.st.timer.seq))  # his second timeout in a row
    assert g.p(Role.KILLER).auto_pass
    for i in range(4):
        act(g, i)
    events = g.do(Shift(user_id=g.u(Role.SUIT), line="row", index=1, by=1))
    auto = [e for e in events if isinstance(e, TurnTimedOut) and e.auto]
    assert auto and auto[0].player == g.u(Role.KILLER)  # passed without a wait
    assert g.st.current == g.u(Role.UNDERCOVER)


def test_NOIR_Q21_a_timed_out_psycho_still_threatens():
    g = G(6, ids={Role.PSYCHO: "C3", Role.BOMBER: "E5"})
    g.turn_to(Role.PSYCHO)
    g.do(Shift(user_id=g.u(Role.PSYCHO), line="row", index=5, by=1))
    g.do(TurnTimeout(timer_seq=g.st.timer.seq))
    assert len(g.st.threats) == 1 and g.st.current == g.u(Role.DETECTIVE)


def test_NOIR_X18_return_or_any_action_ends_auto_pass_all_away_abandons():
    g = G(6)
    g.p(Role.KILLER).auto_pass = True
    g.p(Role.KILLER).misses = 2
    g.do(ReturnToGame(user_id=g.u(Role.KILLER)))
    assert not g.p(Role.KILLER).auto_pass and g.of(PlayerReturned)
    g = G(6)
    for p in g.st.players.values():
        p.auto_pass = True
    g.do(Shift(user_id=g.u(Role.KILLER), line="row", index=0, by=1))
    assert not g.p(Role.KILLER).auto_pass  # he acted: the others pass, his turn waits
    assert g.st.current == g.u(Role.KILLER) and g.st.timer.kind == "turn"
    assert len(g.of(TurnTimedOut)) == 5
    g.do(TurnTimeout(timer_seq=g.st.timer.seq))
    g.do(TurnTimeout(timer_seq=g.st.timer.seq))  # his second in a row: nobody is left
    assert g.st.phase == "cancelled" and g.of(GameCancelled)[0].reason == "abandoned"
    assert g.st.timer is None


def test_NOIR_X19_a_stale_timeout_changes_nothing():
    g = G(6)
    seq = g.st.timer.seq
    g.do(Shift(user_id=g.u(Role.KILLER), line="row", index=0, by=1))
    before = g.st
    g.do(TurnTimeout(timer_seq=seq))
    assert g.events == [] and g.st.current == before.current and g.st.timer == before.timer


def test_NOIR_X17_pause_freezes_the_timer_and_resumes():
    g = G(6)
    u = g.u(Role.UNDERCOVER)
    g.do(Pause(user_id=u, remaining=47))
    assert g.st.paused == ("turn", 47) and g.st.timer.kind == "pause"
    g.refuse(Kill(user_id=g.u(Role.KILLER), target=g.s("B2")), GamePaused)
    g.do(Resume(user_id=g.u(Role.KILLER)))
    assert g.st.timer.kind == "turn" and g.st.timer.seconds == 47
    g.refuse(Resume(user_id=u), NotPaused)
    for _ in range(2):
        g.do(Pause(user_id=u))
        g.do(Resume(user_id=u))
    g.refuse(Pause(user_id=u), PauseLimit)
    g.do(Pause(user_id=g.u(Role.KILLER)))
    g.do(TurnTimeout(timer_seq=g.st.timer.seq))  # the pause's cap: it resumes by itself
    assert g.st.paused is None and g.st.timer.kind == "turn"


def test_NOIR_X10_no_voluntary_pass():
    assert "Pass" not in COMMAND_TYPES and "EndTurn" not in COMMAND_TYPES
    g = G(6)
    assert any(isinstance(e, TimerArmed) and e.kind == "turn" for e in g.events)
    assert g.of(TurnStarted)
