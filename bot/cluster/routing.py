"""Provisional (the routing branch brings the real one): the route chat of an update."""

from __future__ import annotations

import zlib


def shard_of(chat_id: int, shards: int) -> int:
    return zlib.crc32(str(chat_id).encode()) % shards


async def route_chat(update: dict, storage) -> int:
    for key in ("message", "edited_message", "my_chat_member", "chat_member"):
        if key in update:
            chat = update[key]["chat"]
            if chat["type"] != "private":
                return chat["id"]
            user = update[key]["from"]["id"]
            break
    else:
        if "callback_query" in update:
            cq = update["callback_query"]
            msg = cq.get("message")
            if msg and msg["chat"]["type"] != "private":
                return msg["chat"]["id"]
            user = cq["from"]["id"]
        else:
            return 0
    game_id = await storage.active_game_for_user(user)
    if game_id is not None:
        rec = await storage.get_game(game_id)
        if rec is not None:
            return rec.chat_id
    return user
