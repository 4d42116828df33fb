"""The pieces of state every game has: the deadline the shell must arm and the frozen clock of a
pause, plus the copy helpers a game's ``GameState.clone`` is built from.

A game's state is a plain mutable dataclass of its own package (``engine.mafia.state.GameState``
for the mafia presets) with at least ``ruleset`` (its registered name), ``over`` and
``clone()``; it is only ever changed on the private copy :func:`engine.apply` makes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, Self, TypeVar

_T = TypeVar("_T")


@dataclass
class Timer:
    """A deadline the shell must arm: fire ``PhaseTimeout(seq)`` after ``seconds``."""

    seq: int
    seconds: int
    kind: str


@dataclass
class PauseState:
    by: int | None
    reason: str
    frozen_kind: str | None  # kind of the timer that was running
    frozen_remaining: int | None


class GameStateLike(Protocol):
    """What the core asks of every game's state (:func:`engine.apply`): its registered game's
    name, whether it is over, and an independent copy."""

    @property
    def ruleset(self) -> str: ...

    @property
    def over(self) -> bool: ...

    def clone(self) -> Self: ...


class TimedState(Protocol):
    """A state with the shell's deadline (:class:`Timer`), armed by
    :meth:`engine.core.step.Step.set_timer`: ``timings`` maps a timer kind to seconds."""

    timer_seq: int
    timings: dict[str, int]
    timer: Timer | None


def shallow(obj: _T) -> _T:
    """A shallow copy of a plain dataclass instance (fields only, no ``__init__`` call)."""
    new: _T = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    return new


def copy_plain(value: Any) -> Any:
    """Copy JSON-like data (dicts and lists of scalars), the shape of settings and options."""
    if isinstance(value, dict):
        return {k: copy_plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_plain(v) for v in value]
    return value
