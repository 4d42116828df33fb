"""The Mini App tests share the bot tests' fixtures: deterministic deals, a SQLite database."""

from tests.bot.conftest import deterministic_deals, sqlite_url  # noqa: F401 - fixtures
