"""/history: the group's finished games (paged), protocols, replays, "what I knew", JSON export
and admin deletion.  /stats, /me, /top and /nextgame live in :mod:`.community` (included here).

One group message is edited in place as the user moves between the list, a protocol and its
replay.  "What I knew" and the export go to the presser's private chat; if the bot cannot write
there yet (403), the callback answer opens it through a deep link (``?start=knew_<id>`` /
``?start=export_<id>``) and the private ``/start`` sends them.
"""

from __future__ import annotations

import asyncio

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import BufferedInputFile, CallbackQuery, InlineKeyboardMarkup, Message
from aiogram.utils.callback_answer import CallbackAnswer

from ..history import keyboards as kb
from ..history import render, sheet_view
from ..history.export import FORMAT, VERSION
from ..history.lines import Gettext
from ..history.service import HistoryService, Loaded, export_filename
from ..history.sheets import SheetService
from ..presentation.presenter import Presenter
from ..storage import Storage
from ..telegram.sender import Sender
from ..ui.callbacks import Hist, Pressed
from ..ui.i18n import Translator
from ..ui.names import isolate
from . import community
from . import history_boards as boards
from .common import is_chat_admin, say

View = tuple[str, InlineKeyboardMarkup | None]  # a message's text and keyboard
PAGE_SIZE = 10  # games per page of the list
DM_WAIT = 5.0  # seconds to wait for a private message before offering the deep link instead
DEEP_LINK = r"^(knew|export)_\d{1,19}$"


def router() -> Router:
    r = Router(name="history")
    r.message.register(history_cmd, Command("history"))
    r.message.register(start_link, CommandStart(deep_link=True, magic=F.args.regexp(DEEP_LINK)),
                       F.chat.type == "private")
    r.callback_query.register(history_button, Pressed(Hist))
    r.include_router(community.router())
    return r


async def chat_locale(storage: Storage, tr: Translator, chat_id: int) -> str:
    return tr.locale((await storage.get_chat_settings(chat_id)).locale)


# --- views (text, keyboard) --------------------------------------------------------------------
async def list_view(storage: Storage, tr: Translator, chat_id: int, page: int) -> View:
    locale = await chat_locale(storage, tr, chat_id)
    _, ngettext = tr.get(locale), tr.nget(locale)
    total = await storage.history_count(chat_id)
    pages = max(1, -(-total // PAGE_SIZE))
    page = min(max(0, page), pages - 1)
    infos = await storage.history_page(chat_id, page * PAGE_SIZE, PAGE_SIZE)
    points = await storage.game_points([i.game_id for i in infos])
    text = render.list_text(_, ngettext, locale, infos, page, pages, total, points)
    return text, kb.list_keyboard([i.game_id for i in infos], page, pages)


def protocol_view(tr: Translator, locale: str, loaded: Loaded, page: int, back: int,
                  points: str | None = None, player_points: dict[int, float] | None = None) -> View:
    """A protocol page; ``points``: the score sheet's block (bot/history/sheet_view.py), after
    the protocol; ``player_points``: the game's published points per user, shown on each
    player's line (None: no published sheet)."""
    _, ngettext = tr.get(locale), tr.nget(locale)
    if loaded.hook is not None:  # a game with its own history (NOIR)
        pages = render.hooked_protocol_pages(_, ngettext, locale, loaded.info, loaded.hook,
                                             loaded.entries)
    else:
        pages = render.protocol_pages(_, ngettext, locale, loaded.info, loaded.protocol(),
                                      player_points)
    if points:
        pages = pages[:-1] + render.paginate([pages[-1], points])
    page = min(max(0, page), len(pages) - 1)
    text = pages[page]
    if len(pages) > 1:
        text = _("📜 Game #{id} · page {k}/{n}").format(id=loaded.info.game_id, k=page + 1,
                                                       n=len(pages)) + "\n\n" + text
    return text, kb.protocol_keyboard(_, loaded.info.game_id, page, len(pages), back,
                                      picture=boards.has_picture(loaded))


def replay_view(tr: Translator, locale: str, loaded: Loaded, step: int, back: int) -> View:
    _ = tr.get(locale)
    pages = render.replay_pages(_, loaded.replay())
    step = min(max(0, step), len(pages) - 1)
    head = _("🎬 <b>Replay of game #{id}</b> · step {k}/{n}").format(
        id=loaded.info.game_id, k=step + 1, n=len(pages))
    return f"{head}\n\n{pages[step]}", kb.replay_keyboard(_, loaded.info.game_id, step,
                                                         len(pages), back)


def knew_view(tr: Translator, locale: str, loaded: Loaded, viewer: int, step: int) -> View:
    """The replay limited to what ``viewer`` saw (an onlooker: the public part)."""
    _ = tr.get(locale)
    if loaded.hook is not None:  # a game with its own history (NOIR): his identity cards
        pages = loaded.hook.knew_pages(_, loaded.entries, viewer)
    else:
        pages = render.replay_pages(_, loaded.replay(viewer, full=False))
    step = min(max(0, step), len(pages) - 1)
    head = _("🧠 <b>What you knew</b> · game #{id} · step {k}/{n}").format(
        id=loaded.info.game_id, k=step + 1, n=len(pages))
    return f"{head}\n\n{pages[step]}", kb.knew_keyboard(_, loaded.info.game_id, step, len(pages))


async def delivered(future: asyncio.Future) -> bool:
    """Whether a queued private message got through (still pending after DM_WAIT counts)."""
    try:
        return await asyncio.wait_for(asyncio.shield(future), DM_WAIT) is not None
    except TimeoutError:
        return True


def export_file(loaded: Loaded, data: bytes) -> BufferedInputFile:
    return BufferedInputFile(data, filename=export_filename(loaded.info.game_id))


def export_caption(_: Gettext, loaded: Loaded) -> str:
    return _("📄 Game #{id}: the full log ({format}, version {version}).").format(
        id=loaded.info.game_id, format=FORMAT, version=VERSION)


# --- handlers ----------------------------------------------------------------------------------
async def my_games_view(storage: Storage, tr: Translator, user_id: int, page: int) -> View:
    """The private /history: the user's own games (all groups); each opens "what I knew"."""
    locale = tr.locale(None)
    _, ngettext = tr.get(locale), tr.nget(locale)
    total = await storage.user_history_count(user_id)
    pages = max(1, -(-total // PAGE_SIZE))
    page = min(max(0, page), pages - 1)
    rows = await storage.user_history(user_id, page * PAGE_SIZE, PAGE_SIZE)
    text = render.my_games_text(_, ngettext, locale, rows, page, pages, total)
    return text, kb.my_games_keyboard([r[0].game_id for r in rows], page, pages)


async def tournament_view(storage: Storage, tr: Translator, chat_id: int, tournament: int | None,
                          page: int) -> View:
    """``/history tournament [id]``: the games of the tournament (``None``: the group's own),
    from any of its tables, listed in a group that is one of its tables (issue 22)."""
    locale = await chat_locale(storage, tr, chat_id)
    _, ngettext = tr.get(locale), tr.nget(locale)
    t = await (storage.get_tournament(tournament) if tournament is not None
               else storage.tournament_for_chat(chat_id))
    if t is None or chat_id not in (await storage.tournament_tables(t.id)).values():
        return _("No such tournament plays in this group: /history tournament &lt;number&gt; "
                 "(the number is on the tournament's registration message)."), None
    total = await storage.history_count(None, tournament=t.id)
    pages = max(1, -(-total // PAGE_SIZE))
    page = min(max(0, page), pages - 1)
    infos = await storage.history_page(None, page * PAGE_SIZE, PAGE_SIZE, tournament=t.id)
    head = _("🏆 Tournament «{name}» (#{id})").format(name=isolate(t.name, limit=128), id=t.id)
    text = head + "\n" + render.list_text(_, ngettext, locale, infos, page, pages, total)
    return text, kb.list_keyboard([i.game_id for i in infos], page, pages, tournament=t.id)


async def history_cmd(message: Message, command: CommandObject, storage: Storage, tr: Translator,
                      sender: Sender) -> None:
    args = (command.args or "").split()
    if message.chat.type == "private":
        assert message.from_user is not None  # a command always has its sender
        text, markup = await my_games_view(storage, tr, message.from_user.id, 0)
    elif args and args[0].lower() == "tournament":
        number = args[1] if len(args) > 1 and args[1].isdigit() else None
        text, markup = await tournament_view(storage, tr, message.chat.id,
                                             None if number is None else int(number), 0)
    else:
        text, markup = await list_view(storage, tr, message.chat.id, 0)
    say(sender, message.chat.id, text, markup)


async def start_link(message: Message, command: CommandObject, bot: Bot, storage: Storage,
                     tr: Translator, sender: Sender, history: HistoryService) -> None:
    """``/start knew_<id>`` and ``/start export_<id>`` in the private chat."""
    kind, _sep, raw = (command.args or "").partition("_")
    if message.from_user is None:
        return
    uid = message.from_user.id
    loaded = await history.load(int(raw))
    if loaded is None:
        _ = tr.get(None)
        say(sender, message.chat.id, _("This game is not in the history."))
        return
    locale = await chat_locale(storage, tr, loaded.info.chat_id)
    _ = tr.get(locale)
    if not await history.may_view(bot, loaded, uid):
        say(sender, message.chat.id, _("Only the players and the members of its group can see "
                                       "this game."))
        return
    if kind == "knew":
        text, markup = knew_view(tr, locale, loaded, uid, 0)
        say(sender, message.chat.id, text, markup)
    else:
        data = await history.export_bytes(loaded)
        sender.send_document(message.chat.id, export_file(loaded, data),
                             caption=export_caption(_, loaded))


async def history_button(query: CallbackQuery, callback_data: Hist, bot: Bot, storage: Storage,
                         tr: Translator, sender: Sender, presenter: Presenter,
                         history: HistoryService, sheets: SheetService,
                         callback_answer: CallbackAnswer) -> None:
    msg = query.message
    if msg is None:
        return
    chat_id, uid, a = msg.chat.id, query.from_user.id, callback_data.a
    private = msg.chat.type == "private"
    if a == "l":
        if private:
            _ = tr.get(None)
            callback_answer.text = _("This button is out of date.")
            return
        text, markup = await list_view(storage, tr, chat_id, callback_data.p)
        sender.edit(chat_id, msg.message_id, text, markup)
        return
    if a == "lt" and not private:
        text, markup = await tournament_view(storage, tr, chat_id, callback_data.g, callback_data.p)
        sender.edit(chat_id, msg.message_id, text, markup)
        return
    if a == "m":
        if not private:
            _ = tr.get(None)
            callback_answer.text = _("This button is out of date.")
            return
        text, markup = await my_games_view(storage, tr, uid, callback_data.p)
        sender.edit(chat_id, msg.message_id, text, markup)
        return
    if a in ("tp", "te"):  # /top: the points or the Elo, the same message
        if private:
            _ = tr.get(None)
            callback_answer.text = _("This button is out of date.")
            return
        text, markup = await community.top_view(storage, tr, chat_id, msg.chat.title or "",
                                                a == "tp")
        sender.edit(chat_id, msg.message_id, text, markup)
        return
    loaded = await history.load(callback_data.g)
    if loaded is None:
        _ = tr.get(None)
        callback_answer.text = _("This game is not in the history.")
        return
    locale = await chat_locale(storage, tr, loaded.info.chat_id)
    _ = tr.get(locale)
    if a == "k":  # stepping through "what I knew" in the private chat
        if not private or not await history.may_view(bot, loaded, uid):
            callback_answer.text = _("This button is out of date.")
            return
        text, markup = knew_view(tr, locale, loaded, uid, callback_data.p)
        sender.edit(chat_id, msg.message_id, text, markup)
        return
    if private or loaded.info.chat_id != chat_id:
        callback_answer.text = _("This button is out of date.")
        return
    back = callback_data.b
    if a == "p":
        sheet, record = await sheets.view(loaded.info.game_id)
        mine = (await storage.game_points([loaded.info.game_id])).get(loaded.info.game_id)
        text, markup = protocol_view(tr, locale, loaded, callback_data.p, back,
                                     sheet_view.history_block(_, locale, sheet, record),
                                     player_points=mine)
        sender.edit(chat_id, msg.message_id, text, markup)
    elif a == "pp" and boards.has_picture(loaded):  # the clubs' protocol picture
        sheet, record = await sheets.view(loaded.info.game_id)
        await boards.send_picture(sender, tr, locale, loaded, chat_id, sheet,
                                  draft=record is not None and not record.published)
    elif a in ("r", "rb") and loaded.hook is not None:  # the boards' replay (NOIR)
        if not boards.replayable(loaded):
            callback_answer.text = _("Nothing to show.")
        elif a == "r":  # a message of its own
            await boards.open_replay(sender, tr, locale, loaded, chat_id, back)
        elif isinstance(msg, Message):
            await boards.step_replay(sender, tr, locale, loaded, msg, callback_data.p, back)
        else:  # too old to edit
            callback_answer.text = _("This button is out of date.")
    elif a == "r":
        text, markup = replay_view(tr, locale, loaded, callback_data.p, back)
        sender.edit(chat_id, msg.message_id, text, markup)
    elif a == "kn":
        text, markup = knew_view(tr, locale, loaded, uid, 0)
        await _to_private(sender.send(uid, text, markup), presenter, callback_answer, _,
                          f"knew_{loaded.info.game_id}")
    elif a == "x":
        data = await history.export_bytes(loaded)
        fut = sender.send_document(uid, export_file(loaded, data), caption=export_caption(_, loaded))
        await _to_private(fut, presenter, callback_answer, _, f"export_{loaded.info.game_id}")
    elif a in ("d", "dy"):
        if not await is_chat_admin(bot, chat_id, uid):
            callback_answer.text = _("Only a group admin can do that.")
            return
        if a == "d":
            text = _("🗑 Delete game #{id} from this group's history? Its protocol, replay and "
                     "export disappear, and the statistics and ratings are recomputed without "
                     "it. This cannot be undone.").format(id=loaded.info.game_id)
            sender.edit(chat_id, msg.message_id, text, kb.delete_keyboard(_, loaded.info.game_id, back))
            return
        await history.delete(loaded.info.game_id, uid)
        callback_answer.text = _("The game was deleted from the history.")
        text, markup = await list_view(storage, tr, chat_id, back)
        sender.edit(chat_id, msg.message_id, text, markup)
    else:
        callback_answer.text = _("This button is out of date.")


async def _to_private(future: asyncio.Future, presenter: Presenter, callback_answer: CallbackAnswer,
                      _: Gettext, payload: str) -> None:
    if await delivered(future):
        callback_answer.text = _("Sent to your private chat with me.")
    else:  # the user never opened the bot: the answer opens it with the request as payload
        callback_answer.url = presenter.deep_link(payload)
