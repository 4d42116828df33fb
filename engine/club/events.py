"""The club preset's own events (docs/rules/club.md): the judge's tools.  Each registers itself
in ``engine.core.events.EVENT_TYPES``."""

from __future__ import annotations

from dataclasses import dataclass

from ..core.events import Event


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
