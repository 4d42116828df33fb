"""A game held in memory by the service (:class:`LiveGame`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from engine import GameState


@dataclass
class LiveGame:
    """A game held in memory: its record's fixed fields, current state and presentation refs.

    ``ui`` holds message ids (ints) persisted in ``games.ui``; ``refs`` may hold futures of
    messages still queued in the sender.
    """

    id: int
    chat_id: int
    locale: str
    seed: int
    state: GameState | None = None
    deadline: datetime | None = None
    ui: dict[str, Any] = field(default_factory=dict)
    refs: dict[str, Any] = field(default_factory=dict)
    #: user id -> his current name as Telegram gives it (bot/ui/names.py); the state's names are
    #: the display names made from it. Renames are persisted in ``ui["names"]``.
    raw_names: dict[int, str] = field(default_factory=dict)
    #: steps ``(before, after, events)`` rebuilt from the log whose messages may never have
    #: left before a crash (bot/telegram/shown.py); presented again when the owner loads the game
    unshown: list = field(default_factory=list)
    #: users the store lists in ``game_players`` (joined or became host, did not leave):
    #: who :meth:`GameService.game_for_user` finds in this game (bot/services/index.py)
    members: set[int] = field(default_factory=set)


__all__ = ["LiveGame"]
