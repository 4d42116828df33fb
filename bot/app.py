"""Wiring: build the Bot, Dispatcher, Storage, Sender, Presenter, GameService and deadlines.

``build_app`` is used by ``python -m bot`` and by the tests (with a recording session and a
manual deadline clock), so both run exactly the same stack.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from aiogram import Bot, Dispatcher
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.session.base import BaseSession
from aiogram.exceptions import (
    ClientDecodeError,
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.types import BotCommand, ErrorEvent
from aiogram.utils.callback_answer import CallbackAnswerMiddleware

from .handlers import discipline, fallback, game, lobby, moderation, private
from .handlers import history as history_handlers
from .handlers import onlookers as onlooker_handlers
from .handlers import settings as settings_handlers
from .handlers import sheets as sheet_handlers
from .handlers import tournament as tournament_handlers
from .handlers.common import watch_users
from .handlers.flat import flatten
from .handlers.tournament_rounds import RoundEnd
from .history.service import HistoryService
from .history.sheets import SheetService
from .presentation.presenter import Presenter
from .services.afk import AfkClock
from .services.deadlines import Deadlines
from .services.game_service import GameService, utcnow
from .services.onlookers import Onlookers
from .services.tournaments import TournamentService
from .storage import Storage
from .telegram.faults import LeftChats, describe
from .telegram.limits import GLOBAL_RATE, Limiter
from .telegram.sender import Sender
from .telegram.update_context import tag_updates
from .ui.i18n import Translator

logger = logging.getLogger(__name__)


def _pin_response_models() -> list:
    """Keep aiogram's parametrised ``Response[...]`` models alive.

    aiogram builds ``Response[T]`` for every API reply; pydantic caches those generic classes
    only weakly, so they were rebuilt ~1,000 times per 4,600 calls at 2-5 ms each (measured
    with ``python -m benchmarks``: wall time 11.3 s -> 7.8 s once pinned).
    """
    from aiogram import methods
    from aiogram.methods.base import Response

    response: Any = Response  # parametrised at run time with each method's result type
    return [response[m.__returning__] for m in vars(methods).values()
            if isinstance(m, type) and issubclass(m, methods.TelegramMethod)
            and m is not methods.TelegramMethod and hasattr(m, "__returning__")]


_RESPONSE_MODELS = _pin_response_models()


@dataclass
class App:
    bot: Bot
    dp: Dispatcher
    storage: Storage
    sender: Sender
    presenter: Presenter
    service: GameService
    deadlines: Any
    translator: Translator
    history: HistoryService | None = None
    afk: AfkClock | None = None
    #: the Mini App (bot/webapp/), when ``WEBAPP_URL`` is set; its routes go on the web server
    webapp: Any = None
    #: the score sheets of sport games (bot/history/sheets.py)
    sheets: SheetService | None = None
    #: the tournaments' round-end posts (bot/handlers/tournament_rounds.py)
    round_end: RoundEnd | None = None

    async def start(self, *, recover: bool = True) -> int:
        """Connect the store, learn the bot's username, start the deadline clock and (unless
        ``recover=False``) recover the open games (:meth:`recover`). Returns their count (0 when
        not recovered here).

        ``python -m bot`` starts with ``recover=False``, begins polling at once and recovers
        meanwhile: presses queued while the bot was down are answered first (each loads its own
        game on demand), well inside Telegram's ~15 s window for an answer (issue 10, item 5).
        """
        tune_gc()
        await self.storage.start()
        me = await self.bot.me()
        self.presenter.bot_username = me.username or self.presenter.bot_username
        self.deadlines.start()
        return await self.recover() if recover else 0

    async def recover(self, chats: Callable[[int], bool] | None = None) -> int:
        """Reload every lobby/running game and re-arm its timers, held edits and AFK clocks;
        record games that ended while their recording was pending. Returns the games' count.
        ``chats``: only the games of the chats it accepts (``chats(chat_id) -> bool``; many
        workers: the shards this worker just took over), and no history backfill."""
        before = set(self.service.games) if chats is not None else set()
        count = await self.service.recover(chats)
        fresh = [g for game_id, g in self.service.games.items() if game_id not in before]
        if self.afk is not None:
            for g in fresh:
                self.afk.arm_all(g)  # ONLINE-48: OFFLINE clocks survive a restart
        now = self.service.clock()
        for g in fresh:
            if g.ui.get("title"):
                self.presenter.titles[g.chat_id] = g.ui["title"]
            if g.state is not None:
                self.presenter.restarted(g, now)  # the game re-arms what it shows on a clock
        if self.history is not None and chats is None:
            await self.history.backfill()  # games that ended while their recording was pending
        if self.sheets is not None:
            await self.sheets.recover(chats)  # the drafts' publication jobs (SCORE-X11)
        if self.round_end is not None:  # trial22: a round whose end was not posted (a crash)
            await self.round_end.recover(chats)
        return count

    async def stop(self, drain_seconds: float = 15.0) -> None:
        """Stop: the queued messages get ``drain_seconds`` to leave (a group at Telegram's 20 a
        minute may hold more than that; what is left is shown again by the next start, as after
        a crash: bot/telegram/shown.py), then everything is stored and closed."""
        self.service.visible.cancel()  # deadlines stay as stored (bot/services/visible_clock.py)
        self.deadlines.shutdown()
        try:
            await asyncio.wait_for(self.sender.drain(), drain_seconds)
        except TimeoutError:
            logger.warning("stopping with messages still queued; the next start shows their "
                           "steps again")
        else:
            self.service.save_shown()  # every message left: a clean restart shows nothing again
        await self.service.drain()  # message ids still being written to games.ui
        if self.sheets is not None:
            await self.sheets.settle()  # the judges' sheet messages being remembered
        await self.sender.close()
        await self.sender.limiter.close()
        await self.storage.close()
        await self.bot.session.close()
        gc.unfreeze()  # what tune_gc and the recovery (bot/services/recovery.py) froze may be collected again


#: The collector's thresholds once the bot runs (Python's default: 700, 10, 10). A command
#: allocates thousands of short-lived objects (pydantic models of the Bot API, SQLAlchemy rows,
#: the presenter's texts), so at 700 the young generation was collected ~0.3 times per update and
#: promoted what was merely in flight to the older ones.
GC_THRESHOLDS = (20_000, 10, 10)


def tune_gc() -> None:
    """At every :meth:`App.start`: what is alive by now — the imported
    modules, aiogram's and pydantic's models of the Bot API, the app itself, ~300 MB — is moved
    out of the collector's sight (``gc.freeze``: most of it lives as long as the process; what
    dies later is still freed by reference counting, only a cycle among it is not), and the
    young generation is collected every :data:`GC_THRESHOLDS` allocations. Measured with
    ``python -m benchmarks --games 20``: the collector took ~0.8 ms of CPU per update (~20 % of
    the bot's own CPU), mostly full collections walking that heap, ~0.15 ms after (figures in
    docs/performance.md). Nothing is collected first (a full collection would add ~0.3 s to
    the start): garbage left by the imports stays, as it would until the first full collection."""
    gc.freeze()  # again at every start: App.stop unfreezes
    gc.set_threshold(*GC_THRESHOLDS)


def build_dispatcher() -> Dispatcher:
    """A fresh Dispatcher with fresh routers' handlers, registered on the Dispatcher itself in
    the routers' order (:func:`bot.handlers.flat.flatten`: one visit per update instead of one
    per router). No handler keeps a conversation state, so aiogram's FSM middleware (a storage
    lookup and a record kept per chat and user for every update) is left out."""
    dp = Dispatcher(disable_fsm=True)
    dp.callback_query.middleware(CallbackAnswerMiddleware())
    dp.update.outer_middleware(tag_updates)  # the update_id stored with each command (issue 12)
    dp.update.outer_middleware(watch_users)  # renames and a lost host's return (handlers/common.py)
    # discipline and onlookers come before lobby (/start spectate_...), game (onlookers' presses)
    # and private (the onlookers' chat is routed before the mafia relay)
    # fallback is last: it answers every press no other router understood
    flatten(dp, (history_handlers.router(), discipline.router(), onlooker_handlers.router(),
                 tournament_handlers.router(), lobby.router(), game.router(), moderation.router(),
                 settings_handlers.router(), sheet_handlers.router(), private.router(),
                 fallback.router()))
    dp.errors.register(on_error)
    return dp


#: Telegram failing us (after the retries of bot.telegram.faults): one warning line, no traceback
TELEGRAM_FAULTS = (TelegramNetworkError, TelegramServerError, TelegramRetryAfter,
                   TelegramForbiddenError, ClientDecodeError)


async def on_error(event: ErrorEvent) -> bool:
    exc = event.exception
    if isinstance(exc, TelegramBadRequest) and "query is too old" in str(exc).lower():
        return True  # the work was done; the answer came too late
    if isinstance(exc, TELEGRAM_FAULTS):
        logger.warning("update %s: Telegram call failed: %s", event.update.update_id,
                       describe(exc))
        return True
    logger.error("update %s failed: %r", event.update.update_id, exc, exc_info=exc)
    return True


def build_app(*, token: str, database_url: str, api_url: str | None = None,
              session: BaseSession | None = None, deadlines_cls: type[Deadlines] = Deadlines,
              clock: Callable[[], datetime] = utcnow,
              default_locale: str = "ru", lobby_timeout: int = 1800,
              sender_kwargs: dict | None = None, rules_url: str | None = None,
              webapp_url: str | None = None, webapp_name: str | None = None,
              redis_url: str | None = None, redis_prefix: str = "mafia:", workers: int = 1,
              limiter: Limiter | None = None) -> App:
    """The whole bot. ``session``: an aiogram session (default aiohttp, against ``api_url``);
    ``limiter``: who paces the Bot API calls (:class:`bot.telegram.limits.Limiter`); without one,
    ``redis_url`` (``REDIS_URL``) makes the Telegram limits shared by the ``workers`` workers
    through Redis under ``redis_prefix`` (:func:`shared_limiter`), else they are kept in memory;
    ``rules_url``: base URL of the published ``docs/rules/`` pages that ``/rules`` links to;
    ``webapp_url``: the Mini App's public HTTPS base URL (None: no Mini App, no button names it;
    ``webapp_name``: its short name from BotFather's /newapp, for the group's link);
    the :class:`bot.telegram.faults.FaultTolerance` middleware is installed on it by the Sender,
    so every Bot API call is retried the same way."""
    if session is None:
        from aiogram.client.telegram import TelegramAPIServer

        session = AiohttpSession(api=TelegramAPIServer.from_base(api_url)) if api_url else AiohttpSession()
    bot = Bot(token=token, session=session, default=DefaultBotProperties(parse_mode="HTML"))
    left = LeftChats()  # groups the bot is not in: shared by the Sender, the session, handlers
    storage = Storage(database_url)
    translator = Translator(default_locale=default_locale)
    service_ref: dict[str, Any] = {}  # 's': the GameService, 'o': the Onlookers

    async def on_forbidden(chat_id: int) -> None:
        if chat_id < 0 and chat_id in left and "s" in service_ref:
            await _bot_removed(service_ref["s"], chat_id)
        if chat_id > 0 and "o" in service_ref:
            service_ref["o"].unreachable(chat_id)
        if chat_id > 0 and "s" in service_ref:
            await service_ref["s"].user_unreachable(chat_id, "blocked")

    async def on_migrate(old: int, new: int) -> None:
        await storage.move_chat(old, new)

    sender_kwargs = dict(sender_kwargs or {})
    if limiter is None and redis_url:
        limiter = shared_limiter(redis_url, redis_prefix, workers, sender_kwargs)
    if limiter is not None:
        sender_kwargs["limiter"] = limiter
    sender = Sender(bot, on_forbidden=on_forbidden, on_migrate=on_migrate, left=left,
                    **sender_kwargs)
    presenter = Presenter(sender, translator, bot_username="mafia_bot")
    service = GameService(storage, presenter, clock=clock, lobby_timeout=lobby_timeout)
    presenter.on_ui_change = service.persist_ui_soon
    presenter.clock = clock
    deadlines = deadlines_cls(service.on_deadline)
    service.deadlines = deadlines
    presenter.deadlines = deadlines  # held live edits run on the deadlines' clock
    service_ref["s"] = service
    history = HistoryService(storage, sender=sender, translator=translator, presenter=presenter)
    service.listeners.append(history.on_step)
    sheets = SheetService(storage, sender, translator, history, deadlines, clock)
    service.listeners.append(sheets.on_step)  # after the history's: the game is recorded
    onlookers = service_ref["o"] = Onlookers(service, sender, translator)
    presenter.on_group_text = onlookers.fan_out
    service.listeners.append(onlookers.on_step)
    service.step_senders.append(onlookers.step_messages)  # shown again after a crash
    afk = AfkClock(service, deadlines)
    service.listeners.append(afk.on_step)
    webapp = None
    if webapp_url:
        from .webapp import WebApp

        webapp = WebApp(service, presenter, translator, bot, webapp_url)
        webapp.sheets = sheets
        service.listeners.append(webapp.on_step)
        presenter.webapp_url, presenter.webapp_name = webapp.url, webapp_name
    dp = build_dispatcher()
    dp["service"] = service
    dp["storage"] = storage
    dp["tr"] = translator
    dp["presenter"] = presenter
    dp["sender"] = sender
    dp["left"] = left
    dp["history"] = history
    dp["sheets"] = sheets
    dp["tournaments"] = tournaments = TournamentService(storage, service)
    if webapp is not None:
        webapp.tournaments = tournaments  # the tournament's pages (bot/webapp/tournament.py)
    round_end = RoundEnd(storage, translator, sender, tournaments, presenter)
    sheets.published.append(round_end.on_published)
    dp["onlookers"] = onlookers
    dp["webapp"] = webapp  # None without WEBAPP_URL (membership updates tell the Mini App)
    dp["rules_url"] = rules_url
    return App(bot=bot, dp=dp, storage=storage, sender=sender, presenter=presenter,
               service=service, deadlines=deadlines, translator=translator, history=history,
               afk=afk, webapp=webapp, sheets=sheets, round_end=round_end)


def shared_limiter(redis_url: str, prefix: str, workers: int,
                   sender_kwargs: dict[str, Any]) -> Limiter:
    """The Redis-backed limiter of many workers (:class:`bot.telegram.shared_limits.SharedLimiter`), with
    the rates the Sender would use: ``sender_kwargs``' ``group_rate``, ``private_rate``,
    ``global_rate``, ``group_burst``, else the Sender's defaults (Telegram's limits)."""
    from .telegram.shared_limits import SharedLimiter

    defaults = Sender.__init__.__kwdefaults__ or {}
    rates = {key: sender_kwargs.pop(key, defaults.get(key))
             for key in ("group_rate", "private_rate", "global_rate", "group_burst")}
    if rates["global_rate"] == GLOBAL_RATE:
        rates["global_rate"] = SHARED_GLOBAL_RATE
    return SharedLimiter(redis_url, prefix=prefix, workers=workers, **rates)


#: The bot's rate when many workers share it: a token is taken in one process and the call
#: reaches Telegram a few to a few hundred milliseconds later, depending on that process's load,
#: so calls taken over 1.2 s can arrive within 1 s. Measured with two loaded workers
#: (``python -m benchmarks --workers 2``): 36-41 calls arrived in the busiest second at a shared
#: 30/s; 25/s leaves that headroom under Telegram's 30.
SHARED_GLOBAL_RATE = (25, 1.0)


async def _bot_removed(service: GameService, chat_id: int) -> None:
    """The bot is no longer in ``chat_id`` (``my_chat_member`` or a 403 "bot was kicked"): its
    open game ends with reason ``bot_removed`` (the players are told privately)."""
    from engine import IllegalCommand, game_of

    game_id = await service.game_for_chat(chat_id)
    if game_id is None:
        return
    with contextlib.suppress(IllegalCommand, KeyError):  # ended meanwhile
        await service.execute(game_id, lambda g: game_of(g.state).cancel("bot_removed"))


COMMANDS = ("newgame", "startgame", "cancel", "settings", "pause", "resume", "host", "next",
            "away", "back", "takehost", "spectate", "unspectate", "history", "stats", "top", "me",
            "nextgame", "said", "tournament", "rules", "help")


async def set_commands(app: App) -> None:
    """Register the command menu in both languages (descriptions are translated)."""
    from .ui.i18n import N_

    descriptions = {
        "newgame": N_("open a game lobby"), "startgame": N_("start the game"),
        "cancel": N_("cancel or stop the game"), "settings": N_("language, tempo, roles"),
        "pause": N_("pause the game"), "resume": N_("resume the game"),
        "host": N_("host without playing"), "next": N_("host: move the game on"),
        "away": N_("step away"), "back": N_("come back"), "takehost": N_("admin: take the game rights"),
        "spectate": N_("watch the running game from your private chat"),
        "unspectate": N_("stop watching the game"),
        "rules": N_("the rules"), "help": N_("all commands"),
        "history": N_("finished games, protocols, replays"), "stats": N_("this group's statistics"),
        "top": N_("the group's rating"), "me": N_("your statistics"),
        "nextgame": N_("message me when the next game opens"),
        "said": N_("in private chat: what a seat wrote in your game"),
        "tournament": N_("a tournament: seating, rounds, standings"),
    }
    for locale in ("ru", "en"):
        _ = app.translator.get(locale)
        cmds = [BotCommand(command=c, description=_(descriptions[c])) for c in COMMANDS]
        try:
            await app.bot.set_my_commands(cmds, language_code=locale)
        except Exception:  # noqa: BLE001 - a menu is a nicety, never a reason to stop
            logger.warning("setMyCommands failed for %s", locale)
