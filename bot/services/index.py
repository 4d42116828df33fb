"""Which game a chat or a user is in, answered from the games in memory (issue 11), and
``seen`` (renames, a lost host's return) over the same indexes: a mixin of
:class:`bot.services.game_service.GameService`, kept apart to keep that module small.

The store's answers (``Storage.active_game_for_chat``/``active_game_for_user``) cost a pooled
connection and a round trip per update; the service already holds every open game it serves, so
it answers from memory when memory is the whole truth:

* **a game found in memory is the answer** when it is open (not over) and, with many workers
  (issue 12), its chat's shard is held here: only the owner changes a game, so its state, chat
  and players here are current. A chat has one open game at most (``uq_games_active_chat``) and a
  user plays or hosts one at most (``active_players``), so the first found is the one.
* **"none" is answered from memory only when memory holds every open game of the store**
  (:attr:`complete`): one process (``owns`` None), after :meth:`GameService.recover` recovered
  every open game without a failure. Otherwise (before or during recovery, a game whose log did
  not replay, many workers, where a user's game may be on another worker's shard) the store is
  asked, as before.

A user is "in" a game as the store's ``game_players`` row says — he joined it or became its
host, and did not leave — not as the engine's state says (a host replaced by the bot is still
listed; a player who took over hosting is not): :attr:`LiveGame.members` mirrors those rows,
rebuilt from the log on load and updated with the rows each command writes.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from ..ui.names import show_names
from .base import ServiceBase
from .live import LiveGame
from .roster import ADDS, LEAVES

logger = logging.getLogger("bot.services.game_service")


def members_of(commands: Iterable[Any]) -> set[int]:
    """The users the store lists as the game's players (``game_players``) after ``commands``
    (decoded commands of its log, in order): who joined or became host, less who left."""
    members: set[int] = set()
    for cmd in commands:
        if cmd.user_id is None:  # the system's commands (timers) seat nobody
            continue
        if isinstance(cmd, ADDS):
            members.add(cmd.user_id)
        elif isinstance(cmd, LEAVES):
            members.discard(cmd.user_id)
    return members


class GameIndex(ServiceBase):
    """In-memory lookups of the open game of a chat or user, and the renames and returns
    :meth:`seen` notices through them (mixed into ``GameService``, whose ``games``, ``owns``,
    ``storage`` and locks they use)."""

    def _init_index(self) -> None:
        #: chat id -> ids of games in memory in that chat (stale ids are skipped when read)
        self._by_chat: defaultdict[int, set[int]] = defaultdict(set)
        #: user id -> ids of games in memory that list him in ``members``
        self._by_member: defaultdict[int, set[int]] = defaultdict(set)

    def _index(self, g: LiveGame) -> None:
        """Note ``g``'s players and host in :attr:`_by_user`, its chat and members for
        :meth:`game_for_chat` / :meth:`game_for_user`."""
        self._index_game(g)
        st = g.state
        if st is None:
            return
        for uid in st.players:
            self._by_user[uid].add(g.id)
        if st.host is not None:
            self._by_user[st.host].add(g.id)

    async def seen(self, user_id: int, name: str, back: bool = True) -> None:
        """Called for every update from a user (``name``: his name now, ``display_name``).

        A player or host of a game in memory who renamed himself is shown by his new name from
        now on (issue 10, item 4; the new name is kept in ``games.ui["names"]`` across
        restarts). A lost host who
        sends anything is back, and the game he waited for resumes (PARTY-44, PARTY-46), unless
        ``back`` is False (his ``/resume`` does that itself).
        The lobby or table message is edited to the new name at once (not at night)."""
        ids = self._by_user.get(user_id)
        if not ids:
            self._by_user.pop(user_id, None)
            return
        for game_id in list(ids):
            g = self.games.get(game_id)
            st = g.state if g is not None else None
            if g is None or st is None or st.over or (user_id not in st.players and user_id != st.host):
                ids.discard(game_id)  # ended, forgotten or left: drop the stale entry
                continue
            if g.raw_names.get(user_id) != name:
                async with self._locks[g.id]:
                    g.raw_names[user_id] = name
                    g.ui["names"] = {**(g.ui.get("names") or {}), str(user_id): name}
                    g.state = self._named(g, g.state)
                    show_names(self.presenter, g)
                self.persist_ui_soon(g)
                logger.info("game %s: user %s renamed", g.id, user_id)
            if back and user_id == st.host and not st.host_active:
                await self.touch(g.id, user_id)

    def _index_game(self, g: LiveGame) -> None:
        """Note ``g``'s chat and members (call when it is loaded or its members change)."""
        self._by_chat[g.chat_id].add(g.id)
        for uid in g.members:
            self._by_member[uid].add(g.id)

    def _unindex(self, g: LiveGame | None) -> None:
        """Drop the index entries of ``g``, just forgotten (ended, handed over)."""
        if g is None:
            return
        for index, key in [(self._by_chat, g.chat_id), *((self._by_member, u) for u in g.members)]:
            ids = index.get(key)
            if ids is not None:
                ids.discard(g.id)
                if not ids:
                    del index[key]

    def _authoritative(self) -> bool:
        return self.complete and self.owns is None

    def _open_here(self, game_id: int) -> LiveGame | None:
        """The game if it is in memory, open and served here, else None."""
        g = self.games.get(game_id)
        if g is None or (g.state is not None and g.state.over):
            return None
        if self.owns is not None and not self.owns(g.chat_id):
            return None
        return g

    def memory_game_for_chat(self, chat_id: int) -> int | None:
        """Id of the chat's open game among the games in memory served here, or None."""
        ids = self._by_chat.get(chat_id)
        if not ids:
            return None
        for game_id in sorted(ids, reverse=True):
            g = self._open_here(game_id)
            if g is not None and g.chat_id == chat_id:
                return game_id
            ids.discard(game_id)  # ended, forgotten, handed over or moved: stale
        if not ids:
            self._by_chat.pop(chat_id, None)
        return None

    def memory_game_for_user(self, user_id: int) -> int | None:
        """Id of the open game in memory served here that lists the user (the newest), or
        None."""
        ids = self._by_member.get(user_id)
        if not ids:
            return None
        for game_id in sorted(ids, reverse=True):
            g = self._open_here(game_id)
            if g is not None and user_id in g.members:
                return game_id
            ids.discard(game_id)
        if not ids:
            self._by_member.pop(user_id, None)
        return None

    def chat_moved(self, old: int, new: int) -> None:
        """A group became a supergroup (``Storage.move_chat``): its games in memory follow."""
        for game_id in list(self._by_chat.pop(old, ())):
            g = self.games.get(game_id)
            if g is not None and g.chat_id == old:
                g.chat_id = new
                self._by_chat[new].add(game_id)

    async def game_for_chat(self, chat_id: int) -> int | None:
        """Id of the chat's lobby or running game, or None: from memory when it knows
        (module docstring), else one query."""
        game_id = self.memory_game_for_chat(chat_id)
        if game_id is not None or self._authoritative():
            return game_id
        rec = await self.storage.active_game_for_chat(chat_id)
        return rec.id if rec else None

    async def game_for_user(self, user_id: int) -> int | None:
        """Id of the lobby or running game the user plays or hosts (``game_players``), or
        None: from memory when it knows (module docstring), else one query."""
        game_id = self.memory_game_for_user(user_id)
        if game_id is not None or self._authoritative():
            return game_id
        return await self.storage.active_game_for_user(user_id)
