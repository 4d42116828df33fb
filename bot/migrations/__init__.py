"""Alembic migrations of the mafia-bot schema, driven from code (no alembic.ini).

* :func:`alembic_config` builds the Alembic :class:`~alembic.config.Config`.
* :func:`run_migrations` runs an Alembic command on an existing *sync* connection;
  from asyncio use ``await async_conn.run_sync(run_migrations)``.
  :meth:`bot.storage.Storage.start` does exactly that with ``upgrade head``.
* ``python -m bot.migrations <alembic args>`` is the Alembic command line for
  developers (``revision --autogenerate -m "..."``, ``history``, ``downgrade -1``),
  against ``DATABASE_URL``.

``env.py`` wraps every run in one transaction (SQLite DDL is transactional too), on
PostgreSQL under an advisory lock so that several workers starting at once migrate
one after another, and on SQLite with foreign keys switched off while tables are
rebuilt (batch mode), checked before commit.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from alembic.config import Config
    from sqlalchemy.engine import Connection

__all__ = ["MIGRATIONS_DIR", "alembic_config", "run_migrations"]

#: Folder holding ``env.py`` and ``versions/``.
MIGRATIONS_DIR = Path(__file__).resolve().parent


def alembic_config(connection: Connection | None = None, url: str | None = None) -> Config:
    """An Alembic Config for this package's scripts.

    ``connection``: a sync SQLAlchemy connection (e.g. the one ``AsyncConnection.run_sync``
    passes) that ``env.py`` uses instead of connecting itself. ``url``: the async
    database URL ``env.py`` connects to when no connection is given (command line use).
    """
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.set_main_option("version_path_separator", "os")
    if url is not None:
        # ConfigParser interpolation treats '%' specially.
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def run_migrations(connection: Connection, command: str = "upgrade", revision: str = "head") -> None:
    """Run ``alembic <command> <revision>`` (``upgrade``/``downgrade``) on ``connection``.

    ``connection`` must not be inside a transaction: ``env.py`` opens its own, so that it
    can switch SQLite foreign keys off beforehand. Raises whatever Alembic or the
    database raise (e.g. :class:`alembic.util.CommandError` for an unknown revision).
    """
    from alembic import command as alembic_command

    if connection.in_transaction():
        raise RuntimeError("run_migrations() needs a connection outside a transaction")
    action = {"upgrade": alembic_command.upgrade, "downgrade": alembic_command.downgrade}[command]
    action(alembic_config(connection=connection), revision)
