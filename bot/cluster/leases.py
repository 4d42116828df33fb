"""Which worker serves which shard: heartbeats, rendezvous hashing and Redis leases (issue 12).

Every worker writes a heartbeat (``<prefix>workers``, a sorted set of worker id -> last beat in
milliseconds) each :attr:`Leases.tick_seconds`. The live workers are those that beat within the
lease time; each shard is *wanted* by the live worker with the highest rendezvous hash of
``(shard, worker)``, so every worker computes the same assignment, shards spread evenly and
only ~1/N of them move when a worker comes or goes.

Wanting is not holding: a shard is served only under a lease, ``<prefix>lease:<shard>`` = the
worker id, taken when free (or still naming this worker: its previous run restarted within the
lease time) with a time-to-live of ``ttl`` seconds and renewed at every tick by a
compare-and-extend script. A worker that dies stops renewing: its leases expire after at most
``ttl`` seconds and the wanted owners take its shards (``on_gain``) at their next tick.

Shards stick to their holder (issue 19): a shard with a game in memory (``busy``) moves only when
its holder is gone or leaves (:meth:`stop`), never because another worker came (a restart, a
healed partition); a worker that no longer wants an *idle* shard hands it over gracefully
(``on_lose``, then deletes its lease), which spreads the shards again as games end. Worker ids
are stable across restarts (``bot.cluster.serve.worker_name``), so a restarted worker wants
exactly the shards it wanted before. After Redis was unreachable, or came back without its data
(this worker's heartbeat was gone), no shard is taken for :attr:`Leases.quiet` seconds, until
every live worker has beaten again: the first worker back does not grab every shard.

A worker trusts its own hold only until the time it last renewed it plus ``ttl`` less a safety
margin (:meth:`holds`): if Redis cannot be reached, or a renewal finds the lease taken, the
shard is given up (``on_lose``) before another worker can have it — and should a clock or a
pause betray that, the shard's fencing epoch in PostgreSQL refuses the stale worker's writes
(bot/storage/fencing.py), with the log's unique ``(game_id, seq)`` as the last line of defence.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING

from redis.exceptions import RedisError

if TYPE_CHECKING:
    from redis.asyncio import Redis

logger = logging.getLogger(__name__)

#: Renew the lease if it is still ours, or set it again if it is gone (Redis restarted
#: without its data: nobody else took it, so the hold goes on): 1 renewed, 0 lost.
_RENEW = """
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
if holder == false then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""
#: Take a free lease, or adopt one this worker's id still holds (its previous run, restarted
#: within the lease time, or Redis that lost the key meanwhile): 1 taken, 0 held by another.
_TAKE = """
local holder = redis.call('GET', KEYS[1])
if holder == false then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
"""
#: Delete the lease only if it is still ours.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""

ShardsHook = Callable[[set[int]], Awaitable[None]]


def rendezvous(shard: int, workers: Iterable[str]) -> str | None:
    """The worker that wants ``shard``: the highest hash of ``(shard, worker)`` (None if no
    worker is live)."""
    best, best_score = None, b""
    for worker in workers:
        score = hashlib.blake2b(f"{shard}:{worker}".encode(), digest_size=8).digest()
        if best is None or score > best_score:
            best, best_score = worker, score
    return best


class Leases:
    """Holds this worker's shards (see the module docstring).

    ``redis``: a ``redis.asyncio.Redis`` (decode_responses=True); ``prefix``: key prefix;
    ``worker``: this worker's id; ``shards``: their count; ``ttl``: lease time in seconds;
    ``on_gain(shards)`` / ``on_lose(shards)``: awaited when shards are taken / must be given up
    (``on_lose`` runs *before* the lease is deleted on a graceful hand-over, so the games are
    stored and forgotten before the next owner loads them). ``clock``: seconds, monotonic.
    """

    def __init__(self, redis: Redis, *, prefix: str, worker: str, shards: int, ttl: float = 5.0,
                 on_gain: ShardsHook, on_lose: ShardsHook,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.redis, self.prefix, self.worker = redis, prefix, worker
        self.shards, self.ttl = shards, ttl
        self.on_gain, self.on_lose = on_gain, on_lose
        self.clock = clock
        #: shard -> the monotonic time until which this worker may act on it
        self.held: dict[int, float] = {}
        self.tick_seconds = max(0.2, ttl / 5)
        self.margin = min(1.0, ttl / 4)
        self.redis_ok = True
        #: workers started together (``WEB_CONCURRENCY``): until that many are live, or
        #: ``settle`` seconds after the start, take no shard (no hand-over seconds later)
        self.expect = 0
        self._settle_until = clock() + ttl
        #: ``busy(shard)``: True while the shard has a game in memory (it is then kept)
        self.busy: Callable[[int], bool] = lambda shard: False
        #: ``on_revoked(shards)``: called at once when shards are lost without a hand-over
        #: (the lease ran out or was taken), before ``on_lose``; e.g. their fencing epochs go
        self.on_revoked: Callable[[set[int]], None] | None = None
        #: seconds without taking a shard after Redis was down or lost its data
        self.quiet = max(3 * self.tick_seconds, 1.0)
        self._quiet_until = 0.0
        self._beaten = False  #: this worker's heartbeat is in Redis (was written before)
        #: ``on_live(n)``: called at every heartbeat with the number of live workers
        self.on_live: Callable[[int], None] | None = None
        self._release = redis.register_script(_RELEASE)
        self._task: asyncio.Task | None = None
        self._stopping = False
        self._handing: set[int] = set()  #: shards being handed over (still renewed)
        self._handovers: set[asyncio.Task] = set()

    def key(self, shard: int) -> str:
        return f"{self.prefix}lease:{shard}"

    def holds(self, shard: int) -> bool:
        """True while this worker may act on ``shard`` (its lease, renewed in time)."""
        until = self.held.get(shard)
        return until is not None and self.clock() < until

    # --- the loop -------------------------------------------------------------------------
    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="leases")

    async def stop(self) -> None:
        """Hand every shard over (``on_lose``, then the leases are deleted) and stop beating."""
        self._stopping = True
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        if self._handovers:
            await asyncio.gather(*self._handovers, return_exceptions=True)
        mine = set(self.held)
        if mine:
            await self.on_lose(mine)
        try:
            for shard in mine:
                await self._release(keys=[self.key(shard)], args=[self.worker])
            await self.redis.zrem(f"{self.prefix}workers", self.worker)
        except RedisError as error:
            logger.warning("leaving the cluster: Redis: %s", error)
        self.held.clear()

    async def _run(self) -> None:
        while not self._stopping:
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - the loop must go on
                logger.exception("lease tick failed")
            await asyncio.sleep(self.tick_seconds)

    async def tick(self) -> None:
        """One round: beat, compute the wanted shards, renew, hand over, take."""
        started = self.clock()
        try:
            live = await self._beat()
            if self.on_live is not None:
                self.on_live(max(1, len(live)))
            wanted = {s for s in range(self.shards) if rendezvous(s, live) == self.worker}
            lost = await self._renew_held(started)
        except RedisError as error:
            self._redis_down(error)
            expired = {s for s, until in self.held.items() if self.clock() >= until}
            if expired:
                await self._give_up(expired, "its lease could not be renewed (Redis down)")
            return
        if not self.redis_ok:
            logger.warning("Redis is reachable again: no shard is taken for %.1f s, until "
                           "every worker has beaten", self.quiet)
            self.redis_ok = True
            self._quiet_until = self.clock() + self.quiet
        if lost:
            await self._give_up(lost, "its lease was taken or ran out")
        unwanted = {s for s in set(self.held) - wanted - self._handing if not self.busy(s)}
        if unwanted:  # in the background: the leases are renewed meanwhile
            self._handing |= unwanted
            task = asyncio.get_running_loop().create_task(self._hand_over(unwanted))
            self._handovers.add(task)
            task.add_done_callback(self._handovers.discard)
        if self.expect and len(live) < self.expect and self.clock() < self._settle_until:
            return  # its siblings are starting too: wait for them rather than take and hand over
        if self.clock() < self._quiet_until:
            return  # Redis is back: the other workers' heartbeats are not all in yet
        missing = wanted - set(self.held)
        if missing:
            await self._take(missing)

    async def _hand_over(self, shards: set[int]) -> None:
        """Give ``shards`` to the workers that want them: ``on_lose`` (the games are stored
        and forgotten) while the leases are still renewed, then the leases are deleted."""
        try:
            await self.on_lose(shards)
        except Exception:  # noqa: BLE001 - the leases go anyway, or the shards would be stuck
            logger.exception("handing over shard(s) %s failed", sorted(shards))
        for shard in shards:
            self.held.pop(shard, None)
        try:
            for shard in shards:
                await self._release(keys=[self.key(shard)], args=[self.worker])
        except RedisError as error:  # they expire by themselves
            logger.warning("releasing %d lease(s): Redis: %s", len(shards), error)
        self._handing -= shards
        logger.info("handed over %d shard(s) to other workers", len(shards))

    async def _beat(self) -> list[str]:
        now_ms = int(time.time() * 1000)
        key = f"{self.prefix}workers"
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zadd(key, {self.worker: now_ms})
            pipe.pexpire(f"{self.prefix}config", int(self.ttl * 3000))  # bot/cluster/agreement
            pipe.zremrangebyscore(key, 0, now_ms - int(self.ttl * 1000 * 3))
            pipe.zrangebyscore(key, now_ms - int(self.ttl * 1000), "+inf")
            added, *_, live = await pipe.execute()
        if added and self._beaten:  # our heartbeat was gone: Redis restarted without its data
            logger.warning("Redis lost the workers' heartbeats (restarted empty?): no shard is "
                           "taken for %.1f s", self.quiet)
            self._quiet_until = self.clock() + self.quiet
        self._beaten = True
        return list(live)

    async def _renew_held(self, started: float) -> set[int]:
        now = self.clock()
        lost = {s for s, until in self.held.items() if now >= until}  # acted on no more
        shards = [s for s in self.held if s not in lost]
        if not shards:
            return lost
        ttl_ms = str(int(self.ttl * 1000))
        async with self.redis.pipeline(transaction=False) as pipe:
            for shard in shards:
                pipe.eval(_RENEW, 1, self.key(shard), self.worker, ttl_ms)
            results = await pipe.execute()
        until = started + self.ttl - self.margin
        for shard, renewed in zip(shards, results, strict=True):
            if renewed:
                self.held[shard] = until
            else:
                lost.add(shard)
        return lost

    async def _take(self, shards: set[int]) -> None:
        started = self.clock()
        ttl_ms = int(self.ttl * 1000)
        async with self.redis.pipeline(transaction=False) as pipe:
            order = sorted(shards)
            for shard in order:
                pipe.eval(_TAKE, 1, self.key(shard), self.worker, ttl_ms)
            results = await pipe.execute()
        taken = {shard for shard, ok in zip(order, results, strict=True) if ok}
        if not taken:
            return
        for shard in taken:
            self.held[shard] = started + self.ttl - self.margin
        logger.info("took %d shard(s)", len(taken))
        await self.on_gain(taken)

    async def _give_up(self, shards: set[int], why: str) -> None:
        for shard in shards:
            self.held.pop(shard, None)
        if self.on_revoked is not None:
            self.on_revoked(shards)
        logger.error("gave up %d shard(s): %s", len(shards), why)
        await self.on_lose(shards)

    def _redis_down(self, error: BaseException) -> None:
        if self.redis_ok:
            logger.error("Redis unreachable (%s): this worker keeps its shards only until their "
                         "leases run out, then stops serving them", error)
        self.redis_ok = False
