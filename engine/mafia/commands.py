"""Commands: everything that can happen to a game, as frozen dataclasses named by verb.

A command is the only input of :func:`engine.apply`.  Chance and time come in as data: the shell
draws the deal (:class:`StartGame` carries seating and roles) and measures time (:class:`Pause`
carries the remaining seconds, :class:`PhaseTimeout` names the timer that expired).  So the
append-only log of commands replays to the same state, always.

``user_id`` is the Telegram user id of whoever issued the command (``None`` for the shell itself).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# re-exported: the mafia presets' names for the core's base class and registry
from ..core.commands import COMMAND_TYPES as COMMAND_TYPES
from ..core.commands import Command as Command
from ..core.commands import CreateGame as CreateGame
from .roles import Role


# --- lobby -----------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class Join(Command):
    name: str


@dataclass(frozen=True, kw_only=True)
class Leave(Command):
    pass


@dataclass(frozen=True, kw_only=True)
class BecomeHost(Command):
    """The issuing user becomes the game's human (non-playing) host (lobby only)."""

    name: str = ""


@dataclass(frozen=True, kw_only=True)
class ChangeSettings(Command):
    """Organiser changes tempo/overrides/options. Mid-game it applies from the next phase (PARTY-Q17)."""

    settings: dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class StartGame(Command):
    """Deal drawn by the shell: ``seating`` user ids in seat order 1..n, ``roles`` aligned with it."""

    seating: tuple[int, ...]
    roles: tuple[Role, ...]


@dataclass(frozen=True, kw_only=True)
class CancelGame(Command):
    """Organiser/admin stops the game (lobby or running); ``reason``: 'cancelled' | 'expired' | 'stopped'."""

    reason: str = "cancelled"


# --- readiness, speeches, nominations ------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class MarkReady(Command):
    pass


@dataclass(frozen=True, kw_only=True)
class Continue(Command):
    """Any active living player continues after the ready-wait expired (PARTY-39)."""


@dataclass(frozen=True, kw_only=True)
class EndSpeech(Command):
    """The current speaker (or the host) ends the speech, defence or last word early (PARTY-35)."""


@dataclass(frozen=True, kw_only=True)
class Nominate(Command):
    target: int


# --- voting ----------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class CastVote(Command):
    """A vote against ``target``, which must be the candidate whose window is open (PARTY-15)."""

    target: int


@dataclass(frozen=True, kw_only=True)
class CastExcludeVote(Command):
    """Yes/no in the vote on eliminating the whole tied group (PARTY-21)."""

    yes: bool


# --- night -----------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class NightAction(Command):
    """``action``: 'kill' (mafia pick, changeable), 'check', 'heal', or 'sleep' (neutral tap)."""

    action: str
    target: int | None = None


@dataclass(frozen=True, kw_only=True)
class RelayMessage(Command):
    """A text a mafioso sends the bot at night; relayed to living teammates (PARTY-Q11)."""

    text: str


# --- flow control ----------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class Pause(Command):
    """``remaining``: seconds left on the running timer, measured by the shell."""

    remaining: float | None = None


@dataclass(frozen=True, kw_only=True)
class Resume(Command):
    pass


@dataclass(frozen=True, kw_only=True)
class HostNext(Command):
    """The human host moves the game on (replaces readiness in host mode, PARTY-Q14/Q18)."""


@dataclass(frozen=True, kw_only=True)
class TakeOver(Command):
    """Switch to automatic mode (admins with /takehost, PARTY-Q22); ``user_id`` becomes organiser."""


@dataclass(frozen=True, kw_only=True)
class MarkInactive(Command):
    """The shell reports lost connection of ``player``: 'blocked' | 'left' | 'away'."""

    player: int
    reason: str


@dataclass(frozen=True, kw_only=True)
class MarkActive(Command):
    """The user is back (/back or any update) (PARTY-44)."""


@dataclass(frozen=True, kw_only=True)
class JudgeCommand(Command, register=False):
    """Base of the judge's tools (CLUB-36..39: fouls, disqualification, undoing a nomination; the
    club's are in ``engine.club.commands``).  A preset without a handler of its own refuses them
    with ``NotAllowed`` ("this preset has no fouls"); they never count as presence (PARTY-44)."""


@dataclass(frozen=True, kw_only=True)
class OwnPhaseCommand(Command, register=False):
    """Base of a command that acts only in a phase some presets have (the online ballot, lift
    vote and best move, ``engine.online.commands``): elsewhere refused with ``PhaseClosed``."""


@dataclass(frozen=True, kw_only=True)
class Disqualify(JudgeCommand):
    """CLUB-39: removal at once for a gross breach, without a last word."""

    player: int
    reason: str = ""


# --- presence: AFK (ONLINE-48; a preset with ``afk_after``) ------------------------------------
@dataclass(frozen=True, kw_only=True)
class MarkAfk(Command):
    """ONLINE-48, Q20: the shell reports that ``player`` stayed OFFLINE (inactive) for the
    preset's ``afk_after`` seconds (500), paused time excluded.  Sent by the shell (``user_id``
    None); refused unless he is still OFFLINE."""

    player: int


@dataclass(frozen=True, kw_only=True)
class PhaseTimeout(Command):
    """The deadline of timer ``timer_seq`` passed. Stale timers are no-ops (design.md §2)."""

    timer_seq: int
