"""Figures of ``python -m benchmarks --workers N`` (:mod:`benchmarks.workers_bench`): the run's
record, the workers' CPU and memory from ``/proc``, the lease timeline read from Redis, the
lost and duplicated commands counted from the stand-in's calls and the game logs, and issue 19's
three: the 429s the stand-in answered (it enforces Telegram's limits), the group messages sent
twice (:func:`duplicate_group_messages`) and the shards that moved (:func:`shards_moved`).
Times are in seconds (``time.monotonic()``), sizes in bytes.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bot.cluster.routing import shard_of
from tests.e2e.rates import busiest_window

SHARDS = 64  #: the workers' SHARDS (the default)


@dataclass
class WorkerFigures:
    """One worker process: ``received`` webhook POSTs it answered 2xx, ``handled`` updates of its
    shards, CPU seconds (user + system) while the games were played, and RSS in bytes
    (current and peak) at its end (or at its kill)."""

    name: str
    pid: int = 0
    received: int = 0
    handled: int = 0
    cpu: float = 0.0
    rss: int = 0
    peak_rss: int = 0
    killed: bool = False


@dataclass
class WorkersRun:
    workers: int
    games: int
    db_url: str
    lease_seconds: float
    kill_after: float | None  #: seconds into the games; None: a third of the presses; 0: no kill
    killed_after: float = 0.0  #: when the kill came, seconds into the games
    wall: float = 0.0
    updates: int = 0
    webhook_latency: list[float] = field(default_factory=list)
    answer_latency: list[float] = field(default_factory=list)
    failed_posts: int = 0
    presses: int = 0
    unanswered: int = 0
    answered_twice: int = 0
    unfinished: int = 0
    doubled_commands: int = 0
    pending_at_end: int = 0
    takeover: float | None = None
    killed: str | None = None
    killed_shards: int = 0
    busiest_group_minute: int = 0
    busiest_bot_second: int = 0
    per_worker: list[WorkerFigures] = field(default_factory=list)
    winners: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    group_rate: tuple[int, float] | None = None
    busiest_bot_second_sent: int = 0  #: the same without answerCallbackQuery (not the Sender's)
    bench_cpu: float = 0.0  #: CPU seconds of this process (the stand-in and the players) meanwhile
    missing: int = 0  #: buttons the players waited for in vain (the timer moved the game on)
    missing_notes: list[str] = field(default_factory=list)
    too_many_requests: int = 0  #: calls the stand-in refused with 429 (Telegram's limits)
    too_many_private: int = 0  #: those to a private chat
    duplicate_group_messages: int = 0  #: see :func:`duplicate_group_messages`
    duplicate_notes: list[str] = field(default_factory=list)
    shards_moved: int = 0  #: owner changes of a shard while the games were played
    shards_moved_from_living: int = 0  #: those whose previous owner was alive (issue 19.5)

    @property
    def lost(self) -> int:
        return self.unanswered + self.unfinished + self.pending_at_end

    @property
    def duplicated(self) -> int:
        return self.answered_twice + self.doubled_commands


def proc_figures(pid: int) -> tuple[float, int, int]:
    """(CPU seconds, RSS bytes, peak RSS bytes) of a living process, from /proc; zeros if gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        with open(f"/proc/{pid}/status") as status:
            kib = {k: int(v.split()[0]) for k, v in (line.split(":", 1) for line in status)
                   if k in ("VmRSS", "VmHWM")}
    except OSError:
        return 0.0, 0, 0
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks  # utime, stime (fields 14, 15 of stat)
    return cpu, kib.get("VmRSS", 0) * 1024, kib.get("VmHWM", 0) * 1024


class Leases:
    """The shard leases in Redis as the benchmark sees them: a timeline of owners."""

    def __init__(self, redis, prefix: str, shards: int = SHARDS) -> None:
        self.redis, self.prefix, self.shards = redis, prefix, shards
        self.timeline: list[tuple[float, list[str | None]]] = []

    async def owners(self) -> list[str | None]:
        return await self.redis.mget([f"{self.prefix}lease:{s}" for s in range(self.shards)])

    async def record(self) -> list[str | None]:
        owners = await self.owners()
        if not self.timeline or self.timeline[-1][1] != owners:
            self.timeline.append((time.monotonic(), owners))
        return owners

    async def poll(self, every: float = 0.1) -> None:
        while True:
            await self.record()
            await asyncio.sleep(every)

    def moves(self) -> list[tuple[int, str, str]]:
        """Every change of a shard's owner in the timeline: (shard, from, to); a lease gone
        for a while (None) and then taken by another worker is one move."""
        last: dict[int, str] = {}
        moved = []
        for _moment, owners in self.timeline:
            for shard, owner in enumerate(owners):
                if owner is None:
                    continue
                if shard in last and last[shard] != owner:
                    moved.append((shard, last[shard], owner))
                last[shard] = owner
        return moved

    def owner_at(self, shard: int, at: float) -> str | None:
        owner = None
        for moment, owners in self.timeline:
            if moment > at:
                break
            owner = owners[shard]
        return owner


def route_group(update: dict[str, Any], group_of_user: dict[int, int]) -> int | None:
    """The group chat an update of the benchmark concerns: the group it happened in, else the
    sender's table's group (private presses and deep links)."""
    body = next(v for k, v in update.items() if k != "update_id")
    chat = (body.get("message") or body).get("chat") or {}
    if chat.get("id", 0) < 0:
        return chat["id"]
    user_id = (body.get("from") or {}).get("id")
    return group_of_user.get(user_id) if isinstance(user_id, int) else None


async def collect(run: WorkersRun, api, names: dict, leases: Leases, reader, tables: list) -> None:
    """Fill ``run``'s figures from what the stand-in ``api`` saw, the lease timeline and the
    game logs (``reader``: :class:`bot.storage.Storage`); ``names``: worker name -> BotProcess."""
    group_of_user = {u.id: t.chat_id for t in tables for u in t.users}
    first_ok: dict[int, float] = {}
    updates = {u["update_id"]: u for u in api.updates_log}
    port_worker = {p.webhook_base: n for n, p in names.items()}
    by_name = {w.name: w for w in run.per_worker}
    for delivery in api.webhook_deliveries:
        if not delivery.ok:
            run.failed_posts += 1
            continue
        run.webhook_latency.append(delivery.ended - delivery.started)
        worker = next((n for base, n in port_worker.items() if delivery.target.startswith(base)),
                      None)
        if worker is not None:
            by_name[worker].received += 1
        if delivery.update_id not in first_ok:
            first_ok[delivery.update_id] = delivery.ended
            group = route_group(updates.get(delivery.update_id, {}), group_of_user) \
                if delivery.update_id in updates else None
            if group is not None:
                owner = leases.owner_at(shard_of(group, SHARDS), delivery.ended)
                if owner in by_name:
                    by_name[owner].handled += 1
    run.updates = len(first_ok)
    queued = api.callback_queued
    answers: dict[str, list[float]] = {}
    for call in api.calls_to("answerCallbackQuery"):
        answers.setdefault(str(call.params.get("callback_query_id")), []).append(call.at)
    run.presses = len(queued)
    for query_id, at in queued.items():
        got = answers.get(query_id, [])
        if not got:
            run.unanswered += 1
        else:
            run.answer_latency.append(min(got) - at)
            run.answered_twice += len(got) > 1
    run.doubled_commands = await integrity(reader, [t.game_id for t in tables if t.game_id])
    run.busiest_group_minute = max((api.busiest_group_minute(t.chat_id) for t in tables),
                                   default=0)
    run.busiest_bot_second = api.busiest_bot_second()
    run.busiest_bot_second_sent = busiest_window(
        (c.at for c in api.limited_calls() if c.method.lower() != "answercallbackquery"), 1.0)
    refused = [c for c in api.calls if c.error_code == 429]
    run.too_many_requests = len(refused)
    run.too_many_private = sum(1 for c in refused
                               if not str(c.params.get("chat_id", "-")).startswith("-"))
    run.duplicate_notes = duplicate_group_messages(api.calls)
    run.duplicate_group_messages = len(run.duplicate_notes)
    dead = {w.name for w in run.per_worker if w.killed}
    moves = leases.moves()
    run.shards_moved = len(moves)
    run.shards_moved_from_living = sum(1 for _s, before, _after in moves if before not in dead)


def duplicate_group_messages(calls: list) -> list[str]:
    """Group messages sent again: a ``sendMessage`` to a group (delivered) with the very text
    and buttons of an earlier one to that group — a step shown twice (issue 19.2). A game's
    messages name their day, their phase's buttons carry its sequence number: a legitimate
    message does not repeat one before it. Returns one note per repeat (chat: text's start)."""
    seen: set[tuple[str, str, str]] = set()
    again = []
    for call in calls:
        chat = str(call.params.get("chat_id"))
        if call.method != "sendMessage" or not call.ok or not chat.startswith("-"):
            continue
        key = (chat, str(call.params.get("text")), str(call.params.get("reply_markup")))
        if key in seen:
            again.append(f"{chat}: {key[1][:80]!r}")
        seen.add(key)
    return again


#: command fields that carry a time, not a choice (left out when comparing two commands)
_TIMES = frozenset({"at", "now", "time", "ts"})


async def integrity(reader, game_ids: list[int]) -> int:
    """Commands applied twice: log rows of one game with the same ``update_id`` and the same
    command (time fields aside) — one update's effect applied again. Returns how many extra."""
    seen: Counter[tuple[int, int, str]] = Counter()
    for game_id in game_ids:
        for update_id, command in await _log_rows(reader, game_id):
            if update_id is None:
                continue
            body = {k: v for k, v in command.items() if k not in _TIMES}
            seen[(game_id, update_id, json.dumps(body, sort_keys=True))] += 1
    return sum(n - 1 for n in seen.values() if n > 1)


async def _log_rows(reader, game_id: int) -> list[tuple[int | None, dict]]:
    from sqlalchemy import select

    from bot.storage.models import GameLogEntry

    async with reader.engine.connect() as connection:
        result = await connection.execute(
            select(GameLogEntry.update_id, GameLogEntry.command)
            .where(GameLogEntry.game_id == game_id).order_by(GameLogEntry.seq))
        return [(row[0], row[1]) for row in result]
