"""Onlookers (ONLINE-43/44/45, Q21): /spectate and /unspectate, the deep link
``?start=spectate_<game>``, the onlookers' chat relayed between private chats, and the refusal
of every game button an onlooker presses.

Private texts are routed here before the mafia relay (``private.relay``): an eliminated player of
a running game, or an onlooker of one, talks in the onlookers' chat; a living player's text goes
on to the mafia relay. So a dead mafioso never reaches his living team, and nothing an onlooker
writes ever reaches a living player.
"""

from __future__ import annotations

import asyncio
from contextlib import suppress
from html import escape
from typing import TYPE_CHECKING

from aiogram import F, Router
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message
from aiogram.utils.callback_answer import CallbackAnswer

from engine import GameState

from ..presentation import views
from ..services.onlookers import gets_copies, onlookers_of, running, seated
from ..ui.callbacks import Act, Pressed
from ..ui.names import isolate
from .common import Gettext, author, chat_locale, display_name, say
from .discipline import game_in_chat

if TYPE_CHECKING:
    from ..presentation.presenter import Presenter
    from ..services.game_service import GameService, LiveGame
    from ..services.onlookers import Onlookers
    from ..telegram.sender import Sender
    from ..ui.i18n import Translator

GROUPS = F.chat.type.in_({"group", "supergroup"})
LINK = r"^spectate_\d{1,19}$"
DM_WAIT = 5.0  # seconds /spectate waits for its private message before offering the deep link
#: Buttons that are not a player's move: the organiser, host or an admin may follow the game as
#: an onlooker and keep these rights (the engine and game.py check them).
MANAGER_ACTIONS = {"pause", "resume", "next", "foul", "dq"}


def router() -> Router:
    r = Router(name="onlookers")
    r.message.register(spectate_link, CommandStart(deep_link=True, magic=F.args.regexp(LINK)),
                       F.chat.type == "private")
    r.message.register(spectate_cmd, Command("spectate"))
    r.message.register(unspectate_cmd, Command("unspectate"))
    r.callback_query.register(onlooker_button, Pressed(Act), pure_onlooker)
    r.message.register(onlooker_dm, F.chat.type == "private", F.text, ~F.text.startswith("/"),
                       onlookers_chat)
    return r


def _refusal(_: Gettext, st: GameState | None, user_id: int, other_game: int | None,
             game_id: int) -> str | None:
    """Why ``user_id`` may not watch this game (a running one: ``st`` is set), or None."""
    assert st is not None, game_id
    p = st.players.get(user_id)
    if p is not None and getattr(p, "seat", True) and getattr(p, "alive", True):
        return _("You are playing in this game; onlookers are those who do not.")
    if user_id == st.host:
        return _("You host this game and see everything already.")
    if other_game is not None and other_game != game_id:
        return _("You are in another game. Finish it first.")
    return None


async def _watching_elsewhere(_: Gettext, service: GameService, user_id: int, game_id: int) -> str | None:
    """Why ``user_id`` may not start watching game ``game_id`` yet, or None: he follows another
    running game that this worker does not hold (many workers, issue 12). Its owner keeps his
    place in that game's list, which only it may change (``Onlookers.add`` moves him only between
    the games held here), so he stops watching it first (his ``/unspectate`` is routed there).
    One process holds every open game: it never refuses. Cost: one scan of the running games'
    ``ui`` (``Storage.watched_game_for_user``), on /spectate only."""
    other = await service.storage.watched_game_for_user(user_id)
    if other is None or other[0] == game_id or other[0] in service.games:
        return None
    return _("👁 You are watching another game. Send me /unspectate in the private chat to stop "
             "it, then try again.")


def _welcome(_: Gettext, g: LiveGame, user_id: int) -> str:
    """The first private message of onlooker ``user_id``; an eliminated player in the group is
    told to watch it there (he gets no copies of its announcements, BOT-X02)."""
    title = escape(g.ui.get("title", ""))
    if gets_copies(g, user_id):
        text = _("👁 You are watching the game in «{chat}». I send you its announcements here; "
                 "what you write to me reaches only the other onlookers, never the players. "
                 "Onlookers cannot act. /unspectate stops it.")
    else:
        text = _("👁 You are watching the game in «{chat}»: follow it in the group; what you "
                 "write to me reaches only the other onlookers, never the players. Onlookers "
                 "cannot act. /unspectate stops it.")
    assert g.state is not None  # a running game's onlooker
    return text.format(chat=title) + "\n\n" + views.table_text(_, g.state)


# --- joining and leaving ---------------------------------------------------------------------
async def spectate_cmd(message: Message, service: GameService, tr: Translator, sender: Sender,
                       presenter: Presenter, onlookers: Onlookers) -> None:
    """In a group: watch its running game (a private message, or a deep link if the bot cannot
    write to the user yet). In a private chat: an eliminated player follows his game again."""
    user = message.from_user
    if user is None or user.is_bot:
        return
    if message.chat.type == "private":
        g = None
        game_id = await service.game_for_user(user.id)
        if game_id is not None:
            g = await service.live(game_id)
        if g is None or not running(g) or not seated(g.state, user.id):
            _ = tr.get(g.locale if g else None)
            say(sender, message.chat.id, _("Send /spectate in the group whose game you want "
                                           "to watch."))
            return
    else:
        g = game_in_chat(service, message.chat.id)
        if g is None:
            _ = tr.get(await chat_locale(service.storage, message.chat.id))
            say(sender, message.chat.id, _("There is no running game here to watch."))
            return
    _ = tr.get(g.locale)
    why = _refusal(_, g.state, user.id, await service.game_for_user(user.id), g.id) \
        or await _watching_elsewhere(_, service, user.id, g.id)
    if why is not None:
        say(sender, message.chat.id, why)
        return
    if user.id in onlookers_of(g):
        say(sender, user.id, _("👁 You are already watching this game. /unspectate stops it."))
        return
    delivered = None
    with suppress(TimeoutError):
        delivered = await asyncio.wait_for(asyncio.shield(
            sender.send(user.id, _welcome(_, g, user.id), merge=False)), DM_WAIT)
    if delivered is not None:
        onlookers.add(g, user.id)
        return
    # Never started the bot (or it is slow): the deep link opens the private chat and adds him.
    say(sender, message.chat.id, _("👁 To watch the game, open the bot and press «Start»:"),
        reply_markup=InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(
            text=_("👁 Watch the game"), url=presenter.deep_link(f"spectate_{g.id}"))]]))


async def spectate_link(message: Message, command: CommandObject, service: GameService, tr: Translator,
                        sender: Sender, onlookers: Onlookers) -> None:
    user = author(message)
    game_id = int((command.args or "").partition("_")[2])
    try:
        g = await service.live(game_id)
    except KeyError:
        g = None
    if g is None or not running(g):
        _ = tr.get(g.locale if g else None)
        say(sender, message.chat.id, _("This game is not running."))
        return
    _ = tr.get(g.locale)
    why = _refusal(_, g.state, user.id, await service.game_for_user(user.id), g.id) \
        or await _watching_elsewhere(_, service, user.id, g.id)
    if why is not None:
        say(sender, message.chat.id, why)
        return
    if not onlookers.add(g, user.id):
        say(sender, message.chat.id, _("👁 You are already watching this game. /unspectate "
                                       "stops it."))
        return
    say(sender, message.chat.id, _welcome(_, g, user.id))


async def unspectate_cmd(message: Message, service: GameService, tr: Translator, sender: Sender,
                         onlookers: Onlookers) -> None:
    user = message.from_user
    if user is None:
        return
    g = onlookers.watched_by(user.id)
    if g is None:
        _ = tr.get(await chat_locale(service.storage, message.chat.id))
        if message.chat.type != "private" \
                and await service.storage.watched_game_for_user(user.id) is not None:
            # many workers (issue 12): a group's /unspectate reaches the group's worker, not the
            # one holding the watched game; the private chat's is routed there
            say(sender, message.chat.id, _("👁 Send /unspectate in your private chat with me to "
                                           "stop watching."))
            return
        say(sender, message.chat.id, _("You are not watching a game."))
        return
    onlookers.remove(g, user.id)
    _ = tr.get(g.locale)
    say(sender, user.id, _("👁 You no longer follow the game. /spectate in its group brings you "
                           "back."))


# --- buttons ---------------------------------------------------------------------------------
async def pure_onlooker(query: CallbackQuery, callback_data: Act, service: GameService) -> bool:
    """Filter: a player's button pressed by an onlooker who is not a player of that game."""
    if callback_data.a in MANAGER_ACTIONS:
        return False
    g = service.games.get(callback_data.g)
    if g is None or g.state is None:
        return False
    uid = query.from_user.id
    st = g.state
    return uid in onlookers_of(g) and not seated(st, uid) and uid not in (st.host, st.organiser)


async def onlooker_button(query: CallbackQuery, callback_data: Act, service: GameService, tr: Translator,
                          callback_answer: CallbackAnswer) -> None:
    g = service.games.get(callback_data.g)
    _ = tr.get(g.locale if g else None)
    callback_answer.text = _("👁 Onlookers cannot act.")


# --- the onlookers' chat ---------------------------------------------------------------------
async def onlookers_chat(message: Message, service: GameService, onlookers: Onlookers) -> dict | bool:
    """Filter: the sender talks in an onlookers' chat (an eliminated player of a running game,
    or an onlooker of one); injects ``watch``. A living player never matches.

    His own game is read from memory (every open game is held there) and never loaded: with
    many workers (issue 12) a lobby player who watches a running game is routed to the worker
    holding the watched game, which must not load a copy of his lobby."""
    uid = message.from_user.id if message.from_user else None
    if uid is None:
        return False
    game_id = await service.game_for_user(uid)
    g = service.games.get(game_id) if game_id is not None else None
    if g is not None and running(g) and seated(g.state, uid):
        alive = getattr(g.state, "is_alive", None)  # NOIR: nobody leaves the table
        return False if alive is None or alive(uid) else {"watch": g}
    g = onlookers.watched_by(uid)
    return {"watch": g} if g is not None else False


async def onlooker_dm(message: Message, watch: LiveGame, tr: Translator, sender: Sender,
                      onlookers: Onlookers) -> None:
    g = watch
    uid = author(message).id
    _ = tr.get(g.locale)
    if uid not in onlookers_of(g):  # an eliminated player who stopped following
        say(sender, uid, _("You do not follow the game now; /spectate here brings you back. "
                           "Please do not help the living players."))
        return
    if not await onlookers.may_relay(uid):
        say(sender, uid, _("Slow down, please: the onlookers' chat takes a few messages a "
                           "minute."))
        return
    if onlookers.relay(g, uid, isolate(display_name(author(message)), "👁"), message.text or "") == 0:
        say(sender, uid, _("👁 No other onlooker is watching right now."))


__all__ = ["router"]
