"""Points of published score sheets in the community's texts (issue 21; docs/history.md,
"Points"): the /top points table, the /me points lines, the /history list's mark and the
protocol's points per player.  HTML, localized; points are shown with up to two decimals in the
locale's digits (``1,25`` in Russian).  Only games whose sheet is published count
(``bot.storage`` table ``player_points``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from html import escape

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from ..storage.sheets import PointsTotals
from ..ui.callbacks import Hist
from ..ui.names import isolate
from ..ui.scoring import num
from .lines import role_text

Gettext = Callable[[str], str]
NGettext = Callable[[str, str, int], str]
TOP_SIZE = 15
NAME_LIMIT = 40


def signed(locale: str, value: float) -> str:
    """``+0.3`` / ``-0.2`` / ``0``."""
    return ("+" if value > 0 else "") + num(locale, value)


def top_points_text(_: Gettext, ngettext: NGettext, locale: str, title: str,
                    totals: Sequence[PointsTotals]) -> str:
    """/top's points view: every player with a published sheet in the chat, by total points,
    highest first (at most :data:`TOP_SIZE`): total, games, per game, wins, the judge's
    additional points."""
    chat = f"«{escape(title)}»" if title else _("this group")
    lines = [_("📋 <b>Points of {chat}</b>").format(chat=chat),
             _("The sum of the published score sheets of club and online games."), ""]
    for i, t in enumerate(totals[:TOP_SIZE], start=1):
        lines.append(_("{k}. {name} — <b>{total}</b> · {games} · {avg} per game · {wins} · "
                       "additional {add}").format(
            k=i, name=isolate(t.name, limit=NAME_LIMIT), total=num(locale, t.total),
            games=ngettext("{n} game", "{n} games", t.games).format(n=t.games),
            avg=num(locale, t.total / t.games if t.games else 0.0),
            wins=ngettext("{n} win", "{n} wins", t.wins).format(n=t.wins),
            add=signed(locale, t.additional)))
    if not totals:
        lines.append(_("No published score sheets here yet."))
    return "\n".join(lines)


def top_keyboard(_: Gettext, points: bool) -> InlineKeyboardMarkup:
    """The /top toggle: to the points from the Elo view and back (the message is edited)."""
    return InlineKeyboardMarkup(inline_keyboard=[[
        InlineKeyboardButton(text=_("🏆 Elo"), callback_data=Hist(a="te").pack()) if points else
        InlineKeyboardButton(text=_("📋 Points"), callback_data=Hist(a="tp").pack())]])


def me_points_lines(_: Gettext, ngettext: NGettext, locale: str,
                    per_role: Sequence[PointsTotals]) -> list[str]:
    """/me's points in one community (``per_role``: his totals per role there): total, games,
    per game, the judge's additional points, then each role's points; [] without any."""
    if not per_role:
        return []
    games = sum(t.games for t in per_role)
    total = sum(t.total for t in per_role)
    additional = sum(t.additional for t in per_role)
    lines = [_("📋 Points: <b>{total}</b> · {games} · {avg} per game · additional {add}").format(
        total=num(locale, total), games=ngettext("{n} game", "{n} games", games).format(n=games),
        avg=num(locale, total / games), add=signed(locale, additional))]
    roles = sorted(per_role, key=lambda t: (-t.games, t.role or ""))
    lines.append(" · ".join(f"{role_text(_, t.role)} {num(locale, t.total)} ({t.games})"
                            for t in roles))
    return lines


def list_mark(_: Gettext, locale: str, points: Mapping[int, float] | None) -> str:
    """The /history list's mark of a game with a published sheet: ``📋 best 2.3``; '' without."""
    if not points:
        return ""
    return " · " + _("📋 best {points}").format(points=num(locale, max(points.values())))


def player_mark(locale: str, points: Mapping[int, float] | None, user_id: int) -> str:
    """A protocol player line's points: `` · 📋 1.3`` ('' when the game has no published sheet)."""
    if not points or user_id not in points:
        return ""
    return f" · 📋 {num(locale, points[user_id])}"
