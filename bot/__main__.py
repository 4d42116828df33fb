"""``python -m bot``: run the bot (long polling, or a webhook server when WEBHOOK_URL is set)."""

from __future__ import annotations

import asyncio
import logging

from .config import configure_logging, load_settings_or_exit

logger = logging.getLogger("bot")


async def run() -> None:
    settings = load_settings_or_exit()
    configure_logging(settings)
    from .app import build_app, set_commands

    app = build_app(token=settings.bot_token.get_secret_value(),
                    database_url=settings.database_url, api_url=settings.telegram_api_url,
                    default_locale=settings.default_locale, lobby_timeout=settings.lobby_timeout)
    recovered = await app.start()
    logger.info("database %s; %d open game(s) recovered", settings.safe_database_url, recovered)
    await set_commands(app)
    allowed = app.dp.resolve_used_update_types()
    try:
        if settings.use_webhook:
            await run_webhook(app, settings, allowed)
        else:
            await app.bot.delete_webhook(drop_pending_updates=False)
            logger.info("long polling as @%s", app.presenter.bot_username)
            await app.dp.start_polling(app.bot, polling_timeout=settings.polling_timeout,
                                       allowed_updates=allowed, handle_signals=True,
                                       close_bot_session=False)
    finally:
        await app.stop()


async def run_webhook(app, settings, allowed) -> None:
    from aiohttp import web
    from aiogram.webhook.aiohttp_server import SimpleRequestHandler, setup_application

    secret = settings.webhook_secret.get_secret_value() if settings.webhook_secret else None
    web_app = web.Application()
    SimpleRequestHandler(dispatcher=app.dp, bot=app.bot, secret_token=secret).register(
        web_app, path=settings.webhook_path)
    setup_application(web_app, app.dp, bot=app.bot)
    await app.bot.set_webhook(settings.webhook_endpoint, secret_token=secret,
                              allowed_updates=allowed)
    runner = web.AppRunner(web_app)
    await runner.setup()
    site = web.TCPSite(runner, settings.web_host, settings.web_port)
    await site.start()
    logger.info("webhook server on %s:%s", settings.web_host, settings.web_port)
    try:
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()


def main() -> None:
    try:
        asyncio.run(run())
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
