"""Is this error the database failing (unreachable, connection lost, pool exhausted)?

Used where a failure must be tried again later rather than dropped: a deadline that fires while
PostgreSQL is away (``GameService.on_deadline``), an AFK clock, a worker's update (issue 12).
"""

from __future__ import annotations

from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout

#: asyncpg raises a refused connection as it is; SQLAlchemy wraps the rest (DBAPIError); a pool
#: with every connection busy raises its own TimeoutError
DATABASE_ERRORS = (DBAPIError, ConnectionError, PoolTimeout)


def database_failure(error: BaseException | None) -> BaseException | None:
    """The database's error in ``error`` or in what it interrupted, else None. A press's answer
    sent in a ``finally`` (aiogram's CallbackAnswerMiddleware) may fail in turn ("query is too
    old" on a second try) and hide the database's error as its ``__context__``; aiohttp's own
    connection errors (Telegram unreachable) are not the database's."""
    from aiohttp import ClientError

    seen = 0
    while error is not None and seen < 10:
        if isinstance(error, DATABASE_ERRORS) and not isinstance(error, ClientError):
            return error
        error, seen = error.__cause__ or error.__context__, seen + 1
    return None
