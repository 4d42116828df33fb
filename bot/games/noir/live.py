"""The live game as NOIR's modules use it (``bot.service.LiveGame`` holding a NOIR state).

``LiveGame.state`` is annotated with the mafia presets' ``GameState``; a NOIR game keeps a
:class:`~engine.noir.NoirState` there, so NOIR's modules read the live game through this
protocol."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol

from engine.noir import NoirState


class NoirLive(Protocol):
    """``id`` the game, ``chat_id`` its group, ``locale``; ``state`` None before it is loaded;
    ``deadline`` the running timer's end (aware UTC) or None; ``ui`` persisted message ids and
    drafts (``games.ui``), ``refs`` pending sends and what standing messages show."""

    id: int
    chat_id: int
    locale: str
    state: NoirState | None
    deadline: datetime | None
    ui: dict[str, Any]
    refs: dict[str, Any]
