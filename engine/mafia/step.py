"""The step of a mafia game: the core :class:`~engine.core.step.Step` plus the rule set of the
preset (``rs``) and the phase helper every mafia module shares -- and :class:`Variant`, what
the shared mechanics ask of the preset's game object.

The mechanics (``flow``, ``night``, ``play``, ``control``, ``presence``, ``lobby``, ``queries``)
depend on that protocol only; :class:`engine.mafia.variant.MafiaVariant` implements it and
imports them, never the other way round (issue 23: no import cycle in the engine)."""

from __future__ import annotations

from enum import Enum
from typing import Any, Protocol, cast, runtime_checkable

from ..core.game import find_game
from ..core.step import Step as CoreStep
from .actions import LegalActions
from .events import PhaseStarted
from .roles import Team
from .rules import RuleSet
from .state import GameState


@runtime_checkable
class Variant(Protocol):
    """A mafia preset's game object as the shared mechanics see it (the hooks of
    :class:`engine.mafia.variant.MafiaVariant`, documented there): its rule set, the class of its
    buttons, and the places where a preset's algorithm differs from the shared day and night."""

    rules: RuleSet
    actions: type[LegalActions]

    def silenced_turn(self, s: Step, user_id: int) -> bool: ...
    def vote_cancelled(self, s: Step) -> bool: ...
    def forced_winner(self, st: GameState) -> Team | None: ...
    def start_day(self, s: Step) -> None: ...
    def defences_done(self, s: Step) -> None: ...
    def check_win(self, s: Step) -> bool: ...
    def start_night(self, s: Step) -> None: ...
    def night_complete(self, s: Step) -> bool: ...
    def end_night(self, s: Step, timed_out: bool) -> None: ...
    def phase_timeout(self, s: Step) -> bool: ...
    def presence_changed(self, s: Step) -> None: ...
    def add_actions(self, st: GameState, user_id: int, kw: dict[str, Any]) -> bool: ...


class Step(CoreStep[GameState, Variant]):
    """``game`` is the preset's variant (a :class:`Variant`: an
    :class:`engine.mafia.variant.MafiaVariant`); ``rs`` its rule set (frozen data, the switches
    of catalogue.md §6)."""

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


#: game class -> whether it has the :class:`Variant` hooks (a protocol's ``isinstance`` reads
#: every member, ~15 us; a registered game's class never changes)
_IS_VARIANT: dict[type, bool] = {}


def variant_of(st: GameState) -> Variant:
    """The registered mafia preset ``st`` belongs to. Raises ``KeyError`` for an unknown name
    and ``TypeError`` when the game of that name is no mafia preset (has not the
    :class:`Variant` hooks)."""
    game = find_game(st.ruleset)
    known = _IS_VARIANT.get(type(game))
    if known is None:
        known = _IS_VARIANT[type(game)] = isinstance(game, Variant)
    if not known:
        raise TypeError(f"{st.ruleset!r} is no mafia preset")
    return cast(Variant, game)
