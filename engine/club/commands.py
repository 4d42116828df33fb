"""The club preset's own commands (docs/rules/club.md): the judge's fouls and undoing a
nomination (``Disqualify`` is shared with the forum: ``engine.mafia.commands``).  Each registers
itself in ``engine.core.commands.COMMAND_TYPES``;  in a preset without
a judge's tools ``NotAllowed``."""

from __future__ import annotations

from dataclasses import dataclass

from ..mafia.commands import JudgeCommand


@dataclass(frozen=True, kw_only=True)
class IssueFoul(JudgeCommand):
    """CLUB-36: the host (or, without one, a group admin checked by the shell) fouls ``player``."""

    player: int
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class CancelFoul(JudgeCommand):
    """CLUB-Q15: the judge takes back one foul of ``player`` (logged with ``reason``)."""

    player: int
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class UndoNomination(JudgeCommand):
    """CLUB-Q06: the judge takes ``target`` off the ballot, a nomination made in error (speeches
    only; the nominator, if he is still speaking, may nominate again)."""

    target: int
