"""The working context of one :func:`engine.noir.apply` call: the private state copy and the
events produced so far, plus the timer helpers."""

from __future__ import annotations

from .events import Event, TimerArmed
from .state import NoirState, Timer


class Step:
    def __init__(self, st: NoirState) -> None:
        self.st = st
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.events.append(event)

    def arm(self, kind: str, seconds: int | None = None) -> Timer:
        """Arm a new deadline with a fresh ``timer_seq``; ``seconds`` defaults to the timing."""
        st = self.st
        st.timer_seq += 1
        st.timer = Timer(seq=st.timer_seq, seconds=int(st.timings[kind] if seconds is None
                                                       else seconds), kind=kind)
        self.emit(TimerArmed(kind=kind, timer_seq=st.timer.seq, seconds=st.timer.seconds))
        return st.timer

    def disarm(self) -> None:
        self.st.timer = None
