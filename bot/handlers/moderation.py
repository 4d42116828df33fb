"""The judge's tools for presets with fouls (club): /foul, /disqualify, /unfoul (take a foul
back), /unnominate (take a nomination made in error off the ballot), /panel (CLUB-36..41, Q06, Q15).

With a human host only he may foul (the engine checks it); without one, group admins may
(checked here, CLUB-Q08).  The target is the author of the replied-to message, or a seat number:
``/foul 4``.
"""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import Message

from engine import (
    CancelFoul, Disqualify, IllegalCommand, IssueFoul, UndoNomination, find_ruleset,
)

from .. import views
from .common import is_chat_admin, refusal, say

GROUPS = F.chat.type.in_({"group", "supergroup"})


def router() -> Router:
    r = Router(name="moderation")
    r.message.register(foul_cmd, Command("foul", "disqualify", "unfoul", "unnominate"), GROUPS)
    r.message.register(panel_cmd, Command("panel"))
    return r


async def _judge_ok(bot: Bot, message: Message, st) -> bool:
    uid = message.from_user.id if message.from_user else 0
    if st.host is not None:
        return uid == st.host
    anonymous = message.sender_chat is not None and message.sender_chat.id == message.chat.id
    return anonymous or await is_chat_admin(bot, message.chat.id, uid)


async def foul_cmd(message: Message, command: CommandObject, bot: Bot, service, tr,
                   sender) -> None:
    game_id = await service.game_for_chat(message.chat.id)
    _ = tr.get(None)
    if game_id is None:
        say(sender, message.chat.id, _("You are not in a running game."))
        return
    g = await service.live(game_id)
    _ = tr.get(g.locale)
    st = g.state
    if st is None or not find_ruleset(st.ruleset).fouls:
        say(sender, message.chat.id, _("This game has no fouls."))
        return
    if not await _judge_ok(bot, message, st):
        text = (_("This game has a host: only he gives fouls.") if st.host is not None
                else _("Only the host or a group admin can give fouls."))
        say(sender, message.chat.id, text)
        return
    target = None
    reply = message.reply_to_message
    if reply is not None and reply.from_user is not None and not reply.from_user.is_bot:
        target = reply.from_user.id
    elif (command.args or "").strip().lstrip("№#").isdigit():
        try:
            target = st.by_seat(int((command.args or "").strip().lstrip("№#"))).user_id
        except KeyError:
            target = None
    if target is None:
        say(sender, message.chat.id, _("Reply to the player's message with /foul, or give his "
                                       "seat: /foul 4."))
        return
    judge = message.from_user.id if message.from_user else None
    name = command.command
    if name == "unnominate":  # CLUB-Q06
        cmd = UndoNomination(user_id=judge, target=target)
    elif name == "unfoul":  # CLUB-Q15
        cmd = CancelFoul(user_id=judge, player=target)
    else:
        cmd = (Disqualify if name == "disqualify" else IssueFoul)(user_id=judge, player=target)
    try:
        await service.execute(game_id, cmd)
    except IllegalCommand as exc:
        say(sender, message.chat.id, refusal(tr, g.locale, exc))


async def panel_cmd(message: Message, bot: Bot, service, presenter, tr, sender) -> None:
    """Send the foul console to the host (or to an admin, privately)."""
    uid = message.from_user.id if message.from_user else 0
    if message.chat.type == "private":
        game_id = await service.game_for_user(uid)
    else:
        game_id = await service.game_for_chat(message.chat.id)
    _ = tr.get(None)
    if game_id is None:
        say(sender, message.chat.id, _("You are not in a running game."))
        return
    g = await service.live(game_id)
    _ = tr.get(g.locale)
    st = g.state
    allowed = st is not None and (uid == st.host or (
        st.host is None and await is_chat_admin(bot, g.chat_id, uid)))
    forum = st is not None and st.ruleset == "forum"  # FORUM: warnings and removals
    if not allowed or not (forum or find_ruleset(st.ruleset).fouls) or st.over:
        say(sender, message.chat.id, _("Only the host or a group admin can give fouls."))
        return
    if forum:
        presenter.send_moderation_panel(g, _, st, uid)
    else:
        presenter.send_foul_panel(g, _, st, uid)
    if message.chat.type != "private":
        say(sender, message.chat.id, _("📩 The console is in your private chat with the bot."))


__all__ = ["router", "views"]
