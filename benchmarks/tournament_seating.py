"""Tournament seating benchmark: ``python -m benchmarks.tournament_seating [--players 10,20,..]
[--games 4,8,10] [--seed S]``.

Draws the seating (``engine.tournament.draw``, tables = P // 10) for every P and G and prints its
quality next to the best any seating could have (``best_quality``; the pair figures there are
lower bounds, not always reachable) and the time the draw took (docs/rules/tournament.md,
TOUR-X01..X03).  Figures only: nothing is asserted."""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

from engine.tournament import best_quality, draw, quality

HEADER = ("    P   G  games  seat spread  pair spread   pair min-max   pair stdev"
          "     sit-out run   draw s")


def row(players: int, games: int, seed: int) -> str:
    t0 = time.perf_counter()
    schedule = draw(list(range(1, players + 1)), games, None, seed)
    took = time.perf_counter() - t0
    q, b = quality(schedule), best_quality(players, games)
    return (f"{players:5d} {games:3d} {len(schedule.games):6d}"
            f"   {q.seat_spread:3d} (best {b.seat_spread})"
            f"  {q.pair_spread:3d} (best {b.pair_spread})"
            f"  {q.pair_min:3d}-{q.pair_max:<3d}({b.pair_min}-{b.pair_max})"
            f"  {q.pair_stdev:5.2f} ({b.pair_stdev:4.2f})"
            f"  {q.sit_out_run:3d} (best {b.sit_out_run})"
            f"  {took:7.2f}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", default="10,20,30,50,100", metavar="P,P")
    parser.add_argument("--games", default="4,8,10", metavar="G,G")
    parser.add_argument("--seed", type=int, default=1, metavar="S")
    args = parser.parse_args(argv)
    print("Tournament seating: quality (best possible in brackets) and time per draw")
    print(HEADER)
    for players in (int(p) for p in args.players.split(",")):
        for games in (int(g) for g in args.games.split(",")):
            print(row(players, games, args.seed), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
