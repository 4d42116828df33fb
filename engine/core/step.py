"""The working context of one :func:`engine.apply` call: the private state copy, the game it
belongs to and the events produced so far, plus the timer helpers every game shares."""

from __future__ import annotations

from .events import Event
from .state import Timer


class Step:
    """``st``: the private copy being changed; ``game``: its registered game object (the
    preset's variant); ``events``: emitted so far, in order."""

    def __init__(self, st, game) -> None:
        self.st = st
        self.game = game
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.events.append(event)

    # --- timers ------------------------------------------------------------------------------
    def set_timer(self, kind: str, seconds: int | None = None) -> Timer:
        """Arm a new deadline (fresh ``timer_seq``); ``seconds`` defaults to the timing ``kind``."""
        st = self.st
        st.timer_seq += 1
        if seconds is None:
            seconds = st.timings[kind]
        st.timer = Timer(seq=st.timer_seq, seconds=int(seconds), kind=kind)
        return st.timer

    def clear_timer(self) -> None:
        self.st.timer = None
