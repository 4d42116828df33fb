"""NOIR's presenter: one board message in the group, edited in place after every action
(NOIR-42, Q22), and each player's identity card by DM, re-sent when it changes (NOIR-05, 15).

The board goes as a photo (``board.draw``) with the caption (``views.caption``); when the photo
cannot go (no media right, an upload error: the send resolves to None) the game switches to the
text board (``board.text_grid``) for good, remembered in ``g.ui["board_text"]``.  A photo is
only re-sent as an ``editMessageMedia`` when its bytes or caption changed."""

from __future__ import annotations

import hashlib
import logging
from html import escape

from aiogram.methods import EditMessageMedia, SendPhoto
from aiogram.types import BufferedInputFile, InputMediaPhoto

from engine.core.audience import Private
from engine.noir import NoirState, private_card, public_board

from . import board as drawing
from .names import SUSPECTS, suspect_name
from .views import caption, identity_text

logger = logging.getLogger(__name__)

KEY = "board"


class NoirPresenter:
    TIMING_KEYS: tuple[str, ...] = ("turn",)

    def __init__(self, out) -> None:
        self.out = out
        self.tr = out.tr

    # --- what the shared adapter asks of every game ----------------------------------------------
    @staticmethod
    def table_text(_, st: NoirState) -> str:
        """The board as text with its caption (the onlookers' table, the text fallback)."""
        b = public_board(st)
        names = [suspect_name(_, s) for s in range(len(SUSPECTS))]
        grid = drawing.text_grid(b, names) if b.grid else ""
        legend = _("x dead · # arrested · * bomb · ! threat · + shield · ? interrogated")
        body = f"<pre>{escape(grid)}</pre>\n{escape(legend)}\n" if grid else ""
        return body + caption(_, st, b)

    def restarted(self, g, now) -> None:
        """Nothing runs on a clock between two commands (the caption shows the turn's length)."""

    def present(self, g, before, after: NoirState, events: list) -> None:
        _ = self.tr.get(g.locale)
        for e in events:
            if type(e).__name__ == "IdentityCard" and isinstance(e.audience, Private):
                self.out.dm(e.audience.user_id, identity_text(
                    _, after, private_card(after, e.audience.user_id)))
        if after.phase in ("play", "ended") and events:
            self.show_board(g, _, after)

    # --- the board -------------------------------------------------------------------------------
    def show_board(self, g, _, st: NoirState) -> None:
        if g.ui.get("board_text"):
            return self._text_board(g, _, st)
        b = public_board(st)
        png = drawing.draw(b, [suspect_name(_, s) for s in range(len(SUSPECTS))])
        text = caption(_, st, b)
        shown = hashlib.sha256(png + text.encode()).hexdigest()
        if g.refs.get("shown:" + KEY) == shown:
            return
        g.refs["shown:" + KEY] = shown
        photo = BufferedInputFile(png, filename="board.png")
        ref = self.out.ref(g, KEY)
        if ref is None:
            fut = self.out.sender.call(SendPhoto(chat_id=g.chat_id, photo=photo, caption=text),
                                       g.chat_id)
            fut.add_done_callback(lambda f: self._sent(g, st, f))
            self.out.keep(g, KEY, fut)
        else:
            fut = self.out.sender.call(EditMessageMedia(
                chat_id=g.chat_id, message_id=ref,
                media=InputMediaPhoto(media=photo, caption=text, parse_mode="HTML")), g.chat_id)
            fut.add_done_callback(lambda f: self._sent(g, st, f))

    def _sent(self, g, st: NoirState, fut) -> None:
        """A photo that did not go (None or an error): the board goes as text from now on."""
        ok = not fut.cancelled() and fut.exception() is None and fut.result() is not None
        if ok:
            return
        logger.info("game %s: the board photo did not go; text board from now on", g.id)
        g.ui["board_text"] = True
        g.ui.pop(KEY, None)
        g.refs.pop(KEY, None)
        g.refs.pop("shown:" + KEY, None)
        if self.out.on_ui_change:
            self.out.on_ui_change(g)
        self._text_board(g, self.tr.get(g.locale), g.state or st)

    def _text_board(self, g, _, st: NoirState) -> None:
        text = self.table_text(_, st)
        if self.out.ref(g, KEY) is None:
            self.out.keep(g, KEY, self.out.group(g, text))
            self.out.remember(g, KEY, text)
        else:
            self.out.edit(g, KEY, g.chat_id, text)
