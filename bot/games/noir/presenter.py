"""NOIR's presenter: one board message in the group, edited in place after every action
(NOIR-42, Q22), and each player's identity card by DM, re-sent when it changes (NOIR-05, 15).

The board goes as a photo (``board.draw``) with the caption (``views.caption``); when the photo
cannot go (no media right, an upload error: the send resolves to None) the game switches to the
text board (``board.text_grid``) for good, remembered in ``g.ui["board_text"]``.  A photo is
only re-sent as an ``editMessageMedia`` when its bytes or caption changed.  The board is pinned
(silently) once sent, as the mafia presets pin their table, and unpinned when the game ends or is
cancelled; a chat where the bot may not pin just refuses the pin (the Sender logs it)."""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Sequence
from datetime import datetime
from html import escape
from typing import TYPE_CHECKING, Any

from aiogram.methods import EditMessageMedia, SendPhoto
from aiogram.types import BufferedInputFile, InputMediaPhoto

from engine.core.audience import Private
from engine.noir import (
    Event,
    GameCancelled,
    GameCreated,
    GameEnded,
    GameStarted,
    IdentityCard,
    NoirState,
    PlayerJoined,
    PlayerLeft,
    PlayerReturned,
    TurnTimedOut,
    private_card,
    public_board,
)

from ...ui.deadline_text import MOVED_MIN
from ...ui.names import isolate
from ..hints import Gettext
from . import board as drawing
from .dms import MenuMixin
from .live import NoirLive
from .lobby import lobby_markup, lobby_text
from .names import SUSPECTS, suspect_name
from .news import cancelled_text, news_lines, result_text
from .views import caption, identity_text

if TYPE_CHECKING:
    from ..hints import Out

logger = logging.getLogger(__name__)

KEY = "board"


class NoirPresenter(MenuMixin):
    TIMING_KEYS: tuple[str, ...] = ("turn",)

    def __init__(self, out: Out) -> None:
        self.out = out
        self.tr = out.tr

    # --- what the shared adapter asks of every game ----------------------------------------------
    @staticmethod
    def table_text(_: Gettext, st: NoirState, until: str | None = None) -> str:
        """The board as text with its caption (the onlookers' table, the text fallback)."""
        b = public_board(st)
        names = [suspect_name(_, s) for s in range(len(SUSPECTS))]
        grid = drawing.text_grid(b, names) if b.grid else ""
        legend = _("x dead · # arrested · * bomb · ! threat · + shield · ? interrogated")
        body = f"<pre>{escape(grid)}</pre>\n{escape(legend)}\n" if grid else ""
        return body + caption(_, st, b, until)

    def restarted(self, g: NoirLive, now: datetime) -> None:
        """Nothing runs on a clock between two commands, but the last step's messages may have
        been lost with the process (NOIR-X32): the board is shown again from the state (its
        caption's last-action line carries the last news), every open menu is edited to the
        current step (a same-turn step such as the Psycho's threats, the Suit's shield) and a
        menu whose send was lost is sent again; the drafts are still valid."""
        st = g.state
        if st is not None and st.phase == "play":
            _ = self.tr.get(g.locale)
            self.show_board(g, _, st)
            self.sync_menus(g, _, None, st, [], refresh=True)

    def deadline_moved(self, g: NoirLive) -> None:
        """BOT-X01 moved the running turn's deadline on (its messages waited in the Sender):
        the board's caption and the open menus show the new end once, when it moved by
        :data:`~bot.ui.deadline_text.MOVED_MIN` seconds or more from what they show (BOT-X03)."""
        st, shown = g.state, g.refs.get("until")
        if st is None or st.phase != "play" or g.deadline is None or shown is None \
                or abs((g.deadline - shown).total_seconds()) < MOVED_MIN:
            return
        _ = self.tr.get(g.locale)
        self.show_board(g, _, st)
        self.sync_menus(g, _, None, st, [], refresh=True)

    def present(self, g: NoirLive, before: NoirState | None, after: NoirState,
                events: Sequence[Event]) -> None:
        _ = self.tr.get(g.locale)
        for e in events:
            if isinstance(e, IdentityCard) and isinstance(e.audience, Private):
                self.out.dm(e.audience.user_id, identity_text(
                    _, after, private_card(after, e.audience.user_id)),
                    self.out.with_webapp(_, g, None))  # the live table, when configured
            elif isinstance(e, GameCreated | PlayerJoined | PlayerLeft) and after.phase == "lobby":
                self.refresh_lobby(g, _, after)
            elif isinstance(e, GameStarted):
                self.close_lobby(g, _("🎲 The game has started: {names}").format(
                    names=", ".join(isolate(after.players[u].name) for u in after.order)))
            elif isinstance(e, TurnTimedOut) and e.auto_pass and not e.auto:
                self.away_prompt(g, _, e.player)
            elif isinstance(e, GameCancelled):
                self.cancelled(g, _, before, after, e)
            elif isinstance(e, PlayerReturned) and e.player in (g.ui.get("unreachable") or []):
                self._resend(g, _, after, e.player)  # the menus follow below
        if after.phase in ("play", "ended") and events:
            self.show_board(g, _, after)
            lines = news_lines(_, after, events)
            if lines:
                self.out.group(g, "\n".join(lines))
            self.sync_menus(g, _, before, after, events)
        for e in events:
            if isinstance(e, GameEnded):
                self.out.group(g, result_text(_, after, e), merge=False)
                self.unpin_board(g)

    # --- the lobby and the end -------------------------------------------------------------------
    def refresh_lobby(self, g: NoirLive, _: Gettext, st: NoirState) -> None:
        text = lobby_text(_, self.tr.nget(g.locale), st)
        markup = lobby_markup(_, g.id, self.out.deep_link(f"join_{g.id}"))
        if self.out.ref(g, "lobby") is None:
            self.out.keep(g, "lobby", self.out.group(g, text, markup))
            self.out.remember(g, "lobby", text, markup)
        else:
            self.out.edit(g, "lobby", g.chat_id, text, markup)

    def close_lobby(self, g: NoirLive, text: str) -> None:
        if self.out.ref(g, "lobby") is not None:
            self.out.edit(g, "lobby", g.chat_id, text, None)

    def cancelled(self, g: NoirLive, _: Gettext, before: NoirState | None, st: NoirState,
                  e: GameCancelled) -> None:
        text = cancelled_text(_, e.reason)
        if e.reason == "bot_removed":
            for uid in st.players:
                self.out.dm(uid, _("✖️ The bot was removed from the group, so the game there "
                                   "is over."))
            return
        if before is not None and before.phase == "lobby" and self.out.ref(g, "lobby"):
            self.close_lobby(g, text)
            return
        self.out.group(g, text)
        self.unpin_board(g)
        self.sync_menus(g, _, before, st, [])

    def unreachable(self, g: NoirLive, user_id: int) -> None:
        """A DM to ``user_id`` failed with 403: the group is told once (his turns time out and
        then pass by themselves, NOIR-Q21; writing to the bot brings him back)."""
        st = g.state
        told = set(g.ui.get("unreachable") or [])
        if st is None or st.over or user_id not in st.players or user_id in told:
            return
        g.ui["unreachable"] = sorted(told | {user_id})
        self.out.on_ui_change and self.out.on_ui_change(g)
        _ = self.tr.get(g.locale)
        self.out.group(g, _("📵 {name} cannot get my private messages: his turns will time out. "
                            "{name}, open a private chat with me and press «Start».").format(
            name=isolate(st.players[user_id].name)))

    def reached(self, g: NoirLive, user_id: int) -> None:
        """NOIR-X31: a player told unreachable wrote to the bot (/start, any message): he is
        reachable again and gets his identity card and his current menu again."""
        st = g.state
        if st is None or st.phase != "play" or user_id not in (g.ui.get("unreachable") or []):
            return
        _ = self.tr.get(g.locale)
        self._resend(g, _, st, user_id)
        self.sync_menus(g, _, None, st, [])

    def _resend(self, g: NoirLive, _: Gettext, st: NoirState, uid: int) -> None:
        """Mark ``uid`` reachable, DM his identity card again and forget his menu (its send
        failed), so the next ``sync_menus`` sends it anew."""
        g.ui["unreachable"] = [u for u in g.ui.get("unreachable") or [] if u != uid]
        if uid in st.players:
            self.out.dm(uid, identity_text(_, st, private_card(st, uid)),
                        self.out.with_webapp(_, g, None))
        at = g.ui.pop(f"menu_at:{uid}", None)
        if at:
            for k in (at[2], "shown:" + at[2]):
                g.ui.pop(k, None)
                g.refs.pop(k, None)
        if self.out.on_ui_change:
            self.out.on_ui_change(g)

    # --- the board -------------------------------------------------------------------------------
    def show_board(self, g: NoirLive, _: Gettext, st: NoirState) -> None:
        if g.ui.get("board_text"):
            return self._text_board(g, _, st)
        b = public_board(st)
        png = drawing.draw(b, [suspect_name(_, s) for s in range(len(SUSPECTS))])
        text = caption(_, st, b, self.until(g))
        shown = hashlib.sha256(png + text.encode()).hexdigest()
        if g.refs.get("shown:" + KEY) == shown:
            return
        g.refs["shown:" + KEY] = shown
        photo = BufferedInputFile(png, filename="board.png")
        ref = self.out.ref(g, KEY)
        link = self.out.with_webapp(_, g, None, group=True) if not st.over else None
        if ref is None:
            fut = self.out.sender.call(SendPhoto(chat_id=g.chat_id, photo=photo, caption=text,
                                                 reply_markup=link), g.chat_id)
            fut.add_done_callback(lambda f: self._sent(g, st, f))
            fut.add_done_callback(lambda f: self._pin(g, f))
            self.out.keep(g, KEY, fut)
        else:
            fut = self.out.sender.call(EditMessageMedia(
                chat_id=g.chat_id, message_id=ref,
                media=InputMediaPhoto(media=photo, caption=text, parse_mode="HTML"),
                reply_markup=link), g.chat_id)
            fut.add_done_callback(lambda f: self._sent(g, st, f, edit=True))

    def _sent(self, g: NoirLive, st: NoirState, fut: asyncio.Future[Any], edit: bool = False) -> None:
        """A photo that did not go (None or an error): the board goes as text from now on.
        One edit that did not go is no proof (a retried edit whose first attempt went through
        is "not modified"; Telegram may be away a while): the board stays a photo and its next
        change edits it again; a second edit in a row that does not go switches to text."""
        ok = not fut.cancelled() and fut.exception() is None and fut.result() is not None
        if ok:
            g.refs.pop("failed:" + KEY, None)
            return
        if edit and not g.refs.get("failed:" + KEY):
            g.refs["failed:" + KEY] = True
            g.refs.pop("shown:" + KEY, None)
            return
        g.refs.pop("failed:" + KEY, None)
        logger.info("game %s: the board photo did not go; text board from now on", g.id)
        self.unpin_board(g)  # an edited photo was pinned: the text board takes its place
        g.ui["board_text"] = True
        g.ui.pop(KEY, None)
        g.refs.pop(KEY, None)
        g.refs.pop("shown:" + KEY, None)
        if self.out.on_ui_change:
            self.out.on_ui_change(g)
        self._text_board(g, self.tr.get(g.locale), g.state or st)

    def _pin(self, g: NoirLive, fut: asyncio.Future[Any]) -> None:
        """Pin the board just sent (silently); nothing when its send did not go."""
        ok = not fut.cancelled() and fut.exception() is None
        msg = fut.result() if ok else None
        if msg is not None:
            self.out.sender.pin(g.chat_id, msg.message_id)

    def unpin_board(self, g: NoirLive) -> None:
        """Unpin the board (the game is over, or a text board replaces the photo)."""
        ref = self.out.ref(g, KEY)
        if isinstance(ref, int):
            self.out.sender.unpin(g.chat_id, ref)

    def _text_board(self, g: NoirLive, _: Gettext, st: NoirState) -> None:
        text = self.table_text(_, st, self.until(g))
        link = self.out.with_webapp(_, g, None, group=True) if not st.over else None
        if self.out.ref(g, KEY) is None:
            fut = self.out.group(g, text, link, merge=False)  # pinned: one message of its own
            fut.add_done_callback(lambda f: self._pin(g, f))
            self.out.keep(g, KEY, fut)
            self.out.remember(g, KEY, text, link)
        else:
            self.out.edit(g, KEY, g.chat_id, text, link)
