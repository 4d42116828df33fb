"""The judge's tools for presets with fouls (club): /foul, /disqualify, /unfoul (take a foul
back), /unnominate (take a nomination made in error off the ballot), /panel (CLUB-36..41, Q06, Q15).

With a human host only he may foul (the engine checks it); without one, group admins may
(checked here, CLUB-Q08).  The target is the author of the replied-to message, or a seat number:
``/foul 4``; a seat nobody sits on is answered "there is no seat 99" with the table's range.
Every answer is a reply to the command message.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import Message

from engine import (
    CancelFoul,
    Disqualify,
    GameState,
    IllegalCommand,
    IssueFoul,
    UndoNomination,
    find_ruleset,
)

from ..presentation import views
from ..ui.replies import answering
from .common import (
    chat_locale,
    is_chat_admin,
    no_seat_text,
    refusal,
    refuse,
    reply,
    seat_user,
    sender_locale,
)

if TYPE_CHECKING:
    from ..presentation.presenter import Presenter
    from ..services.game_service import GameService
    from ..telegram.sender import Sender
    from ..ui.i18n import Translator

GROUPS = F.chat.type.in_({"group", "supergroup"})


def router() -> Router:
    r = Router(name="moderation")
    r.message.register(foul_cmd, Command("foul", "disqualify", "unfoul", "unnominate"), GROUPS)
    r.message.register(panel_cmd, Command("panel"))
    return r


async def _judge_ok(bot: Bot, message: Message, st: GameState) -> bool:
    uid = message.from_user.id if message.from_user else 0
    if st.host is not None:
        return uid == st.host
    anonymous = message.sender_chat is not None and message.sender_chat.id == message.chat.id
    return anonymous or await is_chat_admin(bot, message.chat.id, uid)


async def foul_cmd(message: Message, command: CommandObject, bot: Bot, service: GameService, tr: Translator,
                   sender: Sender) -> None:
    game_id = await service.game_for_chat(message.chat.id)
    if game_id is None:  # e.g. /foul 3 after the end (issue 20): the judge plays no game
        _ = tr.get(await chat_locale(service.storage, message.chat.id))
        refuse(sender, message, _("There is no open game here. /newgame starts one."))
        return
    g = await service.live(game_id)
    _ = tr.get(g.locale)
    st = g.state
    if st is None or not find_ruleset(st.ruleset).fouls:
        refuse(sender, message, _("This game has no fouls."))  # once a minute (issue 20)
        return
    if not await _judge_ok(bot, message, st):
        text = (_("This game has a host: only he gives fouls.") if st.host is not None
                else _("Only the host or a group admin can give fouls."))
        refuse(sender, message, text)
        return
    target = None
    replied = message.reply_to_message
    arg = (command.args or "").strip().lstrip("№#")
    if replied is not None and replied.from_user is not None and not replied.from_user.is_bot:
        target = replied.from_user.id
    elif re.fullmatch(r"[+-]?\d{1,18}", arg):
        target = seat_user(st, int(arg))
        if target is None:
            reply(sender, message, no_seat_text(_, st, int(arg)))  # a slip: always answered
            return
    if target is None:
        reply(sender, message, _("Reply to the player's message with /{command}, or give the "
                                 "seat: /{command} 4.").format(command=command.command))
        return
    judge = message.from_user.id if message.from_user else None
    name = command.command
    cmd: UndoNomination | CancelFoul | Disqualify | IssueFoul
    if name == "unnominate":  # CLUB-Q06
        cmd = UndoNomination(user_id=judge, target=target)
    elif name == "unfoul":  # CLUB-Q15
        cmd = CancelFoul(user_id=judge, player=target)
    else:
        cmd = (Disqualify if name == "disqualify" else IssueFoul)(user_id=judge, player=target)
    try:
        with answering(message):  # the foul's announcement replies to the judge's command
            await service.execute(game_id, cmd)
    except IllegalCommand as exc:
        refuse(sender, message, refusal(tr, g.locale, exc))


async def panel_cmd(message: Message, bot: Bot, service: GameService, presenter: Presenter, tr: Translator,
                    sender: Sender) -> None:
    """Send the judge's console to the host (or to an admin, privately): fouls, the clock,
    Undo, a procedural loss, and the record per seat (``bot/games/club/console.py``)."""
    uid = message.from_user.id if message.from_user else 0
    if message.chat.type == "private":
        game_id = await service.game_for_user(uid)
    else:
        game_id = await service.game_for_chat(message.chat.id)
    _ = tr.get(sender_locale(message) if message.chat.type == "private"  # issue 20: his
               else await chat_locale(service.storage, message.chat.id))  # or the group's
    if game_id is None:
        refuse(sender, message, _("You are not in a running game."))
        return
    g = await service.live(game_id)
    _ = tr.get(g.locale)
    st = g.state
    allowed = st is not None and (uid == st.host or (
        st.host is None and await is_chat_admin(bot, g.chat_id, uid)))
    forum = st is not None and st.ruleset == "forum"  # FORUM: warnings and removals
    if st is None or not allowed or not (forum or find_ruleset(st.ruleset).fouls) or st.over:
        refuse(sender, message, _("Only the host or a group admin can give fouls."))
        return
    if forum:
        presenter.send_moderation_panel(g, _, st, uid)
    else:  # the club's console reads its record from the stored events (after a restart)
        log = await service.storage.load_events(game_id)
        presenter.send_foul_panel(g, _, st, uid, log)
    if message.chat.type != "private":
        reply(sender, message, _("📩 The console is in your private chat with the bot."))


__all__ = ["router", "views"]
