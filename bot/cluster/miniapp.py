"""The Mini App on many workers (issue 12; docs/miniapp.md, "Many workers").

The workers share one port, so a Mini App request (``bot/webapp/server.py``) reaches any of
them, while a game lives in memory only on the worker serving its chat's shard (elsewhere
``GameService.live`` raises ``NotOwner``). :class:`MiniAppRelay` makes every worker answer:

* **Reading** (the table, a stream's tables): a non-owner builds the game read-only from the
  store (:meth:`MiniAppRelay.snapshot`: the log replayed, the ``ui`` record's names), never
  into ``service.games``; a few are cached, keyed by what the ``games`` row says of them (the
  log's length first), so a view is never older than the last stored command.
* **Streams**: the owner's ``WebApp.on_step`` PUBLISHes the new log length on
  ``<prefix>webapp:<game_id>``; every worker keeps one pub/sub connection, subscribed to the
  channels of the games its open streams show (:meth:`follow` / :meth:`unfollow`), and wakes
  its local streams (``WebApp.wake``), which re-read the table.
* **Acting**: a press reaching a non-owner is sent to the owner as a call on the game's shard
  stream -- ``{"k": "act", "a": <JSON args>, "r": <reply key>}`` -- which the owner's
  :class:`~bot.cluster.worker.ShardWorker` hands to :meth:`run_act`; the JSON answer comes back
  on the reply list (``LPUSH``, short expiry: ``worker.REPLY_SECONDS``), awaited for
  :attr:`timeout` seconds. A call runs at most once and only while its requester waits: both
  sides race for its *claim* key (``SET NX``): the owner before acting, the requester when it
  gives up (then it answers 503, and nothing was nor will be applied). The call also carries
  its requester's deadline (wall clock): the owner drops a call found later -- the guard when
  Redis failed the requester's claim. A call the owner took but did not answer in time (it died
  acting) has an unknown outcome, and the page is told so.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import uuid
from collections import OrderedDict
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from redis.exceptions import RedisError

from ..services.game_service import LiveGame, NotOwner
from .inbox import STREAM_MAXLEN, stream_key
from .routing import shard_of

if TYPE_CHECKING:
    from redis.asyncio import Redis

    from ..webapp import WebApp
    from .worker import ShardWorker

logger = logging.getLogger(__name__)

TIMEOUT = 10.0  #: seconds a forwarded press waits for the owner's answer
GRACE = 5.0  #: seconds more when the owner took the call just before the timeout
CLAIM_SECONDS = 3600  #: expiry of a call's claim key
CACHE_SIZE = 64  #: read-only games kept per worker
POLL = 1.0  #: seconds of one blocking read (BLPOP, pub/sub): under the client's socket timeout


@dataclass
class Snapshot(LiveGame):
    """A game read from the store on a worker that does not serve it: never changed, never in
    ``service.games``; the Mini App shows it and forwards presses on it (``read_only``)."""

    read_only = True


class MiniAppRelay:
    """``webapp``: the :class:`bot.webapp.WebApp`; ``redis``: ``redis.asyncio.Redis``
    (decode_responses=True); ``prefix``: the key prefix; ``shards``: their count; ``timeout``:
    seconds a forwarded press waits (then 503)."""

    def __init__(self, webapp: WebApp, redis: Redis, *, prefix: str, shards: int,
                 timeout: float = TIMEOUT) -> None:
        self.webapp, self.redis = webapp, redis
        self.prefix, self.shards, self.timeout = prefix, shards, timeout
        self._cache: OrderedDict[int, tuple[tuple, Snapshot]] = OrderedDict()
        self._pubsub = redis.pubsub()
        self._following: dict[int, int] = {}  #: game id -> local streams following it
        self._ready: dict[str, asyncio.Event] = {}  #: channel -> its SUBSCRIBE confirmed
        self._lock = asyncio.Lock()
        self._sending: set[asyncio.Task] = set()
        self._reader: asyncio.Task | None = None
        #: figures for the tests and the logs
        self.counts = {"forwarded": 0, "answered": 0, "dropped": 0, "timed_out": 0}

    def channel(self, game_id: int) -> str:
        return f"{self.prefix}webapp:{game_id}"

    async def start(self) -> None:
        """Open the pub/sub connection (on a channel nobody publishes) and read it."""
        await self._pubsub.subscribe(f"{self.prefix}webapp:-")
        self._reader = asyncio.get_running_loop().create_task(self._read(), name="miniapp-pubsub")

    async def stop(self) -> None:
        if self._sending:  # the last notices out, briefly
            await asyncio.wait(list(self._sending), timeout=1.0)
        if self._reader is not None:
            self._reader.cancel()
            await asyncio.gather(self._reader, return_exceptions=True)
        with contextlib.suppress(RedisError):
            await self._pubsub.aclose()

    # --- reading -------------------------------------------------------------------------------
    async def snapshot(self, game_id: int) -> Snapshot:
        """The game as the store has it now (raises ``KeyError`` for no such game). Cached while
        its row's log length, deadline, language and ``ui`` (names, drafts) are the same."""
        service = self.webapp.service
        rec = await service.storage.get_game(game_id)
        if rec is None:
            raise KeyError(game_id)
        key = (rec.log_len, rec.deadline_at, rec.locale,
               json.dumps(rec.ui or {}, sort_keys=True, default=str))  # names, drafts
        hit = self._cache.get(game_id)
        if hit is not None and hit[0] == key:
            self._cache.move_to_end(game_id)
            return hit[1]
        g = await service._rebuild(rec)  # noqa: SLF001 - the service's own replay
        snap = Snapshot(**{f.name: getattr(g, f.name) for f in fields(LiveGame)})
        self._cache[game_id] = (key, snap)
        self._cache.move_to_end(game_id)
        while len(self._cache) > CACHE_SIZE:
            gone, _ = self._cache.popitem(last=False)
            if gone not in service.games:
                self.webapp.log.forget(gone)  # its events too: reloaded when asked for
        return snap

    # --- streams -------------------------------------------------------------------------------
    def publish(self, game_id: int, length: int) -> None:
        """The owner stored a command: tell every worker's streams (the new log length). Sent
        in the background: the game's lock is not held up by Redis."""
        task = asyncio.get_running_loop().create_task(self._publish(game_id, length))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _publish(self, game_id: int, length: int) -> None:
        try:
            await self.redis.publish(self.channel(game_id), str(length))
        except RedisError as error:  # the streams elsewhere catch up at their keep-alive
            logger.warning("webapp: game %s: publish failed: %s", game_id, error)

    async def follow(self, game_id: int) -> None:
        """A local stream shows the game: be subscribed to its channel (waits, up to 3 s, for
        the subscription to hold, so no command after the first table goes unnoticed). Every
        call, even a cancelled one, is to be matched by :meth:`unfollow`."""
        channel = self.channel(game_id)
        self._following[game_id] = self._following.get(game_id, 0) + 1
        async with self._lock:
            ready = self._ready.get(channel)
            if ready is None:
                ready = self._ready[channel] = asyncio.Event()
                try:
                    await self._pubsub.subscribe(channel)
                except RedisError as error:
                    logger.warning("webapp: subscribe %s failed: %s", channel, error)
                    self._ready.pop(channel, None)  # the next stream tries again
                    return
        try:
            await asyncio.wait_for(ready.wait(), 3.0)
        except TimeoutError:
            logger.warning("webapp: subscription to %s not confirmed", channel)

    async def unfollow(self, game_id: int) -> None:
        """A local stream of the game ended: unsubscribe after the last one."""
        left = self._following.get(game_id, 0) - 1
        if left > 0:
            self._following[game_id] = left
            return
        self._following.pop(game_id, None)
        channel = self.channel(game_id)
        async with self._lock:
            if self._following.get(game_id) or self._ready.pop(channel, None) is None:
                return  # followed again meanwhile, or never subscribed
            try:
                await self._pubsub.unsubscribe(channel)
            except RedisError as error:
                logger.warning("webapp: unsubscribe %s failed: %s", channel, error)

    async def _read(self) -> None:
        broken = False
        while True:
            try:
                message = await self._pubsub.get_message(timeout=POLL)
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as error:
                if not broken:
                    logger.error("webapp: Redis pub/sub unreachable (%s): open streams on "
                                 "this worker catch up at their keep-alive", error)
                broken = True
                await asyncio.sleep(POLL)
                continue
            if broken:  # messages may have been missed: every local stream re-reads
                broken = False
                logger.warning("webapp: Redis pub/sub reachable again")
                for game_id in list(self._following):
                    self.webapp.wake(game_id, -1)
            if not message:
                continue
            channel = str(message.get("channel"))
            if message["type"] == "subscribe":
                ready = self._ready.get(channel)
                if ready is not None:
                    ready.set()
            elif message["type"] == "message":
                try:
                    game_id = int(channel.rsplit(":", 1)[1])
                    length = int(message["data"])
                except (ValueError, TypeError, IndexError):
                    continue
                self.webapp.wake(game_id, length)

    # --- acting --------------------------------------------------------------------------------
    async def forward_act(self, g: LiveGame, user_id: int, body: dict, name: str | None,
                          writable: bool) -> dict[str, Any] | None:
        """Have the owner of ``g``'s chat run the press. Its answer ``{"status": 200, "body"}``
        (or 404: no such game), else ``{"status": 503}``: not run, nothing applied (no answer
        within :attr:`timeout`, Redis unreachable) or ``{"status": 503, "unknown": True}``: the
        owner took the call but did not answer within :data:`GRACE` more seconds."""
        call = uuid.uuid4().hex
        reply, claim = f"{self.prefix}reply:{call}", f"{self.prefix}call:{call}"
        until = time.monotonic() + self.timeout
        args = {"g": g.id, "u": user_id, "b": body, "n": name, "w": bool(writable),
                "c": claim, "d": time.time() + self.timeout}
        try:
            await self.redis.xadd(stream_key(self.prefix, shard_of(g.chat_id, self.shards)),
                                  {"k": "act", "a": json.dumps(args, separators=(",", ":")),
                                   "r": reply}, maxlen=STREAM_MAXLEN, approximate=True)
        except RedisError as error:
            logger.error("webapp: game %s: a press could not be forwarded: %s", g.id, error)
            return {"status": 503}
        self.counts["forwarded"] += 1
        answer = await self._wait(reply, until)
        if answer is not None:
            return answer
        try:
            gave_up = await self.redis.set(claim, "gone", nx=True, ex=CLAIM_SECONDS)
        except RedisError as error:  # the owner drops it anyway once past its deadline
            logger.error("webapp: game %s: giving a press up: %s", g.id, error)
            gave_up = True
        if gave_up:
            self.counts["timed_out"] += 1
            logger.warning("webapp: game %s: the owner did not answer a press in %.0f s: "
                           "refused", g.id, self.timeout)
            return {"status": 503}
        answer = await self._wait(reply, time.monotonic() + GRACE)  # the owner is on it
        if answer is None:
            logger.error("webapp: game %s: the owner took a press and did not answer", g.id)
            return {"status": 503, "unknown": True}
        return answer

    async def _wait(self, key: str, until: float) -> dict[str, Any] | None:
        """The JSON answer pushed to ``key`` before ``until`` (monotonic), else None; Redis
        failing meanwhile is retried until then."""
        while (left := until - time.monotonic()) > 0:
            try:
                got = await self.redis.blpop([key], timeout=max(0.01, min(POLL, left)))  # type: ignore[misc]  # redis-py types a command for its sync and asyncio clients alike (list | Awaitable[list]); this one is asyncio
            except RedisError as error:
                logger.warning("webapp: waiting for an answer: %s", error)
                await asyncio.sleep(min(0.2, max(0.0, until - time.monotonic())))
                continue
            if got is not None:
                return json.loads(got[1])
        return None

    async def run_act(self, args: dict[str, Any]) -> dict[str, Any] | None:
        """The owner's side of a forwarded press (``ShardWorker.calls["act"]``): claim it, run
        ``WebApp.act`` on the live game; the answer ``{"status", "body"}``, None when the call
        is not to be run (its requester gave up, or its deadline passed). A press that changed
        the game's ``ui`` (a draft's tap: no command) is answered once that is stored, so the
        asker's next table, read from the store, shows it."""
        if time.time() > float(args.get("d", 0)) or \
                not await self.redis.set(args["c"], "taken", nx=True, ex=CLAIM_SECONDS):
            self.counts["dropped"] += 1
            logger.info("webapp: a forwarded press on game %s dropped: its requester gave up",
                        args.get("g"))
            return None
        webapp = self.webapp
        try:
            g = await webapp.service.live(int(args["g"]))
            ui = json.dumps(g.ui, sort_keys=True, default=str)
            body = await webapp.act(g, int(args["u"]), dict(args["b"]), args.get("n"),
                                    bool(args.get("w")))
            if json.dumps(g.ui, sort_keys=True, default=str) != ui:  # a draft tap: stored
                await asyncio.wait_for(webapp.service.storage.ui_soon(g.id, dict(g.ui)), 5.0)
        except KeyError:
            return {"status": 404}
        except NotOwner:  # the shard moved meanwhile; nothing was stored here
            return {"status": 503}
        self.counts["answered"] += 1
        return {"status": 200, "body": body}


def attach(app: Any, worker: ShardWorker, redis: Redis, *, prefix: str, shards: int) -> MiniAppRelay | None:
    """Wire the Mini App of ``app`` (a :class:`bot.app.App`, typed ``Any``: the layer above this
    one; None without ``WEBAPP_URL``) to the cluster: the relay is the WebApp's and answers
    ``worker``'s "act" calls. Start it with ``await relay.start()``."""
    if app.webapp is None:
        return None
    relay = MiniAppRelay(app.webapp, redis, prefix=prefix, shards=shards)
    app.webapp.relay = relay
    worker.calls["act"] = relay.run_act
    return relay


__all__ = ["MiniAppRelay", "Snapshot", "attach"]
