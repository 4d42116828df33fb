"""The live table and the judge's console as a Telegram Mini App (issue 13, docs/miniapp.md).

Off unless ``WEBAPP_URL`` is set. Then the bot's own aiohttp server (the webhook's; started in
polling mode too) serves the page (``static/``) and its API (:mod:`.server`), authenticated by
the Mini App's signed ``initData`` (:mod:`.auth`), filtered per viewer on the server by the
events' audiences (:mod:`.log`) and the game's own view (``BotGame.webapp``:
``bot/games/<name>/webapp.py``), live through server-sent events fed by
``GameService.listeners``, and acting through the game's codec (:mod:`.service`).
A tournament's pages (schedule, standings, the viewer's games, the organiser's export) are
read from the store (:mod:`.tournament`, :mod:`.tournament_api`).
"""

from __future__ import annotations

from .server import setup
from .service import NoAccess, WebApp

__all__ = ["NoAccess", "WebApp", "setup"]
