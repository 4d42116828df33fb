"""Bare aiogram: the same recorded updates routed by a Dispatcher with trivial handlers.

The routers mirror the bot's filters (``bot/handlers``: commands with chat-type filters,
``CallbackData`` filters, the private-chat catch-all) in the same order, but every handler returns
at once and no middleware answers callback queries, so what is left is aiogram's own cost: update
propagation, filter evaluation and handler dispatch. The difference to the full run is the cost of
our stack (service, engine, storage, presenter, sender, callback answers).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from time import perf_counter, process_time
from typing import Any

from aiogram import Bot, Dispatcher, F, Router
from aiogram.dispatcher.event.bases import UNHANDLED
from aiogram.filters import Command, CommandStart
from aiogram.types import Update

from bot.ui.callbacks import Act, Cfg, LobbyAct

GROUPS = F.chat.type.in_({"group", "supergroup"})


async def _noop(*_args: Any, **_kwargs: Any) -> None:
    return None


def bare_dispatcher() -> Dispatcher:
    """A Dispatcher with the bot's filters and handlers that do nothing."""
    lobby, game, settings, private = (Router(name=n) for n in ("lobby", "game", "settings",
                                                                "private"))
    lobby.message.register(_noop, Command("newgame"), GROUPS)
    lobby.message.register(_noop, Command("startgame"), GROUPS)
    lobby.message.register(_noop, Command("cancel", "stop"), GROUPS)
    lobby.message.register(_noop, Command("host"), GROUPS)
    lobby.message.register(_noop, CommandStart(), F.chat.type == "private")
    lobby.callback_query.register(_noop, LobbyAct.filter())
    game.callback_query.register(_noop, Act.filter())
    for name in ("pause", "resume", "next", "away", "back"):
        game.message.register(_noop, Command(name))
    game.message.register(_noop, Command("takehost"), GROUPS)
    settings.message.register(_noop, Command("settings"), GROUPS)
    settings.callback_query.register(_noop, Cfg.filter())
    private.message.register(_noop, Command("help"))
    private.message.register(_noop, Command("rules"))
    private.message.register(_noop, F.migrate_to_chat_id)
    private.message.register(_noop, F.left_chat_member)
    private.my_chat_member.register(_noop)
    private.message.register(_noop, F.chat.type == "private", F.text, ~F.text.startswith("/"))
    dp = Dispatcher()
    dp.include_routers(lobby, game, settings, private)
    return dp


@dataclass
class BareRun:
    wall: float = 0.0
    cpu: float = 0.0  #: process CPU seconds of the measured pass
    latencies: list[float] = field(default_factory=list)
    handled: int = 0


async def replay_bare(bot: Bot, updates: list[Update], passes: int = 2) -> BareRun:
    """Feed ``updates`` (bound to ``bot``) through :func:`bare_dispatcher` ``passes`` times and
    return the last pass (the first warms caches up). ``bot`` is never asked to call the API."""
    dp = bare_dispatcher()
    run = BareRun()
    for _ in range(max(1, passes)):
        run = BareRun()
        started, cpu_started = perf_counter(), process_time()
        for update in updates:
            t0 = perf_counter()
            result = await dp.feed_update(bot, update)
            run.latencies.append(perf_counter() - t0)
            run.handled += result is not UNHANDLED
        run.wall, run.cpu = perf_counter() - started, process_time() - cpu_started
    return run
