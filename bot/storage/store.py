"""The core of :class:`bot.storage.Storage`: the connection (SQLite or PostgreSQL, the migrations
at start), the games, their status and deadlines.  The command log is in ``log.py``, the players
and the chat settings in ``people.py``, the history in ``history.py``."""

from __future__ import annotations

import asyncio
import logging
import tempfile
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.migrations import run_migrations
from bot.storage.engine import BEGIN_IMMEDIATE, create_engine, migration_lock
from bot.storage.fencing import Fence, StaleEpoch, bump_epochs, stale_fences
from bot.storage.group_commit import ENTERED_FROM as _ENTERED_FROM
from bot.storage.group_commit import FINAL, GroupCommit, release_game
from bot.storage.group_commit import stamps as _stamps
from bot.storage.models import (
    ACTIVE_STATUSES,
    GAME_STATUSES,
    ChatSettingsRow,
    Game,
    GameLogEntry,
    utcnow,
)
from bot.storage.records import (
    ActiveGameExists,
    GameNotFound,
    GameRecord,
    StatusError,
)

__all__ = ["Storage"]

log = logging.getLogger(__name__)

games = Game.__table__
game_log = GameLogEntry.__table__
chat_settings = ChatSettingsRow.__table__

def _check_status(game_id: int, status: str) -> None:
    if status not in GAME_STATUSES:
        raise StatusError(game_id, None, status)


def _is_active_chat_violation(error: IntegrityError) -> bool:
    text = str(error.orig)
    return "uq_games_active_chat" in text or "games.chat_id" in text


class Storage:
    """The bot's database. Create with a SQLAlchemy async URL, ``await start()`` before use,
    ``await close()`` at shutdown. Safe for concurrent use by many coroutines and, on
    PostgreSQL, by several processes.

    An in-memory SQLite URL (``sqlite+aiosqlite://`` or ``...///:memory:``) gets a
    temporary database file instead, deleted by :meth:`close` (a true ``:memory:``
    database would be one connection shared by every coroutine, i.e. one transaction).
    ``engine_options`` go to :func:`create_engine`.
    """

    def __init__(self, url: str, **engine_options: Any) -> None:
        self.url = url
        self._engine_options = engine_options
        self._engine: AsyncEngine | None = None
        self._writer: AsyncEngine | None = None
        self._tmpdir: tempfile.TemporaryDirectory[str] | None = None
        self._serial: asyncio.Lock | None = None
        self._group = GroupCommit(self._write, lambda: self.engine)
        #: chat id -> (monotonic time read, its settings): ``PeopleStorage.get_chat_settings``
        self._chat_settings: dict[int, tuple[float, Any]] = {}
        self._settings_epoch = 0  #: moved on by every write of chat settings
        self._game_chats: dict[int, int] = {}  #: game id -> chat id (``game_chat``)
        #: many workers (issue 12): ``settings_owned(chat_id)`` is True while this process
        #: serves the chat (``ShardWorker.owns``), whose settings it may then cache; None: one
        #: process, which writes every chat's settings.
        self.settings_owned: Callable[[int], bool] | None = None
        #: ``listener(old_chat_id, new_chat_id)`` after :meth:`move_chat` (e.g. the games held
        #: in memory follow their chat: ``GameService.chat_moved``)
        self.chat_moved_listeners: list[Callable[[int, int], None]] = []

    def _effective_url(self) -> str:
        parsed = make_url(self.url)
        if parsed.get_backend_name() != "sqlite" or parsed.database not in (None, "", ":memory:"):
            return self.url
        self._tmpdir = tempfile.TemporaryDirectory(prefix="mafia-bot-")
        database = str(Path(self._tmpdir.name) / "mafia.db")
        return parsed.set(database=database).render_as_string(hide_password=False)

    # -- lifecycle ------------------------------------------------------------------------

    async def start(self) -> None:
        """Connect and bring the schema to the newest Alembic revision (``upgrade head``).

        Raises SQLAlchemy/driver errors when the database is unreachable, and Alembic's
        errors when the database has a revision this code does not know.
        """
        if self._engine is not None:
            return
        engine = create_engine(self._effective_url(), **self._engine_options)
        try:
            # Alembic keeps its running context in module globals: one migration per
            # process at a time. (Other processes are held off by env.py's locks.)
            async with migration_lock(), engine.connect() as connection:
                await connection.run_sync(run_migrations)
        except BaseException:
            await engine.dispose()
            self._drop_tmpdir()
            raise
        self._engine = engine
        self._writer = engine.execution_options(**{BEGIN_IMMEDIATE: True})
        self._serial = asyncio.Lock() if engine.dialect.name == "sqlite" else None
        log.info("storage ready: %s", make_url(self.url).render_as_string(hide_password=True))

    async def close(self) -> None:
        """Dispose of the connection pool (and an in-memory database). May be started again."""
        if self._engine is not None:
            await self.drain()
            await self._engine.dispose()
        self._engine = self._writer = None
        self._drop_tmpdir()

    if TYPE_CHECKING:  # defined by the parts mixed into bot.storage.Storage
        async def drain(self) -> None:
            """Wait for the queued log appends (``LogStorage.drain``, log.py)."""

        def forget_chat_settings(self, chat_id: int | None = None) -> None:
            """Drop cached chat settings (``PeopleStorage.forget_chat_settings``, people.py)."""

    def _drop_tmpdir(self) -> None:
        if self._tmpdir is not None:
            self._tmpdir.cleanup()
            self._tmpdir = None

    @property
    def engine(self) -> AsyncEngine:
        """The started engine; ``RuntimeError`` before :meth:`start`."""
        if self._engine is None:
            raise RuntimeError("Storage.start() has not been awaited")
        return self._engine

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[AsyncConnection]:
        async with self.engine.connect() as connection:
            yield connection

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[AsyncConnection]:
        self.engine  # noqa: B018 - raises before start()
        assert self._writer is not None
        if self._serial is None:
            async with self._writer.begin() as connection:
                yield connection
            return
        # SQLite has one writer at a time: queue writers here instead of letting them spin on
        # the database lock (measured: p99 of a command 1,025 ms -> 363 ms under 20 games).
        async with self._serial, self._writer.begin() as connection:
            yield connection

    # -- games ----------------------------------------------------------------------------

    async def create_game(
        self, chat_id: int, ruleset: str, creator_id: int, locale: str, settings: dict[str, Any], seed: int
    ) -> int:
        """Insert a game in status ``lobby`` and return its id.

        Raises :class:`ActiveGameExists` when the chat already has a lobby or running game
        (enforced by a unique index, so of two concurrent calls exactly one wins).
        """
        try:
            async with self._write() as connection:
                result = await connection.execute(
                    insert(games).values(
                        chat_id=chat_id, ruleset=ruleset, status="lobby", locale=locale,
                        settings=settings, seed=seed, creator_id=creator_id, ui={}, log_len=0,
                    )
                )
        except IntegrityError as error:
            if _is_active_chat_violation(error):
                raise ActiveGameExists(chat_id) from None
            raise
        key = result.inserted_primary_key
        assert key is not None  # an INSERT of one row
        return int(key[0])

    async def get_game(self, game_id: int) -> GameRecord | None:
        """The game with this id, or None."""
        async with self._read() as connection:
            row = (await connection.execute(select(games).where(games.c.id == game_id))).first()
        return None if row is None else GameRecord(**row._mapping)

    async def active_game_for_chat(self, chat_id: int) -> GameRecord | None:
        """The chat's lobby or running game, or None."""
        query = select(games).where(games.c.chat_id == chat_id, games.c.status.in_(ACTIVE_STATUSES))
        async with self._read() as connection:
            row = (await connection.execute(query)).first()
        return None if row is None else GameRecord(**row._mapping)

    async def active_games(self) -> list[GameRecord]:
        """Every lobby or running game, oldest first (for re-arming timers at start-up)."""
        query = select(games).where(games.c.status.in_(ACTIVE_STATUSES)).order_by(games.c.id)
        async with self._read() as connection:
            rows = (await connection.execute(query)).all()
        return [GameRecord(**row._mapping) for row in rows]

    async def active_game_chats(self) -> list[tuple[int, int]]:
        """``(game_id, chat_id)`` of every lobby or running game (light: many workers sweep
        for games they serve but do not hold, bot/cluster/worker.py)."""
        query = select(games.c.id, games.c.chat_id).where(games.c.status.in_(ACTIVE_STATUSES))
        async with self._read() as connection:
            return [(int(r[0]), int(r[1])) for r in (await connection.execute(query)).all()]

    async def finished_games(
        self, chat_id: int, offset: int = 0, limit: int = 10, *, include_cancelled: bool = False
    ) -> list[GameRecord]:
        """A page of the chat's ended games, most recently finished first."""
        statuses = ("finished", "cancelled") if include_cancelled else ("finished",)
        query = (
            select(games)
            .where(games.c.chat_id == chat_id, games.c.status.in_(statuses))
            .order_by(games.c.finished_at.desc(), games.c.id.desc())
            .offset(offset)
            .limit(limit)
        )
        async with self._read() as connection:
            rows = (await connection.execute(query)).all()
        return [GameRecord(**row._mapping) for row in rows]

    async def count_finished_games(self, chat_id: int, *, include_cancelled: bool = False) -> int:
        """How many games :meth:`finished_games` can page through."""
        statuses = ("finished", "cancelled") if include_cancelled else ("finished",)
        query = select(func.count()).where(games.c.chat_id == chat_id, games.c.status.in_(statuses))
        async with self._read() as connection:
            return int((await connection.execute(query)).scalar_one())

    async def set_status(self, game_id: int, status: str, winner: str | None = None) -> None:
        """Change the game's status; ``running`` stamps ``started_at``, ``finished``/``cancelled``
        stamp ``finished_at`` (first time only). ``winner`` is stored when given.

        Raises :class:`StatusError` for a forbidden change (see ``_ENTERED_FROM``: finished
        and cancelled are final, running never returns to lobby), :class:`GameNotFound`.
        """
        _check_status(game_id, status)
        values = _stamps(status, utcnow())
        if winner is not None:
            values["winner"] = winner
        async with self._write() as connection:
            result = await connection.execute(
                update(games)
                .where(games.c.id == game_id, games.c.status.in_(_ENTERED_FROM[status]))
                .values(**values)
            )
            if result.rowcount == 0:
                current = await self._status(connection, game_id)
                raise StatusError(game_id, current, status)
            if status in FINAL:
                await release_game(connection, game_id)

    async def set_deadline(self, game_id: int, timer_seq: int | None, deadline_at: datetime | None,
                           fence: Fence | None = None) -> None:
        """Store (or clear, with None) the game's pending timer: its sequence number and
        aware UTC deadline. Raises :class:`GameNotFound`, ``ValueError`` for a naive datetime,
        :class:`~bot.storage.fencing.StaleEpoch` for a stale ``fence`` (many workers).
        """
        if deadline_at is not None and deadline_at.tzinfo is None:
            raise ValueError("deadline_at must be timezone-aware")
        async with self._write() as connection:
            if fence is not None and await stale_fences(connection, [fence]):
                raise StaleEpoch(*fence)
            result = await connection.execute(
                update(games).where(games.c.id == game_id)
                .values(timer_seq=timer_seq, deadline_at=deadline_at)
            )
            if result.rowcount == 0:
                raise GameNotFound(game_id)

    async def take_shards(self, shards: set[int]) -> dict[int, int]:
        """A worker takes ``shards`` over (many workers, issue 19): their fencing epochs move
        on (:func:`bot.storage.fencing.bump_epochs`, after the writes in progress under the old
        ones). Returns shard -> this worker's epoch."""
        async with self._write() as connection:
            return await bump_epochs(connection, shards)

    @property
    def on_stale(self) -> Callable[[set[Fence]], None] | None:
        """``on_stale(fences)``: writes under these ``(shard, epoch)`` were refused as stale
        (issue 19)."""
        return self._group.on_stale

    @on_stale.setter
    def on_stale(self, hook: Callable[[set[Fence]], None] | None) -> None:
        self._group.on_stale = hook

    async def update_ui(self, game_id: int, ui: dict[str, Any]) -> dict[str, Any]:
        """Merge ``ui`` into the game's presentation state (a key with value None is removed)
        and return the merged dict. Raises :class:`GameNotFound`.
        """
        async with self._write() as connection:
            current = (
                await connection.execute(select(games.c.ui).where(games.c.id == game_id).with_for_update())
            ).scalar_one_or_none()
            if current is None:
                raise GameNotFound(game_id)
            merged = {**current, **ui}
            merged = {key: value for key, value in merged.items() if value is not None}
            await connection.execute(update(games).where(games.c.id == game_id).values(ui=merged))
        return merged

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> int:
        """Re-key a chat after a group became a supergroup: its games and its settings
        (which replace any the new id already has). Returns the number of games moved.
        Raises :class:`ActiveGameExists` if both chats have an active game.
        """
        self.forget_chat_settings()
        self._game_chats.clear()
        try:
            async with self._write() as connection:
                moved = await connection.execute(
                    update(games).where(games.c.chat_id == old_chat_id).values(chat_id=new_chat_id)
                )
                old_settings = select(chat_settings.c.chat_id).where(chat_settings.c.chat_id == old_chat_id)
                if (await connection.execute(old_settings)).first() is not None:
                    await connection.execute(
                        delete(chat_settings).where(chat_settings.c.chat_id == new_chat_id))
                    await connection.execute(
                        update(chat_settings)
                        .where(chat_settings.c.chat_id == old_chat_id)
                        .values(chat_id=new_chat_id, updated_at=utcnow())
                    )
        except IntegrityError as error:
            if _is_active_chat_violation(error):
                raise ActiveGameExists(new_chat_id) from None
            raise
        finally:
            self.forget_chat_settings()
        for listener in self.chat_moved_listeners:
            listener(old_chat_id, new_chat_id)
        return int(moved.rowcount)

    @staticmethod
    async def _status(connection: AsyncConnection, game_id: int) -> str:
        query = select(games.c.status).where(games.c.id == game_id)
        status = (await connection.execute(query)).scalar_one_or_none()
        if status is None:
            raise GameNotFound(game_id)
        return status
