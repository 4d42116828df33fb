"""Community commands: /stats and /top (group), /me (group: this group; private: every group),
/nextgame (group: a private message when the next lobby opens here; ``/nextgame off`` cancels);
and the bot's own membership of a group (``my_chat_member``): removed or left, the group is marked
in :class:`bot.telegram.faults.LeftChats` at once (its queued messages are dropped, nothing more is
sent there, its open game is cancelled and the players are told privately); added back, the mark
is cleared. The update then goes on to the other routers (rights cache, greeting).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiogram import F, Router
from aiogram.dispatcher.event.bases import SkipHandler
from aiogram.filters import Command, CommandObject
from aiogram.types import ChatMemberUpdated, InlineKeyboardMarkup, Message

from ..history import games
from ..history import keyboards as kb
from ..history import render_points as rp
from ..history import render_stats as rs
from ..history.stats import MIN_GAMES_FOR_TOP, Standing, ranked, standings
from .common import Gettext, NGettext, display_name, say

if TYPE_CHECKING:
    from ..presentation.presenter import Presenter
    from ..services.game_service import GameService
    from ..storage import Storage
    from ..telegram.faults import LeftChats
    from ..telegram.sender import Sender
    from ..ui.i18n import Translator

GROUPS = F.chat.type.in_({"group", "supergroup"})
MAX_COMMUNITIES = 8  # communities shown by /me in a private chat (those with most games)


def router() -> Router:
    r = Router(name="community")
    r.my_chat_member.register(bot_membership_changed, GROUPS)
    r.message.register(stats_cmd, Command("stats"), GROUPS)
    r.message.register(top_cmd, Command("top"), GROUPS)
    r.message.register(me_cmd, Command("me"))
    r.message.register(nextgame_cmd, Command("nextgame"), GROUPS)
    r.message.register(group_only, Command("stats", "top", "nextgame"), F.chat.type == "private")
    return r


async def bot_membership_changed(update: ChatMemberUpdated, left: LeftChats) -> None:
    """Removed (``left``/``kicked``): mark the group as left — the Sender drops its queue and
    the app cancels its game (``bot.app``), without waiting for a 403. Back in: clear the mark.
    Handled, the update is *not* passed on; any other change is."""
    status = update.new_chat_member.status
    if status in ("left", "kicked"):
        left.mark(update.chat.id)
        return
    left.rejoined(update.chat.id)
    raise SkipHandler


async def _gettext(storage: Storage, tr: Translator,
                   chat_id: int | None) -> tuple[str, Gettext, NGettext]:
    locale = tr.locale((await storage.get_chat_settings(chat_id)).locale if chat_id else None)
    return locale, tr.get(locale), tr.nget(locale)


async def group_only(message: Message, tr: Translator, sender: Sender) -> None:
    _ = tr.get(None)
    say(sender, message.chat.id, _("Send this command in a group where I host games."))


async def stats_cmd(message: Message, storage: Storage, tr: Translator, sender: Sender) -> None:
    chat_id = message.chat.id
    locale, _, ngettext = await _gettext(storage, tr, chat_id)
    apart = games.hooked_rulesets()  # games shown apart from the mafia presets (NOIR)
    overview = await storage.chat_overview(chat_id, exclude=apart)
    roles = await storage.role_totals(chat_id=chat_id)
    board = standings(await storage.rating_tracks(chat_id=chat_id))
    overviews = await storage.chat_overviews(chat_id) if apart else {}
    others = [rs.game_section(_, ngettext, locale, name, overviews[name],
                              [r for r in roles if games.scope_of(r.team) == name])
              for name in apart if name in overviews]
    plain = [r for r in roles if games.scope_of(r.team) is None]
    say(sender, chat_id, rs.stats_text(_, ngettext, locale, message.chat.title or "", overview,
                                       plain, board, others))


async def top_cmd(message: Message, storage: Storage, tr: Translator, sender: Sender) -> None:
    text, markup = await top_view(storage, tr, message.chat.id, message.chat.title or "", False)
    say(sender, message.chat.id, text, markup)


async def top_view(storage: Storage, tr: Translator, chat_id: int, title: str,
                   points: bool) -> tuple[str, InlineKeyboardMarkup | None]:
    """/top: the Elo table, or (``points``) the points of the published score sheets; a chat
    with published sheets gets the button that switches between them (one message, edited:
    :func:`bot.handlers.history.history_button`), a chat without keeps the Elo alone."""
    locale, _, ngettext = await _gettext(storage, tr, chat_id)
    totals = await storage.points_totals(chat_id=chat_id)
    if points and totals:
        return rp.top_points_text(_, ngettext, locale, title, totals), rp.top_keyboard(_, True)
    board = standings(await storage.rating_tracks(chat_id=chat_id))
    text = rs.top_text(_, ngettext, locale, title, board)
    return text, rp.top_keyboard(_, False) if totals else None


def _place(board: list[Standing], user_id: int) -> tuple[Standing | None, int | None, int]:
    me = next((s for s in board if s.user_id == user_id), None)
    top = ranked(board, MIN_GAMES_FOR_TOP)
    rank = next((i for i, s in enumerate(top, start=1) if s.user_id == user_id), None)
    return me, rank, len(top)


async def me_cmd(message: Message, storage: Storage, tr: Translator, sender: Sender) -> None:
    user = message.from_user
    if user is None:
        return
    private = message.chat.type == "private"
    locale, _, ngettext = await _gettext(storage, tr, None if private else message.chat.id)
    if private:
        totals = await storage.role_totals(user_id=user.id)
    else:
        totals = await storage.role_totals(chat_id=message.chat.id, user_id=user.id)
    by_chat: dict[int, list] = {}
    for t in totals:
        by_chat.setdefault(t.chat_id, []).append(t)
    order = sorted(by_chat, key=lambda c: -sum(t.games for t in by_chat[c]))[:MAX_COMMUNITIES]
    sections = []
    for chat_id in order:
        board = standings(await storage.rating_tracks(chat_id=chat_id))
        me, rank, count = _place(board, user.id)
        title = message.chat.title or "" if not private else await storage.chat_title(chat_id)
        section = rs.me_section(_, ngettext, locale, title, me, rank, count, by_chat[chat_id])
        mine = await storage.points_totals(chat_id=chat_id, user_id=user.id, per_role=True)
        sections.append("\n".join([section, *rp.me_points_lines(_, ngettext, locale, mine)]))
    say(sender, message.chat.id, rs.me_text(_, display_name(user), sections))


async def nextgame_cmd(message: Message, command: CommandObject, storage: Storage, service: GameService,
                       presenter: Presenter, tr: Translator, sender: Sender) -> None:
    user = message.from_user
    if user is None:
        return
    chat_id = message.chat.id
    _locale, _, _n = await _gettext(storage, tr, chat_id)
    if (command.args or "").strip().lower() in ("off", "stop", "cancel"):
        if await storage.unsubscribe(chat_id, user.id):
            say(sender, chat_id, _("🔕 OK, no message about the next game."))
        else:
            say(sender, chat_id, _("You were not subscribed to the next game here."))
        return
    await storage.subscribe(chat_id, user.id, message.chat.title or "")
    text = _("🔔 I will message you privately when the next game opens here. "
             "/nextgame off cancels it.")
    if await service.game_for_chat(chat_id) is not None:
        text += "\n" + _("A game is already open or running here; I will tell you about the one "
                         "after it.")
    text += "\n" + _("Make sure you have started a private chat with me, or I cannot write to you.")
    say(sender, chat_id, text, kb.link_keyboard(_("📩 Open the bot"), presenter.bot_url()))
