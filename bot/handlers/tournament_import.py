"""``/tournament import`` (issue 22 item 5, docs/tournaments.md *Re-import*): a group admin sends
the JSON export (``/tournament export``) as a document captioned ``/tournament import``, or
replies ``/tournament import`` to that document; the bot checks it
(bot/services/tournament_import.py, tournament_restore.py) and imports it into this group — the
tournament's home — in one transaction, or says which field of the file is wrong."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError
from aiogram.types import Message

from ..services.tournament_import import ImportRefused
from ..services.tournament_restore import ALREADY, restore
from .common import Gettext, author, is_chat_admin, reply

if TYPE_CHECKING:
    from ..services.tournaments import TournamentService
    from ..telegram.sender import Sender

#: the largest file read (an export of 100 players and 100 games is about 400 KB)
MAX_BYTES = 5 * 1024 * 1024


def reason_text(_: Gettext, e: ImportRefused) -> str:
    """What is wrong with the file, in words (HTML): the field and the reason."""
    value = escape(e.value)
    reasons = {
        "not_json": _("the file is not JSON"),
        "not_ours": _("this is not a mafia-bot tournament export"),
        "version": _("format {value} is not one this bot reads (it reads 1)"),
        "missing": _("missing"),
        "type": _("a value of the wrong type ({value})"),
        "value": _("a value that cannot be ({value})"),
        "duplicate": _("appears twice ({value})"),
        "no_slot": _("the schedule has no game at round/table {value}"),
        "open_game": _("the game is still open ({value}): export after it ends"),
        "total": _("the total is not the sum of the points ({value})"),
        "players": _("the sheet's players are not the schedule's at round/table {value} (with "
                     "its substitutes)"),
        "standings": _("not what the games' sheets give"),
        "schedule": _("not a schedule ({value})"),
        "home": _("the tournament's home is another group ({value}): import it there"),
        "exists": _("tournament #{value} exists already, in another group or with other data"),
        "busy": _("that group plays the open tournament «{value}»"),
        "other_game": _("game #{value} of this database is another game (its group or "
                        "status differ)"),
        "log": _("not what game #{value}'s stored log scores"),
        "not_published": _("game #{value} has no published sheet here"),
        "conflict": _("the database refused it (imported meanwhile?)"),
    }
    reason = reasons.get(e.reason, escape(e.reason)).format(value=value)
    if not e.field:
        return _("❌ Not imported: {reason}. Nothing was written.").format(reason=reason)
    return _("❌ Not imported — {field}: {reason}. Nothing was written.").format(
        field=f"<code>{escape(e.field)}</code>", reason=reason)


async def import_tournament(message: Message, bot: Bot, _: Gettext, sender: Sender,
                            tournaments: TournamentService, locale: str) -> None:
    """``/tournament import``: a group admin only; the document attached or replied to."""
    if not await is_chat_admin(bot, message.chat.id, author(message).id):
        reply(sender, message, _("Only a group admin can import a tournament."))
        return
    doc = message.document or (message.reply_to_message.document
                               if message.reply_to_message is not None else None)
    if doc is None:
        reply(sender, message, _("Send the tournament's JSON export (/tournament export) with "
                                 "the caption /tournament import, or reply /tournament import "
                                 "to it."))
        return
    if doc.file_size is not None and doc.file_size > MAX_BYTES:
        reply(sender, message, _("The file is too large for a tournament export."))
        return
    try:
        got = await bot.download(doc)
    except (TelegramAPIError, OSError, TimeoutError):
        got = None
    if got is None:
        reply(sender, message, _("I could not download the file: send it again."))
        return
    raw = got.read(MAX_BYTES + 1)
    if len(raw) > MAX_BYTES:  # the size Telegram gave was missing or wrong
        reply(sender, message, _("The file is too large for a tournament export."))
        return
    try:
        outcome, t = await restore(tournaments, raw, message.chat.id, locale)
    except ImportRefused as e:
        reply(sender, message, reason_text(_, e))
        return
    if outcome == ALREADY:
        reply(sender, message, _("«{name}» (#{id}) is already here, with the same data: nothing "
                                 "to import.").format(name=escape(t.name), id=t.id))
        return
    played = await tournaments.storage.tournament_games(t.id)
    reply(sender, message, _("📥 «{name}» (#{id}) is imported: players {players}, games "
                             "{games}. /tournament shows the standings.").format(
        name=escape(t.name), id=t.id,
        players=len(await tournaments.storage.tournament_players(t.id)), games=len(played)))
