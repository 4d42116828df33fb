"""Fixtures of the bot-level tests: a started harness on a temporary SQLite database.

Tests that must also run on PostgreSQL take ``db_url`` (tests/fixtures_db.py) and build their
harness with :func:`tests.bot.harness.make_harness` themselves. Deals are deterministic per test.
"""

from __future__ import annotations

import random
import types
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import bot.services.ops
from tests.bot.harness import Harness, make_harness


@pytest.fixture(autouse=True)
def deterministic_deals(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> None:
    """Game seeds (seating and role deal) follow the test's id, so every run plays the same
    games; the bot draws them with ``secrets.randbits``."""
    rng = random.Random(request.node.nodeid)
    monkeypatch.setattr(bot.services.ops, "secrets", types.SimpleNamespace(randbits=rng.getrandbits))


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}"


@pytest.fixture
async def h(sqlite_url: str) -> AsyncIterator[Harness]:
    """A started harness with 7 users and no game yet."""
    harness = await make_harness(sqlite_url, n_users=7)
    try:
        yield harness
    finally:
        await harness.stop()
