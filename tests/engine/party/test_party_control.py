"""Party preset: pause, lost connection, the organiser's technical rights (docs/rules/party.md;
the human host: test_party_host.py; refusals and the end of the log: test_party_refusals.py)."""

from __future__ import annotations

import pytest

from engine import (
    CastVote,
    ChangeSettings,
    EndSpeech,
    GamePaused,
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
    PlayerInactive,
    RelayMessage,
    Resume,
    Resumed,
    Role,
    TakeOver,
    legal_actions,
)

from ..helpers import (
    HOST,
    SPECTATOR,
    eliminate_by_vote,
    game_at_day,
    game_at_night,
    lobby,
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
