"""Many worker processes, one bot (issue 12), end to end: three ``python -m bot`` webhook workers
on one PostgreSQL database and one Redis, behind the stand-in Bot API, which spreads the updates
round robin over them as a load balancer would. A whole game across them; the worker holding the
game SIGKILLed in the middle of a vote; Telegram's duplicated deliveries. Needs TEST_DATABASE_URL
and TEST_REDIS_URL (skipped otherwise); SHARDS=8 and LEASE_SECONDS=2 keep takeovers quick."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.storage import Storage
from engine import Phase, Role

from .cluster import (  # noqa: F401 - fixtures
    GROUP_RATE, TAKEOVER_BOUND, Workers, cluster_api, cluster_db, cluster_prefix, cluster_redis,
    needs_services,
)
from .conftest import Plan, Table, ids, seat_label
from .fake_api import FakeBotAPI

pytestmark = needs_services

GROUP = -1001000000120


@pytest_asyncio.fixture
async def workers(cluster_api: FakeBotAPI, cluster_db: str, cluster_redis, cluster_prefix: str,
                  tmp_path: Path) -> AsyncIterator[Workers]:
    w = Workers(cluster_api, cluster_db, tmp_path, redis=cluster_redis, prefix=cluster_prefix)
    try:
        await w.start()
        yield w
    finally:
        statuses = await w.stop()
        bad = {n: s for n, s in statuses.items() if s not in (0, None)}
        if bad:
            pytest.fail(f"workers exited with {bad} on SIGTERM\n{w.log_tails()}")


@pytest_asyncio.fixture
async def reader(workers: Workers) -> AsyncIterator[Storage]:
    storage = Storage(workers.database_url)
    await storage.start()
    yield storage
    await storage.close()


def unanswered(api: FakeBotAPI) -> list[str]:
    return [qid for qid, waiter in api.callback_waiters.items() if not waiter.done()]


async def test_a_whole_game_across_three_workers(cluster_api: FakeBotAPI, workers: Workers,
                                                 reader: Storage) -> None:
    api = cluster_api
    table = Table(api, workers, reader, GROUP, first_user_id=12001)  # type: ignore[arg-type]
    _ = table._
    await table.join_all()
    await table.start_game()
    st = await table.state()
    civilians, mafia = ids(st, Role.CIVILIAN), ids(st, Role.MAFIA)
    (commissar,), (doctor,) = ids(st, Role.COMMISSAR), ids(st, Role.DOCTOR)
    plan = Plan(nominations={1: [lambda s: civilians[0], lambda s: commissar]},
                kill=lambda s: civilians[1], heal=lambda s: doctor, check=lambda s: mafia[0])
    end = await table.play(plan)
    assert end.phase is Phase.ENDED and end.day == 1
    finale = await table.wait_message(GROUP, _("Roles:"))
    await api.settle(quiet=1.5, timeout=20)
    for p in end.seated():
        assert f"{seat_label(end, p.user_id)} — {table.role_label(p.role)}" in finale.text

    # the updates really went through every worker, and the game's shard had one owner
    acknowledged = {d.target for d in api.webhook_deliveries if d.ok}
    assert acknowledged == {p.webhook_endpoint for p in workers.procs.values()}
    assert set((await workers.leases()).values()) == set(workers.procs)
    owner = await workers.owner(GROUP)
    passed = {n for n, p in workers.procs.items() if "passed on" in p.all_logs()}
    assert passed - {owner}, "a join came to a worker not serving the game, which passed it on"

    assert unanswered(api) == []
    assert workers.tracebacks() == {}
    assert workers.problems() == {}
    assert api.busiest_bot_second() <= 30
    # the game's group got at most 20 calls in any window of the (ten times faster) minute
    assert api.busiest_chat_window(GROUP, GROUP_RATE[1]) <= GROUP_RATE[0]
