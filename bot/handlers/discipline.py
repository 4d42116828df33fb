"""Group chat discipline (CLUB-06/14, ONLINE-35/38, ONLINE-Q18) and last words by private
message (ONLINE-42).

* A plain group message (not a command) from someone who may not write now
  (:func:`bot.services.discipline.may_write`) is deleted when the bot is an admin with the right to delete
  messages; otherwise the bot says once per game that it cannot enforce the chat rules and the
  host should foul. It never touches messages of bots, group admins or anonymous admins.
  The bot's rights are read once per game (``getChatMember`` on itself) and kept in
  ``g.ui["can_delete"]``; a ``my_chat_member`` update (promoted or demoted) refreshes them.
  With privacy mode on, a bot that is not an admin sees only commands and replies to it, so
  this works fully only with the bot as an admin.
* During his last word a speaker may send the text to the bot privately; it is published in
  the group under "🟢 Last word of №n" in a quote block (up to ``LAST_WORD_LIMIT`` characters
  in ``LAST_WORD_PARTS`` messages per turn), which works without admin rights.
"""

from __future__ import annotations

import asyncio
import logging
import time
from html import escape
from typing import TYPE_CHECKING, Any

from aiogram import Bot, F, Router
from aiogram.dispatcher.event.bases import SkipHandler
from aiogram.exceptions import TelegramAPIError
from aiogram.types import ChatMemberUpdated, Message

from engine import game_of

from ..services import said
from ..services.discipline import LAST_WORD_LIMIT, LAST_WORD_PARTS, last_word_speaker, may_write
from ..services.onlookers import running
from ..ui.texts import label
from .common import ADMIN_STATUSES, author, say

if TYPE_CHECKING:
    from ..presentation.presenter import Presenter
    from ..services.game_service import GameService, LiveGame
    from ..telegram.sender import Sender
    from ..ui.i18n import Translator

logger = logging.getLogger(__name__)

GROUPS = F.chat.type.in_({"group", "supergroup"})
#: Message kinds a person posts (service messages, such as members joining, are left alone).
POSTS = {"text", "photo", "video", "animation", "sticker", "voice", "video_note", "audio",
         "document", "poll", "dice", "location", "venue", "contact", "story"}
ADMINS_TTL = 600.0  # seconds the group's admin list is trusted before it is read again


def router() -> Router:
    r = Router(name="discipline")
    r.my_chat_member.register(bot_rights_changed, GROUPS)
    r.message.register(last_word_dm, F.chat.type == "private", F.text, ~F.text.startswith("/"),
                       speaking_last_word)
    r.message.register(group_post, GROUPS, F.content_type.in_(POSTS), not_a_command)
    return r


def game_in_chat(service: GameService, chat_id: int) -> LiveGame | None:
    """The running game of a group from memory (every open game is kept there), or None."""
    for g in list(service.games.values()):
        if g.chat_id == chat_id and running(g):
            return g
    return None


# --- group messages --------------------------------------------------------------------------
def not_a_command(message: Message) -> bool:
    """Filter: commands (even ones no router takes) pass on to the other routers."""
    return not (message.text or "").startswith("/")


async def group_post(message: Message, bot: Bot, service: GameService, tr: Translator,
                     sender: Sender) -> None:
    user = message.from_user
    if user is None or user.is_bot or message.sender_chat is not None \
            or message.is_automatic_forward:
        raise SkipHandler  # the bot itself, other bots, anonymous admins, channels
    g = game_in_chat(service, message.chat.id)
    if g is None:
        raise SkipHandler
    st = g.state
    assert st is not None  # game_in_chat: a running game (its state never goes back to None)
    if game_of(st).back(st, user.id) is not None:
        await service.touch(g.id, user.id)  # any update brings a player back (ONLINE-Q20)
        st = g.state
        assert st is not None
    text = message.text or message.caption or ""
    if may_write(st, user.id, st.ruleset) or await _is_admin(bot, g, user.id) is not False:
        said.record(g, user.id, text, message.date)  # ONLINE-41: /said n
        raise SkipHandler  # allowed (or we cannot tell): a later router may still read it
    can_delete = await _can_delete(bot, g, service)
    if can_delete:
        fut = sender.delete(message.chat.id, message.message_id)
        fut.add_done_callback(lambda f: _after_delete(f, g, service))
        return
    said.record(g, user.id, text, message.date)  # it stays in the chat
    if can_delete is False:
        _note_once(g, service, tr, sender)


async def _is_admin(bot: Bot, g: LiveGame, user_id: int) -> bool | None:
    """Group admins are never censored. Their list is read once per ``ADMINS_TTL`` seconds
    (kept in memory only). None when it cannot be read now."""
    cached = g.refs.get("admins")
    now = time.monotonic()
    if cached is None or now - cached[1] > ADMINS_TTL:
        try:
            admins = await bot.get_chat_administrators(g.chat_id)
        except TelegramAPIError:
            logger.info("getChatAdministrators failed for chat %s", g.chat_id)
            return None
        cached = g.refs["admins"] = (frozenset(m.user.id for m in admins), now)
    return user_id in cached[0]


async def _can_delete(bot: Bot, g: LiveGame, service: GameService) -> bool | None:
    """The bot's right to delete messages in the game's group, read once per game and kept in
    ``g.ui``. None when it cannot be read now (asked again next time)."""
    known = g.ui.get("can_delete")
    if known is not None:
        return bool(known)
    try:
        me = await bot.get_chat_member(g.chat_id, bot.id)
    except TelegramAPIError:
        logger.info("getChatMember(bot) failed for chat %s", g.chat_id)
        return None
    can = me.status in ADMIN_STATUSES and bool(getattr(me, "can_delete_messages", False))
    g.ui["can_delete"] = can
    service.persist_ui_soon(g)
    return can


def _after_delete(fut: asyncio.Future[Any], g: LiveGame, service: GameService) -> None:
    if fut.cancelled() or fut.result():
        return
    # The deletion failed: the rights may be gone (or a human deleted it first). Read them
    # again at the next out-of-turn message instead of guessing now.
    g.ui["can_delete"] = None
    service.persist_ui_soon(g)


def _note_once(g: LiveGame, service: GameService, tr: Translator, sender: Sender) -> None:
    if g.ui.get("discipline_note"):
        return
    g.ui["discipline_note"] = True
    service.persist_ui_soon(g)
    _ = tr.get(g.locale)
    say(sender, g.chat_id, _(
        "🤐 Out-of-turn messages break this game's chat rules (at night, during someone else's "
        "speech or a vote, and from the eliminated and onlookers). I cannot delete them: make me "
        "an admin with the right to delete messages. Until then the host should give fouls or "
        "warnings."))


async def bot_rights_changed(update: ChatMemberUpdated, service: GameService) -> None:
    """The bot was promoted or demoted: refresh the cached right to delete, then let the
    membership handler (``private.bot_membership``) see the update too."""
    new = update.new_chat_member
    for g in list(service.games.values()):
        if g.chat_id == update.chat.id and g.state is not None and not g.state.over:
            g.ui["can_delete"] = new.status in ADMIN_STATUSES and \
                bool(getattr(new, "can_delete_messages", False))
            service.persist_ui_soon(g)
    raise SkipHandler


# --- last words by private message -----------------------------------------------------------
async def speaking_last_word(message: Message, service: GameService) -> dict | bool:
    """Filter: the sender gives his last word now; injects ``lw_game``."""
    uid = message.from_user.id if message.from_user else None
    for g in list(service.games.values()):
        if uid is not None and last_word_speaker(g.state, uid):
            return {"lw_game": g}
    return False


async def last_word_dm(message: Message, lw_game: LiveGame, service: GameService, tr: Translator,
                       sender: Sender, presenter: Presenter) -> None:
    g = lw_game
    st = g.state
    assert st is not None  # the filter found him speaking his last word in this game
    uid = author(message).id
    _ = tr.get(g.locale)
    text = (message.text or "").strip()
    if not text:
        return
    used = g.ui.get("last_word") or {}
    if used.get("seq") != st.phase_seq:
        used = {"seq": st.phase_seq, "chars": 0, "parts": 0}
    left = LAST_WORD_LIMIT - used["chars"]
    if left <= 0 or used["parts"] >= LAST_WORD_PARTS:
        say(sender, uid, _("Your last word is used up ({n} characters in {k} messages at "
                           "most).").format(n=LAST_WORD_LIMIT, k=LAST_WORD_PARTS))
        return
    part = text[:left]
    g.ui["last_word"] = {"seq": st.phase_seq, "chars": used["chars"] + len(part),
                         "parts": used["parts"] + 1}
    service.persist_ui_soon(g)
    head = _("🟢 Last word of {player}").format(player=label(st, uid))
    presenter.group(g, f"<b>{head}</b>\n<blockquote>{escape(part)}</blockquote>", merge=False)
    said.record(g, uid, part, message.date)
    note = _("🟢 Published in the group.")
    if len(part) < len(text):
        note += " " + _("Only the first {n} characters fit.").format(n=len(part))
    say(sender, uid, note)


__all__ = ["router", "game_in_chat", "not_a_command"]
