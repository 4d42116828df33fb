"""Engine-only benchmark: seeded random playouts (``tests/engine/playout.py``), no I/O at all.

Two figures: the playout rate (commands offered per second, the random driver and its per-step
invariant checks included; refused commands count, they cost an ``apply`` too) and the cost of one
``engine.apply`` (µs), measured by re-applying each playout's accepted log command by command,
plus the rate of :func:`engine.replay` over whole logs (what restart recovery does).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from time import perf_counter, perf_counter_ns

from engine import apply, replay
from tests.engine.playout import play

from .figures import deep_sizeof, mean, peak_rss_mb, percentile


@dataclass
class EngineRun:
    games: int
    players: int
    playout_wall: float = 0.0
    commands: int = 0  # offered (accepted + refused)
    accepted: int = 0
    apply_ns: list[int] = field(default_factory=list)
    replay_wall: float = 0.0
    state_bytes: list[int] = field(default_factory=list)
    days: list[int] = field(default_factory=list)


def run_engine(games: int, players: int, seed: int) -> EngineRun:
    """Play ``games`` seeded playouts of ``players`` and time them (see module docstring)."""
    run = EngineRun(games=games, players=players)
    started = perf_counter()
    playouts = [play(seed * 10_000 + i, players) for i in range(games)]
    run.playout_wall = perf_counter() - started
    for po in playouts:
        run.commands += len(po.log) + po.refused
        run.accepted += len(po.log)
        run.days.append(po.final.day)
        state = None
        middle = len(po.log) // 2
        for index, cmd in enumerate(po.log):
            t0 = perf_counter_ns()
            state, _events = apply(state, cmd)
            run.apply_ns.append(perf_counter_ns() - t0)
            if index == middle:
                run.state_bytes.append(deep_sizeof(state))
    started = perf_counter()
    for po in playouts:
        replay(po.log)
    run.replay_wall = perf_counter() - started
    return run


def report_engine(run: EngineRun, seed: int) -> str:
    us = [ns / 1000 for ns in run.apply_ns]
    lines = [
        f"mafia-bot engine benchmark: {run.games} random playouts × {run.players} players, "
        f"seed {seed} (tests/engine/playout.py)",
        f"  playouts              {run.commands:,} commands ({run.accepted:,} accepted) in "
        f"{run.playout_wall:.2f} s → {run.commands / max(run.playout_wall, 1e-9):,.0f} commands/s "
        f"(random driver and invariant checks included)",
        f"  engine.apply          p50 {percentile(us, 50):.1f} µs per apply, p99 "
        f"{percentile(us, 99):.1f} µs, mean {mean(us):.1f} µs (the mean includes the odd "
        f"preemption of the process: {sum(1 for u in us if u > 1000)} applies over 1 ms)",
        f"  engine.replay         {run.accepted / max(run.replay_wall, 1e-9):,.0f} commands/s "
        f"({run.accepted / max(run.games, 1):.0f} commands per game, "
        f"{mean(run.days):.1f} days per game)",
        f"  memory                mid-game state {mean(run.state_bytes) / 1024:.1f} KiB per game; "
        f"peak RSS {peak_rss_mb():.0f} MiB",
    ]
    return "\n".join(lines)
