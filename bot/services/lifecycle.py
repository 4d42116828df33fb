"""The start-up, hand-over and stop of :class:`bot.services.game_service.GameService` (one of its
parts, see ``base.py``): recovering the open games, handing games over to another worker (issue 12)
or forgetting one at once, the per-user lock, the ``ui`` record's background writes with the
"shown" watermark (bot/telegram/shown.py; issue 19), re-showing the steps a crash may have lost,
and the writes waited for before the storage closes."""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable, Iterable

from ..storage.fencing import Fence
from ..telegram.shown import Watermarks, reshow
from .base import ServiceBase
from .live import LiveGame
from .recovery import recover_games

logger = logging.getLogger("bot.services.game_service")


class GameLifecycle(ServiceBase):
    """The GameService's start-up, hand-over and stop (its attributes: ``GameService.__init__``)."""

    _user_locks: weakref.WeakValueDictionary[int, asyncio.Lock]
    fence: Callable[[int], Fence] | None
    shown: Watermarks
    step_senders: list[Callable[..., None]]

    async def recover(self, chats: Callable[[int], bool] | None = None) -> int:
        """Reload every lobby/running game and re-arm its deadline (``bot/services/recovery.py``);
        ``chats(chat_id) -> bool``: only those chats' games. Returns the number recovered."""
        return await recover_games(self, chats)

    async def release(self, game_ids: Iterable[int]) -> None:
        """Many workers (issue 12): hand these games over, their chat's shard having moved to
        another worker. Each waits for a command in progress, has its presentation state stored
        and its timers cancelled, and is forgotten; the presenter's clocks on it go quiet (its
        state is gone). The next owner recovers them from the store."""
        for game_id in list(game_ids):
            async with self._locks[game_id]:
                g = self.games.pop(game_id, None)
                if g is None:
                    continue
                self._unindex(g)
                if self.deadlines is not None:
                    self.deadlines.cancel_game(game_id)
                if g.state is not None:  # this worker lives on and its Sender delivers what it
                    g.ui["shown"] = g.state.commands  # queued: the next owner shows nothing again
                self.persist_ui_soon(g)  # with its "shown" watermark (bot/telegram/shown.py)
                self.shown.forget(game_id)
                g.state = None  # held live edits check it and stop
            self._locks.pop(game_id, None)
        await self.drain()

    def _drop(self, g: LiveGame) -> None:
        """Forget ``g`` at once with its timers (its lock is held): not ours any more."""
        self.games.pop(g.id, None)
        self._unindex(g)
        self.shown.forget(g.id)
        if self.deadlines is not None:
            self.deadlines.cancel_game(g.id)
        g.state = None  # held live edits check it and stop
        logger.info("game %s: served by another worker now; forgotten here", g.id)

    def user_lock(self, user_id: int) -> asyncio.Lock:
        """A lock per user for checks that span games (a user is in one active game at most),
        kept while someone holds or waits for it. One process only: across workers the database
        holds the rule (``storage.UserInAnotherGame``, issue 12)."""
        lock = self._user_locks.get(user_id)
        if lock is None:
            lock = self._user_locks[user_id] = asyncio.Lock()
        return lock

    def persist_ui_soon(self, g: LiveGame) -> None:
        """Store ``g.ui`` in the background, with the next group commit of the log
        (``Storage.ui_soon``): only a game's newest snapshot is written, and never before an
        older one; :meth:`drain` waits for them."""
        fence = self.fence(g.chat_id) if self.fence is not None else None
        if fence is not None and fence[1] <= 0:
            return  # its worker lost the shard (issue 19): not its to write any more
        self.shown.stored(g)
        self.storage.ui_soon(g.id, dict(g.ui), fence)

    def reshow(self, g: LiveGame) -> None:
        """Present again the steps of ``g`` whose messages a crash may have lost (``g.unshown``,
        bot/telegram/shown.py), with the :attr:`step_senders`; call under the game's lock, once loaded."""
        steps, g.unshown = g.unshown, []
        reshow(self, g, steps, self.step_senders)

    def save_shown(self) -> None:
        """A graceful stop, after the Sender drained: write the ``ui`` of every game whose
        "shown" watermark moved since its last write, so a clean restart shows nothing again."""
        for g in self.shown.unsaved(list(self.games.values())):
            self.persist_ui_soon(g)

    async def drain(self) -> None:
        """Wait for the background writes started so far (call before closing the storage)."""
        await self.storage.drain()
