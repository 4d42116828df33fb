"""The dispatch path: the routers flattened onto the Dispatcher (bot/handlers/flat.py) try the
handlers in the routers' depth-first order, and refuse what flattening would lose; the cheaper
press filter (``bot.ui.callbacks.Pressed``) answers exactly as aiogram's ``X.filter()``."""

from __future__ import annotations

import pytest
from aiogram import Router
from aiogram.types import CallbackQuery, User
from pydantic import ValidationError

from bot.app import build_dispatcher
from bot.handlers.flat import flatten
from bot.ui.callbacks import Act, Cfg, Hist, LobbyAct, Pressed, Tour, TourGo


def _names(observer) -> list[str]:
    return [h.callback.__name__ for h in observer.handlers]


def test_handlers_keep_the_routers_depth_first_order():
    outer, inner, last = Router(name="outer"), Router(name="inner"), Router(name="last")

    async def a(): ...
    async def b(): ...
    async def c(): ...
    async def d(): ...

    outer.message.register(a)
    inner.message.register(b)
    inner.callback_query.register(c)
    last.message.register(d)
    outer.include_router(inner)
    target = Router(name="target")
    flatten(target, (outer, last))
    assert _names(target.message) == ["a", "b", "d"]
    assert _names(target.callback_query) == ["c"]


@pytest.mark.parametrize("spoil", [
    lambda r: r.message.middleware(lambda h, e, d: h(e, d)),
    lambda r: r.callback_query.outer_middleware(lambda h, e, d: h(e, d)),
    lambda r: r.message.filter(lambda m: True),
])
def test_a_router_with_its_own_middleware_or_filter_is_refused(spoil):
    r = Router(name="own")
    spoil(r)
    with pytest.raises(ValueError, match="own"):
        flatten(Router(), (r,))


def test_the_dispatcher_holds_every_router_handler_in_order():
    dp = build_dispatcher()
    assert not dp.sub_routers
    assert _names(dp.callback_query) == ["history_button", "onlooker_button", "tour_button",
                                         "start_button", "lobby_button", "game_button", "settings_button",
                                         "sheet_button", "unknown_button"]
    assert _names(dp.my_chat_member)[:2] == ["bot_membership_changed", "bot_rights_changed"]


DATA = ["a:12:3:vote:4", "a:12:3:vote:", "a:12:3:vote", "a:12:3:vote:4:5", "a:-1:3:vote:4",
        f"a:{2**63}:3:vote:4", "a:x:3:vote:4", "a: 12:3:vote:4", "a", "a:", "", "l:7:leave:",
        "l:7:tempo:fast", "c:lang:en", "c:lang", "h:p:5:2:0", "h:l::0:", "ab:1:2:3:4", "zz",
        "a:12:3:vote:4:", "h:p:5:2:0:1", "tg:1:2:3", "tg:1:0:3", "tg:1:2", "tg:-1:2:3",
        f"tg:1:{2**31}:1", "tg:1:2:x"]


@pytest.mark.parametrize("data", DATA)
@pytest.mark.parametrize("data_cls", [Act, LobbyAct, Cfg, Hist, Tour, TourGo])
async def test_pressed_answers_as_aiograms_filter(data_cls, data):
    query = CallbackQuery(id="1", from_user=User(id=5, is_bot=False, first_name="A"),
                          chat_instance="c", data=data)
    ours, theirs = await Pressed(data_cls)(query), await data_cls.filter()(query)
    assert ours == theirs
    if ours:  # the memoised parse is shared: it may not be changed in place
        with pytest.raises(ValidationError):
            ours["callback_data"].a = "other"


def test_the_collector_is_tuned_at_every_start():
    """App.start freezes the start-up heap and raises the young generation's threshold; a
    start after a stop (which unfroze it) freezes again."""
    import gc

    from bot.app import GC_THRESHOLDS, tune_gc

    tune_gc()
    assert gc.get_threshold() == GC_THRESHOLDS and gc.get_freeze_count() > 0
    gc.unfreeze()  # as App.stop does
    gc.set_threshold(700, 10, 10)
    tune_gc()
    assert gc.get_threshold() == GC_THRESHOLDS and gc.get_freeze_count() > 0


@pytest.mark.parametrize("level, expected", [("INFO", "WARNING"), ("WARNING", "WARNING"),
                                             ("DEBUG", "NOTSET")])
def test_aiograms_line_per_update_only_at_debug(level, expected):
    import logging

    from bot.config import Settings, configure_logging

    names = ("aiogram.event", "aiogram.middlewares", "alembic", "apscheduler")
    saved = {n: logging.getLogger(n).level for n in names}
    try:
        for n in names:
            logging.getLogger(n).setLevel(logging.NOTSET)
        configure_logging(Settings(_env_file=None, bot_token="123456:ABCdef_ghi-jkl",
                                   log_level=level))
        assert {logging.getLevelName(logging.getLogger(n).level)
                for n in ("aiogram.event", "aiogram.middlewares")} == {expected}
    finally:
        for n, lvl in saved.items():
            logging.getLogger(n).setLevel(lvl)
