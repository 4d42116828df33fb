"""The online preset's own events (docs/rules/online-sport.md), PUBLIC unless they say otherwise.
Each registers itself in ``engine.core.events.EVENT_TYPES``."""

from __future__ import annotations

from dataclasses import dataclass

from ..core.events import Event


@dataclass(frozen=True, kw_only=True)
class VoteTapped(Event):
    """ONLINE-16..21: a tap on the open ballot.  ``stage``: 'day' | 'revote'; ``target``: the
    chosen player, None = PASS; ``final``: False for a preliminary tap, True for the second
    (confirming or switching) one.  ``votes``: every tap so far as (voter, target, final), in
    the voters' seat order -- the preliminary results (an unconfirmed tap counts at the close)."""

    voter: int
    stage: str
    target: int | None
    final: bool
    votes: tuple[tuple[int, int | None, bool], ...]


@dataclass(frozen=True, kw_only=True)
class LiftCalled(Event):
    """ONLINE-24, 28..30: the tied ``candidates`` (seat order) face a Lift/Leave decision after
    their defences; ``n`` is N of the tie table (living non-AFK players when the day's vote
    opened)."""

    candidates: tuple[int, ...]
    n: int


@dataclass(frozen=True, kw_only=True)
class LiftTapped(Event):
    """ONLINE-21, Q09: a tap on the lift decision: ``lift`` True = Lift, False = Leave;
    ``votes``: every tap so far as (voter, lift, final) in seat order."""

    voter: int
    lift: bool
    final: bool
    votes: tuple[tuple[int, bool, bool], ...]


@dataclass(frozen=True, kw_only=True)
class Misfire(Event):
    """ONLINE-14, 36: the night's shot missed; ``count`` misfires in a row so far."""

    count: int


@dataclass(frozen=True, kw_only=True)
class BestMove(Event):
    """ONLINE-07/08: the first night victim's three suspects, published at once; ``targets=()``
    when he skipped it or his time ran out.  Whether they are black is shown only at the end."""

    user_id: int
    targets: tuple[int, ...]
