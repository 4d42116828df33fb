"""Online preset: the day's open vote with preliminary and final taps and PASS
(docs/rules/online-sport.md, ONLINE-03, 04, 16..23, Q02..Q06)."""

from __future__ import annotations

from engine import (
    PUBLIC,
    AlreadyVoted,
    DayWithoutElimination,
    LiftTapped,
    NotInGame,
    OnlinePhase,
    Phase,
    PlayerDead,
    PlayerEliminated,
    TapVote,
    TargetNotAlive,
    VoteResult,
    VoteTapped,
    legal_actions,
)

from ..helpers import SPECTATOR, uid
from ..online_helpers import PASS, online_at_day


def test_ONLINE_16_first_tap_is_preliminary():
    t = online_at_day(10)
    t.tap(3, 7)
    tap = t.last[0]
    assert isinstance(tap, VoteTapped) and tap.stage == "day" and not tap.final
    assert (tap.voter, tap.target) == (uid(3), uid(7))
    assert tap.votes == ((uid(3), uid(7), False),)
    la = legal_actions(t.state, uid(3))
    assert la.ballot_marked and la.ballot_mark == uid(7) and la.ballot  # he may still tap
    assert t.phase is OnlinePhase.DISCUSSION


def test_ONLINE_17_second_tap_confirms_or_switches():
    t = online_at_day(10)
    t.tap(3, 7)
    t.tap(3, 7)  # confirms
    assert t.last[0].final and t.last[0].target == uid(7)
    t.tap(4, 7)
    t.tap(4, 8)  # switches, and the switch is final
    assert t.last[0].final and t.last[0].target == uid(8)
    assert t.state.ballot.taps[uid(4)] == (uid(8), True)
    t.tap(5, PASS)
    t.tap(5, 2)  # from PASS to a player
    assert t.state.ballot.taps[uid(5)] == (uid(2), True)
    assert t.last[0].votes == ((uid(3), uid(7), True), (uid(4), uid(8), True),
                               (uid(5), uid(2), True))


def test_ONLINE_18_a_final_vote_cannot_change():
    t = online_at_day(10)
    t.tap(3, 7)
    t.tap(3, 7)
    t.refuse(TapVote(user_id=uid(3), target=uid(2)), AlreadyVoted)
    t.refuse(TapVote(user_id=uid(3), target=None), AlreadyVoted)
    la = legal_actions(t.state, uid(3))
    assert la.ballot == () and not la.ballot_pass  # no buttons any more


def test_ONLINE_19_pass_never_makes_a_leader():
    t = online_at_day(10)
    t.ballot({1: PASS, 2: PASS, 3: PASS, 4: PASS, 5: PASS, 6: 2, 7: 2, 8: 2, 9: 6, 10: 6})
    result = t.events(VoteResult)[-1]
    assert result.tally == ((uid(2), (uid(6), uid(7), uid(8))), (uid(6), (uid(9), uid(10))))
    assert result.leaders == (uid(2),)
    assert t.events(PlayerEliminated)[-1].user_id == uid(2)


def test_ONLINE_X02_nobody_voted_for_a_player_means_night():
    t = online_at_day(10)
    t.ballot({1: PASS, 2: PASS})  # the rest never tap: PASS too (Q03)
    assert t.events(VoteResult)[-1] == VoteResult(tally=(), leaders=())
    assert t.events(DayWithoutElimination)[-1].reason == "all_pass"
    assert t.phase is Phase.NIGHT and t.state.night == 2


def test_ONLINE_20_preliminary_results_are_public():
    t = online_at_day(10)
    t.tap(3, 7)
    t.tap(4, 7)
    t.tap(4, 7)
    taps = t.events(VoteTapped)
    assert all(e.audience == PUBLIC for e in taps)
    assert taps[-1].votes == ((uid(3), uid(7), False), (uid(4), uid(7), True))


def test_ONLINE_21_vote_log_records_every_stage():
    t = online_at_day(9, roles="DMMSTTTTT")
    t.tap(3, 7)  # preliminary
    t.tap(3, 8)  # final, switched
    t.ballot({1: 7, 2: 7, 4: 8, 5: PASS})  # 7 vs 8: 2-2 at 9 -> revote
    t.defences()
    assert t.phase is OnlinePhase.REVOTE
    t.ballot({1: 7, 3: 8})  # 1-1 again -> lift
    t.defences()
    t.lift(lift=[1, 2], leave=[3])
    log = [(e.stage, e.voter, e.target, e.final) for e in t.events(VoteTapped)]
    assert log[:2] == [("day", uid(3), uid(7), False), ("day", uid(3), uid(8), True)]
    assert ("revote", uid(1), uid(7), True) in log and ("revote", uid(3), uid(8), True) in log
    lifts = [(e.voter, e.lift, e.final) for e in t.events(LiftTapped)]
    assert lifts[-1] == (uid(3), False, True) and (uid(1), True, True) in lifts


def test_ONLINE_22_sole_leader_leaves_with_a_last_word():
    t = online_at_day(10)
    t.ballot({1: 2, 3: 2, 4: 2, 5: 2, 6: 6, 7: 6, 8: 6})
    assert t.events(VoteResult)[-1].leaders == (uid(2),)
    out = t.events(PlayerEliminated)[-1]
    assert (out.user_id, out.cause) == (uid(2), "vote")
    assert t.phase is Phase.LAST_WORD and t.state.speaker == uid(2)


def test_ONLINE_04_the_voted_out_player_speaks_then_night_falls():
    t = online_at_day(10)
    t.leave_by_vote(7)
    assert t.phase is Phase.NIGHT and t.state.night == 2
    assert not t.state.players[uid(7)].alive


def test_ONLINE_23_day_1_single_vote_does_not_eliminate():
    t = online_at_day(10)
    t.ballot({5: 8, **{s: PASS for s in (1, 2, 3, 4, 6, 7, 8, 9, 10)}})
    assert t.events(DayWithoutElimination)[-1].reason == "day1_single_vote"
    assert t.events(DayWithoutElimination)[-1].candidates == (uid(8),)
    assert t.state.players[uid(8)].alive and t.phase is Phase.NIGHT


def test_ONLINE_23_the_same_on_day_2_eliminates():
    t = online_at_day(10)
    t.ballot({})  # nobody votes on day 1
    t.onight(kill=10, don_check=4, check=1)
    t.best_move()  # skipped
    t.last_words()
    assert t.phase is OnlinePhase.DISCUSSION and t.state.day == 2
    t.ballot({5: 8})  # one vote, everybody else silent = PASS
    assert t.events(PlayerEliminated)[-1].user_id == uid(8)


def test_ONLINE_Q06_two_votes_for_one_player_on_day_1_eliminate():
    t = online_at_day(10)
    t.ballot({5: 8, 6: 8})
    assert t.events(PlayerEliminated)[-1].user_id == uid(8)


def test_ONLINE_Q02_vote_closes_when_every_counted_player_is_final():
    t = online_at_day(6)
    for seat in range(1, 6):
        t.tap(seat, 4)
        t.tap(seat, 4)
        assert t.phase is OnlinePhase.DISCUSSION
    t.tap(6, PASS)  # preliminary: still open
    assert t.phase is OnlinePhase.DISCUSSION
    t.tap(6, PASS)
    assert t.phase is Phase.LAST_WORD and t.events(VoteResult)[-1].leaders == (uid(4),)


def test_ONLINE_Q02_otherwise_it_closes_at_the_timer():
    t = online_at_day(6)
    t.ballot({s: 4 for s in range(1, 6)}, close=False)
    assert t.phase is OnlinePhase.DISCUSSION and t.state.timer.kind == "discussion"
    t.timeout()
    assert t.events(PlayerEliminated)[-1].user_id == uid(4)


def test_ONLINE_Q03_unconfirmed_preliminary_counts_and_silence_is_pass():
    t = online_at_day(10)
    t.ballot({1: 5, 2: 5, 3: 6}, final=False)  # preliminary only, then the timer
    result = t.events(VoteResult)[-1]
    assert result.tally == ((uid(5), (uid(1), uid(2))), (uid(6), (uid(3),)))
    assert t.events(PlayerEliminated)[-1].user_id == uid(5)


def test_ONLINE_Q05_any_living_player_himself_included_or_pass():
    t = online_at_day(10)
    t.tap(4, 4)  # himself
    t.tap(5, PASS)
    t.refuse(TapVote(user_id=uid(6), target=SPECTATOR), TargetNotAlive)
    t.refuse(TapVote(user_id=SPECTATOR, target=uid(2)), NotInGame)  # ONLINE-45
    t.ballot({v: 9 for v in t.alive_seats() if v not in (4, 5)})
    assert t.events(VoteResult)[-1].tally == (
        (uid(4), (uid(4),)), (uid(9), tuple(uid(v) for v in (1, 2, 3, 6, 7, 8, 9, 10))))
    t.last_words()
    t.onight(kill=10, don_check=4, check=1)
    t.best_move()
    t.last_words()
    t.refuse(TapVote(user_id=uid(1), target=uid(9)), TargetNotAlive)  # the dead
    t.refuse(TapVote(user_id=uid(9), target=uid(1)), PlayerDead)
    assert uid(9) not in legal_actions(t.state, uid(1)).ballot
    assert legal_actions(t.state, uid(9)).ballot == ()
