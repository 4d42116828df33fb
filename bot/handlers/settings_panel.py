"""The /settings panel and its answers (PARTY-33/34; issue 20): the text and buttons of a group's
settings -- or of its open lobby or game, whose preset, tempo, timings (seconds) and roles the panel
shows -- and the one-line answers of ``/settings <key> <seconds>`` (changed, out of range, unused
by the open game). Pure: no storage, no Telegram call; ``bot.handlers.settings`` runs the command
and the presses."""

from __future__ import annotations

from typing import Any

from aiogram.types import InlineKeyboardMarkup
from aiogram.utils.keyboard import InlineKeyboardBuilder

from engine import GameState, find_ruleset
from engine.mafia.rules import TIMING_LIMITS, RuleSet

from ..games import GAMES
from ..presentation.views import tempo_name, timings_text
from ..ui.callbacks import Cfg
from ..ui.i18n import N_
from ..ui.scoring import chat_system, system_name
from ..ui.texts import PRESET_NAMES
from .common import Gettext
from .settings_scoring import scoring_buttons

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
