"""The rating formula (Elo per team track, K = 24, team strength = mean of its members) and the
per-game summaries it is computed from."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.history import protocol as P
from bot.history.protocol import Entry
from bot.history.stats import (
    BASE_RATING,
    K_FACTOR,
    MIN_GAMES_FOR_TOP,
    expected,
    overall,
    ranked,
    rate,
    standings,
    summarize,
)
from engine import Disqualify, Team, to_dict
from tests.engine.forum_helpers import forum_at_day
from tests.engine.helpers import uid
from tests.history.helpers import entries_of, sample_playouts


def test_equal_teams_move_by_half_k():
    teams = {1: "town", 2: "town", 3: "town", 4: "mafia"}
    new = rate({}, teams, "town")
    assert new[(1, "town")] == pytest.approx(BASE_RATING + K_FACTOR / 2)
    assert new[(4, "mafia")] == pytest.approx(BASE_RATING - K_FACTOR / 2)
    assert rate({}, teams, None) == {k: BASE_RATING for k in new}  # no winner: a draw


def test_the_favourite_wins_little_and_loses_much():
    strong = {(1, "town"): 1700.0, (2, "town"): 1700.0, (3, "mafia"): 1400.0}
    teams = {1: "town", 2: "town", 3: "mafia"}
    win = rate(strong, teams, "town")
    loss = rate(strong, teams, "mafia")
    gain = win[(1, "town")] - 1700
    drop = 1700 - loss[(1, "town")]
    e = expected(1700, 1400)
    assert gain == pytest.approx(K_FACTOR * (1 - e)) and drop == pytest.approx(K_FACTOR * e)
    assert gain < drop
    # each side's change is the other's, mirrored; members of a side move together
    assert win[(3, "mafia")] - 1400 == pytest.approx(-gain)
    assert win[(1, "town")] == win[(2, "town")]


def test_tracks_are_separate_and_overall_adds_them():
    r = rate({(1, "town"): 1600.0, (1, "mafia"): 1450.0}, {1: "mafia", 2: "town"}, "mafia")
    assert (1, "town") not in r  # only the track he played moves
    assert overall([1600.0, r[(1, "mafia")]]) == pytest.approx(1600 + r[(1, "mafia")] - BASE_RATING)
    three = rate({}, {1: "a", 2: "b", 3: "c"}, "a")
    assert three[(1, "a")] == pytest.approx(BASE_RATING + K_FACTOR / 2)
    assert three[(2, "b")] == pytest.approx(three[(3, "c")])


def test_standings_order_and_the_top_threshold():
    rows = [SimpleNamespace(chat_id=1, user_id=u, team=t, name=f"U{u}", rating=r, games=g, wins=w)
            for u, t, r, g, w in [(1, "town", 1520, 3, 2), (1, "mafia", 1510, 2, 1),
                                  (2, "town", 1530, 9, 5), (3, "town", 1530, 12, 6),
                                  (4, "mafia", 1400, 1, 0)]]
    board = standings(rows)
    # 1 has 1520 + 1510 - 1500 = 1530 too: equal ratings go by games played
    assert [s.user_id for s in board] == [3, 2, 1, 4]
    one = board[2]
    assert one.rating == 1530 and one.games == 5 and one.wins == 3
    assert set(one.tracks) == {"town", "mafia"}
    assert [s.user_id for s in ranked(board)] == [3, 2, 1]
    assert MIN_GAMES_FOR_TOP == 5


def test_summaries_follow_the_protocol():
    for po in sample_playouts():
        pr = P.build_protocol(entries_of(po))
        game = SimpleNamespace(id=3, chat_id=-5, ruleset=po.state.ruleset,
                               started_at=None, finished_at=SimpleNamespace())
        summary, results = summarize(game, pr, "Title")
        st = po.state
        assert summary.winner == st.winner.value and summary.days == st.day
        assert summary.players == len(st.seated()) and summary.duration is None
        assert [(r.user_id, r.role, r.team, r.won, r.survived) for r in results] == [
            (p.user_id, p.role.value, p.team.value, p.team is st.winner and not (
                st.ruleset == "forum" and p.user_id in st.forum.removed), p.alive)  # FORUM-X24
            for p in st.seated()]
    with pytest.raises(ValueError):
        summarize(SimpleNamespace(id=1, finished_at=None), pr)


def test_FORUM_X24_a_removed_player_counts_no_win():
    """His side won, he did not: /history says lost, /me counts no win; the sheet likewise."""
    t = forum_at_day("MCDTTT", host=True, options={"bonus_round": False})
    t.do(Disqualify(user_id=t.state.host, player=uid(6), reason="card"))
    t.vote_out(1)
    t.timeout()  # the best-player vote closes: GameEnded
    assert t.state.over and t.state.winner is Team.TOWN
    entries = [Entry(i, to_dict(cmd), [to_dict(e) for e in evs])
               for i, (cmd, evs) in enumerate(zip(t.log, t.produced, strict=True))]
    pr = P.build_protocol(entries)
    game = SimpleNamespace(id=3, chat_id=-5, ruleset="forum", started_at=None,
                           finished_at=SimpleNamespace())
    _summary, results = summarize(game, pr)
    assert {r.seat: r.won for r in results} == {1: False, 2: True, 3: True, 4: True, 5: True,
                                                6: False}
