"""What a :class:`bot.services.game_service.GameService` holds, declared once for its parts.

The service is one class assembled from parts kept in their own modules (``game_service.py``:
loading, ``execute`` and the log; ``index.py``: which game a chat or a user is in; ``ops.py``:
lobbies, pauses, deadlines and delivery failures; ``lifecycle.py``: start-up, hand-over to
another worker, the ``ui`` record's writes, stop). :class:`ServiceBase` declares the attributes
``GameService.__init__`` sets and the methods one part calls on another, so that each part is
checked against them; its methods are overridden by the parts that define them.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

from engine import Command, GameState
from engine.core.events import EventLike

from ..storage import Storage
from .deadlines import Deadlines
from .live import LiveGame

if TYPE_CHECKING:
    from .visible_clock import VisibleClock

#: a state or None, given back as it came (``_named``)
MaybeState = TypeVar("MaybeState", bound="GameState | None")


class ServiceBase:
    """The GameService's attributes (set by ``GameService.__init__``; see its docstring)."""

    storage: Storage
    #: the Presenter (``bot.presentation.presenter.Presenter``, handed in by ``bot.app``: the
    #: presentation is a sibling layer the service does not import), or a test's stand-in
    presenter: Any
    deadlines: Deadlines | None
    visible: VisibleClock  #: BOT-X01: a deadline moves on by the time its messages waited
    clock: Callable[[], datetime]  #: aware UTC
    lobby_timeout: int  #: seconds
    games: dict[int, LiveGame]
    _locks: defaultdict[int, asyncio.Lock]
    _by_user: defaultdict[int, set[int]]
    owns: Callable[[int], bool] | None
    _deadline_retries: dict[int, int]
    seed_for: Callable[[int], int]
    #: True once memory holds every open game of the store (``index.py``'s docstring); set by
    #: ``recover`` (one process, every game replayed), never with many workers.
    complete: bool = False

    async def execute(self, game_id: int, command: Command | Callable[[LiveGame], Command]
                      ) -> list[EventLike]:
        raise NotImplementedError  # GameService.execute

    async def state(self, game_id: int) -> GameState | None:
        raise NotImplementedError  # GameService.state

    async def live(self, game_id: int) -> LiveGame:
        raise NotImplementedError  # GameService.live

    def _adopt(self, game_id: int, chat_id: int, locale: str, seed: int) -> LiveGame:
        raise NotImplementedError  # GameService._adopt

    def _named(self, g: LiveGame, st: MaybeState) -> MaybeState:
        raise NotImplementedError  # GameService._named

    def persist_ui_soon(self, g: LiveGame) -> None:
        raise NotImplementedError  # GameLifecycle.persist_ui_soon

    async def touch(self, game_id: int, user_id: int) -> None:
        raise NotImplementedError  # GameOps.touch

    async def game_for_user(self, user_id: int) -> int | None:
        raise NotImplementedError  # GameIndex.game_for_user

    def _unindex(self, g: LiveGame | None) -> None:
        raise NotImplementedError  # GameIndex._unindex
