"""Club preset: winning, secrecy, the day/night cycle, counters, pauses (docs/rules/club.md)."""

from __future__ import annotations

from engine import (
    PUBLIC,
    DayWithoutElimination,
    EndSpeech,
    GameEnded,
    HostModeEnded,
    IssueFoul,
    MarkInactive,
    NightResult,
    NotAllowed,
    Pause,
    Paused,
    Phase,
    PhaseStarted,
    PlayerEliminated,
    Resume,
    Role,
    TakeOver,
    Team,
)
from engine.club.state import fouls_of

from ..helpers import HOST, club_at_day, club_game, club_vote_out, uid
from ..playout import leaks_role


def test_CLUB_03_red_wins_when_the_last_black_leaves():
    t = club_at_day(1)
    club_vote_out(t, 1)
    t.night(kill={2: 3, 3: 2})  # a miss (and no missed deadline for №3)
    t.speeches({t.speaker: 2})
    t.last_words()
    t.night()
    t.speeches({t.speaker: 3})
    assert t.phase is Phase.LAST_WORD and t.speaker == 3  # the last word comes first
    events = t.end_turn()
    assert events[-1] == GameEnded(winner=Team.TOWN, days=3, roles=events[-1].roles)
    assert t.phase is Phase.ENDED and t.state.winner is Team.TOWN


def test_CLUB_04_black_wins_at_parity():
    t = club_at_day(1)
    club_vote_out(t, 5)
    t.night(kill=6)
    t.last_words()
    club_vote_out(t, 7)  # 3 blacks against 4 reds: play on
    assert t.phase is Phase.NIGHT
    t.night(kill=8)
    assert t.phase is Phase.LAST_WORD and t.speaker == 8
    events = t.end_turn()  # 3 against 3
    assert isinstance(events[-1], GameEnded) and events[-1].winner is Team.MAFIA


def test_CLUB_26_roles_stay_hidden_until_the_end():
    t = club_at_day(1)
    club_vote_out(t, 1)
    t.night(kill=6)
    t.last_words()
    for e in t.events(PlayerEliminated):
        assert e.audience == PUBLIC and not leaks_role(e)
    assert not [e for e in t.events() if leaks_role(e)]
    t.speeches({t.speaker: 2})
    t.last_words()
    t.night()
    t.speeches({t.speaker: 3})
    t.last_words()
    end = t.events(GameEnded)[-1]
    assert end.audience == PUBLIC
    assert end.roles[:4] == ((1, uid(1), Role.DON), (2, uid(2), Role.MAFIA),
                             (3, uid(3), Role.MAFIA), (4, uid(4), Role.SHERIFF))


def test_CLUB_35_days_and_nights_alternate_until_a_win():
    t = club_at_day(1)
    club_vote_out(t, 5)
    t.night(kill=6)
    t.last_words()
    assert (t.phase, t.state.day) == (Phase.SPEECH, 2)
    club_vote_out(t, 7)
    phases = [(e.phase, e.day, e.night) for e in t.events(PhaseStarted)
              if e.phase in ("night", "speech") and (e.phase == "night" or e.speaker == uid(1))]
    assert [p for p, _, _ in phases] == ["night", "speech", "night", "speech", "night"]
    assert [n for p, _, n in phases if p == "night"] == [1, 2, 3]


def test_CLUB_Q23_last_word_before_the_result():
    t = club_at_day(1)
    club_vote_out(t, 1)
    t.night(kill={2: 3, 3: 2})  # a miss (and no missed deadline for №3)
    t.speeches({t.speaker: 2})
    t.last_words()
    t.night()
    t.speeches({t.speaker: 3})
    assert not t.events(GameEnded) and t.phase is Phase.LAST_WORD
    events = t.do(EndSpeech(user_id=uid(3)))
    assert [type(e).__name__ for e in events] == ["GameEnded"]


def test_CLUB_Q18_no_draw_the_game_goes_on():
    t = club_game()
    t.timeout()  # the meeting
    for _ in range(4):
        t.speeches()
        t.night(kill={1: 2, 2: 3, 3: 1})
    assert t.state.day == 5 and not t.state.over
    assert [e.reason for e in t.events(DayWithoutElimination)] == ["no_nominations"] * 4
    assert [e.killed for e in t.events(NightResult)] == [None] * 5


def test_CLUB_X01_night_numbers_and_the_meeting():
    t = club_game()
    assert (t.state.day, t.state.night, t.state.timer.kind) == (0, 1, "meeting")
    first = t.events(PhaseStarted)[0]
    assert (first.phase, first.purpose, first.seconds) == ("night", "intro", 60)
    t.timeout()
    assert (t.state.day, t.state.night) == (1, 1)
    t.speeches()
    assert (t.state.day, t.state.night, t.state.timer.kind) == (1, 2, "night")
    assert t.events(PhaseStarted)[-1].purpose == "night"


def test_CLUB_X05_pauses_freeze_the_meeting_and_the_silenced_turn():
    t = club_game()
    t.do(Pause(user_id=uid(5), remaining=12.5))
    assert t.last[0] == Paused(by=uid(5), reason="player", remaining=13,
                               timer_seq=t.state.timer.seq, seconds=900)
    t.do(Resume(user_id=uid(5)))
    assert (t.state.timer.kind, t.state.timer.seconds) == ("meeting", 13)
    t.timeout()
    assert t.phase is Phase.SPEECH and t.state.day == 1
    for _ in range(3):
        t.do(IssueFoul(user_id=None, player=uid(2)))
    t.end_turn()
    assert t.state.timer.kind == "silenced"
    t.do(Pause(user_id=uid(3), remaining=4))
    t.do(Resume(user_id=uid(3)))
    assert (t.state.timer.kind, t.state.timer.seconds) == ("silenced", 4)
    t.timeout()
    assert t.speaker == 3


def test_CLUB_X05_a_lost_judge_and_a_take_over():
    t = club_at_day(1, host=True)
    t.do(MarkInactive(player=HOST, reason="blocked"))
    assert t.state.pause.reason == "host_lost"
    t.refuse(Resume(user_id=uid(2)), NotAllowed)  # the game waits for its judge
    t.do(TakeOver(user_id=777))
    assert t.state.host is None and t.state.pause is None
    assert t.events(HostModeEnded)[-1].reason == "takeover"
    t.do(IssueFoul(user_id=777, player=uid(4)))  # now the shell decides who fouls
    assert fouls_of(t.state, uid(4)) == 1
