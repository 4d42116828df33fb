"""Party preset: voting, ties and the exclude-all vote (docs/rules/party.md)."""

from __future__ import annotations

import pytest

from engine import (
    PUBLIC,
    AlreadyVoted,
    CastExcludeVote,
    CastVote,
    DayWithoutElimination,
    ExcludeVoteResult,
    InvalidTarget,
    MarkInactive,
    NotInGame,
    Phase,
    PhaseClosed,
    PhaseStarted,
    PlayerEliminated,
    TieRevote,
    VoteCast,
    VoteResult,
    VoteWindowOpened,
)

from ..helpers import SPECTATOR, eliminate_by_vote, game_at_day, uid


def nominate(t, *seats):
    """Day speeches in which the first speakers nominate ``seats`` in this order; then defences."""
    t.speeches(dict(zip(_speaking_order(t), seats, strict=False)))
    t.defences()


def _speaking_order(t):
    alive = t.alive_seats()
    i = alive.index(t.speaker)
    return [s for s in alive[i:] + alive[:i] if t.state.players[uid(s)].active]


def tied_twice(t, a, b, votes_each):
    """Nominate ``a`` and ``b``; two rounds in which the first ``votes_each`` voters (seat order)
    vote for ``a`` and the next ``votes_each`` for ``b``.  Ends in the exclude-all vote."""
    nominate(t, a, b)
    voters = t.alive_seats()
    ballot = {v: a for v in voters[:votes_each]} | {v: b for v in voters[votes_each:2 * votes_each]}
    t.vote(ballot)
    assert t.events(TieRevote)[-1] == TieRevote(candidates=(uid(a), uid(b)))
    t.defences()
    t.vote(ballot)
    assert t.phase is Phase.EXCLUDE_VOTE


# --- PARTY-14..18, Q06: one round -----------------------------------------------------------------
def test_PARTY_14_one_vote_per_player_per_round():
    t = game_at_day(7, "MMCDTTT")
    nominate(t, 2, 6)
    t.refuse(CastVote(user_id=SPECTATOR, target=uid(2)), NotInGame)
    t.do(CastVote(user_id=uid(1), target=uid(2)))
    t.refuse(CastVote(user_id=uid(1), target=uid(2)), AlreadyVoted)
    t.timeout()                                   # №6's window
    t.refuse(CastVote(user_id=uid(1), target=uid(6)), AlreadyVoted)
    t.do(CastVote(user_id=uid(3), target=uid(6)))
    t.timeout()
    (result,) = t.events(VoteResult)
    assert result.tally == ((uid(2), (uid(1),)), (uid(6), (uid(3),)))


def test_PARTY_15_one_candidate_at_a_time_in_nomination_order():
    t = game_at_day(7, "MMCDTTT")
    m = t.mark()
    nominate(t, 5, 2)
    assert t.state.vote.current == uid(5)
    t.refuse(CastVote(user_id=uid(1), target=uid(2)), InvalidTarget)
    t.refuse(CastVote(user_id=uid(1), target=uid(7)), InvalidTarget)  # not a candidate
    t.timeout()
    t.refuse(CastVote(user_id=uid(1), target=uid(5)), InvalidTarget)  # №5's window is closed
    windows = t.events(VoteWindowOpened, m)
    assert [(w.candidate, w.index) for w in windows] == [(uid(5), 0), (uid(2), 1)]
    assert all(w.seconds == 15 for w in windows)                     # PARTY-Q06: Normal


def test_PARTY_16_every_vote_is_public_at_once():
    t = game_at_day(7, "MMCDTTT")
    nominate(t, 5, 2)
    (e,) = t.do(CastVote(user_id=uid(7), target=uid(5)))
    assert e == VoteCast(voter=uid(7), candidate=uid(5), voters=(uid(7),)) and e.audience == PUBLIC
    (e,) = t.do(CastVote(user_id=uid(3), target=uid(5)))
    assert e.voters == (uid(7), uid(3))


def test_PARTY_17_a_vote_not_cast_is_lost():
    t = game_at_day(7, "MMCDTTT")
    nominate(t, 5, 2)
    t.vote({1: 5, 3: 5, 4: 2})
    (result,) = t.events(VoteResult)
    assert result.tally == ((uid(5), (uid(1), uid(3))), (uid(2), (uid(4),)))
    assert result.leaders == (uid(5),)
    assert t.events(PlayerEliminated)[-1] == PlayerEliminated(user_id=uid(5), cause="vote")


def test_PARTY_18_the_leader_leaves_and_gets_a_last_word():
    t = game_at_day(7, "MMCDTTT")
    nominate(t, 5, 2)
    t.vote({1: 2, 3: 2, 4: 2, 5: 5, 6: 5})
    assert t.events(PlayerEliminated)[-1] == PlayerEliminated(user_id=uid(2), cause="vote")
    assert t.phase is Phase.LAST_WORD and t.speaker == 2
    assert t.state.players[uid(5)].alive


def test_PARTY_Q06_nominee_votes_even_against_himself_no_transfer():
    t = game_at_day(7, "MMCDTTT")
    nominate(t, 5, 2)
    t.do(CastVote(user_id=uid(5), target=uid(5)))
    t.timeout()
    t.timeout()   # nobody else votes: the silent votes do not go to the last candidate
    (result,) = t.events(VoteResult)
    assert result.tally == ((uid(5), (uid(5),)), (uid(2), ()))
    assert not t.state.players[uid(5)].alive


def test_PARTY_X13_round_closes_when_every_living_active_player_has_voted():
    t = game_at_day(5, "MCDTT")
    nominate(t, 4, 5)
    m = t.mark()
    for v in (1, 2, 3, 4, 5):
        t.do(CastVote(user_id=uid(v), target=uid(4)))
    assert t.events(VoteResult, m)                # closed without opening №5's window
    assert not t.events(VoteWindowOpened, m)


# --- PARTY-19..21, Q07/Q08: ties --------------------------------------------------------------------
def test_PARTY_19_tie_means_re_defence_and_a_round_among_the_tied():
    t = game_at_day(7, "MMCDTTT")
    nominate(t, 2, 5, 7)
    m = t.mark()
    t.vote({1: 2, 3: 2, 4: 2, 5: 5, 6: 5, 7: 5, 2: 7})
    assert t.events(TieRevote, m) == [TieRevote(candidates=(uid(2), uid(5)))]
    assert [e.speaker for e in t.events(PhaseStarted, m)] == [uid(2)]
    t.defences()
    assert t.phase is Phase.VOTING and t.state.vote.candidates == [uid(2), uid(5)]


def test_PARTY_20_a_smaller_tie_repeats_the_cycle():
    t = game_at_day(7, "MMCDTTT")
    nominate(t, 1, 2, 3)
    t.vote({4: 1, 5: 1, 6: 2, 7: 2, 1: 3, 2: 3})
    t.defences()
    m = t.mark()
    t.vote({4: 1, 5: 1, 6: 1, 7: 2, 1: 2, 2: 2})
    assert t.events(TieRevote, m) == [TieRevote(candidates=(uid(1), uid(2)))]
    assert t.phase is Phase.DEFENCE and t.speaker == 1
    t.defences()
    assert t.state.vote.candidates == [uid(1), uid(2)]


def test_PARTY_21_same_tie_goes_to_exclude_all_vote():
    t = game_at_day(7, "MMCDTTT")
    tied_twice(t, 6, 7, 3)
    assert t.state.exclude_candidates == [uid(6), uid(7)]
    m = t.mark()
    t.exclude_vote(yes=(1, 2, 3, 4), no=(5,))
    assert t.events(ExcludeVoteResult, m) == [
        ExcludeVoteResult(candidates=(uid(6), uid(7)), yes=4, needed=4, passed=True)]
    assert [e for e in t.events(PlayerEliminated, m)] == [
        PlayerEliminated(user_id=uid(6), cause="exclude_all"),
        PlayerEliminated(user_id=uid(7), cause="exclude_all")]
    assert t.phase is Phase.LAST_WORD and t.speaker == 6
    t.end_turn()
    assert t.speaker == 7
    t.end_turn()
    assert t.phase is Phase.READY


def test_PARTY_21_exclude_all_without_majority_means_night():
    t = game_at_day(7, "MMCDTTT")
    tied_twice(t, 6, 7, 3)
    m = t.mark()
    t.exclude_vote(yes=(1, 2, 3), no=(4, 5, 6, 7))
    assert t.events(ExcludeVoteResult, m)[0].passed is False
    assert t.events(DayWithoutElimination, m) == [
        DayWithoutElimination(reason="exclude_failed", candidates=(uid(6), uid(7)))]
    assert not t.events(PlayerEliminated, m) and t.phase is Phase.READY


def test_PARTY_21_exclude_vote_closes_once_everyone_voted():
    t = game_at_day(5, "MCDTT")
    tied_twice(t, 4, 5, 2)
    t.exclude_vote(yes=(1, 2, 3, 4), no=(5,), close=False)
    assert t.phase is Phase.LAST_WORD and t.events(ExcludeVoteResult)[-1].passed
    t.refuse(CastExcludeVote(user_id=uid(1), yes=True), PhaseClosed)


@pytest.mark.parametrize("n, needed", [(5, 3), (6, 4), (7, 4), (8, 5), (9, 5), (10, 6), (12, 7)])
def test_PARTY_Q08_majority_is_half_of_the_living_active_plus_one(n, needed):
    t = game_at_day(n)
    tied_twice(t, n - 1, n, 2)
    t.exclude_vote(yes=range(1, needed))
    res = t.events(ExcludeVoteResult)[-1]
    assert (res.needed, res.yes, res.passed) == (needed, needed - 1, False)
    t2 = game_at_day(n)
    tied_twice(t2, n - 1, n, 2)
    t2.exclude_vote(yes=range(1, needed + 1))
    assert t2.events(ExcludeVoteResult)[-1].passed is True


def test_PARTY_Q07_a_round_without_votes_is_a_tie_of_all_candidates():
    t = game_at_day(7, "MMCDTTT")
    nominate(t, 6, 7)
    t.vote({})
    assert t.events(TieRevote) == [TieRevote(candidates=(uid(6), uid(7)))]
    t.defences()
    t.vote({})
    assert t.phase is Phase.EXCLUDE_VOTE
    t.exclude_vote()
    assert t.events(ExcludeVoteResult)[-1].passed is False
    assert t.phase is Phase.READY


def test_PARTY_43_inactive_players_not_in_the_majority_base():
    t = game_at_day(8)
    tied_twice(t, 7, 8, 2)
    t.do(MarkInactive(player=uid(3), reason="left"))
    t.exclude_vote(yes=(1, 2, 4, 5), no=(6, 7, 8), close=False)   # all 7 active voted: closed
    res = t.events(ExcludeVoteResult)[-1]
    assert (res.needed, res.yes, res.passed) == (4, 4, True)     # 8 active would need 5


def test_PARTY_43_inactive_players_are_not_awaited_in_a_round():
    t = game_at_day(5, "MCDTT")
    nominate(t, 4, 5)
    t.do(MarkInactive(player=uid(2), reason="blocked"))
    m = t.mark()
    for v in (1, 3, 4, 5):
        t.do(CastVote(user_id=uid(v), target=uid(4)))
    assert t.events(VoteResult, m) and not t.events(VoteWindowOpened, m)


def test_PARTY_Q21_a_vote_cast_before_dropping_out_stands():
    t = game_at_day(8)
    tied_twice(t, 7, 8, 2)
    t.do(CastExcludeVote(user_id=uid(3), yes=True))
    t.do(MarkInactive(player=uid(3), reason="blocked"))
    t.exclude_vote(yes=(1, 2, 4))
    res = t.events(ExcludeVoteResult)[-1]
    assert (res.needed, res.yes, res.passed) == (4, 4, True)
    t2 = game_at_day(7, "MMCDTTT")
    nominate(t2, 5, 2)
    t2.do(CastVote(user_id=uid(1), target=uid(5)))
    t2.do(MarkInactive(player=uid(1), reason="blocked"))
    t2.timeout()
    t2.timeout()
    assert t2.events(VoteResult)[-1].tally[0] == (uid(5), (uid(1),))


# --- PARTY-22..24, Q09: ties that end the day ------------------------------------------------------
def test_PARTY_22_three_alive_any_tie_means_night():
    t = game_at_day(5, "MCDTT")
    eliminate_by_vote(t, 5)
    t.to_night(2)
    t.night(kill=4)
    t.last_words()
    assert t.alive_seats() == [1, 2, 3] and t.speaker == 2
    nominate(t, 1, 2)
    m = t.mark()
    t.vote({2: 1, 1: 2})
    assert t.events(DayWithoutElimination, m) == [
        DayWithoutElimination(reason="three_alive", candidates=(uid(1), uid(2)))]
    assert not t.events(TieRevote, m) and t.phase is Phase.READY


def _four_alive():
    t = game_at_day(5, "MCDTT")
    eliminate_by_vote(t, 5)
    t.to_day(2)
    assert t.alive_seats() == [1, 2, 3, 4] and t.speaker == 2
    return t


def test_PARTY_23_every_living_player_tied_means_night():
    t = _four_alive()
    nominate(t, 1, 2, 3, 4)
    m = t.mark()
    t.vote({4: 1, 1: 2, 2: 3, 3: 4})
    assert t.events(DayWithoutElimination, m)[0].reason == "all_tied"
    assert not t.events(TieRevote, m) and t.phase is Phase.READY


def test_PARTY_Q09_two_of_four_is_not_an_exception():
    t = _four_alive()
    nominate(t, 1, 2)
    t.vote({1: 2, 2: 1, 3: 1, 4: 2})
    assert t.events(TieRevote)[-1] == TieRevote(candidates=(uid(1), uid(2)))
    assert not t.events(DayWithoutElimination)[1:]
    assert t.phase is Phase.DEFENCE


@pytest.mark.parametrize("n", [6, 8, 10, 12])
def test_PARTY_24_half_the_table_tied_means_night(n):
    t = game_at_day(n)
    k = n // 2
    nominate(t, *range(1, k + 1))
    m = t.mark()
    t.vote({v: (v - 1) // 2 + 1 for v in range(1, n + 1)})   # two votes for each candidate
    res = t.events(VoteResult, m)[0]
    assert len(res.leaders) == k
    assert t.events(DayWithoutElimination, m)[0].reason == "half_tied"
    assert not t.events(TieRevote, m) and t.phase is Phase.READY


def test_PARTY_24_a_tie_of_less_than_half_is_a_normal_tie():
    t = game_at_day(8)
    nominate(t, 1, 2, 3)
    t.vote({1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3})
    assert t.events(TieRevote)[-1].candidates == (uid(1), uid(2), uid(3))
    assert t.phase is Phase.DEFENCE


def test_PARTY_Q09_exceptions_checked_in_a_later_round_too():
    t = game_at_day(6)
    nominate(t, 1, 2, 3, 4)
    t.vote({})                                   # 0-0-0-0: four of six tied, not half
    assert t.events(TieRevote)[-1].candidates == (uid(1), uid(2), uid(3), uid(4))
    t.defences()
    m = t.mark()
    t.vote({1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3})  # three of six tied: half
    assert t.events(DayWithoutElimination, m)[0].reason == "half_tied"
    assert t.phase is Phase.READY


def test_PARTY_24_twelve_players_six_tied_and_not_five():
    t = game_at_day(12)
    nominate(t, *range(1, 6))
    t.vote({v: (v - 1) // 2 + 1 for v in range(1, 11)})
    assert t.events(TieRevote)[-1].candidates == tuple(uid(s) for s in range(1, 6))
