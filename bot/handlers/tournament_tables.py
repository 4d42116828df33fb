"""/tournament at the tables (issue 22): linking a group as a table, the round's lobby opened by
/newgame in a table's group while a round is due (the scheduled seats, PARTY-X26), the judge's
substitute; and what the other /tournament handlers share (rights, the locale, a named user)."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError, TelegramBadRequest
from aiogram.types import Message

from engine import IllegalCommand

from ..storage import ActiveGameExists, TournamentRecord
from .common import Gettext, author, chat_locale, display_name, is_chat_admin, refusal, reply

if TYPE_CHECKING:
    from ..presentation.presenter import Presenter
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


async def round_due(message: Message, storage: Storage, tournaments: TournamentService
                    ) -> bool | dict[str, Any]:
    """Filter of /newgame (no arguments): the chat is a table of a drawn tournament whose
    round is due here; injects ``tour`` and ``slot``."""
    t = await storage.tournament_for_chat(message.chat.id)
    if t is None or t.status not in ("drawn", "running"):
        return False
    tables = await storage.tournament_tables(t.id)
    table_no = next((n for n, c in tables.items() if c == message.chat.id), None)
    if table_no is None:
        return False
    due, slot = await tournaments.slot(t, table_no)
    return {"tour": t, "slot": slot, "due": due}


def slot_table(chat_id: int, tables: dict[int, int]) -> int:
    """The table number of ``chat_id`` among ``tables`` (0: none)."""
    return next((n for n, c in tables.items() if c == chat_id), 0)


async def not_due(_: Gettext, tour: TournamentRecord, due: int | None, chat_id: int,
                  storage: Storage, tournaments: TournamentService) -> str:
    """What ``/newgame`` answers in a table's group that has no lobby to open: every round
    played; a linked table the draw leaves unused; this table's game of round ``due`` done (the
    others still play); no game here in round ``due`` (trial22: the last two were one text,
    «no game in round 1», said to a table that had just played it)."""
    if not due:
        return _("Every round of «{name}» is played: /tournament.").format(name=escape(tour.name))
    schedule = tournaments.schedule(tour)
    table = slot_table(chat_id, await storage.tournament_tables(tour.id))
    if schedule is not None and table > schedule.tables:
        return _("«{name}» does not use this table: its rounds are played at the other "
                 "tables.").format(name=escape(tour.name))
    if schedule is not None and any(g.table == table for g in schedule.round(due)):
        return _("This table's game of round {r} is played: wait for the other "
                 "tables.").format(r=due)
    return _("This table has no game in round {r}: wait for the other tables.").format(r=due)


async def round_game(message: Message, bot: Bot, storage: Storage, tr: Translator,
                     presenter: Presenter, sender: Sender, tournaments: TournamentService,
                     tour: TournamentRecord, slot: Any, due: int | None) -> None:
    """``/newgame`` in a table's group: the round's lobby with the scheduled seats."""
    locale, _ = await gettext_for(storage, tr, message.chat.id)
    uid = author(message).id
    if slot is None:
        reply(sender, message, await not_due(_, tour, due, message.chat.id, storage,
                                             tournaments))
        return
    if slot.opened is not None and slot.opened.status in ("lobby", "running"):
        reply(sender, message, _("A game is already open in this chat. Finish it or /cancel "
                                 "it first."))
        return
    if not (await may_organise(bot, tour, uid) or await is_chat_admin(bot, message.chat.id, uid)):
        reply(sender, message, _("Only the tournament's organiser, a judge or a group admin "
                                 "can do that."))
        return
    title = message.chat.title or ""
    presenter.titles[message.chat.id] = title
    settings = dict((await storage.get_chat_settings(message.chat.id)).data)
    for key in ("timings_of", "options"):
        settings.pop(key, None)
    try:
        _game_id, waiting = await tournaments.open_round(
            tour, slot, message.chat.id, uid, locale, settings, title,
            lambda u: u not in sender.blocked)
    except ActiveGameExists:
        reply(sender, message, _("A game is already open in this chat. Finish it or /cancel "
                                 "it first."))
        return
    names = {p.user_id: p.name for p in await storage.tournament_players(tour.id, withdrawn=True)}
    text = _("🏆 «{name}», round {r}, table {t}: the scheduled players are seated.").format(
        name=escape(tour.name), r=slot.round, t=slot.game.table)
    if waiting:
        text += "\n" + _("Still to join with «Join»: {names}.").format(
            names=", ".join(escape(names.get(u, str(u))) for u in waiting))
    reply(sender, message, text)
