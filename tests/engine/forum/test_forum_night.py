"""The forum preset's nights: the acquaintance, the Mafia, the Commissar, the Doctor
(docs/rules/forum.md; the Maniac, the Putana, the Journalist and the resolution order:
test_forum_night_order.py)."""

from __future__ import annotations

from engine import (
    AlreadyActed,
    CheckResult,
    ComparePlayers,
    ForumPhase,
    InvalidTarget,
    MafiaPicks,
    MafiaRevealed,
    NightAction,
    NightDeaths,
    NightWake,
    NoNightAction,
    NotAllowed,
    Phase,
    PlayerEliminated,
    Private,
    RelayedMessage,
    RelayMessage,
    Role,
    Team,
    TeamChat,
    legal_actions,
)

from ..forum_helpers import forum_at_night, forum_game
from ..helpers import uid
from .night_support import DEAL, deaths


# --- night 1 ---------------------------------------------------------------------------------
def test_FORUM_50_the_acquaintance_wakes_the_roles_in_turn():
    t = forum_game("MMSCDKPJWOT")
    assert t.phase is Phase.NIGHT and t.last[-len(t.events(NightWake)) - 2].purpose == "intro"
    team = t.events(MafiaRevealed)[0]
    assert team.members == (uid(1), uid(2), uid(3)) and team.audience == TeamChat(Team.MAFIA)
    wakes = [(t.state.players[e.user_id].seat, e.role, e.turn) for e in t.events(NightWake)]
    assert wakes == [(1, Role.MAFIA, 1), (2, Role.MAFIA, 1), (3, Role.SLEEPWALKER, 1),
                     (4, Role.COMMISSAR, 2), (5, Role.DOCTOR, 3), (6, Role.MANIAC, 4),
                     (7, Role.PUTANA, 5)]
    assert all(e.audience == Private(e.user_id) for e in t.events(NightWake))


def test_FORUM_X19_night_one_wakes_only_the_listed_roles():
    t = forum_game("MMSCDKPJWOT")
    woken = {e.user_id for e in t.events(NightWake)}
    assert not woken & {uid(8), uid(9), uid(10), uid(11)}  # Journalist, Werewolf, Cop, civilian
    la = legal_actions(t.state, uid(6))
    assert la.choose_side and la.sleep and la.night_action is None
    assert legal_actions(t.state, uid(10)).sleep and not legal_actions(t.state, uid(10)).choose_side
    for p in t.state.alive():  # everybody taps: the night closes early
        if t.phase is Phase.NIGHT:
            t.act(p.seat, "sleep")
    assert t.phase is ForumPhase.DEBATE and t.state.day == 1


def test_FORUM_51_nobody_acts_on_night_one():
    t = forum_game(DEAL)
    for seat, action in ((1, "kill"), (3, "check"), (4, "heal"), (5, "slay"), (6, "infect")):
        t.refuse(NightAction(user_id=uid(seat), action=action, target=uid(9)), NoNightAction)
    t.refuse(ComparePlayers(user_id=uid(7), first=uid(1), second=uid(2)), NoNightAction)
    m = t.mark()
    t.intro()
    assert t.events(NightDeaths, m) == [NightDeaths(killed=())]
    assert len(t.state.alive()) == 10 and t.phase is ForumPhase.DEBATE


# --- the Mafia ---------------------------------------------------------------------------------
def test_FORUM_06_the_mafia_kill_by_one_common_decision():
    t = forum_at_night(DEAL)
    t.act(1, "kill", 9)
    assert t.last[-1] == MafiaPicks(picks=((uid(1), uid(9)), (uid(2), None)), agreed=None)
    t.act(2, "kill", 10)
    t.act(2, "kill", 9)  # a pick may change until the night closes
    m = t.mark()
    t.fnight()
    assert deaths(t, m) == (9,)


def test_FORUM_Q03_split_picks_kill_nobody():
    t = forum_at_night(DEAL)
    m = t.mark()
    t.fnight(kill={1: 9, 2: 10})
    assert deaths(t, m) == ()


def test_FORUM_X15_only_active_mafiosi_must_agree():
    from engine import MarkInactive

    t = forum_at_night(DEAL)
    t.do(MarkInactive(player=uid(2), reason="blocked"))
    m = t.mark()
    t.fnight(kill={1: 9})
    assert deaths(t, m) == (9,)


def test_FORUM_Q30_the_mafia_may_kill_a_teammate():
    t = forum_at_night(DEAL)
    m = t.mark()
    t.fnight(kill=2)
    assert deaths(t, m) == (2,)
    assert t.events(PlayerEliminated, m)[0].role is Role.MAFIA


def test_FORUM_X16_the_team_chat_talks_every_night():
    t = forum_game("MMSCDTTTTO")
    t.do(RelayMessage(user_id=uid(3), text="hello"))  # the Sleepwalker is a member
    assert t.last == [RelayedMessage(sender=uid(3), text="hello")]
    t.refuse(RelayMessage(user_id=uid(4), text="me too"), NotAllowed)
    t.to_night(2)
    assert t.phase is ForumPhase.COP_TURN
    t.do(RelayMessage(user_id=uid(1), text="x" * 1200))
    assert len(t.last[0].text) == 1000
    from engine.forum import team_chat

    assert team_chat(t.state) == [uid(1), uid(2), uid(3)]


# --- the Commissar -----------------------------------------------------------------------------
def test_FORUM_19_the_commissar_checks_one_player_a_night():
    t = forum_at_night(DEAL)
    t.act(3, "check", 1)
    assert t.last[-1] == CheckResult(checker=uid(3), target=uid(1), is_mafia=True,
                                     audience=Private(uid(3)))
    t.refuse(NightAction(user_id=uid(3), action="check", target=uid(8)), AlreadyActed)
    t.refuse(NightAction(user_id=uid(3), action="check", target=uid(3)), InvalidTarget)
    assert legal_actions(t.state, uid(3)).night_action is None


def test_FORUM_20_a_check_stays_private():
    t = forum_at_night(DEAL)
    t.act(3, "check", 8)
    result = t.last[-1]
    assert result.audience == Private(uid(3)) and result.is_mafia is False
    t.fnight()
    la = legal_actions(t.state, uid(3))
    assert t.phase is ForumPhase.DEBATE and la.reveal_check == () and la.suspect == ()


def test_FORUM_X09_answers_come_at_once_as_at_the_start_of_the_night():
    t = forum_at_night("MCDWTTT")
    t.act(2, "check", 4)  # the Werewolf, while the Mafia lives
    assert t.last[-1].is_mafia is False
    t.fnight(kill=1)  # the last mafioso kills himself: the Werewolf turns at dawn
    t.last_words()
    assert t.state.players[uid(4)].team is Team.MAFIA


# --- the Doctor --------------------------------------------------------------------------------
def test_FORUM_22_one_heal_a_night():
    t = forum_at_night(DEAL)
    t.act(4, "heal", 9)
    t.refuse(NightAction(user_id=uid(4), action="heal", target=uid(10)), AlreadyActed)
    t.refuse(NightAction(user_id=uid(4), action="sleep"), AlreadyActed)


def test_FORUM_23_the_heal_saves_the_mafia_victim():
    t = forum_at_night(DEAL)
    m = t.mark()
    t.fnight(kill=9, heal=9)
    assert deaths(t, m) == ()
    t.to_night(3)
    m = t.mark()
    t.fnight(kill=9, heal=10)
    assert deaths(t, m) == (9,)


def test_FORUM_24_the_doctor_heals_himself_once_a_game():
    t = forum_at_night(DEAL)
    assert uid(4) in legal_actions(t.state, uid(4)).night_targets
    t.fnight(kill=4, heal=4)
    assert t.state.is_alive(uid(4))
    t.to_night(3)
    assert uid(4) not in legal_actions(t.state, uid(4)).night_targets
    t.refuse(NightAction(user_id=uid(4), action="heal", target=uid(4)), InvalidTarget)


def test_FORUM_X05_the_self_heal_is_spent_when_chosen():
    t = forum_at_night("MCDTTTO")
    t.cop_turn(3)  # the Cop's target: the Doctor, whose heal is void
    m = t.mark()
    t.fnight(kill=4, heal=3)
    assert deaths(t, m) == (4,) and t.state.forum.self_healed


def test_FORUM_25_the_heal_cures_the_maniac_and_the_putana():
    t = forum_at_night(DEAL, 3)
    m = t.mark()
    t.fnight(slay=9, heal=9, infect=10)
    assert deaths(t, m) == ()
    t.to_night(4)
    m = t.mark()
    t.fnight(heal=10)  # the infection of night 3 falls due and is cured
    assert deaths(t, m) == () and not t.state.forum.infected


def test_FORUM_Q11_repeated_heals_and_the_announcement():
    t = forum_at_night(DEAL, options={"announce_save": True})
    m = t.mark()
    t.fnight(kill=9, heal=9)
    assert t.events(NightDeaths, m) == [NightDeaths(killed=(), saved=True)]
    t.to_night(3)
    t.act(4, "heal", 9)  # the same patient again
    t2 = forum_at_night(DEAL)
    m = t2.mark()
    t2.fnight(kill=9, heal=9)
    assert t2.events(NightDeaths, m) == [NightDeaths(killed=(), saved=False)]
