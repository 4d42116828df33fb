"""The seating draw of a tournament (docs/rules/tournament.md, TOUR-X01..X05).

:func:`draw` builds a :class:`~.schedule.Schedule` in three steps, each deterministic from the
seed (:class:`~.stream.Stream`):

1. **Who plays which round** (TOUR-X02): the games are ``ceil(P * G / 10)``; the players are
   drawn into a cycle and each round takes the next ``10 * T`` of it (:func:`_who_plays`), so
   games differ by at most one and the sit-outs come evenly.
2. **Who sits at which table** (TOUR-X03): a greedy first draw (each player to the table where
   he has met the fewest of those already seated), then a local search that swaps two players
   of a round between tables, or a player with one sitting out (and back in another round, so
   that nobody's number of games changes), keeping a swap that does not raise the cost: the
   sum over pairs of players of a convex function of how often they meet (:func:`pair_costs`),
   plus a heavy penalty for longer runs of sit-outs.
3. **Which seat** (TOUR-X01): a proper edge colouring of the bipartite graph games x players
   with ten colours, the colours being the seat positions (every bipartite graph of degree at
   most 10 has one, Koenig).  A player's games are cut into blocks of ten in round order, so
   in every block of ten games he sits in each position once: his counts per position differ
   by at most one -- the best possible.
"""

from __future__ import annotations

from collections.abc import Sequence

from .colouring import seat_positions
from .schedule import TABLE_SIZE, BadDraw, Schedule, ScheduledGame
from .stream import Stream

#: the fewest players a tournament takes (one table)
MIN_PLAYERS = TABLE_SIZE
#: the most players a draw takes (a bound on its time, see benchmarks/tournament_seating.py)
MAX_PLAYERS = 200
#: the most games per player a draw takes
MAX_GAMES = 20
#: local-search steps per seat of the tournament (P * G)
STEPS_PER_SEAT = 120
#: the cost of a run of sit-outs, times its length cubed, in the units of :func:`pair_costs`
#: (the search may lengthen a run the cycle gives by one when that spreads the pairs)
RUN_COST = 1000


def pair_costs(mean: float) -> tuple[int, ...]:
    """The cost of one pair's meetings by how often they meet (0 .. MAX_GAMES + 1), for pairs
    that meet ``mean`` times on average: ``100 * |c - mean| ** 4``, rounded -- convex, so
    spreading the meetings lowers it, and steep, so the rarest and the most frequent pairs
    weigh most (the spread max - min is what players see)."""
    return tuple(round(100 * abs(c - mean) ** 4) for c in range(MAX_GAMES + 2))


def draw(players: Sequence[int], games_per_player: int, tables: int | None = None,
         seed: int = 0) -> Schedule:
    """TOUR-X01..X05: the seating of ``players`` (user ids, P of them, registration order) for
    ``games_per_player`` (G) games each, ``tables`` tables playing at once (T; None: as many as
    the players fill, ``P // 10``), drawn from ``seed`` (any int; the same inputs give the same
    schedule).

    The result has ``ceil(P * G / 10)`` games in ``ceil(games / T)`` rounds; every round but
    the last seats T tables.  When ``P * G`` is not a multiple of ten, ``10 * games - P * G``
    players (drawn) play ``G + 1`` games, the others G (TOUR-X02).

    Raises :class:`BadDraw`: fewer than 10 or more than ``MAX_PLAYERS`` players, a player
    twice, G outside 1..``MAX_GAMES``, T outside 1..P // 10, or a non-int argument."""
    ids = _checked(players, games_per_player, tables, seed)
    n_players = len(ids)
    size = n_players // TABLE_SIZE if tables is None else tables
    n_games = -(-n_players * games_per_player // TABLE_SIZE)
    per_round = [size] * (n_games // size) + ([n_games % size] if n_games % size else [])
    stream = Stream(seed)
    lineups = _who_plays(n_players, per_round, stream)
    mean = n_games * TABLE_SIZE * (TABLE_SIZE - 1) / (n_players * (n_players - 1))
    search = _Search(n_players, lineups, per_round, stream, pair_costs(mean))
    search.improve(STEPS_PER_SEAT * n_players * games_per_player)
    rounds = search.rounds
    tables_flat = [table for tables_of_round in rounds for table in tables_of_round]
    seated = seat_positions(tables_flat, stream)
    games = []
    k = 0
    for r, tables_of_round in enumerate(rounds, start=1):
        for t in range(1, len(tables_of_round) + 1):
            games.append(ScheduledGame(round=r, table=t, seats=tuple(ids[p] for p in seated[k])))
            k += 1
    return Schedule(players=ids, games_per_player=games_per_player, tables=size, seed=seed,
                    games=tuple(games))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _checked(players: Sequence[int], games: int, tables: int | None,
             seed: int) -> tuple[int, ...]:
    ids = tuple(players)
    if not all(_is_int(p) for p in ids):
        raise BadDraw("players", "not_an_int", players)
    if len(set(ids)) != len(ids):
        raise BadDraw("players", "duplicate", sorted(p for p in set(ids) if ids.count(p) > 1))
    if len(ids) < MIN_PLAYERS:
        raise BadDraw("players", "too_few", len(ids))
    if len(ids) > MAX_PLAYERS:
        raise BadDraw("players", "too_many", len(ids))
    if not _is_int(games):
        raise BadDraw("games_per_player", "not_an_int", games)
    if games < 1:
        raise BadDraw("games_per_player", "out_of_range", games)
    if games > MAX_GAMES:
        raise BadDraw("games_per_player", "too_many", games)
    if tables is not None:
        if not _is_int(tables):
            raise BadDraw("tables", "not_an_int", tables)
        if not 1 <= tables <= len(ids) // TABLE_SIZE:
            raise BadDraw("tables", "out_of_range", tables)
    if not _is_int(seed):
        raise BadDraw("seed", "not_an_int", seed)
    return ids


def _who_plays(n_players: int, per_round: list[int], stream: Stream) -> list[list[int]]:
    """TOUR-X02: the players are drawn into a cycle, and the rounds take their seats from it
    in turn, round after round (the cycle starting again when it runs out): so nobody plays
    twice in a round (a round has at most P seats), every player plays G or G + 1 games (the
    first ``10 * games - P * G`` of the cycle one more), and a player's games are P seats of the
    cycle apart -- his sit-outs come evenly, in runs of at most ``ceil(P / (10 * T)) - 1``."""
    cycle = stream.permuted(range(n_players))
    lineups, k = [], 0
    for tables in per_round:
        lineups.append([cycle[(k + i) % n_players] for i in range(tables * TABLE_SIZE)])
        k += tables * TABLE_SIZE
    return lineups


class _Search:
    """TOUR-X03: the tables of every round, and the local search that spreads the pairs."""

    def __init__(self, n_players: int, lineups: list[list[int]], per_round: list[int],
                 stream: Stream, costs: tuple[int, ...]) -> None:
        self.stream = stream
        self.costs = costs
        self.n_rounds = len(per_round)
        self.meet = [[0] * n_players for _ in range(n_players)]
        #: where[p][r]: the table index of player p in round r, -1 sitting out
        self.where = [[-1] * self.n_rounds for _ in range(n_players)]
        self.rounds: list[list[list[int]]] = []
        self.out: list[list[int]] = []
        for r, (lineup, n_tables) in enumerate(zip(lineups, per_round, strict=True)):
            tables: list[list[int]] = [[] for _ in range(n_tables)]
            for p in stream.permuted(lineup):
                best = min((t for t in range(n_tables) if len(tables[t]) < TABLE_SIZE),
                           key=lambda t: sum(self.meet[p][u] for u in tables[t]))
                for u in tables[best]:
                    self.meet[p][u] += 1
                    self.meet[u][p] += 1
                tables[best].append(p)
                self.where[p][r] = best
            seated = set(lineup)
            self.rounds.append(tables)
            self.out.append([p for p in range(n_players) if p not in seated])

    def _put(self, table: list[int], i: int, new: int) -> int:
        """Seat ``new`` at place ``i`` of ``table`` instead of its player; the change in the
        pairs' cost."""
        meet, old, delta, cost = self.meet, table[i], 0, self.costs
        m_old, m_new = meet[old], meet[new]
        for u in table:
            if u == old:
                continue
            c = m_old[u]
            delta += cost[c - 1] - cost[c]
            m_old[u] = c - 1
            meet[u][old] = c - 1
            c = m_new[u]
            delta += cost[c + 1] - cost[c]
            m_new[u] = c + 1
            meet[u][new] = c + 1
        table[i] = new
        return delta

    def _runs(self, p: int) -> int:
        """The sum of the cubed lengths of player ``p``'s runs of sit-outs."""
        total = run = 0
        for table in self.where[p]:
            if table < 0:
                run += 1
            else:
                total, run = total + run ** 3, 0
        return total + run ** 3

    def improve(self, steps: int) -> None:
        swap_rounds = [r for r in range(self.n_rounds) if len(self.rounds[r]) > 1]
        sit_rounds = [r for r in range(self.n_rounds) if self.out[r]]
        if not swap_rounds and not sit_rounds:
            return
        below = self.stream.below
        for _ in range(steps):
            if sit_rounds and (not swap_rounds or below(2)):
                self._sit_out_swap(sit_rounds[below(len(sit_rounds))])
            else:
                self._table_swap(swap_rounds[below(len(swap_rounds))])

    def _table_swap(self, r: int) -> None:
        """Two players of round ``r`` change tables; kept unless the cost rises."""
        below, tables = self.stream.below, self.rounds[r]
        x = below(len(tables))
        y = below(len(tables) - 1)
        y += y >= x
        i, j = below(TABLE_SIZE), below(TABLE_SIZE)
        a, b = tables[x][i], tables[y][j]
        delta = self._put(tables[x], i, b)
        delta += self._put(tables[y], j, a)
        if delta > 0:
            self._put(tables[y], j, b)
            self._put(tables[x], i, a)
            return
        self.where[a][r], self.where[b][r] = y, x

    def _sit_out_swap(self, r: int) -> None:
        """A player ``a`` of round ``r`` sits out instead of ``b``, and ``b`` sits out instead
        of ``a`` in a round ``q`` where ``b`` plays and ``a`` does not: games stay as they
        were; kept unless the cost rises."""
        below, where = self.stream.below, self.where
        x = below(len(self.rounds[r]))
        i = below(TABLE_SIZE)
        a = self.rounds[r][x][i]
        k = below(len(self.out[r]))
        b = self.out[r][k]
        rounds_q = [q for q in range(self.n_rounds) if where[a][q] < 0 <= where[b][q]]
        if not rounds_q:
            return
        q = rounds_q[below(len(rounds_q))]
        y = where[b][q]
        j = self.rounds[q][y].index(b)
        runs_before = self._runs(a) + self._runs(b)
        delta = self._put(self.rounds[r][x], i, b)
        delta += self._put(self.rounds[q][y], j, a)
        where[a][r], where[b][r], where[a][q], where[b][q] = -1, x, y, -1
        runs_after = self._runs(a) + self._runs(b)
        if delta + RUN_COST * (runs_after - runs_before) > 0:
            self._put(self.rounds[q][y], j, b)
            self._put(self.rounds[r][x], i, a)
            where[a][r], where[b][r], where[a][q], where[b][q] = x, -1, -1, y
            return
        self.out[r][k] = a
        self.out[q][self.out[q].index(a)] = b

