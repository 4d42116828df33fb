"""Club preset: speeches, nominations and the candidate-by-candidate vote (docs/rules/club.md)."""

from __future__ import annotations

from engine import (
    PUBLIC,
    AlreadyNominated,
    AlreadyVoted,
    CastVote,
    DayWithoutElimination,
    DuplicateNomination,
    EndSpeech,
    InvalidTarget,
    MarkInactive,
    Nominate,
    NominationAccepted,
    NominationUndone,
    NotAllowed,
    NotYourTurn,
    Phase,
    PhaseClosed,
    PhaseStarted,
    PlayerEliminated,
    RelayMessage,
    TargetNotAlive,
    UndoNomination,
    VoteResult,
    VoteWindowOpened,
    legal_actions,
)

from ..helpers import HOST, club_at_day, club_vote_out, started_game, uid

MISS = {1: 5, 2: 6, 3: 7}


def speakers(t, since: int) -> list[int]:
    return [t.state.players[e.speaker].seat for e in t.events(PhaseStarted, since=since)
            if e.phase == "speech"]


def nominate(t, target: int):
    return t.do(Nominate(user_id=t.state.speaker, target=uid(target)))


def test_CLUB_13_one_minute_speeches_in_seat_order():
    t = club_at_day(1)
    first = t.events(PhaseStarted)[-1]
    assert (first.speaker, first.seconds, first.purpose) == (uid(1), 60, "")
    mark = t.mark()
    t.speeches()
    assert speakers(t, mark - 1) == list(range(1, 11))


def test_CLUB_14_out_of_turn_commands_are_refused():
    t = club_at_day(1)
    t.refuse(Nominate(user_id=uid(4), target=uid(6)), NotYourTurn)
    t.refuse(EndSpeech(user_id=uid(4)), NotYourTurn)
    t.refuse(RelayMessage(user_id=uid(2), text="psst"), PhaseClosed)
    assert not legal_actions(t.state, uid(4)).nominate
    assert not legal_actions(t.state, uid(4)).end_speech


def test_CLUB_16_pass_ends_the_speech_at_once():
    t = club_at_day(1)
    old = t.state.timer.seq
    events = t.end_turn()
    turn = [e for e in events if isinstance(e, PhaseStarted)][0]
    assert turn.speaker == uid(2) and turn.timer_seq != old


def test_CLUB_17_only_players_not_yet_nominated():
    t = club_at_day(1)
    nominate(t, 5)
    t.end_turn()
    assert uid(5) not in legal_actions(t.state, uid(2)).nominate
    t.refuse(Nominate(user_id=uid(2), target=uid(5)), DuplicateNomination)
    nominate(t, 7)
    assert t.state.nominations == [uid(5), uid(7)]


def test_CLUB_18_only_an_explicit_nomination_counts():
    t = club_at_day(1)
    la = legal_actions(t.state, uid(1))
    assert la.nominate == tuple(uid(s) for s in range(1, 11))
    t.end_turn()  # seat 1 spoke without nominating: nobody is on the ballot
    assert t.state.nominations == []


def test_CLUB_19_an_accepted_nomination_is_announced():
    t = club_at_day(1)
    assert nominate(t, 5) == [NominationAccepted(by=uid(1), target=uid(5), candidates=(uid(5),))]
    assert t.last[0].audience == PUBLIC
    t.end_turn()
    t.refuse(Nominate(user_id=uid(2), target=uid(5)), DuplicateNomination)  # no event at all


def test_CLUB_20_the_vote_follows_the_speeches_at_once():
    t = club_at_day(1)
    t.speeches({1: 5, 2: 7})
    assert t.phase is Phase.VOTING
    last = [type(e).__name__ for e in t.last]
    assert last == ["PhaseStarted", "VoteWindowOpened"]
    assert not [e for e in t.events(PhaseStarted) if e.phase == "defence"]


def test_CLUB_21_ballot_in_nomination_order():
    t = club_at_day(1)
    t.speeches({1: 9, 2: 3, 5: 6})
    voting = t.events(PhaseStarted)[-1]
    assert voting.candidates == (uid(9), uid(3), uid(6))
    assert t.events(VoteWindowOpened)[-1].candidates == (uid(9), uid(3), uid(6))


def test_CLUB_22_one_window_per_nominee():
    t = club_at_day(1)
    t.speeches({1: 5, 2: 7, 3: 2})
    window = t.events(VoteWindowOpened)[-1]
    assert (window.candidate, window.index, window.seconds) == (uid(5), 0, 10)
    t.refuse(CastVote(user_id=uid(4), target=uid(7)), InvalidTarget)
    t.do(CastVote(user_id=uid(4), target=uid(5)))
    t.timeout()
    assert t.events(VoteWindowOpened)[-1].candidate == uid(7)


def test_CLUB_23_one_vote_per_player():
    t = club_at_day(1)
    t.speeches({1: 5, 2: 7, 3: 2})
    t.do(CastVote(user_id=uid(1), target=uid(5)))
    t.refuse(CastVote(user_id=uid(1), target=uid(5)), AlreadyVoted)
    t.timeout()
    t.refuse(CastVote(user_id=uid(1), target=uid(7)), AlreadyVoted)
    assert legal_actions(t.state, uid(1)).vote is None


def test_CLUB_24_silent_votes_go_to_the_last_nominee():
    t = club_at_day(1)
    t.speeches({1: 5, 2: 7, 3: 2})
    t.vote({1: 5, 4: 5, 6: 5, 3: 7, 8: 7})
    result = t.events(VoteResult)[-1]
    assert result.tally == ((uid(5), (uid(1), uid(4), uid(6))), (uid(7), (uid(3), uid(8))),
                            (uid(2), (uid(2), uid(5), uid(7), uid(9), uid(10))))
    assert result.leaders == (uid(2),)
    assert PlayerEliminated(user_id=uid(2), cause="vote") in t.events()


def test_CLUB_24_inactive_players_votes_go_to_the_last_nominee_too():
    t = club_at_day(1)
    t.speeches({1: 5, 2: 7})
    for seat in (8, 9, 10):
        t.do(MarkInactive(player=uid(seat), reason="away"))
    t.vote({1: 5, 2: 5, 3: 5, 4: 5})
    tally = dict(t.events(VoteResult)[-1].tally)
    assert len(tally[uid(5)]) == 4 and len(tally[uid(7)]) == 6
    assert {uid(8), uid(9), uid(10)} <= set(tally[uid(7)])


def test_CLUB_25_the_leader_gets_a_last_minute_and_leaves():
    t = club_at_day(1)
    t.speeches({1: 5, 2: 7})
    t.vote({s: 5 for s in range(1, 7)})
    assert t.events(PlayerEliminated)[-1] == PlayerEliminated(user_id=uid(5), cause="vote")
    turn = t.events(PhaseStarted)[-1]
    assert (turn.phase, turn.speaker, turn.seconds) == ("last_word", uid(5), 60)
    t.end_turn()
    assert t.phase is Phase.NIGHT and 5 not in t.alive_seats()


def test_CLUB_Q02_a_lone_nominee_on_day_1_is_not_voted_on():
    t = club_at_day(1)
    t.speeches({3: 8})
    assert t.events(DayWithoutElimination)[-1] == DayWithoutElimination(
        reason="day1_single", candidates=(uid(8),))
    assert t.phase is Phase.NIGHT and 8 in t.alive_seats()
    assert not t.events(VoteWindowOpened)


def test_CLUB_Q02_a_lone_nominee_on_a_later_day_leaves():
    t = club_at_day(2)
    t.speeches({4: 8})
    assert t.events(PlayerEliminated)[-1] == PlayerEliminated(user_id=uid(8), cause="sole_nominee")
    assert not t.events(VoteWindowOpened)
    assert t.events(PhaseStarted)[-1].phase == "last_word"


def test_CLUB_Q03_no_nominations_no_vote():
    t = club_at_day(1)
    t.speeches()
    assert t.events(DayWithoutElimination)[-1].reason == "no_nominations"
    assert t.phase is Phase.NIGHT and t.state.night == 2


def test_CLUB_Q04_the_opener_moves_one_living_seat_a_day():
    t = club_at_day(1)
    t.speeches()
    t.night(kill=MISS)  # the blacks shoot apart: a miss, and nobody missed a deadline
    assert t.speaker == 2  # day 2
    club_vote_out(t, 3)
    t.night(kill=MISS)
    assert t.speaker == 4  # day 3: seat 3 is out, the next living seat after 2 opens
    mark = t.mark()
    t.speeches()
    assert speakers(t, mark - 1) == [4, 5, 6, 7, 8, 9, 10, 1, 2]


def test_CLUB_Q05_one_nomination_per_speech_self_allowed():
    t = club_at_day(1)
    t.refuse(Nominate(user_id=uid(1), target=uid(99)), TargetNotAlive)
    nominate(t, 1)  # himself
    t.refuse(Nominate(user_id=uid(1), target=uid(6)), AlreadyNominated)
    assert not legal_actions(t.state, uid(1)).nominate
    t.end_turn()
    t.refuse(Nominate(user_id=uid(2), target=uid(1)), DuplicateNomination)
    nominate(t, 6)  # the refused duplicate left him free
    assert t.state.nominations == [uid(1), uid(6)]


def test_CLUB_Q05_no_nomination_in_a_last_word_or_defence():
    t = club_at_day(1)
    t.speeches({1: 5, 2: 7})
    t.vote({s: 5 for s in range(1, 6)})  # 5 against 5 (silent to 7): a tie
    assert t.phase is Phase.DEFENCE
    t.refuse(Nominate(user_id=uid(5), target=uid(9)), PhaseClosed)
    t.defences()
    t.vote({s: 5 for s in range(1, 7)})
    assert t.phase is Phase.LAST_WORD
    t.refuse(Nominate(user_id=uid(5), target=uid(9)), PhaseClosed)
    assert not legal_actions(t.state, uid(5)).nominate


def test_CLUB_Q06_the_judge_undoes_a_nomination():
    t = club_at_day(1, host=True)
    nominate(t, 5)
    events = t.do(UndoNomination(user_id=HOST, target=uid(5)))
    assert events == [NominationUndone(target=uid(5), nominator=uid(1), by=HOST, candidates=())]
    assert events[0].audience == PUBLIC
    assert legal_actions(t.state, uid(1)).nominate  # the misclick is mended: he nominates again
    nominate(t, 6)
    t.end_turn()
    nominate(t, 5)  # seat 5 may be nominated again
    t.do(UndoNomination(user_id=HOST, target=uid(6)))  # seat 1 no longer speaks: no new try
    assert t.state.nominations == [uid(5)] and t.state.nominated_in_speech


def test_CLUB_Q06_only_the_judge_and_only_during_the_speeches():
    t = club_at_day(1, host=True)
    nominate(t, 5)
    t.refuse(UndoNomination(user_id=uid(1), target=uid(5)), NotAllowed)
    t.refuse(UndoNomination(user_id=HOST, target=uid(6)), InvalidTarget)
    t.speeches({2: 7})
    assert t.phase is Phase.VOTING
    t.refuse(UndoNomination(user_id=HOST, target=uid(5)), PhaseClosed)
    auto = club_at_day(1)
    nominate(auto, 4)
    auto.do(UndoNomination(user_id=None, target=uid(4)))  # no judge: the shell decides who
    party = started_game(7, "MMCDTTT")
    party.to_day(1)
    party.do(Nominate(user_id=uid(1), target=uid(4)))
    party.refuse(UndoNomination(user_id=None, target=uid(4)), NotAllowed)


def test_CLUB_Q07_last_nominee_gets_no_window_and_nominees_vote():
    t = club_at_day(1)
    t.speeches({1: 5, 2: 7, 3: 2})
    t.do(CastVote(user_id=uid(5), target=uid(5)))  # against himself
    t.refuse(CastVote(user_id=uid(1), target=uid(2)), InvalidTarget)  # no window for №2 yet
    t.timeout()
    t.do(CastVote(user_id=uid(7), target=uid(7)))
    events = t.timeout()
    assert not [e for e in events if isinstance(e, VoteWindowOpened)]
    assert [e.candidate for e in t.events(VoteWindowOpened)] == [uid(5), uid(7)]
    assert dict(t.events(VoteResult)[-1].tally)[uid(2)] == tuple(
        uid(s) for s in (1, 2, 3, 4, 6, 8, 9, 10))
