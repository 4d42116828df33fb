"""Club preset: the judge's clock, his Undo and the procedural loss (docs/rules/club.md,
CLUB-X16..X20)."""

from __future__ import annotations

from engine import (
    Disqualify,
    EndSpeech,
    GameEnded,
    GamePaused,
    IssueFoul,
    Nominate,
    NotAllowed,
    NotInGame,
    Pause,
    Phase,
    PhaseClosed,
    PhaseStarted,
    PhaseTimeout,
    Team,
    UndoNomination,
    command_from_dict,
    replay,
    to_dict,
)
from engine.club.clock import ADD_TIME, MAX_TURN
from engine.club.commands import (
    AddTime,
    DeclareProceduralLoss,
    EndTurn,
    RestartTurn,
    UndoJudgeAction,
)
from engine.club.events import (
    JudgeActionUndone,
    ProceduralLoss,
    TimeAdded,
    TurnEnded,
    TurnRestarted,
)
from engine.club.state import fouls_of

from ..helpers import HOST, club_at_day, club_at_night, club_game, game_at_day, lobby, uid


def same_game(a, b) -> bool:
    """Equal states but for the log's length (an undo is a command of the log too)."""
    da, db = a.to_dict(), b.to_dict()
    da.pop("commands"), db.pop("commands")
    return da == db


# --- CLUB-X16: Undo --------------------------------------------------------------------------
def test_CLUB_X16_undo_takes_back_a_foul():
    t = club_at_day(1, host=True)
    before = t.state
    t.do(IssueFoul(user_id=HOST, player=uid(4)))
    assert fouls_of(t.state, uid(4)) == 1
    events = t.do(UndoJudgeAction(user_id=HOST))
    assert events == [JudgeActionUndone(action="foul", player=uid(4), by=HOST)]
    assert fouls_of(t.state, uid(4)) == 0 and same_game(t.state, before)
    assert t.state.commands == len(t.log)
    t.refuse(UndoJudgeAction(user_id=HOST), NotAllowed)  # once


def test_CLUB_X16_undo_puts_a_removed_nomination_back():
    t = club_at_day(1, host=True)
    t.do(Nominate(user_id=uid(1), target=uid(5)))
    t.end_turn()
    t.do(Nominate(user_id=uid(2), target=uid(7)))
    before = t.state
    t.do(UndoNomination(user_id=HOST, target=uid(5)))
    assert t.state.nominations == [uid(7)]
    t.do(UndoJudgeAction(user_id=HOST))
    assert t.last[0].action == "nomination" and t.last[0].player == uid(5)
    assert t.state.nominations == [uid(5), uid(7)] and t.state.nominated_by[uid(5)] == uid(1)
    assert same_game(t.state, before)


def test_CLUB_X16_undo_takes_back_a_disqualification_that_did_not_move_the_game_on():
    t = club_at_day(1, host=True)
    t.do(Nominate(user_id=uid(1), target=uid(6)))
    before = t.state
    t.do(Disqualify(user_id=HOST, player=uid(6)))  # №1 still speaks
    assert not t.state.is_alive(uid(6)) and t.state.club.vote_cancelled_day == 1
    t.do(UndoJudgeAction(user_id=HOST))
    assert t.last == [JudgeActionUndone(action="disqualification", player=uid(6), by=HOST)]
    assert t.state.is_alive(uid(6)) and t.state.nominations == [uid(6)]
    assert t.state.club.vote_cancelled_day == 0 and same_game(t.state, before)
    assert t.state.timer == before.timer  # the running speech goes on, same deadline
    # and a fourth foul likewise
    for _ in range(3):
        t.do(IssueFoul(user_id=HOST, player=uid(8)))
    t.do(IssueFoul(user_id=HOST, player=uid(8)))
    assert not t.state.is_alive(uid(8))
    t.do(UndoJudgeAction(user_id=HOST))
    assert t.last[0].action == "fourth_foul" and t.state.is_alive(uid(8))
    assert fouls_of(t.state, uid(8)) == 3


def test_CLUB_X16_undo_refusals():
    t = club_at_day(1, host=True)
    t.refuse(UndoJudgeAction(user_id=HOST), NotAllowed)  # nothing to undo
    t.do(IssueFoul(user_id=HOST, player=uid(4)))
    t.refuse(UndoJudgeAction(user_id=uid(4)), NotAllowed)  # only the judge
    t.do(Nominate(user_id=uid(1), target=uid(5)))  # anything in between closes the window
    assert t.state.club.undo is None
    t.refuse(UndoJudgeAction(user_id=HOST), NotAllowed)
    t.do(Disqualify(user_id=HOST, player=uid(1)))  # the speaker: the next turn has begun
    assert t.speaker == 2
    t.refuse(UndoJudgeAction(user_id=HOST), NotAllowed)  # the game has moved on
    t.do(IssueFoul(user_id=HOST, player=uid(7)))
    t.do(Pause(user_id=HOST, remaining=20))
    t.refuse(UndoJudgeAction(user_id=HOST), GamePaused)
    party = game_at_day(7)
    party.refuse(UndoJudgeAction(user_id=uid(1)), NotAllowed)  # no judge's tools in party


def test_CLUB_X16_a_log_with_undos_replays():
    t = club_at_day(1, host=True)
    t.do(IssueFoul(user_id=HOST, player=uid(4)))
    t.do(UndoJudgeAction(user_id=HOST))
    t.do(Disqualify(user_id=HOST, player=uid(9)))
    t.do(UndoJudgeAction(user_id=HOST))
    stored = [command_from_dict(to_dict(c)) for c in t.log]
    state, produced = replay(stored)
    assert state == t.state and produced == t.produced


# --- CLUB-X17: the procedural loss -----------------------------------------------------------
def test_CLUB_X17_a_procedural_loss_ends_the_game_for_the_other_team():
    t = club_at_day(1, host=True)
    events = t.do(DeclareProceduralLoss(user_id=HOST, player=uid(2), reason="peeking"))
    assert events[0] == ProceduralLoss(player=uid(2), team=Team.MAFIA, by=HOST, reason="peeking")
    assert isinstance(events[1], GameEnded) and events[1].winner is Team.TOWN
    assert t.state.over and t.state.winner is Team.TOWN and t.state.timer is None
    n = club_at_night(2)
    n.do(DeclareProceduralLoss(user_id=uid(1), player=uid(7)))  # no human judge: an admin
    assert n.state.winner is Team.MAFIA


def test_CLUB_X17_procedural_loss_refusals():
    t = club_at_day(1, host=True)
    t.refuse(DeclareProceduralLoss(user_id=uid(3), player=uid(2)), NotAllowed)
    t.refuse(DeclareProceduralLoss(user_id=HOST, player=999), NotInGame)
    lob = lobby(10, host=True, ruleset="club")
    lob.refuse(DeclareProceduralLoss(user_id=HOST, player=uid(2)), PhaseClosed)
    game_at_day(7).refuse(DeclareProceduralLoss(user_id=uid(1), player=uid(2)), NotAllowed)


# --- CLUB-X18..X20: the judge's clock --------------------------------------------------------
def test_CLUB_X18_add_time_to_the_running_speech():
    t = club_at_day(1, host=True)
    old = t.state.timer
    events = t.do(AddTime(user_id=HOST, remaining=12.4))
    new = t.state.timer
    assert (new.kind, new.seconds) == ("speech", 13 + ADD_TIME) and new.seq > old.seq
    assert events == [TimeAdded(speaker=uid(1), seconds=30, timer_seq=new.seq, total=43, by=HOST)]
    t.do(PhaseTimeout(timer_seq=old.seq))  # the old deadline is stale
    assert t.speaker == 1
    t.timeout()
    assert t.speaker == 2
    t.do(AddTime(user_id=HOST))  # the shell measured nothing: the whole turn plus 30 s
    assert t.state.timer.seconds == 90


def test_CLUB_X18_add_time_to_a_defence_and_a_last_word():
    t = club_at_day(1, host=True)
    t.speeches({1: 5, 2: 7})
    t.vote({v: 5 for v in range(1, 11)})
    assert t.phase is Phase.LAST_WORD
    t.do(AddTime(user_id=HOST, remaining=5))
    assert (t.state.timer.kind, t.state.timer.seconds) == ("last_word", 35)


def test_CLUB_X18_add_time_refusals():
    t = club_at_day(1, host=True)
    t.refuse(AddTime(user_id=uid(1)), NotAllowed)  # the speaker himself: not the judge
    while t.state.timer.seconds + ADD_TIME <= MAX_TURN:
        t.do(AddTime(user_id=HOST))
    t.refuse(AddTime(user_id=HOST), NotAllowed)  # long enough
    t.do(Pause(user_id=HOST, remaining=10))
    t.refuse(AddTime(user_id=HOST), GamePaused)
    n = club_at_night(2, host=True)
    n.refuse(AddTime(user_id=HOST), PhaseClosed)
    s = club_at_day(1, host=True)
    for _ in range(3):
        s.do(IssueFoul(user_id=HOST, player=uid(2)))
    s.end_turn()
    assert s.state.timer.kind == "silenced"
    s.refuse(AddTime(user_id=HOST), NotAllowed)  # a silenced turn has no speech
    game_at_day(7).refuse(AddTime(user_id=uid(1)), NotAllowed)  # party: no judge's tools
    club_game(host=True).refuse(AddTime(user_id=HOST), PhaseClosed)  # the meeting: no turn


def test_CLUB_X19_restart_a_turn_in_full():
    t = club_at_day(1, host=True)
    t.do(AddTime(user_id=HOST, remaining=3))
    events = t.do(RestartTurn(user_id=HOST))
    timer = t.state.timer
    assert (timer.kind, timer.seconds) == ("speech", 60)
    assert events == [TurnRestarted(speaker=uid(1), timer_seq=timer.seq, seconds=60, by=HOST)]
    t.refuse(RestartTurn(user_id=uid(5)), NotAllowed)
    club_at_night(2, host=True).refuse(RestartTurn(user_id=HOST), PhaseClosed)


def test_CLUB_X20_end_a_turn():
    t = club_at_day(1, host=True)
    events = t.do(EndTurn(user_id=HOST))
    assert events[0] == TurnEnded(speaker=uid(1), by=HOST)
    assert isinstance(events[1], PhaseStarted) and t.speaker == 2
    t.refuse(EndTurn(user_id=uid(2)), NotAllowed)  # the speaker uses EndSpeech
    t.do(EndSpeech(user_id=uid(2)))
    assert t.speaker == 3
    club_at_night(2, host=True).refuse(EndTurn(user_id=HOST), PhaseClosed)
    admin = club_at_day(1)  # no human judge: the shell lets an admin through
    admin.do(EndTurn(user_id=uid(9)))
    assert admin.speaker == 2
