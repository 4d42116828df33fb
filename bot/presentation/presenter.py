"""Presenter: engine events × audience → localized messages queued on the Sender (design.md §1).

This shared part knows no game: it keeps the refs of standing messages (lobby, table, turn, …:
``g.refs`` while a send is in flight, ``g.ui`` once its message id is known), sends to the group
and to private chats, and hands every engine step to the presenter of the game's own bot package
(``bot.games.bot_game(st.ruleset).presenter``; the mafia presets extend
``bot/games/mafia/presenter.py``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from aiogram.types import InlineKeyboardMarkup
from aiogram.utils.deep_linking import create_deep_link

from engine import GameState

from ..games import bot_game
from ..telegram.shown import reshowing
from ..ui.i18n import Translator
from ..ui.keyboards import button, markup_of
from ..ui.replies import reply_kwargs

if TYPE_CHECKING:
    from ..telegram.sender import Sender
    from ..ui.i18n import Gettext


class Presenter:
    """Renders events. ``on_ui_change(game)`` is called when a message id becomes known."""

    def __init__(self, sender: Sender, translator: Translator, bot_username: str,
                 on_ui_change: Callable[[Any], None] | None = None) -> None:
        self.sender = sender
        self.tr = translator
        self.bot_username = bot_username
        self.on_ui_change = on_ui_change
        self.titles: dict[int, str] = {}  # chat id -> title, for DMs
        self.clock = lambda: datetime.now(UTC)  # the service's clock (build_app sets it)
        #: the game deadlines' clock (``bot.services.deadlines.Deadlines``; build_app sets it): the
        #: clocks of what messages show (a held live edit, bot/games/mafia/live.py) run on it, so
        #: a simulation in game time (``ManualDeadlines``) fires them when production would; None:
        #: not timed
        self.deadlines: Any = None
        #: ``on_group_text(game, text)`` for every plain group text (no keyboard): the onlookers'
        #: copies (bot/services/onlookers.py)
        self.on_group_text: Callable[[Any, str], None] | None = None
        self._games: dict[str, Any] = {}
        #: the Mini App (bot/webapp/, docs/miniapp.md): its public base URL (None: off) and its
        #: short name from BotFather's /newapp (None: the bot's main Mini App)
        self.webapp_url: str | None = None
        self.webapp_name: str | None = None

    def game(self, ruleset: str) -> Any:
        """The presenter of the game ``ruleset`` (one per game, built on first use). Raises
        ``KeyError`` for a game with no bot package."""
        p = self._games.get(ruleset)
        if p is None:
            p = self._games[ruleset] = bot_game(ruleset).presenter(self)
        return p

    # --- entry point -------------------------------------------------------------------------
    def present(self, g: Any, before: GameState | None, after: GameState, events: list) -> None:
        """Queue the messages of one engine step (``before`` -> ``after``, its ``events``)."""
        self.game(after.ruleset).present(g, before, after, events)

    def deadline_moved(self, g: Any) -> None:
        """The running deadline ``g.deadline`` was moved on after its step was shown (BOT-X01,
        ``bot/services/visible_clock.py``): the game shows the new end (BOT-X03) and re-arms its clocks."""
        moved = getattr(self.game(g.state.ruleset), "deadline_moved", None)
        if moved is not None:
            moved(g)

    def arm_clock(self, g: Any, what: str, run_at: datetime, func: Callable[..., Awaitable[Any]],
                  *args: Any) -> None:
        """``await func(*args)`` at ``run_at`` (aware UTC) on the deadline clock, as the job
        ``clock:{game}:{what}`` (armed again: replaced; cancelled with the game's deadlines).
        Nothing without a deadline clock (no deadline is armed either)."""
        if self.deadlines is not None:
            self.deadlines.arm_job(f"clock:{g.id}:{what}", run_at, func, *args)

    def restarted(self, g: Any, now: datetime) -> None:
        """After a restart: let the game re-arm what it shows on a clock (``now``: aware UTC)."""
        self.game(g.state.ruleset).restarted(g, now)

    def unreachable(self, g: Any, user_id: int) -> None:
        """A DM to ``user_id`` failed with 403 and his game records nothing for it (NOIR): the
        game's presenter may tell the group (once)."""
        tell = getattr(self.game(g.state.ruleset), "unreachable", None)
        if tell is not None:
            tell(g, user_id)

    def reached(self, g: Any, user_id: int) -> None:
        """``user_id`` wrote to the bot (a private message, /start): a game that noted him as
        unreachable (NOIR) may send him again what he missed."""
        again = getattr(self.game(g.state.ruleset), "reached", None)
        if again is not None:
            again(g, user_id)

    def send_foul_panel(self, g: Any, _: Gettext, st: GameState, chat_id: int,
                        log: list[list[dict[str, Any]]] | None = None) -> None:
        """The judge's console (CLUB-36..39, CLUB-Q08) in ``chat_id``; ``log``: the game's
        stored events per command, for a console drawn from them (club: its record)."""
        game = self.game(st.ruleset)
        seed = getattr(game, "seed_log", None)
        if log is not None and seed is not None:
            seed(g, log)
        game.send_console(g, _, st, chat_id)

    def send_moderation_panel(self, g: Any, _: Gettext, st: GameState, chat_id: int) -> None:
        """The host's moderation console (FORUM-17, 18) in ``chat_id``."""
        self.game(st.ruleset).send_console(g, _, st, chat_id)

    # --- refs to standing messages -----------------------------------------------------------
    def ref(self, g: Any, key: str) -> Any:
        """The message id (or the pending send) of the standing message ``key``, or None."""
        return g.refs.get(key) or g.ui.get(key)

    def keep(self, g: Any, key: str, future: asyncio.Future[Any]) -> None:
        """Remember the send ``future`` as the standing message ``key``. A send dropped at once
        (an unreachable chat, or a chat that had this step before a crash: bot/telegram/shown.py) leaves
        the standing message known; one sent afresh for a step shown again supersedes the one
        stored for ``key``, which loses its buttons (issue 19)."""
        if future.done() and not future.cancelled() and future.result() is None:
            return
        g.refs[key] = future
        superseded = g.ui.get(key) if reshowing() else None

        def done(f: asyncio.Future[Any]) -> None:
            msg = f.result() if not f.cancelled() else None
            if msg is not None and getattr(msg, "message_id", None):
                if superseded and superseded != msg.message_id:
                    self.sender.edit_markup(msg.chat.id, superseded, None)
                g.ui[key] = msg.message_id
                if g.refs.get(key) is f:
                    del g.refs[key]
                if self.on_ui_change:
                    self.on_ui_change(g)

        future.add_done_callback(done)

    def edit(self, g: Any, key: str, chat_id: int, text: str,
             markup: InlineKeyboardMarkup | None = None) -> None:
        """Edit a standing message unless it already shows exactly this (saves the group budget)."""
        ref = self.ref(g, key)
        if ref is None:
            return
        shown = (text, markup.model_dump_json() if markup is not None else None)
        if g.refs.get("shown:" + key) == shown:
            return
        g.refs["shown:" + key] = shown
        self.sender.edit(chat_id, ref, text, markup)

    def remember(self, g: Any, key: str, text: str, markup: InlineKeyboardMarkup | None = None) -> None:
        """Note what the standing message ``key`` shows (``edit`` skips an identical edit)."""
        g.refs["shown:" + key] = (text, markup.model_dump_json() if markup is not None else None)

    # --- sending -----------------------------------------------------------------------------
    def group(self, g: Any, text: str, markup: InlineKeyboardMarkup | None = None,
              **kw: Any) -> asyncio.Future[Any]:
        kw = {**reply_kwargs(g.chat_id), **kw}  # an answer to a command replies to it
        fut = self.sender.send(g.chat_id, text, markup, **kw)
        if markup is None and self.on_group_text is not None:
            self.on_group_text(g, text)
        return fut

    def dm(self, user_id: int, text: str, markup: InlineKeyboardMarkup | None = None,
           **kw: Any) -> asyncio.Future[Any]:
        return self.sender.send(user_id, text, markup, **kw)

    def deep_link(self, payload: str) -> str:
        return create_deep_link(self.bot_username, "start", payload)

    def bot_url(self) -> str:
        return f"https://t.me/{self.bot_username}"

    # --- the Mini App (bot/webapp/) ----------------------------------------------------------
    def webapp_link(self, start_param: str) -> str:
        """The direct link that opens the Mini App with ``start_param`` (``g<game>``,
        ``t<tournament>``): ``t.me/<bot>/<app>?startapp=...`` (``t.me/<bot>?startapp=...``
        for the bot's main Mini App). Telegram allows no ``web_app`` button in a group."""
        app = f"/{self.webapp_name}" if self.webapp_name else ""
        return f"https://t.me/{self.bot_username}{app}?startapp={start_param}"

    def tournament_markup(self, _: Gettext, tournament_id: int) -> InlineKeyboardMarkup | None:
        """A group message's button to the tournament's pages (schedule, standings, my games:
        ``bot/webapp/tournament.py``), a direct link ``startapp=t<id>``; None when the Mini App
        is off."""
        if not self.webapp_url:
            return None
        return markup_of([[button(_("🏆 Tournament page"),
                                  url=self.webapp_link(f"t{tournament_id}"))]])

    def with_webapp(self, _: Gettext, g: Any, markup: InlineKeyboardMarkup | None, *, group: bool = False
                    ) -> InlineKeyboardMarkup | None:
        """``markup`` plus a row that opens the live table of ``g`` -- in a private chat a
        ``web_app`` button, in the group (where Telegram allows no ``web_app`` button) a link
        ``t.me/<bot>/<app>?startapp=g<id>`` -- or ``markup`` itself when the Mini App is off."""
        if not self.webapp_url:
            return markup
        if group:
            live = button(_("📺 Live table"), url=self.webapp_link(f"g{g.id}"))
        else:
            live = button(_("📺 Live table"), web_app=f"{self.webapp_url}/webapp/?g={g.id}")
        rows = [list(row) for row in markup.inline_keyboard] if markup is not None else []
        return markup_of([*rows, [live]])


__all__ = ["Presenter"]
