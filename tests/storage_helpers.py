"""What the storage's tests share: a supergroup and users with big ids, and a new game."""

from __future__ import annotations

from typing import Any

from bot.storage import Storage

SUPERGROUP = -1001234567890123  # |id| > 2**40, like real supergroup ids


BIG_USER = 2**62 + 12345


OTHER_USER = 2**41 + 7


async def new_game(storage: Storage, chat_id: int = SUPERGROUP, **overrides) -> int:
    args: dict[str, Any] = {"ruleset": "classic", "creator_id": BIG_USER, "locale": "ru",
                            "settings": {}, "seed": 42}
    args.update(overrides)
    return await storage.create_game(chat_id, **args)
