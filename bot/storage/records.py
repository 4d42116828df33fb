"""Errors and value types of :mod:`bot.storage` (plain, immutable, no database access)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final

__all__ = [
    "KEEP",
    "ActiveGameExists",
    "ChatSettings",
    "GameNotFound",
    "GameRecord",
    "LogConflict",
    "PlayerRecord",
    "StatusError",
    "StorageError",
    "UserInAnotherGame",
]


class StorageError(Exception):
    """Base class of the errors below."""


class ActiveGameExists(StorageError):
    """The chat already has a game in the lobby or running. ``chat_id``: that chat."""

    def __init__(self, chat_id: int) -> None:
        super().__init__(f"chat {chat_id} already has an active game")
        self.chat_id = chat_id


class LogConflict(StorageError):
    """``seq`` is not the next free position of the game's log (someone else wrote first).

    ``log_len``: the log's length found in the database (the next ``seq`` it accepts).
    """

    def __init__(self, game_id: int, seq: int, log_len: int) -> None:
        super().__init__(f"game {game_id}: cannot append seq {seq}, log has {log_len} entries")
        self.game_id, self.seq, self.log_len = game_id, seq, log_len


class UserInAnotherGame(StorageError):
    """A user joining (or hosting) a game is in another lobby or running game already: a user
    is in at most one active game, whichever worker handles his join (``active_players``'
    primary key, issue 12). ``other_game_id``: that game (None if it ended meanwhile)."""

    def __init__(self, game_id: int, user_id: int, other_game_id: int | None) -> None:
        super().__init__(f"game {game_id}: user {user_id} is in game {other_game_id} already")
        self.game_id, self.user_id, self.other_game_id = game_id, user_id, other_game_id


class GameNotFound(StorageError, LookupError):
    """No game with this ``game_id``."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"game {game_id} not found")
        self.game_id = game_id


class StatusError(StorageError, ValueError):
    """Forbidden status change: unknown status, leaving finished/cancelled, or running -> lobby."""

    def __init__(self, game_id: int, current: str | None, requested: str) -> None:
        super().__init__(f"game {game_id}: status {current!r} cannot become {requested!r}")
        self.game_id, self.current, self.requested = game_id, current, requested


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One row of ``games`` (see :class:`bot.storage.models.Game` for the meaning of each column)."""

    id: int
    chat_id: int
    ruleset: str
    status: str
    locale: str
    settings: dict[str, Any]
    seed: int
    creator_id: int
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    winner: str | None
    timer_seq: int | None
    deadline_at: datetime | None
    ui: dict[str, Any]
    log_len: int


@dataclass(frozen=True, slots=True)
class ChatSettings:
    """A chat's preferences: ``locale`` (None = the bot's default) and game settings ``data``."""

    locale: str | None = None
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """A member of a game: Telegram ``user_id``, display ``name``, ``seat`` (None before the deal)."""

    user_id: int
    name: str
    seat: int | None
    joined_at: datetime


class _Keep:
    """Sentinel type: leave the stored value unchanged."""

    def __repr__(self) -> str:
        return "KEEP"


KEEP: Final = _Keep()
