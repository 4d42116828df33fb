"""The Mini App's open event streams on this process (issue 20, docs/miniapp.md "Limits"):
who holds them, their caps, and their wake-ups.

* A game holds at most :data:`MAX_PER_GAME` streams here (one more is refused: HTTP 429);
  a user at most :data:`MAX_PER_USER` per game (one more ends his oldest: a page reloaded
  before its old connection died keeps working).
* A wake-up is a number put in each stream's queue: the log's length after a stored command,
  :data:`RECHECK` (re-read the game and re-check the viewer's right: he left the group) or
  :data:`END` (the stream ends: shutdown, evicted).
* :class:`ViewCache`: each distinct view of a game is computed and encoded once per stored
  command, however many streams show it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field

#: streams of one game on one process (the benchmark's 1,000 fit)
MAX_PER_GAME = 2000
#: streams of one user on one game (tabs, devices); one more ends his oldest
MAX_PER_USER = 3
#: wake-up: re-read the game, re-check the viewer's access
RECHECK = -1
#: wake-up: end the stream
END = None


class TooMany(Exception):
    """The game already has :data:`MAX_PER_GAME` streams here (HTTP 429)."""


@dataclass(eq=False)
class Stream:
    """One open stream: ``game_id``, ``user_id``, ``chat_id`` (the game's group, for a
    membership change), ``queue`` of wake-ups (``int`` log length, :data:`RECHECK`,
    :data:`END`)."""

    game_id: int
    user_id: int
    chat_id: int
    queue: asyncio.Queue = field(default_factory=asyncio.Queue)


class Streams:
    """The open streams by game, in opening order."""

    def __init__(self, per_game: int = MAX_PER_GAME, per_user: int = MAX_PER_USER) -> None:
        self.per_game = per_game
        self.per_user = per_user
        self._games: dict[int, dict[Stream, None]] = {}

    def open(self, game_id: int, user_id: int, chat_id: int) -> Stream:
        """A new stream. Raises :class:`TooMany` when the game is full here; ends the user's
        oldest stream of the game when he holds :attr:`per_user` already."""
        subs = self._games.setdefault(game_id, {})
        mine = [s for s in subs if s.user_id == user_id]
        while len(mine) >= self.per_user:
            self.close(mine.pop(0), tell=True)
        if len(subs) >= self.per_game:
            if not subs:
                self._games.pop(game_id, None)
            raise TooMany(game_id)
        stream = Stream(game_id, user_id, chat_id)
        subs[stream] = None
        return stream

    def close(self, stream: Stream, tell: bool = False) -> None:
        """Forget ``stream`` (``tell``: and tell it to end)."""
        subs = self._games.get(stream.game_id)
        if subs is not None and stream in subs:
            del subs[stream]
            if not subs:
                del self._games[stream.game_id]
        if tell:
            stream.queue.put_nowait(END)

    def count(self, game_id: int | None = None) -> int:
        """Open streams of ``game_id`` (None: of every game)."""
        if game_id is not None:
            return len(self._games.get(game_id, ()))
        return sum(len(s) for s in self._games.values())

    def wake(self, game_id: int, length: int | None) -> None:
        """Put ``length`` in the queue of every stream of the game."""
        for s in self._games.get(game_id, ()):
            s.queue.put_nowait(length)

    def recheck_user(self, chat_id: int, user_id: int) -> int:
        """Tell ``user_id``'s streams of the games of ``chat_id`` to re-check his access.
        Returns how many were told."""
        told = 0
        for subs in self._games.values():
            for s in subs:
                if s.user_id == user_id and s.chat_id == chat_id:
                    s.queue.put_nowait(RECHECK)
                    told += 1
        return told

    def end_game(self, game_id: int) -> None:
        """The game ended (or is gone): its streams end after their last table."""
        self.wake(game_id, END)

    def end_all(self) -> None:
        """Shutting down: every stream ends."""
        for subs in list(self._games.values()):
            for s in subs:
                s.queue.put_nowait(END)


class ViewCache:
    """Rendered views of each game at one log length: key -> the shared computation of the
    view (a task, so that streams woken together wait for one computation). A game's entries
    are dropped when a longer log is asked for, and by :meth:`forget`."""

    def __init__(self) -> None:
        self._games: dict[int, tuple[int, dict[Hashable, asyncio.Task]]] = {}

    async def get(self, game_id: int, length: int, key: Hashable,
                  render: Callable[[], Awaitable[tuple[str, bytes]]]) -> tuple[str, bytes]:
        """The view ``key`` of the game at log ``length``: ``render()``'s result, computed
        once. A failed computation is not kept (the next caller tries again)."""
        held = self._games.get(game_id)
        if held is None or held[0] != length:
            if held is not None and held[0] > length:  # a stream behind the others
                return await render()
            held = (length, {})
            self._games[game_id] = held
        views = held[1]
        task = views.get(key)
        if task is None:
            task = asyncio.ensure_future(render())
            views[key] = task
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            raise
        except Exception:
            if views.get(key) is task:
                del views[key]
            raise

    def forget(self, game_id: int) -> None:
        self._games.pop(game_id, None)


__all__ = ["END", "MAX_PER_GAME", "MAX_PER_USER", "RECHECK", "Stream", "Streams", "TooMany",
           "ViewCache"]
