"""Online preset: ties by table size, revotes and the lift decision (docs/rules/online-sport.md,
ONLINE-24..35, Q07..Q11).  N is the number of living non-AFK players when the day's vote opened."""

from __future__ import annotations

import pytest

from engine import (
    DayWithoutElimination,
    ExcludeVoteResult,
    InvalidTarget,
    LiftCalled,
    LiftTapped,
    MarkAfk,
    MarkInactive,
    OnlinePhase,
    Phase,
    PhaseStarted,
    PlayerEliminated,
    TapLift,
    TapVote,
    TieRevote,
    TurnSkipped,
    VoteResult,
    legal_actions,
)
from engine.core.errors import AlreadyVoted, PhaseClosed
from engine.online import may_write, tie_outcome

from ..helpers import uid
from ..online_helpers import OnlineTable, online_at_day, online_game


def seats(*xs: int) -> tuple[int, ...]:
    return tuple(uid(x) for x in xs)


def tie(t: OnlineTable, groups: dict[int, tuple[int, ...]], **kw) -> None:
    """The ballot where each ``target`` gets the votes of the seats ``groups[target]``."""
    t.ballot({v: target for target, voters in groups.items() for v in voters}, **kw)


def with_afk(n: int, afk: tuple[int, ...], roles: str | None = None) -> OnlineTable:
    """A game of ``n`` at the DISCUSSION of day 1 with the seats ``afk`` AFK since night 1."""
    t = online_game(n, roles)
    for seat in afk:
        t.do(MarkInactive(player=uid(seat), reason="left"))
        t.do(MarkAfk(player=uid(seat)))
    t.to_day(1)
    assert t.state.ballot.n == n - len(afk)
    return t


# --- 10, 8 and 6: two leaders go straight to the lift decision -------------------------------
@pytest.mark.parametrize("n", [10, 8, 6])
def test_ONLINE_24_two_leaders_go_straight_to_lift(n):
    t = online_at_day(n)
    tie(t, {2: (1, 3), 6: (4, 5)})
    assert t.events(VoteResult)[-1].leaders == seats(2, 6)
    assert t.events(LiftCalled)[-1] == LiftCalled(candidates=seats(2, 6), n=n)
    assert not t.events(TieRevote)
    assert t.phase is Phase.DEFENCE and t.state.speaker == uid(2)  # ONLINE-Q11
    t.defences()
    assert t.phase is OnlinePhase.LIFT_VOTE and t.state.ballot.candidates == list(seats(2, 6))
    started = t.events(PhaseStarted)[-1]
    assert started.candidates == seats(2, 6) and started.seconds == 30
    for p in t.state.alive():
        la = legal_actions(t.state, p.user_id)
        assert la.lift_vote and la.lift_mark is None and la.ballot == ()


def test_ONLINE_25_ten_three_or_more_leaders_mean_night():
    t = online_at_day(10)
    tie(t, {2: (1, 3), 6: (4, 5), 8: (7, 9)})
    reason = t.events(DayWithoutElimination)[-1]
    assert reason.reason == "tie_at_ten" and reason.candidates == seats(2, 6, 8)
    assert t.phase is Phase.NIGHT and t.state.night == 2
    assert not t.events(TieRevote) and not t.events(LiftCalled)


def test_ONLINE_26_never_more_than_two_lifted_at_ten():
    for k in range(2, 11):
        outcome = tie_outcome(10, k, "day")
        assert outcome == ("lift" if k == 2 else "night")  # never a revote, so never 3 lifted
    t = online_at_day(10)
    tie(t, {2: (1, 3), 6: (4, 5)})
    t.defences()
    t.lift(lift=range(1, 11))
    assert [e.user_id for e in t.events(PlayerEliminated)] == list(seats(2, 6))
    assert all(e.cause == "lift" for e in t.events(PlayerEliminated))
    # the seeded playouts check it over whole games: test_online_random_playouts


# --- 9: revote among the leaders, the same tie again -> lift all -----------------------------
def test_ONLINE_27_nine_tie_goes_to_revote_among_the_leaders():
    t = online_at_day(9)
    tie(t, {1: (2, 3), 4: (5, 6)})
    assert t.events(TieRevote)[-1].candidates == seats(1, 4)
    assert not t.events(LiftCalled)
    t.defences()
    assert t.phase is OnlinePhase.REVOTE and t.state.timer.seconds == 30
    la = legal_actions(t.state, uid(7))
    assert la.ballot == seats(1, 4) and not la.ballot_pass


def test_ONLINE_28_nine_same_tie_again_faces_lift_all():
    t = online_at_day(9)
    tie(t, {1: (2, 3), 4: (5, 6), 8: (7, 9)})
    t.defences()
    tie(t, {1: (2, 3), 4: (5, 6), 8: (7, 9)})  # the same three again
    assert t.events(LiftCalled)[-1] == LiftCalled(candidates=seats(1, 4, 8), n=9)
    t.defences()
    t.lift(lift=[1, 2, 3, 4, 5], leave=[6])
    result = t.events(ExcludeVoteResult)[-1]
    assert (result.yes, result.needed, result.passed) == (5, 5, True)
    assert [e.user_id for e in t.events(PlayerEliminated)] == list(seats(1, 4, 8))
    assert t.phase is Phase.LAST_WORD and t.state.speaker == uid(1)


# --- 8: four leaders -> revote -> lift all four --------------------------------------------------
def test_ONLINE_29_eight_four_leaders_revote_then_lift_all_four():
    t = online_at_day(8)
    tie(t, {1: (1, 2), 3: (3, 4), 5: (5, 6), 7: (7, 8)})
    assert t.events(TieRevote)[-1].candidates == seats(1, 3, 5, 7)
    t.defences()
    tie(t, {1: (1, 2), 3: (3, 4), 5: (5, 6), 7: (7, 8)})
    assert t.events(LiftCalled)[-1].candidates == seats(1, 3, 5, 7)
    t.defences()
    t.lift(lift=[2, 4, 6, 8, 1])
    assert [e.user_id for e in t.events(PlayerEliminated)] == list(seats(1, 3, 5, 7))


# --- 6: three leaders -> revote -> lift all three ------------------------------------------------
def test_ONLINE_30_six_three_leaders_revote_then_lift_all_three():
    t = online_at_day(6)  # D M S T T T
    tie(t, {1: (1, 2), 4: (3, 4), 5: (5, 6)})
    assert t.events(TieRevote)[-1].candidates == seats(1, 4, 5)
    t.defences()
    tie(t, {1: (1, 2), 4: (3, 4), 5: (5, 6)})
    assert t.events(LiftCalled)[-1] == LiftCalled(candidates=seats(1, 4, 5), n=6)
    t.defences()
    t.lift(lift=[1, 2, 3, 6])  # 4 of 6
    assert [e.user_id for e in t.events(PlayerEliminated)] == list(seats(1, 4, 5))
    t.last_words()
    assert t.phase is Phase.NIGHT  # M against S and T: the game goes on


# --- other odd sizes -------------------------------------------------------------------------
@pytest.mark.parametrize("n,afk", [(7, ()), (6, (6,))])  # 7 at the table; 5 counted of 6
def test_ONLINE_31_other_odd_tie_goes_to_revote(n, afk):
    t = with_afk(n, afk) if afk else online_at_day(n)
    assert t.state.ballot.n in (7, 5)
    tie(t, {2: (1, 3), 6: (4, 5)} if afk else {2: (1, 3, 4), 6: (5, 6, 7)})
    assert t.events(TieRevote)[-1].candidates == seats(2, 6)
    assert not t.events(LiftCalled)


# --- the lift decision -------------------------------------------------------------------------
@pytest.mark.parametrize("n,lifts,passed", [(10, 6, True), (10, 5, False), (9, 5, True),
                                             (9, 4, False), (8, 5, True), (8, 4, False)])
def test_ONLINE_32_lift_needs_an_absolute_majority(n, lifts, passed):
    t = online_at_day(n)
    tie(t, {1: (2, 3), 4: (5, 6)} if n != 9 else {1: (2, 3), 4: (5, 6)})
    if n == 9:  # a revote tied the same way first
        t.defences()
        tie(t, {1: (2, 3), 4: (5, 6)})
    t.defences()
    assert t.phase is OnlinePhase.LIFT_VOTE
    t.lift(lift=range(1, lifts + 1), leave=range(lifts + 1, n + 1))
    result = t.events(ExcludeVoteResult)[-1]
    assert (result.yes, result.needed, result.passed) == (lifts, n // 2 + 1, passed)
    assert bool(t.events(PlayerEliminated)) is passed


def test_ONLINE_33_below_the_threshold_the_candidates_stay_and_night_falls():
    t = online_at_day(8)
    tie(t, {1: (2, 3), 4: (5, 6)})
    t.defences()
    t.lift(lift=[1, 2, 3, 4], leave=[5])
    assert t.events(DayWithoutElimination)[-1].reason == "lift_failed"
    assert t.events(DayWithoutElimination)[-1].candidates == seats(1, 4)
    assert t.phase is Phase.NIGHT and not t.events(PlayerEliminated)


def test_ONLINE_34_a_revote_offers_only_the_leaders_and_no_pass():
    t = online_at_day(9)
    tie(t, {1: (2, 3), 4: (5, 6)})
    t.refuse(TapVote(user_id=uid(7), target=uid(1)), PhaseClosed)  # the defences first
    t.defences()
    t.refuse(TapVote(user_id=uid(7), target=None), InvalidTarget)  # a forged PASS
    t.refuse(TapVote(user_id=uid(7), target=uid(5)), InvalidTarget)
    t.tap(7, 4)
    assert t.last[0].stage == "revote" and not t.last[0].final


# --- accepted decisions --------------------------------------------------------------------------
@pytest.mark.parametrize("n,groups", [
    (8, {1: (2, 3), 4: (5, 6), 7: (7, 8)}),       # 8 with three leaders
    (6, {1: (1,), 2: (2,), 3: (3,), 4: (4,)}),     # 6 with four
])
def test_ONLINE_Q07_uncovered_shapes_fall_back_to_a_revote(n, groups):
    t = online_at_day(n)
    tie(t, groups)
    assert t.events(TieRevote)[-1].candidates == tuple(uid(c) for c in groups)


def test_ONLINE_Q07_an_even_size_not_in_the_table_revotes():
    t = with_afk(6, (5, 6))  # N = 4
    tie(t, {1: (2,), 4: (3,)})
    assert t.events(TieRevote)[-1].candidates == seats(1, 4)
    assert tie_outcome(4, 2, "day") == "revote" and tie_outcome(2, 2, "day") == "revote"


def test_ONLINE_Q08_a_smaller_tie_revotes_again_and_a_single_leader_leaves():
    t = online_at_day(9)
    tie(t, {1: (2, 3), 4: (5, 6), 8: (7, 9)})
    t.defences()
    tie(t, {1: (2, 3), 4: (5, 6), 8: (7,)})  # 1 and 4 tie: a smaller set
    assert t.events(TieRevote)[-1].candidates == seats(1, 4) and not t.events(LiftCalled)
    t.defences()
    assert [e.speaker for e in t.events(PhaseStarted)[-3:-1]] == list(seats(1, 4))
    tie(t, {1: (2, 3, 9), 4: (5, 6)})  # a single leader
    assert t.events(PlayerEliminated)[-1].user_id == uid(1)
    assert t.events(PlayerEliminated)[-1].cause == "vote"


def test_ONLINE_Q08_n_is_fixed_when_the_day_vote_opens():
    t = online_at_day(10)
    t.do(MarkInactive(player=uid(10), reason="left"))
    t.do(MarkAfk(player=uid(10)))  # 9 counted now, but the day opened with 10
    tie(t, {2: (1, 3), 6: (4, 5)})
    assert t.events(LiftCalled)[-1].n == 10  # the 10-row, not a 9-revote
    nine = with_afk(10, (10,))
    tie(nine, {2: (1, 3), 6: (4, 5)})
    assert nine.events(TieRevote) and not nine.events(LiftCalled)


def test_ONLINE_Q09_lift_taps_are_preliminary_then_final_and_silence_is_not_lift():
    t = online_at_day(10)
    tie(t, {2: (1, 3), 6: (4, 5)})
    t.defences()
    t.do(TapLift(user_id=uid(2), lift=True))  # a candidate votes too
    tap = t.last[0]
    assert isinstance(tap, LiftTapped) and not tap.final and tap.votes == ((uid(2), True, False),)
    assert legal_actions(t.state, uid(2)).lift_mark is True
    t.do(TapLift(user_id=uid(2), lift=False))  # switches, final
    assert t.last[0].final and t.state.ballot.taps[uid(2)] == (False, True)
    t.refuse(TapLift(user_id=uid(2), lift=True), AlreadyVoted)
    assert not legal_actions(t.state, uid(2)).lift_vote
    t.lift(lift=[1, 3, 4, 5, 7], final=False)  # five preliminary Lifts, the rest silent
    result = t.events(ExcludeVoteResult)[-1]
    assert (result.yes, result.needed, result.passed) == (5, 6, False)


def test_ONLINE_Q09_n_of_the_threshold_is_counted_when_the_lift_vote_opens():
    t = online_at_day(10)
    tie(t, {2: (1, 3), 6: (4, 5)})
    t.do(MarkInactive(player=uid(9), reason="left"))
    t.do(MarkAfk(player=uid(9)))
    t.do(MarkInactive(player=uid(10), reason="left"))
    t.do(MarkAfk(player=uid(10)))
    t.defences()
    assert t.state.ballot.base == 8
    t.lift(lift=[1, 3, 4, 5, 7])  # 5 of 8 counted: ⌊8/2⌋+1 = 5
    assert t.events(ExcludeVoteResult)[-1].passed


def test_ONLINE_Q09_the_lift_vote_closes_once_every_counted_player_is_final():
    t = online_at_day(6)
    tie(t, {2: (1, 3), 6: (4, 5)})
    t.defences()
    t.lift(lift=[1, 2, 3, 4, 5], close=False)
    assert t.phase is OnlinePhase.LIFT_VOTE
    t.lift(leave=[6], close=False)
    assert t.events(ExcludeVoteResult)[-1].passed and t.phase is Phase.LAST_WORD


def test_ONLINE_Q10_silent_revote_voters_cast_no_vote():
    t = online_at_day(9)
    tie(t, {1: (2, 3), 4: (5, 6)})
    t.defences()
    tie(t, {1: (1, 2), 4: (4,)})  # candidates vote for themselves; 3, 5..9 stay silent
    result = t.events(VoteResult)[-1]
    assert result.tally == ((uid(1), seats(1, 2)), (uid(4), seats(4)))
    assert t.events(PlayerEliminated)[-1].user_id == uid(1)


def test_ONLINE_X10_a_revote_nobody_votes_in_goes_to_the_lift_decision():
    t = online_at_day(9)
    tie(t, {1: (2, 3), 4: (5, 6)})
    t.defences()
    t.timeout()
    assert t.events(VoteResult)[-1].leaders == seats(1, 4)
    assert t.events(LiftCalled)[-1].candidates == seats(1, 4)


def test_ONLINE_Q11_defences_in_seat_order_before_a_revote_and_a_lift():
    t = online_at_day(9)
    tie(t, {7: (2, 3), 4: (5, 6)})  # 7 got his votes first; the defences go by seat
    speakers = []
    while t.phase is Phase.DEFENCE:
        started = t.events(PhaseStarted)[-1]
        assert started.seconds == 30 and started.candidates == seats(4, 7)
        speakers.append(t.state.speaker)
        t.end_turn()
    assert speakers == list(seats(4, 7)) and t.phase is OnlinePhase.REVOTE
    # before a lift, an OFFLINE candidate's defence is skipped
    t = online_at_day(10)
    tie(t, {2: (1, 3), 6: (4, 5)})
    t.do(MarkInactive(player=uid(6), reason="blocked"))
    t.end_turn()
    assert t.events(TurnSkipped)[-1].user_id == uid(6) and t.phase is OnlinePhase.LIFT_VOTE


def test_ONLINE_35_only_the_speaking_candidate_may_write():
    t = online_at_day(9)
    assert all(may_write(t.state, uid(s)) for s in range(1, 10))  # the discussion
    tie(t, {1: (2, 3), 4: (5, 6)})
    assert may_write(t.state, uid(1)) and not may_write(t.state, uid(4))
    assert not may_write(t.state, uid(5))
    t.end_turn()
    assert may_write(t.state, uid(4)) and not may_write(t.state, uid(1))
    t.end_turn()
    assert not any(may_write(t.state, uid(s)) for s in range(1, 10))  # the revote itself


def test_ONLINE_X13_results_use_the_shared_events():
    t = online_at_day(10)
    tie(t, {2: (1, 3), 6: (4, 5)})
    assert t.events(VoteResult)[-1] == VoteResult(
        tally=((uid(2), seats(1, 3)), (uid(6), seats(4, 5))), leaders=seats(2, 6))
    t.defences()
    t.lift(lift=range(1, 7))
    assert t.events(ExcludeVoteResult)[-1] == ExcludeVoteResult(
        candidates=seats(2, 6), yes=6, needed=6, passed=True)
    assert [(e.user_id, e.cause) for e in t.events(PlayerEliminated)] == [
        (uid(2), "lift"), (uid(6), "lift")]
    t.last_words()
    assert [e.speaker for e in t.events(PhaseStarted) if e.phase == "last_word"] == list(
        seats(2, 6))  # last words in seat order, then night
    assert t.phase is Phase.NIGHT
