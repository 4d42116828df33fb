"""The forum's group chat policy (FORUM-16): ``engine.forum.may_write`` -- the living during the
discussion, the speaker in his last word, nobody otherwise; once the game is decided (the bonus
round, the best player) the table may talk.  ``bot.services.discipline.may_write`` calls it for a seated,
living player of a running, unpaused game (``phase``: ``st.phase``'s value)."""

from __future__ import annotations

from engine import GameState
from engine.forum import may_write as engine_may_write

_AFTER_WIN = ("bonus_offer", "bonus", "best_player")


def may_write(st: GameState, user_id: int, phase: str) -> bool:
    if phase in _AFTER_WIN:
        return True
    return engine_may_write(st, user_id)
