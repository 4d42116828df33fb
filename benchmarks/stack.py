"""The full-stack run: N tables play concurrently on one bot application.

One :class:`~bot.app.App` (as in production: one dispatcher, service, store and sender) serves N
group chats, each with its own K users. The Telegram side is a :class:`BenchSession` (an in-process
fake Bot API), deadlines are fired by the simulated players (``ManualDeadlines``) in game time, and
the sender's rate limits are lifted so the run takes seconds instead of hours of game time.
"""

from __future__ import annotations

import asyncio
import cProfile
import json
import logging
import os
import random
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from time import perf_counter, process_time, thread_time
from typing import Any

from bot.app import App, build_app
from bot.services.deadlines import ManualDeadlines
from bot.services.game_service import utcnow
from bot.services.ops import random_seed
from engine import GameState
from tests.fakes.telegram import TEST_TOKEN
from tests.fakes.updates import FakeUser, Updates

from .figures import deep_sizeof
from .players import BenchSession, Recorder, Table, table_clock
from .sql_count import SqlCounter

#: The sender's limits, lifted (calls per second); production uses bot.telegram.limits.
UNLIMITED = {"group_rate": (10_000, 1.0), "private_rate": (10_000, 1.0),
             "global_rate": (10_000, 1.0)}
GROUP_BASE = -1_009_000_000_000  #: supergroup-like ids of the simulated group chats
USER_BASE = 800_000_000_000  #: user ids (past 32 bits, as real ones are)


class _ErrorLog(logging.Handler):
    """Counts warnings and errors logged while the benchmark runs; keeps the first few."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.counts: Counter[str] = Counter()
        self.samples: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.counts[record.levelname] += 1
        if len(self.samples) < 5:
            self.samples.append(f"{record.levelname} {record.name}: {record.getMessage()[:300]}")


@dataclass
class StackRun:
    """Everything measured in one full-stack run (seconds, bytes)."""

    games: int
    players: int
    db_url: str
    preset: str = "party"
    wall: float = 0.0
    cpu: float = 0.0  # process CPU time (all threads) while the games ran
    recorder: Recorder = field(default_factory=Recorder)
    tables: list[Table] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    winners: Counter[str] = field(default_factory=Counter)
    log_bytes: list[int] = field(default_factory=list)
    log_commands: list[int] = field(default_factory=list)
    logged: Counter[str] = field(default_factory=Counter)
    log_samples: list[str] = field(default_factory=list)
    #: CPU seconds of the simulation around the bot, inside ``cpu``: the fake Bot API server
    #: answering, the players planning and building their updates, the benchmark's own state
    #: measurements. ``cpu - outside_cpu`` is the bot's own CPU.
    outside_cpu: float = 0.0
    commits: tuple[int, int] = (0, 0)  #: (transactions of the group commit, log writes in them)
    sql: SqlCounter = field(default_factory=SqlCounter)  #: statements while the games ran


class CpuMeter:
    """Adds up the main thread's CPU time spent in wrapped synchronous functions (outermost
    call only, so nested wrapped calls are not counted twice)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._depth = 0

    def wrap(self, fn: Any) -> Any:
        def timed(*args: Any, **kwargs: Any) -> Any:
            if self._depth:
                return fn(*args, **kwargs)
            self._depth += 1
            started = thread_time()
            try:
                return fn(*args, **kwargs)
            finally:
                self.seconds += thread_time() - started
                self._depth -= 1
        return timed


def fresh_sqlite_url(folder: str) -> str:
    return f"sqlite+aiosqlite:///{os.path.join(folder, 'bench.db')}"


async def run_stack(games: int, players: int, seed: int, db_url: str | None = None,
                    preset: str = "party", profile: str | None = None) -> StackRun:
    """Play ``games`` games of the preset ``preset`` with ``players`` each, concurrently,
    through the whole bot.

    ``profile``: a file to write a cProfile of the measured run to (the main thread's CPU time,
    ``thread_time``; start-up, imports and the bare replay excluded), read with ``pstats``.

    ``db_url`` None uses a fresh SQLite file in a temporary folder (removed afterwards); any other
    URL (``postgresql+asyncpg://...``) is used as is, with chat and user ids unique to this run.
    """
    if db_url is None:
        with tempfile.TemporaryDirectory(prefix="mafia-bench-") as folder:
            return await _run(games, players, seed, fresh_sqlite_url(folder), nonce=0,
                              preset=preset, profile=profile)
    return await _run(games, players, seed, db_url, nonce=random.SystemRandom().randrange(1, 10**6),
                      preset=preset, profile=profile)


async def _run(games: int, players: int, seed: int, db_url: str, nonce: int,
               preset: str = "party", profile: str | None = None) -> StackRun:
    run = StackRun(games=games, players=players, db_url=db_url, preset=preset)
    errors = _ErrorLog()
    root = logging.getLogger()
    root.addHandler(errors)
    session = BenchSession()
    app = build_app(token=TEST_TOKEN, database_url=db_url, session=session,
                    deadlines_cls=ManualDeadlines, clock=table_clock(utcnow),
                    sender_kwargs=dict(UNLIMITED))
    try:
        app.service.seed_for = table_seeds(seed, {GROUP_BASE - nonce * 1_000 - k: k
                                                  for k in range(games)})
        await app.start()
        run.tables = _tables(app, session, games, players, seed, nonce, run.recorder, preset)
        meter = _meter(session, run.tables)
        group = getattr(app.storage, "_group", None)
        before = (group.batches, group.writes) if group is not None else (0, 0)
        profiler = cProfile.Profile(thread_time) if profile else None
        run.sql.attach(app.storage.engine)
        started, cpu_started = perf_counter(), process_time()
        if profiler is not None:
            profiler.enable()
        outcomes = await asyncio.gather(*(t.play() for t in run.tables), return_exceptions=True)
        if profiler is not None:
            profiler.disable()
        run.wall, run.cpu = perf_counter() - started, process_time() - cpu_started
        run.sql.detach()
        if profiler is not None and profile is not None:
            profiler.dump_stats(profile)
        run.outside_cpu = meter.seconds
        if group is not None:
            run.commits = (group.batches - before[0], group.writes - before[1])
        await _settle_background(app)
        for table, outcome in zip(run.tables, outcomes, strict=True):
            if isinstance(outcome, BaseException):
                run.failures.append(f"table {table.index + 1}: {outcome!r}")
            elif table.live and table.live.state and table.live.state.winner:
                run.winners[table.live.state.winner.value] += 1
        await _log_sizes(app, run)
    finally:
        root.removeHandler(errors)
        await app.stop()
    run.logged, run.log_samples = errors.counts, errors.samples
    return run


def table_seeds(seed: int, tables: dict[int, int]) -> Callable[[int], int]:
    """``GameService.seed_for`` for a benchmark: table ``k``'s game (``tables``: group chat id
    -> k) is dealt from a seed derived from the run's ``seed`` and ``k`` alone, so the same
    ``--seed`` deals the same roles and seats whatever the chat ids (PostgreSQL runs add a
    nonce to them) — and the players' seeded choices then replay the same games."""
    def seed_for(chat_id: int) -> int:
        k = tables.get(chat_id)
        if k is None:
            return random_seed(chat_id)
        return random.Random(seed * 1_000_003 + k).getrandbits(62)
    return seed_for


def _tables(app: App, session: BenchSession, games: int, players: int, seed: int, nonce: int,
            recorder: Recorder, preset: str = "party") -> list[Table]:
    updates = Updates(app.bot, session)
    epoch = utcnow()
    tables = []
    for k in range(games):
        group_id = GROUP_BASE - nonce * 1_000 - k
        users = [FakeUser(USER_BASE + nonce * 10_000 + k * 100 + i, f"Player {k + 1}.{i}",
                          username=f"bench_{k + 1}_{i}") for i in range(1, players + 1)]
        for user in users:
            session.register_user(user)
        table = Table(k, app, session, updates, group_id, users, random.Random(seed * 1_000 + k),
                      epoch, recorder, preset)
        table.measure_state = _state_size
        tables.append(table)
    return tables


def _meter(session: BenchSession, tables: list[Table]) -> CpuMeter:
    """Time what is not the bot: the fake server's answers, the players' planning, button
    search and update building, and the benchmark's state measurements."""
    meter = CpuMeter()
    # the fake server's work, wrapped on this one instance (mypy allows no method assignment)
    session._answer = meter.wrap(session._answer)  # type: ignore[method-assign]  # see above
    updates = tables[0].updates if tables else None
    if updates is not None:
        for name in ("group_command", "private_text", "callback"):
            setattr(updates, name, meter.wrap(getattr(updates, name)))
    for table in tables:
        for name in ("_options", "_find_button", "measure_state", "deadline"):
            if getattr(table, name, None) is not None:
                setattr(table, name, meter.wrap(getattr(table, name)))
    return meter


def _state_size(st: GameState) -> int:
    return deep_sizeof(st)


async def _settle_background(app: App) -> None:
    """Let the sender and the service's background writes (UI message ids) finish."""
    await app.sender.drain()
    drain = getattr(app.service, "drain", None)
    if drain is not None:
        await drain()


async def _log_sizes(app: App, run: StackRun) -> None:
    """Per finished game: commands in the log and bytes of its commands and events as JSON."""
    for table in run.tables:
        if table.game_id is None:
            continue
        commands = await app.storage.load_log(table.game_id)
        events = await app.storage.load_events(table.game_id)
        run.log_commands.append(len(commands))
        run.log_bytes.append(len(json.dumps(commands, ensure_ascii=False, separators=(",", ":")))
                             + len(json.dumps(events, ensure_ascii=False, separators=(",", ":"))))
