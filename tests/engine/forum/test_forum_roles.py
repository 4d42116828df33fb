"""The forum preset's sided and extra roles: the Maniac's and the Putana's sides, the Sleepwalker,
the Werewolf and the Cop (docs/rules/forum.md)."""

from __future__ import annotations

from engine import (
    AlreadyActed,
    CheckResult,
    CheckShrugged,
    ChooseSide,
    ForumPhase,
    HostNext,
    InvalidTarget,
    MafiaBlocked,
    MafiaPicks,
    MafiaRevealed,
    NightAction,
    NightDeaths,
    NightExtended,
    NightWake,
    NoNightAction,
    NotAllowed,
    Phase,
    PhaseClosed,
    PhaseStarted,
    PlayerEliminated,
    Private,
    RelayMessage,
    Role,
    RolesRevealed,
    SideChosen,
    SleepwalkerRevealed,
    Team,
    TeamChat,
    VictoryDeclared,
    WerewolfTurned,
    legal_actions,
)
from engine.core.audience import HOST

from ..forum_helpers import forum_at_day, forum_at_night, forum_game
from ..helpers import uid

SIDED = "MMCDKPJTTT"  # 5 Maniac, 6 Putana
SLEEPY = "MMSCDTTTTT"  # 3 Sleepwalker, 4 Commissar, 5 Doctor
WOLF = "MCDWTTT"  # 1 Mafia, 2 Commissar, 3 Doctor, 4 Werewolf
COP = "MMCDKTTTTO"  # 5 Maniac, 10 Cop


def deaths(t, since: int) -> tuple[int, ...]:
    return tuple(t.state.players[u].seat for e in t.events(NightDeaths, since) for u in e.killed)


# --- the Maniac's and the Putana's sides ---------------------------------------------------------
def test_FORUM_26_the_maniac_chooses_his_side_on_night_one():
    t = forum_game(SIDED, host=True)
    t.do(ChooseSide(user_id=uid(5), side=Team.MAFIA))
    assert t.last == [SideChosen(user_id=uid(5), side=Team.MAFIA, audience=Private(uid(5))),
                      SideChosen(user_id=uid(5), side=Team.MAFIA, audience=HOST)]
    t.refuse(ChooseSide(user_id=uid(5), side=Team.TOWN), AlreadyActed)
    t.refuse(ChooseSide(user_id=uid(3), side=Team.MAFIA), NotAllowed)
    assert not legal_actions(t.state, uid(5)).choose_side
    t.intro()
    t.to_night(2)
    t.refuse(ChooseSide(user_id=uid(6), side=Team.MAFIA), PhaseClosed)


def test_FORUM_28_the_putana_chooses_her_side_too():
    t = forum_game(SIDED)
    assert legal_actions(t.state, uid(6)).choose_side
    t.intro({6: Team.MAFIA})
    assert t.state.forum.sides == {uid(5): Team.TOWN, uid(6): Team.MAFIA}


def test_FORUM_Q13_town_by_default_and_the_sided_count_as_town_for_parity():
    t = forum_game("MKTTT")
    m = t.mark()
    t.intro()
    assert SideChosen(user_id=uid(2), side=Team.TOWN, by_default=True,
                      audience=Private(uid(2))) in t.events(SideChosen, m)
    t = forum_game("MKTTT")
    t.intro({2: Team.MAFIA})
    t.vote_out(3)
    t.fnight(kill=4)  # Mafia 1, Maniac (for the Mafia) and a civilian: no parity yet
    t.last_words()
    assert t.phase is ForumPhase.DEBATE and not t.events(VictoryDeclared)
    t.vote_out(5)
    win = t.events(VictoryDeclared)[0]
    assert win.winner is Team.MAFIA
    t.do(HostNext(user_id=t.state.host)) if t.state.host else t.timeout()  # skip the bonus
    reveal = t.events(RolesRevealed)[0]
    assert reveal.winners == (uid(1), uid(2)) and reveal.sides == ((uid(2), Team.MAFIA),)


# --- the Sleepwalker ---------------------------------------------------------------------------
def test_FORUM_37_the_sleepwalker_wakes_with_the_mafia():
    t = forum_game(SLEEPY)
    assert t.events(MafiaRevealed)[0].members == (uid(1), uid(2), uid(3))
    wake = [e for e in t.events(NightWake) if e.user_id == uid(3)][0]
    assert wake.role is Role.SLEEPWALKER and wake.turn == 1 and wake.mafia == (uid(1), uid(2))


def test_FORUM_39_the_sleepwalker_is_revealed_and_the_mafia_choose_again():
    t = forum_at_night(SLEEPY)
    t.act(1, "kill", 3)
    t.act(2, "kill", 3)
    assert SleepwalkerRevealed(user_id=uid(3)) in t.last
    assert t.last[-1] == MafiaPicks(picks=((uid(1), None), (uid(2), None), (uid(3), None)),
                                    agreed=None)
    assert t.state.mafia_picks == {} and uid(3) not in legal_actions(t.state, uid(1)).night_targets
    t.refuse(NightAction(user_id=uid(1), action="kill", target=uid(3)), InvalidTarget)
    assert legal_actions(t.state, uid(3)).night_action is None
    m = t.mark()
    t.fnight(kill=6)
    assert deaths(t, m) == (3, 6)


def test_FORUM_40_the_revealed_sleepwalker_leaves_healed_or_not():
    t = forum_at_night(SLEEPY)
    t.act(1, "kill", 3)
    t.act(2, "kill", 3)
    m = t.mark()
    t.fnight(kill=7, heal=3)
    assert deaths(t, m) == (3, 7)
    out = t.events(PlayerEliminated, m)[0]
    assert out.role is Role.SLEEPWALKER and out.cause == "night"
    assert t.phase is Phase.LAST_WORD and t.speaker == 3  # Town status: a last word


def test_FORUM_Q19_the_sleepwalker_poses_but_never_counts():
    t = forum_at_night(SLEEPY)
    t.act(3, "kill", 7)
    assert t.last[-1].picks == ((uid(1), None), (uid(2), None), (uid(3), uid(7)))
    m = t.mark()
    t.fnight(kill=6)
    assert deaths(t, m) == (6,)
    assert all(e.agreed is None for e in t.events(MafiaPicks))
    t = forum_at_night(SLEEPY)  # his own pick on himself reveals nothing
    t.act(3, "kill", 3)
    assert not [e for e in t.last if isinstance(e, SleepwalkerRevealed)]


def test_FORUM_X06_a_sleepwalker_under_the_cops_protection_is_not_revealed():
    t = forum_at_night("MMSCDTTTTO")
    t.cop_turn(3)
    t.act(1, "kill", 3)
    t.act(2, "kill", 3)
    assert not [e for e in t.last if isinstance(e, SleepwalkerRevealed)]
    m = t.mark()
    t.fnight()
    assert deaths(t, m) == () and t.state.is_alive(uid(3))


def test_FORUM_X07_one_more_minute_after_a_reveal():
    t = forum_at_night(SLEEPY)
    t.act(1, "kill", 3)
    t.act(2, "kill", 3)
    seq = t.state.timer.seq
    t.timeout()
    assert t.last == [NightExtended(timer_seq=seq + 1, seconds=60)]
    assert t.phase is Phase.NIGHT and t.state.timer.kind == "repick"
    m = t.mark()
    t.timeout()  # still no choice: the night ends, only the Sleepwalker leaves
    assert deaths(t, m) == (3,)
    t = forum_at_night(SLEEPY, host=True)  # the host's Next: no extra minute
    t.act(1, "kill", 3)
    t.act(2, "kill", 3)
    m = t.mark()
    t.do(HostNext(user_id=t.state.host))
    assert deaths(t, m) == (3,) and not t.events(NightExtended, m)


# --- the Werewolf ------------------------------------------------------------------------------
def test_FORUM_41_the_werewolf_checks_as_a_civilian_while_the_mafia_lives():
    t = forum_at_night(WOLF)
    t.act(2, "check", 4)
    assert t.last[-1] == CheckResult(checker=uid(2), target=uid(4), is_mafia=False,
                                     audience=Private(uid(2)))


def test_FORUM_42_the_werewolf_becomes_the_mafia():
    t = forum_at_day(WOLF)
    m = t.mark()
    t.vote_out(1)
    assert WerewolfTurned(user_id=uid(4), audience=Private(uid(4))) in t.events(since=m)
    assert t.events(MafiaRevealed, m)[-1].members == (uid(4),)
    assert not t.events(VictoryDeclared) and t.state.players[uid(4)].team is Team.MAFIA
    t.to_night(2)
    assert legal_actions(t.state, uid(4)).night_action == "kill"
    m = t.mark()
    t.fnight(kill=5)
    assert deaths(t, m) == (5,)


def test_FORUM_43_the_turned_werewolf_wins_when_one_is_left_beside_him():
    t = forum_at_day("MWTT")
    t.vote_out(1)
    t.fnight(kill=3)
    t.last_words()
    win = t.events(VictoryDeclared)[0]
    assert win.winner is Team.MAFIA and t.alive_seats() == [2, 4]


def test_FORUM_Q20_after_the_turn_checks_say_mafia_and_town_needs_him_gone():
    t = forum_at_day(WOLF)
    t.vote_out(1)
    t.to_night(2)
    t.act(2, "check", 4)
    assert t.last[-1].is_mafia is True
    t = forum_at_night("MWTT")  # parity at the turn: he wins at once
    t.fnight(kill=3)
    t.last_words()
    t.vote_out(1)
    assert t.events(VictoryDeclared)[0].winner is Team.MAFIA
    t = forum_at_day(WOLF)
    t.vote_out(1)
    t.to_day(2)
    t.vote_out(4)
    assert t.events(VictoryDeclared)[0].winner is Team.TOWN


def test_FORUM_X08_the_werewolf_turns_in_the_very_step_the_mafia_is_gone():
    t = forum_at_night("MKWTTT", options={"alternate_nights": False})
    m = t.mark()
    t.fnight(slay=1)
    step = t.events(since=m)
    kinds = [type(e).__name__ for e in step]
    assert kinds.index("WerewolfTurned") > kinds.index("PlayerEliminated")
    assert t.phase is ForumPhase.DEBATE  # a mafioso has no last word; no win: the day goes on
    t = forum_at_night("MKWTTT", options={"alternate_nights": False})
    t.fnight(slay=1, kill=3)  # both gone the same night: no turn, Town wins
    assert not t.events(WerewolfTurned)
    t.last_words()
    assert t.events(VictoryDeclared)[0].winner is Team.TOWN


def test_FORUM_X08_the_sleepwalker_sees_the_turned_werewolf():
    t = forum_at_day("MSWTTT")
    t.vote_out(1)
    assert t.events(MafiaRevealed)[-1] == MafiaRevealed(members=(uid(2), uid(3)))


# --- the Cop -----------------------------------------------------------------------------------
def test_FORUM_44_the_cop_moves_first():
    t = forum_at_night(COP)
    assert t.phase is ForumPhase.COP_TURN and t.state.timer.kind == "cop"
    for seat in (1, 3, 4, 6):
        la = legal_actions(t.state, uid(seat))
        assert la.night_action is None and not la.sleep and not la.compare
    t.refuse(NightAction(user_id=uid(3), action="check", target=uid(1)), NoNightAction)
    t.refuse(NightAction(user_id=uid(6), action="sleep"), NoNightAction)
    assert legal_actions(t.state, uid(10)).night_action == "block"
    t.do(RelayMessage(user_id=uid(1), text="wait for him"))


def test_FORUM_45_the_night_goes_on_after_the_cop():
    t = forum_at_night(COP)
    t.cop_turn(6)
    assert t.last[-1] == PhaseStarted(phase="night", phase_seq=t.state.phase_seq,
                                      timer_seq=t.state.timer.seq, seconds=180, day=1, night=2,
                                      purpose="night")
    t = forum_at_night(COP)
    t.cop_turn(None)  # his time runs out
    assert t.phase is Phase.NIGHT and t.last[-1].purpose == "night"


def test_FORUM_46_the_cops_target_is_immune_and_acts_in_vain():
    t = forum_at_night(COP)
    t.cop_turn(4)  # the Doctor: his heal is void
    m = t.mark()
    t.fnight(kill=6, heal=6)
    assert deaths(t, m) == (6,)
    t = forum_at_night(COP)
    t.cop_turn(7)  # the Mafia's victim survives
    m = t.mark()
    t.fnight(kill=7)
    assert deaths(t, m) == ()
    t = forum_at_night(COP, 3)
    t.cop_turn(5)  # the Maniac's kill is void
    m = t.mark()
    t.fnight(slay=7)
    assert deaths(t, m) == ()


def test_FORUM_47_the_commissar_gets_a_shrug():
    t = forum_at_night(COP)
    t.cop_turn(1)
    t.act(3, "check", 1)
    assert t.last[-1] == CheckShrugged(checker=uid(3), target=uid(1), audience=Private(uid(3)))
    assert not [e for e in t.last if isinstance(e, CheckResult)]


def test_FORUM_48_the_cop_on_a_mafioso_stops_the_mafia_kill():
    t = forum_at_night(COP, options={"alternate_nights": False})
    t.cop_turn(2)
    assert t.last[1] == MafiaBlocked() and t.last[1].audience == TeamChat(Team.MAFIA)
    la = legal_actions(t.state, uid(1))
    assert la.night_action is None and la.sleep
    t.refuse(NightAction(user_id=uid(1), action="kill", target=uid(6)), NoNightAction)
    m = t.mark()
    t.fnight(slay=6)  # the Maniac may still kill
    assert deaths(t, m) == (6,)


def test_FORUM_Q21_the_cop_is_town_never_on_himself_and_his_turn_always_runs():
    t = forum_at_night(COP)
    t.refuse(NightAction(user_id=uid(10), action="block", target=uid(10)), InvalidTarget)
    t.cop_turn(6)
    t.fnight()
    t.to_night(3)
    t.cop_turn(6)  # the same target again
    assert t.state.forum.cop_target == uid(6)
    t = forum_at_night(COP)
    t.cop_turn(None)
    t.fnight(kill=10)
    t.to_night(3)  # the dead Cop's turn still runs its full length
    assert t.phase is ForumPhase.COP_TURN and not legal_actions(t.state, uid(10)).night_action
    t.timeout()
    assert t.phase is Phase.NIGHT
    assert t.events(PlayerEliminated)[0].role is Role.COP


def test_FORUM_X23_a_reveal_at_the_close_leaves_no_time_to_choose_again():
    t = forum_at_night(SLEEPY)
    for night, pick in ((2, 8), (3, 3)):  # seat 2 never picks: inactive at night 3's deadline
        t.to_night(night)
        t.act(1, "kill", pick)
        for p in list(t.state.alive()):
            if p.seat > 2:
                t.act(p.seat, "sleep")
        m = t.mark()
        t.timeout()
    kinds = [type(e).__name__ for e in t.events(since=m)]
    assert kinds.index("PlayerInactive") < kinds.index("SleepwalkerRevealed") < \
        kinds.index("NightDeaths")
    assert deaths(t, m) == (3,)  # only the revealed Sleepwalker: no Mafia kill
