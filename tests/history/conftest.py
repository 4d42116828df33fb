"""Fixtures of the history tests: ``sqlite_url`` as in tests/bot (``database``/``storage``/
``db_url`` come from tests/fixtures_db.py for SQLite and, when configured, PostgreSQL)."""

from tests.bot.conftest import sqlite_url  # noqa: F401
