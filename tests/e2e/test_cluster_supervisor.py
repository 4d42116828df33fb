"""``WEB_CONCURRENCY=2``: ONE ``python -m bot`` starts two webhook workers sharing ``WEB_PORT``
(SO_REUSEPORT) and watches them (bot/cluster/supervisor.py), issue 12. A short game through it
(lobby, joins, start, the first night) with the worker serving the game killed with SIGKILL on
the way: the supervisor starts it again and the game goes on. The children run with Telegram's
own rates (the e2e bootstrap reaches only the supervisor), so the group's busiest minute is the
real one. And the settings that cannot run many workers are refused with one clear line and exit
status 2 (no services needed for those)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.cluster.leases import rendezvous
from bot.cluster.routing import shard_of
from bot.storage import Storage
from engine import Phase

from .botproc import _SETTINGS_ENV, PROJECT_ROOT, BotProcess, BotProcessError
from .cluster import (
    LEASE_SECONDS,
    SHARDS,
    TAKEOVER_BOUND,
    TEST_REDIS_URL,
    needs_services,
)
from .conftest import Plan, Table
from .fake_api import FakeBotAPI

GROUP = -1001000000121
NAMES = ("s-0", "s-1")  #: WORKER_ID=s, and each child's index


class Supervised:
    """The one ``python -m bot`` process and what its children logged (one log file)."""

    def __init__(self, proc: BotProcess, redis, prefix: str) -> None:
        self.proc, self.redis, self.prefix = proc, redis, prefix

    def pids(self) -> list[int]:
        """The living children's pids by their index (``MAFIA_WORKER_INDEX``), from /proc."""
        assert self.proc.process is not None
        parent = self.proc.process.pid
        try:
            with open(f"/proc/{parent}/task/{parent}/children") as f:
                children = [int(pid) for pid in f.read().split()]
        except FileNotFoundError:
            return []
        found: dict[int, int] = {}
        for pid in children:
            try:
                with open(f"/proc/{pid}/environ", "rb") as f:
                    env = dict(item.split(b"=", 1) for item in f.read().split(b"\0") if b"=" in item)
            except (FileNotFoundError, ProcessLookupError):
                continue
            if b"MAFIA_WORKER_INDEX" in env and _alive(pid):
                found[int(env[b"MAFIA_WORKER_INDEX"])] = pid
        return [found[i] for i in sorted(found)]

    async def leases(self) -> dict[int, str | None]:
        values = await self.redis.mget([f"{self.prefix}lease:{s}" for s in range(SHARDS)])
        return dict(enumerate(values))

    async def poll(self, check, timeout: float, what: str):
        deadline = time.monotonic() + timeout
        while True:
            if not self.proc.running:
                raise BotProcessError(f"the supervisor exited before it could {what}\n"
                                      f"{self.proc.log_tail()}")
            result = await check()
            if result:
                return result
            if time.monotonic() > deadline:
                raise BotProcessError(f"the workers did not {what} within {timeout} s\n"
                                      f"{self.proc.log_tail(100)}")
            await asyncio.sleep(0.05)

    async def wait_settled(self, timeout: float = 40.0, keep: dict[int, str] | None = None
                           ) -> None:
        """Every shard leased to the worker rendezvous hashing gives it, but those of ``keep``
        (shard -> worker: a shard with a game stays with its holder, issue 19)."""
        wanted = {s: rendezvous(s, NAMES) for s in range(SHARDS)} | (keep or {})

        async def settled() -> bool:
            return await self.leases() == wanted

        await self.poll(settled, timeout, "lease every shard to its worker")

    async def wait_until(self, predicate, timeout: float, *, what: str = "meet the condition"):
        return await self.proc.wait_until(predicate, timeout, what=what)


@pytest_asyncio.fixture
async def supervised(cluster_api: FakeBotAPI, cluster_db: str, cluster_redis, cluster_prefix: str,
                     tmp_path: Path) -> AsyncIterator[Supervised]:
    assert TEST_REDIS_URL is not None
    proc = BotProcess(cluster_api, cluster_db, tmp_path / "supervisor", webhook=True,
                      env={"REDIS_URL": TEST_REDIS_URL, "REDIS_PREFIX": cluster_prefix,
                           "WORKER_ID": "s", "SHARDS": str(SHARDS),
                           "LEASE_SECONDS": str(LEASE_SECONDS), "WEB_CONCURRENCY": "2"})
    s = Supervised(proc, cluster_redis, cluster_prefix)
    children: list[int] = []
    try:
        await proc.start(timeout=60)
        await proc.wait_for_log(f"(worker {NAMES[1]} of many", 60)
        await proc.wait_for_log(f"(worker {NAMES[0]} of many", 60)
        children = s.pids()
        assert len(children) == 2, children
        await s.wait_settled()
        yield s
    finally:
        children = list(set(children + (s.pids() if proc.running else [])))
        status = await proc.stop(timeout=30)
        left = [pid for pid in children if _alive(pid)]
        for pid in left:  # never leave a worker behind (ours: started by this test)
            os.kill(pid, signal.SIGKILL)
        if status != 0 or left:
            pytest.fail(f"the supervisor exited with {status}; workers left running: {left}\n"
                        f"{proc.log_tail(80)}")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie waiting for its parent is gone too
        return stat.read().split(") ", 1)[1][0] != "Z"


@needs_services
async def test_two_workers_from_one_process_and_one_killed(
        cluster_api: FakeBotAPI, supervised: Supervised) -> None:
    api, proc = cluster_api, supervised.proc
    log = proc.log_text()
    assert all(f"(worker {name} of many" in log for name in NAMES), log
    assert len(re.findall(rf"webhook server on 127\.0\.0\.1:{proc.web_port} ", log)) == 2
    reader = Storage(proc.database_url)
    await reader.start()
    try:
        table = Table(api, supervised, reader, GROUP, first_user_id=15001)
        await table.join_all()
        await table.start_game()
        st = await table.state()
        assert st.phase is Phase.READY
        plan = Plan()
        await table.do(table.users[0], table.users[0].id, st, "ready")

        owner = await supervised.redis.get(f"{supervised.prefix}lease:{shard_of(GROUP, SHARDS)}")
        index = NAMES.index(owner)
        pid = supervised.pids()[index]
        os.kill(pid, signal.SIGKILL)
        killed_at = time.monotonic()
        other = NAMES[1 - index]

        async def taken() -> bool:
            return await supervised.redis.get(
                f"{supervised.prefix}lease:{shard_of(GROUP, SHARDS)}") == other

        await supervised.poll(taken, TAKEOVER_BOUND + 5, f"let {other} take the game over")
        took = time.monotonic() - killed_at
        assert took <= TAKEOVER_BOUND
        # the others read their role meanwhile; the game goes on to the first night and past it
        st = await table.play(plan, until=lambda s: s.phase is Phase.NIGHT)
        await supervised.poll(lambda: _restarted(proc, index), 30, f"start worker {index} again")
        assert len(supervised.pids()) == 2 and supervised.pids()[index] != pid
        st = await table.play(plan, until=lambda s: s.phase not in (Phase.READY, Phase.NIGHT))
        assert st.day == 1 and st.phase is not Phase.ENDED
        # the restarted worker has its idle shards back; the game stays where it went (issue 19)
        await supervised.wait_settled(keep={shard_of(GROUP, SHARDS): other})
        await api.settle(quiet=1.5, timeout=30)
        assert [q for q, w in api.callback_waiters.items() if not w.done()] == []
        assert api.busiest_group_minute(GROUP) <= 20
        assert api.busiest_bot_second() <= 30
        expected = f"worker {index} (pid {pid}) exited with -9"
        problems = [line for line in proc.problems() if expected not in line]
        assert problems == [], problems
    finally:
        await reader.close()


async def _restarted(proc: BotProcess, index: int) -> bool:
    return len(re.findall(rf"\(worker s-{index} of many", proc.log_text())) == 2


# --- refusals: one clear line, exit status 2 -------------------------------------------------------

def _run_bot(tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k.upper() not in _SETTINGS_ENV}
    clean.update(BOT_TOKEN="123456:TEST", PYTHONPATH=str(PROJECT_ROOT), WEB_CONCURRENCY="2", **env)
    return subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=clean, text=True,
                          capture_output=True, stdin=subprocess.DEVNULL, timeout=60)


PG = "postgresql+asyncpg://bot@127.0.0.1:9/mafia"  # never reached: refused before connecting


@pytest.mark.parametrize("env, words", [
    ({"DATABASE_URL": PG, "REDIS_URL": "redis://127.0.0.1:9/0"}, "long polling runs one process"),
    ({"DATABASE_URL": PG, "WEBHOOK_URL": "https://bot.example.com"}, "needs REDIS_URL"),
    ({"WEBHOOK_URL": "https://bot.example.com", "REDIS_URL": "redis://127.0.0.1:9/0",
      "DATABASE_URL": "sqlite+aiosqlite:///mafia.db"}, "DATABASE_URL=postgresql"),
], ids=["polling", "no-redis", "sqlite"])
def test_many_workers_refused_with_one_line(tmp_path: Path, env: dict[str, str], words: str) -> None:
    done = _run_bot(tmp_path, **env)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mafia-bot: ") and words in lines[0], done.stderr
    assert "WEB_CONCURRENCY=2" in lines[0] or "many workers" in lines[0]
    assert not list(tmp_path.iterdir()), "nothing was started or written"
