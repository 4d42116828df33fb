"""The night's private messages of the party, club and online presets: the mafia's shared
pick (party) or blind final shots (CLUB-28..30), the checks and the Doctor's protection, «Sleep».
Pure functions of the engine state; buttons only from ``legal_actions``."""

from __future__ import annotations

from aiogram.types import InlineKeyboardMarkup

from engine import GameState, Team, find_ruleset, legal_actions, rules_revision

from ...ui.callbacks import Act
from ...ui.keyboards import InlineKeyboardBuilder
from ...ui.keyboards import plain_label as _plain_label
from ...ui.texts import label
from ..hints import Gettext


def night_text(_: Gettext, st: GameState, uid: int) -> str:
    p = st.players[uid]
    la = legal_actions(st, uid)
    rs = find_ruleset(st.ruleset)
    n = st.night
    if st.night <= 1 and rs.vote_style == "online" and rules_revision(st.settings) >= 2:
        # ONLINE-02, X17: only the blacks' Ready (REV-X01: a game of revision 1 asks everybody)
        if la.sleep:
            return _("🌙 Night 1: meet your team here (what you write is passed on). Press «Sleep» "
                     "when you are ready: the day starts once every black is ready, or when the "
                     "meeting ends.")
        return _("🌙 Night 1: the mafia gets acquainted. You have nothing to do tonight: the day "
                 "starts by itself.")
    if st.night <= 1:
        return _("🌙 Night 1: the mafia gets acquainted; nobody acts tonight. Press «Sleep».")
    lines = []
    if p.team is Team.MAFIA and not rs.final_shots:
        lines.append(_("🕶 Night {n}. Choose the victim together: the shot happens only if all of "
                       "you pick the same player.").format(n=n))
        for m in st.mafia_alive():
            pick = st.mafia_picks.get(m.user_id)
            lines.append(f"{label(st, m.user_id)} → {label(st, pick) if pick else '…'}")
    elif p.team is Team.MAFIA:  # CLUB-28..30: blind, final shots
        shot = st.mafia_picks.get(uid)
        lines.append(_("🔫 You shot {player}.").format(player=label(st, shot)) if shot else
                     _("🔫 Night {n}. Shoot: pick one player. Your shot is final; the kill happens "
                       "only if every black shoots the same player.").format(n=n))
    done = st.night_actions.get(uid)
    if done:
        action, target = done
        lines.append({
            "check": _("🔎 You check {player}."),
            "heal": _("💉 You protect {player}."),
            "sheriff_check": _("⭐ You check {player}; the answer comes at dawn.") if rs.checks_at_dawn
            else _("⭐ You check {player}."),
            "don_check": _("🎩 You check {player} for the Sheriff; the answer comes at dawn.")
            if rs.checks_at_dawn else _("🎩 You check {player} for the Sheriff."),
        }.get(action, _("💤 You sleep. Good night.")).format(player=label(st, target)))
    else:
        for offered in (la.night_action, la.night_extra):
            prompt = {
                "check": _("🔎 Night {n}. Choose a player to check."),
                "heal": _("💉 Night {n}. Choose a player to protect from the mafia."),
                "sheriff_check": _("⭐ Night {n}. Check one player: red or black."),
                "don_check": _("🎩 Look for the Sheriff: check one player (🔍 buttons)."),
            }.get(offered or "")
            if prompt:
                lines.append(prompt.format(n=n))
    if not lines:
        lines.append(_("🌙 Night {n}. You sleep. Press «Sleep» so the night can end sooner.")
                     .format(n=n))
    return "\n".join(lines)


ACTION_CODES = {"kill": ("kill", ""), "check": ("check", ""), "heal": ("heal", ""),
                "sheriff_check": ("scheck", ""), "don_check": ("dcheck", "🔍 ")}


def night_keyboard(_: Gettext, game_id: int, st: GameState, uid: int) -> InlineKeyboardMarkup | None:
    la = legal_actions(st, uid)
    kb = InlineKeyboardBuilder()
    mine = st.mafia_picks.get(uid)
    for action, targets in ((la.night_action, la.night_targets),
                            (la.night_extra, la.night_extra_targets)):
        if not action:
            continue
        code, prefix = ACTION_CODES[action]
        for t in targets:
            mark = "✅ " if t == mine and action == "kill" else prefix
            kb.button(text=mark + _plain_label(st, t),
                      callback_data=Act(g=game_id, s=st.phase_seq, a=code, t=st.players[t].seat))
    if la.sleep:
        kb.button(text=_("💤 Sleep") if not la.night_action else _("💤 Skip"),
                  callback_data=Act(g=game_id, s=st.phase_seq, a="sleep"))
    kb.adjust(2)
    markup = kb.as_markup()
    return markup if markup.inline_keyboard else None
