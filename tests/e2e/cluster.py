"""Many bot worker processes behind one stand-in Bot API (issue 12), for tests/e2e/test_cluster*.py.

    workers = Workers(api, db_url, workdir, redis_url=..., prefix=..., names=("w0", "w1", "w2"))
    await workers.start()            # every process up, every shard leased as rendezvous wants
    api.webhook_targets              # set by start(): updates spread round robin over the workers
    await workers.owner(GROUP)       # "w1": the worker whose lease holds the group's shard
    await workers.kill("w1")         # SIGKILL: its leases are left to expire
    await workers.pause("w1")        # SIGSTOP (a frozen process); workers.resume("w1"): SIGCONT
    await workers.wait_owner(GROUP, other_than="w1")   # -> (new owner, seconds it took)
    await workers.stop()             # SIGTERM to each; returns their exit statuses

Each worker is a :class:`tests.e2e.botproc.BotProcess` in webhook mode with its own ``WEB_PORT``
and ``WORKER_ID`` and the same ``DATABASE_URL`` (PostgreSQL), ``REDIS_URL``, ``REDIS_PREFIX``,
``SHARDS`` and ``LEASE_SECONDS``; they share one webhook secret (the stand-in has one webhook).
``tag_calls=True``: each worker calls the stand-in at ``<base>/w/<name>``, so every recorded call
names its worker (``Call.worker``); ``database_urls``: a worker's own URL of the database (e.g.
as a PostgreSQL role of its own, so the database can tell its writes apart).
:meth:`Workers.wait_until` has the shape :class:`tests.e2e.conftest.Table` needs of its ``proc``
and fails fast, with every worker's log, when a worker that should live exits. Times in seconds.

Fixtures (function scope: each test has its own stand-in, Redis prefix and database; the e2e
conftest imports them):
``cluster_api``, ``cluster_db`` (a fresh PostgreSQL database, dropped afterwards), ``cluster_redis``
(a client; the test's keys are deleted afterwards) and ``cluster_prefix``; the tests skip unless
both ``TEST_DATABASE_URL`` and ``TEST_REDIS_URL`` are set.
"""

from __future__ import annotations

import asyncio
import os
import re
import secrets
import signal
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.cluster.leases import rendezvous
from bot.cluster.routing import shard_of
from tests.fixtures_db import fresh_postgres_database
from tests.fixtures_redis import fresh_prefix, redis_namespace

from .botproc import BotProcess, BotProcessError
from .fake_api import FakeBotAPI

TEST_REDIS_URL = os.environ.get("TEST_REDIS_URL") or None
TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL") or None
needs_services = pytest.mark.skipif(
    TEST_REDIS_URL is None or TEST_DATABASE_URL is None,
    reason="TEST_DATABASE_URL and TEST_REDIS_URL are needed")

SHARDS = 8
LEASE_SECONDS = 2.0
TAKEOVER_BOUND = 10.0  #: issue 12: a dead worker's games continue elsewhere within 10 s
#: Telegram's 20 calls per group per minute on a clock ten times faster (20 per 6 s), so that a
#: whole game takes seconds, not minutes; the tests check that window (``busiest_chat_window``)
GROUP_RATE = (20, 6.0)
_HANDLED = re.compile(r"Update id=(\d+) is (?:not )?handled")
_PASSED_ON = re.compile(r"update (\d+) belongs to shard \d+: passed on")


@pytest_asyncio.fixture
async def cluster_api() -> AsyncIterator[FakeBotAPI]:
    api = FakeBotAPI("123456:TEST")
    await api.start()
    yield api
    await api.stop()


@pytest.fixture
def cluster_prefix() -> str:
    """A Redis key prefix of the test's own (tests share one Redis database)."""
    return fresh_prefix("e2e")


@pytest_asyncio.fixture
async def cluster_redis(cluster_prefix: str) -> AsyncIterator:
    assert TEST_REDIS_URL is not None
    async with redis_namespace(TEST_REDIS_URL, cluster_prefix) as client:
        yield client


@pytest_asyncio.fixture
async def cluster_db() -> AsyncIterator[str]:
    """A fresh PostgreSQL database of the test's own, dropped afterwards."""
    assert TEST_DATABASE_URL is not None
    async with fresh_postgres_database("e2e") as url:
        yield url


class Workers:
    """Worker processes named ``names`` on one database, Redis prefix and stand-in."""

    def __init__(self, api: FakeBotAPI, database_url: str, workdir: Path, *, redis, prefix: str,
                 names: tuple[str, ...] = ("w0", "w1", "w2"), shards: int = SHARDS,
                 lease_seconds: float = LEASE_SECONDS, env: dict[str, str] | None = None,
                 group_rate: tuple[int, float] = GROUP_RATE, tag_calls: bool = False,
                 database_urls: dict[str, str] | None = None) -> None:
        assert TEST_REDIS_URL is not None
        self.api, self.redis, self.prefix, self.shards = api, redis, prefix, shards
        self.database_url = database_url
        secret = secrets.token_urlsafe(16)
        urls = database_urls or {}

        def own_env(name: str) -> dict[str, str]:
            tagged = {"TELEGRAM_API_URL": f"{api.base_url}/w/{name}"} if tag_calls else {}
            return {"REDIS_URL": TEST_REDIS_URL or "", "REDIS_PREFIX": prefix, "WORKER_ID": name,
                    "SHARDS": str(shards), "LEASE_SECONDS": str(lease_seconds), **tagged,
                    **(env or {})}

        self.procs: dict[str, BotProcess] = {
            name: BotProcess(api, urls.get(name, database_url), Path(workdir) / name,
                             webhook=True, webhook_secret=secret, group_rate=group_rate,
                             aiogram_lines=True, env=own_env(name))
            for name in names}
        self.killed: set[str] = set()
        self._marks: dict[str, int] = {}

    # --- lifecycle -------------------------------------------------------------------------------
    async def start(self, timeout: float = 60.0) -> None:
        """Start every worker at once; return when each shard is leased by the worker the
        rendezvous hash over all of them names. Deliveries go round robin over the workers."""
        await asyncio.gather(*(p.start(timeout=timeout) for p in self.procs.values()))
        self.api.webhook_targets = [p.webhook_base for p in self.procs.values()]
        self.api.webhook_chooser = "round_robin"
        await self.wait_settled(timeout)

    async def wait_settled(self, timeout: float = 30.0) -> None:
        live = [n for n in self.procs if n not in self.killed]
        wanted = {s: rendezvous(s, live) for s in range(self.shards)}

        async def settled() -> bool:
            return await self.leases() == wanted

        await self.poll(settled, timeout, what="lease every shard to its worker")

    async def kill(self, name: str) -> float:
        """SIGKILL worker ``name``; returns the monotonic time of the kill (the other workers'
        logs are marked there: :meth:`log_since_kill`)."""
        self._marks = {n: len(p.log_text()) for n, p in self.procs.items()}
        self.killed.add(name)
        assert await self.procs[name].kill() == -9
        return time.monotonic()

    def pause(self, name: str) -> float:
        """SIGSTOP worker ``name`` (frozen: no code of it runs, its sockets stay open; its
        leases run out); returns the monotonic time of the signal."""
        self._marks = {n: len(p.log_text()) for n, p in self.procs.items()}
        self.procs[name].signal(signal.SIGSTOP)
        return time.monotonic()

    def resume(self, name: str) -> float:
        """SIGCONT worker ``name`` (after :meth:`pause`); returns the monotonic time."""
        self.procs[name].signal(signal.SIGCONT)
        return time.monotonic()

    async def stop(self) -> dict[str, int | BaseException | None]:
        """SIGTERM every living worker (each hands its shards over); their exit statuses (the
        exception instead where stopping one raised)."""
        live = [(n, p) for n, p in self.procs.items() if n not in self.killed]
        statuses = await asyncio.gather(*(p.stop() for _, p in live), return_exceptions=True)
        return {n: s for (n, _), s in zip(live, statuses, strict=True)}

    # --- Redis ------------------------------------------------------------------------------------
    async def leases(self) -> dict[int, str | None]:
        """Shard -> the worker holding its lease (None: nobody)."""
        values = await self.redis.mget([f"{self.prefix}lease:{s}" for s in range(self.shards)])
        return dict(enumerate(values))

    async def owner(self, chat_id: int) -> str | None:
        return await self.redis.get(f"{self.prefix}lease:{shard_of(chat_id, self.shards)}")

    async def wait_owner(self, chat_id: int, *, other_than: str, since: float,
                         logged: str = "more shard(s):", timeout: float = 30.0
                         ) -> tuple[str, float]:
        """Wait until a worker other than ``other_than`` holds ``chat_id``'s shard *and* logged
        ``logged`` since the last kill (default: that it serves more shards; "1 open game(s)
        recovered" when the chat's game is the one open game); returns (its name, seconds from
        ``since`` to that log line)."""
        found: list[str] = []

        async def taken() -> bool:
            owner = await self.owner(chat_id)
            if owner is None or owner == other_than:
                return False
            found[:] = [owner]
            return logged in self.log_since_kill(owner)

        await self.poll(taken, timeout, what=f"take {chat_id}'s shard over from {other_than}")
        return found[0], time.monotonic() - since

    # --- waiting ---------------------------------------------------------------------------------
    def _check_alive(self, what: str) -> None:
        for name, proc in self.procs.items():
            if name not in self.killed and proc.process is not None \
                    and proc.process.returncode is not None:
                raise BotProcessError(f"worker {name} exited with status {proc.process.returncode} "
                                      f"before the workers could {what}\n{self.log_tails()}")

    async def wait_until(self, predicate, timeout: float, *, what: str = "meet the condition"):
        """``api.wait_for(predicate)`` (Table's ``proc.wait_until``), failing fast if a worker
        that should live exits."""
        deadline = time.monotonic() + timeout
        while True:
            self._check_alive(what)
            left = deadline - time.monotonic()
            if left <= 0:
                raise BotProcessError(f"the workers did not {what} within {timeout} s\n"
                                      f"{self.log_tails()}")
            try:
                return await self.api.wait_for(predicate, min(left, 1.0))
            except TimeoutError:
                continue

    async def poll(self, check, timeout: float, *, what: str, every: float = 0.05):
        """Wait until ``await check()`` is truthy (polled); returns it."""
        deadline = time.monotonic() + timeout
        while True:
            self._check_alive(what)
            result = await check()
            if result:
                return result
            if time.monotonic() > deadline:
                raise BotProcessError(f"the workers did not {what} within {timeout} s\n"
                                      f"{self.log_tails()}")
            await asyncio.sleep(every)

    # --- logs --------------------------------------------------------------------------------------
    def problems(self) -> dict[str, list[str]]:
        """Each worker's WARNING+ lines and tracebacks (BotProcess.problems); empty lists left out."""
        return {n: p.problems() for n, p in self.procs.items() if p.problems()}

    def tracebacks(self) -> dict[str, list[str]]:
        return {n: [line for line in p.all_logs().splitlines() if line.startswith("Traceback")]
                for n, p in self.procs.items() if "Traceback" in p.all_logs()}

    def handlers(self) -> dict[int, set[str]]:
        """Update id -> the workers that fed it to their Dispatcher (aiogram logs "Update id=N is
        handled", or "is not handled" when no handler wanted it)."""
        return self._by_update(_HANDLED)

    def passers(self) -> dict[int, set[str]]:
        """Update id -> the workers that found it belongs to another shard and passed it on."""
        return self._by_update(_PASSED_ON)

    def _by_update(self, pattern: re.Pattern) -> dict[int, set[str]]:
        found: dict[int, set[str]] = {}
        for name, proc in self.procs.items():
            for update_id in pattern.findall(proc.all_logs()):
                found.setdefault(int(update_id), set()).add(name)
        return found

    def log_since_kill(self, name: str) -> str:
        """What worker ``name`` logged since the last :meth:`kill` or :meth:`pause` (its current
        start)."""
        return self.procs[name].log_text()[self._marks.get(name, 0):]

    def all_logs(self) -> str:
        return "\n".join(f"===== worker {n} =====\n{p.all_logs()}" for n, p in self.procs.items())

    def log_tails(self, lines: int = 40) -> str:
        return "\n".join(f"--- worker {n} (last lines) ---\n"
                         + "\n".join(p.all_logs().splitlines()[-lines:])
                         for n, p in self.procs.items())
