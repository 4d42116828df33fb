"""Lobby: /newgame, joining through the deep link, /startgame, /cancel, lobby buttons."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from html import escape
from typing import TYPE_CHECKING

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message
from aiogram.utils.callback_answer import CallbackAnswer

from engine import BecomeHost, ChangeSettings, IllegalCommand, find_game, game_of
from engine.mafia.lobby import seat_order

from ..games import bot_game
from ..storage import ActiveGameExists, UserInAnotherGame
from ..ui.callbacks import LobbyAct, Pressed
from ..ui.replies import answering
from .common import (
    adopt_sender_locale,
    author,
    chat_locale,
    display_name,
    is_group_member,
    may_manage,
    refusal,
    reply,
    say,
    sender_locale,
)
from .community import group_only
from .tournament_seats import not_seated_here

if TYPE_CHECKING:
    from ..presentation.presenter import Presenter
    from ..services.game_service import GameService, LiveGame
    from ..storage import Storage
    from ..telegram.sender import Sender
    from ..ui.i18n import Translator

GROUPS = F.chat.type.in_({"group", "supergroup"})
#: Presets the Telegram layer can run (the engine may know more, e.g. forum, still without screens).
PLAYABLE_PRESETS = ("party", "club", "online", "forum", "noir")


def router() -> Router:
    r = Router(name="lobby")
    r.message.register(new_game, Command("newgame"), GROUPS)
    r.message.register(start_game_cmd, Command("startgame"), GROUPS)
    r.message.register(cancel_cmd, Command("cancel", "stop"), GROUPS)
    r.message.register(host_cmd, Command("host"), GROUPS)
    r.message.register(group_only, Command("newgame", "startgame", "cancel", "stop", "host"),
                       F.chat.type == "private")
    r.message.register(private_start, CommandStart(), F.chat.type == "private")
    r.callback_query.register(lobby_button, Pressed(LobbyAct))
    return r


async def _locale(storage: Storage, chat_id: int, tr: Translator) -> str:
    return tr.locale((await storage.get_chat_settings(chat_id)).locale)


async def new_game(message: Message, command: CommandObject, service: GameService, storage: Storage,
                   tr: Translator, presenter: Presenter, sender: Sender) -> None:
    chat_id = message.chat.id
    await adopt_sender_locale(storage, message)
    locale = await _locale(storage, chat_id, tr)
    _ = tr.get(locale)
    if message.from_user is None:
        return
    settings = dict((await storage.get_chat_settings(chat_id)).data)
    args = (command.args or "").split()
    preset = args[0] if args else "party"
    try:
        ruleset = find_game(preset).name
        if ruleset not in PLAYABLE_PRESETS:
            raise KeyError(ruleset)
    except KeyError:
        reply(sender, message, _("Unknown preset «{name}». Presets: party, club, online, forum, "
                                 "noir.").format(name=escape(preset)))
        return
    own = bot_game(ruleset).settings_from
    if own is not None:  # a game with settings of its own (NOIR: its timings, "strict")
        try:
            settings = own(settings, args[1:])
        except ValueError as exc:
            reply(sender, message, _("Unknown option «{name}». /newgame noir strict: an "
                                     "accusation must name the role too.").format(
                name=escape(str(exc))))
            return
    settings.pop("timings_of", None)  # the games' own timings (/settings turn): not the mafia's
    if own is None and ruleset != "party":
        settings.pop("options", None)  # the Doctor switch belongs to the party preset
    if ruleset == "forum" and len(args) > 1:  # /newgame forum maniac putana cop
        from engine.forum.setup import OPTIONAL_ROLES
        wanted = {a.lower().strip(",") for a in args[1:]}
        unknown = sorted(wanted - set(OPTIONAL_ROLES))
        if unknown:
            reply(sender, message, _("Unknown role «{name}». Optional roles: {list}.").format(
                name=escape(unknown[0]), list=", ".join(OPTIONAL_ROLES)))
            return
        settings["options"] = {"roles": [r for r in OPTIONAL_ROLES if r in wanted]}
    title = message.chat.title or ""
    presenter.titles[chat_id] = title
    try:  # the title is in place before a /host or a join sent meanwhile reaches the game
        game_id = await service.new_game(chat_id, author(message).id, locale, settings,
                                         ruleset=ruleset, ui={"title": title})
    except ActiveGameExists:
        reply(sender, message, _("A game is already open in this chat. Finish it or /cancel it first."))
        return
    service.persist_ui_soon(await service.live(game_id))


async def _manage(message: Message, bot: Bot, service: GameService, tr: Translator, sender: Sender,
                  action: Callable[[int, int], Awaitable[None]]) -> None:
    game_id = await service.game_for_chat(message.chat.id)
    if game_id is None:
        _ = tr.get(await chat_locale(service.storage, message.chat.id))
        reply(sender, message, _(
            "There is no open game here. /newgame starts one."))
        return
    g = await service.live(game_id)
    _ = tr.get(g.locale)
    user_id = message.from_user.id if message.from_user else 0
    if not await may_manage(bot, message, user_id, g.state):
        reply(sender, message, _("Only the organiser or a group admin can do that."))
        return
    try:
        await action(game_id, user_id)
    except IllegalCommand as exc:
        reply(sender, message, refusal(tr, g.locale, exc))


async def start_game_cmd(message: Message, bot: Bot, service: GameService, tr: Translator,
                         sender: Sender) -> None:
    async def start(gid: int, uid: int) -> None:
        g = await service.live(gid)
        if g.state is not None and game_of(g.state).status(g.state) != "lobby":
            _ = tr.get(g.locale)  # a running game: not a stale button (any preset)
            reply(sender, message, _("This game has already started or ended."))
            return
        await service.start(gid, uid)

    await _manage(message, bot, service, tr, sender, start)


async def cancel_cmd(message: Message, bot: Bot, service: GameService, tr: Translator,
                     sender: Sender) -> None:
    reason = "stopped" if (message.text or "").lstrip("/").startswith("stop") else "cancelled"
    async def cancel(gid: int, uid: int) -> None:
        with answering(message):  # "the game is cancelled" replies to the command
            await service.execute(gid, lambda g: game_of(g.state).cancel(reason, by=uid))

    await _manage(message, bot, service, tr, sender, cancel)


async def host_cmd(message: Message, service: GameService, tr: Translator, presenter: Presenter,
                   sender: Sender) -> None:
    game_id = await service.game_for_chat(message.chat.id)
    if game_id is None:
        _ = tr.get(await chat_locale(service.storage, message.chat.id))
        reply(sender, message, _("There is no open game here. /newgame starts one."))
        return
    g = await service.live(game_id)
    _ = tr.get(g.locale)
    if g.state is not None and not bot_game(g.state.ruleset).has_host:  # NOIR
        reply(sender, message, _("This game has no host: every player plays."))
        return
    url = presenter.deep_link(f"host_{game_id}")
    reply(sender, message, _("🎩 To host this game (without playing), open the bot:"),
                         reply_markup=InlineKeyboardMarkup(inline_keyboard=[[
                             InlineKeyboardButton(text=_("🎩 Be the host"), url=url)]]))


async def private_start(message: Message, command: CommandObject, bot: Bot, service: GameService,
                        storage: Storage, tr: Translator, sender: Sender) -> None:
    user = author(message)
    payload = command.args or ""
    kind, _sep, raw_id = payload.partition("_")
    if kind not in ("join", "host") or not raw_id.isdigit():
        _ = tr.get(sender_locale(message))  # issue 20: in the user's Telegram language
        say(sender, message.chat.id, _(
            "👋 I host mafia games in group chats. Add me to a group and send /newgame there; "
            "players join with the «Join» button. /help lists every command."))
        await service.touch_user(user.id)
        return
    game_id = int(raw_id)
    try:
        g = await service.live(game_id)
    except KeyError:
        _ = tr.get(sender_locale(message))  # his language, as /start's greeting (issue 20)
        say(sender, message.chat.id, _("This game does not exist any more."))
        return
    say(sender, message.chat.id, await join_lobby(service, bot, tr, g, user.id,
                                                  display_name(user), kind))


async def join_lobby(service: GameService, bot: Bot, tr: Translator, g: LiveGame, user_id: int, name: str,
                     kind: str = "join") -> str:
    """Join (``kind`` 'join') or host ('host') the lobby of the live game ``g``; returns the
    answer for the user. The deep link's checks, shared with the Mini App (``bot/webapp/``): the
    lobby is still open, a host only where the game has one, only members of the game's group
    (PARTY-X24: deep links leak), one game at a time; the engine's refusals as their texts."""
    _ = tr.get(g.locale)
    st = g.state
    if st is None or game_of(st).status(st) != "lobby":
        return _("This game has already started or ended.")
    if kind == "host" and not bot_game(st.ruleset).has_host:
        return _("This game has no host: every player plays.")
    if not await is_group_member(bot, g.chat_id, user_id):  # PARTY-X24: deep links leak
        return _("Only members of the game's group can join it.")
    if kind == "join" and getattr(st, "host", None) == user_id:  # issue 20: not "already in"
        return _("You host this game, and the host does not play.")
    order = seat_order(getattr(st, "settings", {}))
    if kind == "join" and order is not None and user_id not in order:  # PARTY-X26
        elsewhere = await not_seated_here(service.storage, bot, _, g.ui, g.chat_id, user_id)
        if elsewhere is not None:  # a tournament's table: where he plays instead
            return elsewhere
    cmd = game_of(st).join(user_id, name) if kind == "join" else \
        BecomeHost(user_id=user_id, name=name)
    async with service.user_lock(user_id):  # two deep links tapped at once: one game only
        other = await service.game_for_user(user_id)
        if other is not None and other != g.id:
            return _("You are already in another game. Leave it first.")
        try:
            await service.execute(g.id, cmd)
        except IllegalCommand as exc:
            st = g.state  # the game started (or ended) while his membership was checked
            if st is None or game_of(st).status(st) != "lobby":
                return _("This game has already started or ended.")
            return refusal(tr, g.locale, exc)
        except UserInAnotherGame:  # another worker joined him elsewhere meanwhile (issue 12)
            return _("You are already in another game. Leave it first.")
    title = escape(g.ui.get("title", ""))
    if kind == "join":
        return _("✅ You joined the game in «{chat}». Your role will come here when "
                 "the game starts.").format(chat=title)
    return _("🎩 You host the game in «{chat}». You will see every role and "
             "move the game on with «Next».").format(chat=title)


async def lobby_button(query: CallbackQuery, callback_data: LobbyAct, bot: Bot, service: GameService,
                       tr: Translator, callback_answer: CallbackAnswer) -> None:
    try:
        g = await service.live(callback_data.g)
    except KeyError:
        _ = tr.get(None)
        callback_answer.text = _("This game does not exist any more.")
        return
    chat_id = query.message.chat.id if query.message else g.chat_id
    text, alert = await lobby_press(service, bot, tr, g, query.from_user.id, chat_id,
                                    callback_data.a, callback_data.v)
    callback_answer.text = text
    if alert:
        callback_answer.show_alert = True


async def lobby_press(service: GameService, bot: Bot, tr: Translator, g: LiveGame, uid: int, chat_id: int,
                      act: str, value: str = "") -> tuple[str | None, bool]:
    """One lobby button (``LobbyAct``: leave | start | cancel | role | tempo) pressed by
    ``uid`` in ``chat_id``, shared with the Mini App: leaving is anyone's, the rest the
    organiser's, the host's or a group admin's. Returns (the answer, whether it is an alert)."""
    _ = tr.get(g.locale)
    try:
        if act == "leave":
            await service.execute(g.id, lambda live: game_of(live.state).leave(uid))
            return _("You left the game."), False
        if not await may_manage(bot, chat_id, uid, g.state):
            return _("Only the organiser or a group admin can do that."), False
        if act == "start":
            await service.start(g.id, uid)
        elif act == "cancel":
            await service.execute(g.id, lambda live: game_of(live.state).cancel("cancelled", by=uid))
        elif act == "role" and g.state is not None and g.state.ruleset == "forum":  # FORUM-03: toggle
            from ..presentation.views import toggled_roles  # an optional role
            options = {**(g.state.settings.get("options") or {}),
                       "roles": toggled_roles(g.state, value)}
            await service.execute(g.id, ChangeSettings(user_id=uid, settings={"options": options}))
            return _("Roles changed."), False
        elif act == "tempo" and value in ("short", "normal", "detailed"):
            await service.execute(g.id, ChangeSettings(user_id=uid, settings={"tempo": value}))
            return _("Tempo changed."), False
        else:  # a lobby action no lobby button of ours carries (forged or from an old version)
            return _("This button is out of date."), False
    except IllegalCommand as exc:
        return refusal(tr, g.locale, exc), exc.code in ("not_enough_players", "noir_bad_setup")
    return None, False
