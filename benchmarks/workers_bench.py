"""``python -m benchmarks --workers N``: K games over N webhook worker processes (issue 12).

Theory of operation
-------------------
The stand-in Bot API server of the end-to-end tests (:class:`tests.e2e.fake_api.FakeBotAPI`)
runs in this process and delivers every update by webhook, spread round-robin over N real
``python -m bot`` processes (:class:`tests.e2e.botproc.BotProcess`, webhook mode, ``REDIS_URL``
with a prefix of the run's own, one PostgreSQL database, ``LEASE_SECONDS`` short). A delivery
refused by a dead worker is posted again to the next one, as Telegram retries; the dead worker
leaves the rotation :data:`HEALTH_CHECK` seconds after its death, as behind a load balancer that
checks its backends. The simulated
players act from outside with the e2e :class:`tests.e2e.conftest.Table` (party preset, six
players): they press only buttons the bot really sent, read whose turn it is from the game log,
and check every answer.

Mid-run (``kill_after`` seconds after the games began; by default once the players made a third
of the presses the games take, :data:`PRESSES_PER_GAME`) the worker holding the most shard
leases is SIGKILLed; the **takeover** lasts from the kill until every lease ``<prefix>lease:<shard>``
names a living worker and every worker that took some of the dead one's shards logged "serving
N more shard(s)" once more (polled every 50 ms).

Figures (all times in seconds): updates/s (distinct updates acknowledged with a 2xx over the
wall time of the games), the webhook answer latency (one POST to its answer), the
update-to-answer latency (a button press queued by the stand-in to its answerCallbackQuery), the
lost and duplicated commands (see :func:`integrity`), the busiest group minute and bot second
(``rates``), the 429s of the stand-in (it enforces Telegram's limits: the group rate the workers
run with, 1 call per private chat per second, 30 per second), the group messages sent twice and
the shards that moved (issue 19), and per worker the updates received (2xx answers), the
updates handled (those of the shards it held when the update was acknowledged: the lease
timeline is polled every 0.1 s), CPU seconds and RSS from ``/proc``.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bot.telegram.limits import GLOBAL_RATE, GROUP_RATE, PRIVATE_RATE

from .workers_figures import SHARDS, Leases, WorkerFigures, WorkersRun, collect, proc_figures
from .workers_table import Watch, bench_table_class, plan_for

#: ids of the simulated group chats and users (unique per run through a nonce)
GROUP_BASE = -1_008_000_000_000
USER_BASE = 700_000_000_000
PLAYERS = 6  #: the e2e Table seats six (tests.e2e.conftest.NAMES)
PRESSES_PER_GAME = 40  #: button presses one simulated game takes (measured: 38-41)
HEALTH_CHECK = 2.0  #: seconds until the dead worker leaves the stand-in's rotation
POLL = 0.05  #: seconds between two looks at the leases while a takeover is measured


async def run_workers(workers: int, games: int, db_url: str, redis_url: str, *, seed: int = 1,
                      kill_after: float | None = None, lease_seconds: float = 3.0,
                      group_rate: tuple[int, float] | None = (1200, 60.0),
                      workdir: str | None = None) -> WorkersRun:
    """Play ``games`` party games over ``workers`` bot processes; SIGKILL the busiest one
    ``kill_after`` seconds after the games began (None: once the players made a third of the
    presses the games take; 0: no kill; never with one worker)."""
    run = WorkersRun(workers, games, db_url, lease_seconds,
                     kill_after if workers > 1 else 0, group_rate=group_rate)
    if workdir is None:
        with tempfile.TemporaryDirectory(prefix="mafia-workers-") as folder:
            return await _run(run, redis_url, seed, Path(folder))
    Path(workdir).mkdir(parents=True, exist_ok=True)
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
    group = run.group_rate or GROUP_RATE  # Telegram's limits, on the workers' group clock
    api.enable_flood_control(group_per_minute=group[0], group_window=group[1],
                             private_per_second=PRIVATE_RATE[0], global_per_second=GLOBAL_RATE[0])
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
        leases.timeline = leases.timeline[-1:]  # moves are counted from here (start-up aside)
        poller = asyncio.create_task(leases.poll())
        tables = await _play(run, api, procs, names, leases, reader, nonce)
        await _settle(api)
        run.pending_at_end = len(api.pending_updates)
        await collect(run, api, names, leases, reader, tables)
    finally:
        if poller is not None:
            poller.cancel()
        for name, proc in names.items():
            figures = next((w for w in run.per_worker if w.name == name), None)
            if proc.running and proc.process is not None and figures is not None \
                    and not figures.killed:  # (running implies a process; mypy sees no link)
                cpu, figures.rss, figures.peak_rss = proc_figures(proc.process.pid)
                figures.cpu += cpu
        await asyncio.gather(*(p.stop(timeout=20) for p in procs if p.running),
                             return_exceptions=True)
        for proc in procs:
            run.problems += proc.problems()
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


async def _all_served(leases: Leases, live: set[str], timeout: float) -> float:
    """Wait until every shard's lease names the worker of ``live`` that wants it (rendezvous:
    the workers started at once hand over what the first of them took, so no shard moves once
    the games began); returns when (monotonic)."""
    from bot.cluster.leases import rendezvous

    wanted = [rendezvous(s, sorted(live)) for s in range(leases.shards)]
    deadline = time.monotonic() + timeout
    while True:
        owners = await leases.record()
        if owners == wanted:
            return time.monotonic()
        if time.monotonic() > deadline:
            raise TimeoutError(f"shards not served within {timeout} s: {owners}")
        await asyncio.sleep(POLL)


async def _play(run: WorkersRun, api, procs, names, leases: Leases, reader, nonce: int) -> list:
    from tests.e2e.conftest import NAMES

    Table = bench_table_class()
    watch = Watch(api, procs)
    tables = [Table(api, watch, reader, GROUP_BASE - nonce * 1000 - k,
                    first_user_id=USER_BASE + nonce * 10_000 + k * 10,
                    title=f"Bench table {k + 1}", names=NAMES[:PLAYERS]) for k in range(run.games)]
    run.per_worker = [WorkerFigures(name, proc.process.pid) for name, proc in names.items()]
    for figures in run.per_worker:  # CPU is counted from here: start-up (imports) left out
        figures.cpu = -proc_figures(figures.pid)[0]
    started, cpu = time.monotonic(), time.process_time()
    killer = None
    if run.kill_after != 0:
        killer = asyncio.create_task(_kill(run, api, names, leases, started))
    outcomes = await asyncio.gather(*(_game(t) for t in tables), return_exceptions=True)
    run.wall, run.bench_cpu = time.monotonic() - started, time.process_time() - cpu
    if killer is not None:
        if not killer.done():
            run.failures.append(f"the games ended before the kill ({run.wall:.1f} s)")
            killer.cancel()
        await asyncio.gather(killer, return_exceptions=True)
    for table, outcome in zip(tables, outcomes, strict=True):
        if isinstance(outcome, BaseException):
            run.unfinished += 1
            run.failures.append(f"table {table.chat_id}: {type(outcome).__name__}: "
                                f"{str(outcome).splitlines()[0] if str(outcome) else ''}")
        else:
            run.winners[outcome] += 1
    run.missing = sum(t.missing for t in tables)
    run.missing_notes = [n for t in tables for n in t.missing_notes]
    return tables


async def _game(table) -> str:
    await table.join_all()
    await table.start_game()
    end = await table.play(plan_for(await table.state()), max_steps=200)
    if not end.over:
        raise AssertionError(f"game {table.game_id} did not end")
    return end.winner.value if end.winner else "none"


async def _kill(run: WorkersRun, api, names, leases: Leases, started: float) -> None:
    if run.kill_after is None:  # a third of the way
        presses = run.games * PRESSES_PER_GAME // 3
        while len(api.callback_queued) < presses:
            await asyncio.sleep(POLL)
    else:
        await asyncio.sleep(max(0.0, started + run.kill_after - time.monotonic()))
    run.killed_after = time.monotonic() - started
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
    asyncio.get_running_loop().call_later(HEALTH_CHECK, _drop_target, api, proc.webhook_base)
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


def _drop_target(api, base: str) -> None:
    """The load balancer's health check noticed the dead worker: no more POSTs to it."""
    api.webhook_targets = [t for t in api.webhook_targets or () if t != base]


async def _settle(api, timeout: float = 30.0) -> None:
    """Until the stand-in has nothing to deliver and the bot made no call for a second."""
    with contextlib.suppress(TimeoutError):
        await api.settle(quiet=1.0, timeout=timeout)


