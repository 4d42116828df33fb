"""Deadlines as data: one APScheduler job per game (design.md §4).

A job carries only ids: ``fire(game_id, timer_seq)``.  Job ids are fixed (``game:{id}:timer``,
``replace_existing=True``), so re-arming replaces the previous timer; a stale timer that still
fires is a no-op in the engine.  On start-up the service re-arms every open deadline from the
database; overdue ones fire at once (``misfire_grace_time=None``).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from apscheduler.jobstores.base import JobLookupError  # type: ignore[import-untyped]  # APScheduler 3 ships no types
from apscheduler.schedulers.asyncio import AsyncIOScheduler  # type: ignore[import-untyped]  # (no py.typed)

logger = logging.getLogger(__name__)

Fire = Callable[[int, int | None], Awaitable[None]]


def game_jobs(game_id: int) -> tuple[str, str]:
    """The id prefixes of a game's extra jobs: its AFK clocks (``afk:{game}:{user}``, bot/services/afk.py)
    and the clocks of what its messages show (``clock:{game}:{what}``, e.g. a held live
    edit: bot/games/mafia/live.py)."""
    return f"afk:{game_id}:", f"clock:{game_id}:"


class Deadlines:
    """Arms and cancels per-game deadlines. ``timer_seq`` None marks the lobby expiry."""

    def __init__(self, fire: Fire) -> None:
        self.fire = fire
        self.scheduler = AsyncIOScheduler(timezone="UTC")

    def start(self) -> None:
        if not self.scheduler.running:
            self.scheduler.start()

    def shutdown(self) -> None:
        if self.scheduler.running:
            self.scheduler.shutdown(wait=False)

    def arm(self, game_id: int, timer_seq: int | None, run_at: datetime) -> None:
        """Fire ``fire(game_id, timer_seq)`` at ``run_at`` (aware UTC), replacing any earlier job."""
        self.scheduler.add_job(
            self.fire, "date", run_date=run_at, args=[game_id, timer_seq],
            id=f"game:{game_id}:timer", replace_existing=True, misfire_grace_time=None,
            coalesce=True,
        )

    def cancel(self, game_id: int) -> None:
        self.cancel_job(f"game:{game_id}:timer")

    def cancel_game(self, game_id: int) -> None:
        """Cancel every job of the game: its deadline and its extra jobs (``afk:{game}:...``,
        ``clock:{game}:...``)."""
        self.cancel(game_id)
        for job in self.scheduler.get_jobs():
            if job.id.startswith(game_jobs(game_id)):
                self.cancel_job(job.id)

    def arm_job(self, job_id: str, run_at: datetime, func: Callable[..., Awaitable[Any]], *args: Any) -> None:
        """Another deadline with its own fixed id (e.g. ``afk:{game}:{user}``), replaced when
        armed again; ``func(*args)`` is awaited at ``run_at``."""
        self.scheduler.add_job(func, "date", run_date=run_at, args=list(args), id=job_id,
                               replace_existing=True, misfire_grace_time=None, coalesce=True)

    def cancel_job(self, job_id: str) -> None:
        with contextlib.suppress(JobLookupError):
            self.scheduler.remove_job(job_id)


class ManualDeadlines(Deadlines):
    """Test double: records armed deadlines; tests fire them with :meth:`fire_now`."""

    def __init__(self, fire: Fire) -> None:  # noqa: D401 - same shape as Deadlines
        self.fire = fire
        self.pending: dict[int, tuple[int | None, datetime]] = {}
        self.jobs: dict[str, tuple] = {}

    def start(self) -> None:
        pass

    def shutdown(self) -> None:
        pass

    def arm(self, game_id: int, timer_seq: int | None, run_at: datetime) -> None:
        self.pending[game_id] = (timer_seq, run_at)

    def cancel(self, game_id: int) -> None:
        self.pending.pop(game_id, None)

    def arm_job(self, job_id: str, run_at: datetime, func: Callable[..., Awaitable[Any]], *args: Any) -> None:
        self.jobs[job_id] = (run_at, func, args)

    def cancel_game(self, game_id: int) -> None:
        self.cancel(game_id)
        for job_id in [j for j in self.jobs if j.startswith(game_jobs(game_id))]:
            del self.jobs[job_id]

    def cancel_job(self, job_id: str) -> None:
        self.jobs.pop(job_id, None)

    def next_job(self, prefix: str) -> tuple[datetime, str] | None:
        """``(run_at, job_id)`` of the earliest armed job whose id starts with ``prefix``, or
        None (a simulation fires it when its game time comes: benchmarks/players.py)."""
        armed = [(at, job_id) for job_id, (at, _f, _a) in self.jobs.items()
                 if job_id.startswith(prefix)]
        return min(armed) if armed else None

    async def fire_job(self, job_id: str) -> None:
        """Fire one extra job now (raises KeyError when it is not armed)."""
        _, func, args = self.jobs.pop(job_id)
        await func(*args)

    async def fire_now(self, game_id: int) -> None:
        """Fire the game's pending deadline now (raises KeyError when none is armed)."""
        seq, _ = self.pending.pop(game_id)
        await self.fire(game_id, seq)
