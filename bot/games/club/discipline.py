"""The club's group chat policy (CLUB-06, CLUB-14, CLUB-37): during a speech, defence or last
word only the speaker -- not during a nomination-only turn after three fouls; nobody during the
votes and at night.  ``bot.services.discipline.may_write`` calls it for a seated, living player of a
running, unpaused game (``phase``: ``st.phase``'s value)."""

from __future__ import annotations

from engine import GameState

_TURNS = ("speech", "defence", "last_word")
_CLOSED = ("night", "ready", "voting", "exclude_vote")


def may_write(st: GameState, user_id: int, phase: str) -> bool:
    if phase in _TURNS:
        silenced = st.timer is not None and st.timer.kind == "silenced"  # CLUB-37
        return user_id == st.speaker and not silenced
    return phase not in _CLOSED
