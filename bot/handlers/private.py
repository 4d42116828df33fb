"""Private chat: the mafia relay at night (PARTY-Q11), /help and /rules anywhere, and chat
membership updates (kicked bot, players leaving, supergroup migration)."""

from __future__ import annotations

import logging
import re
from contextlib import suppress
from enum import Enum
from html import escape
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from aiogram import F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import ChatMemberUpdated, Message

from engine import (
    GameState,
    IllegalCommand,
    MarkInactive,
    Phase,
    RelayMessage,
    find_game,
    find_ruleset,
    game_of,
)

from ..services import said
from ..services.onlookers import running, seated
from ..services.said import said_text
from ..ui.rules_text import rules_text
from .common import adopt_sender_locale, author, no_seat_text, reply, say, seat_user, sender_locale

if TYPE_CHECKING:
    from ..services.game_service import GameService
    from ..services.onlookers import Onlookers
    from ..storage import Storage
    from ..telegram.sender import Sender
    from ..ui.i18n import Translator

logger = logging.getLogger(__name__)


@runtime_checkable
class TeamChat(Protocol):
    """A game whose team talks privately at night (the mafia presets' variant,
    engine/mafia/variant.py): in the ``relay_phases``, between those ``in_team_chat``."""

    relay_phases: tuple[Enum, ...]

    def in_team_chat(self, st: GameState, user_id: int) -> bool: ...


class MembershipListener(Protocol):
    """The Mini App's hook (``bot.webapp.service.WebApp``, a layer above the handlers): told at
    once when the bot sees a member leave or join a group."""

    def membership_changed(self, chat_id: int, user_id: int, member: bool) -> None: ...


def router() -> Router:
    r = Router(name="private")
    r.message.register(help_cmd, Command("help"))
    r.message.register(rules_cmd, Command("rules"))
    r.message.register(said_cmd, Command("said"))
    r.message.register(migrated, F.migrate_to_chat_id)
    r.message.register(member_left, F.left_chat_member)
    r.message.register(members_joined, F.new_chat_members)
    r.chat_member.register(member_changed)
    r.my_chat_member.register(bot_membership)
    r.message.register(relay, F.chat.type == "private", F.text, ~F.text.startswith("/"))
    return r


async def help_cmd(message: Message, storage: Storage, tr: Translator, sender: Sender) -> None:
    locale = sender_locale(message)  # private: the user's Telegram language (issue 20)
    if message.chat.type != "private":
        await adopt_sender_locale(storage, message)
        locale = (await storage.get_chat_settings(message.chat.id)).locale
    _ = tr.get(locale)
    say(sender, message.chat.id, _(
        "<b>Commands</b>\n"
        "/newgame — open a lobby in this group\n"
        "/startgame — start (organiser or admin)\n"
        "/cancel — cancel the lobby or stop the game\n"
        "/host — host the game without playing\n"
        "/settings — language, tempo, timings, roles\n"
        "/pause, /resume — pause and resume\n"
        "/next — the host moves the game on\n"
        "/away, /back — step away and come back\n"
        "/takehost — an admin takes over the game rights\n"
        "/rules — the rules of the game here (/rules club, online, forum)") + "\n" + _(
        "/rules noir — NOIR: FBI vs Mafia, the grid game of hidden identities") + "\n" + _(
        "/history — finished games: protocols, replays, export\n"
        "/stats, /top — the group's statistics and rating\n"
        "/me — your statistics\n"
        "/nextgame — a private message when the next game opens") + "\n" + _(
        "/spectate, /unspectate — watch a running game from your private chat") + "\n" + _(
        "/said 4 — in the private chat: what seat 4 wrote in your game") + "\n" + _(
        "/tournament — a tournament: registration, seating, rounds, standings "
        "(/tournament new &lt;name&gt;; /history tournament: its games)") + "\n\n" + _(
        "<b>Presets</b>: /newgame (party), /newgame club (10 players, a judge: /foul, "
        "/disqualify, /panel), /newgame online, /newgame forum maniac putana journalist "
        "sleepwalker werewolf cop (optional roles).") + "\n" + _(
        "/newgame noir — NOIR: FBI vs Mafia (6 or 8 players; your turns in the private chat)."))


async def rules_cmd(message: Message, command: CommandObject, service: GameService, storage: Storage,
                    tr: Translator, sender: Sender, rules_url: str | None = None) -> None:
    """``/rules``: the summary of the chat's running or lobby preset (party when none), or of
    the preset named: ``/rules club`` (bot/ui/rules_text.py)."""
    locale, preset = None, "party"
    if message.chat.type != "private":
        locale = (await storage.get_chat_settings(message.chat.id)).locale
        game_id = await service.game_for_chat(message.chat.id)
    else:
        game_id = await service.game_for_user(author(message).id) if message.from_user else None
    if game_id is not None:
        st = await service.state(game_id)
        if st is not None:
            preset = st.ruleset
            if message.chat.type == "private":
                locale = (await service.live(game_id)).locale
    _ = tr.get(locale)
    wanted = (command.args or "").strip().split()
    if wanted:
        try:
            preset = find_game(wanted[0].lower()).name
        except KeyError:
            reply(sender, message, _("Unknown preset «{name}». Presets: party, club, online, "
                                     "forum, noir.").format(name=escape(wanted[0])))
            return
    reply(sender, message, rules_text(_, preset, rules_url))


async def relay(message: Message, service: GameService, tr: Translator, sender: Sender) -> None:
    """Texts from a mafioso at night go to his living teammates; the rest get a hint.
    (Last words, the eliminated and onlookers were routed before this, in
    ``handlers/discipline.py`` and ``handlers/onlookers.py``; the alive check stays anyway.)"""
    uid = author(message).id
    game_id = await service.game_for_user(uid)
    if game_id is None:
        _ = tr.get(None)
        say(sender, message.chat.id, _(
            "I host mafia games in groups. Send /newgame in a group; /help lists the commands."))
        return
    g = await service.live(game_id)
    await service.touch(game_id, uid)
    st = g.state
    _ = tr.get(g.locale)
    p = st.players.get(uid) if st else None
    game = find_game(st.ruleset) if st is not None else None
    chat = game if isinstance(game, TeamChat) else None  # a game without a team chat has none
    # the forum's team chat holds the Sleepwalker
    in_team = chat is not None and st is not None and chat.in_team_chat(st, uid)
    if st is not None and p is not None and chat is None:  # NOIR-40: no team chat at all
        say(sender, message.chat.id, _("This game has no private team chat: discuss openly in "
                                       "the group."))
        return
    if st is None or p is None or chat is None or not in_team or not p.seat or not p.alive:
        say(sender, message.chat.id, _("Talk in the group; I pass private messages only between mafiosi "
                               "at night."))
        return
    first_night_only = find_ruleset(st.ruleset).relay == "intro"  # CLUB-10, ONLINE-39
    closed = (_("The team chat is open on the first night only.") if first_night_only
              else _("Your team hears you only at night."))
    if st.phase not in chat.relay_phases:  # the night (the forum: the Cop's turn too, FORUM-X16)
        say(sender, message.chat.id, closed)
        return
    if not any(q.user_id != uid and q.alive and q.seat and chat.in_team_chat(st, q.user_id)
               for q in st.players.values()):  # a lone mafioso (newcomer trial: no answer)
        say(sender, message.chat.id, _("No teammate of yours is left to hear you: your messages "
                                       "reach nobody."))
        return
    try:
        await service.execute(game_id, RelayMessage(user_id=uid, text=message.text or ""))
    except IllegalCommand:
        say(sender, message.chat.id, closed)


async def member_left(message: Message, service: GameService, onlookers: Onlookers,
                      webapp: MembershipListener | None = None) -> None:
    """A player who leaves the group becomes inactive (PARTY-Q20 b); once eliminated he gets the
    onlookers' copies of the announcements, which the group no longer shows him (BOT-X02). The
    Mini App (``webapp``) refuses a leaver at once, and ends his open onlooker's streams."""
    user = message.left_chat_member
    if user is None or user.is_bot:
        return
    if webapp is not None:
        webapp.membership_changed(message.chat.id, user.id, member=False)
    game_id = await service.game_for_chat(message.chat.id)
    if game_id is None:
        return
    st = await service.state(game_id)
    if st is None or st.phase is Phase.LOBBY:
        return
    g = await service.live(game_id)
    if running(g) and seated(st, user.id):
        onlookers.left_group(g, user.id)
    if user.id in st.players or user.id == st.host:
        with suppress(IllegalCommand):
            await service.execute(game_id, MarkInactive(player=user.id, reason="left"))


async def said_cmd(message: Message, command: CommandObject, service: GameService, tr: Translator,
                   sender: Sender) -> None:
    """ONLINE-41: ``/said 4`` (or ``/said №4``) in the private chat: the messages of seat 4 in
    the asker's running game that the bot saw (bot/services/said.py), with their times."""
    uid = message.from_user.id if message.from_user else 0
    if message.chat.type != "private":
        _ = tr.get((await service.storage.get_chat_settings(message.chat.id)).locale)
        reply(sender, message, _("Send /said 4 in your private chat with me: I answer there."))
        return
    game_id = await service.game_for_user(uid)
    _ = tr.get(None)
    if game_id is None:
        say(sender, message.chat.id, _("You are not in a running game."))
        return
    g = await service.live(game_id)
    _ = tr.get(g.locale)
    st = g.state
    arg = (command.args or "").strip().lstrip("№#")
    if st is None or st.phase is Phase.LOBBY or not re.fullmatch(r"[+-]?\d{1,18}", arg):
        say(sender, message.chat.id, _("Give a seat: /said 4 shows the messages of №4 in this "
                                       "game."))
        return
    target = seat_user(st, int(arg))
    if target is None:
        say(sender, message.chat.id, no_seat_text(_, st, int(arg)))
        return
    say(sender, message.chat.id, said_text(_, st, target, said.messages(g, target),
                                           said.since(g)))


async def _back(service: GameService, onlookers: Onlookers, chat_id: int, user_id: int) -> None:
    game_id = await service.game_for_chat(chat_id)
    if game_id is not None:
        await service.touch(game_id, user_id)  # the lost host's game resumes (PARTY-44/46)
        g = service.games.get(game_id)
        if g is not None:
            onlookers.back_in_group(g, user_id)  # BOT-X02: he sees the group again


async def members_joined(message: Message, service: GameService, onlookers: Onlookers,
                      webapp: MembershipListener | None = None) -> None:
    """A player or the host who left the group and comes back is active again at once; a game
    that waited for its host resumes by itself (the Mini App lets him in at once)."""
    for user in message.new_chat_members or ():
        if not user.is_bot:
            if webapp is not None:
                webapp.membership_changed(message.chat.id, user.id, member=True)
            await _back(service, onlookers, message.chat.id, user.id)


MEMBER = ("member", "administrator", "creator", "restricted")


async def member_changed(update: ChatMemberUpdated, service: GameService, onlookers: Onlookers,
                      webapp: MembershipListener | None = None) -> None:
    """The same from a ``chat_member`` update (sent to the bot when it is an admin): a member
    who left (or was removed) and is a member again. A player who left or was removed is noted
    for the onlookers' copies (BOT-X02; the ``left_chat_member`` message marks him inactive)."""
    old, new = update.old_chat_member.status, update.new_chat_member.status
    user = update.new_chat_member.user
    if user.is_bot:
        return
    if webapp is not None and (old in MEMBER) != (new in MEMBER):  # the Mini App: at once
        webapp.membership_changed(update.chat.id, user.id, member=new in MEMBER)
    if old in ("left", "kicked") and new in MEMBER:
        await _back(service, onlookers, update.chat.id, user.id)
    elif old in MEMBER and new in ("left", "kicked"):
        game_id = await service.game_for_chat(update.chat.id)
        g = service.games.get(game_id) if game_id is not None else None
        if g is not None and running(g) and seated(g.state, user.id):
            onlookers.left_group(g, user.id)


async def bot_membership(update: ChatMemberUpdated, service: GameService, storage: Storage, tr: Translator,
                         sender: Sender) -> None:
    """The bot was added to a group: say hello. Removed: its open game is cancelled cleanly."""
    old_status, new_status = update.old_chat_member.status, update.new_chat_member.status
    if update.chat.type in ("group", "supergroup") and old_status in ("left", "kicked") \
            and new_status in ("member", "administrator"):
        _ = tr.get((await storage.get_chat_settings(update.chat.id)).locale)
        say(sender, update.chat.id, _(
            "👋 Hi! I host party mafia here. /newgame opens a lobby, /rules tells the rules, "
            "/settings sets the language and the tempo."))
        return
    if new_status in ("left", "kicked"):
        game_id = await service.game_for_chat(update.chat.id)
        if game_id is not None:
            with suppress(IllegalCommand):
                await service.execute(game_id, lambda g: game_of(g.state).cancel("bot_removed"))


async def migrated(message: Message, service: GameService, storage: Storage) -> None:
    """A group became a supergroup: the game and the settings move with it."""
    old, new = message.chat.id, message.migrate_to_chat_id
    if new is None:  # the router's filter lets only migrations through
        return
    await storage.move_chat(old, new)
    for g in service.games.values():
        if g.chat_id == old:
            g.chat_id = new
