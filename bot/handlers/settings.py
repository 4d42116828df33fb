"""/settings per group: language, tempo, single timings, Doctor, save announcements (PARTY-33/34).

Stored in ``chat_settings``; a lobby or running game of the chat gets the change too (timings from
the next phase, role options only in the lobby: PARTY-Q17).
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import re
from collections import defaultdict
from typing import TYPE_CHECKING

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message
from aiogram.utils.callback_answer import CallbackAnswer

from engine import BadSetup, ChangeSettings, IllegalCommand, Phase, find_ruleset
from engine.mafia.rules import TIMING_LIMITS

from ..ui.callbacks import Cfg, Pressed
from ..ui.i18n import SUPPORTED_LOCALES
from .common import (
    adopt_sender_locale,
    author,
    is_chat_admin,
    may_manage,
    once_a_minute,
    refusal,
    refuse,
    reply,
    say,
)
from .settings_panel import (
    TIMING_NAMES,
    changed_text,
    open_preset,
    own_timings,
    range_text,
    settings_keyboard,
    settings_text,
    unused_text,
)
from .settings_scoring import pick_system, scoring_cmd

if TYPE_CHECKING:
    from ..services.game_service import GameService
    from ..storage import Storage
    from ..telegram.sender import Sender
    from ..ui.i18n import Translator

GROUPS = F.chat.type.in_({"group", "supergroup"})


def router() -> Router:
    r = Router(name="settings")
    r.message.register(settings_cmd, Command("settings"), GROUPS)
    r.callback_query.register(settings_button, Pressed(Cfg))
    return r


async def _apply_to_game(service: GameService, chat_id: int, user_id: int, *,
                         timings: dict[str, int] | None = None, reset: bool = False, tempo: str | None = None,
                         options: dict[str, bool] | None = None) -> None:
    """Pass one change of the chat's settings to its lobby or running game, on top of what that
    game chose (PARTY-34: a single override applies on top of the lobby's tempo; the lobby's
    roles and tempo stay): ``timings`` (key -> seconds) are added to the game's own overrides,
    ``reset`` drops them, ``tempo`` and ``options`` replace only what they name."""
    game_id = await service.game_for_chat(chat_id)
    if game_id is None:
        return
    st = await service.state(game_id)
    if st is None:
        return
    own = st.settings
    change: dict = {}
    if reset:
        change["timings"] = {}
    elif timings:
        change["timings"] = {**(own.get("timings") or {}), **timings}
    if tempo is not None:
        change["tempo"] = tempo
    if options is not None and st.phase is Phase.LOBBY:
        change["options"] = {**(own.get("options") or {}), **options}
    if not change:
        return
    with contextlib.suppress(IllegalCommand):  # e.g. a game that has just ended
        await service.execute(game_id, ChangeSettings(user_id=user_id, settings=change))


async def _settings_cmd(message: Message, command: CommandObject, bot: Bot, service: GameService,
                        storage: Storage, tr: Translator, sender: Sender) -> None:
    chat_id = message.chat.id
    await adopt_sender_locale(storage, message)  # issue 20: as /newgame and /help do
    cs = await storage.get_chat_settings(chat_id)
    locale = tr.locale(cs.locale)
    _ = tr.get(locale)
    data = dict(cs.data)
    args = (command.args or "").split()
    game_id = await service.game_for_chat(chat_id)
    st = await service.state(game_id) if game_id else None
    if args and args[0].lower() == "scoring":  # SCORE-X20..X23
        await scoring_cmd(message, args[1:], bot, storage, sender, _, locale, data)
        return
    if args:
        if not await may_manage(bot, message, author(message).id, st):
            refuse(sender, message, _("Only the organiser or a group admin can do that."))
            return
        own = own_timings()
        change: dict = {}
        if args[0] == "reset":
            change["reset"] = True
            data["timings"] = {}
            data.pop("timings_of", None)
        elif len(args) == 2 and args[0] in own and re.fullmatch(r"[+-]?\d+", args[1]):
            key, value = args[0], int(args[1])  # a game's own timing (NOIR: turn)
            name, (lo, hi) = own[key]
            if not lo <= value <= hi:
                reply(sender, message, range_text(_, key, value, (lo, hi)))
                return
            mine = dict((data.get("timings_of") or {}).get(name) or {})
            mine[key] = value
            data["timings_of"] = {**(data.get("timings_of") or {}), name: mine}
        elif args[0] in own:  # "/settings turn", "turn abc", "turn 30.5": its own limits
            key = args[0]
            lo, hi = own[key][1]
            what = _(TIMING_NAMES[key]) if key in TIMING_NAMES else key
            reply(sender, message, _("{what} lasts from {lo} to {hi} seconds, in whole seconds. "
                                     "Example: /settings {key} {example}.").format(
                what=what, lo=lo, hi=hi, key=key, example=max(lo, min(hi, 90))))
            return
        elif (rs := open_preset(st)) is not None and args[0] in TIMING_LIMITS \
                and args[0] not in rs.timing_limits:  # issue 20: confirmed, yet no effect
            reply(sender, message, unused_text(_, args[0], rs))
            return
        elif len(args) == 2 and args[0] in TIMING_LIMITS and re.fullmatch(r"[+-]?\d+", args[1]):
            key, value = args[0], int(args[1])
            lo, hi = TIMING_LIMITS[key]
            timings = dict(data.get("timings") or {})
            timings[key] = value
            try:
                if not lo <= value <= hi:
                    raise BadSetup(key)
                find_ruleset("party").timings({**data, "timings": timings})
            except BadSetup:
                reply(sender, message, range_text(_, key, value))
                return
            data["timings"] = timings
            change["timings"] = {key: value}
        else:
            reply(sender, message, _("Usage: /settings speech 45 — or /settings reset. Timings: "
                                     "{keys}.").format(keys=", ".join([*TIMING_LIMITS, *own_timings()])))
            return
        await storage.save_chat_settings(chat_id, data=data)
        await _apply_to_game(service, chat_id, author(message).id, **change)
        st = await service.state(game_id) if game_id else None  # as the change left it
        if len(args) == 2 and (args[0] in TIMING_LIMITS or args[0] in own):
            head = changed_text(_, args[0], int(args[1]))  # whatever the timing's game
            reply(sender, message, head + "\n" + settings_text(_, locale, data, st),
                  reply_markup=settings_keyboard(_, data, st))
            return
    text = settings_text(_, locale, data, st)
    if not args and not once_a_minute(sender, message, "/settings"):
        # issue 20: three /settings, three panels in the group; a repeat goes to him privately
        # (dropped if he never started the bot), without buttons: they would set his own chat
        head = _("⚙️ The panel of {chat} was shown there less than a minute ago:").format(
            chat=html.escape(message.chat.title or str(chat_id)))
        say(sender, author(message).id, head + "\n\n" + text)
        return
    reply(sender, message, text, reply_markup=settings_keyboard(_, data, st))


async def _settings_button(query: CallbackQuery, callback_data: Cfg, bot: Bot, service: GameService,
                           storage: Storage, tr: Translator, callback_answer: CallbackAnswer,
                           sender: Sender) -> None:
    if query.message is None:
        return
    chat_id = query.message.chat.id
    game_id = await service.game_for_chat(chat_id)
    st = await service.state(game_id) if game_id else None
    cs = await storage.get_chat_settings(chat_id)
    _ = tr.get(cs.locale)
    if not await may_manage(bot, chat_id, query.from_user.id, st):
        callback_answer.text = _("Only the organiser or a group admin can do that.")
        return
    data = dict(cs.data)
    locale = cs.locale
    a, v = callback_data.a, callback_data.v
    change: dict = {}
    if a == "lang" and v in SUPPORTED_LOCALES:
        locale = v
        await storage.save_chat_settings(chat_id, locale=v)
        if game_id is not None:
            (await service.live(game_id)).locale = v
            await service.refresh_names(game_id)  # "Player 6" / "Игрок 6" follow the language
    elif a == "tempo" and v in ("short", "normal", "detailed"):
        data["tempo"] = change["tempo"] = v
    elif a in ("doctor", "save") and v in ("0", "1"):
        if st is not None and st.phase is not Phase.LOBBY:
            callback_answer.text = _("Roles can be changed only before the game starts.")
            return
        key = "doctor" if a == "doctor" else "announce_save"
        data["options"] = {**(data.get("options") or {}), key: v == "1"}
        change["options"] = {key: v == "1"}
    elif a == "score" and v:  # SCORE-X23: the club's table, group admins only
        if not await is_chat_admin(bot, chat_id, query.from_user.id):
            callback_answer.text = _("Only a group admin can do that.")
            return
        if not pick_system(data, v):
            callback_answer.text = _("This button is out of date.")
            return
    else:
        callback_answer.text = _("This button is out of date.")
        return
    if a != "lang":
        await storage.save_chat_settings(chat_id, data=data)
        await _apply_to_game(service, chat_id, query.from_user.id, **change)
    _ = tr.get(locale)
    callback_answer.text = "✅"
    st = await service.state(game_id) if game_id else None  # as the change left it
    sender.edit(query.message.chat.id, query.message.message_id,
                settings_text(_, tr.locale(locale), data, st), reply_markup=settings_keyboard(_, data, st))


__all__ = ["router", "refusal"]


_CHAT_LOCKS: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)


async def settings_cmd(message: Message, command: CommandObject, bot: Bot, service: GameService,
                       storage: Storage, tr: Translator, sender: Sender) -> None:
    """/settings, one change at a time per chat (quick successive changes never overwrite each
    other: each reads what the one before it stored)."""
    async with _CHAT_LOCKS[message.chat.id]:
        await _settings_cmd(message, command, bot, service, storage, tr, sender)


async def settings_button(query: CallbackQuery, callback_data: Cfg, bot: Bot, service: GameService,
                          storage: Storage, tr: Translator, sender: Sender,
                          callback_answer: CallbackAnswer) -> None:
    chat_id = query.message.chat.id if query.message else 0
    async with _CHAT_LOCKS[chat_id]:
        await _settings_button(query, callback_data, bot, service, storage, tr, callback_answer,
                               sender)
