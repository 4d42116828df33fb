"""Telegram's group limit across a crash and under faults (issue 19, item 1): the stand-in Bot
API refuses (429) every send or edit over 20 per group in any window, counting the calls of the
process before the crash; the bot must never draw one.

The bot runs its group rate on a short clock (20 calls per 6 s, the stand-in enforcing 20 per
6 s) so that a game takes seconds; it is killed right after the start of the game, when the
group's budget is spent, and started again at once; after the restart a tenth of the calls are
answered and then their connection dropped (Telegram acted, the bot does not know). Runs once,
on SQLite (the database does not matter here).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from bot.storage import Storage
from engine import Phase

from .botproc import BotProcess
from .conftest import Table, short_game_plan
from .fake_api import FakeBotAPI

pytestmark = pytest.mark.asyncio(loop_scope="module")

GROUP = -1001000000019
RATE = (20, 6.0)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def limited_api() -> AsyncIterator[FakeBotAPI]:
    api = FakeBotAPI("123456:TEST")
    await api.start()
    api.enable_flood_control(group_per_minute=RATE[0], group_window=RATE[1])
    yield api
    await api.stop()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def limited_proc(limited_api: FakeBotAPI, tmp_path_factory: pytest.TempPathFactory
                       ) -> AsyncIterator[BotProcess]:
    workdir = tmp_path_factory.mktemp("e2e-limits")
    proc = BotProcess(limited_api, f"sqlite+aiosqlite:///{workdir / 'limits.db'}", workdir,
                      group_rate=RATE, sender_defaults={"attempt_timeout": 2.0})
    await proc.start(timeout=60)
    yield proc
    limited_api.inject_faults(0)
    await proc.stop()


async def test_no_429_after_a_restart_mid_minute_nor_after_dropped_answers(
        limited_api: FakeBotAPI, limited_proc: BotProcess) -> None:
    api, proc = limited_api, limited_proc
    storage = Storage(proc.database_url)
    await storage.start()
    try:
        table = Table(api, proc, storage, GROUP, first_user_id=2101)
        _ = table._
        await table.join_all()
        await table.start_game()  # the group is busy: the announcement, the table, a turn
        assert await proc.kill() == -9
        await proc.start(timeout=60)
        api.inject_faults(0.1, seed=19, kinds=("drop_after",))
        st = await table.state()
        end = await table.play(short_game_plan(st))
        assert end.phase is Phase.ENDED
        await table.wait_message(GROUP, _("Roles:"), timeout=60)
    finally:
        await storage.close()
    assert api.injected["drop_after"] >= 3, api.injected
    refused = [c for c in api.calls if c.error_code == 429]
    assert refused == [], [(c.method, c.params.get("chat_id"), c.at) for c in refused]
    assert api.busiest_chat_window(GROUP, RATE[1], ok_only=True) <= RATE[0]


async def test_a_burst_of_private_messages_draws_no_429_when_one_reaches_telegram_late(
        limited_api: FakeBotAPI, limited_proc: BotProcess) -> None:
    """Issue 19: Telegram counts about one message per second in a private chat when the calls
    reach it. The first of a burst of answers to one player reaches the stand-in 0.6 s late (it
    holds the request before acting on it, as a slow connection would): the next one, whose
    token came 1.15 s after the first's, must still not reach it within the same second — the
    bot spaces a private chat's calls from the end of the one before."""
    import asyncio

    api = limited_api
    api.inject_faults(0)
    user = api.user(2199, "Zoe", "zoe")
    await user.start()
    await limited_proc.wait_until(lambda: api.messages(user.id), 20, what="greet Zoe")
    await asyncio.sleep(1.5)  # the greeting's second is over
    before = len(api.limited_calls(user.id))
    late = api.hold("sendMessage", chat_id=user.id)
    for command in ("/help", "/rules", "/help", "/rules"):
        await user.say(user.id, command)
    await asyncio.wait_for(late.arrived.wait(), 20)
    await asyncio.sleep(0.6)
    late.release()
    await limited_proc.wait_until(lambda: len(api.limited_calls(user.id, ok_only=True))
                                  >= before + 2, 20, what="answer Zoe's burst")
    await api.settle(quiet=1.5, timeout=20)
    calls = api.limited_calls(user.id)[before:]
    assert len(calls) >= 2, [c.method for c in calls]
    refused = [(c.method, c.at) for c in calls if c.error_code == 429]
    assert refused == [], refused
