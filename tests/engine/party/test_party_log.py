"""The log: serialization of commands and events, replay, atomic refusals (design.md §2-3)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from engine import (
    COMMAND_TYPES,
    EVENT_TYPES,
    HOST,
    BecomeHost,
    CancelFoul,
    CancelGame,
    CastExcludeVote,
    CastVote,
    ChangeSettings,
    ChooseBestMove,
    ChooseSide,
    Command,
    ComparePlayers,
    Continue,
    CreateGame,
    DecideBonusRound,
    Disqualify,
    EndSpeech,
    GuessRoles,
    HostDecide,
    HostNext,
    IllegalCommand,
    IssueFoul,
    IssueWarning,
    Join,
    Leave,
    MarkActive,
    MarkAfk,
    MarkInactive,
    MarkReady,
    NameSuspect,
    NightAction,
    Nominate,
    Pause,
    PhaseTimeout,
    Private,
    RelayMessage,
    Resume,
    RevealCheck,
    Role,
    StartGame,
    TakeOver,
    TapLift,
    TapVote,
    Team,
    UndoNomination,
    VoteBestPlayer,
    command_from_dict,
    event_from_dict,
    replay,
    to_dict,
)
from engine.club import commands as club_cmd
from engine.club import events as club_ev
from engine.core.errors import BadSetup
from engine.forum import events as fev
from engine.mafia import events as ev
from engine.online import events as online_ev

from ..helpers import game_at_day, started_game, uid

BIG = 7_000_000_000  # Telegram ids do not fit in 32 bits

SAMPLES = [
    CreateGame(user_id=BIG, ruleset="party",
               settings={"tempo": "short", "timings": {"speech": 45}, "options": {"doctor": False}}),
    Join(user_id=BIG + 1, name="Анна <b>&"),
    Leave(user_id=BIG + 1),
    BecomeHost(user_id=BIG + 2, name="Host"),
    ChangeSettings(user_id=BIG, settings={"tempo": "detailed"}),
    StartGame(user_id=BIG, seating=(3, 1, 2), roles=(Role.MAFIA, Role.COMMISSAR, Role.DOCTOR)),
    CancelGame(user_id=None, reason="expired"),
    MarkReady(user_id=BIG),
    Continue(user_id=BIG),
    EndSpeech(user_id=BIG),
    Nominate(user_id=BIG, target=BIG + 3),
    CastVote(user_id=BIG, target=BIG + 4),
    CastExcludeVote(user_id=BIG, yes=False),
    NightAction(user_id=BIG, action="check", target=BIG + 5),
    NightAction(user_id=BIG, action="sleep"),
    RelayMessage(user_id=BIG, text="„кто?“ ✓"),
    Pause(user_id=BIG, remaining=12.75),
    Pause(user_id=BIG),
    Resume(user_id=BIG),
    HostNext(user_id=BIG),
    TakeOver(user_id=BIG),
    MarkInactive(player=BIG, reason="blocked"),
    MarkActive(user_id=BIG),
    PhaseTimeout(timer_seq=41),
    IssueFoul(user_id=BIG, player=BIG + 1, reason="talking out of turn"),
    Disqualify(user_id=None, player=BIG + 2),
    CancelFoul(user_id=BIG, player=BIG + 1, reason="misheard"),
    UndoNomination(user_id=BIG, target=BIG + 3),
    club_cmd.UndoJudgeAction(user_id=BIG),  # the judge's Undo, clock, procedural loss (CLUB-X16..X20)
    club_cmd.DeclareProceduralLoss(user_id=None, player=BIG + 1, reason="oath"),
    club_cmd.AddTime(user_id=BIG, remaining=12.5),
    club_cmd.AddTime(user_id=BIG),
    club_cmd.RestartTurn(user_id=BIG),
    club_cmd.EndTurn(user_id=None),
    TapVote(user_id=BIG, target=BIG + 4),  # the online preset (test_online_*.py)
    TapVote(user_id=BIG),  # PASS
    TapLift(user_id=BIG, lift=False),
    ChooseBestMove(user_id=BIG, targets=(BIG + 1, BIG + 2, BIG + 3)),
    ChooseBestMove(user_id=BIG),
    MarkAfk(player=BIG + 1),
    ChooseSide(user_id=BIG, side=Team.MAFIA),  # the forum preset (test_forum_*.py)
    ComparePlayers(user_id=BIG, first=BIG + 1, second=BIG + 2),
    NameSuspect(user_id=BIG, target=BIG + 3),
    RevealCheck(user_id=BIG, target=BIG + 4),
    IssueWarning(user_id=BIG, player=BIG + 1, reason="oath"),
    HostDecide(user_id=BIG, target=BIG + 2),
    HostDecide(user_id=BIG),
    DecideBonusRound(user_id=BIG, start=True),
    GuessRoles(user_id=BIG, guesses=((BIG + 1, Role.MANIAC), (BIG + 2, Role.MAFIA))),
    GuessRoles(user_id=BIG),
    VoteBestPlayer(user_id=BIG, target=BIG + 5),
]


def round_trip(cmd: Command) -> Command:
    return command_from_dict(json.loads(json.dumps(to_dict(cmd))))


def test_PARTY_X09_every_command_class_survives_serialization():
    assert {type(c) for c in SAMPLES} == set(COMMAND_TYPES.values())
    for cmd in SAMPLES:
        back = round_trip(cmd)
        assert back == cmd and type(back) is type(cmd)
        for f in dataclasses.fields(cmd):
            assert type(getattr(back, f.name)) is type(getattr(cmd, f.name)), (cmd, f.name)


def test_PARTY_X09_unknown_types_are_refused():
    with pytest.raises(ValueError):
        command_from_dict({"type": "Explode"})
    with pytest.raises(ValueError):
        event_from_dict({"type": "Exploded"})


EXTRA_EVENTS = [
    ev.ContinueAvailable(timer_seq=3, seconds=120),
    ev.DayWithoutElimination(reason="half_tied", candidates=(BIG, BIG + 1)),
    ev.ExcludeVoteCast(voter=BIG, yes=True, yes_votes=(BIG,), no_votes=()),
    ev.ExcludeVoteResult(candidates=(BIG, 2), yes=1, needed=4, passed=False),
    ev.GameCancelled(by=None, reason="expired"),
    ev.HostAssigned(user_id=None),
    ev.HostModeEnded(by=BIG, reason="takeover"),
    ev.HostRoles(roles=((BIG, Role.DOCTOR), (2, Role.MAFIA))),
    ev.OrganiserChanged(user_id=BIG),
    ev.Paused(by=None, reason="host_lost", remaining=None, timer_seq=9, seconds=600),
    ev.PlayerActive(user_id=BIG),
    ev.PlayerInactive(user_id=BIG, reason="missed"),
    ev.PlayerLeft(user_id=BIG, count=4),
    ev.Resumed(by=None, auto=True),
    ev.SettingsChanged(by=BIG, timings=(("speech", 45), ("vote", 10))),
    ev.TurnSkipped(user_id=BIG),
    ev.DonCheckResult(checker=BIG, target=BIG + 1, is_sheriff=True, audience=Private(BIG)),
    club_ev.FoulIssued(player=BIG, count=3, by=None, reason="gesture"),
    club_ev.FoulCancelled(player=BIG, count=2, by=BIG + 1, reason="misheard"),
    club_ev.NominationUndone(target=BIG, nominator=BIG + 1, by=None, candidates=(BIG + 2,)),
    club_ev.JudgeActionUndone(action="fourth_foul", player=BIG, by=None),
    club_ev.ProceduralLoss(player=BIG, team=Team.MAFIA, by=BIG + 1, reason="peeking"),
    club_ev.TimeAdded(speaker=BIG, seconds=30, timer_seq=7, total=43, by=None),
    club_ev.TurnRestarted(speaker=BIG, timer_seq=8, seconds=60, by=BIG + 1),
    club_ev.TurnEnded(speaker=BIG, by=BIG + 1),
    online_ev.VoteTapped(voter=BIG, stage="day", target=None, final=True,
                  votes=((BIG, None, True), (BIG + 1, BIG, False))),
    online_ev.LiftCalled(candidates=(BIG, BIG + 1), n=10),
    online_ev.LiftTapped(voter=BIG, lift=True, final=False, votes=((BIG, True, False),)),
    online_ev.Misfire(count=2),
    online_ev.BestMove(user_id=BIG, targets=(BIG + 1, BIG + 2, BIG + 3)),
    ev.PlayerAfk(user_id=BIG),
    # the forum preset (test_forum_*.py)
    ev.PlayerEliminated(user_id=BIG, cause="vote", role=Role.WEREWOLF),
    fev.NightWake(user_id=BIG, role=Role.SLEEPWALKER, turn=1, mafia=(BIG + 1, BIG + 2),
                 audience=Private(BIG)),
    fev.SideChosen(user_id=BIG, side=Team.MAFIA, by_default=False, audience=HOST),
    fev.MafiaBlocked(),
    fev.CheckShrugged(checker=BIG, target=BIG + 1, audience=Private(BIG)),
    fev.ComparisonResult(checker=BIG, first=BIG + 1, second=BIG + 2, same=None,
                        audience=Private(BIG)),
    fev.ComparisonResult(checker=BIG, first=BIG + 1, second=BIG + 2, same=False,
                        audience=Private(BIG)),
    fev.SleepwalkerRevealed(user_id=BIG),
    fev.NightExtended(timer_seq=12, seconds=60),
    fev.NightDeaths(killed=(BIG, BIG + 1), saved=True),
    fev.WerewolfTurned(user_id=BIG, audience=Private(BIG)),
    fev.BallotCast(voter=BIG, target=BIG + 1, stage="revote", votes=((BIG, BIG + 1),)),
    fev.SuspectNamed(user_id=BIG, target=BIG + 1),
    fev.CheckRevealed(user_id=BIG, target=BIG + 1, is_mafia=True),
    fev.WarningIssued(player=BIG, count=2, by=None, reason="no_vote"),
    fev.PlayerRemoved(player=BIG, by=BIG + 1, reason="card"),
    fev.VictoryDeclared(winner=Team.MAFIA, days=3),
    fev.GuessesRecorded(user_id=BIG, guesses=((BIG + 1, Role.COP),), audience=Private(BIG)),
    fev.BonusResults(guesses=((BIG, ((BIG + 1, Role.COP), (BIG + 2, Role.MAFIA))),),
                    hits=((BIG, 1),)),
    fev.RolesRevealed(roles=((1, BIG, Role.PUTANA), (2, BIG + 1, Role.MAFIA)),
                     sides=((BIG, Team.TOWN),), winners=(BIG + 1,)),
    fev.BestPlayerVoted(voter=BIG, target=BIG + 1),
    fev.BestPlayerChosen(winners=(BIG + 1, BIG + 2), tally=((BIG + 1, (BIG,)), (BIG + 2, (3,)))),
]


def test_PARTY_X09_every_event_class_survives_serialization():
    from .test_party_end import _scripted_game
    seen = set()
    for e in _scripted_game().events() + EXTRA_EVENTS:
        data = json.loads(json.dumps(to_dict(e)))
        assert event_from_dict(data) == e
        seen.add(type(e))
    assert seen == set(EVENT_TYPES.values())


def test_PARTY_X09_replay_rebuilds_state_and_events():
    from .test_party_end import _scripted_game
    t = _scripted_game()
    state, produced = replay(round_trip(c) for c in t.log)
    assert state == t.state and produced == t.produced
    with pytest.raises(BadSetup):
        replay([])


def test_PARTY_X09_a_refused_command_leaves_the_state_untouched():
    t = game_at_day(7, "MMCDTTT")
    before = t.state
    frozen = before.clone()
    with pytest.raises(IllegalCommand):
        from engine import apply
        apply(before, CastVote(user_id=uid(1), target=uid(2)))
    assert before == frozen and t.state is before


def test_PARTY_X09_unknown_command_class_is_refused():
    @dataclasses.dataclass(frozen=True, kw_only=True)
    class Dance(Command):
        pass

    t = started_game(5)
    t.refuse(Dance(user_id=uid(1)), IllegalCommand)
