"""Redis connections: one client recipe for every user of Redis (the cluster's streams and
leases, the shared rate limits), plain ``redis://`` or through Sentinel (``redis+sentinel://``,
issue 19; docs/deployment.md)."""

from __future__ import annotations

from typing import Any

from bot.config import parse_sentinel_url


def redis_client(url: str, **options: Any) -> Any:
    """A ``redis.asyncio.Redis`` for ``url`` answering str (short timeouts: a worker must notice
    an outage within its lease time); a ``redis+sentinel://`` URL (``bot.config.SentinelURL``)
    gives a client of the master its Sentinels name now, following a failover. ``options``
    replace the defaults (``decode_responses``, the timeouts)."""
    from redis.asyncio import Redis

    options = {"decode_responses": True, "socket_timeout": 3.0, "socket_connect_timeout": 3.0,
               "health_check_interval": 10, **options}
    sentinel = parse_sentinel_url(url)
    if sentinel is None:
        return Redis.from_url(url, **options)
    from redis.asyncio.sentinel import Sentinel

    auth = {"username": sentinel.username, "password": sentinel.password}
    timeouts = {k: options[k] for k in ("socket_timeout", "socket_connect_timeout")}
    sentinels = Sentinel(list(sentinel.sentinels), sentinel_kwargs={**auth, **timeouts},
                         **timeouts)
    return sentinels.master_for(sentinel.service, db=sentinel.db, ssl=sentinel.ssl,
                                username=sentinel.username, password=sentinel.password,
                                **options)
