"""Party preset: pause, lost connection, host loss, technical rights (docs/rules/party.md)."""

from __future__ import annotations

import pytest

from engine import (
    AlreadyJoined,
    BecomeHost,
    CancelGame,
    CastVote,
    ChangeSettings,
    Continue,
    EndSpeech,
    GameCancelled,
    GameOver,
    GamePaused,
    HostModeEnded,
    HostNext,
    MarkActive,
    MarkInactive,
    MarkReady,
    NightAction,
    Nominate,
    NotAllowed,
    NotInGame,
    NotPaused,
    OrganiserChanged,
    Pause,
    Paused,
    PauseLimit,
    Phase,
    PhaseClosed,
    PhaseTimeout,
    PlayerActive,
    PlayerDead,
    PlayerInactive,
    RelayMessage,
    Resume,
    Resumed,
    Role,
    TakeOver,
    TurnSkipped,
    legal_actions,
)

from ..helpers import (
    HOST,
    SPECTATOR,
    eliminate_by_vote,
    game_at_day,
    game_at_night,
    lobby,
    started_game,
    uid,
)


# --- PARTY-40, Q19, X10/X11: pause ---------------------------------------------------------------
def test_PARTY_40_pause_freezes_the_timer_and_resume_rearms_it():
    t = game_at_day(7, "MMCDTTT")
    speech = t.state.timer
    (paused,) = t.do(Pause(user_id=uid(4), remaining=20))
    assert paused == Paused(by=uid(4), reason="player", remaining=20,
                            timer_seq=t.state.timer.seq, seconds=900)
    t.refuse(EndSpeech(user_id=uid(1)), GamePaused)
    assert t.do(PhaseTimeout(timer_seq=speech.seq)) == []     # the frozen deadline is dead
    assert t.state.pause is not None and t.speaker == 1
    events = t.do(Resume(user_id=uid(6)))                     # anyone living may resume
    assert Resumed(by=uid(6), auto=False) in events
    assert (t.state.timer.kind, t.state.timer.seconds) == ("speech", 20)
    assert t.state.timer.seq not in (speech.seq, paused.timer_seq)
    t.timeout()
    assert t.speaker == 2


@pytest.mark.parametrize("remaining, frozen", [(None, 60), (19.2, 20), (0.0, 1), (999, 60)])
def test_PARTY_X10_remaining_time_is_whole_seconds_within_the_timer(remaining, frozen):
    t = game_at_day(7, "MMCDTTT")
    (paused,) = t.do(Pause(user_id=uid(1), remaining=remaining))
    assert paused.remaining == frozen
    t.do(Resume(user_id=uid(1)))
    assert t.state.timer.seconds == frozen


def test_PARTY_Q19_who_may_pause_and_resume():
    t = game_at_day(7, "MMCDTTT", organiser=uid(6))
    eliminate_by_vote(t, 5)
    t.to_day(2)
    eliminate_by_vote(t, 6)                 # seat 6 is the organiser
    t.to_day(3)
    t.refuse(Pause(user_id=uid(5), remaining=10), NotAllowed)      # the dead
    t.refuse(Pause(user_id=SPECTATOR, remaining=10), NotAllowed)   # spectators
    assert not legal_actions(t.state, uid(5)).pause
    assert legal_actions(t.state, uid(6)).pause
    t.do(Pause(user_id=uid(6), remaining=10))                      # the organiser, even dead
    t.refuse(Resume(user_id=uid(5)), NotAllowed)
    t.refuse(Pause(user_id=uid(1)), GamePaused)
    t.do(Resume(user_id=uid(1)))
    t.refuse(Resume(user_id=uid(1)), NotPaused)


def test_PARTY_Q19_three_pauses_per_player():
    t = game_at_day(7, "MMCDTTT")
    for _ in range(3):
        t.do(Pause(user_id=uid(2), remaining=30))
        t.do(Resume(user_id=uid(2)))
    assert not legal_actions(t.state, uid(2)).pause
    t.refuse(Pause(user_id=uid(2), remaining=30), PauseLimit)
    t.do(Pause(user_id=uid(3), remaining=30))                      # others still may


def test_PARTY_Q19_host_pauses_without_limit():
    t = game_at_day(5, "MCDTT", host=True)
    for _ in range(5):
        t.do(Pause(user_id=HOST))
        t.do(Resume(user_id=HOST))
    assert t.phase is Phase.SPEECH


def test_PARTY_Q19_a_long_pause_resumes_by_itself():
    t = game_at_day(7, "MMCDTTT")
    t.do(Pause(user_id=uid(2), remaining=25))
    assert (t.state.timer.kind, t.state.timer.seconds) == ("pause", 900)
    events = t.timeout()
    assert Resumed(by=None, auto=True) in events
    assert t.state.pause is None and (t.state.timer.kind, t.state.timer.seconds) == ("speech", 25)


def test_PARTY_X11_what_is_accepted_while_paused():
    t = game_at_night(7, "MMCDTTT")
    t.do(Pause(user_id=uid(5), remaining=40))
    for cmd in (NightAction(user_id=uid(5), action="sleep"), MarkReady(user_id=uid(5)),
                HostNext(user_id=uid(5)), CastVote(user_id=uid(1), target=uid(2))):
        t.refuse(cmd, GamePaused)
    t.do(RelayMessage(user_id=uid(1), text="still planning"))
    t.do(ChangeSettings(user_id=uid(1), settings={"tempo": "short"}))
    t.do(MarkInactive(player=uid(7), reason="left"))
    t.do(MarkActive(user_id=uid(7)))
    t.do(Resume(user_id=uid(5)))
    assert t.state.timer.seconds == 40    # the frozen night keeps its time


def test_PARTY_X11_speaker_who_dropped_out_during_the_pause_is_skipped_on_resume():
    t = game_at_day(7, "MMCDTTT")
    t.do(Pause(user_id=uid(3), remaining=50))
    t.do(MarkInactive(player=uid(1), reason="blocked"))
    assert t.speaker == 1                 # nothing moves while paused
    t.do(Resume(user_id=uid(3)))
    assert t.speaker == 2


# --- PARTY-41/44, X17: lost connection and coming back ---------------------------------------------
def test_PARTY_41_inactive_player_stays_alive_with_his_role():
    t = game_at_day(5, "MCDTT")
    (e,) = t.do(MarkInactive(player=uid(4), reason="away"))
    assert e == PlayerInactive(user_id=uid(4), reason="away")
    p = t.state.players[uid(4)]
    assert p.alive and not p.active and p.role is Role.CIVILIAN
    t.do(MarkInactive(player=uid(3), reason="left"))
    t.do(MarkInactive(player=uid(2), reason="blocked"))
    assert not t.state.over and len(t.state.alive()) == 5   # 1 mafioso vs 4: no win
    assert t.do(MarkInactive(player=uid(4), reason="away")) == []   # already inactive
    t.refuse(MarkInactive(player=SPECTATOR, reason="left"), NotInGame)


def test_PARTY_44_any_command_brings_a_player_back():
    t = game_at_day(7, "MMCDTTT")
    t.do(MarkInactive(player=uid(3), reason="blocked"))
    assert t.do(MarkActive(user_id=uid(3))) == [PlayerActive(user_id=uid(3))]
    t.do(MarkInactive(player=uid(3), reason="blocked"))
    t.end_turn()
    t.end_turn()                          # seat 3 is skipped while inactive
    assert t.speaker == 4
    events = t.do(Pause(user_id=uid(3), remaining=10))     # any accepted command
    assert events[0] == PlayerActive(user_id=uid(3)) and t.state.players[uid(3)].active
    assert t.state.players[uid(3)].role is Role.COMMISSAR
    t.refuse(MarkActive(user_id=SPECTATOR), NotInGame)


def test_PARTY_44_the_next_turn_is_not_skipped_after_coming_back():
    t = game_at_day(7, "MMCDTTT")
    t.do(MarkInactive(player=uid(3), reason="blocked"))
    t.do(MarkActive(user_id=uid(3)))
    t.end_turn()
    t.end_turn()
    assert t.speaker == 3


def test_PARTY_44_a_vote_brings_him_back_and_counts():
    t = game_at_day(7, "MMCDTTT")
    t.speeches({1: 5, 2: 6})
    t.defences()
    t.do(MarkInactive(player=uid(4), reason="blocked"))
    events = t.do(CastVote(user_id=uid(4), target=uid(5)))
    assert events[0] == PlayerActive(user_id=uid(4)) and t.state.vote.votes == {uid(4): uid(5)}


def test_PARTY_X17_a_refused_command_does_not_bring_him_back():
    t = game_at_day(7, "MMCDTTT")
    t.do(MarkInactive(player=uid(3), reason="blocked"))
    t.refuse(Nominate(user_id=uid(3), target=uid(1)), Exception)   # not his turn: refused
    assert not t.state.players[uid(3)].active


# --- PARTY-45, Q22: the organiser's technical rights ----------------------------------------------
def test_PARTY_45_organiser_lost_rights_pass_to_the_next_active_living_seat():
    t = game_at_day(7, "MMCDTTT", organiser=uid(5))
    eliminate_by_vote(t, 6)
    t.to_day(2)
    t.do(MarkInactive(player=uid(7), reason="blocked"))
    events = t.do(MarkInactive(player=uid(5), reason="left"))
    assert OrganiserChanged(user_id=uid(1)) in events     # 6 dead, 7 inactive: wraps to 1
    assert t.state.organiser == uid(1)
    t.do(MarkActive(user_id=uid(5)))
    assert t.state.organiser == uid(1)                    # the rights do not come back


def test_PARTY_45_no_transfer_in_host_mode():
    t = game_at_day(5, "MCDTT", host=True)
    events = t.do(MarkInactive(player=uid(1), reason="left"))
    assert not [e for e in events if isinstance(e, OrganiserChanged)]


def test_PARTY_Q22_a_group_admin_takes_the_rights():
    t = game_at_day(5, "MCDTT")
    assert t.do(TakeOver(user_id=SPECTATOR)) == [OrganiserChanged(user_id=SPECTATOR)]
    assert t.state.organiser == SPECTATOR and legal_actions(t.state, SPECTATOR).pause
    lobby(5).refuse(TakeOver(user_id=SPECTATOR), PhaseClosed)


# --- PARTY-46, Q22, X02: the human host -------------------------------------------------------------
def test_PARTY_46_lost_host_pauses_the_game_until_he_is_back():
    t = game_at_day(5, "MCDTT", host=True)
    events = t.do(MarkInactive(player=HOST, reason="blocked"))
    assert PlayerInactive(user_id=HOST, reason="blocked") in events
    paused = events[-1]
    assert isinstance(paused, Paused) and paused.reason == "host_lost" and paused.seconds == 600
    t.refuse(Resume(user_id=uid(1)), NotAllowed)           # the players cannot resume
    t.refuse(EndSpeech(user_id=uid(1)), GamePaused)
    assert not legal_actions(t.state, uid(1)).resume and legal_actions(t.state, HOST).resume
    events = t.do(MarkActive(user_id=HOST))
    assert events == [PlayerActive(user_id=HOST), Resumed(by=HOST, auto=True)]
    assert (t.state.timer.kind, t.state.timer.seconds) == ("speech", 60)


def test_PARTY_46_host_resume_command_brings_him_back():
    t = game_at_day(5, "MCDTT", host=True)
    t.do(MarkInactive(player=HOST, reason="blocked"))
    events = t.do(Resume(user_id=HOST))
    assert Resumed(by=HOST, auto=True) in events and t.state.pause is None
    assert t.state.host_active


def test_PARTY_X02_host_waited_for_600_s_then_automatic_mode():
    t = game_at_day(5, "MCDTT", host=True)
    t.do(MarkInactive(player=HOST, reason="blocked"))
    assert (t.state.timer.kind, t.state.timer.seconds) == ("host_wait", 600)
    events = t.timeout()
    assert HostModeEnded(by=None, reason="host_timeout") in events
    assert Resumed(by=None, auto=True) in events
    assert t.state.host is None and t.state.pause is None and t.speaker == 1
    t.speeches()
    assert t.phase is Phase.READY and t.state.timer.kind == "ready_wait"   # automatic gates


def test_PARTY_X02_host_lost_at_the_ready_gate():
    t = started_game(5, "MCDTT", host=True)
    t.ready_all()
    t.do(MarkInactive(player=HOST, reason="left"))
    t.timeout()                            # host_wait over: everyone is ready, the night starts
    assert t.phase is Phase.NIGHT and t.state.host is None


def test_PARTY_X20_a_running_pause_becomes_the_wait_for_the_host():
    t = game_at_day(5, "MCDTT", host=True)
    t.do(Pause(user_id=uid(2), remaining=20))
    events = t.do(MarkInactive(player=HOST, reason="left"))
    assert Paused(by=None, reason="host_lost", remaining=20, timer_seq=t.state.timer.seq,
                  seconds=600) in events
    t.refuse(Resume(user_id=uid(2)), NotAllowed)
    t.do(MarkActive(user_id=HOST))
    assert (t.state.timer.kind, t.state.timer.seconds) == ("speech", 20)


def test_PARTY_Q22_takeover_ends_host_mode():
    t = game_at_day(5, "MCDTT", host=True)
    t.do(MarkInactive(player=HOST, reason="left"))
    events = t.do(TakeOver(user_id=SPECTATOR))
    assert events[0] == HostModeEnded(by=SPECTATOR, reason="takeover")
    assert OrganiserChanged(user_id=SPECTATOR) in events and t.state.pause is None
    assert t.state.host is None and t.state.timer.kind == "speech"


def test_PARTY_Q22_takeover_at_the_ready_gate_starts_the_automatic_wait():
    t = started_game(5, "MCDTT", host=True)
    t.ready_all()
    t.do(TakeOver(user_id=SPECTATOR))      # all ready already: the night starts now
    assert t.phase is Phase.NIGHT
    t2 = started_game(5, "MCDTT", host=True)
    t2.ready_all(skip=(5,))
    t2.do(TakeOver(user_id=SPECTATOR))
    assert t2.phase is Phase.READY and t2.state.timer.kind == "ready_wait"
    t2.do(MarkReady(user_id=uid(5)))
    assert t2.phase is Phase.NIGHT


def test_PARTY_Q18_host_next_moves_every_phase_on():
    t = game_at_day(5, "MCDTT", host=True)
    t.refuse(HostNext(user_id=uid(1)), NotAllowed)
    t.do(Nominate(user_id=uid(1), target=uid(4)))
    t.do(HostNext(user_id=HOST))
    assert t.speaker == 2
    t.do(Nominate(user_id=uid(2), target=uid(5)))
    for _ in range(6):                     # rest of the speeches, both defences
        t.do(HostNext(user_id=HOST))
    assert t.phase is Phase.VOTING and t.state.vote.current == uid(4)
    t.do(HostNext(user_id=HOST))
    assert t.state.vote.current == uid(5)
    t.do(HostNext(user_id=HOST))           # 0-0: a tie, re-defence
    t.do(HostNext(user_id=HOST))
    t.do(HostNext(user_id=HOST))
    t.do(HostNext(user_id=HOST))
    t.do(HostNext(user_id=HOST))
    assert t.phase is Phase.EXCLUDE_VOTE
    t.do(HostNext(user_id=HOST))
    assert t.phase is Phase.READY
    t.do(HostNext(user_id=HOST))
    assert t.phase is Phase.NIGHT
    assert all(p.misses == 0 for p in t.state.seated())   # the gate counted no misses
    t.do(HostNext(user_id=HOST))           # the host closes the night like its deadline
    assert t.phase is Phase.SPEECH and t.state.day == 2
    assert all(p.misses == 1 for p in t.state.seated())   # nobody acted at night


# --- X08/X09, cancel: timers, refusals, the end of the log --------------------------------------
def test_PARTY_X08_a_stale_timeout_is_a_no_op():
    t = game_at_day(7, "MMCDTTT")
    old = t.state.timer.seq
    t.end_turn()
    before = t.state
    assert t.do(PhaseTimeout(timer_seq=old)) == []
    assert t.do(PhaseTimeout(timer_seq=10_000)) == []
    after = t.state
    assert after.commands == before.commands + 2
    after.commands = before.commands
    assert after == before


def test_PARTY_X09_forged_commands_change_nothing():
    t = game_at_day(7, "MMCDTTT")
    eliminate_by_vote(t, 7)
    t.to_day(2)
    t.refuse(Nominate(user_id=uid(5), target=uid(1)), Exception)           # not his turn
    t.refuse(Nominate(user_id=uid(2), target=uid(7)), Exception)           # dead target
    t.refuse(Nominate(user_id=uid(7), target=uid(1)), Exception)           # dead nominator
    t.refuse(CastVote(user_id=uid(1), target=uid(2)), PhaseClosed)         # no vote now
    t.refuse(NightAction(user_id=uid(1), action="kill", target=uid(5)), PhaseClosed)
    t.refuse(MarkReady(user_id=uid(1)), PhaseClosed)
    t.refuse(EndSpeech(user_id=uid(7)), Exception)
    t.refuse(Resume(user_id=uid(1)), NotPaused)
    t.speeches({2: 5, 3: 6})
    t.defences()
    t.refuse(CastVote(user_id=uid(7), target=uid(5)), PlayerDead)
    t.refuse(CastVote(user_id=uid(1), target=uid(6)), Exception)           # not offered now


def test_PARTY_X22_cancelled_game_accepts_nothing_more():
    t = game_at_day(5, "MCDTT")
    t.do(Pause(user_id=uid(1), remaining=5))
    events = t.do(CancelGame(user_id=uid(1), reason="stopped"))            # even while paused
    assert events == [GameCancelled(by=uid(1), reason="stopped")]
    assert t.phase is Phase.CANCELLED and t.state.timer is None and t.state.pause is None
    t.refuse(Resume(user_id=uid(1)), GameOver)
    t.refuse(CancelGame(user_id=uid(1)), GameOver)
    assert legal_actions(t.state, uid(1)) == legal_actions(t.state, 0)


def test_PARTY_X22_a_lobby_can_expire():
    t = lobby(3)
    assert t.do(CancelGame(reason="expired")) == [GameCancelled(by=None, reason="expired")]


def test_PARTY_X09_turn_skip_event_names_no_role():
    t = game_at_day(5, "MCDTT")
    t.do(MarkInactive(player=uid(2), reason="left"))
    events = t.end_turn()
    assert events[0] == TurnSkipped(user_id=uid(2))


def test_PARTY_X23_game_with_nobody_active_is_abandoned():
    t = game_at_night(5, "MCDTT")
    for k in range(1, 5):
        t.do(MarkInactive(player=uid(k), reason="blocked"))
    assert t.state.phase is Phase.NIGHT
    # the last active player drops: nobody holds the night up, and the day cannot begin
    events = t.do(MarkInactive(player=uid(5), reason="blocked"))
    assert isinstance(events[-1], GameCancelled) and events[-1].reason == "abandoned"
    assert t.state.phase is Phase.CANCELLED and t.state.timer is None
    t.refuse(MarkActive(user_id=uid(1)), GameOver)


def test_PARTY_X23_one_active_player_keeps_the_game_going():
    t = game_at_night(5, "MCDTT")
    for k in range(1, 5):
        t.do(MarkInactive(player=uid(k), reason="blocked"))
    t.timeout()
    assert t.state.phase is Phase.SPEECH and t.state.speaker == uid(5)


def test_PARTY_X24_a_host_is_never_replaced_behind_his_back():
    t = lobby(5, host=True)
    t.refuse(BecomeHost(user_id=HOST + 1, name="Intruder"), NotAllowed)
    t.refuse(BecomeHost(user_id=HOST, name="Host again"), AlreadyJoined)
    assert t.state.host == HOST


def test_PARTY_X25_any_accepted_action_resets_the_missed_deadlines():
    t = game_at_day(5, "MCDTT")
    t.state.players[uid(2)].misses = 1  # one missed deadline so far (a night with no tap)
    t.do(EndSpeech(user_id=t.state.speaker))  # seat 1 speaks: not seat 2
    assert t.state.players[uid(2)].misses == 1
    assert t.state.speaker == uid(2)
    t.do(EndSpeech(user_id=uid(2)))  # he is here
    assert t.state.players[uid(2)].misses == 0


def test_PARTY_X25_whoever_presses_continue_is_not_counted_missing():
    t = game_at_day(5, "MCDTT")
    t.to_ready(2)
    t.timeout()  # the ready-wait is over: Continue appears
    for p in t.state.seated():
        p.misses = 1
    t.do(Continue(user_id=uid(3)))
    assert t.state.players[uid(3)].active and t.state.players[uid(3)].misses == 0
    assert not t.state.players[uid(4)].active  # a second miss in a row
