"""/tournament at the tables (issue 22): linking a group as a table, the judge's substitute in a
round's lobby (the lobby itself: bot/handlers/tournament_start.py); and what the other
/tournament handlers share (rights, the locale, a named user)."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError, TelegramBadRequest
from aiogram.types import Message

from engine import IllegalCommand

from ..storage import TournamentRecord
from .common import Gettext, author, chat_locale, display_name, is_chat_admin, refusal, reply

if TYPE_CHECKING:
    from ..services.tournaments import TournamentService
    from ..storage import Storage
    from ..telegram.sender import Sender
    from ..ui.i18n import Translator


async def gettext_for(storage: Storage, tr: Translator, chat_id: int) -> tuple[str, Gettext]:
    locale = tr.locale(await chat_locale(storage, chat_id))
    return locale, tr.get(locale)


async def may_organise(bot: Bot, t: TournamentRecord, user_id: int) -> bool:
    """The tournament's creator, a judge, or an admin of its home group."""
    return user_id == t.created_by or user_id in t.judges or \
        await is_chat_admin(bot, t.chat_id, user_id)


def target_of(message: Message, args: list[str]) -> tuple[int, str] | None:
    """The user a command names: the author of the replied message, a text mention, or an id
    (with an optional name after it). None: nobody, a bot, or a number that is no user id
    (a user's id is positive; a chat's is negative)."""
    if message.reply_to_message is not None and message.reply_to_message.from_user is not None:
        u = message.reply_to_message.from_user
        return None if u.is_bot else (u.id, display_name(u))
    for e in message.entities or []:
        if e.type == "text_mention" and e.user is not None:
            return None if e.user.is_bot else (e.user.id, display_name(e.user))
    if args and args[0].isdigit() and args[0].isascii() and int(args[0]) > 0:
        return int(args[0]), " ".join(args[1:])[:64] or args[0]
    return None


async def known(bot: Bot, chat_id: int, target: tuple[int, str]) -> tuple[int, str] | None:
    """``target`` (:func:`target_of`) with the user's Telegram name when the command gave a
    bare user ID (its name is the ID), asked of ``chat_id`` (getChatMember); None when Telegram
    refuses that ID there with a 400 (no such user: a mistyped ID, trial22 — it was registered
    and seated as «12345», a player nobody can reach). A name given with the ID is taken as is;
    any other failure keeps the ID as the name (e2e22)."""
    user_id, name = target
    if name != str(user_id):
        return target
    try:
        member = await bot.get_chat_member(chat_id, user_id)
    except TelegramBadRequest:
        return None
    except TelegramAPIError:
        return target
    return user_id, display_name(member.user)


def unknown_id(_: Gettext, sub: str, user_id: int) -> str:
    """The refusal of :func:`known`'s None."""
    return _("Telegram knows no user {id} in this group: check the ID, or give his name after "
             "it: /tournament {sub} {id} &lt;name&gt;.").format(id=user_id, sub=sub)


async def link_table(message: Message, args: list[str], bot: Bot, storage: Storage,
                     _: Gettext, sender: Sender) -> None:
    """``/tournament table <id>`` in another group, by an admin of both groups; refused after
    the draw, and in a group that is another open tournament's home or table (a group linked
    already just gets its number again)."""
    uid = author(message).id
    if not args or not args[0].isdigit():
        reply(sender, message, _("In the group of the new table: /tournament table &lt;tournament "
                                 "number&gt; (the number is on the registration message)."))
        return
    t = await storage.get_tournament(int(args[0]))
    if t is None or t.status == "finished":
        reply(sender, message, _("This tournament does not exist."))
        return
    if not (await is_chat_admin(bot, message.chat.id, uid)
            and await is_chat_admin(bot, t.chat_id, uid)):
        reply(sender, message, _("Only an admin of both groups can link a table."))
        return
    # trial22: a table linked after the draw never gets a game; a group that is already
    # another open tournament's home or table would hand its commands over to this one
    tables = await storage.tournament_tables(t.id)
    if message.chat.id not in tables.values():
        if t.status not in ("registration", "closed"):
            reply(sender, message, _("The seating of «{name}» is drawn: tables are linked "
                                     "before the draw.").format(name=escape(t.name)))
            return
        other = await storage.tournament_for_chat(message.chat.id)
        if other is not None and other.status != "finished":
            reply(sender, message, _("This group already plays the tournament «{name}» "
                                     "(#{id}): one open tournament per group.").format(
                name=escape(other.name), id=other.id))
            return
    table_no = await storage.link_tournament_table(t.id, message.chat.id)
    reply(sender, message, _("🪑 This group is table {n} of «{name}».").format(
        n=table_no, name=escape(t.name)))


async def substitute(message: Message, args: list[str], bot: Bot, storage: Storage,
                     _: Gettext, sender: Sender, tournaments: TournamentService, tr: Translator,
                     locale: str) -> str:
    """``/tournament sub <seat>`` replying to the substitute (or ``<seat> <user id>``)."""
    game_id = await tournaments.games.game_for_chat(message.chat.id)
    slot = None if game_id is None else await storage.tournament_of_game(game_id)
    if game_id is None or slot is None or slot.status != "lobby":
        return _("A substitute takes a seat in a tournament game's lobby only.")
    if not args or not args[0].isdigit():
        return _("/tournament sub &lt;seat&gt;, replying to the substitute's message (or "
                 "/tournament sub &lt;seat&gt; &lt;user ID&gt;).")
    target = target_of(message, args[1:])
    if target is None:
        return _("Reply to the substitute's message, or give his user ID.")
    # trial22: not a player of another table of this round; the names, not the ids, shown
    t = await storage.get_tournament(slot.tournament_id)
    schedule = None if t is None else tournaments.schedule(t)
    names = {} if t is None else {p.user_id: p.name for p in await storage.tournament_players(
        t.id, withdrawn=True)}
    elsewhere = next((g.table for g in (schedule.round(slot.round) if schedule else ())
                      if g.table != slot.table_no and target[0] in g.seats), None)
    if target[1] == str(target[0]) and target[0] in names:
        name = names[target[0]]
    else:
        found = await known(bot, message.chat.id, target)
        if found is None:
            return unknown_id(_, f"sub {args[0]}", target[0])
        name = found[1]
    if elsewhere is not None:
        return _("{name} plays at table {t} in this round.").format(name=escape(name),
                                                                    t=elsewhere)
    lobby = (await tournaments.games.live(game_id)).state
    in_lobby = {} if lobby is None else {u: p.name for u, p in lobby.players.items()}
    try:
        absent, seated = await tournaments.substitute(
            game_id, int(args[0]), target[0], name, author(message).id,
            lambda u: u not in sender.blocked)
    except ValueError as exc:
        return _("There is no such seat.") if str(exc) == "seat" else \
            _("This player is seated at this table already.")
    except IllegalCommand as exc:
        return refusal(tr, locale, exc)
    text = _("🔁 {name} takes seat {seat} instead of {absent}.")
    if not seated:
        text += "\n" + _("He joins with the lobby's «Join» button.")
    return text.format(name=escape(name), seat=int(args[0]),
                       absent=escape(names.get(absent) or in_lobby.get(absent, str(absent))))
