"""Alembic environment for mafia-bot (async engines, SQLite and PostgreSQL).

Used in two ways:
* from :func:`bot.migrations.run_migrations`, with a sync connection handed over in
  ``config.attributes["connection"]`` (``AsyncConnection.run_sync``);
* from ``python -m bot.migrations``, connecting to ``sqlalchemy.url`` itself.
"""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy import text
from sqlalchemy.engine import Connection

from bot.storage.engine import BEGIN_IMMEDIATE, SQLITE_BUSY_TIMEOUT_MS, SQLITE_MIGRATION_BUSY_TIMEOUT_MS
from bot.storage.models import Base
from bot.storage.models_tournament import TournamentRow  # noqa: F401 - its tables join Base's metadata

config = context.config
target_metadata = Base.metadata

#: pg_advisory_xact_lock key serialising migrations of concurrent workers ("mafia").
PG_MIGRATION_LOCK = 0x6D61666961


def _sqlite_pragma(connection: Connection, sql: str) -> list[tuple]:
    """Run a PRAGMA on the raw DBAPI connection, outside SQLAlchemy's transaction."""
    dbapi = connection.connection.dbapi_connection
    assert dbapi is not None  # a checked-out connection has its DBAPI connection
    cursor = dbapi.cursor()
    try:
        cursor.execute(sql)
        return list(cursor.fetchall())
    finally:
        cursor.close()


def _configure(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )


def do_run_migrations(connection: Connection) -> None:
    if connection.in_transaction():  # the caller manages the transaction
        _configure(connection)
        with context.begin_transaction():
            context.run_migrations()
        return

    sqlite = connection.dialect.name == "sqlite"
    if sqlite:
        # Batch mode rebuilds tables (copy, drop, rename); with foreign keys on, the
        # drop would cascade into child tables. The pragma is a no-op inside a
        # transaction, hence the raw connection before BEGIN.
        _sqlite_pragma(connection, "PRAGMA foreign_keys=OFF")
        # another process's migration holds the write lock for as long as it runs
        _sqlite_pragma(connection, f"PRAGMA busy_timeout={SQLITE_MIGRATION_BUSY_TIMEOUT_MS}")
        # Take the write lock at BEGIN, so a second process starting at the same time
        # waits and then finds the schema already upgraded (see bot.storage).
        connection.execution_options(**{BEGIN_IMMEDIATE: True})
    try:
        with connection.begin():
            if connection.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": PG_MIGRATION_LOCK})
            _configure(connection)
            context.run_migrations()
            if sqlite:
                broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                if broken:
                    raise RuntimeError(f"migration left dangling foreign keys: {broken[:5]}")
    finally:
        if sqlite:
            _sqlite_pragma(connection, "PRAGMA foreign_keys=ON")
            _sqlite_pragma(connection, f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")


async def run_async_migrations(url: str) -> None:
    from bot.storage.engine import create_engine

    engine = create_engine(url)
    try:
        async with engine.connect() as connection:
            await connection.run_sync(do_run_migrations)
    finally:
        await engine.dispose()


def run_migrations_offline() -> None:
    url = config.get_main_option("sqlalchemy.url")
    context.configure(
        url=url,
        target_metadata=target_metadata,
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
        render_as_batch=bool(url and url.startswith("sqlite")),
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        do_run_migrations(connection)
        return
    url = config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("no connection and no sqlalchemy.url: use bot.migrations.alembic_config(url=...)")
    asyncio.run(run_async_migrations(url))


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
