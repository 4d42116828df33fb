"""Start-up recovery of the open games (``GameService.recover``; issue 10 item 5, issue 11).

Every deadline is re-armed first, from the games rows (one query), so no timer waits for the
replays; then the logs are read in bulk and replayed game by game, yielding to the event loop
between games so that presses queued while the bot was down are handled meanwhile (each loads
its game on demand, and recovery skips a game already loaded, re-reading its timer).
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from engine import IllegalCommand

from ..storage import GameRecord

logger = logging.getLogger("bot.services.game_service")
#: Seconds an overdue deadline waits after a restart, so queued updates come first.
RESTART_GRACE = 5
#: ``GameService`` (bot/services/game_service.py imports this module, not the other way round)
GameService = Any


async def recover_games(service: GameService, chats: Callable[[int], bool] | None = None) -> int:
    """Reload every lobby/running game and re-arm its deadline (overdue ones fire at once).
    ``chats``: only the games whose chat it accepts (many workers: the shards just taken over).

    Every deadline is re-armed first, from the games rows; then the logs are read in bulk
    and replayed game by game, yielding to the event loop between games so that presses
    queued while the bot was down are handled meanwhile (each loads its game on demand).
    Returns the number of games recovered.
    """
    count, failed = 0, False
    records = await service.storage.active_games()
    if chats is not None:
        records = [rec for rec in records if chats(rec.chat_id)]
    for rec in records:
        if rec.id not in service.games:
            rearm(service, rec)
    logs = await service.storage.load_logs([rec.id for rec in records])
    for rec in records:
        async with service._locks[rec.id]:  # noqa: SLF001 - a press may load it meanwhile (bot.app.App.start)
            if rec.id in service.games:  # it did: its timer may have moved on since
                rec = await service.storage.get_game(rec.id) or rec
                rearm(service, rec)
            else:
                try:
                    g = service.games[rec.id] = await service._rebuild(rec, logs.pop(rec.id, []))
                    service._index(g)
                    service.reshow(g)  # the steps a crash may have lost (bot/telegram/shown.py)
                except (IllegalCommand, ValueError):
                    logger.exception("game %s: log does not replay; cancelling", rec.id)
                    if service.deadlines is not None:
                        service.deadlines.cancel(rec.id)
                    failed = True
                    continue
            count += 1
        await asyncio.sleep(0)  # let queued presses in
    if chats is None and service.owns is None and not failed:
        service.complete = True  # one process holds every open game now (bot/services/index.py)
    if chats is None:
        # What lives now (the imported modules' objects, aiogram's models, the recovered games)
        # lives for good: out of the collector's full passes, which with 1,000 games took up to
        # 0.7 s each, stalling every update in flight (issue 11, docs/performance.md).
        gc.freeze()
    return count


def rearm(service: GameService, rec: GameRecord) -> None:
    """Arm the stored deadline of ``rec``, overdue ones :data:`RESTART_GRACE` from now."""
    if service.deadlines is not None and rec.deadline_at is not None:
        # presses queued while the bot was down are handled before an overdue timer
        at = max(rec.deadline_at, service.clock() + timedelta(seconds=RESTART_GRACE))
        service.deadlines.arm(rec.id, rec.timer_seq, at)
