"""Party preset: the human host -- lost and back, automatic mode after the wait, takeover, the
host's Next (PARTY-46, Q18, Q22, X02, X20; docs/rules/party.md)."""

from __future__ import annotations

from engine import (
    EndSpeech,
    GamePaused,
    HostModeEnded,
    HostNext,
    MarkActive,
    MarkInactive,
    MarkReady,
    Nominate,
    NotAllowed,
    OrganiserChanged,
    Pause,
    Paused,
    Phase,
    PlayerActive,
    PlayerInactive,
    Resume,
    Resumed,
    TakeOver,
    legal_actions,
)

from ..helpers import HOST, SPECTATOR, game_at_day, started_game, uid


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
