"""Party preset: stale timers, forged commands, cancelled and expired games, abandoned games,
missed deadlines (PARTY-X08/X09, X22..X25; docs/rules/party.md)."""

from __future__ import annotations

from engine import (
    AlreadyJoined,
    BecomeHost,
    CancelGame,
    CastVote,
    Continue,
    EndSpeech,
    GameCancelled,
    GameOver,
    MarkActive,
    MarkInactive,
    MarkReady,
    NightAction,
    Nominate,
    NotAllowed,
    NotPaused,
    Pause,
    Phase,
    PhaseClosed,
    PhaseTimeout,
    PlayerDead,
    Resume,
    TurnSkipped,
    legal_actions,
)

from ..helpers import HOST, eliminate_by_vote, game_at_day, game_at_night, lobby, uid


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
