"""The working context of one :func:`engine.apply` call: the private state copy, the game it
belongs to and the events produced so far, plus the timer helpers every game shares."""

from __future__ import annotations

from typing import Generic, TypeVar

from .events import Event
from .state import TimedState, Timer

S = TypeVar("S", bound=TimedState)
G = TypeVar("G")


class Step(Generic[S, G]):
    """``st``: the private copy being changed (type ``S``); ``game``: its registered game object
    (``G``, the preset's variant); ``events``: emitted so far, in order."""

    def __init__(self, st: S, game: G) -> None:
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
        timer = Timer(seq=st.timer_seq, seconds=int(seconds), kind=kind)
        st.timer = timer
        return timer

    def clear_timer(self) -> None:
        self.st.timer = None
