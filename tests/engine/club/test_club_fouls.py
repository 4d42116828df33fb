"""Club preset: fouls, the silenced turn, disqualification and its side effects
(CLUB-36..39, CLUB-Q15..Q17; docs/rules/club.md)."""

from __future__ import annotations

from engine import (
    PUBLIC,
    CancelFoul,
    CastVote,
    DayWithoutElimination,
    Disqualify,
    DonCheckResult,
    FoulCancelled,
    FoulIssued,
    GameEnded,
    GamePaused,
    InvalidTarget,
    IssueFoul,
    MarkActive,
    MarkInactive,
    NightAction,
    Nominate,
    NotAllowed,
    NotInGame,
    Pause,
    Phase,
    PhaseClosed,
    PhaseStarted,
    PlayerDead,
    PlayerEliminated,
    Team,
    TurnSkipped,
    VoteResult,
    VoteWindowOpened,
    legal_actions,
)
from engine.club.state import fouls_of

from ..helpers import HOST, club_at_day, club_at_night, club_game, lobby, started_game, uid

MISS = {1: 2, 2: 3, 3: 1}  # every black shoots a teammate: three different seats, a miss


def foul(t, seat: int, n: int = 1, judge: int | None = HOST):
    for _ in range(n):
        t.do(IssueFoul(user_id=judge, player=uid(seat), reason="gesture"))


def turns(t, since: int, phase: str = "speech"):
    return [(t.state.players[e.speaker].seat, e.seconds, e.purpose)
            for e in t.events(PhaseStarted, since=since) if e.phase == phase]


def test_CLUB_36_the_judge_gives_fouls_with_a_count():
    t = club_at_day(1, host=True)
    events = t.do(IssueFoul(user_id=HOST, player=uid(4), reason="talking out of turn"))
    assert events == [FoulIssued(player=uid(4), count=1, by=HOST, reason="talking out of turn")]
    assert events[0].audience == PUBLIC
    foul(t, 4)
    assert t.last[0].count == 2 and fouls_of(t.state, uid(4)) == 2
    t.speeches({1: 5, 2: 7})
    foul(t, 6)  # gesturing during the vote
    t.timeout()
    t.last_words()
    foul(t, 8)  # and at night
    assert [e.player for e in t.events(FoulIssued)] == [uid(4), uid(4), uid(6), uid(8)]


def test_CLUB_37_third_foul_makes_the_next_speech_a_silenced_nomination_turn():
    t = club_at_day(1, host=True)
    foul(t, 3, 3)
    assert fouls_of(t.state, uid(3)) == 3
    t.end_turn()
    t.end_turn()
    turn = t.events(PhaseStarted)[-1]
    assert (turn.speaker, turn.seconds, turn.purpose) == (uid(3), 10, "silenced")
    assert t.state.timer.kind == "silenced"
    assert legal_actions(t.state, uid(3)).nominate  # he keeps his right to nominate
    t.do(Nominate(user_id=uid(3), target=uid(8)))
    t.timeout()  # the short window runs out
    assert t.speaker == 4 and t.events(PhaseStarted)[-1].seconds == 60
    t.speeches()
    assert t.events(DayWithoutElimination)[-1].candidates == (uid(8),)  # his nomination stood
    t.to_day(2)
    mark = t.mark()
    t.speeches()
    assert (3, 60, "") in turns(t, mark - 1)  # one speech lost, not every speech


def test_CLUB_Q16_third_foul_in_his_own_speech_takes_effect_next_time():
    t = club_at_day(1, host=True)
    seq = t.state.timer.seq
    foul(t, 1, 3)  # during his own speech
    assert t.speaker == 1 and t.state.timer.seq == seq  # this speech goes on
    t.speeches()
    t.night(kill=MISS)
    mark = t.mark()
    t.speeches()
    assert (1, 10, "silenced") in turns(t, mark - 1)


def test_CLUB_Q16_defence_and_last_word_are_not_the_silenced_turn():
    t = club_at_day(1, host=True)
    t.speeches({1: 5, 2: 7})
    foul(t, 5, 3)
    t.vote({s: 5 for s in (1, 2, 3, 4, 6)})  # 5-5: defences
    mark = t.mark()
    t.defences()
    assert turns(t, mark - 1, "defence")[0] == (5, 30, "")
    t.vote({s: 5 for s in range(1, 7)})
    assert turns(t, t.mark() - 1, "last_word") == [(5, 60, "")]


def test_CLUB_X08_a_pending_silenced_turn_waits_for_a_speech_he_holds():
    t = club_at_day(1, host=True)
    foul(t, 3, 3)
    t.do(MarkInactive(player=uid(3), reason="away"))
    mark = t.mark()
    t.speeches()
    assert TurnSkipped(user_id=uid(3)) in t.events(since=mark)
    assert uid(3) in t.state.club.silenced
    t.night(kill=MISS)
    t.do(IssueFoul(user_id=HOST, player=uid(9)))  # not presence: the judge's tools
    t.do(MarkActive(user_id=uid(3)))
    mark = t.mark()
    t.speeches()
    assert (3, 10, "silenced") in turns(t, mark - 1)


def test_CLUB_38_fourth_foul_removes_at_once_without_a_last_word():
    t = club_at_day(1, host=True)
    foul(t, 6, 3)
    events = t.do(IssueFoul(user_id=HOST, player=uid(6)))
    assert events[:2] == [FoulIssued(player=uid(6), count=4, by=HOST, reason=""),
                          PlayerEliminated(user_id=uid(6), cause="disqualified")]
    assert 6 not in t.alive_seats()
    mark = t.mark()
    t.speeches()
    assert 6 not in [s for s, _, _ in turns(t, mark - 1)]
    assert not [e for e in t.events(PhaseStarted)
                if e.phase == "last_word" and e.speaker == uid(6)]


def test_CLUB_39_disqualification_at_any_foul_count():
    t = club_at_day(1, host=True)
    t.speeches({1: 5, 2: 7})
    events = t.do(Disqualify(user_id=HOST, player=uid(8), reason="insult"))
    assert events[0] == PlayerEliminated(user_id=uid(8), cause="disqualified")
    assert fouls_of(t.state, uid(8)) == 0
    assert not [e for e in t.events(PhaseStarted) if e.speaker == uid(8)
                and e.phase == "last_word"]
    t.refuse(Disqualify(user_id=HOST, player=uid(8)), PlayerDead)
    t.refuse(Disqualify(user_id=uid(2), player=uid(3)), NotAllowed)


def test_CLUB_Q15_the_judge_cancels_a_foul():
    t = club_at_day(1, host=True)
    foul(t, 3, 3)
    events = t.do(CancelFoul(user_id=HOST, player=uid(3), reason="misheard"))
    assert events == [FoulCancelled(player=uid(3), count=2, by=HOST, reason="misheard")]
    assert events[0].audience == PUBLIC
    assert uid(3) not in t.state.club.silenced
    mark = t.mark()
    t.speeches()
    assert (3, 60, "") in turns(t, mark - 1)
    foul(t, 3)  # the third again: silenced again
    assert uid(3) in t.state.club.silenced


def test_CLUB_Q15_cancel_refusals():
    t = club_at_day(1, host=True)
    t.refuse(CancelFoul(user_id=HOST, player=uid(3)), InvalidTarget)  # no foul to cancel
    foul(t, 3)
    t.refuse(CancelFoul(user_id=uid(3), player=uid(3)), NotAllowed)
    t.do(Disqualify(user_id=HOST, player=uid(4)))
    t.refuse(CancelFoul(user_id=HOST, player=uid(4)), PlayerDead)  # a disqualification stands
    party = started_game(7, "MMCDTTT")
    party.refuse(CancelFoul(user_id=None, player=uid(3)), NotAllowed)


def test_CLUB_Q17_disqualification_during_speeches_cancels_todays_vote():
    t = club_at_day(1, host=True)
    t.speeches({1: 6, 2: 7, 3: 8})
    t.refuse(CastVote(user_id=uid(1), target=uid(7)), InvalidTarget)
    t = club_at_day(1, host=True)
    t.do(Nominate(user_id=uid(1), target=uid(6)))
    t.end_turn()
    t.do(Nominate(user_id=uid(2), target=uid(7)))
    t.do(Disqualify(user_id=HOST, player=uid(6)))  # a nominee: struck off the ballot
    assert t.state.nominations == [uid(7)] and t.speaker == 2  # the speeches go on
    t.end_turn()
    t.speeches({3: 8})
    assert t.events(DayWithoutElimination)[-1] == DayWithoutElimination(
        reason="vote_cancelled", candidates=(uid(7), uid(8)))
    assert not t.events(VoteWindowOpened) and t.phase is Phase.NIGHT


def test_CLUB_Q17_disqualification_during_the_vote_ends_the_day():
    t = club_at_day(1, host=True)
    t.speeches({1: 5, 2: 7})
    t.do(CastVote(user_id=uid(1), target=uid(5)))
    events = t.do(Disqualify(user_id=HOST, player=uid(1)))
    kinds = [type(e).__name__ for e in events]
    assert kinds == ["PlayerEliminated", "DayWithoutElimination", "PhaseStarted"]
    assert events[1].reason == "vote_cancelled" and t.phase is Phase.NIGHT
    assert not t.events(VoteResult)


def test_CLUB_Q17_disqualification_after_the_vote_cancels_the_next_days_vote():
    t = club_at_day(1, host=True)
    t.speeches({1: 5, 2: 7})
    t.vote({s: 5 for s in range(1, 7)})
    assert t.phase is Phase.LAST_WORD
    t.do(Disqualify(user_id=HOST, player=uid(9)))  # during №5's last word
    t.last_words()
    t.night(kill=MISS)
    t.speeches({2: 6, 3: 7})
    assert t.events(DayWithoutElimination)[-1].reason == "vote_cancelled"
    t.night(kill=MISS)
    t.speeches({3: 6, 4: 7})
    assert t.phase is Phase.VOTING  # day 3 votes again


def test_CLUB_Q17_disqualification_at_night_cancels_the_next_days_vote():
    for t in (club_game(host=True), club_at_night(2, host=True)):
        t.do(Disqualify(user_id=HOST, player=uid(10)))
        t.night(kill=MISS)
        day = t.state.day
        t.speeches({t.speaker: 6})
        assert t.events(DayWithoutElimination)[-1].reason == "vote_cancelled"
        assert not [e for e in t.events(PlayerEliminated) if e.cause == "sole_nominee"], day


def test_CLUB_Q17_win_check_runs_at_once():
    t = club_at_day(1, host=True)
    t.do(Disqualify(user_id=HOST, player=uid(2)))
    t.do(Disqualify(user_id=HOST, player=uid(3)))
    events = t.do(Disqualify(user_id=HOST, player=uid(1)))
    assert isinstance(events[-1], GameEnded) and events[-1].winner is Team.TOWN
    assert t.phase is Phase.ENDED and t.state.timer is None


def test_CLUB_Q17_a_disqualified_player_acts_no_more_and_his_check_is_void():
    t = club_at_night(2, host=True)
    t.night(kill=MISS, don_check=4, close=False)
    t.do(Disqualify(user_id=HOST, player=uid(1)))
    t.refuse(NightAction(user_id=uid(1), action="don_check", target=uid(5)), PlayerDead)
    events = t.timeout()
    assert not [e for e in events if isinstance(e, DonCheckResult)]


def test_CLUB_X06_a_deciding_disqualification_ends_the_game_even_in_a_last_word():
    t = club_at_day(1, host=True)
    t.do(Disqualify(user_id=HOST, player=uid(2)))
    t.do(Disqualify(user_id=HOST, player=uid(3)))
    t.speeches({4: 6})  # day 1's vote is cancelled
    t.night()
    t.speeches({4: 6})  # day 2: №6, the lone nominee, leaves
    assert t.phase is Phase.LAST_WORD and t.speaker == 6
    events = t.do(Disqualify(user_id=HOST, player=uid(1)))
    assert isinstance(events[-1], GameEnded) and t.phase is Phase.ENDED


def test_CLUB_X07_judge_tool_refusals():
    t = lobby(10, ruleset="club", host=True)
    t.refuse(IssueFoul(user_id=HOST, player=uid(3)), PhaseClosed)
    party = started_game(7, "MMCDTTT")
    party.refuse(IssueFoul(user_id=None, player=uid(3)), NotAllowed)
    party.refuse(Disqualify(user_id=None, player=uid(3)), NotAllowed)
    t = club_at_day(1, host=True)
    t.refuse(IssueFoul(user_id=HOST, player=999), NotInGame)
    t.do(IssueFoul(user_id=HOST, player=uid(3), reason="x" * 500))
    assert len(t.last[0].reason) == 200
    t.do(Pause(user_id=uid(2)))
    t.refuse(IssueFoul(user_id=HOST, player=uid(3)), GamePaused)
    auto = club_at_day(1)  # no judge: a group admin who also plays
    auto.do(MarkInactive(player=uid(2), reason="away"))
    auto.do(IssueFoul(user_id=uid(2), player=uid(5)))
    auto.do(CancelFoul(user_id=uid(2), player=uid(5)))
    assert not auto.state.players[uid(2)].active  # the judge's tools are not presence
