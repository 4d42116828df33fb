"""NOIR commands: frozen dataclasses named by verb, the only input of :func:`engine.noir.apply`.

Chance and time come in as data: :class:`StartGame` carries the turn order, the roles, the grid
layout, the shuffled deck and a seed, all drawn by the shell; :class:`Pause` carries the seconds
left; :class:`TurnTimeout` names the timer that expired.  Suspects are ints; cells are never
named in commands, so a command means the same suspect whatever shifts came before.
``user_id`` is the acting Telegram user (None = the shell).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .rules import Role


@dataclass(frozen=True, kw_only=True)
class Command:
    user_id: int | None = None


# --- lobby -------------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class CreateGame(Command):
    """First command of a log. ``settings``: {"timings": {"turn": s, "cancel": s, "pause": s},
    "options": {"strict_accusation": bool}}."""

    settings: dict[str, Any] = field(default_factory=dict[str, Any])


@dataclass(frozen=True, kw_only=True)
class Join(Command):
    name: str


@dataclass(frozen=True, kw_only=True)
class Leave(Command):
    pass


@dataclass(frozen=True, kw_only=True)
class StartGame(Command):
    """The deal, drawn by the shell (NOIR-01..04, Q18): ``order`` the joined user ids in turn
    order (mafioso, agent, ... the Killer first), ``roles`` aligned with it, ``layout`` the
    suspects in reading order (a permutation of 0..n*n-1), ``deck`` the shuffled suspect cards
    (a permutation too; identities are dealt from its top in turn order, then the Profiler's
    hand), ``seed`` for the timeout's threat pick."""

    order: tuple[int, ...]
    roles: tuple[Role, ...]
    layout: tuple[int, ...]
    deck: tuple[int, ...]
    seed: int = 0


@dataclass(frozen=True, kw_only=True)
class CancelGame(Command):
    reason: str = "cancelled"


# --- actions common to all ---------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class Shift(Command):
    """NOIR-18, 37, 38: ``line`` 'row' | 'column', ``index`` 0-based, ``by`` ±1 or ±2 (a row
    moves right for > 0, a column down)."""

    line: str
    index: int
    by: int


@dataclass(frozen=True, kw_only=True)
class Collapse(Command):
    """NOIR-39, Q13: ``axis`` 'columns' (the grid loses a row) | 'rows' (loses a column),
    ``end`` 'first' (topmost / leftmost dead) | 'last'."""

    axis: str
    end: str


@dataclass(frozen=True, kw_only=True)
class Accuse(Command):
    """NOIR-13, 28, 31, Q25: any agent, an adjacent suspect or his own; the Detective also
    up to 3 in a straight line. ``role`` is required with the strict option (NOIR-Q01)."""

    target: int
    role: Role | None = None


# --- mafia -------------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class Kill(Command):
    """NOIR-19: the Killer kills an adjacent living, unarrested suspect."""

    target: int


@dataclass(frozen=True, kw_only=True)
class ChangeIdentity(Command):
    """NOIR-19, 29, Q14: the Killer or the Undercover takes the next card as his identity."""


@dataclass(frozen=True, kw_only=True)
class Swap(Command):
    """NOIR-21, Q06: the Psycho swaps two suspects both adjacent to him."""

    first: int
    second: int


@dataclass(frozen=True, kw_only=True)
class PlaceThreats(Command):
    """NOIR-22, Q08: the Psycho's closing step, 1..3 distinct suspects in a straight line."""

    targets: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class PlaceBomb(Command):
    """NOIR-23: on his own suspect or an adjacent one."""

    target: int


@dataclass(frozen=True, kw_only=True)
class Detonate(Command):
    """NOIR-24, 25, Q09: ``bomb`` any bombed suspect, ``chain`` the suspects the blast goes on
    to, each adjacent to the one before; every link but the last must carry a bomb."""

    bomb: int
    chain: tuple[int, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Shoot(Command):
    """NOIR-26: the Sniper, up to 3 cells along a diagonal."""

    target: int


@dataclass(frozen=True, kw_only=True)
class MoveToken(Command):
    """NOIR-27, Q10: ``kind`` 'bomb' | 'threat' | 'shield' from ``source`` to an adjacent
    ``dest``."""

    kind: str
    source: int
    dest: int


# --- agents ------------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class Autopsy(Command):
    """NOIR-30: the Undercover, an adjacent dead suspect."""

    target: int


@dataclass(frozen=True, kw_only=True)
class Interrogate(Command):
    """NOIR-32, Q16: the Detective keeps ``keep``, one of the two cards his legal actions show."""

    keep: int


@dataclass(frozen=True, kw_only=True)
class Protect(Command):
    """NOIR-33, 35: the Suit's optional token step, place a shield (the turn goes on)."""

    target: int


@dataclass(frozen=True, kw_only=True)
class Unprotect(Command):
    """NOIR-33: the Suit's optional token step, take a shield off (the turn goes on)."""

    target: int


@dataclass(frozen=True, kw_only=True)
class AnswerCancel(Command):
    """NOIR-34, Q11: the Suit's answer inside the window; it takes effect when the window
    closes (its length never depends on him)."""

    cancel: bool


@dataclass(frozen=True, kw_only=True)
class Profile(Command):
    """NOIR-36, Q17: the Profiler plays a card from his hand."""

    card: int


# --- time and presence -------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class TurnTimeout(Command):
    """The shell's timer fired; a no-op unless ``timer_seq`` is the running timer's."""

    timer_seq: int


@dataclass(frozen=True, kw_only=True)
class Pause(Command):
    """``remaining``: seconds left on the running timer, measured by the shell."""

    remaining: int | None = None


@dataclass(frozen=True, kw_only=True)
class Resume(Command):
    pass


@dataclass(frozen=True, kw_only=True)
class ReturnToGame(Command):
    """NOIR-Q21: a player auto-passed after two timeouts says he is back."""


COMMAND_TYPES: dict[str, type[Command]] = {c.__name__: c for c in (
    CreateGame, Join, Leave, StartGame, CancelGame, Shift, Collapse, Accuse, Kill,
    ChangeIdentity, Swap, PlaceThreats, PlaceBomb, Detonate, Shoot, MoveToken, Autopsy,
    Interrogate, Protect, Unprotect, AnswerCancel, Profile, TurnTimeout, Pause, Resume,
    ReturnToGame,
)}
