"""Online preset: the night from night 2 -- shots, checks, misfires -- the best move and the end
(docs/rules/online-sport.md, ONLINE-05..15, 36, 37, 51, 52, Q12..Q17)."""

from __future__ import annotations

from engine import (
    AlreadyActed,
    BestMove,
    CheckResult,
    ChooseBestMove,
    DonCheckResult,
    GameEnded,
    InvalidTarget,
    MafiaPicks,
    MarkAfk,
    MarkInactive,
    Misfire,
    NightAction,
    NightActionAccepted,
    NightResult,
    NoNightAction,
    NotYourTurn,
    OnlinePhase,
    Phase,
    PhaseClosed,
    PlayerEliminated,
    PlayerInactive,
    Private,
    Role,
    TargetNotAlive,
    Team,
    TurnSkipped,
    legal_actions,
)
from engine.online.night import shot_target

from ..helpers import uid
from ..online_helpers import OnlineTable, online_at_day, online_at_night, online_game

DEAL = "DMMSTTTTTT"  # seat 1 Don, 2-3 mafiosi, 4 Sheriff, 5-10 civilians


def kill_on_night_2(t: OnlineTable, victim: int) -> None:
    """From day 1's discussion: nobody out by day, every black shoots ``victim`` on night 2."""
    t.ballot({})
    t.onight(kill=victim, don_check=4, check=1)


# --- the night's moves -----------------------------------------------------------------------
def test_ONLINE_05_night_2_collects_shots_checks_and_the_search():
    t = online_at_night(10, 2)
    don, mafioso, sheriff, civ = (legal_actions(t.state, uid(s)) for s in (1, 2, 4, 6))
    assert don.night_action == "kill" and don.night_extra == "don_check" and don.sleep
    assert set(don.night_extra_targets) == {uid(s) for s in range(4, 11)}
    assert mafioso.night_action == "kill" and mafioso.night_extra is None and not mafioso.sleep
    assert sheriff.night_action == "sheriff_check" and sheriff.sleep
    assert uid(4) not in sheriff.night_targets and len(sheriff.night_targets) == 9
    assert civ.night_action is None and civ.sleep


def test_ONLINE_06_the_night_closes_early_when_everyone_is_done():
    t = online_at_night(10, 2)
    t.onight(kill=7, don_check=4, check=1, close=False)
    assert t.events(NightResult)[-1].killed == uid(7)
    assert t.phase is OnlinePhase.BEST_MOVE


def test_ONLINE_06_an_idle_sheriff_keeps_it_open_until_the_timer():
    t = online_at_night(10, 2)
    t.onight(kill=7, don_check=4, skip=[4], close=False)
    assert t.phase is Phase.NIGHT and t.state.night == 2
    t.timeout()
    assert t.events(NightResult)[-1].killed == uid(7)
    assert t.events(PlayerInactive)[-1].user_id == uid(4)  # ONLINE-Q20: missed -> OFFLINE


def test_ONLINE_10_the_sheriff_checks_one_player_a_night():
    t = online_at_night(10, 2)
    t.do(NightAction(user_id=uid(4), action="sheriff_check", target=uid(2)))
    t.refuse(NightAction(user_id=uid(4), action="sheriff_check", target=uid(3)), AlreadyActed)
    t.refuse(NightAction(user_id=uid(4), action="sleep"), AlreadyActed)
    t2 = online_at_night(10, 2)
    t2.refuse(NightAction(user_id=uid(4), action="sheriff_check", target=uid(4)), InvalidTarget)


def test_ONLINE_11_the_sheriff_sees_don_and_mafia_alike():
    results = []
    for target in (1, 2, 6):
        t = online_at_night(10, 2)
        t.do(NightAction(user_id=uid(4), action="sheriff_check", target=uid(target)))
        results.append(t.events(CheckResult)[-1])
    assert [r.is_mafia for r in results] == [True, True, False]
    assert results[0].audience == Private(uid(4))
    # word for word the same for the Don and a plain mafioso: only the target differs
    assert {(r.is_mafia, r.checker) for r in results[:2]} == {(True, uid(4))}


def test_ONLINE_12_every_black_shoots_for_himself():
    t = online_at_night(10, 2)
    for seat, target in ((1, 6), (2, 6), (3, 7)):
        accepted = t.do(NightAction(user_id=uid(seat), action="kill", target=uid(target)))
        assert accepted[0] == NightActionAccepted(user_id=uid(seat), action="kill",
                                                  target=uid(target), audience=Private(uid(seat)))
    assert not t.events(MafiaPicks)  # blind shots (ONLINE-X04)
    t.refuse(NightAction(user_id=uid(3), action="kill", target=uid(6)), AlreadyActed)


def test_ONLINE_13_the_kill_needs_every_required_shooter_on_one_living_target():
    t = online_at_night(10, 2)
    t.onight(kill=6, don_check=4, check=1)
    assert t.events(NightResult)[-1].killed == uid(6) and not t.events(Misfire)
    t = online_at_night(10, 2)
    t.onight(kill={1: 6, 2: 6}, don_check=4, check=1)  # seat 3 silent: a misfire
    assert t.events(NightResult)[-1].killed is None and t.events(Misfire)[-1].count == 1


def test_ONLINE_14_split_shots_are_a_misfire():
    t = online_at_night(10, 2)
    t.onight(kill={1: 6, 2: 6, 3: 2}, don_check=4, check=1)
    assert t.events(NightResult)[-1].killed is None
    assert t.events(Misfire)[-1].count == 1 and not t.events(PlayerEliminated)
    assert t.phase is OnlinePhase.DISCUSSION and t.state.day == 2


def test_ONLINE_15_the_don_searches_for_the_sheriff_among_non_blacks():
    t = online_at_night(10, 2)
    t.do(NightAction(user_id=uid(1), action="don_check", target=uid(4)))
    found = t.events(DonCheckResult)[-1]
    assert found.is_sheriff and found.audience == Private(uid(1)) and found.target == uid(4)
    t = online_at_night(10, 2)
    t.refuse(NightAction(user_id=uid(1), action="don_check", target=uid(2)), InvalidTarget)
    t.refuse(NightAction(user_id=uid(1), action="don_check", target=uid(1)), InvalidTarget)
    t.do(NightAction(user_id=uid(1), action="don_check", target=uid(7)))
    assert not t.events(DonCheckResult)[-1].is_sheriff


def test_ONLINE_Q13_results_come_at_once_and_a_shot_checker_keeps_his():
    t = online_at_night(10, 2)
    t.do(NightAction(user_id=uid(4), action="sheriff_check", target=uid(1)))
    assert isinstance(t.last[-1], CheckResult) and t.phase is Phase.NIGHT  # at once
    t.do(NightAction(user_id=uid(1), action="don_check", target=uid(4)))
    assert isinstance(t.last[-1], DonCheckResult)
    t.onight(kill=4)  # the Sheriff is shot after his check
    assert t.events(NightResult)[-1].killed == uid(4)
    assert t.events(CheckResult)[-1].checker == uid(4)  # nothing takes it back
    # rechecks are allowed on later nights
    t = online_at_night(10, 2)
    t.onight(kill=9, don_check=4, check=1)
    t.best_move()
    t.last_words()
    t.ballot({})
    t.onight(kill=8, don_check=4, check=1)
    assert [(e.target, e.is_mafia) for e in t.events(CheckResult)] == [(uid(1), True)] * 2
    assert [e.target for e in t.events(DonCheckResult)] == [uid(4)] * 2


def test_ONLINE_Q14_an_offline_black_is_still_required_an_afk_one_is_not():
    t = online_at_night(10, 2)
    t.do(MarkInactive(player=uid(3), reason="blocked"))  # OFFLINE
    t.onight(kill={1: 6, 2: 6}, don_check=4, check=1, skip=[3])
    assert t.events(NightResult)[-1].killed is None  # he did not shoot: a misfire
    t = online_at_night(10, 2)
    t.do(MarkInactive(player=uid(3), reason="blocked"))
    t.do(MarkAfk(player=uid(3)))
    t.onight(kill={1: 6, 2: 6}, don_check=4, check=1, skip=[3], close=False)
    assert t.events(NightResult)[-1].killed == uid(6)  # closed early: 3 is not awaited


def test_ONLINE_Q14_a_night_without_a_required_shooter_is_a_misfire():
    t = online_at_night(10, 2)
    for seat in (1, 2, 3):
        t.do(MarkInactive(player=uid(seat), reason="left"))
        t.do(MarkAfk(player=uid(seat)))
    assert shot_target(t.state) is None
    t.onight(check=1, skip=[1, 2, 3], close=False)  # every counted player done
    assert t.events(Misfire)[-1].count == 1 and t.phase is OnlinePhase.DISCUSSION


def test_ONLINE_Q14_shooting_a_teammate_is_allowed():
    t = online_at_night(10, 2)
    t.onight(kill=2, don_check=4, check=1)
    assert t.events(NightResult)[-1].killed == uid(2)


def test_ONLINE_Q15_the_don_may_skip_the_search_and_the_night_waits_for_everyone():
    t = online_at_night(10, 2)
    for seat in (1, 2, 3):
        t.do(NightAction(user_id=uid(seat), action="kill", target=uid(6)))
    for seat in range(4, 11):
        t.do(NightAction(user_id=uid(seat), action="sleep"))
    assert t.phase is Phase.NIGHT  # the Don has not checked or skipped
    assert legal_actions(t.state, uid(1)).sleep
    t.do(NightAction(user_id=uid(1), action="sleep"))  # skips the search, keeps his shot
    assert t.events(NightResult)[-1].killed == uid(6)
    # a black has no Sleep: only his shot makes him done
    t = online_at_night(10, 2)
    t.refuse(NightAction(user_id=uid(2), action="sleep"), NoNightAction)


def test_ONLINE_Q16_misfires_count_from_night_2_only():
    t = online_game(10)
    t.onight()  # night 1: no shot, no misfire
    assert not t.events(Misfire) and t.state.online.misfires == 0
    t.ballot({})
    t.onight()
    assert t.events(Misfire)[-1].count == 1 and t.state.online.misfires == 1


# --- misfires and the end ----------------------------------------------------------------------
def test_ONLINE_36_three_misfires_in_a_row_town_wins():
    t = online_at_day(10)
    for _, count in ((2, 1), (3, 2)):
        t.ballot({})
        t.onight(kill={1: 5, 2: 6, 3: 7})
        assert t.events(Misfire)[-1].count == count and not t.state.over
    t.ballot({})
    t.onight(kill={1: 5, 2: 5, 3: 7})
    tail = t.last[-3:]
    assert isinstance(tail[0], NightResult) and tail[0].killed is None
    assert tail[1] == Misfire(count=3)
    assert isinstance(tail[2], GameEnded) and tail[2].winner is Team.TOWN
    assert t.state.phase is Phase.ENDED and t.state.day == 3


def test_ONLINE_37_a_kill_resets_the_misfire_count():
    t = online_at_day(10)
    t.ballot({})
    t.onight(kill={1: 5, 2: 6, 3: 7})  # misfire 1
    t.ballot({})
    t.onight(kill={1: 5, 2: 6, 3: 7})  # misfire 2
    t.ballot({})
    t.onight(kill=9)  # a kill
    assert t.state.online.misfires == 0
    t.last_words()
    for count in (1, 2):
        t.ballot({})
        t.onight(kill={1: 5, 2: 6, 3: 7})
        assert t.events(Misfire)[-1].count == count
    assert not t.state.over  # misfire, misfire, kill, misfire, misfire: the count is 2


def test_ONLINE_51_town_wins_when_the_blacks_are_gone():
    t = online_at_day(6)  # D M S T T T
    t.leave_by_vote(1)
    t.onight(kill=6)
    t.best_move()
    t.last_words()
    t.ballot({v: 2 for v in t.alive_seats()}, close=False)
    assert t.phase is Phase.LAST_WORD and not t.state.over  # his last word first
    t.last_words()
    assert t.events(GameEnded)[-1].winner is Team.TOWN


def test_ONLINE_52_mafia_wins_at_parity_after_the_last_word():
    t = online_at_day(6)  # 2 blacks, 4 reds
    t.leave_by_vote(5)  # 2 v 3
    t.onight(kill=6, don_check=4, check=1)  # 2 v 2
    t.best_move(2, 3, 4)
    assert not t.state.over
    t.last_words()
    assert t.events(GameEnded)[-1].winner is Team.MAFIA


def test_ONLINE_Q17_afk_and_offline_players_count_as_alive():
    t = online_at_day(6)
    t.do(MarkInactive(player=uid(4), reason="left"))
    t.do(MarkAfk(player=uid(4)))
    t.do(MarkInactive(player=uid(3), reason="blocked"))
    t.leave_by_vote(5)  # 2 blacks v the Sheriff (OFFLINE), seat 4 (AFK) and seat 6
    assert not t.state.over and t.phase is Phase.NIGHT


# --- the best move -------------------------------------------------------------------------------
def test_ONLINE_07_the_first_victim_makes_his_best_move_then_his_last_word():
    t = online_at_day(10)
    kill_on_night_2(t, 4)
    assert t.phase is OnlinePhase.BEST_MOVE and t.state.speaker == uid(4)
    assert t.state.timer.kind == "best_move" and t.state.timer.seconds == 30
    la = legal_actions(t.state, uid(4))
    assert set(la.best_move) == {uid(s) for s in range(1, 11) if s != 4}
    assert legal_actions(t.state, uid(5)).best_move == ()
    t.best_move(1, 5, 9)
    assert t.last[0] == BestMove(user_id=uid(4), targets=(uid(1), uid(5), uid(9)))
    assert t.phase is Phase.LAST_WORD and t.state.speaker == uid(4)


def test_ONLINE_08_the_best_move_names_exactly_three_other_living_players():
    t = online_at_day(10)
    t.ballot({v: 9 for v in range(1, 11)})
    t.last_words()
    t.onight(kill=4, don_check=5, check=1)
    for picks, error in (((1, 5), InvalidTarget), ((1, 5, 9, 10), InvalidTarget),
                         ((1, 5, 4), InvalidTarget), ((1, 1, 5), InvalidTarget),
                         ((1, 5, 9), TargetNotAlive)):
        t.refuse(ChooseBestMove(user_id=uid(4), targets=tuple(uid(s) for s in picks)), error)
    t.refuse(ChooseBestMove(user_id=uid(5), targets=(uid(1), uid(2), uid(3))), NotYourTurn)
    t.best_move(1, 2, 3)
    t.refuse(ChooseBestMove(user_id=uid(4), targets=(uid(1), uid(2), uid(3))), PhaseClosed)


def test_ONLINE_Q12_no_best_move_after_a_misfire_on_night_2():
    t = online_at_day(10)
    t.ballot({})
    t.onight(kill={1: 5, 2: 6, 3: 7})  # night 2 misfires
    t.ballot({})
    t.onight(kill=6, don_check=4, check=1)  # the first kill, on night 3
    assert t.phase is Phase.LAST_WORD and not t.events(BestMove)


def test_ONLINE_Q12_skipping_and_the_timer_publish_an_empty_best_move():
    t = online_at_day(10)
    kill_on_night_2(t, 6)
    t.best_move()
    assert t.events(BestMove)[-1].targets == () and t.phase is Phase.LAST_WORD
    t = online_at_day(10)
    kill_on_night_2(t, 6)
    t.timeout()
    assert t.events(BestMove)[-1].targets == () and t.phase is Phase.LAST_WORD


def test_ONLINE_X11_an_offline_victim_loses_his_best_move():
    t = online_at_day(10)
    t.ballot({})
    t.do(MarkInactive(player=uid(6), reason="blocked"))
    t.onight(kill=6, don_check=4, check=1, skip=[6])
    assert not t.events(BestMove) and t.events(TurnSkipped)[-1].user_id == uid(6)
    assert t.phase is OnlinePhase.DISCUSSION  # no best move, no last word
    t = online_at_day(10)
    kill_on_night_2(t, 6)
    t.do(MarkInactive(player=uid(6), reason="blocked"))  # drops out during it
    assert t.events(BestMove)[-1].targets == ()


def test_ONLINE_X04_no_role_name_in_the_morning():
    t = online_at_day(10)
    kill_on_night_2(t, 4)  # the Sheriff
    morning = t.events(NightResult)[-1]
    assert morning.killed == uid(4) and not any(
        isinstance(v, (Role, Team)) for v in vars(morning).values())


def test_ONLINE_X05_sleep_skips_a_check_never_a_shot():
    t = online_at_night(10, 2)
    t.do(NightAction(user_id=uid(1), action="sleep"))  # the Don skips his search first...
    t.refuse(NightAction(user_id=uid(1), action="don_check", target=uid(4)), AlreadyActed)
    la = legal_actions(t.state, uid(1))
    assert la.night_action == "kill" and la.night_extra is None and not la.sleep  # ...not his shot
    t.do(NightAction(user_id=uid(4), action="sleep"))  # the Sheriff skips his check
    t.refuse(NightAction(user_id=uid(4), action="sheriff_check", target=uid(1)), AlreadyActed)
    t.refuse(NightAction(user_id=uid(3), action="sleep"), NoNightAction)
    t.onight(kill=6, close=False)
    assert t.events(NightResult)[-1].killed == uid(6)
