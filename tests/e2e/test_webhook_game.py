"""A whole game with the bot in webhook mode (``WEBHOOK_URL`` set, one process, no Redis): the
stand-in Bot API POSTs every update to the bot's own web server instead of answering getUpdates,
retrying what is not acknowledged with a 2xx, as Telegram does (tests/e2e/webhooks.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest
import pytest_asyncio

from engine import Phase, Team

from .botproc import BotProcess
from .conftest import Table, seat_label, short_game_plan
from .fake_api import FakeBotAPI

pytestmark = pytest.mark.asyncio(loop_scope="module")

GROUP = -1001000000077


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def bot_proc(bot_api: FakeBotAPI, e2e_database_url: str,
                   tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotProcess]:
    """The conftest's bot process, in webhook mode."""
    proc = BotProcess(bot_api, e2e_database_url, tmp_path_factory.mktemp("e2e-webhook-bot"), webhook=True)
    await proc.start()
    yield proc
    status = await proc.stop()
    if status not in (0, None, -9):
        pytest.fail(f"the bot exited with status {status} on SIGTERM\n{proc.log_tail()}")
    if proc.problems():
        pytest.fail("the bot logged problems:\n" + "\n".join(proc.problems()))


async def test_the_bot_registers_its_webhook(bot_api: FakeBotAPI, bot_proc: BotProcess) -> None:
    assert bot_api.webhook is not None
    assert bot_api.webhook_url == bot_proc.webhook_endpoint
    assert bot_api.webhook.secret_token == bot_proc.webhook_secret
    assert "callback_query" in (bot_api.webhook.allowed_updates or [])
    assert bot_api.poll_count == 0, "a webhook bot never calls getUpdates"
    # a forged update without the secret is refused
    async with aiohttp.ClientSession() as http, http.post(
            bot_proc.webhook_endpoint, json={"update_id": 1},
            headers={"X-Telegram-Bot-Api-Secret-Token": "wrong"}) as response:
        assert response.status == 401


async def test_six_players_play_a_game_by_webhook(bot_api: FakeBotAPI, bot_proc: BotProcess, reader) -> None:
    table = Table(bot_api, bot_proc, reader, GROUP, first_user_id=7001)
    _ = table._
    await table.join_all()
    await table.start_game()
    st = await table.state()
    end = await table.play(short_game_plan(st))
    assert end.phase is Phase.ENDED and end.winner is Team.MAFIA and end.day == 1

    finale = await table.wait_message(GROUP, _("Roles:"))
    await bot_api.settle(quiet=1.5, timeout=20)
    for p in end.seated():
        label = f"{seat_label(end, p.user_id)} — {table.role_label(p.role)}"
        assert label in (finale.text or ""), finale.text
    assert bot_api.messages(GROUP)[-1] is finale
    assert bot_api.poll_count == 0
    delivered = {d.update_id for d in bot_api.webhook_deliveries if d.ok}
    assert delivered == {u["update_id"] for u in bot_api.updates_log}, "every update reached the bot"
    assert all(d.ok for d in bot_api.webhook_deliveries), "the bot acknowledged every update at once"
    assert bot_proc.problems() == []


async def test_a_duplicated_update_is_harmless(bot_api: FakeBotAPI, bot_proc: BotProcess) -> None:
    """Telegram's retry after a lost 200 (the same update_id twice) in a private chat: /start
    answers, and the bot stays healthy."""
    user = bot_api.user(7101, "Zoya", "zoya")
    bot_api.duplicate_next_updates(1)
    await user.start()
    await bot_proc.wait_until(lambda: bot_api.messages(user.id), 20, what="answer /start")
    await bot_api.settle(quiet=1.5, timeout=20)
    (update_id,) = {d.update_id for d in bot_api.webhook_deliveries if d.copy == 2}
    assert [d.ok for d in bot_api.deliveries_of(update_id)] == [True, True]
    assert bot_proc.problems() == []
