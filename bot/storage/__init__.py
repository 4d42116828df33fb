"""Async persistence of games, their command logs, players and chat settings.

The log is the truth (design §3): a game's state is the replay of its commands,
appended with :meth:`Storage.append` before any Telegram side effect. Works on SQLite
(``sqlite+aiosqlite:///file.db``, WAL mode) and PostgreSQL (``postgresql+asyncpg://``).
All datetimes are timezone-aware UTC; all ids are Python ints stored as signed 64-bit
integers (a ``seed`` must fit in -2**63 .. 2**63-1 too).

Usage::

    storage = Storage(settings.database_url)
    await storage.start()          # connects and runs Alembic "upgrade head"
    game_id = await storage.create_game(chat_id, "classic", user_id, "ru", {}, seed)
    await storage.append(game_id, 0, command, events)
    ...
    await storage.close()
"""

from bot.storage.engine import create_engine
from bot.storage.group_commit import PlayerOp
from bot.storage.history import HistoryStorage
from bot.storage.log import LogStorage
from bot.storage.people import PeopleStorage
from bot.storage.records import (
    KEEP,
    ActiveGameExists,
    ChatSettings,
    GameNotFound,
    GameRecord,
    LogConflict,
    PlayerRecord,
    StatusError,
    StorageError,
    UserInAnotherGame,
)
from bot.storage.sheets import PointsRow, PointsTotals, SheetChange, SheetRecord, SheetStorage
from bot.storage.stats import StatsStorage
from bot.storage.store import Storage as _CoreStorage
from bot.storage.tournament_import import TournamentImportStorage
from bot.storage.tournaments import (
    TournamentGame,
    TournamentPlayer,
    TournamentRecord,
    TournamentStorage,
)


class Storage(TournamentImportStorage, TournamentStorage, SheetStorage, HistoryStorage, StatsStorage,
              PeopleStorage, LogStorage, _CoreStorage):
    """The bot's database: the core queries (store.py: games and their log), the players and
    chat settings (people.py), the history (history.py) and its statistics (stats.py), the
    score sheets and their points (sheets.py), the tournaments (tournaments.py) and their
    import (tournament_import.py)."""


__all__ = [
    "KEEP",
    "ActiveGameExists",
    "ChatSettings",
    "GameNotFound",
    "GameRecord",
    "LogConflict",
    "PlayerOp",
    "PlayerRecord",
    "PointsRow",
    "PointsTotals",
    "SheetChange",
    "SheetRecord",
    "StatusError",
    "Storage",
    "StorageError",
    "TournamentGame",
    "TournamentPlayer",
    "TournamentRecord",
    "UserInAnotherGame",
    "create_engine",
]
