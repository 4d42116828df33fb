"""Online preset: OFFLINE, AFK and back ONLINE; spectators; the host; pauses; the log
(docs/rules/online-sport.md, ONLINE-45, 47..50, Q20, X03, X05..X09, X12..X15)."""

from __future__ import annotations

import json

from engine import (
    AddTime,
    ChooseBestMove,
    DeclareProceduralLoss,
    EndTurn,
    GameCancelled,
    GamePaused,
    HostNext,
    LiftCalled,
    MarkActive,
    MarkAfk,
    MarkInactive,
    NightAction,
    NotAllowed,
    NotInGame,
    OnlinePhase,
    Pause,
    Phase,
    PhaseClosed,
    PlayerActive,
    PlayerAfk,
    PlayerDead,
    PlayerInactive,
    RestartTurn,
    Resume,
    TapLift,
    TapVote,
    TargetNotAlive,
    UndoJudgeAction,
    command_from_dict,
    legal_actions,
    replay,
    to_dict,
)
from engine.online.actions import OnlineActions

from ..helpers import HOST, SPECTATOR, game_at_day, lobby, uid
from ..online_helpers import online_at_day, online_at_night, online_game
from ..test_purity import _mutable_ids


def offline(t, seat: int, reason: str = "blocked") -> None:
    t.do(MarkInactive(player=uid(seat), reason=reason))


def afk(t, seat: int) -> None:
    offline(t, seat)
    t.do(MarkAfk(player=uid(seat)))


def test_ONLINE_47_a_lost_connection_makes_a_player_offline():
    t = online_at_day(10)
    offline(t, 6)
    p = t.state.players[uid(6)]
    assert t.last[0] == PlayerInactive(user_id=uid(6), reason="blocked")
    assert p.alive and not p.active and not p.afk
    # OFFLINE still counts: the ballot waits for him
    t.ballot({s: 2 for s in range(1, 11) if s != 6}, close=False)
    assert t.phase is OnlinePhase.DISCUSSION


def test_ONLINE_Q20_a_missed_required_action_makes_him_offline():
    t = online_at_day(10)
    t.ballot({})  # not voting is PASS, not a missed action
    assert t.phase is Phase.NIGHT and not t.events(PlayerInactive)
    t.onight(kill=5, skip=[7])  # night 2's Sleep tap missed, the timer fires
    assert [e.user_id for e in t.events(PlayerInactive)] == [uid(7)]
    assert t.events(PlayerInactive)[-1].reason == "missed"


def test_ONLINE_48_mark_afk_turns_an_offline_player_afk():
    t = online_at_day(10)
    t.refuse(MarkAfk(player=uid(6)), NotAllowed)  # he is ONLINE: the shell's clock was stale
    offline(t, 6)
    t.do(MarkAfk(player=uid(6)))
    assert t.last == [PlayerAfk(user_id=uid(6))] and t.state.players[uid(6)].afk
    assert t.do(MarkAfk(player=uid(6))) == []  # a repeat changes nothing


def test_ONLINE_X06_the_mark_afk_contract():
    party = game_at_day(7, "MMCDTTT")
    party.do(MarkInactive(player=uid(3), reason="left"))
    party.refuse(MarkAfk(player=uid(3)), NotAllowed)  # no AFK status in this preset
    t = lobby(10, ruleset="online")
    t.refuse(MarkAfk(player=uid(3)), PhaseClosed)
    t = online_at_day(10)
    t.refuse(MarkAfk(player=SPECTATOR), NotInGame)
    t.leave_by_vote(9)
    t.refuse(MarkAfk(player=uid(9)), PlayerDead)
    # during a pause it is recorded; what it completes happens on resume
    t = online_at_night(10, 2)
    offline(t, 10)
    t.onight(kill=5, don_check=4, check=1, skip=[10], close=False)
    t.do(Pause(user_id=uid(1), remaining=30))
    t.do(MarkAfk(player=uid(10)))
    assert t.phase is Phase.NIGHT and t.state.players[uid(10)].afk
    t.do(Resume(user_id=uid(1)))
    assert t.phase is OnlinePhase.BEST_MOVE


def test_ONLINE_49_any_command_brings_him_back_online():
    t = online_at_day(10)
    afk(t, 6)
    events = t.do(TapVote(user_id=uid(6), target=uid(2)))
    assert events[0] == PlayerActive(user_id=uid(6))
    p = t.state.players[uid(6)]
    assert p.active and not p.afk and t.state.ballot.taps[uid(6)] == (uid(2), False)
    afk(t, 7)
    t.do(MarkActive(user_id=uid(7)))
    assert t.state.players[uid(7)].active and not t.state.players[uid(7)].afk
    # a refused command does not (PARTY-X17)
    afk(t, 8)
    t.refuse(TapVote(user_id=uid(8), target=SPECTATOR), TargetNotAlive)
    assert t.state.players[uid(8)].afk


def test_ONLINE_50_afk_players_are_not_required_and_out_of_n():
    t = online_game(10)
    afk(t, 10)
    t.onight(skip=[10], close=False)  # night 1 closes without him
    assert t.phase is OnlinePhase.DISCUSSION and t.state.ballot.n == 9
    t.ballot({s: 2 for s in range(1, 10)}, close=False)  # closes without his vote
    assert t.phase is Phase.LAST_WORD
    t.last_words()
    t.onight(kill=5, don_check=4, check=1, skip=[10], close=False)  # the night too
    assert t.phase is OnlinePhase.BEST_MOVE


def test_ONLINE_X03_offline_players_are_still_awaited_afk_ones_are_not():
    t = online_at_night(10, 2)
    offline(t, 7)
    t.onight(kill=5, don_check=4, check=1, skip=[7], close=False)
    assert t.phase is Phase.NIGHT  # waits for the OFFLINE civilian's Sleep
    t.do(MarkAfk(player=uid(7)))
    assert t.phase is OnlinePhase.BEST_MOVE  # AFK: the night was complete


def test_ONLINE_45_spectators_cannot_vote_or_act():
    t = online_at_day(10)
    t.refuse(TapVote(user_id=SPECTATOR, target=uid(1)), NotInGame)
    t.refuse(TapLift(user_id=SPECTATOR, lift=True), PhaseClosed)
    t.refuse(ChooseBestMove(user_id=SPECTATOR, targets=()), PhaseClosed)
    assert legal_actions(t.state, SPECTATOR) == OnlineActions()  # nothing offered


def test_ONLINE_X09_the_host_moves_every_online_phase_on():
    t = online_game(9, host=True)
    t.onight(skip=[1], close=False)
    t.do(HostNext(user_id=HOST))  # night 1: the Don's Ready is missing; nobody goes OFFLINE
    assert not t.events(PlayerInactive)
    assert t.phase is OnlinePhase.DISCUSSION
    for s in range(1, 7):
        t.tap(s, 1 if s <= 3 else 4)
    t.do(HostNext(user_id=HOST))  # the discussion: 1 and 4 tie at 9
    assert t.phase is Phase.DEFENCE
    t.do(HostNext(user_id=HOST))
    t.do(HostNext(user_id=HOST))
    assert t.phase is OnlinePhase.REVOTE
    t.do(HostNext(user_id=HOST))  # nobody voted: the same two -> lift
    assert t.events(LiftCalled)
    t.defences()
    t.do(HostNext(user_id=HOST))
    assert t.phase is Phase.NIGHT and t.state.night == 2
    t.onight(kill=5, don_check=4, check=1, close=False)
    assert t.phase is OnlinePhase.BEST_MOVE
    t.do(HostNext(user_id=HOST))
    assert t.phase is Phase.LAST_WORD
    t.refuse(HostNext(user_id=uid(1)), NotAllowed)


def test_ONLINE_X15_a_pause_freezes_the_discussion():
    t = online_at_day(10)
    t.do(Pause(user_id=uid(3), remaining=100))
    t.refuse(TapVote(user_id=uid(4), target=uid(2)), GamePaused)
    t.do(Resume(user_id=uid(5)))
    assert t.state.timer.kind == "discussion" and t.state.timer.seconds == 100
    t.timeout()
    assert t.phase is Phase.NIGHT


def test_ONLINE_X14_a_table_with_nobody_online_is_abandoned():
    t = online_game(6)
    for seat in range(1, 7):
        offline(t, seat)  # nobody reachable
    t.timeout()
    assert isinstance(t.last[-1], GameCancelled) and t.last[-1].reason == "abandoned"


def test_ONLINE_X12_the_log_replays_and_the_state_clones_cleanly():
    t = online_at_day(9)
    t.ballot({1: 4, 2: 4, 3: 4, 4: None, 5: 6, 6: 6, 7: 6, 8: 4, 9: 6}, close=False)  # 4:4, 6:4
    t.defences()
    t.tap(2, 4)
    afk(t, 9)
    st = t.state
    c = st.clone()
    assert c == st and not set(_mutable_ids(st, {})) & set(_mutable_ids(c, {}))
    log = [command_from_dict(json.loads(json.dumps(to_dict(cmd)))) for cmd in t.log]
    assert log == t.log
    state, produced = replay(log)
    assert state == st and produced == t.produced


def test_ONLINE_X07_online_commands_outside_their_phase_are_refused():
    t = online_at_day(10)
    t.refuse(NightAction(user_id=uid(1), action="kill", target=uid(5)), PhaseClosed)
    t.refuse(TapLift(user_id=uid(1), lift=True), PhaseClosed)
    t.refuse(ChooseBestMove(user_id=uid(1), targets=()), PhaseClosed)
    night = online_at_night(10, 2)
    night.refuse(TapVote(user_id=uid(1), target=uid(5)), PhaseClosed)
    party = game_at_day(7, "MMCDTTT")  # the other presets never open these phases
    party.refuse(TapVote(user_id=uid(1), target=uid(5)), PhaseClosed)
    party.refuse(TapLift(user_id=uid(1), lift=True), PhaseClosed)
    party.refuse(ChooseBestMove(user_id=uid(1), targets=()), PhaseClosed)


def test_ONLINE_X08_legal_actions_build_the_online_buttons():
    t = online_at_day(9)
    la = legal_actions(t.state, uid(2))
    assert la.ballot == tuple(uid(s) for s in range(1, 10)) and la.ballot_pass
    assert not la.ballot_marked and la.ballot_mark is None
    t.tap(2, None)
    la = legal_actions(t.state, uid(2))
    assert la.ballot_marked and la.ballot_mark is None  # PASS is his preliminary choice
    t.tap(2, None)
    assert legal_actions(t.state, uid(2)).ballot == ()
    t.ballot({1: 4, 3: 4, 5: 6, 6: 6})
    assert legal_actions(t.state, uid(4)).end_speech  # his defence
    t.defences()
    la = legal_actions(t.state, uid(2))
    assert la.ballot == (uid(4), uid(6)) and not la.ballot_pass
    t.timeout()  # the same two again
    t.defences()
    la = legal_actions(t.state, uid(2))
    assert la.lift_vote and la.lift_mark is None and la.ballot == ()
    t.do(TapLift(user_id=uid(2), lift=False))
    assert legal_actions(t.state, uid(2)).lift_mark is False


def test_ONLINE_38_chat_rights_follow_the_phase():
    from engine.online import may_write

    t = online_game(10)
    assert not any(may_write(t.state, uid(s)) for s in range(1, 11))  # night 1 (relay apart)
    t.to_day(1)
    assert all(may_write(t.state, uid(s)) for s in range(1, 11)) and not may_write(
        t.state, SPECTATOR)
    t.ballot({s: 7 for s in range(1, 11)})
    assert may_write(t.state, uid(7)) and not may_write(t.state, uid(1))  # his last word
    t.last_words()
    assert not any(may_write(t.state, uid(s)) for s in range(1, 11))  # night 2
    t.onight(kill=5, don_check=4, check=1)
    assert t.phase is OnlinePhase.BEST_MOVE and not may_write(t.state, uid(5))
    t.best_move()
    assert may_write(t.state, uid(5))  # the victim's last word
    t.last_words()
    assert not may_write(t.state, uid(7)) and not may_write(t.state, uid(5))  # the dead


def test_ONLINE_X16_no_judges_clock_or_undo_online():
    t = online_at_day(10, host=True)
    t.ballot({v: 5 for v in range(1, 11)}, close=False)
    assert t.phase is Phase.LAST_WORD  # a turn with a timer, run by a non-playing host
    for cmd in (AddTime(user_id=HOST, remaining=10), RestartTurn(user_id=HOST),
                EndTurn(user_id=HOST), UndoJudgeAction(user_id=HOST),
                DeclareProceduralLoss(user_id=HOST, player=uid(2))):
        t.refuse(cmd, NotAllowed)
