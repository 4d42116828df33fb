"""NOIR's lobby message in the group (NOIR-01, X23): who joined, 6 or 8 players needed, the
timings, and the Join / Leave / Start / Cancel buttons (the shared lobby handler runs them)."""

from __future__ import annotations

from collections.abc import Callable

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from engine.noir import NoirState

from ...ui.callbacks import LobbyAct
from ...ui.names import isolate
from ..hints import NGettext

Gettext = Callable[[str], str]


def lobby_text(_: Gettext, ngettext: NGettext, st: NoirState) -> str:
    """The lobby (HTML): the game, its timings, the players joined so far."""
    n = len(st.players)
    lines = [_("🎲 <b>NOIR: FBI vs Mafia</b> — new game"), "",
             _("6 players: a 6×6 grid, 3 mafiosi against 3 agents; 8 players: 7×7, 4 against 4."),
             _("Turn {turn} s · the Suit's window {cancel} s.").format(
                 turn=st.timings["turn"], cancel=st.timings["cancel"])]
    if st.options.get("strict_accusation"):
        lines.append(_("Strict accusation: name the role too (NOIR-Q01)."))
    lines += ["",
              ngettext("{n} player (6 or 8 needed):", "{n} players (6 or 8 needed):", n).format(n=n)]
    lines += [f"{i}. {isolate(p.name)}" for i, p in enumerate(st.players.values(), start=1)]
    lines += ["", _("Press «Join»: the bot opens your private chat with it, where your identity "
                    "card and your turns will come.")]
    return "\n".join(lines)


def lobby_markup(_: Gettext, game_id: int, join_url: str) -> InlineKeyboardMarkup:
    def act(text: str, a: str) -> InlineKeyboardButton:
        return InlineKeyboardButton(text=text, callback_data=LobbyAct(g=game_id, a=a).pack())

    return InlineKeyboardMarkup(inline_keyboard=[
        [InlineKeyboardButton(text=_("➕ Join"), url=join_url), act(_("➖ Leave"), "leave")],
        [act(_("▶️ Start"), "start"), act(_("✖️ Cancel"), "cancel")]])
