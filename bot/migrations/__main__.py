"""``python -m bot.migrations ARGS``: the Alembic command line for this project.

Examples::

    python -m bot.migrations current
    python -m bot.migrations revision --autogenerate -m "add column x"
    python -m bot.migrations upgrade head

The database is ``DATABASE_URL`` from the environment or ``.env`` (default
``sqlite+aiosqlite:///mafia.db``); ``BOT_TOKEN`` is not needed.
"""

from __future__ import annotations

import logging
import sys

from alembic.config import CommandLine
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.migrations import alembic_config


class _DatabaseSettings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")
    database_url: str = "sqlite+aiosqlite:///mafia.db"


def main(argv: list[str] | None = None) -> None:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    cli = CommandLine(prog="python -m bot.migrations")
    options = cli.parser.parse_args(argv)
    if not hasattr(options, "cmd"):
        cli.parser.error("too few arguments")
    config = alembic_config(url=_DatabaseSettings().database_url)
    config.cmd_opts = options
    cli.run_cmd(config, options)


if __name__ == "__main__":
    main(sys.argv[1:])
