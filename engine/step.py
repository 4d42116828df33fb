"""The working context of one :func:`engine.apply` call: the private state copy, its rule set and
the events produced so far, plus the timer/phase helpers every module shares."""

from __future__ import annotations

from .events import Event, PhaseStarted
from .rulesets import RuleSet
from .state import GameState, Phase, Timer


class Step:
    def __init__(self, st: GameState, rs: RuleSet) -> None:
        self.st = st
        self.rs = rs
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

    # --- phases ------------------------------------------------------------------------------
    def new_phase(self, phase: Phase, timer_kind: str | None, *, speaker: int | None = None,
                  candidates: tuple[int, ...] = (), purpose: str = "") -> None:
        st = self.st
        st.phase = phase
        st.phase_seq += 1
        st.speaker = speaker
        if timer_kind:
            self.set_timer(timer_kind)
        else:
            self.clear_timer()
        t = st.timer
        self.emit(PhaseStarted(
            phase=phase.value, phase_seq=st.phase_seq, timer_seq=t.seq if t else None,
            seconds=t.seconds if t else None, day=st.day, night=st.night, speaker=speaker,
            candidates=tuple(candidates), purpose=purpose,
        ))
