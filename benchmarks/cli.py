"""Command line of the benchmarks (``python -m benchmarks --help``)."""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
from collections.abc import Sequence

from engine import find_ruleset

DEFAULT_GAMES = 20
DEFAULT_ENGINE_GAMES = 300


PRESETS = ("party", "club", "online", "forum")


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    from .buttons import DEFAULT_PLAYERS

    parser = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description="Play simulated party games through the whole bot (or, with --engine, the "
                    "rules engine alone) and print throughput, latency, Telegram API calls per "
                    "game, the busiest minute of a group chat and memory.")
    parser.add_argument("--games", type=int, default=None, metavar="N",
                        help=f"games to play (default {DEFAULT_GAMES} concurrent games; "
                             f"{DEFAULT_ENGINE_GAMES} playouts with --engine)")
    parser.add_argument("--preset", choices=PRESETS, default="party",
                        help="the preset the simulated tables play (default party; club: 10 "
                             "players, no judge; online 6-10; forum 4-12 with the Maniac, the "
                             "Putana and the Journalist)")
    parser.add_argument("--players", type=int, default=None, metavar="K",
                        help="players per game, within the preset's range (default: party 7, "
                             "club 10, online 8, forum 9)")
    parser.add_argument("--seed", type=int, default=1, metavar="S",
                        help="seed of the simulated players' choices and delays (default 1)")
    parser.add_argument("--db", default=None, metavar="URL",
                        help="SQLAlchemy URL of the store (default: a fresh temporary SQLite "
                             "file), e.g. postgresql+asyncpg://user@host/db")
    parser.add_argument("--engine", action="store_true",
                        help="benchmark the engine alone (random playouts, no bot, no store)")
    parser.add_argument("--profile", default=None, metavar="FILE",
                        help="write a cProfile (main thread CPU time) of the measured full-stack "
                             "run to FILE; read it with python -m pstats FILE")
    parser.add_argument("--no-bare", action="store_true",
                        help="skip replaying the updates through a bare aiogram Dispatcher")
    parser.add_argument("--pace", choices=("fast", "real"), default="fast",
                        help="fast: every table acts at once (throughput, default); real: at the "
                             "players' human delays on the wall clock (benchmarks/scale.py)")
    parser.add_argument("--compress", type=float, default=20.0, metavar="X",
                        help="with --pace real: game time runs X times faster than wall time, "
                             "Telegram's limits scaled alike (default 20)")
    parser.add_argument("--duration", type=float, default=600.0, metavar="SEC",
                        help="with --pace real: stop after SEC wall seconds (default 600)")
    parser.add_argument("--stagger", type=float, default=10.0, metavar="MIN",
                        help="with --pace real: lobbies open spread over MIN game minutes "
                             "(default 10)")
    parser.add_argument("--bot-rate", type=int, default=30, metavar="N",
                        help="with --pace real: calls per second Telegram allows the bot in all "
                             "(default 30, its limit for ordinary bots)")
    parser.add_argument("--workers", type=int, default=None, metavar="N",
                        help="play the games over N webhook worker processes (python -m bot with "
                             "REDIS_URL) behind the stand-in Bot API, SIGKILL the busiest one "
                             "mid-run; needs --db (PostgreSQL) and --redis (issue 12)")
    parser.add_argument("--redis", default=None, metavar="URL",
                        help="with --workers: Redis URL (default: $REDIS_URL or $TEST_REDIS_URL)")
    parser.add_argument("--kill-after", type=float, default=None, metavar="SEC",
                        help="with --workers: SIGKILL the worker holding the most shards SEC "
                             "seconds into the games (default: once the players made a third "
                             "of the presses the games take; 0: no kill)")
    parser.add_argument("--lease", type=float, default=3.0, metavar="SEC",
                        help="with --workers: LEASE_SECONDS of the workers (default 3)")
    parser.add_argument("--keep-logs", default=None, metavar="DIR",
                        help="with --workers: keep the workers' logs in DIR (default: a "
                             "temporary folder, removed)")
    parser.add_argument("--real-limits", action="store_true",
                        help="with --workers: keep the Sender's group rate (20 per minute) "
                             "instead of lifting it (games then last many minutes)")
    args = parser.parse_args(argv)
    if args.workers is not None:
        _check_workers(parser, args)
        return args
    rs = find_ruleset(args.preset)
    if args.players is None:
        args.players = DEFAULT_PLAYERS[args.preset]
    if not rs.min_players <= args.players <= rs.max_players:
        parser.error(f"--players must be {rs.min_players}-{rs.max_players}")
    if args.games is not None and args.games < 1:
        parser.error("--games must be at least 1")
    if args.engine and args.db:
        parser.error("--engine uses no store; drop --db")
    if args.engine and args.preset != "party":
        parser.error("--engine plays the party preset only; drop --preset")
    return args


def _check_workers(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    import os

    if args.workers < 1:
        parser.error("--workers must be at least 1")
    if args.engine or args.pace != "fast":
        parser.error("--workers plays full games through worker processes; drop --engine/--pace")
    if args.preset != "party" or args.players not in (None, 6):
        parser.error("--workers plays the party preset with 6 players; drop --preset/--players")
    args.db = args.db or os.environ.get("BENCH_DATABASE_URL") or os.environ.get("TEST_DATABASE_URL")
    if not args.db or not args.db.startswith("postgresql"):
        parser.error("--workers needs a PostgreSQL database the workers share: --db "
                     "postgresql+asyncpg://user@host/db (or $TEST_DATABASE_URL)")
    args.redis = args.redis or os.environ.get("REDIS_URL") or os.environ.get("TEST_REDIS_URL")
    if not args.redis:
        parser.error("--workers needs Redis: --redis redis://host:6379/0 (or $TEST_REDIS_URL)")
    if (args.kill_after is not None and args.kill_after < 0) or args.lease <= 0:
        parser.error("--kill-after must be >= 0 and --lease > 0")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark chosen by ``argv``, print its report; 1 if a game failed (with
    ``--workers``: or a command was lost or doubled, or Telegram answered 429), else 0.

    ``--history [options]`` hands the rest of the line to ``benchmarks.history_bench``
    (100,000 finished games: /history, protocols, /stats, /top)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--history"]:
        from .history_bench import main as history_main

        return history_main(argv[1:])
    args = parse_args(argv)
    if args.workers is not None:
        from .workers_bench import run_workers
        from .workers_report import report_workers

        workers_run = asyncio.run(run_workers(
            args.workers, args.games or DEFAULT_GAMES, args.db, args.redis, seed=args.seed,
            kill_after=args.kill_after, lease_seconds=args.lease,
            group_rate=None if args.real_limits else (1200, 60.0), workdir=args.keep_logs))
        print(report_workers(workers_run, args.seed))
        sys.stdout.flush()
        return 1 if (workers_run.failures or workers_run.lost or workers_run.duplicated
                     or workers_run.too_many_requests) else 0
    if args.engine:
        from .engine_bench import report_engine, run_engine

        engine_run = run_engine(args.games or DEFAULT_ENGINE_GAMES, args.players, args.seed)
        print(report_engine(engine_run, args.seed))
        return 0
    if args.pace == "real":
        from .scale import report_scale, run_scale

        scale_run = asyncio.run(run_scale(args.games or DEFAULT_GAMES, args.players, args.seed,
                                          args.db, args.compress, args.duration, args.stagger,
                                          args.bot_rate))
        print(report_scale(scale_run))
        return 1 if scale_run.failures else 0
    return asyncio.run(_stack(args))


async def _stack(args: argparse.Namespace) -> int:
    from .bare import replay_bare
    from .report import report_stack
    from .stack import run_stack

    run = await run_stack(args.games or DEFAULT_GAMES, args.players, args.seed, args.db,
                          preset=args.preset, profile=args.profile)
    bare = None
    if not args.no_bare and run.recorder.updates:
        bot = run.tables[0].app.bot if run.tables else None
        if bot is not None:
            gc.collect()  # the full run's garbage is not the bare dispatcher's cost
            bare = await replay_bare(bot, run.recorder.updates)
    print(report_stack(run, bare, args.seed))
    sys.stdout.flush()
    return 1 if run.failures or not all(t.finished for t in run.tables) else 0
