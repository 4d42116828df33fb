"""Where a tournament seats people, said to them (issue 22, docs/tournaments.md): the answer to a
«Join» pressed at a round's lobby by somebody the schedule does not seat there (PARTY-X26 keeps
him out; this says where he plays instead), and the note on the linked tables a draw leaves
unused.

Group titles come from ``getChat`` (one call, no message); when Telegram does not give one,
the table is named by its number alone."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from html import escape
from typing import TYPE_CHECKING, Any

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError

from engine.tournament import Schedule

from .common import Gettext

if TYPE_CHECKING:
    from ..storage import Storage, TournamentRecord

logger = logging.getLogger(__name__)


async def group_title(bot: Bot, chat_id: int) -> str:
    """The group's title (HTML-escaped), or '' when Telegram does not give it."""
    try:
        chat = await bot.get_chat(chat_id)
    except (TelegramAPIError, OSError, TimeoutError):
        logger.info("no title of %s", chat_id)
        return ""
    return escape(chat.title or "")


async def _table(bot: Bot, _: Gettext, tables: Mapping[int, int], table_no: int) -> str:
    """«table 2 («Club B»)», or «table 2» without a title."""
    chat_id = tables.get(table_no)
    title = "" if chat_id is None else await group_title(bot, chat_id)
    return _("table {t} («{group}»)").format(t=table_no, group=title) if title else \
        _("table {t}").format(t=table_no)


async def not_seated_here(storage: Storage, bot: Bot, _: Gettext, ui: Mapping[str, Any],
                          table_chat: int, user_id: int) -> str | None:
    """The answer to ``user_id`` pressing «Join» at a tournament's lobby (its game's ``ui``
    names ``tournament`` and ``round``; the lobby is in ``table_chat``) whose seat order leaves
    him out: where he plays this round (table, its group, his seat; or as a substitute), that
    he sits this round out, that a substitute took his seat here, or — not a registered player
    — that this is a tournament table. None when the lobby is no tournament's (the engine's
    own refusal stands)."""
    tid, r = ui.get("tournament"), ui.get("round")
    if not isinstance(tid, int) or not isinstance(r, int):
        return None
    t = await storage.get_tournament(tid)
    if t is None or t.schedule is None:
        return None
    schedule = Schedule.from_dict(t.schedule)
    if not 1 <= r <= schedule.rounds:
        return None
    tables = await storage.tournament_tables(t.id)
    here = next((n for n, c in tables.items() if c == table_chat), None)
    name = escape(t.name)
    games = [g for g in await storage.tournament_games(t.id) if g.round == r]
    as_sub = next((g.table_no for g in games if user_id in g.substitutes.values()), None)
    if as_sub is not None and as_sub != here:
        return _("In round {r} of «{name}» you play at {table} as a substitute: join that "
                 "group's lobby.").format(r=r, name=name, table=await _table(bot, _, tables, as_sub))
    seated = next(((g.table, g.seats.index(user_id) + 1) for g in schedule.round(r)
                   if user_id in g.seats), None)
    if seated is not None:
        table_no, seat = seated
        if table_no == here:
            return _("A substitute plays your seat {seat} at this table in round {r} of "
                     "«{name}».").format(seat=seat, r=r, name=name)
        return _("In round {r} of «{name}» you play at {table}, seat {seat}: join that "
                 "group's lobby.").format(r=r, name=name, seat=seat,
                                          table=await _table(bot, _, tables, table_no))
    registered = {p.user_id for p in await storage.tournament_players(t.id)}
    if user_id in registered:
        return _("You sit out round {r} of «{name}»: the schedule seats you in another "
                 "round (/tournament schedule).").format(r=r, name=name)
    return _("This is a table of the tournament «{name}»: only its scheduled players join "
             "(/tournament schedule).").format(name=name)


async def unused_tables_note(bot: Bot, _: Gettext, t: TournamentRecord, schedule: Schedule,
                             tables: Mapping[int, int]) -> str:
    """The line the draw adds for the linked tables the schedule does not use (fewer tables at
    once than linked: at most one per ten players), naming each with its group; '' when every
    linked table plays."""
    unused = sorted(n for n in tables if n > schedule.tables)
    if not unused:
        return ""
    names = ", ".join([await _table(bot, _, tables, n) for n in unused])
    return _("Not used: {tables} ({players} players, tables at once: {n}); no round of "
             "«{name}» is played there.").format(
        tables=names, players=len(schedule.players), n=schedule.tables, name=escape(t.name))
