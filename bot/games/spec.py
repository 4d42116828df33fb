"""What a game's bot package gives the registry (``bot/games/__init__.py``): one
:class:`BotGame` object, so that the shared adapter — handlers, service, sender, storage —
reaches a game only through it."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from aiogram.types import InlineKeyboardButton

from engine import GameState

from ..ui.callbacks import Act
from .hints import Gettext

if TYPE_CHECKING:
    from .hints import Out


class GamePresenter(Protocol):
    """A game's presenter class as the registry holds it: built once with the shared
    presenter (``cls(out)``); before that, its ``TIMING_KEYS`` and ``table_text(_, st)`` (the
    table message for the game's own state ``st``) are read off the class."""

    TIMING_KEYS: tuple[str, ...]

    def __init__(self, out: Out, /) -> None: ...

    @staticmethod
    def table_text(_: Gettext, st: Any, /) -> str: ...


def act_of(button: InlineKeyboardButton) -> Act:
    """The ``Act`` of an in-game button (every one the games build carries one): how the Mini
    App turns a keyboard into page buttons. Raises ValueError for a button without callback
    data (a link)."""
    if button.callback_data is None:
        raise ValueError(f"a button without callback data: {button.text}")
    return Act.unpack(button.callback_data)


@dataclass(frozen=True)
class BotGame:
    """A game's bot side.

    ``name``: the engine rule set's name; ``presenter``: its presenter class, built once with
    the shared :class:`bot.presentation.presenter.Presenter` (``presenter(out)``) and called with every
    engine step; ``codec``: its button codec (code -> engine command, phase-bound codes,
    confirmations; see ``bot/games/mafia/codec.py``); ``toggled_roles(st, name)``: the lobby's
    optional roles after a toggle (``LobbyAct(a="role")``), for games that have them;
    ``deal(st, user_id, rng)``: the game's start command for the lobby ``st``, its chance drawn
    from ``rng`` (the game's seeded ``random.Random``; the engine draws none);
    ``chat_policy(st, user_id, phase)``: whether a seated, living player may write in the group
    now (``phase``: ``st.phase``'s value; asked by ``bot.services.discipline.may_write`` in a running,
    unpaused game) -- None: the honour system, the bot never deletes a message;
    ``has_host``: whether a non-playing host may run the game (``/host``);
    ``timing_limits``: the game's own timings a chat may set with ``/settings <key> <seconds>``
    beyond the mafia presets' (key -> (lo, hi) seconds; kept in the chat's settings under
    ``timings_of[name]``); ``settings_from(chat_data, words)``: the game's ``CreateGame``
    settings from the chat's stored settings and the words after ``/newgame <name>``; raises
    ``ValueError(word)`` for a word it does not know (None: the mafia presets' own way);
    ``history``: the game's own /history and /stats rendering (``bot/games/noir/history.py``
    shows the interface) -- None: the mafia presets' shared one (``bot/history``);
    ``webapp``: the game's view for the Mini App (``bot/webapp/``, docs/miniapp.md): an object
    with ``table(_, st, viewer, events, g)`` and ``buttons(_, st, viewer, g)`` (``g``: the live
    game, for the viewer's drafts, ``bot/ui/drafts.py``) -- None: the game has no live table page
    yet."""

    name: str
    presenter: type[GamePresenter]
    codec: Any
    deal: Callable[[Any, int | None, random.Random], Any]
    toggled_roles: Callable[[GameState, str], list[str]] | None = None
    chat_policy: Callable[[GameState, int, str], bool] | None = None
    has_host: bool = True
    timing_limits: dict[str, tuple[int, int]] | None = None
    settings_from: Callable[[dict, list[str]], dict] | None = None
    history: Any = None
    webapp: Any = None

    @property
    def timing_keys(self) -> tuple[str, ...]:
        """The timings this game uses, in the order the lobby and /settings show them."""
        return self.presenter.TIMING_KEYS

    def table_text(self, _: Gettext, st: GameState) -> str:
        """The game's table message for ``st``."""
        return self.presenter.table_text(_, st)


@dataclass
class Press:
    """One press of an in-game button, as the shared handler hands it to the game's codec.

    ``g``: the live game (``bot.services.game_service``), ``st``: its state, ``service``: the GameService,
    ``presenter``: the game's presenter (``bot/games/<name>/presenter.py``), ``_``: gettext in
    the game's language."""

    g: Any
    user_id: int
    data: Act
    st: GameState
    service: Any
    presenter: Any
    _: Callable[[str], str]

    def target(self) -> int | None:
        """The user id in seat ``data.t``; None for a seat that does not exist (a forged
        button)."""
        try:
            return self.st.by_seat(self.data.t).user_id
        except KeyError:
            return None


@dataclass(frozen=True)
class Viewer:
    """Who looks at the Mini App's table (``bot/webapp/``): ``user_id``; ``kind``: 'host' (sees
    everything), 'player' (a seated, living player: the public table plus the events addressed
    to him or his team) or 'onlooker' (an eliminated player, a group member, anyone after the
    end: the public table); ``judge``: he may use the judge's tools (the host, or a group admin
    when the game has no host: CLUB-41, CLUB-Q08)."""

    user_id: int
    kind: str
    judge: bool = False
