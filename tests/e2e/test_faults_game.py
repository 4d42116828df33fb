"""One whole party game while the stand-in Bot API misbehaves on purpose (issue 10, item 1): a
fifth of all calls, of every method, fail at random — HTTP 500, 502 with an HTML page, 429 with
retry_after, a connection dropped before or after the method acted, a request that hangs. The game
must end with its result, every press must be answered and the bot's log must hold no traceback.

The bot's attempts time out after 1.5 s here (``sender_defaults``) so hanging requests cost little;
the production default is 10 s.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from bot.storage import Storage
from engine import Phase

from .botproc import BotProcess
from .conftest import Table, short_game_plan
from .fake_api import FAULT_KINDS, FakeBotAPI

pytestmark = pytest.mark.asyncio(loop_scope="module")

GROUP = -1001000000077
FAULT_RATE = 0.2


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def faulty_api() -> AsyncIterator[FakeBotAPI]:
    api = FakeBotAPI("123456:TEST")
    await api.start()
    yield api
    await api.stop()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def faulty_proc(faulty_api: FakeBotAPI, tmp_path_factory: pytest.TempPathFactory
                      ) -> AsyncIterator[BotProcess]:
    workdir = tmp_path_factory.mktemp("e2e-faults")
    proc = BotProcess(faulty_api, f"sqlite+aiosqlite:///{workdir / 'faults.db'}", workdir,
                      sender_defaults={"attempt_timeout": 1.5})
    faulty_api.inject_faults(FAULT_RATE, seed=12, hang=2.5)  # from the very first call
    await proc.start(timeout=60)
    yield proc
    faulty_api.inject_faults(0)
    await proc.stop()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def faulty_reader(faulty_proc: BotProcess) -> AsyncIterator[Storage]:
    storage = Storage(faulty_proc.database_url)
    await storage.start()
    yield storage
    await storage.close()


async def test_a_party_game_ends_with_its_result_while_every_method_fails_at_random(
        faulty_api: FakeBotAPI, faulty_proc: BotProcess, faulty_reader: Storage) -> None:
    api, proc = faulty_api, faulty_proc
    table = Table(api, proc, faulty_reader, GROUP, first_user_id=2001)
    _ = table._
    await table.join_all()
    await table.start_game()
    st = await table.state()
    end = await table.play(short_game_plan(st))
    assert end.phase is Phase.ENDED

    await table.wait_message(GROUP, _("Roles:"), timeout=60)
    # every press got its answer (the stand-in resolves a press at its first answer)
    unanswered = [qid for qid, waiter in api.callback_waiters.items() if not waiter.done()]
    assert unanswered == []
    assert set(api.injected) == set(FAULT_KINDS), api.injected  # each kind really happened
    assert sum(api.injected.values()) >= 20, api.injected
    log = proc.all_logs()
    assert "Traceback" not in log, proc.log_tail(120)
    assert "ClientDecodeError" not in log
