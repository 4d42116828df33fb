"""``python -m benchmarks --workers N``: K games over N webhook worker processes (issue 12).

Theory of operation
-------------------
The stand-in Bot API server of the end-to-end tests (:class:`tests.e2e.fake_api.FakeBotAPI`)
runs in this process and delivers every update by webhook, spread round-robin over N real
``python -m bot`` processes (:class:`tests.e2e.botproc.BotProcess`, webhook mode, ``REDIS_URL``
with a prefix of the run's own, one PostgreSQL database, ``LEASE_SECONDS`` short). A delivery
refused by a dead worker is posted again to the next one, as Telegram retries. The simulated
players act from outside with the e2e :class:`tests.e2e.conftest.Table` (party preset, six
players): they press only buttons the bot really sent, read whose turn it is from the game log,
and check every answer.

Mid-run (``kill_after`` seconds after the games began) the worker holding the most shard leases
is SIGKILLed; the **takeover** lasts from the kill until every lease ``<prefix>lease:<shard>``
names a living worker and every worker that took some of the dead one's shards logged "serving
N more shard(s)" once more (polled every 50 ms).

Figures (all times in seconds): updates/s (distinct updates acknowledged with a 2xx over the
wall time of the games), the webhook answer latency (one POST to its answer), the
update-to-answer latency (a button press queued by the stand-in to its answerCallbackQuery), the
lost and duplicated commands (see :func:`integrity`), the busiest group minute and bot second
(``rates``), and per worker the updates received (2xx answers), the updates handled (those of
the shards it held when the update was acknowledged: the lease timeline is polled every 0.1 s),
CPU seconds and RSS from ``/proc``.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.cluster.routing import shard_of

#: ids of the simulated group chats and users (unique per run through a nonce)
GROUP_BASE = -1_008_000_000_000
USER_BASE = 700_000_000_000
PLAYERS = 6  #: the e2e Table seats six (tests.e2e.conftest.NAMES)
SHARDS = 64
POLL = 0.05  #: seconds between two looks at the leases while a takeover is measured


@dataclass
class WorkerFigures:
    """One worker process: ``received`` webhook POSTs it answered 2xx, ``handled`` updates of its
    shards, CPU seconds (user + system) while the games were played, and RSS in bytes
    (current and peak) at its end (or at its kill)."""

    name: str
    pid: int = 0
    received: int = 0
    handled: int = 0
    cpu: float = 0.0
    rss: int = 0
    peak_rss: int = 0
    killed: bool = False


@dataclass
class WorkersRun:
    workers: int
    games: int
    db_url: str
    lease_seconds: float
    kill_after: float | None
    wall: float = 0.0
    updates: int = 0
    webhook_latency: list[float] = field(default_factory=list)
    answer_latency: list[float] = field(default_factory=list)
    failed_posts: int = 0
    presses: int = 0
    unanswered: int = 0
    answered_twice: int = 0
    unfinished: int = 0
    doubled_commands: int = 0
    pending_at_end: int = 0
    takeover: float | None = None
    killed: str | None = None
    killed_shards: int = 0
    busiest_group_minute: int = 0
    busiest_bot_second: int = 0
    per_worker: list[WorkerFigures] = field(default_factory=list)
    winners: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    group_rate: tuple[int, float] | None = None
    missing: int = 0  #: buttons the players waited for in vain (the timer moved the game on)
    missing_notes: list[str] = field(default_factory=list)

    @property
    def lost(self) -> int:
        return self.unanswered + self.unfinished + self.pending_at_end

    @property
    def duplicated(self) -> int:
        return self.answered_twice + self.doubled_commands


def proc_figures(pid: int) -> tuple[float, int, int]:
    """(CPU seconds, RSS bytes, peak RSS bytes) of a living process, from /proc; zeros if gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        with open(f"/proc/{pid}/status") as status:
            kib = {k: int(v.split()[0]) for k, v in (line.split(":", 1) for line in status)
                   if k in ("VmRSS", "VmHWM")}
    except OSError:
        return 0.0, 0, 0
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks  # utime, stime (fields 14, 15 of stat)
    return cpu, kib.get("VmRSS", 0) * 1024, kib.get("VmHWM", 0) * 1024


class Leases:
    """The shard leases in Redis as the benchmark sees them: a timeline of owners."""

    def __init__(self, redis, prefix: str, shards: int = SHARDS) -> None:
        self.redis, self.prefix, self.shards = redis, prefix, shards
        self.timeline: list[tuple[float, list[str | None]]] = []

    async def owners(self) -> list[str | None]:
        return await self.redis.mget([f"{self.prefix}lease:{s}" for s in range(self.shards)])

    async def record(self) -> list[str | None]:
        owners = await self.owners()
        if not self.timeline or self.timeline[-1][1] != owners:
            self.timeline.append((time.monotonic(), owners))
        return owners

    async def poll(self, every: float = 0.1) -> None:
        while True:
            await self.record()
            await asyncio.sleep(every)

    def owner_at(self, shard: int, at: float) -> str | None:
        owner = None
        for moment, owners in self.timeline:
            if moment > at:
                break
            owner = owners[shard]
        return owner


def route_group(update: dict[str, Any], group_of_user: dict[int, int]) -> int | None:
    """The group chat an update of the benchmark concerns: the group it happened in, else the
    sender's table's group (private presses and deep links)."""
    body = next(v for k, v in update.items() if k != "update_id")
    chat = (body.get("message") or body).get("chat") or {}
    if chat.get("id", 0) < 0:
        return chat["id"]
    return group_of_user.get((body.get("from") or {}).get("id"))


def plan_for(st) -> Any:
    """What the simulated table decides, whatever the deal: each day a speaker nominates the
    first living townsman who is not himself, the mafia shoots the last, the doctor heals the
    first, the commissar checks the first living mafioso."""
    from engine import Team
    from tests.e2e.conftest import Plan

    def town(s) -> list[int]:
        return [p.user_id for p in s.seated() if p.alive and p.team is not Team.MAFIA]

    def nominee(s) -> int:
        return next((u for u in town(s) if u != s.speaker), town(s)[0])

    def mafioso(s) -> int:
        return next(p.user_id for p in s.seated() if p.alive and p.team is Team.MAFIA)

    return Plan(nominations={day: [nominee] for day in range(1, 20)},
                kill=lambda s: town(s)[-1], heal=lambda s: town(s)[0], check=mafioso)


class Watch:
    """What :class:`tests.e2e.conftest.Table` needs of its bot process (``wait_until``), for
    many processes: it fails only once every worker is dead."""

    def __init__(self, api, procs) -> None:
        self.api, self.procs = api, procs

    async def wait_until(self, predicate, timeout: float, *, what: str = "meet the condition"):
        deadline = time.monotonic() + timeout
        while True:
            if not any(p.running for p in self.procs):
                raise RuntimeError(f"every worker is dead; nobody could {what}")
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"the workers did not {what} within {timeout} s")
            try:
                return await self.api.wait_for(predicate, min(left, 1.0))
            except TimeoutError:
                continue


BUTTON_WAIT = 20.0  #: seconds a player waits for a button before he waits for the timer instead
TIMER_WAIT = 240.0  #: seconds he then waits for the game to move on (its phase's timer)


class Moved(Exception):
    """The button never came and the game moved on without it (its timer fired)."""


def bench_table_class():
    """:class:`tests.e2e.conftest.Table` whose players, when a button they expect never comes
    (the worker that was to send it died with the message in its queue), wait for the
    phase's timer as people would, and count it (``missing``, ``missing_notes``)."""
    from tests.e2e.conftest import Table

    class BenchTable(Table):
        missing = 0
        missing_notes: list[str] = []

        async def do(self, user, chat_id, st, action, target=None) -> None:
            data = self.act(st, action, target)
            try:
                await self.wait(lambda: self.message_with(chat_id, data),
                                f"offer the button {data} in chat {chat_id}", BUTTON_WAIT)
            except TimeoutError:
                last = self.api.last_message(chat_id)
                self.missing += 1
                self.missing_notes = [*self.missing_notes, f"game {self.game_id}: no {data} in "
                                      f"chat {chat_id} (its newest bot message: "
                                      f"{[b.get('callback_data') for b in last.buttons] if last else None})"]
                deadline = time.monotonic() + TIMER_WAIT
                while (await self.state()).phase_seq == st.phase_seq:
                    if time.monotonic() > deadline:
                        raise
                    await asyncio.sleep(0.5)
                raise Moved() from None
            await super().do(user, chat_id, st, action, target)

        async def play(self, plan, until=None, max_steps: int = 200):
            for _ in range(max_steps):
                st = await self.state()
                if st.over:
                    return st
                try:
                    await self.step(plan)
                except Moved:
                    continue
            raise AssertionError(f"the game did not end within {max_steps} steps")

    return BenchTable


async def run_workers(workers: int, games: int, db_url: str, redis_url: str, *, seed: int = 1,
                      kill_after: float | None = None, lease_seconds: float = 3.0,
                      group_rate: tuple[int, float] | None = (1200, 60.0),
                      workdir: str | None = None) -> WorkersRun:
    """Play ``games`` party games over ``workers`` bot processes; SIGKILL the busiest one
    ``kill_after`` seconds after the games began (None: no kill; never with one worker)."""
    run = WorkersRun(workers, games, db_url, lease_seconds,
                     kill_after if workers > 1 else None, group_rate=group_rate)
    if workdir is None:
        with tempfile.TemporaryDirectory(prefix="mafia-workers-") as folder:
            return await _run(run, redis_url, seed, Path(folder))
    return await _run(run, redis_url, seed, Path(workdir))


async def _run(run: WorkersRun, redis_url: str, seed: int, folder: Path) -> WorkersRun:
    from redis.asyncio import Redis

    from bot.storage import Storage
    from tests.e2e.botproc import BotProcess
    from tests.e2e.fake_api import FakeBotAPI

    nonce = random.Random(seed * 7919 + time.time_ns()).randrange(1, 10**5)
    prefix = f"bench{nonce}:"
    redis = Redis.from_url(redis_url, decode_responses=True)
    reader = Storage(run.db_url)
    await reader.start()  # migrates the database once, before the workers race to
    api = FakeBotAPI("123456:BENCH")
    _time_presses(api)
    await api.start()
    env = {"REDIS_URL": redis_url, "REDIS_PREFIX": prefix, "LEASE_SECONDS": str(run.lease_seconds),
           "SHARDS": str(SHARDS), "LOG_LEVEL": "INFO"}
    secret = f"bench{nonce}"  # one webhook behind all the workers: one secret
    procs = [BotProcess(api, run.db_url, folder / f"w{i}", webhook=True, group_rate=run.group_rate,
                        webhook_secret=secret, env={**env, "WORKER_ID": f"w{i}"})
             for i in range(run.workers)]
    names = {f"w{i}": p for i, p in enumerate(procs)}
    leases = Leases(redis, prefix)
    poller: asyncio.Task | None = None
    try:
        await asyncio.gather(*(p.start(timeout=90) for p in procs))
        api.webhook_targets = [p.webhook_base for p in procs]
        api.webhook_chooser = "round_robin"
        await _all_served(leases, set(names), timeout=30)
        poller = asyncio.create_task(leases.poll())
        await _play(run, api, procs, names, leases, reader, seed, nonce)
        await _settle(api)
        run.pending_at_end = len(api.pending_updates)
        await _figures(run, api, names, leases, reader)
    finally:
        if poller is not None:
            poller.cancel()
        for name, proc in names.items():
            figures = next((w for w in run.per_worker if w.name == name), None)
            if proc.running and figures is not None and not figures.killed:
                cpu, figures.rss, figures.peak_rss = proc_figures(proc.process.pid)
                figures.cpu += cpu
        await asyncio.gather(*(p.stop(timeout=20) for p in procs if p.running),
                             return_exceptions=True)
        for proc in procs:
            run.problems += [line for line in proc.problems() if not _expected(line)]
        await api.stop()
        await reader.close()
        keys = [k async for k in redis.scan_iter(f"{prefix}*")]
        for start in range(0, len(keys), 500):
            await redis.delete(*keys[start:start + 500])
        await redis.aclose()
    return run


def _time_presses(api) -> None:
    """Note when each callback query is queued (``api.callback_queued``: id -> monotonic)."""
    api.callback_queued = {}
    enqueue = api.enqueue_update

    async def timed(update: dict[str, Any]) -> int:
        if "callback_query" in update:
            api.callback_queued[update["callback_query"]["id"]] = time.monotonic()
        return await enqueue(update)

    api.enqueue_update = timed


def _expected(line: str) -> bool:
    """Log lines that a killed neighbour explains (none are expected otherwise)."""
    return False


async def _all_served(leases: Leases, live: set[str], timeout: float) -> float:
    """Wait until every shard's lease names a worker of ``live``; returns when (monotonic)."""
    deadline = time.monotonic() + timeout
    while True:
        owners = await leases.record()
        if all(o in live for o in owners):
            return time.monotonic()
        if time.monotonic() > deadline:
            raise TimeoutError(f"shards not served within {timeout} s: {owners}")
        await asyncio.sleep(POLL)


async def _play(run: WorkersRun, api, procs, names, leases: Leases, reader, seed: int,
                nonce: int) -> None:
    from tests.e2e.conftest import NAMES

    Table = bench_table_class()
    watch = Watch(api, procs)
    tables = [Table(api, watch, reader, GROUP_BASE - nonce * 1000 - k,
                    first_user_id=USER_BASE + nonce * 10_000 + k * 10,
                    title=f"Bench table {k + 1}", names=NAMES[:PLAYERS]) for k in range(run.games)]
    run.per_worker = [WorkerFigures(name, proc.process.pid) for name, proc in names.items()]
    for figures in run.per_worker:  # CPU is counted from here: start-up (imports) left out
        figures.cpu = -proc_figures(figures.pid)[0]
    started = time.monotonic()
    killer = None
    if run.kill_after is not None:
        killer = asyncio.create_task(_kill(run, names, leases, started + run.kill_after))
    outcomes = await asyncio.gather(*(_game(t) for t in tables), return_exceptions=True)
    run.wall = time.monotonic() - started
    if killer is not None:
        if not killer.done():
            run.failures.append(f"the games ended before the kill ({run.wall:.1f} s)")
            killer.cancel()
        await asyncio.gather(killer, return_exceptions=True)
    for table, outcome in zip(tables, outcomes):
        if isinstance(outcome, BaseException):
            run.unfinished += 1
            run.failures.append(f"table {table.chat_id}: {type(outcome).__name__}: "
                                f"{str(outcome).splitlines()[0] if str(outcome) else ''}")
        else:
            run.winners[outcome] += 1
    run._tables = tables  # type: ignore[attr-defined] - for _figures
    run.missing = sum(t.missing for t in tables)
    run.missing_notes = [n for t in tables for n in t.missing_notes]


async def _game(table) -> str:
    await table.join_all()
    await table.start_game()
    end = await table.play(plan_for(await table.state()), max_steps=200)
    if not end.over:
        raise AssertionError(f"game {table.game_id} did not end")
    return end.winner.value if end.winner else "none"


async def _kill(run: WorkersRun, names, leases: Leases, at: float) -> None:
    await asyncio.sleep(max(0.0, at - time.monotonic()))
    owners = await leases.record()
    held = Counter(o for o in owners if o is not None)
    victim, count = held.most_common(1)[0]
    proc = names[victim]
    figures = next(w for w in run.per_worker if w.name == victim)
    cpu, figures.rss, figures.peak_rss = proc_figures(proc.process.pid)
    figures.cpu += cpu
    figures.killed = True
    before = {n: p.log_text().count("serving ") for n, p in names.items()}
    theirs = {s for s, o in enumerate(owners) if o == victim}
    await proc.kill()
    killed_at = time.monotonic()
    run.killed, run.killed_shards = victim, count
    live = {n for n, p in names.items() if p.running}
    while True:
        owners = await leases.record()
        gainers = {owners[s] for s in theirs}
        if gainers <= live and all(o in live for o in owners) and all(
                names[g].log_text().count("serving ") > before[g] for g in gainers):
            run.takeover = time.monotonic() - killed_at
            return
        if time.monotonic() - killed_at > 60:
            run.failures.append("the dead worker's shards were not served again within 60 s")
            return
        await asyncio.sleep(POLL)


async def _settle(api, timeout: float = 30.0) -> None:
    """Until the stand-in has nothing to deliver and the bot made no call for a second."""
    try:
        await api.settle(quiet=1.0, timeout=timeout)
    except TimeoutError:
        pass


async def _figures(run: WorkersRun, api, names, leases: Leases, reader) -> None:
    tables = getattr(run, "_tables", [])
    group_of_user = {u.id: t.chat_id for t in tables for u in t.users}
    first_ok: dict[int, float] = {}
    updates = {u["update_id"]: u for u in api.updates_log}
    port_worker = {p.webhook_base: n for n, p in names.items()}
    by_name = {w.name: w for w in run.per_worker}
    for delivery in api.webhook_deliveries:
        if not delivery.ok:
            run.failed_posts += 1
            continue
        run.webhook_latency.append(delivery.ended - delivery.started)
        worker = next((n for base, n in port_worker.items() if delivery.target.startswith(base)),
                      None)
        if worker is not None:
            by_name[worker].received += 1
        if delivery.update_id not in first_ok:
            first_ok[delivery.update_id] = delivery.ended
            group = route_group(updates.get(delivery.update_id, {}), group_of_user) \
                if delivery.update_id in updates else None
            if group is not None:
                owner = leases.owner_at(shard_of(group, SHARDS), delivery.ended)
                if owner in by_name:
                    by_name[owner].handled += 1
    run.updates = len(first_ok)
    queued = api.callback_queued
    answers: dict[str, list[float]] = {}
    for call in api.calls_to("answerCallbackQuery"):
        answers.setdefault(str(call.params.get("callback_query_id")), []).append(call.at)
    run.presses = len(queued)
    for query_id, at in queued.items():
        got = answers.get(query_id, [])
        if not got:
            run.unanswered += 1
        else:
            run.answer_latency.append(min(got) - at)
            run.answered_twice += len(got) > 1
    run.doubled_commands = await integrity(reader, [t.game_id for t in tables if t.game_id])
    run.busiest_group_minute = max((api.busiest_group_minute(t.chat_id) for t in tables),
                                   default=0)
    run.busiest_bot_second = api.busiest_bot_second()


#: command fields that carry a time, not a choice (left out when comparing two commands)
_TIMES = frozenset({"at", "now", "time", "ts"})


async def integrity(reader, game_ids: list[int]) -> int:
    """Commands applied twice: log rows of one game with the same ``update_id`` and the same
    command (time fields aside) — one update's effect applied again. Returns how many extra."""
    seen: Counter[tuple[int, int, str]] = Counter()
    for game_id in game_ids:
        for update_id, command in await _log_rows(reader, game_id):
            if update_id is None:
                continue
            body = {k: v for k, v in command.items() if k not in _TIMES}
            seen[(game_id, update_id, json.dumps(body, sort_keys=True))] += 1
    return sum(n - 1 for n in seen.values() if n > 1)


async def _log_rows(reader, game_id: int) -> list[tuple[int | None, dict]]:
    from sqlalchemy import select

    from bot.db_models import GameLogEntry

    async with reader.engine.connect() as connection:
        result = await connection.execute(
            select(GameLogEntry.update_id, GameLogEntry.command)
            .where(GameLogEntry.game_id == game_id).order_by(GameLogEntry.seq))
        return [(row[0], row[1]) for row in result]
