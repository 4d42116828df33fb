"""The events of each game as its viewers were shown them: the stored log's events (dicts, with
their audiences), cached per game and extended by every stored command, filtered per viewer by
the engine's audience model (``engine/core/audience.py``; the same reading as the history's
"what I knew": :func:`bot.history.replay.visible_events`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core.game import game_of

from ..games.spec import Viewer
from ..history.replay import entries_from, visible_events

Event = dict[str, Any]


class EventLog:
    """``storage``: the bot's Storage (``load_events``). One cached list per game: the events of
    each stored command, in log order."""

    def __init__(self, storage: Any) -> None:
        self.storage = storage
        self._games: dict[int, list[list[Event]]] = {}

    async def events(self, game_id: int, count: int) -> list[list[Event]]:
        """The events of the game's first ``count`` commands (``GameState.commands``: the log's
        length), from the cache or, when it is behind, from the database."""
        cached = self._games.get(game_id)
        if cached is None or len(cached) != count:
            cached = [list(evs or ()) for evs in await self.storage.load_events(game_id)]
            self._games[game_id] = cached
        return cached[:count]

    def on_step(self, g: Any, before: Any, after: Any, events: Sequence[Any]) -> None:
        """A stored command (``GameService.listeners``): extend the game's cache if it is
        complete up to it, else drop it (it is reloaded when asked for)."""
        cached = self._games.get(g.id)
        if cached is None:
            return
        if len(cached) != (before.commands if before is not None else 0):
            self._games.pop(g.id, None)
            return
        game = game_of(after)
        cached.append([game.to_dict(e) for e in events])
        if after.over:
            self._games.pop(g.id, None)

    def forget(self, game_id: int) -> None:
        self._games.pop(game_id, None)


def visible(log: list[list[Event]], viewer: Viewer) -> list[Event]:
    """The events ``viewer`` was shown, in log order: all for the host; for a player, the public
    ones and those addressed to him or his living team; for an onlooker, the public ones."""
    if viewer.kind == "host":
        return [e for evs in log for e in evs]
    entries = entries_from((seq, {}, evs) for seq, evs in enumerate(log))
    who = viewer.user_id if viewer.kind == "player" else None
    return [e for _seq, e in visible_events(entries, who)]


__all__ = ["EventLog", "visible"]
