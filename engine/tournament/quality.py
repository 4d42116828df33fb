"""How good a seating is, and the best any seating could be (docs/rules/tournament.md, TOUR-X01..X03).

:func:`quality` measures a :class:`~.schedule.Schedule`; :func:`best_quality` gives, for the same
P, G and T, bounds no schedule can beat (the seat spread and the sit-out figures are reached by
every draw; the pair figures are lower bounds that are not always reachable).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations

from .schedule import TABLE_SIZE, Schedule


@dataclass(frozen=True)
class Quality:
    """Figures of a seating; lower is better for every one of them.

    ``seat_spread``: the worst, over the players, of max - min of his counts per seat position
    1..10; ``pair_min`` / ``pair_max`` / ``pair_spread`` (max - min) / ``pair_stdev``
    (population standard deviation): how often each pair of registered players meets at a
    table; ``games_spread``: max - min of the games per player; ``sit_out_spread``: max - min of
    the rounds a player sits out; ``sit_out_run``: the longest run of rounds in a row one player
    sits out (0: nobody sits out)."""

    seat_spread: int
    pair_min: int
    pair_max: int
    pair_spread: int
    pair_stdev: float
    games_spread: int
    sit_out_spread: int
    sit_out_run: int


def quality(schedule: Schedule) -> Quality:
    """The figures of ``schedule`` (TOUR-X01..X03)."""
    players = schedule.players
    seats = {p: [0] * TABLE_SIZE for p in players}
    meet: dict[tuple[int, int], int] = {}
    index = {p: i for i, p in enumerate(players)}
    for g in schedule.games:
        for pos, p in enumerate(g.seats):
            seats[p][pos] += 1
        for a, b in combinations(sorted(g.seats, key=index.__getitem__), 2):
            meet[a, b] = meet.get((a, b), 0) + 1
    n_pairs = len(players) * (len(players) - 1) // 2
    counts = list(meet.values()) + [0] * (n_pairs - len(meet))
    mean = sum(counts) / n_pairs
    games = [sum(seats[p]) for p in players]
    sit = [schedule.rounds - n for n in games]
    run = 0
    for p in players:
        current = 0
        for r in range(1, schedule.rounds + 1):
            seated = any(p in g.seats for g in schedule.round(r))
            current = 0 if seated else current + 1
            run = max(run, current)
    return Quality(
        seat_spread=max(max(c) - min(c) for c in seats.values()),
        pair_min=min(counts), pair_max=max(counts), pair_spread=max(counts) - min(counts),
        pair_stdev=math.sqrt(sum((c - mean) ** 2 for c in counts) / n_pairs),
        games_spread=max(games) - min(games), sit_out_spread=max(sit) - min(sit),
        sit_out_run=run)


def best_quality(players: int, games_per_player: int, tables: int | None = None) -> Quality:
    """Bounds no seating of ``players`` (P >= 10) players, ``games_per_player`` (G) games each,
    ``tables`` at once (None: P // 10) can beat, with the games and rounds :func:`~.seating.draw`
    makes (TOUR-X01..X03):

    - ``seat_spread``: 0 when every player's games are a multiple of ten, else 1 (the draw
      always reaches it);
    - pairs: they meet ``m = 45 * games / C(P, 2)`` times on average, so ``pair_min`` is at
      most floor(m) and ``pair_max`` at least ceil(m).  The stdev is at least that of
      floor/ceil values, and at least what the tables allow: two rounds of T tables put some
      pairs together twice (a table of one round shares about 10 / T players with each table
      of another), which fixes a least sum of squares of the meetings; ``pair_spread`` is at
      least ceil(m) - floor(m) and at least twice that least stdev (Popoviciu: a spread s
      allows a variance of s * s / 4 at most).  These pair figures need not be reachable;
    - games and sit-outs per player differ by 1 when P * G is not a multiple of 10 (reached);
      a player with s sit-outs and g games has at best a run of ``ceil(s / (g + 1))``."""
    size = players // TABLE_SIZE if tables is None else tables
    n_games = -(-players * games_per_player // TABLE_SIZE)
    per_round = [size] * (n_games // size) + ([n_games % size] if n_games % size else [])
    extra = n_games * TABLE_SIZE - players * games_per_player
    uneven = 1 if extra else 0
    all_tens = games_per_player % TABLE_SIZE == 0 and extra == 0
    n_pairs = players * (players - 1) // 2
    total = 45 * n_games
    mean = total / n_pairs
    frac = mean - math.floor(mean)
    variance = max(frac * (1 - frac), _least_squares(per_round, players) / n_pairs - mean * mean)
    stdev = math.sqrt(variance)
    spread = max(math.ceil(mean) - math.floor(mean), math.ceil(2 * stdev - 1e-9))
    most_out = len(per_round) - games_per_player
    return Quality(
        seat_spread=0 if all_tens else 1,
        pair_min=math.floor(mean), pair_max=math.ceil(mean), pair_spread=spread,
        pair_stdev=stdev, games_spread=uneven, sit_out_spread=uneven,
        sit_out_run=-(-most_out // (games_per_player + 1)) if most_out > 0 else 0)


def _together(both: int, cells: int) -> int:
    """The fewest pairs sharing a table in two rounds when ``both`` players play in both and
    the two rounds' tables make ``cells`` (table, table) combinations: spread evenly."""
    q, rem = divmod(both, cells)
    return rem * (q + 1) * q // 2 + (cells - rem) * q * (q - 1) // 2


def _least_squares(per_round: list[int], players: int) -> int:
    """A lower bound of the sum over pairs of (meetings squared): sum over ordered pairs of
    rounds (r, s) of the pairs at one table in both (r = s: the round's own pairs)."""
    sizes: dict[int, int] = {}
    for t in per_round:
        sizes[t] = sizes.get(t, 0) + 1
    out = 0
    for t, n in sizes.items():
        out += n * t * 45
        for u, m in sizes.items():
            couples = n * (m - 1) if t == u else n * m
            both = max(0, TABLE_SIZE * (t + u) - players)
            out += couples * _together(both, t * u)
    return out
