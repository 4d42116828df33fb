"""A phase's clock starts when its messages are visible (docs/rules/README.md, BOT-X01).

The engine's timers are durations (a vote window of 10 s, a speech of 60 s); the service turns
them into deadlines when the command that opens the phase is stored. But the phase's message
may leave later: Telegram lets a bot make about 20 calls a minute in a group, so after a busy
minute (a day of speeches, their closing edits, the nominations) the message that opens a
vote window can wait in the Sender's queue for longer than the window itself, and the players
lose a vote they never saw (found by the newcomer trial: a 10-s window with its button shown
2.6 s before its end, or never).

So each step that arms a new deadline is watched (:meth:`VisibleClock.watch`): when every
message of the step has left the Sender (the futures ``bot/telegram/shown.py`` collects for the step),
the deadline is moved on by the time they took, if that was :data:`SHIFT_MIN` seconds or more,
at most :data:`HOLD_MAX` seconds — a chat Telegram refuses for minutes must not stop the game,
whose deadline then fires as planned plus that much. A deadline that comes while its step's
messages are still waiting does not fire (:meth:`VisibleClock.holds`, asked by
``GameService.on_deadline``): a short window (a 15-s vote) would otherwise close before the
group ever saw it, and there would be nothing left to move (issue 20: a group 35 s behind
saw a vote whose window had closed). The new deadline is armed and stored
(``Storage.set_deadline``; a restart re-arms it), and the messages that show the deadline as
clock time show the new one (BOT-X03: ``Presenter.deadline_moved``). It is only moved while
the game still has the same deadline (same timer, not paused, not moved on by a press
meanwhile) and, with many workers, while this worker serves it. The engine knows nothing of
it: its timers carry a sequence number, never a wall time, so a replay of the log is
unchanged.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

logger = logging.getLogger("bot.services.game_service")

#: seconds: a step whose messages left sooner keeps its deadline (no re-arm, no write)
SHIFT_MIN = 1.0
#: seconds: the most a deadline is moved on, however long the messages wait
HOLD_MAX = 60.0


class VisibleClock:
    """Moves a game's new deadline by the time its step's messages waited in the Sender.

    ``service``: the :class:`bot.services.game_service.GameService` (its ``clock``, ``deadlines``, ``games``,
    game locks, ``owns``, ``storage.set_deadline`` and ``presenter`` are used)."""

    def __init__(self, service: Any) -> None:
        self.service = service
        self._tasks: set[asyncio.Task[None]] = set()
        #: game id -> the timer_seq of the deadline whose step's messages are still waiting
        self._held: dict[int, int | None] = {}
        #: (game id, timer_seq) of held deadlines that came and were not fired
        self._skipped: set[tuple[int, int | None]] = set()

    def holds(self, game_id: int, timer_seq: int | None) -> bool:
        """Whether the deadline ``timer_seq`` of the game must not fire now: its step's messages
        are still waiting in the Sender. When it says so, the deadline is re-armed once they have
        left (moved on by their wait), so the window is open for its whole length after it is
        visible."""
        if game_id not in self._held or self._held[game_id] != timer_seq:
            return False
        self._skipped.add((game_id, timer_seq))
        return True

    def watch(self, g: Any, deadline: tuple[int | None, datetime | None] | None,
              futures: Sequence[asyncio.Future[Any]]) -> None:
        """After a step of ``g`` was presented: ``deadline`` is the ``(timer_seq, at)`` the step
        armed (None: it armed none), ``futures`` the Sender's futures of its messages. Returns
        at once; the wait runs in a task of its own."""
        if deadline is None or deadline[1] is None or self.service.deadlines is None:
            return
        waiting = [f for f in futures if not f.done()]
        if not waiting:
            return
        left: list[datetime] = []  # the clock when each future resolved (its done callback)
        for future in waiting:
            future.add_done_callback(lambda _f: left.append(self.service.clock()))
        self._held[g.id] = deadline[0]
        task = asyncio.get_running_loop().create_task(
            self._hold(g.id, deadline, self.service.clock(), waiting, left))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def settle(self) -> None:
        """Wait until every watched step's messages left and its deadline was moved (tests,
        a graceful stop)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def cancel(self) -> None:
        """Stop watching (a stop: the deadlines stay as armed and stored)."""
        for task in self._tasks:
            task.cancel()

    async def _hold(self, game_id: int, deadline: tuple[int | None, datetime | None],
                    armed: datetime, waiting: list[asyncio.Future[Any]],
                    left: list[datetime]) -> None:
        seq = deadline[0]
        try:
            await self._move(game_id, deadline, armed, waiting, left)
        finally:
            if self._held.get(game_id, -1) == seq:
                del self._held[game_id]
            if (game_id, seq) in self._skipped:  # it came meanwhile and was not moved: fire it
                self._skipped.discard((game_id, seq))
                g = self.service.games.get(game_id)
                if g is not None and g.deadline == deadline[1] and self.service.deadlines is not None:
                    self.service.deadlines.arm(game_id, seq, self.service.clock())

    async def _move(self, game_id: int, deadline: tuple[int | None, datetime | None],
                    armed: datetime, waiting: list[asyncio.Future[Any]],
                    left: list[datetime]) -> None:
        seq, at = deadline
        await asyncio.wait(waiting, timeout=HOLD_MAX)
        await asyncio.sleep(0)  # the futures' done callbacks run first
        last = max(left) if len(left) == len(waiting) else self.service.clock()
        waited = min((last - armed).total_seconds(), HOLD_MAX)
        if waited < SHIFT_MIN or game_id not in self.service.games:
            return
        async with self.service._locks[game_id]:  # noqa: SLF001 - the service's own lock
            g = self.service.games.get(game_id)
            timer = g.state.timer if g is not None and g.state is not None else None
            owns = self.service.owns
            if g is None or g.deadline != at or timer is None or timer.seq != seq \
                    or (owns is not None and not owns(g.chat_id)):
                return
            moved = at + timedelta(seconds=waited)
            try:
                self.service._arm(g, (seq, moved))  # noqa: SLF001
                self._skipped.discard((game_id, seq))  # armed anew: it will fire then
                fence = self.service.fence
                await self.service.storage.set_deadline(
                    game_id, seq, moved, fence(g.chat_id) if fence is not None else None)
            except Exception as error:  # armed, the deadline stands; a restart uses the old one
                logger.warning("game %s: the deadline moved %.0f s on was not stored (%s)",
                               game_id, waited, error)
                return
            try:  # the messages showing the end show the new one (BOT-X03)
                self.service.presenter.deadline_moved(g)
            except Exception:  # a rendering bug must not undo the move
                logger.exception("game %s: showing the moved deadline failed", game_id)
        logger.info("game %s: its messages waited %.1f s in the queue; deadline %s moved on",
                    game_id, waited, seq)


__all__ = ["HOLD_MAX", "SHIFT_MIN", "VisibleClock"]
