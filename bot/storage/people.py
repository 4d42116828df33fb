"""Players and chat settings of :class:`bot.storage.Storage` (a mixin over the connection of
``store.py``): who sits in which game (``game_players``), which game a user is in, and each
chat's saved language and /settings (``chat_settings``), the latter cached (see
:meth:`PeopleStorage.get_chat_settings`)."""

from __future__ import annotations

import copy
import time
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, select, text
from sqlalchemy.exc import IntegrityError

from bot.db_models import ACTIVE_STATUSES, ActivePlayer, ChatSettingsRow, Game, GamePlayer, utcnow
from bot.storage.engine import table_of, upsert
from bot.storage.records import KEEP, ChatSettings, GameNotFound, PlayerRecord, _Keep

__all__ = ["PeopleStorage"]

if TYPE_CHECKING:  # the mixin runs on the core Storage: its connection, caches and group commit
    from bot.storage.store import Storage as _Core
else:
    _Core = object

games = table_of(Game)
game_players = table_of(GamePlayer)
active_players = table_of(ActivePlayer)
chat_settings = table_of(ChatSettingsRow)
#: seconds a cached chat's settings are trusted with many workers (see ``get_chat_settings``)
SHARED_SETTINGS_TTL = 30.0
#: games whose chat :meth:`PeopleStorage.game_chat` remembers (then it starts over)
GAME_CHATS_KEPT = 100_000


class PeopleStorage(_Core):
    """Player and chat-settings queries; ``self`` is the Storage (``engine``, ``_read``,
    ``_write``)."""

    # -- players --------------------------------------------------------------------------

    async def set_player(self, game_id: int, user_id: int, name: str, seat: int | None = None) -> None:
        """Add the user to the game, or update their name and seat. Raises :class:`GameNotFound`."""
        statement = upsert(self.engine, game_players).values(game_id=game_id, user_id=user_id, name=name,
                                                             seat=seat)
        statement = statement.on_conflict_do_update(
            index_elements=[game_players.c.game_id, game_players.c.user_id],
            set_={"name": statement.excluded.name, "seat": statement.excluded.seat},
        )
        try:
            async with self._write() as connection:
                await connection.execute(statement)
        except IntegrityError:
            raise GameNotFound(game_id) from None

    async def remove_player(self, game_id: int, user_id: int) -> bool:
        """Remove the user from the game; False if they were not in it."""
        async with self._write() as connection:
            result = await connection.execute(
                delete(game_players).where(game_players.c.game_id == game_id,
                                           game_players.c.user_id == user_id)
            )
            await connection.execute(delete(active_players).where(
                active_players.c.game_id == game_id, active_players.c.user_id == user_id))
        return result.rowcount > 0

    async def list_players(self, game_id: int) -> list[PlayerRecord]:
        """The game's players: seated ones by seat, then the rest in join order."""
        query = (
            select(game_players.c.user_id, game_players.c.name, game_players.c.seat, game_players.c.joined_at)
            .where(game_players.c.game_id == game_id)
            .order_by(game_players.c.seat.is_(None), game_players.c.seat, game_players.c.joined_at)
        )
        async with self._read() as connection:
            rows = (await connection.execute(query)).all()
        return [PlayerRecord(**row._mapping) for row in rows]

    async def active_game_for_user(self, user_id: int) -> int | None:
        """Id of a lobby or running game the user is in (the newest if several), or None."""
        query = (
            select(games.c.id)
            .join(game_players, game_players.c.game_id == games.c.id)
            .where(game_players.c.user_id == user_id, games.c.status.in_(ACTIVE_STATUSES))
            .order_by(games.c.id.desc())
            .limit(1)
        )
        async with self._read() as connection:
            return (await connection.execute(query)).scalar_one_or_none()

    async def active_chat_for_user(self, user_id: int) -> tuple[int, str] | None:
        """``(chat_id, status)`` of the game :meth:`active_game_for_user` finds, or None: where
        a private update of a player or host is routed (``bot/cluster/routing.py``). One indexed
        query."""
        query = (
            select(games.c.chat_id, games.c.status)
            .join(game_players, game_players.c.game_id == games.c.id)
            .where(game_players.c.user_id == user_id, games.c.status.in_(ACTIVE_STATUSES))
            .order_by(games.c.id.desc())
            .limit(1)
        )
        async with self._read() as connection:
            row = (await connection.execute(query)).first()
        return None if row is None else (int(row.chat_id), str(row.status))

    async def watched_game_for_user(self, user_id: int) -> tuple[int, int] | None:
        """``(game_id, chat_id)`` of the running game whose ``ui["onlookers"]`` lists the user
        (``bot/onlookers.py``; the newest if several), or None.

        Cost: the onlooker lists live inside each game's ``ui`` JSON, which no index covers, so
        this reads the ``ui`` of every *running* game -- linear in their number. PostgreSQL
        looks for the id in the text first and parses (``jsonb`` containment) only the rows that
        contain it; SQLite runs ``json_each`` per row. Measured with 1,000 running games of
        1 KB ``ui``: 2-6 ms (docs/deployment.md). Ask it only when the cheap lookups (a game id
        in the update, :meth:`active_chat_for_user`) found nothing."""
        if self.engine.dialect.name == "postgresql":
            # the id as text first (no JSON parsing), then the exact test on the few rows left
            listed = text("strpos(CAST(games.ui AS TEXT), :watcher_text) > 0 AND "
                          "(CAST(games.ui AS JSONB) -> 'onlookers') @> "
                          "to_jsonb(CAST(:watcher AS BIGINT))")
        else:
            listed = text("EXISTS (SELECT 1 FROM json_each(games.ui, '$.onlookers') "
                          "WHERE json_each.value = :watcher)")
        query = (
            select(games.c.id, games.c.chat_id)
            .where(games.c.status == "running", listed)
            .order_by(games.c.id.desc())
            .limit(1)
        )
        async with self._read() as connection:
            row = (await connection.execute(
                query, {"watcher": user_id, "watcher_text": str(user_id)})).first()
        return None if row is None else (int(row.id), int(row.chat_id))

    async def game_chat(self, game_id: int) -> int | None:
        """The chat of the game with this id (any status), or None: where an update naming the
        game is routed (``bot/cluster/routing.py``, every private button press with many
        workers). Remembered once found: a game's chat changes only when its group becomes a
        supergroup (:meth:`move_chat` forgets them here; on another worker a remembered route
        sends the update to the old group's owner, which passes it on: ``NotOwner``)."""
        chat_id = self._game_chats.get(game_id)
        if chat_id is not None:
            return chat_id
        query = select(games.c.chat_id).where(games.c.id == game_id)
        async with self._read() as connection:
            chat_id = (await connection.execute(query)).scalar_one_or_none()
        if chat_id is not None:
            if len(self._game_chats) >= GAME_CHATS_KEPT:
                self._game_chats.clear()
            self._game_chats[game_id] = chat_id
        return chat_id

    # -- chat settings --------------------------------------------------------------------

    def _cacheable(self, chat_id: int) -> bool:
        owned = self.settings_owned
        return owned is None or owned(chat_id)

    async def get_chat_settings(self, chat_id: int) -> ChatSettings:
        """The chat's settings; ``ChatSettings(None, {})`` if it never saved any. A copy: the
        caller may change it.

        Served from memory after the first read (issue 11: it was a query per update): only
        :meth:`save_chat_settings` and :meth:`move_chat` write them, and they drop the cached
        entry (the next read fills it again). One process is the only writer. With many
        workers a chat's settings are written by the worker serving its group (``/settings``
        exists only in groups): the cache holds only chats served here
        (``Storage.settings_owned``), is dropped when a shard is handed over
        (:meth:`forget_chat_settings`), and an entry is read again after
        :data:`SHARED_SETTINGS_TTL` seconds (a chat moved to a supergroup by another worker)."""
        if self._cacheable(chat_id):
            hit = self._chat_settings.get(chat_id)
            if hit is not None and (self.settings_owned is None
                                    or time.monotonic() - hit[0] < SHARED_SETTINGS_TTL):
                return _copy(hit[1])
        epoch = self._settings_epoch
        query = select(chat_settings.c.locale, chat_settings.c.data).where(chat_settings.c.chat_id == chat_id)
        async with self._read() as connection:
            row = (await connection.execute(query)).first()
        found = ChatSettings() if row is None else ChatSettings(row.locale, row.data)
        if epoch == self._settings_epoch and self._cacheable(chat_id):  # nothing written since
            self._chat_settings[chat_id] = (time.monotonic(), _copy(found))
        return found

    async def save_chat_settings(
        self, chat_id: int, locale: str | None | _Keep = KEEP, data: dict[str, Any] | _Keep = KEEP
    ) -> ChatSettings:
        """Store the chat's ``locale`` (None = back to the default) and/or replace its ``data``;
        an argument left out keeps its stored value. Returns the settings now stored.
        """
        changes: dict[str, Any] = {"updated_at": utcnow()}
        if not isinstance(locale, _Keep):
            changes["locale"] = locale
        if not isinstance(data, _Keep):
            changes["data"] = dict(data)
        row = {"chat_id": chat_id, "locale": None, "data": {}, **changes}
        statement = upsert(self.engine, chat_settings).values(row)
        statement = statement.on_conflict_do_update(index_elements=[chat_settings.c.chat_id], set_=changes)
        query = select(chat_settings.c.locale, chat_settings.c.data).where(chat_settings.c.chat_id == chat_id)
        self.forget_chat_settings(chat_id)
        try:
            async with self._write() as connection:
                await connection.execute(statement)
                stored = (await connection.execute(query)).one()
        finally:  # a read that began before the commit may have read the old row
            self.forget_chat_settings(chat_id)
        return ChatSettings(stored.locale, stored.data)


def _copy(settings: ChatSettings) -> ChatSettings:
    """A copy of ``settings`` whose ``data`` the caller may change (the cache keeps its own)."""
    return ChatSettings(settings.locale, copy.deepcopy(settings.data))
