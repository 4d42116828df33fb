"""The online preset's own commands (docs/rules/online-sport.md): the taps of the open ballot
and of the lift vote, and the first victim's best move.  Each registers itself in
``engine.core.commands.COMMAND_TYPES``; in another preset ``PhaseClosed``."""

from __future__ import annotations

from dataclasses import dataclass

from ..mafia.commands import OwnPhaseCommand


@dataclass(frozen=True, kw_only=True)
class TapVote(OwnPhaseCommand):
    """ONLINE-16..19, 34: a tap on the open day vote or revote.  ``target``: a living player's
    user id (the day: anyone living, himself included; a revote: one of the leaders) or None for
    PASS (the day only).  The first tap is preliminary, the second confirms or switches and is
    final."""

    target: int | None = None


@dataclass(frozen=True, kw_only=True)
class TapLift(OwnPhaseCommand):
    """ONLINE-24, 32, Q09: a tap on the lift decision, ``lift`` True = Lift, False = Leave;
    preliminary, then final, like :class:`TapVote`."""

    lift: bool


@dataclass(frozen=True, kw_only=True)
class ChooseBestMove(OwnPhaseCommand):
    """ONLINE-07/08, Q12: the first night victim names exactly three distinct living players
    (user ids) he takes for blacks; ``targets=()`` skips the best move."""

    targets: tuple[int, ...] = ()
