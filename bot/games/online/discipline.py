"""The online preset's group chat policy (ONLINE-35, 38, Q11, Q18): the day discussion (with its
vote): every living player; night (and a readiness gate): nobody; last word and defence turns
(the tied candidates' sub-phases before a revote or a lift vote): only the speaker; the revote,
the lift vote and the best move: nobody.  ``bot.services.discipline.may_write`` calls it for a seated,
living player of a running, unpaused game (``phase``: ``st.phase``'s value)."""

from __future__ import annotations

from engine import GameState

#: phases in which nobody writes: the night, the votes after a tie (the candidates spoke in
#: their own defence turns, ONLINE-35/Q11) and the best move
_CLOSED = ("night", "ready", "revote", "lift_vote", "best_move")


def may_write(st: GameState, user_id: int, phase: str) -> bool:
    if phase in _CLOSED:
        return False
    if phase in ("last_word", "defence"):
        return user_id == st.speaker
    if phase == "speech":  # not an online phase today; a turn if someone has the floor
        return st.speaker is None or user_id == st.speaker
    return True  # the day discussion (ONLINE-Q02), and any phase not known here
