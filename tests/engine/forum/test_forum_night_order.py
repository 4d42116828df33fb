"""The forum preset's nights: the Maniac, the Putana, the Journalist and the resolution order
(docs/rules/forum.md; night 1, the Mafia, the Commissar and the Doctor: test_forum_night.py)."""

from __future__ import annotations

from engine import (
    AlreadyActed,
    CheckShrugged,
    ComparePlayers,
    ComparisonResult,
    InvalidTarget,
    NightAction,
    NoNightAction,
    Phase,
    PlayerEliminated,
    PlayerInactive,
    Private,
    Role,
    Team,
    legal_actions,
)

from ..forum_helpers import forum_at_night, forum_game
from ..helpers import uid
from .night_support import DEAL, deaths


def test_FORUM_27_the_maniac_kills_every_other_night():
    t = forum_at_night(DEAL)
    assert legal_actions(t.state, uid(5)).night_action is None
    assert legal_actions(t.state, uid(5)).sleep
    t.refuse(NightAction(user_id=uid(5), action="slay", target=uid(9)), NoNightAction)
    t.to_night(3)
    assert legal_actions(t.state, uid(5)).night_action == "slay"
    m = t.mark()
    t.fnight(slay=9)
    assert deaths(t, m) == (9,)
    t.to_night(4)
    assert legal_actions(t.state, uid(5)).night_action is None
    t.to_night(5)
    assert legal_actions(t.state, uid(5)).night_action == "slay"


def test_FORUM_Q12_nights_three_five_seven_or_every_night():
    t = forum_at_night(DEAL, options={"alternate_nights": False})
    assert legal_actions(t.state, uid(5)).night_action == "slay"
    assert legal_actions(t.state, uid(6)).night_action == "infect"
    t.to_night(3)
    assert legal_actions(t.state, uid(6)).night_action == "infect"


def test_FORUM_29_the_putana_infects_every_other_night():
    t = forum_at_night(DEAL)
    assert legal_actions(t.state, uid(6)).night_action is None
    t.to_night(3)
    assert legal_actions(t.state, uid(6)).night_action == "infect"
    assert uid(6) not in legal_actions(t.state, uid(6)).night_targets


def test_FORUM_30_the_infected_die_one_night_later():
    t = forum_at_night(DEAL, 3)
    m = t.mark()
    t.fnight(infect=9)
    assert deaths(t, m) == () and t.state.forum.infected == {uid(9): 3}
    t.to_night(4)
    t.act(9, "sleep")  # he acts normally meanwhile
    m = t.mark()
    t.fnight()
    assert deaths(t, m) == (9,)


def test_FORUM_Q15_the_infection_timeline():
    t = forum_at_night(DEAL, 3)  # a heal the night of the infection cures it
    t.fnight(infect=9, heal=9)
    assert not t.state.forum.infected
    t = forum_at_night(DEAL + "O", 3)  # the Cop's immunity on the night of death
    t.fnight(infect=9)
    t.to_night(4)
    t.cop_turn(9)
    m = t.mark()
    t.fnight()
    assert deaths(t, m) == () and not t.state.forum.infected
    t = forum_at_night(DEAL, 3)  # the Putana dies: her infection still runs
    t.fnight(infect=9, kill=6)
    t.last_words()
    t.to_night(4)
    m = t.mark()
    t.fnight()
    assert deaths(t, m) == (9,)
    t = forum_at_night(DEAL, 3, options={"alternate_nights": False})  # re-infecting: no effect
    t.fnight(infect=9)
    t.to_night(4)
    m = t.mark()
    t.fnight(infect=9, heal=9)
    assert deaths(t, m) == () and not t.state.forum.infected


def test_FORUM_Q14_the_maniac_and_the_mafia_on_one_player():
    t = forum_at_night(DEAL, 3)
    m = t.mark()
    t.fnight(kill=9, slay=9)
    assert deaths(t, m) == (9,) and len(t.events(PlayerEliminated, m)) == 1
    t = forum_at_night(DEAL, 3)
    m = t.mark()
    t.fnight(kill=9, slay=9, heal=9)
    assert deaths(t, m) == ()
    t = forum_at_night(DEAL, 3)
    m = t.mark()
    t.fnight(slay=1)  # the Mafia too
    assert deaths(t, m) == (1,)


def compare(t, a: int, b: int) -> bool | None:
    t.do(ComparePlayers(user_id=uid(t.role_seat(Role.JOURNALIST)), first=uid(a), second=uid(b)))
    e = t.last[0]
    assert isinstance(e, ComparisonResult) and e.audience == Private(e.checker)
    return e.same


def test_FORUM_34_the_journalist_compares_two_players():
    t = forum_at_night(DEAL)
    assert set(legal_actions(t.state, uid(7)).compare) == {uid(s) for s in range(1, 11) if s != 7}
    assert compare(t, 1, 2) is True
    t.refuse(ComparePlayers(user_id=uid(7), first=uid(3), second=uid(4)), AlreadyActed)


def test_FORUM_35_town_with_town_is_same_mafia_with_town_different():
    for a, b, same in ((3, 8, True), (1, 4, False), (1, 2, True), (6, 9, True), (4, 8, True)):
        t = forum_at_night(DEAL)
        assert compare(t, a, b) is same, (a, b)


def test_FORUM_36_the_maniac_is_always_different():
    for other in (1, 3, 6, 8):
        t = forum_at_night(DEAL, options={"alternate_nights": False})
        assert compare(t, 5, other) is False


def test_FORUM_Q18_two_different_living_players_not_himself():
    t = forum_at_night(DEAL)
    t.refuse(ComparePlayers(user_id=uid(7), first=uid(7), second=uid(1)), InvalidTarget)
    t.refuse(ComparePlayers(user_id=uid(7), first=uid(1), second=uid(1)), InvalidTarget)
    t.refuse(ComparePlayers(user_id=uid(3), first=uid(1), second=uid(2)), NoNightAction)
    t.refuse(NightAction(user_id=uid(7), action="compare", target=uid(1)), NoNightAction)


def test_FORUM_Q10_what_checks_show():
    t = forum_game("MMSCKPJWOTT")  # 1-2 Mafia, 3 Sleepwalker, 4 Commissar, 5 Maniac, 6 Putana
    t.intro({5: Team.MAFIA, 6: Team.MAFIA})
    t.to_night(2)
    t.cop_turn(None)
    t.act(4, "check", 5)  # the Maniac of the Mafia's side
    assert t.last[-1].is_mafia is False
    assert compare(t, 5, 1) is False  # the Maniac's own clan
    for target in (6, 3, 8, 9):  # Putana, Sleepwalker, Werewolf, Cop: "not Mafia"
        t2 = forum_game("MMSCKPJWOTT")
        t2.intro({6: Team.MAFIA})
        t2.to_night(2)
        t2.cop_turn(None)
        t2.act(4, "check", target)
        assert t2.last[-1].is_mafia is False
        assert compare(t2, target, 11) is True  # the Town clan


def test_FORUM_Q22_the_night_resolves_in_one_written_order():
    t = forum_game("MMSCDKPJWOT")
    t.intro()
    t.to_night(3)
    t.cop_turn(7)  # the Putana: immune, her infection void
    m = t.mark()
    t.fnight(kill=11, heal=11, slay=8, infect=9, check=7)
    assert t.events(CheckShrugged, m) == [CheckShrugged(checker=uid(4), target=uid(7),
                                                        audience=Private(uid(4)))]
    assert deaths(t, m) == (8,) and not t.state.forum.infected
    assert [e.user_id for e in t.events(PlayerEliminated, m)] == [uid(8)]


def test_FORUM_X04_who_may_be_targeted():
    t = forum_at_night(DEAL + "O", 3)
    cop = legal_actions(t.state, uid(11))
    assert cop.night_action == "block" and uid(11) not in cop.night_targets
    t.cop_turn(None)
    kill = legal_actions(t.state, uid(1))
    assert kill.night_action == "kill" and {uid(1), uid(2)} <= set(kill.night_targets)
    assert uid(5) not in legal_actions(t.state, uid(5)).night_targets
    assert uid(6) not in legal_actions(t.state, uid(6)).night_targets
    t.refuse(NightAction(user_id=uid(5), action="slay", target=uid(5)), InvalidTarget)


def test_FORUM_X14_two_missed_nights_make_a_player_inactive():
    t = forum_at_night(DEAL)
    for night in (2, 3):
        t.to_night(night)
        m = t.mark()
        for p in list(t.state.alive()):
            if p.seat == 8:
                continue  # he misses the night
            if p.team is Team.MAFIA:
                t.act(p.seat, "kill", 10 - night % 2)
            else:
                t.act(p.seat, "sleep")
        assert t.phase is Phase.NIGHT  # it waits for him
        t.timeout()
        assert [e.user_id for e in t.events(PlayerInactive, m)] == ([uid(8)] if night == 3 else [])
        t.last_words()


def test_FORUM_X09_a_blocked_commissar_shrugs():
    t = forum_at_night("MCDTTTO")
    t.cop_turn(2)
    t.act(2, "check", 1)
    assert t.last[-1] == CheckShrugged(checker=uid(2), target=uid(1), audience=Private(uid(2)))
