"""NOIR board benchmark: ``python -m benchmarks.noir_board_bench [--games N] [--seed S]``.

Plays seeded NOIR games (the engine's random playouts, ``tests/engine/noir/playout.py``; run from
the repository root), draws the group's board after every command as the presenter does
(``bot/games/noir/board.py``, English names) and prints: milliseconds to draw one board (median,
95th percentile), bytes per picture (mean, max), and the group calls per turn and per game — one
``sendPhoto`` at the start, then one ``editMessageMedia`` for each command whose picture or caption
changed (the presenter skips an identical board).  Figures only: nothing is asserted."""

from __future__ import annotations

import argparse
import hashlib
import statistics
import time
from collections.abc import Sequence

from bot.games.noir import board
from bot.games.noir.names import SUSPECTS
from bot.games.noir.views import caption
from engine.noir import public_board
from tests.engine.noir.playout import play


def run(games: int, seed: int) -> dict:
    names = list(SUSPECTS)
    times: list[float] = []
    sizes: list[int] = []
    calls: list[int] = []
    turns: list[int] = []
    for i in range(games):
        po = play(seed + i, 6 if i % 2 == 0 else 8)
        shown, n_calls, n_turns, last_turn = None, 0, 0, None
        for _before, _cmd, after, _events in po.steps:
            if after.phase not in ("play", "ended"):
                continue
            if after.turn_seq != last_turn:
                n_turns, last_turn = n_turns + 1, after.turn_seq
            b = public_board(after)
            t0 = time.perf_counter()
            png = board.draw(b, names)
            times.append((time.perf_counter() - t0) * 1000)
            sizes.append(len(png))
            key = hashlib.sha256(png + caption(lambda s: s, after, b).encode()).digest()
            if key != shown:
                shown, n_calls = key, n_calls + 1
        calls.append(n_calls)
        turns.append(max(n_turns, 1))
    return {"boards": len(times), "ms_p50": statistics.median(times),
            "ms_p95": statistics.quantiles(times, n=20)[-1] if len(times) > 1 else times[0],
            "bytes_mean": statistics.mean(sizes), "bytes_max": max(sizes),
            "calls_per_game": statistics.mean(calls),
            "calls_per_turn": sum(calls) / sum(turns), "games": games}


def report(r: dict) -> str:
    return "\n".join([
        f"NOIR board: {r['boards']} boards drawn over {r['games']} games (6 and 8 players)",
        f"  ms to draw one board: p50 {r['ms_p50']:.1f}, p95 {r['ms_p95']:.1f}",
        f"  bytes per picture: mean {r['bytes_mean']:.0f}, max {r['bytes_max']}",
        f"  group calls: {r['calls_per_turn']:.2f} per turn, {r['calls_per_game']:.1f} per game"
        " (1 sendPhoto, then 1 editMessageMedia per changed board)",
    ])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, metavar="N")
    parser.add_argument("--seed", type=int, default=1, metavar="S")
    args = parser.parse_args(argv)
    print(report(run(args.games, args.seed)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
