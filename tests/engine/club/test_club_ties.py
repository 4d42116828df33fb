"""Club preset: ties (CLUB-Q01): defences, revotes, "eliminate all?" and the whole-table tie."""

from __future__ import annotations

from engine import (
    CastExcludeVote,
    DayWithoutElimination,
    ExcludeVoteResult,
    MarkInactive,
    Phase,
    PhaseStarted,
    PlayerEliminated,
    TieRevote,
    VoteResult,
    VoteWindowOpened,
)

from ..helpers import club_at_day, uid


def tied_day():
    """Day 1: №5 and №7 nominated, 5 votes against №5, the 5 silent votes go to №7."""
    t = club_at_day(1)
    t.speeches({1: 5, 2: 7})
    t.vote({s: 5 for s in (1, 2, 3, 4, 6)})
    return t


def test_CLUB_Q01_tie_gives_defences_and_a_revote_among_the_tied():
    t = tied_day()
    assert t.events(VoteResult)[-1].leaders == (uid(5), uid(7))
    assert t.events(TieRevote)[-1] == TieRevote(candidates=(uid(5), uid(7)))
    defences = []
    while t.phase is Phase.DEFENCE:
        turn = t.events(PhaseStarted)[-1]
        defences.append((t.speaker, turn.seconds, turn.candidates))
        t.end_turn()
    assert defences == [(5, 30, (uid(5), uid(7))), (7, 30, (uid(5), uid(7)))]
    assert t.phase is Phase.VOTING
    assert t.events(VoteWindowOpened)[-1].candidates == (uid(5), uid(7))
    t.vote({s: 5 for s in range(1, 7)})
    assert t.events(PlayerEliminated)[-1] == PlayerEliminated(user_id=uid(5), cause="vote")


def test_CLUB_Q01_silent_votes_in_a_revote_go_to_the_last_tied():
    t = club_at_day(1)
    t.speeches({1: 7, 2: 5, 3: 9})  # ballot 7, 5, 9
    t.vote({1: 7, 2: 7, 3: 7, 4: 7, 6: 5, 8: 5, 10: 5})  # 4-3-3: №7 leads
    assert t.events(PlayerEliminated)[-1].user_id == uid(7)
    t = club_at_day(1)
    t.speeches({1: 7, 2: 5, 3: 9})
    t.vote({1: 7, 2: 7, 3: 7, 4: 5, 6: 5, 8: 5, 10: 9})  # 3-3-4: №9 leads
    assert t.events(VoteResult)[-1].leaders == (uid(9),)
    t = club_at_day(1)
    t.speeches({1: 7, 2: 5, 3: 9})
    t.vote({1: 7, 2: 7, 3: 7, 4: 7, 6: 5, 8: 5, 10: 5, 5: 5})  # 4-4-2: №7 and №5 tie
    assert t.events(TieRevote)[-1].candidates == (uid(7), uid(5))
    t.defences()
    t.vote({1: 7, 2: 7, 3: 7, 4: 7})  # 4 against №7, the 6 silent go to №5, the last tied
    assert dict(t.events(VoteResult)[-1].tally)[uid(5)] == tuple(
        uid(s) for s in (5, 6, 7, 8, 9, 10))
    assert t.events(PlayerEliminated)[-1].user_id == uid(5)


def test_CLUB_Q01_a_smaller_tie_repeats_the_cycle():
    t = club_at_day(1)
    t.speeches({1: 5, 2: 7, 3: 9, 4: 2})
    t.vote({1: 5, 3: 5, 4: 5, 6: 7, 8: 7, 10: 7, 5: 9})  # 3-3-1-3
    assert t.events(TieRevote)[-1].candidates == (uid(5), uid(7), uid(2))
    t.defences()
    t.vote({s: 5 for s in (1, 3, 4, 6)} | {s: 7 for s in (8, 9, 10, 2)})  # 4-4-2
    assert t.events(TieRevote)[-1].candidates == (uid(5), uid(7))
    assert t.phase is Phase.DEFENCE
    t.defences()
    t.vote({s: 5 for s in (1, 2, 3, 4, 6)})  # 5-5 again: the same pair
    assert t.phase is Phase.EXCLUDE_VOTE


def test_CLUB_Q01_the_same_tie_asks_to_eliminate_all():
    t = tied_day()
    t.defences()
    t.vote({s: 5 for s in (1, 2, 3, 4, 6)})  # the same tie
    start = t.events(PhaseStarted)[-1]
    assert (start.phase, start.candidates, start.seconds) == ("exclude_vote", (uid(5), uid(7)),
                                                              10)
    t.exclude_vote(yes=(1, 2, 3, 4, 6, 8), no=(5, 7))
    assert t.events(ExcludeVoteResult)[-1] == ExcludeVoteResult(
        candidates=(uid(5), uid(7)), yes=6, needed=6, passed=True)
    gone = [e for e in t.events(PlayerEliminated)]
    assert gone == [PlayerEliminated(user_id=uid(5), cause="exclude_all"),
                    PlayerEliminated(user_id=uid(7), cause="exclude_all")]
    assert [t.speaker] == [5]  # last words in seat order
    t.last_words()
    assert t.phase is Phase.NIGHT


def test_CLUB_Q01_eliminate_all_needs_a_majority_of_all_living():
    t = tied_day()
    t.defences()
    t.vote({s: 5 for s in (1, 2, 3, 4, 6)})
    for seat in (9, 10):
        t.do(MarkInactive(player=uid(seat), reason="away"))  # inactive players still count
    t.exclude_vote(yes=(1, 2, 3, 4, 6), no=())
    result = t.events(ExcludeVoteResult)[-1]
    assert (result.yes, result.needed, result.passed) == (5, 6, False)
    assert t.events(DayWithoutElimination)[-1].reason == "exclude_failed"
    assert t.phase is Phase.NIGHT and t.alive_seats() == list(range(1, 11))


def test_CLUB_Q01_every_living_player_tied_means_night():
    t = club_at_day(1)
    t.speeches({s: s for s in range(1, 11)})  # everybody nominates himself
    t.vote({s + 1: s for s in range(1, 10)})  # one vote each; №1's silent vote goes to №10
    assert len(t.events(VoteResult)[-1].leaders) == 10
    assert t.events(DayWithoutElimination)[-1].reason == "all_tied"
    assert t.phase is Phase.NIGHT and not t.events(TieRevote)


def test_CLUB_Q01_half_the_table_tied_is_an_ordinary_tie():
    t = club_at_day(1)
    t.speeches({s: s for s in range(1, 6)})
    t.vote({6: 1, 7: 1, 8: 2, 9: 2, 10: 3, 1: 3, 2: 4, 3: 4})  # 2-2-2-2, №5 gets 2 silent
    assert t.events(TieRevote)[-1].candidates == tuple(uid(s) for s in range(1, 6))
    assert not [e for e in t.events(DayWithoutElimination) if e.reason == "half_tied"]
    assert t.phase is Phase.DEFENCE


def test_CLUB_X12_the_eliminate_all_vote_details():
    t = tied_day()
    t.defences()
    t.vote({s: 5 for s in (1, 2, 3, 4, 6)})
    assert t.state.timer.kind == "vote"
    for s in range(1, 11):
        t.do(CastExcludeVote(user_id=uid(s), yes=s <= 6))
    result = t.events(ExcludeVoteResult)[-1]  # closed at once: every living player voted
    assert (result.yes, result.needed, result.passed) == (6, 6, True)
    t = tied_day()
    t.defences()
    t.vote({s: 5 for s in (1, 2, 3, 4, 6)})
    t.exclude_vote(yes=(1, 2, 3), no=(4,))  # the six silent count as no
    assert t.events(ExcludeVoteResult)[-1].passed is False
