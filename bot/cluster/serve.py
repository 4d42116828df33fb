"""One webhook worker of many (issue 12): ``python -m bot`` with ``REDIS_URL`` and
``WEBHOOK_URL`` set runs this instead of the single process's webhook server.

The worker's web server (aiohttp, ``WEB_HOST``:``WEB_PORT``, bound with ``SO_REUSEPORT`` so the
workers started by ``WEB_CONCURRENCY`` share one port and the kernel spreads Telegram's
connections over them) answers the webhook with :class:`bot.cluster.inbox.Inbox` and serves the
Mini App; :class:`bot.cluster.worker.ShardWorker` takes its shards and serves their games.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import socket
import sys
from typing import TYPE_CHECKING, Any

from ..storage.redis import redis_client

if TYPE_CHECKING:
    from ..config import Settings

logger = logging.getLogger("bot")


def worker_name(settings: Any) -> str:
    """This worker's id in Redis, the same across its restarts (issue 19: a restarted worker
    wants the very shards it served, so no other game moves): ``WORKER_ID`` plus the worker's
    index when ``WEB_CONCURRENCY`` started several, else the host name and the index (``0``
    for a single process). Two processes on one host not started by one supervisor need a
    ``WORKER_ID`` each."""
    index = os.environ.get("MAFIA_WORKER_INDEX")
    if settings.worker_id:
        return settings.worker_id + (f"-{index}" if index is not None else "")
    return f"{socket.gethostname()}-{index or 0}"


def _name_the_logs(name: str) -> None:
    """Every log line of this worker names it (many workers write to one journal)."""
    for handler in logging.getLogger().handlers:
        fmt = getattr(handler.formatter, "_fmt", None) or "%(levelname)s %(name)s: %(message)s"
        if "[worker " not in fmt:
            handler.setFormatter(logging.Formatter(
                fmt.replace("%(levelname)s", f"%(levelname)s [worker {name}]", 1)))


async def serve_cluster(app: Any, settings: Settings, allowed: list[str]) -> None:
    """Serve until cancelled: the webhook (queueing), the Mini App, this worker's shards.
    ``app``: the :class:`bot.app.App` (typed ``Any``: the layer above this one); ``settings``
    must have ``REDIS_URL`` (``Settings.clustered``; an ``AssertionError`` otherwise)."""
    from aiohttp import web

    from .agreement import Disagreement, agree
    from .inbox import Inbox
    from .miniapp import attach
    from .worker import ShardWorker

    assert settings.redis_url is not None, "many workers need REDIS_URL (Settings.clustered)"
    redis = redis_client(settings.redis_url)
    name = worker_name(settings)
    _name_the_logs(name)
    try:
        await agree(redis, settings.redis_prefix, settings, ttl=settings.lease_seconds * 3)
    except Disagreement as error:
        await redis.aclose()
        print(f"mafia-bot: {error}", file=sys.stderr)
        raise SystemExit(2) from None  # a configuration error: the supervisor stops too
    secret = settings.webhook_secret.get_secret_value() if settings.webhook_secret else None
    inbox = Inbox(redis, app.storage, prefix=settings.redis_prefix, shards=settings.shards,
                  secret=secret)
    worker = ShardWorker(app, redis, inbox, prefix=settings.redis_prefix,
                         shards=settings.shards, worker=name, ttl=settings.lease_seconds)
    if "MAFIA_WORKER_INDEX" in os.environ:  # started together by the supervisor
        worker.leases.expect = settings.web_concurrency
    set_workers = getattr(app.sender.limiter, "set_workers", None)
    if set_workers is not None:  # without Redis, the workers' share of Telegram's 30 calls/s
        worker.leases.on_live = set_workers
    relay = attach(app, worker, redis, prefix=settings.redis_prefix, shards=settings.shards)
    if relay is not None:  # the Mini App answers on every worker (bot/cluster/miniapp.py)
        await relay.start()
    await worker.start()
    web_app = web.Application()
    web_app.router.add_post(settings.webhook_path, inbox.handle)
    if app.webapp is not None:
        from ..webapp import setup as setup_webapp

        setup_webapp(web_app, app.webapp, settings.bot_token.get_secret_value())
    runner = web.AppRunner(web_app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, settings.web_host, settings.web_port, reuse_port=True)
    await site.start()
    if os.environ.get("MAFIA_WORKER_INDEX", "0") == "0":  # one worker tells Telegram
        await app.bot.set_webhook(settings.webhook_endpoint, secret_token=secret,
                                  allowed_updates=allowed)
    logger.info("webhook server on %s:%s (worker %s of many, Redis %s, %d shards)",
                settings.web_host, settings.web_port, name, settings.safe_redis_url,
                settings.shards)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):  # a graceful stop hands the shards over
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(signum, stop.set)
    try:
        await stop.wait()
        logger.info("worker %s stopping on a signal: handing its shards over", name)
    finally:
        await runner.cleanup()  # no new updates are taken in ...
        await inbox.close()  # (those held while Redis was down get a last chance)
        await worker.stop()  # ... and the shards go to the other workers
        if relay is not None:
            await relay.stop()
        await redis.aclose()
