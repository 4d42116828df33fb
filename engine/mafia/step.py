"""The step of a mafia game: the core :class:`~engine.core.step.Step` plus the rule set of the
preset (``rs``) and the phase helper every mafia module shares."""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING

from ..core.game import find_game
from ..core.step import Step as CoreStep
from .events import PhaseStarted
from .rules import RuleSet
from .state import GameState

if TYPE_CHECKING:
    from .variant import MafiaVariant


class Step(CoreStep[GameState, "MafiaVariant"]):
    """``game`` is the preset's variant (:class:`engine.mafia.variant.MafiaVariant`); ``rs`` its
    rule set (frozen data, the switches of catalogue.md §6)."""

    @property
    def rs(self) -> RuleSet:
        return self.game.rules

    # --- phases ------------------------------------------------------------------------------
    def new_phase(self, phase: Enum, timer_kind: str | None, *, speaker: int | None = None,
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


def variant_of(st: GameState) -> MafiaVariant:
    """The registered mafia preset ``st`` belongs to. Raises ``KeyError`` for an unknown name
    and ``TypeError`` when the game of that name is no mafia preset."""
    from .variant import MafiaVariant  # at call time: the variant module imports this one

    game = find_game(st.ruleset)
    if not isinstance(game, MafiaVariant):
        raise TypeError(f"{st.ruleset!r} is no mafia preset")
    return game
