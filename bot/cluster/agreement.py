"""Every worker of one bot must agree on what cannot differ between them (issue 12).

(``WEBHOOK_URL`` is not compared: workers behind one load balancer share it, but workers that
each publish their own address, e.g. in the tests, are just as valid.)

A worker whose ``SHARDS`` differs would never serve some shards (their updates would wait
forever); one whose ``WEBHOOK_SECRET`` differs would register its secret with Telegram and make
every other worker refuse every update; one on another database would serve games nobody else
sees. The first worker to start writes these settings into ``<prefix>config`` (a Redis hash; the
secret and the database only as fingerprints); every later one compares and refuses to start,
with one line saying which setting differs. The hash expires ``ttl`` seconds after the last
worker's heartbeat refreshed it, so changing such a setting means stopping every worker first.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from sqlalchemy.engine import make_url

if TYPE_CHECKING:
    from redis.asyncio import Redis

    from ..config import Settings


class Disagreement(Exception):
    """A setting differs from the other workers'; the message names it (never its value)."""


def fingerprint(text: str | None) -> str:
    return hashlib.sha256((text or "").encode()).hexdigest()[:16]


def shared_settings(settings: Settings) -> dict[str, str]:
    """The settings every worker must share, as stored (secrets as fingerprints)."""
    url = make_url(settings.database_url)
    database = f"{url.drivername}://{url.host}:{url.port}/{url.database}"
    secret = settings.webhook_secret.get_secret_value() if settings.webhook_secret else ""
    return {"SHARDS": str(settings.shards), "WEBHOOK_SECRET": fingerprint(secret),
            "DATABASE_URL": fingerprint(database)}


async def agree(redis: Redis, prefix: str, settings: Settings, ttl: float) -> None:
    """Store or compare :func:`shared_settings`; raises :class:`Disagreement`."""
    key = f"{prefix}config"
    mine = shared_settings(settings)
    async with redis.pipeline(transaction=True) as pipe:
        for name, value in mine.items():
            pipe.hsetnx(key, name, value)
        pipe.pexpire(key, int(ttl * 1000))
        pipe.hgetall(key)
        *_, theirs = await pipe.execute()
    differ = sorted(name for name, value in mine.items() if theirs.get(name) != value)
    if differ:
        raise Disagreement(
            f"{', '.join(differ)} differ(s) from the other workers of this bot (REDIS_PREFIX "
            f"{prefix!r}); every worker must use the same values — stop them all to change one")
