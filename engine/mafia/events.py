"""Events: what happened, as frozen dataclasses, each with its :mod:`audience <engine.core.audience>`.

The presenter renders each event for its audience; the log stores them beside the command that
produced them.  Only :class:`GameEnded` may name roles in a ``PUBLIC`` event.  Seconds are seconds.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.audience import HOST, Audience, Private, TeamChat

# re-exported: the mafia presets' names for the core's base class and registry
from ..core.events import EVENT_TYPES as EVENT_TYPES
from ..core.events import Event as Event
from ..core.events import GameCreated as GameCreated
from .roles import Role, Team


# --- lobby -----------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class PlayerJoined(Event):
    user_id: int
    name: str
    count: int


@dataclass(frozen=True, kw_only=True)
class PlayerLeft(Event):
    user_id: int
    count: int


@dataclass(frozen=True, kw_only=True)
class HostAssigned(Event):
    user_id: int | None


@dataclass(frozen=True, kw_only=True)
class SettingsChanged(Event):
    by: int | None
    timings: tuple[tuple[str, int], ...]


@dataclass(frozen=True, kw_only=True)
class GameStarted(Event):
    """``seating``: (seat, user_id) pairs; ``mafia_count`` is public knowledge (the role table)."""

    seating: tuple[tuple[int, int], ...]
    mafia_count: int
    doctor: bool


@dataclass(frozen=True, kw_only=True)
class RoleAssigned(Event):
    """Private to the player (and copied to the host as :class:`HostRoles`)."""

    user_id: int
    role: Role
    team: Team


@dataclass(frozen=True, kw_only=True)
class HostRoles(Event):
    roles: tuple[tuple[int, Role], ...]
    audience: Audience = HOST


@dataclass(frozen=True, kw_only=True)
class MafiaRevealed(Event):
    """The introduction night: the mafiosi learn each other (PARTY-05)."""

    members: tuple[int, ...]
    don: int | None = None  # CLUB-09: the Don shows himself to his team
    audience: Audience = TeamChat(Team.MAFIA)


# --- phases ----------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class PhaseStarted(Event):
    """A new phase. ``seconds``: its timer (None = no timer); ``speaker`` for speech-like phases;
    ``candidates`` for defence/voting; ``purpose`` tells the ready gate ('intro' | 'night')."""

    phase: str
    phase_seq: int
    timer_seq: int | None
    seconds: int | None
    day: int
    night: int
    speaker: int | None = None
    candidates: tuple[int, ...] = ()
    purpose: str = ""


@dataclass(frozen=True, kw_only=True)
class TurnSkipped(Event):
    user_id: int
    reason: str = "inactive"


@dataclass(frozen=True, kw_only=True)
class ReadyMarked(Event):
    user_id: int
    ready: int
    total: int
    waiting: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class ContinueAvailable(Event):
    timer_seq: int
    seconds: int


@dataclass(frozen=True, kw_only=True)
class NominationAccepted(Event):
    by: int
    target: int
    candidates: tuple[int, ...]


# --- voting ----------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class VoteWindowOpened(Event):
    candidate: int
    index: int
    timer_seq: int
    seconds: int
    candidates: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class VoteCast(Event):
    voter: int
    candidate: int
    voters: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class VoteResult(Event):
    """``tally``: (candidate, voters) in ballot order; ``leaders``: candidates with the top count."""

    tally: tuple[tuple[int, tuple[int, ...]], ...]
    leaders: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class DayWithoutElimination(Event):
    """The day ends with nobody out: 'no_nominations' | 'three_alive' | 'all_tied' | 'half_tied'
    (PARTY-13, 22-24) | 'exclude_failed' (PARTY-21)."""

    reason: str
    candidates: tuple[int, ...] = ()


@dataclass(frozen=True, kw_only=True)
class TieRevote(Event):
    candidates: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class ExcludeVoteCast(Event):
    voter: int
    yes: bool
    yes_votes: tuple[int, ...]
    no_votes: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class ExcludeVoteResult(Event):
    candidates: tuple[int, ...]
    yes: int
    needed: int
    passed: bool


@dataclass(frozen=True, kw_only=True)
class PlayerEliminated(Event):
    """``cause``: 'vote' | 'sole_nominee' | 'exclude_all' | 'night' | 'disqualified' (forum
    also 'host_decision').  ``role``: None in every preset but the forum, where the leaving
    player's card is shown at once (FORUM-Q08) -- the one PUBLIC event before the end that
    names a role."""

    user_id: int
    cause: str
    role: Role | None = None


# --- night -----------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class NightActionAccepted(Event):
    user_id: int
    action: str
    target: int | None


@dataclass(frozen=True, kw_only=True)
class MafiaPicks(Event):
    """The mafia's current picks, shown live to the team (PARTY-Q11)."""

    picks: tuple[tuple[int, int | None], ...]
    agreed: int | None
    audience: Audience = TeamChat(Team.MAFIA)


@dataclass(frozen=True, kw_only=True)
class CheckResult(Event):
    checker: int
    target: int
    is_mafia: bool


@dataclass(frozen=True, kw_only=True)
class DonCheckResult(Event):
    """CLUB-31, ONLINE-15: the Don learns whether his target is the Sheriff."""

    checker: int
    target: int
    is_sheriff: bool


@dataclass(frozen=True, kw_only=True)
class RelayedMessage(Event):
    sender: int
    text: str
    audience: Audience = TeamChat(Team.MAFIA)


@dataclass(frozen=True, kw_only=True)
class NightResult(Event):
    """Morning news: ``killed`` user or None; ``saved`` only when the group announces saves."""

    killed: int | None
    saved: bool = False


# --- presence: AFK (ONLINE-48; a preset with ``afk_after``) ------------------------------------
@dataclass(frozen=True, kw_only=True)
class PlayerAfk(Event):
    """ONLINE-48: an OFFLINE player became AFK (no longer required, out of N)."""

    user_id: int


# --- control ---------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class Paused(Event):
    by: int | None
    reason: str  # 'player' | 'host_lost'
    remaining: int | None
    timer_seq: int | None
    seconds: int | None


@dataclass(frozen=True, kw_only=True)
class Resumed(Event):
    by: int | None
    auto: bool = False


@dataclass(frozen=True, kw_only=True)
class PlayerInactive(Event):
    user_id: int
    reason: str


@dataclass(frozen=True, kw_only=True)
class PlayerActive(Event):
    user_id: int


@dataclass(frozen=True, kw_only=True)
class OrganiserChanged(Event):
    user_id: int


@dataclass(frozen=True, kw_only=True)
class HostModeEnded(Event):
    by: int | None
    reason: str  # 'takeover' | 'host_timeout'


@dataclass(frozen=True, kw_only=True)
class GameEnded(Event):
    """The result and the full reveal: ``roles`` (seat, user_id, role) for every seat."""

    winner: Team
    roles: tuple[tuple[int, int, Role], ...]
    days: int


@dataclass(frozen=True, kw_only=True)
class GameCancelled(Event):
    by: int | None
    reason: str


def private(user_id: int) -> Private:
    return Private(user_id)
