"""The live game as NOIR's modules use it (``bot.services.game_service.LiveGame`` holding a NOIR state).

``LiveGame.state`` is annotated with the mafia presets' ``GameState``; a NOIR game keeps a
:class:`~engine.noir.NoirState` there, so NOIR's modules read the live game through this
protocol."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from engine.noir import NoirState

from ..hints import LiveRefs


class NoirLive(LiveRefs, Protocol):
    """``id``, ``chat_id``, ``ui``, ``refs`` as any live game (:class:`LiveRefs`); its
    ``locale``; ``state`` None before it is loaded; ``deadline`` the running timer's end
    (aware UTC) or None."""

    locale: str
    state: NoirState | None
    deadline: datetime | None
