"""The forum preset's day: the discussion, the one vote, ties, last words (docs/rules/forum.md)."""

from __future__ import annotations

from engine import (
    AlreadyActed,
    BallotCast,
    CastVote,
    CheckRevealed,
    DayWithoutElimination,
    EndSpeech,
    ForumPhase,
    HostDecide,
    HostNext,
    InvalidTarget,
    MarkReady,
    NameSuspect,
    NightAction,
    NotAllowed,
    NotYourTurn,
    Phase,
    PhaseClosed,
    PhaseStarted,
    PlayerDead,
    PlayerEliminated,
    RevealCheck,
    Role,
    SuspectNamed,
    TargetNotAlive,
    TieRevote,
    VoteResult,
    WarningIssued,
    legal_actions,
)

from ..forum_helpers import forum_at_day
from ..helpers import uid

DEAL = "MMCDTTTT"  # 1-2 Mafia, 3 Commissar, 4 Doctor, 5-8 civilians


def out(t, since: int) -> list[tuple[int, str]]:
    return [(t.state.players[e.user_id].seat, e.cause) for e in t.events(PlayerEliminated, since)]


def test_FORUM_07_the_most_votes_leave_for_good():
    t = forum_at_day(DEAL)
    m = t.mark()
    t.ballot({1: 5, 2: 5, 3: 1, 4: 5, 5: 1, 6: 5, 7: 1, 8: 1}, close=False)  # all in: it closes
    result = t.events(VoteResult, m)[0]
    assert result.tally == ((uid(1), (uid(3), uid(5), uid(7), uid(8))),
                            (uid(5), (uid(1), uid(2), uid(4), uid(6))))
    assert result.leaders == (uid(1), uid(5)) and not t.events(PlayerEliminated, m)
    t = forum_at_day(DEAL)
    m = t.mark()
    t.ballot({1: 5, 2: 5, 3: 5, 4: 1, 5: 1, 6: 5, 7: 5, 8: 5})
    assert out(t, m) == [(5, "vote")] and t.events(VoteResult, m)[0].leaders == (uid(5),)
    t.last_words()
    t.refuse(NightAction(user_id=uid(5), action="sleep"), PlayerDead)


def test_FORUM_08_one_vote_that_may_change():
    t = forum_at_day(DEAL)
    t.debate()
    t.do(CastVote(user_id=uid(3), target=uid(2)))
    t.do(CastVote(user_id=uid(3), target=uid(5)))
    assert t.last == [BallotCast(voter=uid(3), target=uid(5), stage="vote",
                                 votes=((uid(3), uid(5)),))]
    assert legal_actions(t.state, uid(3)).day_vote_mark == uid(5)
    m = t.mark()
    t.timeout()
    assert t.events(VoteResult, m)[0].tally == ((uid(5), (uid(3),)),)


def test_FORUM_09_a_vote_names_a_seated_player():
    t = forum_at_day(DEAL)
    t.debate()
    la = legal_actions(t.state, uid(1))
    assert la.day_vote == tuple(uid(s) for s in range(2, 9)) and la.day_vote_mark is None
    t.refuse(CastVote(user_id=uid(1), target=999), TargetNotAlive)


def test_FORUM_10_abstaining_is_forbidden_and_earns_a_warning():
    t = forum_at_day(DEAL)
    m = t.mark()
    t.ballot({1: 5, 2: 5, 3: 5, 4: 5, 5: 1, 6: 5})
    warned = [(t.state.players[e.player].seat, e.count, e.by, e.reason)
              for e in t.events(WarningIssued, m)]
    assert warned == [(7, 1, None, "no_vote"), (8, 1, None, "no_vote")]
    assert out(t, m) == [(5, "vote")]


def test_FORUM_11_a_tie_goes_to_a_revote_among_the_tied():
    t = forum_at_day(DEAL)
    m = t.mark()
    t.ballot({1: 5, 2: 5, 3: 6, 4: 6, 5: 6, 6: 5, 7: 8, 8: 7})
    assert t.events(TieRevote, m) == [TieRevote(candidates=(uid(5), uid(6)))]
    assert t.phase is ForumPhase.BALLOT and t.last[-1].purpose == "revote"
    assert legal_actions(t.state, uid(1)).day_vote == (uid(5), uid(6))
    t.refuse(CastVote(user_id=uid(1), target=uid(7)), InvalidTarget)
    m = t.mark()
    t.ballot({1: 5, 2: 5, 3: 6, 4: 5, 7: 5, 8: 6})
    assert out(t, m) == [(5, "vote")]


def test_FORUM_12_the_tied_do_not_vote_in_the_revote():
    t = forum_at_day(DEAL)
    t.ballot({1: 5, 2: 5, 3: 6, 4: 6, 5: 6, 6: 5, 7: 8, 8: 7})
    t.refuse(CastVote(user_id=uid(5), target=uid(6)), NotAllowed)
    assert legal_actions(t.state, uid(5)).day_vote == ()
    m = t.mark()
    t.ballot({1: 5, 2: 5, 3: 6, 4: 6, 7: 6, 8: 5}, close=False)  # every voter in: closes
    assert not [e for e in t.events(WarningIssued, m)]  # the tied owe no vote


def test_FORUM_13_town_status_gets_a_last_word():
    for seat in (4, 5):  # the Doctor, a civilian
        t = forum_at_day(DEAL)
        t.ballot({v: seat if v != seat else 1 for v in range(1, 9)})
        assert t.phase is Phase.LAST_WORD and t.speaker == seat
        assert t.state.timer.kind == "last_word"


def test_FORUM_14_a_suspect_named_in_the_last_word_is_advice_only():
    t = forum_at_day(DEAL)
    t.ballot({v: 5 if v != 5 else 1 for v in range(1, 9)})
    t.do(NameSuspect(user_id=uid(5), target=uid(2)))
    assert t.last == [SuspectNamed(user_id=uid(5), target=uid(2))]
    t.refuse(NameSuspect(user_id=uid(5), target=uid(1)), AlreadyActed)
    t.refuse(NameSuspect(user_id=uid(6), target=uid(1)), NotYourTurn)
    t.last_words()
    t.to_day(2)
    t.debate()
    assert t.state.vote.votes == {}


def test_FORUM_15_a_mafioso_gets_no_last_word():
    t = forum_at_day(DEAL)
    m = t.mark()
    t.ballot({v: 1 if v != 1 else 5 for v in range(1, 9)})
    assert out(t, m) == [(1, "vote")]
    assert t.events(PlayerEliminated, m)[0].role is Role.MAFIA
    assert t.phase is Phase.NIGHT and t.state.night == 2
    assert not [e for e in t.events(PhaseStarted, m) if e.phase == "last_word"]


def test_FORUM_16_the_eliminated_leave_at_once():
    t = forum_at_day(DEAL)
    t.ballot({v: 5 if v != 5 else 1 for v in range(1, 9)})
    t.last_words()
    t.refuse(NightAction(user_id=uid(5), action="sleep"), PlayerDead)
    from engine.forum import may_write

    assert not may_write(t.state, uid(5))
    t.to_day(2)
    assert may_write(t.state, uid(6)) and not may_write(t.state, uid(5))
    t.refuse(MarkReady(user_id=uid(5)), PlayerDead)


def test_FORUM_21_the_leaving_commissar_publishes_one_check():
    t = forum_at_day(DEAL, 1)
    t.to_night(2)
    t.act(3, "check", 1)
    t.fnight()
    t.to_night(3)
    t.act(3, "check", 5)
    t.fnight()
    t.ballot({v: 3 if v != 3 else 1 for v in t.alive_seats()})
    assert t.speaker == 3
    assert legal_actions(t.state, uid(3)).reveal_check == (uid(1), uid(5))
    t.refuse(RevealCheck(user_id=uid(3), target=uid(2)), InvalidTarget)
    t.do(RevealCheck(user_id=uid(3), target=uid(1)))
    assert t.last == [CheckRevealed(user_id=uid(3), target=uid(1), is_mafia=True)]
    t.refuse(RevealCheck(user_id=uid(3), target=uid(5)), AlreadyActed)
    assert legal_actions(t.state, uid(3)).reveal_check == ()


def test_FORUM_20_no_check_is_published_by_day():
    t = forum_at_day(DEAL)
    t.to_night(2)
    t.act(3, "check", 1)
    t.fnight()
    t.refuse(RevealCheck(user_id=uid(3), target=uid(1)), PhaseClosed)
    t.ballot({v: 5 if v != 5 else 1 for v in t.alive_seats()})
    t.refuse(RevealCheck(user_id=uid(5), target=uid(1)), NotAllowed)  # not the Commissar


def test_FORUM_52_one_vote_a_day_then_night():
    t = forum_at_day(DEAL)
    assert t.phase is ForumPhase.DEBATE and t.state.timer.kind == "forum_day"
    t.ballot({v: 5 if v != 5 else 1 for v in range(1, 9)})
    t.last_words()
    assert t.phase is Phase.NIGHT and t.state.night == 2
    t.refuse(CastVote(user_id=uid(1), target=uid(6)), PhaseClosed)


def test_FORUM_Q05_no_self_vote_and_the_last_vote_counts():
    t = forum_at_day(DEAL)
    t.debate()
    t.refuse(CastVote(user_id=uid(3), target=uid(3)), InvalidTarget)
    assert uid(3) not in legal_actions(t.state, uid(3)).day_vote
    for target in (4, 6, 5):
        t.do(CastVote(user_id=uid(3), target=uid(target)))
    assert t.state.vote.votes == {uid(3): uid(5)}


def test_FORUM_Q06_a_second_tie_or_a_whole_table_tie_is_nobody():
    t = forum_at_day(DEAL)
    t.ballot({1: 5, 2: 5, 3: 6, 4: 6, 5: 6, 6: 5, 7: 8, 8: 7})
    m = t.mark()
    t.ballot({1: 5, 2: 6, 3: 5, 4: 6})
    assert t.events(DayWithoutElimination, m) == [
        DayWithoutElimination(reason="tie_again", candidates=(uid(5), uid(6)))]
    assert t.phase is Phase.NIGHT
    t = forum_at_day("MCTT")
    m = t.mark()
    t.ballot({1: 2, 2: 3, 3: 4, 4: 1})
    assert t.events(DayWithoutElimination, m)[0].reason == "all_tied"
    assert not t.events(TieRevote, m)


def test_FORUM_Q06_the_host_may_settle_a_second_tie():
    t = forum_at_day(DEAL, host=True)
    t.do(HostNext(user_id=t.state.host))  # the host ends the discussion
    t.ballot({1: 5, 2: 5, 3: 6, 4: 6, 5: 6, 6: 5, 7: 8, 8: 7})
    t.ballot({1: 5, 2: 6, 3: 5, 4: 6})
    assert t.phase is ForumPhase.BALLOT and t.last[-1].purpose == "host"
    host = t.state.host
    assert legal_actions(t.state, host).host_decide == (uid(5), uid(6))
    t.refuse(HostDecide(user_id=uid(1), target=uid(5)), NotAllowed)
    t.refuse(HostDecide(user_id=host, target=uid(7)), InvalidTarget)
    t.refuse(CastVote(user_id=uid(1), target=uid(5)), PhaseClosed)
    m = t.mark()
    t.do(HostDecide(user_id=host, target=uid(6)))
    assert out(t, m) == [(6, "host_decision")]
    t2 = forum_at_day(DEAL, host=True)
    t2.do(HostNext(user_id=t2.state.host))
    t2.ballot({1: 5, 2: 5, 3: 6, 4: 6, 5: 6, 6: 5, 7: 8, 8: 7})
    t2.ballot({1: 5, 2: 6, 3: 5, 4: 6})
    t2.do(HostDecide(user_id=t2.state.host))
    assert t2.last[0] == DayWithoutElimination(reason="host_spared",
                                               candidates=(uid(5), uid(6)))


def test_FORUM_Q07_anyone_else_living_may_be_voted_for():
    t = forum_at_day(DEAL)
    t.ballot({v: 5 if v != 5 else 1 for v in range(1, 9)})
    t.last_words()
    t.to_day(2)
    t.debate()
    assert uid(5) not in legal_actions(t.state, uid(1)).day_vote
    t.refuse(CastVote(user_id=uid(1), target=uid(5)), TargetNotAlive)


def test_FORUM_Q08_the_card_is_shown_on_leaving():
    t = forum_at_day(DEAL)
    m = t.mark()
    t.ballot({v: 3 if v != 3 else 1 for v in range(1, 9)})
    e = t.events(PlayerEliminated, m)[0]
    assert e.audience.kind == "public" and e.role is Role.COMMISSAR


def test_FORUM_Q09_last_words_by_role_and_cause():
    from engine import Disqualify

    t = forum_at_day(DEAL)
    t.to_night(2)
    m = t.mark()
    t.fnight(kill=6)  # a night victim
    assert t.phase is Phase.LAST_WORD and t.speaker == 6
    t.last_words()
    t.do(Disqualify(user_id=None, player=uid(7), reason="insult"))
    assert t.phase is ForumPhase.DEBATE and (7, "disqualified") in out(t, m)


def test_FORUM_X10_ready_to_vote_opens_the_ballot():
    t = forum_at_day(DEAL)
    for seat in range(1, 8):
        t.do(MarkReady(user_id=uid(seat)))
    assert t.phase is ForumPhase.DEBATE and t.last[-1].waiting == (uid(8),)
    t.refuse(MarkReady(user_id=uid(1)), AlreadyActed)
    t.do(MarkReady(user_id=uid(8)))
    assert t.phase is ForumPhase.BALLOT and t.state.timer.kind == "forum_vote"
    t = forum_at_day(DEAL)
    t.timeout()
    assert t.phase is ForumPhase.BALLOT


def test_FORUM_X11_the_ballot_closes_once_every_active_voter_voted():
    from engine import MarkInactive

    t = forum_at_day(DEAL)
    t.debate()
    t.do(MarkInactive(player=uid(8), reason="blocked"))
    for v in range(1, 8):
        t.do(CastVote(user_id=uid(v), target=uid(5 if v != 5 else 1)))
    assert t.phase is Phase.LAST_WORD  # nobody waits for the inactive seat 8


def test_FORUM_X12_the_hosts_next_closes_every_phase():
    t = forum_at_day(DEAL, host=True)
    host = t.state.host
    t.refuse(HostNext(user_id=uid(1)), NotAllowed)
    t.do(HostNext(user_id=host))
    assert t.phase is ForumPhase.BALLOT
    t.do(CastVote(user_id=uid(1), target=uid(5)))
    t.do(HostNext(user_id=host))
    assert t.phase is Phase.LAST_WORD
    t.do(HostNext(user_id=host))
    assert t.phase is Phase.NIGHT
    t.do(HostNext(user_id=host))
    assert t.phase is ForumPhase.DEBATE and t.state.day == 2


def test_FORUM_X13_a_ballot_with_no_vote_removes_nobody():
    t = forum_at_day(DEAL)
    m = t.mark()
    t.ballot({})
    assert t.events(DayWithoutElimination, m)[0].reason == "no_votes"
    assert len(t.events(WarningIssued, m)) == 8
    t = forum_at_day(DEAL)
    t.ballot({1: 5, 2: 5, 3: 6, 4: 6, 5: 6, 6: 5, 7: 8, 8: 7})
    m = t.mark()
    t.ballot({})  # a revote nobody voted in ties its candidates again
    assert t.events(DayWithoutElimination, m)[0].reason == "tie_again"


def test_FORUM_13_the_last_word_can_be_ended_early():
    t = forum_at_day(DEAL)
    t.ballot({v: 5 if v != 5 else 1 for v in range(1, 9)})
    t.refuse(EndSpeech(user_id=uid(6)), NotYourTurn)
    t.do(EndSpeech(user_id=uid(5)))
    assert t.phase is Phase.NIGHT
