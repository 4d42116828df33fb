"""``/settings scoring``: a group's scoring system for its club and online games (issue 21;
docs/rules/scoring.md, SCORE-X20..X23).

``/settings scoring`` shows the figures; ``/settings scoring fiim|plain`` picks a named system;
``/settings scoring <field> <value>`` sets one figure on top of the current ones (the result is
the group's own figures, ``custom``).  Stored in the chat's settings under ``scoring`` (the dict
of :meth:`engine.scoring.ScoringSystem.to_settings`).  Changing it is for group admins only
(SCORE-X23: it is the club's table, not one lobby's); a bad figure is refused with a message that
names it and what it accepts (SCORE-X21).  A game keeps the system stamped at its /newgame
(SCORE-X22), so nothing is passed to an open game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiogram import Bot
from aiogram.types import Message

from engine.scoring import BadScoring, find_system, system_from_settings

from ..ui.callbacks import Cfg
from ..ui.scoring import (
    FIELDS,
    SYSTEMS,
    bad_scoring_text,
    chat_system,
    figures_text,
    parse_figure,
    usage_text,
)
from .common import Gettext, author, is_chat_admin, refuse, reply

if TYPE_CHECKING:
    from aiogram.utils.keyboard import InlineKeyboardBuilder

    from ..storage import Storage
    from ..telegram.sender import Sender

#: the systems' names as the Russian screens write them (SCORE-X21)
ALIASES = {"фиим": "fiim", "простая": "plain"}


async def may_set_scoring(bot: Bot, message: Message) -> bool:
    """SCORE-X23: a group admin (an anonymous admin posts as the group itself)."""
    if message.sender_chat is not None and message.sender_chat.id == message.chat.id:
        return True
    return await is_chat_admin(bot, message.chat.id, author(message).id)


async def scoring_cmd(message: Message, args: list[str], bot: Bot, storage: Storage,
                      sender: Sender, _: Gettext, locale: str, data: dict[str, Any]) -> None:
    """``/settings scoring ...`` (``args``: the words after ``scoring``); ``data``: the chat's
    settings, saved with the new ``scoring`` on success."""
    current = chat_system(data)
    if not args:
        reply(sender, message, figures_text(_, locale, current) + "\n\n" + usage_text(_))
        return
    if not await may_set_scoring(bot, message):
        refuse(sender, message, _("Only a group admin can do that."))
        return
    try:
        if len(args) == 1 and args[0].lower() not in FIELDS:
            new = find_system(ALIASES.get(args[0].lower(), args[0]))
        else:
            field = args[0].lower()
            value = parse_figure(field, args[1:])
            new = system_from_settings({**current.to_settings(), field: value})
    except BadScoring as error:
        reply(sender, message, bad_scoring_text(_, error))
        return
    data["scoring"] = new.to_settings()
    await storage.save_chat_settings(message.chat.id, data=data)
    reply(sender, message, "✅ " + figures_text(_, locale, new) + "\n\n"
          + _("The next club or online game is scored so; a game already open keeps its system."))


def scoring_buttons(_: Gettext, kb: InlineKeyboardBuilder, data: dict[str, Any]) -> int:
    """The panel's row of named systems (the current one marked); returns its width."""
    current = chat_system(data).name
    for name in SYSTEMS:
        label = _("FIIM") if name == "fiim" else _("Plain")
        kb.button(text=("✅ " if name == current else "📋 ") + label,
                  callback_data=Cfg(a="score", v=name))
    return len(SYSTEMS)


def pick_system(data: dict[str, Any], name: str) -> bool:
    """The panel's choice of a named system into ``data``; False for an unknown name."""
    if name not in SYSTEMS:
        return False
    data["scoring"] = SYSTEMS[name].to_settings()
    return True
