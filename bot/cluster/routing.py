"""The route chat of an update (issue 12: many workers): which chat's shard must handle it.

Every worker's webhook computes :func:`route_chat` for the raw update JSON Telegram posted and
hands the update to the owner of ``shard_of(route_chat(...), SHARDS)``. The owner of a group
chat's shard holds that chat's game in memory, so an update must be routed to the group of the
game it concerns:

* an update *in* a group or supergroup (a message, an edited message, a service message -- a
  ``migrate_to_chat_id`` message comes from the old group, so the old chat id --, a callback
  query on a group message, ``my_chat_member``, ``chat_member``, a join request...): that chat.
  Any other non-private chat (a channel) is its own route too;
* an update in a private chat (or with a user and no chat, e.g. an inline query): the group of
  the game it concerns, found in this order --

  1. a game id in the update: the deep link ``/start <kind>_<game>`` (``join``, ``host``:
     ``bot/handlers/lobby.py``; ``spectate``: ``bot/handlers/onlookers.py``; ``knew``,
     ``export``: ``bot/handlers/history.py``), or a button's callback data naming a game
     (``Act`` and ``LobbyAct`` ``g``, ``Hist`` ``g`` when not 0: ``bot/ui/callbacks.py``);
  2. ``/unspectate``: the game the user watches as an onlooker first;
  3. the user's lobby or running game as a player or host (``Storage.active_chat_for_user``)
     -- but a plain text of a user whose game is still a lobby goes to the *running* game he
     watches, if any: the onlookers' chat takes it (``bot/handlers/onlookers.py``);
  4. the running game he watches as an onlooker (``Storage.watched_game_for_user``, the
     costly lookup: it reads every running game's ``ui``);
  5. else the user's own id: no game is concerned, any worker may answer (``/history`` in a
     private chat, ``/me``, ``/help``).

  A callback query on an inline message (``inline_message_id``, no message): the user's id.
* nothing to route on (an update kind without a chat or a user): 0.

A game id that names no game is no route: the lookups go on (the handler then answers "this game
does not exist any more" wherever it runs).
"""

from __future__ import annotations

import zlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..storage import Storage

__all__ = ["route_chat", "shard_of", "GAME_LINKS"]

#: ``/start <kind>_<game id>`` payloads that name a game (every ``deep_link(...)`` of bot/).
GAME_LINKS = ("join", "host", "spectate", "knew", "export")
#: Callback data prefixes (``bot/ui/callbacks.py``) -> the position of the game id among the
#: ``:``-separated fields after the prefix (``Act``: a:<g>:<s>:<a>:<t>; ``LobbyAct``: l:<g>:<a>:<v>;
#: ``Hist``: h:<a>:<g>:<p>:<b>).
GAME_CALLBACKS = {"a": 0, "l": 0, "h": 1}
#: The largest id the database holds (BIGINT); a longer number is no game of ours.
MAX_ID = 2**63 - 1


def shard_of(chat_id: int, shards: int) -> int:
    """The shard (0 .. ``shards`` - 1) that owns ``chat_id``: ``crc32(str(chat_id)) % shards``,
    the same on every worker and across restarts (unlike ``hash()``)."""
    return zlib.crc32(str(chat_id).encode()) % shards


async def route_chat(update: dict[str, Any], storage: Storage) -> int:
    """The chat id whose shard must handle ``update`` (the Bot API update JSON, as posted to
    the webhook); ``storage`` is :class:`bot.storage.Storage`. See the module docstring for the
    rules. Never raises for a malformed update (0 or the user's id); database errors pass."""
    body = _body(update)
    if body is None:
        return 0
    button = "chat_instance" in body  # a callback query: its message (if any) holds the chat
    message = body.get("message") if button else body
    message = message if isinstance(message, dict) else {}
    chat = message.get("chat") if isinstance(message.get("chat"), dict) else None
    if chat is not None and chat.get("type") != "private" and _int(chat.get("id")) is not None:
        return chat["id"]
    user = body.get("from") or body.get("user")
    user_id = _int(user.get("id")) if isinstance(user, dict) else None
    if user_id is None and chat is not None:
        user_id = _int(chat.get("id"))  # a private chat's id is its user's
    if user_id is None:
        return 0
    if button and not message:
        return user_id  # a button on an inline message: no chat, no game of ours
    game_id = _game_in(body, button)
    if game_id is not None:
        chat_id = await storage.game_chat(game_id)
        if chat_id is not None:
            return int(chat_id)
    raw_text = message.get("text")
    text = raw_text if not button and isinstance(raw_text, str) else ""
    command = _command(text)
    if command == "unspectate":
        watched = await storage.watched_game_for_user(user_id)
        if watched is not None:
            return watched[1]
    active = await storage.active_chat_for_user(user_id)
    if active is not None:
        chat_id, status = active
        if status == "running" or command is not None or not text:
            return chat_id
        watched = await storage.watched_game_for_user(user_id)  # a lobby player who watches
        return watched[1] if watched is not None else chat_id
    watched = await storage.watched_game_for_user(user_id)
    return watched[1] if watched is not None else user_id


def _body(update: dict[str, Any]) -> dict[str, Any] | None:
    """The update's one payload object (``message``, ``callback_query``, ...), or None."""
    if not isinstance(update, dict):
        return None
    for key, value in update.items():
        if key != "update_id" and isinstance(value, dict):
            return value
    return None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _command(text: str) -> str | None:
    """``/start@bot x`` -> 'start'; a text that is no command -> None."""
    if not text.startswith("/"):
        return None
    return text[1:].split(maxsplit=1)[0].partition("@")[0].lower() if len(text) > 1 else ""


def _game_id(raw: str) -> int | None:
    return int(raw) if raw.isascii() and raw.isdigit() and 0 < int(raw) <= MAX_ID else None


def _game_in(body: dict[str, Any], button: bool) -> int | None:
    """The game id an update names: a button's callback data or a deep link's payload."""
    if button:
        data = body.get("data")
        if not isinstance(data, str):
            return None
        prefix, _sep, rest = data.partition(":")
        position = GAME_CALLBACKS.get(prefix)
        fields = rest.split(":")
        if position is None or len(fields) <= position:
            return None
        return _game_id(fields[position])
    text = body.get("text")
    if not isinstance(text, str) or _command(text) != "start":
        return None
    parts = text.split(maxsplit=1)
    kind, _sep, raw = (parts[1].strip() if len(parts) > 1 else "").partition("_")
    return _game_id(raw) if kind in GAME_LINKS else None
