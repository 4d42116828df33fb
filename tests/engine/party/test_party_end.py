"""Party preset: winning, the final reveal and what stays secret (docs/rules/party.md)."""

from __future__ import annotations

from engine import (
    PUBLIC,
    CastVote,
    Continue,
    GameEnded,
    GameOver,
    MarkInactive,
    MarkReady,
    NightAction,
    NotAllowed,
    Pause,
    Phase,
    PlayerDead,
    PlayerEliminated,
    Private,
    RelayMessage,
    Role,
    Team,
    legal_actions,
)
from engine.mafia.events import CheckResult, MafiaPicks, NightActionAccepted, RelayedMessage

from ..helpers import eliminate_by_vote, game_at_day, game_at_night, uid
from ..playout import leaks_role


def test_PARTY_03_town_wins_when_no_mafioso_is_left():
    t = game_at_day(5, "MCDTT")
    t.speeches({2: 1})
    t.end_turn()                                   # defence of the sole nominee
    assert t.phase is Phase.LAST_WORD and not t.events(GameEnded)
    events = t.end_turn()
    (end,) = [e for e in events if isinstance(e, GameEnded)]
    assert end.winner is Team.TOWN and t.state.winner is Team.TOWN
    assert t.phase is Phase.ENDED and t.state.timer is None
    t.refuse(Pause(user_id=uid(2)), GameOver)


def test_PARTY_04_mafia_wins_at_parity_after_a_night_kill():
    t = game_at_day(6, "MMCDTT")
    eliminate_by_vote(t, 6)                        # 5 alive: 2 mafiosi vs 3
    assert not t.state.over
    t.to_night(2)
    t.night(kill=5)
    assert t.phase is Phase.LAST_WORD and t.speaker == 5 and not t.events(GameEnded)
    t.end_turn()
    assert t.events(GameEnded)[-1].winner is Team.MAFIA and t.phase is Phase.ENDED


def test_PARTY_04_mafia_wins_after_a_day_removal_too():
    t = game_at_day(5, "MCDTT")
    eliminate_by_vote(t, 5)
    t.to_day(2)
    eliminate_by_vote(t, 4)                        # 1 mafioso vs 2
    assert not t.state.over
    t.to_day(3)
    eliminate_by_vote(t, 3)                        # 1 vs 1
    assert t.events(GameEnded)[-1].winner is Team.MAFIA


def test_PARTY_Q26_inactive_players_count_as_alive():
    t = game_at_day(5, "MCDTT")
    t.do(MarkInactive(player=uid(2), reason="left"))
    t.do(MarkInactive(player=uid(3), reason="left"))
    eliminate_by_vote(t, 5)                        # 1 mafioso vs 3 alive (2 inactive)
    assert not t.state.over and t.phase is Phase.READY


def test_PARTY_32_last_words_before_the_result():
    t = game_at_day(7, "TTMMCDT")
    t.speeches({1: 3, 2: 4})
    t.defences()
    ballot = {1: 3, 2: 3, 5: 3, 6: 4, 7: 4, 3: 4}
    t.vote(ballot)
    t.defences()
    t.vote(ballot)
    t.exclude_vote(yes=(1, 2, 5, 6), no=(3, 4, 7))
    assert [e.user_id for e in t.events(PlayerEliminated)] == [uid(3), uid(4)]
    assert t.phase is Phase.LAST_WORD and t.speaker == 3 and not t.events(GameEnded)
    t.end_turn()
    assert t.speaker == 4 and not t.events(GameEnded)
    t.end_turn()
    assert t.events(GameEnded)[-1].winner is Team.TOWN


def test_PARTY_Q25_the_end_reveals_every_seat():
    t = game_at_day(5, "MCDTT")
    eliminate_by_vote(t, 1)
    (end,) = t.events(GameEnded)
    assert end.audience == PUBLIC and end.days == 1
    assert end.roles == ((1, uid(1), Role.MAFIA), (2, uid(2), Role.COMMISSAR),
                         (3, uid(3), Role.DOCTOR), (4, uid(4), Role.CIVILIAN),
                         (5, uid(5), Role.CIVILIAN))


def _scripted_game():
    """A full 8-player game touching every phase: a vote, a tie, a check, a save, a kill."""
    t = game_at_day(8, "CMTDTMTT")
    t.speeches({1: 3, 2: 5})
    t.defences()
    t.vote({1: 3, 2: 3, 4: 5, 6: 5})
    t.defences()
    t.vote({1: 3, 2: 3, 4: 3, 6: 5})              # seat 3 leaves
    t.last_words()
    t.ready_all()
    t.do(RelayMessage(user_id=uid(2), text="№4?"))
    t.night(kill=4, check=2, heal=4)              # saved
    t.speeches({2: 1})
    t.defences()                                  # the Commissar leaves
    t.last_words()
    t.ready_all()
    t.night(kill=5)
    t.last_words()
    t.speeches({4: 2, 7: 6})
    t.defences()
    t.vote({4: 2, 7: 2, 8: 2, 2: 6})
    t.last_words()
    t.ready_all()
    t.night(kill=7, heal=8)
    t.last_words()
    t.speeches({4: 6})
    t.defences()
    t.last_words()
    return t


def test_PARTY_48_no_public_event_before_the_end_names_a_role():
    t = _scripted_game()
    assert t.events(GameEnded)[-1].winner is Team.TOWN
    events = t.events()
    assert not [e for e in events if leaks_role(e)]
    secret = (NightActionAccepted, CheckResult, MafiaPicks, RelayedMessage)
    assert all(e.audience != PUBLIC for e in events if isinstance(e, secret))
    assert leaks_role(MafiaPicks(picks=(), agreed=None, audience=PUBLIC)) is False  # no role
    assert leaks_role(GameEnded(winner=Team.TOWN, roles=(), days=1)) is False


def test_PARTY_49_the_eliminated_act_no_more():
    t = game_at_day(7, "MMCDTTT")
    eliminate_by_vote(t, 6)
    assert legal_actions(t.state, uid(6)) == legal_actions(t.state, 12345)
    t.refuse(MarkReady(user_id=uid(6)), PlayerDead)
    t.ready_all(skip=(7,))
    t.timeout()
    t.refuse(Continue(user_id=uid(6)), PlayerDead)
    t.refuse(Pause(user_id=uid(6)), NotAllowed)
    t.do(Continue(user_id=uid(1)))
    t.refuse(NightAction(user_id=uid(6), action="sleep"), PlayerDead)
    la = legal_actions(t.state, uid(6))
    assert not (la.sleep or la.night_action or la.ready or la.pause)
    t.night()
    t.speeches({2: 5, 3: 4})
    t.defences()
    t.refuse(CastVote(user_id=uid(6), target=uid(5)), PlayerDead)
    assert legal_actions(t.state, uid(6)).vote is None


def test_PARTY_49_no_private_event_reaches_the_dead() -> None:
    t = _scripted_game()
    dead_since: dict[int, int] = {}
    for i, events in enumerate(t.produced):
        for e in events:
            if isinstance(e.audience, Private):
                assert e.audience.user_id not in dead_since, (i, e)
            if isinstance(e, PlayerEliminated):
                dead_since[e.user_id] = i


def test_PARTY_31_an_eliminated_role_stays_hidden():
    t = game_at_day(7, "MMCDTTT")
    eliminate_by_vote(t, 1)                       # a mafioso
    events = t.events(PlayerEliminated)
    assert events == [PlayerEliminated(user_id=uid(1), cause="sole_nominee")]
    assert not [e for e in t.events() if leaks_role(e)]
    t2 = game_at_night(7, "MMCDTTT")
    t2.night(kill=3)
    assert not [e for e in t2.events() if leaks_role(e)]
