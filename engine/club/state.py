"""The club preset's part of the game state (``GameState.club``; rule IDs in docs/rules/club.md).

Created with the lobby of a club game.  Every mutable field is copied by :meth:`clone`
(``tests/engine/test_purity.py`` checks that nothing mutable is shared)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class ClubState:
    #: CLUB-36: user id -> his fouls (players without a foul are absent)
    fouls: dict[int, int] = field(default_factory=dict)
    #: CLUB-37: the players who lose their next regular speech (they may still nominate)
    silenced: set[int] = field(default_factory=set)
    #: CLUB-Q17: the day whose vote a disqualification cancelled (0: none)
    vote_cancelled_day: int = 0
    #: CLUB-X16: the judge's last action while Undo may still take it back (else None)
    undo: JudgeAction | None = None

    def clone(self) -> ClubState:
        return ClubState(fouls=dict(self.fouls), silenced=set(self.silenced),
                         vote_cancelled_day=self.vote_cancelled_day,
                         undo=self.undo.clone() if self.undo is not None else None)


def fouls_of(st: object, user_id: int) -> int:
    """The fouls of ``user_id`` in ``st`` (0 in a game of another preset) (CLUB-36)."""
    club = getattr(st, "club", None)
    return club.fouls.get(user_id, 0) if isinstance(club, ClubState) else 0


@dataclass
class JudgeAction:
    """CLUB-X16: the judge's last action, which Undo may take back as the next command of the
    log: ``action`` 'foul' | 'fourth_foul' | 'disqualification' | 'nomination' (a removed
    nomination); ``player`` the seat's user id it concerned; ``commands`` its place in the log
    (``GameState.commands`` when it was applied); ``before`` the game state before it (its own
    ``club.undo`` cleared)."""

    action: str
    player: int
    commands: int
    before: Any

    def clone(self) -> JudgeAction:
        return JudgeAction(action=self.action, player=self.player, commands=self.commands,
                           before=self.before.clone())
