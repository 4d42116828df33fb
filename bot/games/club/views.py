"""Keyboards of the club preset: the judge's console (CLUB-36..39, CLUB-Q08)."""

from __future__ import annotations

from aiogram.types import InlineKeyboardMarkup

from engine import GameState
from engine.club.state import fouls_of

from ...ui.callbacks import Act
from ...ui.keyboards import InlineKeyboardBuilder


def foul_keyboard(game_id: int, st: GameState) -> InlineKeyboardMarkup:
    """One row per living seat: ⚠️ foul, 🟥 disqualify (seat-only labels: no user text)."""
    kb = InlineKeyboardBuilder()
    for p in st.alive():
        fouls = "⚠️" * fouls_of(st, p.user_id)
        kb.button(text=f"⚠️ №{p.seat} {fouls}".strip(),
                  callback_data=Act(g=game_id, s=0, a="foul", t=p.seat))
        kb.button(text=f"🟥 №{p.seat}", callback_data=Act(g=game_id, s=0, a="dq", t=p.seat))
    kb.adjust(2)
    return kb.as_markup()


def fouls_mark(st: GameState, user_id: int) -> str:
    """The pinned table's mark after a living player: one ⚠️ a foul, at most four (CLUB-36)."""
    n = fouls_of(st, user_id)
    return " " + "⚠️" * min(n, 4) if n else ""
