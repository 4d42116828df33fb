"""The standings from score sheets (docs/rules/tournament.md, TOUR-X07..X09): real sheets of
games played through commands, and hand-made sheets where a tie needs exact figures."""

from __future__ import annotations

import json

import pytest

from engine import Role, Team
from engine.scoring import FIIM, ScoreSheet, SeatScore, score_sheet
from engine.tournament import (
    DEFAULT_TIE_BREAKS,
    BadTieBreak,
    Played,
    check_tie_breaks,
    standings,
)

from ..helpers import uid
from ..test_scoring import club_disqualification_game, online_town_win_best_move_2_of_3

ROLES = [Role.DON, Role.MAFIA, Role.MAFIA, Role.SHERIFF] + [Role.CIVILIAN] * 6


def sheet(players: list[int], winner: Team, *, additional: dict[int, float] | None = None,
          best: dict[int, float] | None = None, penalty: dict[int, float] | None = None,
          fouls: dict[int, int] | None = None) -> ScoreSheet:
    """A sheet of ten ``players`` (seat order; seats 1-3 black, 4 the sheriff) won by
    ``winner``, with the given extra columns by user id."""
    lines = []
    for seat, (user, role) in enumerate(zip(players, ROLES, strict=True), start=1):
        team = Team.MAFIA if role in (Role.DON, Role.MAFIA) else Team.TOWN
        won = team is winner
        add, bm = (additional or {}).get(user, 0.0), (best or {}).get(user, 0.0)
        pen = (penalty or {}).get(user, 0.0)
        lines.append(SeatScore(
            seat=seat, user_id=user, name=f"p{user}", role=role, team=team, won=won,
            fouls=(fouls or {}).get(user, 0), left=None, best_move=None, procedural_loss=False,
            win_points=1.0 if won else 0.0, best_move_points=bm, penalty=pen, additional=add,
            total=(1.0 if won else 0.0) + bm + pen + add))
    return ScoreSheet(system=FIIM, winner=winner, procedural_loss=None, seats=tuple(lines))


def test_TOUR_X07_points_and_counts_add_up_over_real_sheets():
    t = online_town_win_best_move_2_of_3()
    online = score_sheet(t.state, t.events(), FIIM, {uid(4): 0.3, uid(7): 0.1})
    c = club_disqualification_game()
    club = score_sheet(c.state, c.events(), FIIM)
    rows = {r.user_id: r for r in standings([online, club])}
    for user in {line.user_id for s in (online, club) for line in s.seats}:
        lines = [s.seat_of(user) for s in (online, club) if user in {x.user_id for x in s.seats}]
        row = rows[user]
        assert row.games == len(lines)
        assert row.wins == sum(line.won for line in lines)
        assert row.points == pytest.approx(sum(line.total for line in lines))
        assert row.penalties == pytest.approx(sum(line.penalty for line in lines))
        assert sum(x.games for x in row.by_team.values()) == row.games
        assert sum(x.wins for x in row.by_role.values()) == row.wins
    four = rows[uid(4)]  # the online sheriff: win, best move 2 of 3, 0.3 additional
    assert (four.best_move, four.additional) == (0.25, 0.3)
    assert four.by_role["sheriff"].wins >= 1
    assert [r.points for r in rows.values()] == sorted((r.points for r in rows.values()),
                                                       reverse=True)


def test_TOUR_X07_a_substitute_keeps_his_points_and_is_marked():
    a = sheet(list(range(1, 11)), Team.TOWN)
    b = sheet([1, 2, 3, 4, 5, 6, 7, 8, 9, 99], Team.MAFIA)
    rows = {r.user_id: r for r in standings([a, Played(b, frozenset({99}))],
                                            players=range(1, 12))}
    assert (rows[99].games, rows[99].points, rows[99].substitute_games) == (1, 0.0, 1)
    assert (rows[10].games, rows[10].points, rows[10].substitute_games) == (1, 1.0, 0)
    assert (rows[1].games, rows[1].wins, rows[1].points) == (2, 1, 1.0)
    assert rows[1].by_role["don"].games == 2 and rows[1].by_team["mafia"].wins == 1
    assert (rows[11].games, rows[11].points, rows[11].name) == (0, 0.0, "")
    assert json.loads(json.dumps(rows[1].to_dict()))["by_team"]["mafia"] == \
        {"games": 2, "wins": 1, "points": 1.0}


def test_TOUR_X07_points_are_added_exactly():
    games = [sheet(list(range(1, 11)), Team.TOWN, additional={5: 0.1}) for _ in range(3)]
    assert standings(games)[0].points == 3.3  # 1.1 + 1.1 + 1.1, not 3.3000000000000003


def test_TOUR_X08_the_default_tie_breaks():
    assert DEFAULT_TIE_BREAKS == ("wins", "additional", "best_move", "penalties")
    # 11 and 12 tie on 1.0 point: 11 by a win, 12 by additional points (no win): 11 first
    one = sheet([11, 2, 3, 4, 5, 6, 7, 8, 9, 10], Team.MAFIA)
    two = sheet([1, 2, 3, 12, 5, 6, 7, 8, 9, 10], Team.MAFIA, additional={12: 0.5})
    three = sheet([1, 2, 3, 12, 5, 6, 7, 8, 9, 10], Team.MAFIA, additional={12: 0.5})
    order = [r.user_id for r in standings([one, two, three]) if r.user_id in (11, 12)]
    assert order == [11, 12]
    # equal points and wins: more additional points first, then more best-move points
    x = sheet([21, 22, 23, 24, 25, 26, 27, 28, 29, 30], Team.TOWN,
              additional={24: 0.5, 25: 0.25}, best={25: 0.25, 26: 0.5})
    rows = [r for r in standings([x]) if r.user_id in (24, 25, 26)]
    assert [r.points for r in rows] == [1.5, 1.5, 1.5]
    assert [r.user_id for r in rows] == [24, 25, 26]
    assert [r.place for r in rows] == [1, 2, 3]


def test_TOUR_X08_the_tie_breaks_are_settable():
    # 4 (sheriff): a win and a 0.5 penalty offset by 0.5 additional; 5: a plain win
    x = sheet(list(range(1, 11)), Team.TOWN, additional={4: 0.5}, penalty={4: -0.5},
              fouls={5: 2})
    pick = {4, 5}
    assert [r.user_id for r in standings([x]) if r.user_id in pick] == [4, 5]  # additional
    assert [r.user_id for r in standings([x], ["penalties"]) if r.user_id in pick] == [5, 4]
    assert [r.user_id for r in standings([x], ["fouls"]) if r.user_id in pick] == [4, 5]
    # wins as don: 1 won as the Don, 2 as a mafioso, same points and wins
    y = sheet([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], Team.MAFIA)
    z = sheet([2, 1, 3, 4, 5, 6, 7, 8, 9, 10], Team.TOWN)
    order = [r.user_id for r in standings([y, z], ["wins_as:don"]) if r.user_id in (1, 2)]
    assert order == [1, 2]
    assert check_tie_breaks(["average", "wins_as:sheriff"]) == ("average", "wins_as:sheriff")
    for bad in (["luck"], ["wins_as:"], ["wins_as:<role>"], [3]):
        with pytest.raises(BadTieBreak):
            standings([x], bad)


def test_TOUR_X09_a_tie_left_after_every_tie_break_shares_the_place():
    x = sheet(list(range(1, 11)), Team.TOWN)
    rows = standings([x], players=[*range(1, 11), 42])
    # seats 4..10 (town) share place 1 in user-id order; 1..3 share 8; 42 (no game yet) comes
    # after every player with a game (TOUR-X10)
    assert [(r.place, r.user_id) for r in rows] == \
        [(1, u) for u in range(4, 11)] + [(8, 1), (8, 2), (8, 3), (11, 42)]
    assert standings([]) == []
