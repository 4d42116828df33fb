"""The webhook side of many workers: an update in, onto its shard's Redis stream (issue 12).

Any worker may receive any update. :class:`Inbox` answers Telegram's webhook request: it checks
the secret header, finds the update's route chat (:func:`bot.cluster.routing.route_chat`) and so
its shard, and runs one Lua script that both remembers the ``update_id`` (``SET NX`` with an
hour's expiry: Telegram delivers an update again when it saw no ``200``) and appends the update
to the shard's stream ``<prefix>s:<shard>`` — atomically, so an update is either queued once or
not at all. Only then does it answer ``200``. The shard's owner handles it
(:mod:`bot.cluster.worker`).

Redis unreachable (issue 19): the update is *held* in this worker's memory, in arrival order
(at most :data:`HOLD_MAX`), answered ``200`` at once and queued on its stream as soon as Redis
answers again (routed then); updates arriving while some are held queue behind them. A callback
query held so is answered in the webhook's response itself (``answerCallbackQuery``, which
Telegram runs), so no player watches a spinner time out; its handler's own answer later finds it
answered ("query is too old", ignored). Logged loudly once per outage, then every minute. What a
worker holds is lost only if that process dies before Redis comes back (see docs/deployment.md
for running Redis without a single point of failure). Other failures answer so that Telegram
delivers again later and nothing is applied twice: the database unreachable while routing ->
``503``; the hold full -> ``503``; a body that is not an update -> ``400``; a wrong secret ->
``401``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import deque
from typing import TYPE_CHECKING, Any

from aiohttp import web
from redis.exceptions import RedisError

from .routing import route_chat, shard_of

if TYPE_CHECKING:
    from redis.asyncio import Redis

    from ..storage import Storage

logger = logging.getLogger(__name__)

#: KEYS: seen-key, stream; ARGV: seen ttl (ms), the update JSON, stream max length, hops.
#: Returns 1 when queued, 0 when the update was seen before.
_ENQUEUE = """
if redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[1]) then
  redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[3], '*', 'u', ARGV[2], 'h', ARGV[4])
  return 1
end
return 0
"""
#: how long an update_id is remembered (ms): Telegram delivers an update again within minutes
#: when our 200 was lost; an hour covers that at ~60 bytes a key (100 updates/s: ~20 MB)
SEEN_MS = 3600 * 1000
STREAM_MAXLEN = 10_000  #: entries kept per shard stream (handled ones are trimmed away)
HOLD_MAX = 10_000  #: updates a worker holds in memory while Redis is unreachable
HOLD_RETRY = 0.5  #: seconds between tries to queue the held updates


def stream_key(prefix: str, shard: int) -> str:
    return f"{prefix}s:{shard}"


class Inbox:
    """Queues updates for their shard's owner. ``redis``: ``redis.asyncio.Redis``;
    ``storage``: :class:`bot.storage.Storage` (for routing private updates); ``shards``: count;
    ``secret``: the webhook's secret token (None: not checked)."""

    def __init__(self, redis: Redis, storage: Storage, *, prefix: str, shards: int,
                 secret: str | None = None) -> None:
        self.redis, self.storage = redis, storage
        self.prefix, self.shards, self.secret = prefix, shards, secret
        self._enqueue = redis.register_script(_ENQUEUE)
        self._down_since: float | None = None
        self._last_complaint = 0.0
        self._last_secret_warning = -60.0
        #: counters for the benchmark and the logs: queued, duplicates, refused, held
        self.counts = {"queued": 0, "duplicate": 0, "refused": 0, "held": 0}
        #: updates taken while Redis was unreachable, oldest first (see the module docstring)
        self.held: deque[dict[str, Any]] = deque()
        self._releaser: asyncio.Task | None = None

    async def handle(self, request: web.Request) -> web.Response:
        """The aiohttp handler of the webhook path."""
        if self.secret is not None and \
                request.headers.get("X-Telegram-Bot-Api-Secret-Token") != self.secret:
            self.counts["refused"] += 1
            now = time.monotonic()
            if now - self._last_secret_warning >= 60:
                self._last_secret_warning = now
                logger.warning("webhook request with a wrong secret token refused (401): if it "
                               "came from Telegram, WEBHOOK_SECRET differs between the workers "
                               "(the last one started registered its own)")
            return web.Response(status=401)
        try:
            update = await request.json(loads=json.loads)
            update_id = int(update["update_id"])
        except (ValueError, KeyError, TypeError):
            return web.Response(status=400, text="not a Telegram update")
        if self.held:  # Redis was down: behind the updates still held, in order
            return self._hold(update)
        try:
            chat_id = await route_chat(update, self.storage)
        except Exception as error:  # noqa: BLE001 - the database down: Telegram retries
            self.counts["refused"] += 1
            logger.error("update %s refused (503): routing failed: %s", update_id, error)
            return web.Response(status=503)
        try:
            queued = await self.put(update, shard_of(chat_id, self.shards))
        except RedisError as error:
            self._complain(error)
            return self._hold(update)
        if self._down_since is not None:
            logger.warning("Redis is reachable again: updates are queued (after %.0f s)",
                           time.monotonic() - self._down_since)
            self._down_since = None
        self.counts["queued" if queued else "duplicate"] += 1
        if not queued:
            logger.info("update %s delivered again: handled once", update_id)
        return web.Response()

    async def put(self, update: dict[str, Any], shard: int, *, hops: int = 0,
                  dedupe: bool = True) -> bool:
        """Queue ``update`` on ``shard``'s stream; False when its id was queued before.
        ``dedupe=False`` (a worker passing an update on to the right shard) skips the check.
        Raises ``redis.exceptions.RedisError``."""
        seen = f"{self.prefix}seen:{update['update_id']}" + ("" if dedupe else f":{hops}")
        return bool(await self._enqueue(
            keys=[seen, stream_key(self.prefix, shard)],
            args=[SEEN_MS, json.dumps(update, separators=(",", ":")), STREAM_MAXLEN, hops]))

    def _hold(self, update: dict[str, Any]) -> web.Response:
        """Hold ``update`` until Redis answers (module docstring); a callback query is answered
        in the response."""
        if len(self.held) >= HOLD_MAX:
            self.counts["refused"] += 1
            return web.Response(status=503)
        self.held.append(update)
        self.counts["held"] += 1
        if self._releaser is None or self._releaser.done():
            self._releaser = asyncio.get_running_loop().create_task(self._release_held())
        query = update.get("callback_query")
        if isinstance(query, dict) and query.get("id"):
            return web.json_response({"method": "answerCallbackQuery",
                                      "callback_query_id": str(query["id"])})
        return web.Response()

    async def _release_held(self) -> None:
        """Queue the held updates on their streams, oldest first, as soon as Redis answers."""
        while self.held:
            update = self.held[0]
            try:
                chat_id = await route_chat(update, self.storage)
                queued = await self.put(update, shard_of(chat_id, self.shards))
            except Exception as error:  # noqa: BLE001 - Redis or the database: try again soon
                if isinstance(error, RedisError):
                    self._complain(error)
                await asyncio.sleep(HOLD_RETRY)
                continue
            self.held.popleft()
            self.counts["queued" if queued else "duplicate"] += 1
            if not self.held and self._down_since is not None:
                logger.warning("Redis is reachable again: the updates held meanwhile are queued "
                               "(after %.0f s)", time.monotonic() - self._down_since)
                self._down_since = None

    async def close(self, timeout: float = 5.0) -> None:
        """Give the held updates up to ``timeout`` seconds to reach Redis (a graceful stop);
        what is left is logged as lost."""
        if self._releaser is not None and not self._releaser.done():
            try:
                await asyncio.wait_for(asyncio.shield(self._releaser), timeout)
            except TimeoutError:
                self._releaser.cancel()
        if self.held:
            logger.error("stopping with %d update(s) held since Redis became unreachable: lost",
                         len(self.held))

    def _complain(self, error: BaseException) -> None:
        now = time.monotonic()
        if self._down_since is None:
            self._down_since = now
            self._last_complaint = now
            logger.error("Redis unreachable (%s): webhook updates are held in memory (presses "
                         "answered at once) until it is back; no game changes meanwhile", error)
        elif now - self._last_complaint >= 60:
            self._last_complaint = now
            logger.error("Redis still unreachable after %.0f s: %d update(s) held (%s)",
                         now - self._down_since, len(self.held), error)
