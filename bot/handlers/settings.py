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
from typing import TYPE_CHECKING, Any

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, InlineKeyboardMarkup, Message
from aiogram.utils.callback_answer import CallbackAnswer
from aiogram.utils.keyboard import InlineKeyboardBuilder

from engine import BadSetup, ChangeSettings, GameState, IllegalCommand, Phase, find_ruleset
from engine.mafia.rules import TIMING_LIMITS, RuleSet

from ..games import GAMES
from ..presentation.views import tempo_name, timings_text
from ..ui.callbacks import Cfg, Pressed
from ..ui.i18n import N_, SUPPORTED_LOCALES
from ..ui.scoring import chat_system, system_name
from ..ui.texts import PRESET_NAMES
from .common import (
    Gettext,
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
from .settings_scoring import pick_system, scoring_buttons, scoring_cmd

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


#: what each timing of ``/settings <key> <seconds>`` is called in the range message
TIMING_NAMES = {
    "speech": N_("A speech"), "defence": N_("A defence"), "last_word": N_("A last word"),
    "vote": N_("A vote"), "night": N_("A night"), "ready_wait": N_("The wait for readiness"),
    "meeting": N_("The mafia's meeting"), "silenced": N_("A silenced player's speech"),
    "discussion": N_("The discussion"), "lift": N_("The lift vote"),
    "best_move": N_("The best move"), "forum_day": N_("A forum day"),
    "forum_vote": N_("A forum vote"), "forum_night": N_("A forum night"),
    "cop": N_("The Cop's turn"), "bonus_offer": N_("The bonus offer"),
    "bonus": N_("The bonus round"), "best_player": N_("The best player vote"),
    "turn": N_("A NOIR turn"),
}


def own_timings() -> dict[str, tuple[str, tuple[int, int]]]:
    """The games' own chat timings beyond the mafia presets' (``BotGame.timing_limits``):
    key -> (game name, (lo, hi) seconds); e.g. NOIR's ``turn``."""
    return {k: (name, lim) for name, game in GAMES.items()
            for k, lim in (game.timing_limits or {}).items()}


def range_text(_: Gettext, key: str, value: int, limits: tuple[int, int] | None = None) -> str:
    """One translated answer for every out-of-range timing (``-5`` and ``99999999`` alike);
    the limits are ``limits`` or ``TIMING_LIMITS[key]``, in seconds."""
    lo, hi = limits or TIMING_LIMITS[key]
    what = _(TIMING_NAMES[key]) if key in TIMING_NAMES else key
    return _("{what} lasts from {lo} to {hi} seconds; {value} is out of range. Example: "
             "/settings {key} {example}.").format(what=what, lo=lo, hi=hi, value=value, key=key,
                                                  example=max(lo, min(hi, 60)))


def open_preset(st: GameState | None) -> RuleSet | None:
    """The mafia preset of the chat's open lobby or game ``st`` (None: no game, or a game
    without presets such as NOIR)."""
    if st is None or st.over:
        return None
    try:
        return find_ruleset(st.ruleset)
    except KeyError:
        return None


def doctor_on(opts: dict[str, Any]) -> bool | None:
    """Whether the options deal a Doctor: party and club ``doctor``, the forum's ``roles``
    list; None when the options do not say."""
    if "doctor" in opts:
        return bool(opts["doctor"])
    roles = opts.get("roles")
    return "doctor" in roles if isinstance(roles, list) else None


def _shown(data: dict[str, Any], st: GameState | None
           ) -> tuple[str, str, dict[str, int], dict[str, Any], tuple[str, ...]]:
    """What the panel shows: (preset, tempo, timings in seconds, options, settable timing keys)
    -- the open game's (issue 20: the panel must not contradict the lobby), else the chat's
    defaults for a party game."""
    rs = open_preset(st)
    if rs is not None and st is not None:
        return (rs.name, st.settings.get("tempo", rs.default_tempo), dict(st.timings),
                {**rs.default_options, **st.options}, tuple(rs.timing_limits))
    party = find_ruleset("party")
    return ("party", data.get("tempo", party.default_tempo), party.timings(data),
            {**party.default_options, **(data.get("options") or {})}, PANEL_KEYS)


#: the timings the panel names when no game is open (a chat's defaults serve every preset)
PANEL_KEYS = ("speech", "defence", "last_word", "vote", "night", "meeting", "discussion", "lift")


def settings_text(_: Gettext, locale: str, data: dict[str, Any], st: GameState | None = None) -> str:
    """The /settings panel (HTML): the chat's settings, or those of its open lobby or game
    ``st`` (its preset, tempo, effective timings in seconds, roles and the keys it uses)."""
    preset, tempo, timings, opts, keys = _shown(data, st)
    lines = [_("⚙️ <b>Settings of this chat</b>"),
             _("Language: {lang}").format(lang={"ru": "Русский", "en": "English"}[locale])]
    if open_preset(st) is not None:
        lines.append(_("Open game: {game}").format(game=_(PRESET_NAMES.get(preset, preset))))
    lines += [_("Tempo: {tempo}").format(tempo=tempo_name(_, tempo)),
              timings_text(_, timings, preset)]
    doctor = doctor_on(opts)
    if doctor is not None:
        lines.append(_("Doctor: {state}").format(state=_("on") if doctor else _("off")))
    if "announce_save" in opts:
        lines.append(_("Announce saved victims: {state}").format(
            state=_("on") if opts.get("announce_save") else _("off")))
    lines.append(_("Scoring of club and online games: {name} (/settings scoring)").format(
        name=system_name(_, chat_system(data))))
    lines += ["", _("Change one timing: /settings {key} 45 ({keys}); /settings reset restores "
                    "the tempo's values.").format(key=keys[0], keys=", ".join(keys))]
    own = data.get("timings_of") or {}
    if "noir" in GAMES and GAMES["noir"].timing_limits:
        turn = (own.get("noir") or {}).get("turn")
        lines.append(_("NOIR: a turn lasts {n} s (/settings turn 90).").format(n=turn) if turn
                     else _("NOIR: a turn lasts 120 s (/settings turn 90)."))
    return "\n".join(lines)


def settings_keyboard(_: Gettext, data: dict[str, Any], st: GameState | None = None) -> InlineKeyboardMarkup:
    """The panel's buttons: language, tempo, and the Doctor and save switches where the open
    game (``st``) or the chat's party defaults have them."""
    opts = _shown(data, st)[3]
    kb = InlineKeyboardBuilder()
    kb.button(text="🇷🇺 Русский", callback_data=Cfg(a="lang", v="ru"))
    kb.button(text="🇬🇧 English", callback_data=Cfg(a="lang", v="en"))
    for t in ("short", "normal", "detailed"):
        kb.button(text=tempo_name(_, t), callback_data=Cfg(a="tempo", v=t))
    rows = [2, 3]
    if "doctor" in opts:
        kb.button(text=_("Doctor: {state}").format(state=_("on") if opts["doctor"] else _("off")),
                  callback_data=Cfg(a="doctor", v="0" if opts["doctor"] else "1"))
        rows.append(1)
    if "announce_save" in opts:
        kb.button(text=_("Announce saves: {state}").format(
            state=_("on") if opts["announce_save"] else _("off")),
                  callback_data=Cfg(a="save", v="0" if opts["announce_save"] else "1"))
        rows.append(1)
    rows.append(scoring_buttons(_, kb, data))
    kb.adjust(*rows)
    return kb.as_markup()


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


def changed_text(_: Gettext, key: str, value: int) -> str:
    """The answer's first line confirming one changed timing, e.g. "✅ The discussion: 120 s."."""
    what = _(TIMING_NAMES[key]) if key in TIMING_NAMES else key
    return _("✅ {what}: {n} s.").format(what=what, n=value)


def unused_text(_: Gettext, key: str, rs: RuleSet) -> str:
    """The refusal of a timing the open game's preset ``rs`` does not use, naming its keys."""
    what = _(TIMING_NAMES[key]) if key in TIMING_NAMES else key
    return _("The open game ({game}) has no such timing: {what} ({key}) is not used there; "
             "it has {keys}. Nothing changed.").format(
        game=_(PRESET_NAMES.get(rs.name, rs.name)), what=what, key=key,
        keys=", ".join(rs.timing_limits))


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
