"""TOUR-X10 (docs/rules/tournament.md): the points per game rank the table while the players
with a game have played different numbers of them; players without a game come last."""

from __future__ import annotations

from engine import Team
from engine.tournament import standings

from .test_tour_standings import sheet

TEN = list(range(1, 11))


def test_TOUR_X10_equal_games_keep_the_order_by_total():
    # everybody with a game played two; 4 won both (2.0), 5 won one with 0.5 additional (1.5)
    a = sheet(TEN, Team.TOWN, additional={5: 0.5})
    b = sheet([4, 2, 3, 1, 5, 6, 7, 8, 9, 10], Team.MAFIA)  # 4 is the Don now, 5 a civilian
    rows = standings([a, b], players=range(1, 11))
    assert not any(r.per_game for r in rows)
    by_total = sorted(rows, key=lambda r: -r.points)
    assert [r.points for r in rows] == [r.points for r in by_total]
    assert [r.user_id for r in rows][:1] == [4]


def test_TOUR_X10_uneven_games_rank_by_points_per_game():
    # 11 played one game and won it (1.0 per game); 1 played three, won one (0.33 per game)
    # but has 1.5 points in all: by total 1 would be first, per game 11 is
    a = sheet(TEN, Team.MAFIA, additional={1: 0.5})  # 1 (Don) wins: 1.5
    b = sheet(TEN, Team.TOWN)
    c = sheet(TEN, Team.TOWN)
    d = sheet([11, 12, 13, 14, 15, 16, 17, 18, 19, 20], Team.MAFIA)
    rows = {r.user_id: r for r in standings([a, b, c, d])}
    assert all(r.per_game for r in rows.values())
    assert rows[1].points == 1.5 and rows[11].points == 1.0
    assert rows[11].place < rows[1].place
    # 4 (sheriff): 2.0 in three games (0.67 per game) ranks above 1 (0.5 per game)
    assert rows[4].place < rows[1].place
    assert [r.place for r in standings([a, b, c, d])] == \
        sorted(r.place for r in standings([a, b, c, d]))


def test_TOUR_X10_the_per_game_key_is_exact():
    # 1: 0.3 in 3 games (additional 0.1 each, no win), 21: 0.1 in 1 game: equal per game
    # exactly (in floats 0.3 / 3 < 0.1), so the tie-break decides: more additional points
    games = [sheet(TEN, Team.TOWN, additional={1: 0.1}) for _ in range(3)]
    games.append(sheet(list(range(21, 31)), Team.TOWN, additional={21: 0.1}))
    rows = {r.user_id: r for r in standings(games)}
    assert rows[1].per_game and rows[1].wins == rows[21].wins == 0
    assert rows[1].place < rows[21].place
    tied = {r.user_id: r.place for r in standings(games, ["wins"])}
    assert tied[1] == tied[21]  # equal per game and on wins: a shared place, not a float


def test_TOUR_X10_players_without_a_game_rank_last():
    # every player with a game lost his only game with a penalty: negative points; 99 has
    # none yet and still comes after all of them
    a = sheet(TEN, Team.TOWN, penalty={u: -0.5 for u in TEN})
    rows = standings([a], players=[*TEN, 99])
    assert rows[-1].user_id == 99 and rows[-1].games == 0
    assert all(r.points < 0 for r in rows if r.user_id in (1, 2, 3))
    assert rows[-1].place == 11
    assert not any(r.per_game for r in rows)  # the players with a game all played one


def test_TOUR_X10_ties_on_points_per_game_go_to_the_tie_breaks():
    # per game first: 1 has 1.0 in 2 games, 4 has 0.5 in 2 (a win with a penalty)
    a = sheet(TEN, Team.MAFIA)                     # 1 wins
    b = sheet(TEN, Team.TOWN, penalty={4: -0.5})   # 4 wins with a penalty: 0.5; 1 loses
    c = sheet([31, 32, 33, 34, 35, 36, 37, 38, 39, 40], Team.TOWN)
    rows = {r.user_id: r for r in standings([a, b, c])}
    assert rows[1].place < rows[4].place
    one = sheet(TEN, Team.TOWN, additional={4: 0.5})          # 4: 1.5 in one game
    two = sheet([41, 42, 43, 4, 45, 46, 47, 48, 49, 50], Team.MAFIA,
                additional={4: 1.0})                           # 4: 1.0 more in a second
    three = sheet([51, 52, 53, 54, 55, 56, 57, 58, 59, 60], Team.TOWN,
                  additional={54: 0.25})                       # 54: 1.25 in one game
    rows = {r.user_id: r for r in standings([one, two, three])}
    # 4: 2.5 in 2 = 1.25 per game, one win; 54: 1.25 in 1, one win; equal on wins -> additional
    assert rows[4].per_game and rows[4].average == rows[54].average == 1.25
    assert rows[4].place < rows[54].place  # more additional points (1.5 against 0.25)
    assert standings([one, two, three], ["wins"])[0].place == 1
    tied = {r.user_id: r.place for r in standings([one, two, three], ["wins"])}
    assert tied[4] == tied[54]  # X09: equal per game and on wins: one shared place


def test_TOUR_X10_shared_places_count_with_the_new_key():
    # every winner is at 1.0 per game -- 99 won two games, the others one -- and every loser
    # at 0: without tie-breaks the winners share place 1 (X09, by user id), the losers the
    # next place, and 100 (no game) comes last
    a = sheet(TEN, Team.TOWN)
    b = sheet([21, 22, 23, 24, 25, 26, 27, 28, 29, 99], Team.TOWN)
    c = sheet([71, 72, 73, 74, 75, 76, 77, 78, 79, 99], Team.TOWN)
    everybody = [*TEN, *range(21, 30), *range(71, 80), 99, 100]
    rows = standings([a, b, c], tie_breaks=(), players=everybody)
    assert rows[0].per_game and rows[0].user_id == 4
    winners = [r.user_id for r in rows if r.place == 1]
    assert winners == sorted([*range(4, 11), *range(24, 30), *range(74, 80), 99])
    losers = [r.user_id for r in rows if r.place == 21]
    assert losers == [1, 2, 3, 21, 22, 23, 71, 72, 73]
    assert (rows[-1].user_id, rows[-1].place) == (100, 30)
    # by total 99 (2.0) would stand alone on place 1
    by_wins = standings([a, b, c], tie_breaks=["wins"])
    assert by_wins[0].user_id == 99 and by_wins[1].place == 2


def test_TOUR_X11_a_substitute_from_outside_plays_for_no_place():
    # 500 (not registered) substitutes once and wins with a best move: 1.5 in one game would
    # top a per-game table; he keeps his row and points, after every registered player, and
    # his one game does not make the games uneven (the registered played one each)
    a = sheet(TEN, Team.TOWN, additional={10: 0.5})
    b = sheet([21, 22, 23, 24, 25, 26, 27, 28, 29, 500], Team.TOWN, additional={500: 0.5})
    registered = [*TEN, *range(21, 30), 30]
    rows = standings([a, b], players=registered)
    assert rows[-1].user_id == 500 and rows[-1].points == 1.5 and rows[-1].games == 1
    assert rows[-1].place > max(r.place for r in rows if r.user_id != 500)
    assert rows[0].user_id == 10 and not any(r.per_game for r in rows)
    # without the registered list everybody of the sheets ranks (the engine's caller decides)
    assert standings([a, b])[0].user_id in (10, 500)
