"""A tournament round's start in a table's group (issue 22, docs/tournaments.md *A round's
lobby*): ``/newgame`` (no arguments) while a round is due there, or the «▶️ Start round N»
button, opens the round's lobby with the scheduled seats (PARTY-X26,
``TournamentService.open_round``). Both go through :func:`start_here`: the same checks (the
table has a game in the round in progress, it is not open, the presser is the organiser, a judge
or an admin of that group) and the same lobby.

The button (``TourGo``: tournament, round, table) rides on messages the group gets anyway: the
standings posted at a round's end in the home group (the home table's button) and ``/tournament``
in any table's group (that table's). It opens a lobby only in the group it was pressed in, which
must be its table's group: a button never opens a lobby in another chat (a table's game starts
in its own group, by someone who may send ``/newgame`` there). A press is always answered: its
refusal (the round is played, not due yet, this table waits for the others, the game is open,
not allowed), or «out of date» for data that is stale or forged (no such tournament, another
group's table)."""

from __future__ import annotations

from html import escape, unescape
from typing import TYPE_CHECKING, Any

from aiogram import Bot
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message
from aiogram.utils.callback_answer import CallbackAnswer

from ..services.tournaments import RoundSlot
from ..storage import ActiveGameExists, TournamentRecord
from ..ui.callbacks import TourGo
from .common import Gettext, author, is_chat_admin, reply, say
from .tournament_tables import gettext_for, may_organise

if TYPE_CHECKING:
    from ..presentation.presenter import Presenter
    from ..services.tournaments import TournamentService
    from ..storage import Storage
    from ..telegram.sender import Sender
    from ..ui.i18n import Translator

#: statuses of an opened game that hold the table (a cancelled one may be opened again)
OPEN = ("lobby", "running")


# --- the button --------------------------------------------------------------------------------
def with_start(_: Gettext, markup: InlineKeyboardMarkup | None, tournament_id: int, round_no: int,
               table_no: int) -> InlineKeyboardMarkup:
    """``markup`` (may be None) with «▶️ Start round N» as its first row."""
    go = InlineKeyboardButton(text=_("▶️ Start round {r}").format(r=round_no),
                              callback_data=TourGo(t=tournament_id, r=round_no, n=table_no).pack())
    rows = [list(row) for row in markup.inline_keyboard] if markup is not None else []
    return InlineKeyboardMarkup(inline_keyboard=[[go], *rows])


async def start_markup(storage: Storage, tournaments: TournamentService, _: Gettext,
                       t: TournamentRecord, chat_id: int, markup: InlineKeyboardMarkup | None
                       ) -> InlineKeyboardMarkup | None:
    """``markup`` plus «▶️ Start round N» when ``chat_id`` is a table of ``t`` whose game of the
    round in progress can be opened now (not opened yet, or its game cancelled); else
    ``markup`` as it is."""
    if t.status not in ("drawn", "running"):
        return markup
    tables = await storage.tournament_tables(t.id)
    table_no = slot_table(chat_id, tables)
    if not table_no:
        return markup
    _due, slot = await tournaments.slot(t, table_no)
    if slot is None or (slot.opened is not None and slot.opened.status in OPEN):
        return markup
    return with_start(_, markup, t.id, slot.round, table_no)


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


# --- /newgame and the press: one way in ----------------------------------------------------------
async def start_here(chat_id: int, title: str, uid: int, tour: TournamentRecord,
                     slot: RoundSlot | None, due: int | None, *, bot: Bot, storage: Storage,
                     tr: Translator, presenter: Presenter, sender: Sender,
                     tournaments: TournamentService) -> tuple[str, bool]:
    """Open ``slot`` (this table's game of round ``due``) in ``chat_id`` for ``uid``: (the text
    for the group, True) when the lobby opened, else (the refusal, False)."""
    locale, _ = await gettext_for(storage, tr, chat_id)
    if slot is None:
        return await not_due(_, tour, due, chat_id, storage, tournaments), False
    busy = _("A game is already open in this chat. Finish it or /cancel it first.")
    if slot.opened is not None and slot.opened.status in OPEN:
        return busy, False
    if not (await may_organise(bot, tour, uid) or await is_chat_admin(bot, chat_id, uid)):
        return _("Only the tournament's organiser, a judge or a group admin can do that."), False
    presenter.titles[chat_id] = title
    settings = dict((await storage.get_chat_settings(chat_id)).data)
    for key in ("timings_of", "options"):
        settings.pop(key, None)
    try:
        _game_id, waiting = await tournaments.open_round(
            tour, slot, chat_id, uid, locale, settings, title, lambda u: u not in sender.blocked)
    except ActiveGameExists:
        return busy, False
    names = {p.user_id: p.name for p in await storage.tournament_players(tour.id, withdrawn=True)}
    text = _("🏆 «{name}», round {r}, table {t}: the scheduled players are seated.").format(
        name=escape(tour.name), r=slot.round, t=slot.game.table)
    if waiting:
        text += "\n" + _("Still to join with «Join»: {names}.").format(
            names=", ".join(escape(names.get(u, str(u))) for u in waiting))
    return text, True


async def round_due(message: Message, storage: Storage, tournaments: TournamentService
                    ) -> bool | dict[str, Any]:
    """Filter of /newgame (no arguments): the chat is a table of a drawn tournament whose
    round is due here; injects ``tour``, ``slot`` and ``due``."""
    t = await storage.tournament_for_chat(message.chat.id)
    if t is None or t.status not in ("drawn", "running"):
        return False
    tables = await storage.tournament_tables(t.id)
    table_no = next((n for n, c in tables.items() if c == message.chat.id), None)
    if table_no is None:
        return False
    due, slot = await tournaments.slot(t, table_no)
    return {"tour": t, "slot": slot, "due": due}


async def round_game(message: Message, bot: Bot, storage: Storage, tr: Translator,
                     presenter: Presenter, sender: Sender, tournaments: TournamentService,
                     tour: TournamentRecord, slot: RoundSlot | None, due: int | None) -> None:
    """``/newgame`` in a table's group: the round's lobby with the scheduled seats."""
    text, _opened = await start_here(
        message.chat.id, message.chat.title or "", author(message).id, tour, slot, due, bot=bot,
        storage=storage, tr=tr, presenter=presenter, sender=sender, tournaments=tournaments)
    reply(sender, message, text)


async def start_button(query: CallbackQuery, callback_data: TourGo, bot: Bot, storage: Storage,
                       tr: Translator, presenter: Presenter, sender: Sender,
                       tournaments: TournamentService, callback_answer: CallbackAnswer) -> None:
    """«▶️ Start round N»: what ``/newgame`` does in this group, for round ``r`` of table
    ``n`` only (see the module)."""
    chat = query.message.chat if query.message is not None else None
    _ = (await gettext_for(storage, tr, chat.id if chat else 0))[1]
    callback_answer.text = _("This button is out of date.")
    t = await storage.get_tournament(callback_data.t)
    if chat is None or t is None:
        return
    if (await storage.tournament_tables(t.id)).get(callback_data.n) != chat.id:
        return  # forged, or a table of another group: never a lobby in the wrong chat
    if t.status in ("registration", "closed"):
        return  # no schedule yet: no such button was ever sent
    r = callback_data.r
    due, slot = await tournaments.slot(t, callback_data.n)
    if due is not None and r < due:
        callback_answer.text = _("Round {r} is played already.").format(r=r)
        return
    if due is not None and r > due:
        callback_answer.text = _("Round {r} is not due yet: round {due} is being played.").format(
            r=r, due=due)
        return
    text, opened = await start_here(
        chat.id, chat.title or "", query.from_user.id, t, slot, due, bot=bot, storage=storage,
        tr=tr, presenter=presenter, sender=sender, tournaments=tournaments)
    if not opened:  # a callback answer is plain text of at most 200 characters
        callback_answer.text = unescape(text)[:200]
        return
    say(sender, chat.id, text)
    callback_answer.text = _("▶️ Round {r}: the lobby is open.").format(r=r)
