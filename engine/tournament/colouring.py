"""TOUR-X01: seat positions by a bipartite edge colouring (docs/rules/tournament.md).

The games and the players are the two sides of a bipartite multigraph, one edge per seat; a
proper edge colouring with ten colours gives every game ten different colours (its seats 1..10)
and every player a different colour in each of his games.  A player with more than ten games is
cut into blocks of ten consecutive games (in round order), each its own vertex, so his counts per
seat differ by at most one.  The colouring is the textbook one for bipartite graphs (Koenig's
theorem): colour the edges one by one; when no colour is free at both ends, take ``a`` free at
the game and ``b`` free at the player and swap ``a`` and ``b`` along the alternating path from
the player, which never reaches the game -- then ``a`` is free at both.
"""

from __future__ import annotations

from .schedule import TABLE_SIZE
from .stream import Stream


def seat_positions(tables: list[list[int]], stream: Stream) -> list[list[int]]:
    """``tables``: every game's players (any order), games in round order; the same players in
    seat order (index 0 is seat 1), each player in a different seat in every ten consecutive
    games of his.  The order of colouring is drawn from ``stream``."""
    owner: list[int] = []
    vertex: dict[tuple[int, int], int] = {}
    played: dict[int, int] = {}
    edges: list[tuple[int, int]] = []
    for g, table in enumerate(tables):
        for p in table:
            k = played.get(p, 0)
            played[p] = k + 1
            key = (p, k // TABLE_SIZE)
            if key not in vertex:
                vertex[key] = len(owner)
                owner.append(p)
            edges.append((g, vertex[key]))
    at_game = [[-1] * TABLE_SIZE for _ in tables]  # at_game[g][colour] = vertex
    at_player = [[-1] * TABLE_SIZE for _ in owner]  # at_player[v][colour] = game
    below = stream.below
    for g, v in stream.permuted(edges):
        free_g = [c for c in range(TABLE_SIZE) if at_game[g][c] < 0]
        both = [c for c in free_g if at_player[v][c] < 0]
        if both:
            colour = both[below(len(both))]
        else:
            free_v = [c for c in range(TABLE_SIZE) if at_player[v][c] < 0]
            a, b = free_g[below(len(free_g))], free_v[below(len(free_v))]
            _swap_path(at_game, at_player, v, a, b)
            colour = a
        at_game[g][colour] = v
        at_player[v][colour] = g
    return [[owner[v] for v in row] for row in at_game]


def _swap_path(at_game: list[list[int]], at_player: list[list[int]], v: int, a: int,
               b: int) -> None:
    """Swap colours ``a`` and ``b`` on the path from player vertex ``v`` that starts with its
    ``a`` edge and alternates ``a``, ``b``, ``a``...  (``b`` is free at ``v``, so it is a path)."""
    path: list[tuple[int, int, int]] = []
    player = v
    while True:
        game = at_player[player][a]
        if game < 0:
            break
        path.append((game, player, a))
        player = at_game[game][b]
        if player < 0:
            break
        path.append((game, player, b))
    for game, player, colour in path:
        at_game[game][colour] = -1
        at_player[player][colour] = -1
    for game, player, colour in path:
        other = b if colour == a else a
        at_game[game][other] = player
        at_player[player][other] = game
