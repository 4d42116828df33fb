"""The club preset's own events (docs/rules/club.md): the judge's tools.  Each registers itself
in ``engine.core.events.EVENT_TYPES``."""

from __future__ import annotations

from dataclasses import dataclass

from ..core.events import Event
from ..mafia.roles import Team


@dataclass(frozen=True, kw_only=True)
class FoulIssued(Event):
    """CLUB-36: a foul, with the player's count after it; ``by`` the host (None: an admin)."""

    player: int
    count: int
    by: int | None
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class FoulCancelled(Event):
    """CLUB-Q15: the judge took back a foul; ``count`` is the player's count after it."""

    player: int
    count: int
    by: int | None
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class NominationUndone(Event):
    """CLUB-Q06: the judge took ``target`` off the ballot; ``nominator`` made the nomination;
    ``candidates`` is the ballot after it."""

    target: int
    nominator: int | None
    by: int | None
    candidates: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class ProceduralLoss(Event):
    """CLUB-X17: ``player``'s breach lost the game for ``team`` (the ``GameEnded`` that follows
    names the winner); ``by`` the judge (None: an admin)."""

    player: int
    team: Team
    by: int | None
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class TimeAdded(Event):
    """CLUB-X18: ``seconds`` added to ``speaker``'s turn; the new deadline is timer
    ``timer_seq``, ``total`` seconds from now."""

    speaker: int
    seconds: int
    timer_seq: int
    total: int
    by: int | None


@dataclass(frozen=True, kw_only=True)
class TurnRestarted(Event):
    """CLUB-X19: ``speaker``'s turn starts again: timer ``timer_seq`` of ``seconds``."""

    speaker: int
    timer_seq: int
    seconds: int
    by: int | None


@dataclass(frozen=True, kw_only=True)
class TurnEnded(Event):
    """CLUB-X20: the judge ended ``speaker``'s turn (the next ``PhaseStarted`` follows)."""

    speaker: int
    by: int | None


@dataclass(frozen=True, kw_only=True)
class JudgeActionUndone(Event):
    """CLUB-X16: the judge's last ``action`` ('foul' | 'fourth_foul' | 'disqualification' |
    'nomination') concerning ``player`` was taken back: the game is as it was before it."""

    action: str
    player: int
    by: int | None
