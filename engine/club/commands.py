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


@dataclass(frozen=True, kw_only=True)
class DeclareProceduralLoss(JudgeCommand):
    """CLUB-X17: the judge ends the game as a procedural loss of ``player``'s team for his gross
    breach (the other team wins at once)."""

    player: int
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class AddTime(JudgeCommand):
    """CLUB-X18: the judge adds ``ADD_TIME`` (30) seconds to the running speech, defence or last
    word; ``remaining``: the seconds left on it, measured by the shell (None: the whole turn)."""

    remaining: float | None = None


@dataclass(frozen=True, kw_only=True)
class RestartTurn(JudgeCommand):
    """CLUB-X19: the judge starts the running speech, defence or last word again, in full."""


@dataclass(frozen=True, kw_only=True)
class EndTurn(JudgeCommand):
    """CLUB-X20: the judge ends the running speech, defence or last word (the next turn
    follows, as when the speaker says «спасибо»)."""


@dataclass(frozen=True, kw_only=True)
class UndoJudgeAction(JudgeCommand):
    """CLUB-X16: the judge takes back his last action (a foul, a removed nomination, a
    disqualification) as the very next command, if it did not move the game on."""
