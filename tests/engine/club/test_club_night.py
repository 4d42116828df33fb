"""Club preset: the meeting, the blind shot, the Don's and the Sheriff's checks, the morning
(docs/rules/club.md)."""

from __future__ import annotations

from engine import (
    PUBLIC,
    AlreadyActed,
    CheckResult,
    Disqualify,
    DonCheckResult,
    EndSpeech,
    HostNext,
    InvalidTarget,
    MafiaPicks,
    MafiaRevealed,
    MarkInactive,
    NightAction,
    NightActionAccepted,
    NightResult,
    Nominate,
    NoNightAction,
    NotAllowed,
    Pause,
    Phase,
    PhaseClosed,
    PhaseStarted,
    PlayerDead,
    PlayerEliminated,
    PlayerInactive,
    Private,
    RelayedMessage,
    RelayMessage,
    Resume,
    TargetNotAlive,
    Team,
    TeamChat,
    TurnSkipped,
    legal_actions,
)

from ..helpers import club_at_day, club_at_night, club_game, club_vote_out, uid

MAFIA_CHAT = TeamChat(Team.MAFIA)


def kill(t, shooter: int, target: int):
    return t.do(NightAction(user_id=uid(shooter), action="kill", target=uid(target)))


def test_CLUB_06_nobody_speaks_at_night():
    t = club_at_night(2)
    t.refuse(Nominate(user_id=uid(5), target=uid(6)), PhaseClosed)
    t.refuse(EndSpeech(user_id=uid(5)), PhaseClosed)
    assert not legal_actions(t.state, uid(5)).end_speech
    assert not legal_actions(t.state, uid(5)).nominate


def test_CLUB_08_a_sixty_second_meeting_with_the_relay_open():
    t = club_game()
    assert t.phase is Phase.NIGHT and t.state.night == 1
    assert (t.state.timer.kind, t.state.timer.seconds) == ("meeting", 60)
    events = t.do(RelayMessage(user_id=uid(2), text="shoot 6 then 9"))
    assert events == [RelayedMessage(sender=uid(2), text="shoot 6 then 9", audience=MAFIA_CHAT)]
    t.refuse(RelayMessage(user_id=uid(5), text="hello?"), NotAllowed)
    t.timeout()  # the minute is over: morning, day 1
    assert t.phase is Phase.SPEECH and t.state.day == 1
    t.refuse(RelayMessage(user_id=uid(2), text="by day"), PhaseClosed)


def test_CLUB_08_the_meeting_runs_its_full_minute():
    t = club_game()
    for p in t.state.alive():
        t.do(NightAction(user_id=p.user_id, action="sleep"))
    assert t.phase is Phase.NIGHT and t.state.timer.kind == "meeting"


def test_CLUB_09_the_don_shows_himself_and_sends_the_plan():
    t = club_game("TMTSDTMTTT")
    revealed = t.events(MafiaRevealed)[0]
    assert revealed.audience == MAFIA_CHAT
    assert revealed.members == (uid(2), uid(5), uid(7)) and revealed.don == uid(5)
    plan = t.do(RelayMessage(user_id=uid(5), text="/plan 6 9 3"))
    assert plan[0].sender == uid(5) and plan[0].audience == MAFIA_CHAT


def test_CLUB_10_later_nights_are_blind_and_the_relay_is_closed():
    t = club_at_night(2)
    t.refuse(RelayMessage(user_id=uid(1), text="on 6"), PhaseClosed)
    mark = t.mark()
    kill(t, 1, 6)
    kill(t, 2, 6)
    assert not t.events(MafiaPicks, since=mark)
    for e in t.events(NightActionAccepted, since=mark):
        assert e.audience == Private(e.user_id)


def test_CLUB_11_no_check_on_night_0_only_a_greeting():
    t = club_game()
    sheriff = legal_actions(t.state, uid(4))
    assert sheriff.sleep and sheriff.night_action is None
    t.refuse(NightAction(user_id=uid(4), action="sheriff_check", target=uid(1)), NoNightAction)
    t.refuse(NightAction(user_id=uid(1), action="don_check", target=uid(4)), NoNightAction)
    t.do(NightAction(user_id=uid(4), action="sleep"))  # the greeting: acknowledged, nothing else
    assert t.last == [NightActionAccepted(user_id=uid(4), action="sleep", target=None,
                                          audience=Private(uid(4)))]


def test_CLUB_Q13_night_0_has_no_shot_and_no_check():
    t = club_game()
    for seat in (1, 2, 3):
        assert legal_actions(t.state, uid(seat)).night_action is None
        t.refuse(NightAction(user_id=uid(seat), action="kill", target=uid(6)), NoNightAction)
    t.timeout()
    assert t.events(NightResult) == [NightResult(killed=None)]
    assert not t.events(CheckResult) and not t.events(DonCheckResult)


def test_CLUB_12_morning_then_day_1():
    t = club_game()
    events = t.timeout()
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("NightResult") < kinds.index("PhaseStarted")
    day = [e for e in events if isinstance(e, PhaseStarted)][-1]
    assert (day.phase, day.day, day.speaker) == ("speech", 1, uid(1))


def test_CLUB_27_night_falls_after_the_vote_without_a_ready_gate():
    t = club_at_day(1)
    club_vote_out(t, 7)
    night = t.events(PhaseStarted)[-1]
    assert (night.phase, night.night, night.purpose) == ("night", 2, "night")
    assert night.seconds == 45 and not [e for e in t.events(PhaseStarted) if e.phase == "ready"]


def test_CLUB_28_every_black_shoots_any_living_seat():
    t = club_at_night(2)
    everyone = tuple(p.user_id for p in t.state.alive())
    for seat in (1, 2, 3):
        la = legal_actions(t.state, uid(seat))
        assert la.night_action == "kill" and la.night_targets == everyone  # teammates too
    assert legal_actions(t.state, uid(1)).night_extra == "don_check"
    t.refuse(NightAction(user_id=uid(2), action="sleep"), NoNightAction)  # no Sleep for blacks
    kill(t, 2, 2)  # himself: accepted (a gesture at his own number)
    t.refuse(NightAction(user_id=uid(5), action="kill", target=uid(6)), NoNightAction)


def test_CLUB_29_all_blacks_on_one_seat_kill_it():
    t = club_at_night(2)
    t.night(kill=6)
    assert t.events(NightResult)[-1] == NightResult(killed=uid(6))
    assert t.events(PlayerEliminated)[-1] == PlayerEliminated(user_id=uid(6), cause="night")


def test_CLUB_30_one_missing_or_different_shot_is_a_miss():
    for picks in ({1: 6, 2: 6}, {1: 6, 2: 6, 3: 7}, {1: 6, 2: 7, 3: 8}):
        t = club_at_night(2)
        t.night(kill=picks)
        assert t.events(NightResult)[-1] == NightResult(killed=None), picks
        assert t.alive_seats() == list(range(1, 11))


def test_CLUB_30_an_inactive_black_must_shoot_too():
    t = club_at_night(2)
    t.do(MarkInactive(player=uid(3), reason="blocked"))
    t.night(kill={1: 6, 2: 6})
    assert t.events(NightResult)[-1] == NightResult(killed=None)


def test_CLUB_31_don_learns_if_his_target_is_the_sheriff():
    for target, answer in ((4, True), (7, False)):
        t = club_at_night(2)
        mark = t.mark()
        t.night(don_check=target)
        result = t.events(DonCheckResult, since=mark)
        assert result == [DonCheckResult(checker=uid(1), target=uid(target), is_sheriff=answer,
                                         audience=Private(uid(1)))]


def test_CLUB_32_sheriff_learns_red_or_black():
    for target, black in ((1, True), (2, True), (7, False)):
        t = club_at_night(2)
        mark = t.mark()
        t.night(check=target)
        assert t.events(CheckResult, since=mark) == [
            CheckResult(checker=uid(4), target=uid(target), is_mafia=black,
                        audience=Private(uid(4)))]


def test_CLUB_33_shot_then_don_then_sheriff_then_morning():
    t = club_at_night(2)
    mark = t.mark()
    t.night(kill=4, don_check=4, check=1, close=False)
    assert t.phase is Phase.NIGHT  # everyone acted: the night still runs its full length
    assert not t.events(CheckResult, since=mark) and not t.events(DonCheckResult, since=mark)
    events = t.timeout()
    kinds = [type(e).__name__ for e in events]
    assert kinds[:4] == ["DonCheckResult", "CheckResult", "NightResult", "PlayerEliminated"]
    assert events[2] == NightResult(killed=uid(4))


def test_CLUB_34_night_victim_gets_a_last_minute():
    t = club_at_night(2)
    t.night(kill=6)
    turn = t.events(PhaseStarted)[-1]
    assert (turn.phase, turn.speaker, turn.seconds) == ("last_word", uid(6), 60)
    t.end_turn()
    day = t.events(PhaseStarted)[-1]
    assert (day.phase, day.day, day.speaker) == ("speech", 2, uid(2))


def test_CLUB_40_check_answers_reach_only_the_checker():
    t = club_at_night(2)
    t.night(don_check=4, check=2)
    for e in t.events():
        if isinstance(e, (CheckResult, DonCheckResult)):
            assert e.audience == Private(e.checker)
        assert not (e.audience == PUBLIC and isinstance(e, (CheckResult, DonCheckResult)))
    assert len(t.events(CheckResult)) == len(t.events(DonCheckResult)) == 1


def test_CLUB_Q09_a_shot_is_final_and_the_night_has_a_fixed_length():
    t = club_at_night(2)
    kill(t, 1, 6)
    t.refuse(NightAction(user_id=uid(1), action="kill", target=uid(7)), AlreadyActed)
    t.refuse(NightAction(user_id=uid(1), action="kill", target=uid(6)), AlreadyActed)
    t.night(kill=6, close=False)
    assert t.phase is Phase.NIGHT and t.state.timer.kind == "night"
    assert legal_actions(t.state, uid(1)).night_action == "don_check"  # his shot is spent
    assert legal_actions(t.state, uid(2)).night_action is None
    t.timeout()
    assert t.events(NightResult)[-1].killed == uid(6)


def test_CLUB_Q10_a_checker_shot_that_night_still_learns():
    t = club_at_night(2)
    t.night(kill=4, check=2)  # the Sheriff is the victim
    assert t.events(CheckResult)[-1].checker == uid(4)
    t = club_at_night(2)
    t.night(kill=1, don_check=7)  # the blacks shoot their own Don
    assert t.events(DonCheckResult)[-1].checker == uid(1)
    assert t.events(NightResult)[-1].killed == uid(1)


def test_CLUB_Q10_night_length_does_not_depend_on_who_is_alive():
    t = club_at_day(1)
    club_vote_out(t, 4)  # the Sheriff leaves
    nights = [e for e in t.events(PhaseStarted) if e.phase == "night"]
    assert nights[-1].seconds == 45
    t.night(kill={1: 5, 2: 5, 3: 5}, close=False)
    assert t.phase is Phase.NIGHT  # nobody is awaited, yet the night runs its length


def test_CLUB_Q11_don_checks_only_non_blacks():
    t = club_at_night(2)
    la = legal_actions(t.state, uid(1))
    assert la.night_extra_targets == tuple(uid(s) for s in range(4, 11))
    for seat in (1, 2, 3):
        t.refuse(NightAction(user_id=uid(1), action="don_check", target=uid(seat)),
                 InvalidTarget)
    t.refuse(NightAction(user_id=uid(2), action="don_check", target=uid(4)), NoNightAction)


def test_CLUB_Q12_sheriff_checks_any_other_living_player_and_may_recheck():
    t = club_at_day(1)
    club_vote_out(t, 9)
    la = legal_actions(t.state, uid(4))
    assert la.night_action == "sheriff_check" and la.sleep
    assert la.night_targets == tuple(uid(s) for s in (1, 2, 3, 5, 6, 7, 8, 10))
    t.refuse(NightAction(user_id=uid(4), action="sheriff_check", target=uid(4)), InvalidTarget)
    t.refuse(NightAction(user_id=uid(4), action="sheriff_check", target=uid(9)), TargetNotAlive)
    t.night(check=1)
    t.to_night(3)
    t.night(check=1)  # a recheck
    assert [e.target for e in t.events(CheckResult)] == [uid(1), uid(1)]


def test_CLUB_X02_one_fixed_night_resolved_at_its_deadline():
    t = club_at_night(2)
    assert t.state.timer.kind == "night" and t.state.timer.seconds == 45
    t.night(kill=6, don_check=5, check=3, close=False)
    t.refuse(NightAction(user_id=uid(1), action="don_check", target=uid(9)), AlreadyActed)
    t.refuse(NightAction(user_id=uid(4), action="sheriff_check", target=uid(2)), AlreadyActed)
    assert t.phase is Phase.NIGHT
    t.timeout()
    assert t.events(NightResult)[-1].killed == uid(6)


def test_CLUB_X03_the_hosts_next_closes_the_night():
    t = club_at_night(2, host=True)
    kill(t, 1, 6)
    kill(t, 2, 6)
    kill(t, 3, 6)
    t.do(NightAction(user_id=uid(4), action="sleep"))
    events = t.do(HostNext(user_id=t.state.host))
    assert NightResult(killed=uid(6)) in events
    assert not any(p.misses for p in t.state.seated())  # CLUB-X04: nights count no misses


def test_CLUB_X04_missed_nights_never_make_a_player_inactive():
    t = club_game()
    for p in t.state.alive():
        if p.seat != 5:
            t.do(NightAction(user_id=p.user_id, action="sleep"))
    t.timeout()  # the meeting: seat 5 did not tap
    t.speeches()
    t.night(sleep_skip=(5,))  # nor tonight
    assert t.events(PlayerInactive) == [] and t.state.players[uid(5)].active
    # lost connection still comes from the shell, and skips his speech
    t.do(MarkInactive(player=uid(5), reason="blocked"))
    mark = t.mark()
    t.speeches()
    assert t.events(TurnSkipped, since=mark) == [TurnSkipped(user_id=uid(5))]


def test_CLUB_X10_a_target_gone_before_dawn_is_a_miss():
    t = club_at_night(2)
    t.night(kill=6, close=False)
    t.do(Disqualify(user_id=None, player=uid(6)))
    t.timeout()
    assert t.events(NightResult)[-1] == NightResult(killed=None)
    # the Don is out before dawn: the living blacks' agreement decides
    t = club_at_night(2)
    t.night(kill=7, don_check=4, close=False)
    t.do(Disqualify(user_id=None, player=uid(1)))
    events = t.timeout()
    assert NightResult(killed=uid(7)) in events
    assert not [e for e in events if isinstance(e, DonCheckResult)]


def test_CLUB_X11_the_meeting_relay_details():
    t = club_game()
    long = t.do(RelayMessage(user_id=uid(1), text="x" * 1500))
    assert len(long[0].text) == 1000
    t.do(Pause(user_id=uid(5), remaining=30))
    t.do(RelayMessage(user_id=uid(3), text="still talking during the pause"))
    t.do(Resume(user_id=uid(5)))
    assert (t.state.timer.kind, t.state.timer.seconds) == ("meeting", 30)
    t.do(Disqualify(user_id=None, player=uid(2)))
    t.refuse(RelayMessage(user_id=uid(2), text="from the grave"), PlayerDead)
