"""In-process workers for the many-worker tests: several full bot stacks (``build_app``) on one
PostgreSQL database and one Redis, sharing one recording "Telegram", each with its
:class:`bot.cluster.worker.ShardWorker`. Updates go in through the webhook inbox (routing,
dedupe, the shard's stream), exactly as a webhook request's body would.

    cluster = Cluster(pg_url, redis_url, prefix, workers=2, shards=8)
    await cluster.start()                       # waits until every shard is served
    await cluster.send(update)                  # -> True if queued (False: a duplicate)
    await cluster.settle()                      # every queued update handled, senders drained
    cluster.owner_of(GROUP)                     # the Node serving a chat
    await cluster.kill(node)                    # a crash: no hand-over, leases left to expire
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass

from aiogram.methods import AnswerCallbackQuery
from aiogram.types import Update
from redis.asyncio import Redis

from bot.app import App, build_app
from bot.cluster.inbox import Inbox, stream_key
from bot.cluster.miniapp import MiniAppRelay, attach
from bot.cluster.routing import route_chat, shard_of
from bot.cluster.worker import GROUP as STREAM_GROUP
from bot.cluster.worker import ShardWorker
from bot.services.deadlines import ManualDeadlines
from bot.services.game_service import LiveGame
from bot.storage import Storage
from bot.storage.records import GameRecord
from bot.storage.redis import redis_client
from engine import GameState
from tests.bot.harness import FAST_RATES, FakeClock, make_users
from tests.fakes.session import TEST_TOKEN, RecordingSession
from tests.fakes.updates import FakeUser, Updates

#: seconds a Sender's drain or a killed worker's tasks may take before the test fails (a CI
#: run once hung 10 min in tests/cluster/test_workers.py with no frame to show where)
DRAIN_LIMIT = 120.0

@dataclass
class Node:
    name: str
    app: App
    worker: ShardWorker
    inbox: Inbox
    redis: Redis
    alive: bool = True
    relay: MiniAppRelay | None = None  #: the Mini App's relay (``webapp_url`` given)


def state_of(game: LiveGame) -> GameState:
    """The engine state of a game in memory (there is one once the game is created)."""
    assert game.state is not None, f"game {game.id} has no state"
    return game.state


async def live_state(node: Node, game_id: int) -> GameState:
    """The state of the game ``game_id`` on ``node``, the worker serving it."""
    return state_of(await node.app.service.live(game_id))


async def stored_game(storage: Storage, game_id: int) -> GameRecord:
    """The ``games`` row of ``game_id`` (it must exist)."""
    record = await storage.get_game(game_id)
    assert record is not None, f"no game {game_id} stored"
    return record


def relay_of(node: Node) -> MiniAppRelay:
    """The node's Mini App relay (the cluster was made with a ``webapp_url``)."""
    assert node.relay is not None, "no Mini App on this cluster (webapp_url)"
    return node.relay


class Cluster:
    def __init__(self, db_url: str, redis_url: str, prefix: str, *, workers: int = 2,
                 shards: int = 8, ttl: float = 1.5, n_users: int = 7,
                 webapp_url: str | None = None) -> None:
        self.db_url, self.redis_url, self.prefix = db_url, redis_url, prefix
        self.webapp_url = webapp_url  #: the Mini App on every worker (bot/cluster/miniapp.py)
        self.count, self.shards, self.ttl = workers, shards, ttl
        self.session = RecordingSession()
        self.clock = FakeClock()
        self.nodes: list[Node] = []
        self.users = make_users(n_users)
        self._updates: Updates | None = None

    @property
    def updates(self) -> Updates:
        """The updates' factory (made with the first node)."""
        assert self._updates is not None, "no node added yet"
        return self._updates

    async def add_node(self, name: str, redis_url: str | None = None,
                       db_url: str | None = None) -> Node:
        app = build_app(token=TEST_TOKEN, database_url=db_url or self.db_url,
                        session=self.session,
                        deadlines_cls=ManualDeadlines, clock=self.clock,
                        sender_kwargs=FAST_RATES, default_locale="en",
                        webapp_url=self.webapp_url)
        await app.start(recover=False)
        redis = redis_client(redis_url or self.redis_url)
        inbox = Inbox(redis, app.storage, prefix=self.prefix, shards=self.shards)
        worker = ShardWorker(app, redis, inbox, prefix=self.prefix, shards=self.shards,
                             worker=name, ttl=self.ttl)
        relay = attach(app, worker, redis, prefix=self.prefix, shards=self.shards)
        if relay is not None:
            await relay.start()
        await worker.start()
        node = Node(name, app, worker, inbox, redis, relay=relay)
        self.nodes.append(node)
        if self._updates is None:
            self._updates = Updates(app.bot, self.session, first_update_id=1)
        return node

    async def start(self) -> None:
        from tests.bot.harness import GROUP

        self.session.chat_titles.setdefault(GROUP, "Test group")
        for u in self.users:
            self.session.register_user(u)
        for i in range(self.count):
            await self.add_node(f"w{i}")
        if self.count:
            await self.wait_served()

    def live(self) -> list[Node]:
        return [n for n in self.nodes if n.alive]

    async def wait_served(self, timeout: float = 15.0) -> float:
        """Wait until every shard is served by exactly one live node; returns the seconds."""
        started = time.monotonic()
        while True:
            served = [s for n in self.live() for s in n.worker.serving]
            if sorted(served) == list(range(self.shards)) and \
                    all(n.worker.serving for n in self.live()):
                return time.monotonic() - started
            if time.monotonic() - started > timeout:
                raise AssertionError(f"shards not served: {[sorted(n.worker.serving) for n in self.live()]}")
            await asyncio.sleep(0.05)

    async def wait_until(self, predicate: Callable[[], object], timeout: float = 10.0) -> None:
        started = time.monotonic()
        while not predicate():
            if time.monotonic() - started > timeout:
                raise AssertionError("timed out waiting")
            await asyncio.sleep(0.05)

    def owner_of(self, chat_id: int) -> Node:
        shard = shard_of(chat_id, self.shards)
        return next(n for n in self.live() if shard in n.worker.serving)

    async def send(self, update: Update, via: Node | None = None) -> bool:
        """Deliver ``update`` as a webhook request to ``via`` (default: the first live node)."""
        node = via or self.live()[0]
        data = update.model_dump(mode="json", exclude_none=True, by_alias=True)
        shard = shard_of(await route_chat(data, node.app.storage), self.shards)
        return await node.inbox.put(data, shard)

    async def settle(self, timeout: float = 20.0) -> None:
        """Wait until every stream entry is acknowledged and the senders are idle."""
        started = time.monotonic()
        redis = self.live()[0].redis
        while True:
            busy = 0
            for shard in range(self.shards):
                info = await redis.xpending(stream_key(self.prefix, shard), STREAM_GROUP)
                groups = await redis.xinfo_groups(stream_key(self.prefix, shard))
                lag = sum((g.get("lag") or 0) for g in groups)
                busy += info["pending"] + lag
            if busy == 0:
                for n in self.live():
                    try:  # bounded: a stalled Sender fails the test with its node, not hangs CI
                        await asyncio.wait_for(n.app.sender.drain(), DRAIN_LIMIT)
                    except TimeoutError:
                        raise AssertionError(f"{n.name}: the Sender did not drain in "
                                             f"{DRAIN_LIMIT} s") from None
                return
            if time.monotonic() - started > timeout:
                raise AssertionError(f"{busy} update(s) not handled")
            await asyncio.sleep(0.05)

    async def kill(self, node: Node) -> None:
        """The worker dies: its tasks stop at once, nothing is handed over or stored."""
        node.alive = False
        w = node.worker
        tasks = list(w._tasks) + list(w._takeovers)
        if w.leases._task is not None:
            tasks.append(w.leases._task)
        tasks += [t for s in w._inflight.values() for t in s]
        for t in tasks:
            t.cancel()
        try:  # bounded: a task that ignores its cancellation fails the test, not hangs CI
            await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), DRAIN_LIMIT)
        except TimeoutError:
            raise AssertionError(f"{node.name}: its tasks did not stop in {DRAIN_LIMIT} s "
                                 f"{[t for t in tasks if not t.done()]}") from None
        w.leases.held.clear()  # its in-memory games can no longer write
        node.app.deadlines.pending.clear()
        if node.relay is not None:
            await node.relay.stop()

    async def stop(self) -> None:
        for n in self.nodes:
            if n.alive:
                await n.worker.stop()
                if n.relay is not None:
                    await n.relay.stop()
            await n.app.stop() if n.alive else await n.app.storage.close()
            await n.redis.aclose()


class ClusterHarness:
    """The shape of ``tests.bot.harness.Harness`` that ``tests.bot.driver`` plays through,
    over a :class:`Cluster`: every update goes in through a worker's inbox (round robin over
    the live workers, as a load balancer spreads webhook requests), and the game is read
    from whichever worker serves it now."""

    def __init__(self, cluster: Cluster) -> None:
        from tests.bot.harness import Harness

        self.cluster = cluster
        self.users = cluster.users
        self.notes: dict = {}
        self.session = cluster.session
        self._turn = 0
        self.sent_via: dict[str, int] = {}  #: worker name -> updates delivered to it
        # only the messages are viewed (buttons(), texts(): the session), never the app
        self._view = Harness(app=None, session=cluster.session, updates=cluster.updates,  # type: ignore[arg-type]  # no App: see above
                             clock=cluster.clock, users=cluster.users)

    @property
    def updates(self) -> Updates:
        return self.cluster.updates

    def _next_node(self) -> Node:
        live = self.cluster.live()
        self._turn += 1
        return live[self._turn % len(live)]

    async def feed(self, update: Update) -> None:
        node = self._next_node()
        self.sent_via[node.name] = self.sent_via.get(node.name, 0) + 1
        await self.cluster.send(update, via=node)
        await self.cluster.settle()

    async def command(self, user: FakeUser, text: str, chat_id: int | None = None) -> None:
        from tests.bot.harness import GROUP

        await self.feed(self.updates.group_command(chat_id or GROUP, user, text))

    async def dm(self, user: FakeUser, text: str) -> None:
        await self.feed(self.updates.private_text(user, text))

    def buttons(self, chat_id: int) -> list[tuple[int, dict]]:
        return self._view.buttons(chat_id)

    def texts(self, chat_id: int) -> list[str]:
        return self._view.texts(chat_id)

    async def press(self, user: FakeUser, chat_id: int, message_id: int, data: str) -> str | None:
        before = len(self.session.calls.calls_to("answerCallbackQuery"))
        await self.feed(self.updates.callback(user, (chat_id, message_id), data))
        answers = self.session.calls.calls_to("answerCallbackQuery")[before:]
        if not answers:
            return None
        request = answers[-1].request
        assert isinstance(request, AnswerCallbackQuery)
        return request.text

    async def game(self, chat_id: int | None = None):
        from tests.bot.harness import GROUP

        service = self.cluster.owner_of(chat_id or GROUP).app.service
        game_id = await service.game_for_chat(chat_id or GROUP)
        return await service.live(game_id) if game_id else None

    async def fire(self) -> None:
        """Fire the pending deadlines of every live worker (only the owner has any)."""
        for node in self.cluster.live():
            for game_id in list(node.app.deadlines.pending):
                await node.app.deadlines.fire_now(game_id)
        await self.cluster.settle()
