"""Engine factory shared by :class:`bot.storage.Storage` and the Alembic ``env.py``."""

from __future__ import annotations

import asyncio
import json
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from sqlalchemy import Table, event
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

__all__ = ["BEGIN_IMMEDIATE", "SQLITE_BUSY_TIMEOUT_MS", "SQLITE_MIGRATION_BUSY_TIMEOUT_MS", "create_engine",
           "migration_lock", "statement", "upsert"]

#: Execution option: start SQLite transactions of this connection with BEGIN IMMEDIATE.
BEGIN_IMMEDIATE: Final = "mafia_begin_immediate"
#: How long a SQLite connection waits for another writer's lock, milliseconds.
SQLITE_BUSY_TIMEOUT_MS: Final = 10_000
#: How long a SQLite migration waits for another process's migration, milliseconds (workers
#: starting at once on one file migrate one after another; a migration that rebuilds tables
#: on a loaded machine takes longer than a write).
SQLITE_MIGRATION_BUSY_TIMEOUT_MS: Final = 120_000


def create_engine(url: str, **kwargs: Any) -> AsyncEngine:
    """An :class:`AsyncEngine` for ``url`` set up the way :class:`Storage` needs it.

    SQLite: WAL journal, ``foreign_keys=ON``, ``busy_timeout``, and SQLAlchemy-emitted
    ``BEGIN`` (``BEGIN IMMEDIATE`` for connections with the ``mafia_begin_immediate``
    execution option, so read-modify-write transactions never hit SQLITE_BUSY midway).
    The parent folder of a SQLite file is created if missing. ``kwargs`` go to
    :func:`sqlalchemy.ext.asyncio.create_async_engine` (e.g. ``connect_args``).
    """
    parsed = make_url(url)
    sqlite = parsed.get_backend_name() == "sqlite"
    options: dict[str, Any] = {
        "json_serializer": lambda obj: json.dumps(obj, ensure_ascii=False, separators=(",", ":")),
    }
    if not sqlite:
        options["pool_pre_ping"] = True
    options.update(kwargs)
    if sqlite and parsed.database and parsed.database != ":memory:" and not parsed.query.get("uri"):
        Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    engine = create_async_engine(parsed, **options)
    if sqlite:
        _install_sqlite_hooks(engine)
    return engine


def _install_sqlite_hooks(engine: AsyncEngine) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # SQLAlchemy emits BEGIN itself (below)
        cursor = dbapi_connection.cursor()
        try:
            # the busy timeout first: switching a new file to WAL takes a lock another
            # process may hold (several workers starting at once on one file)
            cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
        finally:
            cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(connection: Connection) -> None:
        immediate = connection.get_execution_options().get(BEGIN_IMMEDIATE, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def upsert(engine: AsyncEngine, table: Table) -> Any:
    """``INSERT`` supporting ``on_conflict_do_update`` for the engine's dialect (SQLite, PostgreSQL)."""
    if engine.dialect.name == "postgresql":
        from sqlalchemy.dialects import postgresql

        return postgresql.insert(table)
    from sqlalchemy.dialects import sqlite

    return sqlite.insert(table)


_STATEMENTS: dict[tuple[str, str], Any] = {}


def statement(engine: AsyncEngine, name: str, build: Callable[[AsyncEngine], Any]) -> Any:
    """The statement ``build(engine)`` makes for the engine's dialect, built once per dialect and
    ``name`` and shared (SQLAlchemy statements are immutable). For statements that depend on the
    dialect (an upsert's ``on_conflict_*``), whose building costs ~0.5-1 ms each — the
    ``excluded`` column collection is made anew every time."""
    key = (engine.dialect.name, name)
    built = _STATEMENTS.get(key)
    if built is None:
        built = _STATEMENTS[key] = build(engine)
    return built


_MIGRATION_LOCKS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = (
    weakref.WeakKeyDictionary())


def migration_lock() -> asyncio.Lock:
    """The running event loop's lock serialising Alembic runs within this process."""
    loop = asyncio.get_running_loop()
    lock = _MIGRATION_LOCKS.get(loop)
    if lock is None:
        lock = _MIGRATION_LOCKS[loop] = asyncio.Lock()
    return lock
