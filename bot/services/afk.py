"""The AFK clock of presets with ``afk_after`` (online: 500 s, ONLINE-48, ONLINE-Q20).

The engine has no clock: a player it marks inactive (OFFLINE) becomes AFK only when the shell
sends ``MarkAfk(player)``.  This listener keeps one job per OFFLINE player
(``afk:{game}:{user}``), due ``afk_after`` seconds of game time later: a pause freezes what is
left, a resume re-arms it, coming back, elimination or the end drops it.  The clock is stored in
``games.ui["afk"]`` ({user: {"due": ISO time} | {"left": seconds}}) so a restart re-arms it.
A late or stale job is harmless: the engine refuses ``MarkAfk`` for a player who is back.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from engine import GameState, IllegalCommand, MarkAfk, find_game
from engine.core.events import Event
from engine.mafia import events as ev

from ..storage.failures import database_failure
from .deadlines import Deadlines
from .live import LiveGame
from .ops import NotOwner

if TYPE_CHECKING:
    from .game_service import GameService

logger = logging.getLogger(__name__)


def afk_after(ruleset: str) -> int:
    """The game's AFK delay in seconds, 0 for a game with none (one whose rule set has no
    ``afk_after``, or a game with no mafia rule set at all, such as NOIR)."""
    rules = getattr(find_game(ruleset), "rules", None)
    return getattr(rules, "afk_after", 0) or 0


class AfkClock:
    def __init__(self, service: GameService, deadlines: Deadlines) -> None:
        self.service = service
        self.deadlines = deadlines

    # --- listener ----------------------------------------------------------------------------
    async def on_step(self, g: LiveGame, before: GameState | None, after: GameState,
                      events: list[Event]) -> None:
        if not afk_after(after.ruleset):
            return
        clock = dict(g.ui.get("afk") or {})
        changed = False
        for e in events:
            if isinstance(e, ev.PlayerInactive) and e.user_id in after.players \
                    and after.players[e.user_id].alive:
                if after.pause is not None:  # OFFLINE during a pause: the clock starts frozen
                    clock[str(e.user_id)] = {"left": float(afk_after(after.ruleset))}
                else:
                    clock[str(e.user_id)] = {"due": self._due(after).isoformat()}
                changed = True
            elif isinstance(e, (ev.PlayerActive, ev.PlayerAfk, ev.PlayerEliminated)):
                changed |= clock.pop(str(e.user_id), None) is not None
            elif isinstance(e, ev.Paused):
                for uid, entry in clock.items():
                    if "due" in entry:
                        left = (datetime.fromisoformat(entry["due"]) - self.service.clock())
                        clock[uid] = {"left": max(0.0, left.total_seconds())}
                changed = True
            elif isinstance(e, ev.Resumed):
                now = self.service.clock()
                for uid, entry in clock.items():
                    if "left" in entry:
                        clock[uid] = {"due": (now + timedelta(seconds=entry["left"])).isoformat()}
                changed = True
            elif isinstance(e, (ev.GameEnded, ev.GameCancelled)):
                changed |= bool(clock)
                clock = {}
        if not changed:
            return
        for uid in g.ui.get("afk") or {}:  # dropped, or frozen by a pause: nothing may fire
            if "due" not in clock.get(uid, {}):
                self.deadlines.cancel_job(f"afk:{g.id}:{uid}")
        g.ui["afk"] = clock
        self.service.persist_ui_soon(g)
        self.arm_all(g)

    def _due(self, st: GameState) -> datetime:
        return self.service.clock() + timedelta(seconds=afk_after(st.ruleset))

    def arm_all(self, g: LiveGame) -> None:
        """(Re-)arm every running AFK clock of the game (also after a restart)."""
        for uid, entry in (g.ui.get("afk") or {}).items():
            if "due" in entry:
                self.deadlines.arm_job(f"afk:{g.id}:{uid}", datetime.fromisoformat(entry["due"]),
                                       self.fire, g.id, int(uid))

    async def fire(self, game_id: int, user_id: int) -> None:
        """The 500 s passed: tell the engine; never raises."""
        try:
            await self.service.execute(game_id, MarkAfk(player=user_id))
        except (IllegalCommand, KeyError, NotOwner):
            pass
        except Exception as error:
            if database_failure(error) is None:
                logger.exception("game %s: AFK of %s failed", game_id, user_id)
                return
            logger.warning("game %s: AFK of %s: the database failed (%s); trying again in 10 s",
                           game_id, user_id, error)
            self.deadlines.arm_job(f"afk:{game_id}:{user_id}",
                                   self.service.clock() + timedelta(seconds=10), self.fire,
                                   game_id, user_id)
