"""Tests of the stand-in Bot API's webhook delivery (tests/e2e/webhooks.py) and its rate counters
(tests/e2e/rates.py), with tiny aiohttp receivers standing in for the bot's workers."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
import pytest_asyncio
from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.exceptions import TelegramBadRequest, TelegramConflictError
from aiohttp import web

from .fake_api import FakeBotAPI
from .rates import busiest_window
from .webhooks import WebhookDelivery

TOKEN = "123456:TEST"
GROUP = -1001234567890
SECRET = "s3cret-Token_1"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]



def ended(delivery: WebhookDelivery) -> float:
    """When ``delivery`` ended (monotonic seconds; the test fails if it has not)."""
    assert delivery.ended is not None, delivery
    return delivery.ended

@dataclass
class Receiver:
    """A worker's webhook endpoint: records what it got (``spans``: when each request came and was
    answered) and answers ``statuses`` in turn (then 200), after ``delay`` seconds."""

    port: int = field(default_factory=free_port)
    statuses: list[int] = field(default_factory=list)
    delay: float = 0.0
    got: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    spans: list[tuple[float, float]] = field(default_factory=list)
    runner: web.AppRunner | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def update_ids(self) -> list[int]:
        return [u["update_id"] for u in self.got]

    async def handle(self, request: web.Request) -> web.Response:
        started = time.monotonic()
        assert request.content_type == "application/json"
        self.got.append(await request.json())  # received, even if the answer comes too late
        self.headers.append(dict(request.headers))
        self.spans.append((started, float("inf")))
        index = len(self.spans) - 1
        await asyncio.sleep(self.delay)
        self.spans[index] = (started, time.monotonic())
        return web.Response(status=self.statuses.pop(0) if self.statuses else 200)

    async def start(self) -> Receiver:
        app = web.Application()
        app.router.add_post("/hook", self.handle)
        self.runner = web.AppRunner(app, access_log=None)
        await self.runner.setup()
        await web.TCPSite(self.runner, "127.0.0.1", self.port).start()
        return self

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()


@pytest_asyncio.fixture
async def api() -> AsyncIterator[FakeBotAPI]:
    server = FakeBotAPI(TOKEN)
    await server.start()
    yield server
    await server.stop()


@pytest_asyncio.fixture
async def bot(api: FakeBotAPI) -> AsyncIterator[Bot]:
    assert api.base_url is not None
    instance = Bot(TOKEN, session=AiohttpSession(api=TelegramAPIServer.from_base(api.base_url)))
    yield instance
    await instance.session.close()


@pytest_asyncio.fixture
async def receivers() -> AsyncIterator[Callable[..., Any]]:
    started: list[Receiver] = []

    async def make(**kwargs: Any) -> Receiver:
        receiver = await Receiver(**kwargs).start()
        started.append(receiver)
        return receiver

    yield make
    for receiver in started:
        await receiver.stop()


async def test_delivery_with_secret_then_delete_returns_to_polling(
        api: FakeBotAPI, bot: Bot, receivers) -> None:
    worker = await receivers()
    alice = api.user(1001, "Alice")
    await alice.say(alice.id, "before the webhook")  # queued earlier: delivered once it is set
    assert await bot.set_webhook(f"{worker.url}/hook", secret_token=SECRET, max_connections=5,
                                 allowed_updates=["message", "callback_query"])
    await api.wait_for(lambda: len(worker.got) == 1)
    await alice.say(alice.id, "after")
    await api.wait_for(lambda: len(worker.got) == 2 and not api.pending_updates)
    assert [u["message"]["text"] for u in worker.got] == ["before the webhook", "after"]
    assert all(h["X-Telegram-Bot-Api-Secret-Token"] == SECRET for h in worker.headers)
    assert all(h["Content-Type"] == "application/json" for h in worker.headers)

    info = await bot.get_webhook_info()
    assert (info.url, info.pending_update_count, info.max_connections) == (f"{worker.url}/hook", 0, 5)
    assert info.allowed_updates == ["message", "callback_query"] and info.last_error_date is None
    with pytest.raises(TelegramConflictError, match="can't use getUpdates method while webhook is active"):
        await bot.get_updates(timeout=0)
    with pytest.raises(TelegramBadRequest, match="secret token contains unallowed characters"):
        await bot.set_webhook(f"{worker.url}/hook", secret_token="no spaces")

    assert await bot.delete_webhook()
    assert (await bot.get_webhook_info()).url == ""
    await alice.say(alice.id, "polled")
    assert [u.message.text if u.message else None for u in await bot.get_updates(timeout=1)] == ["polled"]
    assert len(worker.got) == 2


async def test_no_secret_header_without_secret_and_drop_pending(api: FakeBotAPI, bot: Bot, receivers) -> None:
    worker = await receivers()
    alice = api.user(1001, "Alice")
    await alice.say(alice.id, "dropped")
    await bot.set_webhook(f"{worker.url}/hook", drop_pending_updates=True)
    await alice.say(alice.id, "kept")
    await api.wait_for(lambda: worker.got and not api.pending_updates)
    await asyncio.sleep(0.1)
    assert [u["message"]["text"] for u in worker.got] == ["kept"]
    assert "X-Telegram-Bot-Api-Secret-Token" not in worker.headers[0]


async def test_retry_after_500_and_timeout(api: FakeBotAPI, bot: Bot, receivers) -> None:
    worker = await receivers(statuses=[500, 502])
    alice = api.user(1001, "Alice")
    await bot.set_webhook(f"{worker.url}/hook")
    await alice.say(alice.id, "hi")
    update_id = api.updates_log[-1]["update_id"]
    await api.wait_for(lambda: not api.pending_updates, timeout=5)
    attempts = api.deliveries_of(update_id)
    assert [d.status for d in attempts[:3]] == [500, 502, 200]
    # pairs (first, second), (second, third): attempts is the longer of the two
    gaps = [b.started - ended(a) for a, b in zip(attempts, attempts[1:3], strict=False)]
    assert 0.15 <= gaps[0] < gaps[1] and 0.4 <= gaps[1] < 2.0, gaps  # 0.2 s, then 0.5 s
    info = await bot.get_webhook_info()
    assert info.last_error_message == "Wrong response from the webhook: 502"
    assert info.last_error_date is not None and info.pending_update_count == 0

    api.webhook_timeout = 0.3
    worker.delay = 0.6  # the first POST times out; the receiver still gets it, as a worker would
    started = time.monotonic()
    await alice.say(alice.id, "slow")
    await api.wait_for(lambda: any(d.error == "Connection timed out" for d in api.webhook_deliveries))
    worker.delay = 0.0
    await api.wait_for(lambda: not api.pending_updates, timeout=5)
    assert time.monotonic() - started < 4.0
    assert worker.update_ids().count(update_id + 1) == 2  # a timed-out delivery is delivered again


async def test_refused_connection_is_retried_until_the_worker_listens(api: FakeBotAPI, bot: Bot,
                                                                      receivers) -> None:
    port = free_port()
    alice = api.user(1001, "Alice")
    await bot.set_webhook(f"http://127.0.0.1:{port}/hook")
    await alice.say(alice.id, "anyone?")
    await api.wait_for(lambda: len(api.webhook_deliveries) >= 2, timeout=3)
    assert all(d.error and d.error.startswith("Connection refused") for d in api.webhook_deliveries)
    assert (await bot.get_webhook_info()).pending_update_count == 1
    worker = await receivers(port=port)
    await api.wait_for(lambda: not api.pending_updates, timeout=5)
    assert [u["message"]["text"] for u in worker.got] == ["anyone?"]
    assert ((await bot.get_webhook_info()).last_error_message or "").startswith("Connection refused")


async def test_spreading_over_targets(api: FakeBotAPI, bot: Bot, receivers) -> None:
    workers = [await receivers() for _ in range(3)]
    alice = api.user(1001, "Alice")
    await bot.set_webhook("http://127.0.0.1:1/hook", secret_token=SECRET)  # the balancer's address
    api.webhook_targets = [w.url for w in workers]  # no path: the webhook's /hook
    for n in range(6):
        await alice.say(alice.id, f"round robin {n}")
        await api.wait_for(lambda: not api.pending_updates)
    assert [len(w.got) for w in workers] == [2, 2, 2]

    api.webhook_chooser = lambda update: update["message"]["text"].count("!")
    for text in ("a!!", "b!", "c!!", "d"):
        await alice.say(alice.id, text)
    await api.wait_for(lambda: not api.pending_updates)
    assert [[u["message"]["text"] for u in w.got[2:]] for w in workers] == [["d"], ["b!"], ["a!!", "c!!"]]

    api.webhook_chooser = "random"
    for n in range(12):
        await alice.say(alice.id, f"random {n}")
    await api.wait_for(lambda: not api.pending_updates)
    assert sum(len(w.got) for w in workers) == 22 and all(len(w.got) > 4 for w in workers)

    dead = free_port()  # a killed worker: round robin sends its retries to the next one
    api.webhook_chooser = "round_robin"
    api.webhook_targets = [f"http://127.0.0.1:{dead}", workers[0].url]
    for n in range(4):
        await alice.say(alice.id, f"failover {n}")
    await api.wait_for(lambda: not api.pending_updates, timeout=5)
    assert sorted(u["message"]["text"] for u in workers[0].got[-4:]) == [f"failover {n}" for n in range(4)]
    assert sum(d.error is not None for d in api.webhook_deliveries) >= 2  # the dead one was tried
    assert all(h["X-Telegram-Bot-Api-Secret-Token"] == SECRET for w in workers for h in w.headers)


async def test_duplicates_after_ack_and_at_once(api: FakeBotAPI, bot: Bot, receivers) -> None:
    one, two = await receivers(delay=0.2), await receivers(delay=0.2)
    alice = api.user(1001, "Alice")
    await bot.set_webhook(f"{one.url}/hook")
    api.duplicate_next_updates(2)
    for text in ("x", "y", "z"):
        await alice.say(alice.id, text)
    await api.wait_for(lambda: not api.pending_updates, timeout=5)
    assert sorted(u["message"]["text"] for u in one.got) == ["x", "x", "y", "y", "z"]
    x_copies = [d for d in api.webhook_deliveries if d.update_id == one.got[0]["update_id"]]
    # one after the other
    assert [d.copy for d in x_copies] == [1, 2] and x_copies[1].started >= ended(x_copies[0])

    api.webhook_targets = [one.url, two.url]
    api.duplicate_next_updates(1, at_once=True)
    await alice.say(alice.id, "both")
    await api.wait_for(lambda: not api.pending_updates, timeout=5)
    (a,), (b,) = ([s for u, s in zip(w.got, w.spans, strict=True) if u["message"]["text"] == "both"]
                  for w in (one, two))
    assert a[0] < b[1] and b[0] < a[1], "both copies were in flight at the same time"
    assert len(one.got) + len(two.got) == 7


async def test_max_connections(api: FakeBotAPI, bot: Bot, receivers) -> None:
    worker = await receivers(delay=0.15)
    alice = api.user(1001, "Alice")
    await bot.set_webhook(f"{worker.url}/hook", max_connections=2)
    for n in range(6):
        await alice.say(alice.id, f"m{n}")
    await api.wait_for(lambda: not api.pending_updates, timeout=5)
    moments = sorted([(s, 1) for s, _ in worker.spans] + [(e, -1) for _, e in worker.spans])
    running = peak = 0
    for _, step in moments:
        running += step
        peak = max(peak, running)
    assert len(worker.got) == 6 and peak == 2


def test_busiest_window() -> None:
    assert busiest_window([], 60) == 0
    assert busiest_window([0.0, 59.9, 60.0, 61.0, 200.0], 60.0) == 3  # 59.9, 60, 61
    assert busiest_window([5.0, 1.0, 1.5, 1.9, 2.0], 1.0) == 3


async def test_counters_of_group_minute_and_bot_second(api: FakeBotAPI, bot: Bot) -> None:
    alice = api.user(1001, "Alice")
    other = -1009
    api.group(GROUP, "Mafia night", members=[alice])
    api.group(other, "Other", members=[alice])
    await alice.start()
    sent = await bot.send_message(GROUP, "one")
    await bot.edit_message_text("one, edited", chat_id=GROUP, message_id=sent.message_id)
    await bot.send_message(other, "elsewhere")
    await bot.send_message(alice.id, "private")
    await bot.get_chat(GROUP)  # reads do not count
    await bot.get_chat_member(GROUP, alice.id)
    api.fail_next("sendMessage", chat_id=GROUP, error_code=429)
    with pytest.raises(Exception, match="retry after"):
        await bot.send_message(GROUP, "refused")
    assert api.busiest_group_minute(GROUP) == 3  # send, edit, the refused send
    assert api.busiest_group_minute(GROUP, ok_only=True) == 2
    assert api.busiest_group_minute(other) == 1
    assert api.busiest_bot_second() == 5
    assert api.busiest_group_minute(-1) == 0


async def test_setting_the_webhook_again_interrupts_nothing(api: FakeBotAPI, bot: Bot, receivers) -> None:
    """Every worker calls setWebhook when it starts: a delivery under way is not cut short (no
    duplicate), and it goes on under the new settings."""
    slow = await receivers(delay=0.4)
    alice = api.user(1001, "Alice")
    await bot.set_webhook(f"{slow.url}/hook", secret_token=SECRET)
    await alice.say(alice.id, "one")
    await api.wait_for(lambda: slow.got)
    await bot.set_webhook(f"{slow.url}/hook", secret_token="other", max_connections=3)
    await api.wait_for(lambda: not api.pending_updates)
    await alice.say(alice.id, "two")
    await api.wait_for(lambda: not api.pending_updates)
    assert [u["message"]["text"] for u in slow.got] == ["one", "two"]
    assert [h["X-Telegram-Bot-Api-Secret-Token"] for h in slow.headers] == [SECRET, "other"]
    assert all(d.ok for d in api.webhook_deliveries)
