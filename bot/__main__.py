"""``python -m bot``: run the bot (long polling, or a webhook server when WEBHOOK_URL is set)."""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import logging
import os
import re
import signal
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from .config import configure_logging, load_settings_or_exit

if TYPE_CHECKING:  # imported where used: `python -m bot` answers queued presses before aiogram loads
    from aiohttp import web

    from .app import App
    from .config import Settings

logger = logging.getLogger("bot")
STARTED = time.monotonic()  #: when the process began importing the bot (start-up is timed from here)


TOKEN_RE = re.compile(r"^\d+:[A-Za-z0-9_-]+$")  # the same check as bot.config


def ask_token_once(env_file: Path = Path(".env")) -> None:
    """First run at a terminal without a token: ask for it and keep it in ``.env`` (mode 600).

    Without a terminal (CI, Procfile) nothing is asked; the settings loader then explains what
    is missing and exits 2.  The token is never echoed or logged.
    """
    if os.environ.get("BOT_TOKEN", "").strip() or not sys.stdin.isatty():
        return
    text = env_file.read_text(encoding="utf-8") if env_file.exists() else ""
    if re.search(r"^BOT_TOKEN=\S+", text, re.M):
        return
    print("No BOT_TOKEN yet. Create a bot with @BotFather (/newbot) and paste its token here.")
    for _attempt in range(3):
        token = getpass.getpass("Bot token (hidden): ").strip()
        if TOKEN_RE.match(token):
            break
        print("That does not look like a bot token (digits, a colon, then letters, digits, _ "
              "or -). Try again.", file=sys.stderr)
    else:
        return
    if not text and Path(".env.example").exists():
        text = Path(".env.example").read_text(encoding="utf-8")
    if re.search(r"^BOT_TOKEN=.*$", text, re.M):
        text = re.sub(r"^BOT_TOKEN=.*$", lambda _m: f"BOT_TOKEN={token}", text, count=1, flags=re.M)
    else:
        text = f"BOT_TOKEN={token}\n" + text
    env_file.write_text(text, encoding="utf-8")
    env_file.chmod(0o600)
    print(f"Saved to {env_file}.")


def check_workers(settings: Settings) -> str | None:
    """Why these settings cannot run as asked (``WEB_CONCURRENCY``, ``REDIS_URL``), or None."""
    if settings.web_concurrency > 1 and not settings.use_webhook:
        return (f"WEB_CONCURRENCY={settings.web_concurrency}: long polling runs one process "
                "(Telegram gives updates to one poller); set WEBHOOK_URL and REDIS_URL for many workers")
    if settings.web_concurrency > 1 and not settings.redis_url:
        return (f"WEB_CONCURRENCY={settings.web_concurrency} needs REDIS_URL: the workers share "
                "their games' updates, timers and Telegram's limits through Redis")
    if settings.clustered and settings.database_url.startswith("sqlite"):
        return ("many workers (REDIS_URL with WEBHOOK_URL) need a database they can share: set "
                "DATABASE_URL=postgresql+asyncpg://...")
    return None


async def run() -> None:
    ask_token_once()
    settings = load_settings_or_exit()
    configure_logging(settings)
    if settings.redis_url and not settings.use_webhook:
        logger.warning("REDIS_URL is not used in long-polling mode: this one process serves "
                       "every group (set WEBHOOK_URL for many workers)")
    if not settings.use_webhook:  # before the heavy imports: Telegram's answer window is ~15 s
        from .telegram.prestart import answer_pending_presses

        await asyncio.to_thread(answer_pending_presses, settings.telegram_api_url,
                                settings.bot_token.get_secret_value())
    from .app import build_app

    app = build_app(token=settings.bot_token.get_secret_value(),
                    database_url=settings.database_url, api_url=settings.telegram_api_url,
                    default_locale=settings.default_locale, lobby_timeout=settings.lobby_timeout,
                    rules_url=settings.rules_url, webapp_url=settings.webapp_url,
                    webapp_name=settings.webapp_name,
                    # many workers share Telegram's limits through Redis (docs/deployment.md)
                    redis_url=settings.redis_url if settings.clustered else None,
                    redis_prefix=settings.redis_prefix, workers=settings.web_concurrency)
    from aiogram.exceptions import (
        AiogramError,
        TelegramNetworkError,
        TelegramUnauthorizedError,
    )

    started = STARTED
    try:
        await app.start(recover=False)  # games are recovered while polling (App.start)
    except TelegramUnauthorizedError:
        await app.stop()
        raise SystemExit("mafia-bot: Telegram rejected BOT_TOKEN; check it with @BotFather") from None
    except TelegramNetworkError as exc:
        await app.stop()
        raise SystemExit(f"mafia-bot: cannot reach the Bot API at {settings.telegram_api_url}: "
                         f"{exc.message}") from exc
    except AiogramError as exc:
        await app.stop()
        raise SystemExit(f"mafia-bot: the Bot API at {settings.telegram_api_url} answered "
                         f"{type(exc).__name__}: is it a Telegram Bot API server?") from exc
    except Exception as exc:  # noqa: BLE001 - a bad DATABASE_URL and the like: one clear line
        await app.stop()
        raise SystemExit(f"mafia-bot: cannot start with DATABASE_URL={settings.safe_database_url}: "
                         f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
                         ) from exc
    # many workers: each recovers the games of the shards it takes (bot/cluster/worker.py)
    background = asyncio.create_task(
        menu_only(app) if settings.clustered
        else recover_then_menu(app, started, settings.safe_database_url))
    allowed = app.dp.resolve_used_update_types()
    try:
        if settings.clustered:
            from .cluster.serve import serve_cluster

            await serve_cluster(app, settings, allowed)
        elif settings.use_webhook:
            await run_webhook(app, settings, allowed)
        else:
            await app.bot.delete_webhook(drop_pending_updates=False)
            logger.info("long polling as @%s (%.2f s after start-up began)",
                        app.presenter.bot_username, time.monotonic() - started)
            runner = await start_webapp_server(app, settings) if app.webapp else None
            try:
                await app.dp.start_polling(app.bot, polling_timeout=settings.polling_timeout,
                                           allowed_updates=allowed, handle_signals=True,
                                           close_bot_session=False)
            finally:
                if runner is not None:
                    await runner.cleanup()
    finally:
        background.cancel()
        await asyncio.gather(background, return_exceptions=True)
        await app.stop()


async def recover_then_menu(app: App, started: float, database: str) -> None:
    """Recover the open games while the first updates are already being handled, then register
    the command menu (a nicety: it waits until the games are back)."""
    from .app import set_commands

    try:
        recovered = await app.recover()
    except Exception:  # noqa: BLE001 - a game that cannot be recovered is logged, polling goes on
        logger.exception("recovering the open games failed")
    else:
        logger.info("database %s; %d open game(s) recovered (%.2f s after start-up began)",
                    database, recovered, time.monotonic() - started)
    await set_commands(app)


async def menu_only(app: App) -> None:
    """Many workers: the first one records the games that ended while their recording was
    pending and registers the command menu (each worker recovers its shards' games itself)."""
    from .app import set_commands

    if os.environ.get("MAFIA_WORKER_INDEX", "0") == "0":
        if app.history is not None:
            try:
                await app.history.backfill()
            except Exception:  # noqa: BLE001 - the history catches up at the next start
                logger.exception("recording the pending finished games failed")
        await set_commands(app)


async def run_webhook(app: App, settings: Settings, allowed: list[str]) -> None:
    from aiogram.webhook.aiohttp_server import SimpleRequestHandler, setup_application
    from aiohttp import web

    endpoint = settings.webhook_endpoint
    if endpoint is None:  # the caller runs it in webhook mode only
        raise ValueError("run_webhook needs WEBHOOK_URL")
    secret = settings.webhook_secret.get_secret_value() if settings.webhook_secret else None
    web_app = web.Application()
    SimpleRequestHandler(dispatcher=app.dp, bot=app.bot, secret_token=secret).register(
        web_app, path=settings.webhook_path)
    setup_application(web_app, app.dp, bot=app.bot)
    if app.webapp is not None:
        from .webapp import setup as setup_webapp

        setup_webapp(web_app, app.webapp, settings.bot_token.get_secret_value())
    runner = web.AppRunner(web_app)
    await runner.setup()
    site = web.TCPSite(runner, settings.web_host, settings.web_port)
    await site.start()
    # listening first: Telegram posts the pending updates at once, and retries refused ones late
    await app.bot.set_webhook(endpoint, secret_token=secret,
                              allowed_updates=allowed)
    logger.info("webhook server on %s:%s", settings.web_host, settings.web_port)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):  # a graceful stop, as polling does
        with contextlib.suppress(NotImplementedError):  # no such handlers on Windows
            loop.add_signal_handler(signum, stop.set)
    try:
        await stop.wait()
        logger.info("webhook server stopping on a signal")
    finally:
        await runner.cleanup()


async def start_webapp_server(app: App, settings: Settings) -> web.AppRunner:
    """Polling mode with ``WEBAPP_URL``: the web server that serves the Mini App alone, on
    ``WEB_HOST``:``WEB_PORT``. Returns its runner (``cleanup()`` stops it)."""
    from aiohttp import web

    from .webapp import setup as setup_webapp

    web_app = web.Application()
    setup_webapp(web_app, app.webapp, settings.bot_token.get_secret_value())
    runner = web.AppRunner(web_app)
    await runner.setup()
    await web.TCPSite(runner, settings.web_host, settings.web_port).start()
    logger.info("Mini App at %s/webapp/ (server on %s:%s)", settings.webapp_url,
                settings.web_host, settings.web_port)
    return runner


def main() -> None:
    ask_token_once()
    settings = load_settings_or_exit()
    problem = check_workers(settings)
    if problem:
        print(f"mafia-bot: {problem}", file=sys.stderr)
        raise SystemExit(2)
    if settings.web_concurrency > 1 and "MAFIA_WORKER_INDEX" not in os.environ:
        from .cluster.supervisor import supervise

        configure_logging(settings)
        raise SystemExit(supervise(settings.web_concurrency))
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run())


if __name__ == "__main__":
    main()
