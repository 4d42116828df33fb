"""Many games in one process at the players' real pace (issue 11, target 3):
``python -m benchmarks --games 1000 --pace real --compress 20``.

Every table plays as in the throughput run (:mod:`benchmarks.players`: the same human delays), but
waits on the wall clock until each action is due: game time runs ``compress`` times faster than
real time, and the tables open their lobbies spread over the first ``--stagger`` game minutes.
Telegram's limits (:mod:`bot.telegram.limits`: 20 calls per group per minute, 30 per second per
bot, 1 per second per private chat) are the Sender's, scaled by the same factor so that a game
minute has a real minute's budget; the fake server counts every call beyond them.

Figures: p50/p99 of one ``Dispatcher.feed_update``; the process CPU as a share of one core; the
event-to-visible delay — from the engine's events (the moment their command is handed to the log)
to the message leaving the Sender (its call answered by the fake) — p99 over the run and in the
busiest game minute; and the resident memory per running game.
"""

from __future__ import annotations

import asyncio
import contextvars
import gc
import logging
import os
import random
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field
from time import perf_counter, process_time
from typing import Any

from aiogram import Bot
from aiogram.methods import TelegramMethod
from aiogram.methods.base import TelegramType

from bot.app import build_app
from bot.services.deadlines import ManualDeadlines
from bot.services.game_service import utcnow
from bot.telegram.limits import GLOBAL_RATE, GROUP_RATE, PRIVATE_RATE
from tests.fakes.telegram import TEST_TOKEN
from tests.fakes.updates import FakeUser, Updates

from .figures import max_in_window, percentile
from .players import BenchSession, Recorder, Table, table_clock
from .sql_count import SqlCounter
from .stack import GROUP_BASE, USER_BASE, fresh_sqlite_url, table_seeds

#: the loop time at which the running task's command handed its events to the log
EVENT_AT: contextvars.ContextVar[float | None] = contextvars.ContextVar("event_at", default=None)
KEEP_MESSAGES = 8  #: messages the fake server remembers per chat (the newest buttons suffice)


def rss_bytes() -> int:
    """This process's resident set size now (Linux ``/proc/self/statm``)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


class PacedSession(BenchSession):
    """The fake Bot API of the throughput run, remembering only the newest messages of a chat
    and counting calls beyond Telegram's limits (scaled by ``compress``)."""

    def __init__(self, compress: float, bot_rate: int = GLOBAL_RATE[0], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.compress, self.bot_rate = compress, bot_rate
        self.sent: defaultdict[int, list[float]] = defaultdict(list)  # chat -> loop times
        self.all_sent: list[float] = []

    def _store(self, message: dict[str, Any]) -> None:
        super()._store(message)
        ids = self.chat_messages[message["chat"]["id"]]
        while len(ids) > KEEP_MESSAGES:
            self.messages.pop((message["chat"]["id"], ids.pop(0)), None)

    async def make_request(self, bot: Bot, method: TelegramMethod[TelegramType],
                           timeout: int | None = None) -> TelegramType:
        if not method.__api_method__.startswith("get"):
            now = asyncio.get_running_loop().time()
            chat_id = getattr(method, "chat_id", None)
            if isinstance(chat_id, int):
                self.sent[chat_id].append(now)
            self.all_sent.append(now)
        if len(self.calls) > 2_000:
            del self.calls[:1_000]
        return await super().make_request(bot, method, timeout)

    def over_limits(self) -> dict[str, int]:
        """Calls beyond each limit: the most in any window minus the limit, summed over chats."""
        def excess(times: list[float], rate: tuple[int, float]) -> int:
            return max(0, max_in_window(times, rate[1] / self.compress)[0] - rate[0])

        groups = sum(excess(t, GROUP_RATE) for chat, t in self.sent.items() if chat < 0)
        privates = sum(excess(t, PRIVATE_RATE) for chat, t in self.sent.items() if chat > 0)
        return {"group": groups, "private": privates,
                "bot": excess(self.all_sent, (self.bot_rate, GLOBAL_RATE[1]))}


class PacedTable(Table):
    """A :class:`Table` acting when its game time comes on the wall clock."""

    start_at = 0.0  # loop time of this table's game time 0
    compress = 1.0

    async def _pace(self) -> None:
        delay = self.start_at + self.vnow / self.compress - asyncio.get_running_loop().time()
        if delay > 0:
            await asyncio.sleep(delay)

    async def feed(self, update: Any) -> None:
        await self._pace()
        await super().feed(update)

    async def fire_deadline(self) -> None:
        await self._pace()
        await super().fire_deadline()

    async def fire_clock_job(self, job_id: str) -> None:
        await self._pace()
        await super().fire_clock_job(job_id)


@dataclass
class ScaleRun:
    games: int
    compress: float
    wall: float = 0.0
    cpu: float = 0.0
    recorder: Recorder = field(default_factory=Recorder)
    finished: int = 0
    started: int = 0
    failures: list[str] = field(default_factory=list)
    delays: list[tuple[float, float]] = field(default_factory=list)  # (event time, delay)
    rss_base: int = 0
    rss_peak_growth: int = 0
    running_at_peak: int = 0
    over_limits: dict[str, int] = field(default_factory=dict)
    db_url: str = ""
    bot_rate: int = GLOBAL_RATE[0]
    sql: SqlCounter = field(default_factory=SqlCounter)


async def run_scale(games: int, players: int, seed: int, db_url: str | None, compress: float,
                    duration: float, stagger: float, bot_rate: int = GLOBAL_RATE[0]) -> ScaleRun:
    """Play ``games`` tables at the players' pace, ``compress`` times faster; stop after
    ``duration`` wall seconds (tables still playing are stopped)."""
    if db_url is None:
        with tempfile.TemporaryDirectory(prefix="mafia-scale-") as folder:
            return await _run(games, players, seed, fresh_sqlite_url(folder), compress,
                              duration, stagger, 0, bot_rate)
    return await _run(games, players, seed, db_url, compress, duration, stagger,
                      random.SystemRandom().randrange(1, 10**5), bot_rate)


def _scaled(rate: tuple[int, float], compress: float) -> tuple[int, float]:
    return rate[0], rate[1] / compress


async def _run(games: int, players: int, seed: int, db_url: str, compress: float,
               duration: float, stagger: float, nonce: int, bot_rate: int) -> ScaleRun:
    root, level = logging.getLogger(), logging.getLogger().level
    root.setLevel(logging.ERROR)  # a thousand games' info lines are not the figures
    try:
        return await _play(games, players, seed, db_url, compress, duration, stagger, nonce,
                           bot_rate)
    finally:
        root.setLevel(level)


async def _play(games: int, players: int, seed: int, db_url: str, compress: float,
                duration: float, stagger: float, nonce: int, bot_rate: int) -> ScaleRun:
    run = ScaleRun(games=games, compress=compress, db_url=db_url, bot_rate=bot_rate)
    session = PacedSession(compress, bot_rate)
    limits = {"group_rate": _scaled(GROUP_RATE, compress),
              "private_rate": _scaled(PRIVATE_RATE, compress),
              "global_rate": _scaled((bot_rate, GLOBAL_RATE[1]), compress)}
    app = build_app(token=TEST_TOKEN, database_url=db_url, session=session,
                    deadlines_cls=ManualDeadlines, clock=table_clock(utcnow), sender_kwargs=limits)
    app.service.seed_for = table_seeds(seed, {GROUP_BASE - nonce * 10_000 - k: k
                                              for k in range(games)})
    await app.start()
    _instrument(app, run)
    loop = asyncio.get_running_loop()
    updates = Updates(app.bot, session)
    epoch = utcnow()
    tables: list[PacedTable] = []
    rng = random.Random(seed)
    origin = loop.time() + 0.5
    for k in range(games):
        group_id = GROUP_BASE - nonce * 10_000 - k
        users = [FakeUser(USER_BASE + nonce * 100_000 + k * 100 + i, f"Player {k + 1}.{i}",
                          username=f"scale_{k + 1}_{i}") for i in range(1, players + 1)]
        for user in users:
            session.register_user(user)
        table = PacedTable(k, app, session, updates, group_id, users,
                           random.Random(seed * 1_000 + k), epoch, run.recorder)
        table.compress = compress
        table.start_at = origin + rng.uniform(0.0, stagger * 60.0) / compress
        tables.append(table)
    gc.collect()
    run.rss_base = rss_bytes()
    run.sql.attach(app.storage.engine)
    started, cpu_started = perf_counter(), process_time()
    tasks = [asyncio.create_task(t.play()) for t in tables]
    sampler = asyncio.create_task(_sample_memory(run, tables))
    done, pending = await asyncio.wait(tasks, timeout=duration)
    run.wall, run.cpu = perf_counter() - started, process_time() - cpu_started
    run.sql.detach()
    sampler.cancel()
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    run.finished = sum(1 for t in tables if t.finished)
    run.started = sum(1 for t in tables if t.game_id is not None)
    for table, task in zip(tables, tasks, strict=True):
        if task in done and task.exception() is not None:
            run.failures.append(f"table {table.index + 1}: {task.exception()!r}")
    run.over_limits = session.over_limits()
    await app.sender.close(timeout=2.0)
    await app.service.drain()
    app.deadlines.shutdown()
    await app.storage.close()
    return run


def _instrument(app: Any, run: ScaleRun) -> None:
    """Stamp the moment a command hands its events to the log, and measure each of the
    Sender's calls queued by that command from then until it is answered."""
    storage, sender, service = app.storage, app.sender, app.service
    append, enqueue, execute = storage.append, sender._enqueue, service.execute  # noqa: SLF001 - wrapped
    loop = asyncio.get_running_loop()

    async def stamped_append(*args: Any, **kwargs: Any) -> None:
        EVENT_AT.set(loop.time())
        await append(*args, **kwargs)

    async def scoped_execute(*args: Any, **kwargs: Any) -> Any:
        token = EVENT_AT.set(None)
        try:
            return await execute(*args, **kwargs)
        finally:
            EVENT_AT.reset(token)

    def timed_enqueue(op: Any) -> Any:
        future = enqueue(op)
        at = EVENT_AT.get()
        if at is not None:
            future.add_done_callback(lambda _f: run.delays.append((at, loop.time() - at)))
        return future

    storage.append, sender._enqueue, service.execute = (  # noqa: SLF001
        stamped_append, timed_enqueue, scoped_execute)


async def _sample_memory(run: ScaleRun, tables: list[PacedTable]) -> None:
    while True:
        await asyncio.sleep(1.0)
        running = sum(1 for t in tables if t.game_id is not None and t.ended_at is None)
        growth = rss_bytes() - run.rss_base
        if running and growth / running > 0 and running >= run.running_at_peak:
            run.running_at_peak, run.rss_peak_growth = running, growth


def report_scale(run: ScaleRun) -> str:
    lat = run.recorder.latencies
    n = len(lat)
    delays = [d for _at, d in run.delays]
    minute = 60.0 / run.compress  # one game minute of wall time
    _count, start = max_in_window([at for at, _d in run.delays], minute)
    busiest = [d for at, d in run.delays if start <= at < start + minute]

    def ms(s: float) -> str:
        return f"{s * 1000:.1f} ms"

    per_game = run.rss_peak_growth / max(run.running_at_peak, 1)
    lines = [
        f"mafia-bot at scale: {run.games} games at the players' pace, game time ×{run.compress:g} "
        f"(Telegram's limits scaled alike; {run.bot_rate} calls/s per bot), {run.wall:.0f} s of "
        f"wall time, store {run.db_url.split(':')[0]}",
        f"  games                 {run.started} opened, {run.finished} finished in the run "
        f"({run.games - run.started} not yet due)",
        f"  updates               {n:,} ({n / max(run.wall, 1e-9):.1f}/s); feed_update p50 "
        f"{ms(percentile(lat, 50))}, p99 {ms(percentile(lat, 99))}, max {ms(max(lat, default=0))}",
        f"  CPU                   {run.cpu:.1f} s = {run.cpu / max(run.wall, 1e-9) * 100:.0f} % "
        f"of one core (simulation and fake Bot API included)",
        *run.sql.lines(n, top=4),
        f"  event → visible       p50 {ms(percentile(delays, 50))}, p99 "
        f"{ms(percentile(delays, 99))} over {len(delays):,} messages; busiest game minute "
        f"({len(busiest):,} messages): p99 {ms(percentile(busiest, 99))}",
        f"  beyond the limits     {run.over_limits} (calls the fake saw beyond 20/group/min, "
        f"1/private/s, {run.bot_rate}/bot/s, in game time)",
        f"  memory                {per_game / 1024:.1f} KiB of RSS per running game "
        f"({run.rss_peak_growth / 2**20:.0f} MiB over {run.running_at_peak} running games; "
        f"the fake server's and the players' memory included)",
    ]
    if run.failures:
        lines += ["problems"] + [f"  {f}" for f in run.failures[:10]]
    return "\n".join(lines)
