"""Scoring systems and the score sheet (docs/rules/scoring.md, SCORE-X01..X09), on games built
through real commands: an online town win with a best move of 2 of 3, a club game with a
disqualification and a fourth foul, a procedural loss."""

from __future__ import annotations

import pytest

from engine import (
    CancelGame,
    Disqualify,
    IssueFoul,
    Phase,
    Role,
    Team,
    command_from_dict,
    replay,
    to_dict,
)
from engine.club.commands import DeclareProceduralLoss
from engine.scoring import (
    FIIM,
    PLAIN,
    SYSTEMS,
    BadScoring,
    NotFinished,
    ScoringSystem,
    facts_of,
    find_system,
    score_sheet,
    sheet_of_log,
    system_from_settings,
)

from .helpers import ORGANISER, Table, club_at_day, club_vote_out, uid
from .online_helpers import online_at_day

JUDGE = ORGANISER  # a game without a human judge: the shell lets an admin through


def online_town_win_best_move_2_of_3() -> Table:
    """Online, 10 seats (1 Don, 2-3 mafiosi, 4 Sheriff): nobody out on day 1, seat 4 shot on
    night 2 names 1, 2 and 5 (two blacks); the blacks are voted out one a day; night 3 and 4
    misfire."""
    t = online_at_day(10)
    t.ballot({})
    t.onight(kill=4, don_check=5, check=1)
    t.best_move(1, 2, 5)
    t.last_words()
    for black in (1, 2, 3):
        t.leave_by_vote(black)
        if not t.state.over:
            t.onight()
    assert t.state.over and t.state.winner is Team.TOWN
    return t


def club_disqualification_game() -> Table:
    """Club, 10 seats (1 Don, 2-3 mafiosi): seat 6 is disqualified on day 1, the Don and seat 2
    are voted out on days 2 and 3, seat 3 takes four fouls on day 4: the town wins."""
    t = club_at_day(1)
    t.do(Disqualify(user_id=JUDGE, player=uid(6), reason="insult"))
    t.to_night(2)
    t.night()
    for black in (1, 2):
        club_vote_out(t, black)
        t.night()
    for _ in range(4):
        t.do(IssueFoul(user_id=JUDGE, player=uid(3)))
    assert t.state.over and t.state.winner is Team.TOWN
    return t


def club_procedural_loss_game() -> Table:
    """Club: on day 1 civilian seat 5's breach loses the game for the town."""
    t = club_at_day(1)
    t.do(DeclareProceduralLoss(user_id=JUDGE, player=uid(5), reason="oath"))
    return t


# --- the systems -----------------------------------------------------------------------------
def test_SCORE_X01_a_system_is_validated_data():
    for changes, field, reason in (
        ({"win": "much"}, "win", "not_a_number"),
        ({"win": float("nan")}, "win", "not_a_number"),
        ({"win": True}, "win", "not_a_number"),
        ({"win": -1}, "win", "out_of_range"),
        ({"best_move": (0, 0.5)}, "best_move", "wrong_size"),
        ({"best_move": (0, 0.5, 0.25, 1)}, "best_move", "not_increasing"),
        ({"disqualification": 0.5}, "disqualification", "out_of_range"),
        ({"procedural_loss": -11}, "procedural_loss", "out_of_range"),
        ({"additional_min": 1, "additional_max": 0}, "additional_max", "empty_range"),
        ({"additional_max": 0.7, "additional_step": 0.3}, "additional_step", "bad_step"),
        ({"additional_max": 5, "additional_step": 0.1}, "additional_step", "bad_step"),
        ({"additional_step": 0}, "additional_step", "bad_step"),
    ):
        with pytest.raises(BadScoring) as info:
            ScoringSystem(name="x", **changes)
        assert (info.value.field, info.value.reason) == (field, reason), changes
    ok = ScoringSystem(name="x", win="1.5", best_move=[0, 0, 0.3, 0.6])
    assert ok.win == 1.5 and ok.best_move == (0.0, 0.0, 0.3, 0.6)


def test_SCORE_X02_the_shipped_systems():
    assert set(SYSTEMS) == {"fiim", "plain"}
    assert find_system(" FIIM ") is FIIM and find_system("plain") is PLAIN
    assert (FIIM.win, FIIM.best_move) == (1.0, (0.0, 0.0, 0.25, 0.5))
    assert (FIIM.disqualification, FIIM.fourth_foul, FIIM.procedural_loss) == (-0.5, -0.5, -0.7)
    assert FIIM.additional_values() == (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7)
    assert PLAIN.win == 1.0 and not PLAIN.has_best_move and not PLAIN.has_additional
    assert PLAIN.disqualification == PLAIN.fourth_foul == PLAIN.procedural_loss == 0.0
    with pytest.raises(BadScoring) as info:
        find_system("elo")
    assert (info.value.field, info.value.reason) == ("base", "unknown_system")


def test_SCORE_X03_additional_points_keep_to_the_range_and_the_step():
    assert FIIM.check_additional("0.3") == 0.3 and FIIM.check_additional(0) == 0.0
    for value, reason in ((0.8, "out_of_range"), (-0.1, "out_of_range"), (0.25, "bad_step"),
                          ("a lot", "not_a_number")):
        with pytest.raises(BadScoring) as info:
            FIIM.check_additional(value)
        assert (info.value.field, info.value.reason) == ("additional", reason)
    t = online_town_win_best_move_2_of_3()
    with pytest.raises(BadScoring) as info:
        score_sheet(t.state, t.events(), FIIM, {uid(6): 0.8})
    assert info.value.reason == "out_of_range"
    with pytest.raises(BadScoring) as info:
        score_sheet(t.state, t.events(), FIIM, {999: 0.1})
    assert info.value.reason == "not_a_player"
    with pytest.raises(BadScoring):
        score_sheet(t.state, t.events(), PLAIN, {uid(6): 0.1})  # plain has no additional points


def test_SCORE_X04_a_groups_own_figures():
    assert system_from_settings({"base": "fiim"}) is FIIM
    assert system_from_settings({}) is PLAIN
    own = system_from_settings({"base": "fiim", "win": 2, "additional_max": "1"})
    assert own.name == "custom" and own.win == 2.0 and own.additional_max == 1.0
    assert own.best_move == FIIM.best_move
    assert system_from_settings(own.to_settings()) == own
    assert system_from_settings(FIIM.to_settings()) is FIIM
    for data, field, reason in (({"wins": 1}, "wins", "unknown_field"),
                                ({"base": "elo"}, "base", "unknown_system"),
                                ({"base": "fiim", "fourth_foul": 1}, "fourth_foul",
                                 "out_of_range")):
        with pytest.raises(BadScoring) as info:
            system_from_settings(data)
        assert (info.value.field, info.value.reason) == (field, reason)


# --- the sheet -------------------------------------------------------------------------------
def test_SCORE_X05_the_sheet_of_a_town_win_with_a_best_move_of_2_of_3():
    t = online_town_win_best_move_2_of_3()
    sheet = score_sheet(t.state, t.events(), FIIM, {uid(4): 0.3, uid(7): 0.1})
    assert sheet.winner is Team.TOWN and sheet.procedural_loss is None
    assert [line.seat for line in sheet.seats] == list(range(1, 11))
    four = sheet.seat_of(uid(4))
    assert (four.role, four.team, four.won, four.left, four.best_move) == \
        (Role.SHERIFF, Team.TOWN, True, "killed", 2)
    assert (four.win_points, four.best_move_points, four.additional, four.total) == \
        (1.0, 0.25, 0.3, 1.55)
    seven = sheet.seat_of(uid(7))
    assert (seven.left, seven.best_move, seven.total) == (None, None, 1.1)
    don = sheet.seat_of(uid(1))
    assert (don.role, don.won, don.left, don.total) == (Role.DON, False, "voted_out", 0.0)
    plain = score_sheet(t.state, t.events(), PLAIN)
    assert [line.total for line in plain.seats] == [0, 0, 0] + [1.0] * 7


def test_SCORE_X06_how_each_player_left():
    t = club_disqualification_game()
    sheet = score_sheet(t.state, t.events(), FIIM)
    left = {line.seat: line.left for line in sheet.seats}
    assert left[6] == "disqualified" and left[3] == "fourth_foul"
    assert left[1] == left[2] == "voted_out"
    assert {left[s] for s in (4, 5, 7, 8, 9, 10)} <= {None, "killed"}
    assert sheet.seat_of(uid(3)).fouls == 4
    facts = facts_of(t.events())
    assert facts.left[uid(6)] == "disqualified" and facts.best_move is None


def test_SCORE_X06_a_disqualification_and_a_fourth_foul_cost_their_penalty():
    t = club_disqualification_game()
    sheet = score_sheet(t.state, t.events(), FIIM, {uid(5): 0.7})
    six, three = sheet.seat_of(uid(6)), sheet.seat_of(uid(3))
    assert (six.won, six.penalty, six.total) == (True, -0.5, 0.5)  # the town won without him
    assert (three.won, three.penalty, three.total) == (False, -0.5, -0.5)
    assert sheet.seat_of(uid(5)).total == 1.7
    plain = score_sheet(t.state, t.events(), PLAIN)
    assert plain.seat_of(uid(6)).total == 1.0 and plain.seat_of(uid(3)).total == 0.0


def test_SCORE_X06_a_disqualification_or_fourth_foul_taken_back_is_forgotten():
    """CLUB-X16 Undo: the player is back at the table, so how he finally left counts (trial21:
    the sheet charged −0.5 to a reinstated player who was later voted out or killed)."""
    from engine.club.events import FoulIssued, JudgeActionUndone
    from engine.mafia.events import PlayerEliminated

    events = [FoulIssued(player=uid(2), count=4, by=None),
              PlayerEliminated(user_id=uid(2), cause="disqualified"),
              JudgeActionUndone(action="fourth_foul", player=uid(2), by=None),
              PlayerEliminated(user_id=uid(4), cause="disqualified"),
              JudgeActionUndone(action="disqualification", player=uid(4), by=None),
              PlayerEliminated(user_id=uid(2), cause="vote"),
              PlayerEliminated(user_id=uid(4), cause="night"),
              PlayerEliminated(user_id=uid(5), cause="disqualified")]
    assert facts_of(events).left == {uid(2): "voted_out", uid(4): "killed", uid(5): "disqualified"}
    again = [FoulIssued(player=uid(2), count=4, by=None),
             PlayerEliminated(user_id=uid(2), cause="disqualified"),
             JudgeActionUndone(action="fourth_foul", player=uid(2), by=None),
             PlayerEliminated(user_id=uid(2), cause="disqualified")]  # a plain 🟥 later
    assert facts_of(again).left == {uid(2): "disqualified"}


def test_SCORE_X07_the_club_has_no_best_move():
    t = club_disqualification_game()
    sheet = score_sheet(t.state, t.events(), FIIM)
    assert all(line.best_move is None and line.best_move_points == 0 for line in sheet.seats)


def test_SCORE_X07_only_the_first_victims_best_move_counts():
    t = online_town_win_best_move_2_of_3()
    sheet = score_sheet(t.state, t.events(), FIIM)
    assert [line.seat for line in sheet.seats if line.best_move is not None] == [4]
    three_of_three = ScoringSystem(name="x", best_move=(0, 0.1, 0.2, 0.4))
    assert score_sheet(t.state, t.events(), three_of_three).seat_of(uid(4)).total == 1.2


def test_SCORE_X08_a_procedural_loss():
    t = club_procedural_loss_game()
    assert t.state.over and t.state.winner is Team.MAFIA
    sheet = score_sheet(t.state, t.events(), FIIM)
    assert sheet.winner is Team.MAFIA and sheet.procedural_loss == uid(5)
    five = sheet.seat_of(uid(5))
    assert (five.won, five.procedural_loss, five.penalty, five.total) == (False, True, -0.7, -0.7)
    assert [line.total for line in sheet.seats if line.seat != 5] == [1.0] * 3 + [0.0] * 6
    assert score_sheet(t.state, t.events(), PLAIN).seat_of(uid(5)).total == 0.0


def test_SCORE_X09_a_replay_gives_the_same_sheet():
    for build in (online_town_win_best_move_2_of_3, club_disqualification_game,
                  club_procedural_loss_game):
        t = build()
        additional = {uid(4): 0.2}
        sheet = score_sheet(t.state, t.events(), FIIM, additional)
        stored = [command_from_dict(to_dict(c)) for c in t.log]  # the log's JSON round trip
        assert sheet_of_log(stored, FIIM, additional) == sheet
        state, _ = replay(stored)
        assert state.to_dict() == t.state.to_dict()


def test_SCORE_X09_only_a_finished_game_has_a_sheet():
    t = club_at_day(1)
    with pytest.raises(NotFinished):
        score_sheet(t.state, t.events(), FIIM)
    t.do(CancelGame(user_id=ORGANISER))
    assert t.phase is Phase.CANCELLED
    with pytest.raises(NotFinished):
        sheet_of_log(t.log, FIIM)
