"""/history's pictures: the protocol as clubs print it, for a club or online game (one photo
sent when 🖼 is pressed under the protocol; its text pages when the photo cannot go), and the
replay of the boards, for a game with its own history (NOIR; docs/history.md):
one photo message per replay, sent when 🎬 Replay is pressed under the protocol, then edited in
place (``editMessageMedia``, as the live board) by ⏮ ◀ ▶ ⏭ (``Hist(a="rb")``).  When the
photo cannot go (no media right, an upload error: the send resolves to None or fails) the
same step goes as a text grid, and that message's buttons edit its text instead."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from html import escape

from aiogram.methods import EditMessageMedia, SendPhoto
from aiogram.types import BufferedInputFile, InlineKeyboardMarkup, InputMediaPhoto, Message

from engine.scoring import ScoreSheet

from ..history import keyboards as kb
from ..history.protocol_card import Card, Span, build_card, text_pages
from ..history.protocol_picture import draw
from ..history.service import Loaded
from ..telegram.sender import Sender
from ..ui.i18n import Translator

logger = logging.getLogger(__name__)
#: the presets whose protocol also goes as the clubs' picture (sport mafia)
PICTURE_PRESETS = ("club", "online")


def has_picture(loaded: Loaded) -> bool:
    return loaded.hook is None and loaded.info.ruleset in PICTURE_PRESETS


async def send_picture(sender: Sender, tr: Translator, locale: str, loaded: Loaded,
                       chat_id: int, sheet: ScoreSheet | None = None, *, draft: bool = False
                       ) -> None:
    """Send the game's protocol picture to ``chat_id`` as a new photo; its text pages instead
    when the photo does not go.  ``sheet``: the published score sheet's points (SCORE-X16);
    ``draft``: its sheet is not published yet (a note says so, no points)."""
    _ = tr.get(locale)

    def render() -> tuple[Card, bytes]:
        card = build_card(_, locale, loaded.protocol(), sheet, game_id=loaded.info.game_id)
        if draft:
            note = _("Score sheet: a draft. The points come with its publication.")
            card = replace(card, notes=(*card.notes, (Span(note),)))
        return card, draw(card)

    card, png = await asyncio.to_thread(render)
    fut = sender.call(SendPhoto(chat_id=chat_id, photo=BufferedInputFile(png, "protocol.png"),
                                caption=f"📜 {escape(card.title)}", parse_mode="HTML"), chat_id)

    def sent(f: asyncio.Future) -> None:
        if not f.cancelled() and f.exception() is None and f.result() is not None:
            return
        logger.info("history: the protocol picture did not go to %s; its text instead", chat_id)
        for page in text_pages(_, card):
            sender.send(chat_id, page)

    fut.add_done_callback(sent)


async def render_step(tr: Translator, locale: str, loaded: Loaded, step: int, back: int
                      ) -> tuple[int, int, str, bytes, str, InlineKeyboardMarkup | None]:
    """(step, steps, caption, PNG, text board, keyboard) of ``step`` (clamped)."""
    _ = tr.get(locale)
    steps = loaded.steps()
    n = len(steps)
    step = min(max(0, step), n - 1)
    head = _("🎬 <b>Replay of game #{id}</b> · step {k}/{n}").format(
        id=loaded.info.game_id, k=step + 1, n=n)
    hook = loaded.hook
    assert hook is not None  # only a game with its own history has boards (replayable)
    caption, png, text = await asyncio.to_thread(
        hook.step_view, _, loaded.entries, steps, step, head)
    return step, n, caption, png, text, kb.board_keyboard(_, loaded.info.game_id, step, n, back)


def replayable(loaded: Loaded) -> bool:
    """Whether the game's log replays to at least one board (a corrupt log is logged)."""
    try:
        return bool(loaded.steps())
    except ValueError:  # IllegalCommand too: a log the rules refuse
        logger.exception("game %s: its log does not replay", loaded.info.game_id)
        return False


async def open_replay(sender: Sender, tr: Translator, locale: str, loaded: Loaded, chat_id: int,
                      back: int) -> None:
    """Send step 1 as a new photo message (the text grid if the photo does not go)."""
    _s, _n, caption, png, text, markup = await render_step(tr, locale, loaded, 0, back)
    fut = sender.call(SendPhoto(chat_id=chat_id, photo=BufferedInputFile(png, "board.png"),
                                caption=caption, parse_mode="HTML", reply_markup=markup), chat_id)

    def sent(f: asyncio.Future) -> None:
        if not f.cancelled() and f.exception() is None and f.result() is not None:
            return
        logger.info("history: the board photo did not go to %s; the text board instead", chat_id)
        sender.send(chat_id, text, markup)

    fut.add_done_callback(sent)


async def step_replay(sender: Sender, tr: Translator, locale: str, loaded: Loaded, msg: Message,
                      step: int, back: int) -> None:
    """Show ``step`` on the pressed replay message: a new photo, or its text grid."""
    _s, _n, caption, png, text, markup = await render_step(tr, locale, loaded, step, back)
    if msg.photo:
        media = InputMediaPhoto(media=BufferedInputFile(png, "board.png"), caption=caption,
                                parse_mode="HTML")
        sender.call(EditMessageMedia(chat_id=msg.chat.id, message_id=msg.message_id, media=media,
                                     reply_markup=markup), msg.chat.id)
    else:
        sender.edit(msg.chat.id, msg.message_id, text, markup)
