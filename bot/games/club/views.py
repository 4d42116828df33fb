"""The club preset's table mark (CLUB-36); the judge's console is ``console.py``."""

from __future__ import annotations

from engine import GameState
from engine.club.state import fouls_of


def fouls_mark(st: GameState, user_id: int) -> str:
    """The pinned table's mark after a living player: one ⚠️ a foul, at most four (CLUB-36)."""
    n = fouls_of(st, user_id)
    return " " + "⚠️" * min(n, 4) if n else ""
