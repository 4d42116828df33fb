"""The step of a mafia game: the core :class:`~engine.core.step.Step` plus the rule set of the
preset (``rs``) and the phase helper every mafia module shares."""

from __future__ import annotations

from ..core.step import Step as CoreStep
from .events import PhaseStarted
from .rules import RuleSet
from .state import Phase


class Step(CoreStep):
    """``game`` is the preset's variant (:class:`engine.mafia.variant.MafiaVariant`); ``rs`` its
    rule set (frozen data, the switches of catalogue.md §6)."""

    @property
    def rs(self) -> RuleSet:
        return self.game.rules

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
