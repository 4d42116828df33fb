"""The serving side of many workers: take shards over, read their streams, hand them on.

A :class:`ShardWorker` runs in every worker process next to the aiogram Dispatcher of its
:class:`bot.app.App`. Theory of operation (issue 12; the design is in docs/deployment.md):

* **Taking a shard** (:class:`bot.cluster.leases.Leases` calls ``_gained``): its fencing epoch
  moves on in PostgreSQL (``Storage.take_shards``, issue 19; every write of its games carries the
  epoch and a worker that lost the shard writes and sends nothing more, bot/storage/fencing.py,
  ``bot.telegram.update_context.ACTING``); the shard's open games are recovered from the store exactly
  as after a restart (``App.recover`` with a chat filter: state replayed from the log, deadline
  and AFK clocks re-armed, held lobby edits shown);
  then the entries of its stream that the previous owner read but never acknowledged (it died
  while handling them) are claimed and handled again, *redelivered* (a command the log already
  has from that update is not applied twice, ``GameService.execute``); only then are new
  entries read.
* **Serving**: one reader task reads every served shard's stream with one blocking
  ``XREADGROUP`` and handles each entry as a task (commands of one game still run one at a time,
  in order, under the game's lock); an entry is acknowledged (``XACK``) once handled. A handler
  that finds the game is not ours (``NotOwner``: a chat migrated, a route changed meanwhile,
  the shard was lost while the update was handled) passes the update on to the right shard,
  whose owner handles it as redelivered (the log may have it already); one that finds the
  database down leaves it unacknowledged and tries again (redelivered) with a growing pause,
  so no press is lost and none is told "done" before its command is in the log.
* **Handing a shard over** (``_lost``): its stream is no longer read, the updates in progress
  are awaited (a few seconds at most), its games are stored and forgotten with their timers
  (``GameService.release``).
* **Sweep**: every :data:`SWEEP_SECONDS` the open games of the served shards that are not in
  memory (a game whose chat moved here) are recovered.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from redis.exceptions import RedisError, ResponseError

from ..services.game_service import NotOwner
from ..storage.failures import database_failure
from ..telegram.update_context import CURRENT_UPDATE, UpdateTag
from .fences import Fencing
from .inbox import Inbox, stream_key
from .leases import Leases
from .routing import shard_of

if TYPE_CHECKING:
    from aiogram.types import TelegramObject
    from redis.asyncio import Redis
    from redis.typing import KeyT, StreamIdT

logger = logging.getLogger(__name__)

GROUP = "workers"  #: the streams' consumer group
SWEEP_SECONDS = 10.0
HAND_OVER_WAIT = 3.0  #: seconds a hand-over waits for the updates in progress
MAX_HOPS = 3  #: times an update may be passed on to another shard
#: updates a worker handles at once; the reader waits (the rest stay queued in Redis) beyond it,
#: so a burst cannot exhaust the database's connection pool or the memory
MAX_IN_FLIGHT = 200
DB_RETRY_SECONDS = 600.0  #: how long an update keeps being retried while the database is down
REPLY_SECONDS = 30  #: expiry of a call's answer (its caller waits seconds, not more)

#: what the handling of one update found: ("foreign", chat_id) or ("database", error)
_FINDINGS: contextvars.ContextVar[list | None] = contextvars.ContextVar("cluster_findings",
                                                                       default=None)
async def catch_foreign(handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
                        event: TelegramObject, data: dict[str, Any]) -> Any:
    """Outer update middleware (many workers): a ``NotOwner`` or a database failure inside a
    handler is noted for the worker (which passes the update on, or retries it) instead of
    being logged as a bug."""
    try:
        return await handler(event, data)
    except NotOwner as error:
        findings = _FINDINGS.get()
        if findings is None:
            raise
        findings.append(("foreign", error.chat_id))
    except Exception as error:  # noqa: BLE001 - only the database's failures are ours
        findings = _FINDINGS.get()
        cause = database_failure(error)
        if findings is None or cause is None:
            raise
        findings.append(("database", cause))
    return None


class ShardWorker(Fencing):
    """Serves this worker's shards (see the module docstring). ``app``: :class:`bot.app.App`
    (typed ``Any``: bot.app is the layer above this one, contract ``bot-layers``);
    ``redis``: ``redis.asyncio.Redis`` (decode_responses=True); ``inbox``: the
    :class:`~bot.cluster.inbox.Inbox` (to pass updates on); ``ttl``: lease seconds."""

    def __init__(self, app: Any, redis: Redis, inbox: Inbox, *, prefix: str, shards: int, worker: str,
                 ttl: float = 5.0) -> None:
        self.app, self.redis, self.inbox = app, redis, inbox
        self.prefix, self.shards, self.worker = prefix, shards, worker
        self.leases = Leases(redis, prefix=prefix, worker=worker, shards=shards, ttl=ttl,
                             on_gain=self._gained, on_lose=self._lost)
        self.leases.busy = self._busy  # a shard with a game stays here (issue 19)
        self.leases.on_revoked = self._revoked
        #: shard -> the fencing epoch this worker serves it by (issue 19)
        self.epochs: dict[int, int] = {}
        self.serving: set[int] = set()
        self._inflight: dict[int, set[asyncio.Task]] = {}
        self._tasks: list[asyncio.Task] = []
        self._takeovers: set[asyncio.Task] = set()
        #: figures for logs and the benchmark
        self.counts = {"handled": 0, "redelivered": 0, "passed_on": 0, "retried": 0}
        self.takeover_seconds: list[float] = []
        #: calls other workers send on a shard's stream (``{"k": kind, "a": JSON, "r": reply
        #: key}``): kind -> ``await handler(args) -> answer | None`` (see :meth:`_handle_call`)
        self.calls: dict[str, Any] = {}

    async def start(self) -> None:
        await self._ensure_groups()
        self.app.service.owns = self.owns
        self.app.service.fence, self.app.service.still_ours = self.fence, self.still_ours
        self.app.storage.on_stale = self._stale
        self.app.storage.settings_owned = self.owns  # cache only the chats served here
        self.app.dp.update.outer_middleware(catch_foreign)
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._read_loop(), name="cluster-reader"),
                       loop.create_task(self._sweep_loop(), name="cluster-sweep")]
        self.leases.start()

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.leases.stop()  # hands every shard over

    async def _ensure_groups(self) -> None:
        async with self.redis.pipeline(transaction=False) as pipe:
            for shard in range(self.shards):
                pipe.xgroup_create(stream_key(self.prefix, shard), GROUP, id="0", mkstream=True)
            results = await pipe.execute(raise_on_error=False)
        for result in results:
            if isinstance(result, ResponseError) and "BUSYGROUP" not in str(result):
                raise result

    # --- taking and handing over -------------------------------------------------------------
    async def _gained(self, shards: set[int]) -> None:
        self.app.storage.forget_chat_settings()  # nothing read while another worker served
        task = asyncio.get_running_loop().create_task(self._take_over(set(shards)))
        self._takeovers.add(task)
        task.add_done_callback(self._takeovers.discard)

    async def _take_over(self, shards: set[int]) -> None:
        started = time.monotonic()
        try:
            self.epochs.update(await self.app.storage.take_shards(shards))
        except Exception as error:  # noqa: BLE001 - not served without an epoch: taken again
            logger.error("taking over shard(s) %s: the database failed (%s); given up to be "
                         "taken again", sorted(shards), error)
            for shard in shards:
                self.leases.held.pop(shard, None)
            return
        try:
            count = await self.app.recover(chats=lambda chat_id: shard_of(chat_id, self.shards)
                                           in shards and self.owns(chat_id))
            claimed = 0
            for shard in sorted(shards):
                claimed += await self._claim_pending(shard)
        except Exception:  # noqa: BLE001 - a shard whose games cannot load is served anyway
            logger.exception("taking over shard(s) %s failed", sorted(shards))
            count = claimed = 0
        self.serving |= {s for s in shards if self.leases.holds(s)}
        elapsed = time.monotonic() - started
        self.takeover_seconds.append(elapsed)
        logger.info("serving %d more shard(s): %d open game(s) recovered, %d update(s) "
                    "redelivered (%.2f s)", len(shards), count, claimed, elapsed)

    async def _claim_pending(self, shard: int) -> int:
        """Handle, in order, the entries of ``shard`` read by a worker that never acknowledged
        them (it died, or this worker before a restart). Returns how many."""
        key, start, count = stream_key(self.prefix, shard), "0-0", 0
        while True:
            try:
                start, entries, *_ = await self.redis.xautoclaim(key, GROUP, self.worker, 0,
                                                                 start, count=100)
            except ResponseError as error:  # Redis restarted empty: nothing pending to claim
                if "NOGROUP" not in str(error):
                    raise
                with contextlib.suppress(RedisError):
                    await self._ensure_groups()
                return count
            for entry_id, fields in entries:
                if fields is None:  # trimmed away meanwhile
                    continue
                count += 1
                await self._handle(shard, entry_id, fields, redelivered=True)
            if start in ("0-0", b"0-0"):
                return count

    async def _lost(self, shards: set[int]) -> None:
        self.serving -= shards
        self.app.storage.forget_chat_settings()  # another worker may change them now
        pending = [t for s in shards for t in self._inflight.get(s, ())]
        if pending:
            await asyncio.wait(pending, timeout=HAND_OVER_WAIT)
        # the messages in flight bring their ids home before the games are stored
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.app.sender.drain(), HAND_OVER_WAIT)
        service = self.app.service
        mine = [gid for gid, g in list(service.games.items())
                if shard_of(g.chat_id, self.shards) in shards]
        await service.release(mine)  # writes nothing for a shard lost without a hand-over
        self._revoked(shards)
        logger.info("handed over %d shard(s) with %d game(s)", len(shards), len(mine))

    # --- reading -------------------------------------------------------------------------------
    async def _read_loop(self) -> None:
        complained = False
        while True:
            streams: dict[KeyT, StreamIdT] = {stream_key(self.prefix, s): ">"
                                              for s in sorted(self.serving)}
            room = MAX_IN_FLIGHT - sum(len(t) for t in self._inflight.values())
            if not streams or room <= 0:
                await asyncio.sleep(0.05 if streams else 0.1)
                continue
            try:
                replies = await self.redis.xreadgroup(GROUP, self.worker, streams,
                                                      count=min(100, room), block=500)
                complained = False
            except ResponseError as error:  # Redis restarted empty: the groups are gone
                if "NOGROUP" not in str(error):
                    logger.error("reading updates failed: %s", error)
                    await asyncio.sleep(1.0)
                    continue
                logger.error("the update streams' groups are gone (Redis restarted without its "
                             "data?); creating them again")
                with contextlib.suppress(RedisError):
                    await self._ensure_groups()
                continue
            except RedisError as error:
                if not complained:
                    logger.error("Redis unreachable while reading updates: %s", error)
                    complained = True
                await asyncio.sleep(1.0)
                continue
            except Exception:  # noqa: BLE001 - the reader must never die
                logger.exception("reading updates failed")
                await asyncio.sleep(1.0)
                continue
            for key, entries in replies or ():
                shard = int(str(key).rsplit(":", 1)[1])
                for entry_id, fields in entries:
                    if shard in self.serving:
                        self._spawn(shard, entry_id, fields)
                    else:  # handed over while this read was under way: not ours to handle
                        await self._requeue(shard, entry_id, fields)

    def _spawn(self, shard: int, entry_id: str, fields: dict[str, Any]) -> None:
        task = asyncio.get_running_loop().create_task(self._handle(shard, entry_id, fields))
        inflight = self._inflight.setdefault(shard, set())
        inflight.add(task)
        task.add_done_callback(inflight.discard)

    async def _handle(self, shard: int, entry_id: str, fields: dict[str, Any], *,
                      redelivered: bool = False) -> None:
        """Handle one stream entry and acknowledge it (see the module docstring)."""
        from aiogram.types import Update

        if "k" in fields:
            await self._handle_call(shard, entry_id, fields)
            return

        app = self.app
        data = json.loads(fields["u"])
        hops = int(fields.get("h", 0))
        # an update passed on may have been applied already: a worker frozen while handling it
        # lost the shard, the new owner claimed and applied it, then the frozen one woke up,
        # found the game not its own and passed it on (issue 19); the log decides
        redelivered = redelivered or hops > 0
        delay, started = 0.5, time.monotonic()
        while True:
            findings: list = []
            token_f = _FINDINGS.set(findings)
            tag = UpdateTag(int(data["update_id"]), redelivered)
            token_u = CURRENT_UPDATE.set(tag)
            try:
                update = Update.model_validate(data, context={"bot": app.bot})
                await app.dp.feed_update(app.bot, update)
            except Exception:  # noqa: BLE001 - aiogram's errors router logs handler bugs
                logger.exception("update %s could not be handled", data.get("update_id"))
            finally:
                tag.done = True  # what its tasks do later is not this update's (timers...)
                _FINDINGS.reset(token_f)
                CURRENT_UPDATE.reset(token_u)
            db_error = next((f[1] for f in findings if f[0] == "database"), None)
            if db_error is None or time.monotonic() - started > DB_RETRY_SECONDS:
                break
            self.counts["retried"] += 1
            logger.error("update %s: the database failed (%s); trying again in %.1f s",
                         data["update_id"], db_error, delay)
            await asyncio.sleep(delay)
            delay, redelivered = min(delay * 2, 30.0), True
        foreign = next((f[1] for f in findings if f[0] == "foreign"), None)
        if foreign is not None:
            await self._pass_on(data, foreign, hops)
        self.counts["handled"] += 1
        self.counts["redelivered"] += redelivered
        try:
            await self.redis.xack(stream_key(self.prefix, shard), GROUP, entry_id)
        except RedisError as error:  # handled anyway; a new owner skips what the log has
            logger.warning("update %s: XACK failed: %s", data["update_id"], error)

    async def _handle_call(self, shard: int, entry_id: str, fields: dict[str, Any]) -> None:
        """A call from another worker to this shard's owner (e.g. a Mini App press,
        :mod:`bot.cluster.miniapp`): ``calls[k](args)``; its answer (unless None) is LPUSHed
        as JSON to the reply key ``r``, expiring after :data:`REPLY_SECONDS`; then acknowledged.
        """
        kind, reply_key = fields.get("k"), fields.get("r")
        handler = self.calls.get(kind) if kind is not None else None
        answer: Any = None
        try:
            if handler is None:
                logger.error("call %r on shard %s: no handler; dropped", kind, shard)
            else:
                answer = await handler(json.loads(fields.get("a") or "{}"))
        except Exception:  # noqa: BLE001 - the caller is told, the stream goes on
            logger.exception("call %r on shard %s failed", kind, shard)
            answer = {"status": 500}
        try:
            if answer is not None and reply_key:
                async with self.redis.pipeline(transaction=True) as pipe:
                    pipe.lpush(reply_key, json.dumps(answer, separators=(",", ":")))
                    pipe.expire(reply_key, REPLY_SECONDS)
                    await pipe.execute()
            await self.redis.xack(stream_key(self.prefix, shard), GROUP, entry_id)
        except RedisError as error:
            logger.warning("call %r on shard %s: answer or XACK failed: %s", kind, shard, error)

    async def _requeue(self, shard: int, entry_id: str, fields: dict[str, Any]) -> None:
        """An entry read from ``shard`` after it was handed over (the blocking read began
        before): queued again on its stream, unhandled, for the new owner; then acknowledged
        here. (Handled here, a handler's work before the game's ownership check, such as
        /newgame's insert, would be done by a worker that does not serve the chat.)"""
        what = fields.get("k") or json.loads(fields.get("u") or "{}").get("update_id")
        try:
            if "k" in fields:  # a call (a Mini App press): the very entry again
                await self.redis.xadd(stream_key(self.prefix, shard), dict(fields.items()))
            else:
                hops = int(fields.get("h", 0))
                await self.inbox.put(json.loads(fields["u"]), shard, hops=hops + 1,
                                     dedupe=False)
            await self.redis.xack(stream_key(self.prefix, shard), GROUP, entry_id)
        except RedisError as error:  # left pending: the next owner's claim finds it
            logger.warning("entry %s of a handed-over shard not queued again: %s", what, error)
            return
        logger.info("entry %s read after shard %s was handed over: queued again for its owner",
                    what, shard)

    async def _pass_on(self, data: dict[str, Any], chat_id: int, hops: int) -> None:
        target = shard_of(chat_id, self.shards)
        if hops >= MAX_HOPS:
            logger.error("update %s: passed on %d times; dropped", data["update_id"], hops)
            return
        self.counts["passed_on"] += 1
        logger.info("update %s belongs to shard %s: passed on", data["update_id"], target)
        try:
            await self.inbox.put(data, target, hops=hops + 1, dedupe=False)
        except RedisError as error:
            logger.error("update %s could not be passed on: %s", data["update_id"], error)

    # --- sweep -----------------------------------------------------------------------------------
    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await self.sweep()
            except Exception as error:  # noqa: BLE001 - the sweep runs again in 10 s
                if database_failure(error) is None:
                    logger.exception("sweep failed")
                else:
                    logger.warning("sweep skipped: the database failed (%s)", error)

    async def sweep(self) -> int:
        """Recover the open games of served shards that are not in memory. Returns how many."""
        service = self.app.service
        missing = {chat_id for game_id, chat_id in await service.storage.active_game_chats()
                   if game_id not in service.games
                   and shard_of(chat_id, self.shards) in self.serving and self.owns(chat_id)}
        if not missing:
            return 0
        return await self.app.recover(chats=lambda chat_id: chat_id in missing)
