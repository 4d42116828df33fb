"""The online preset's part of the game state: the open ballot (``GameState.ballot``) and the
season-long counters (``GameState.online``)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class OnlineState:
    """ONLINE: what the preset keeps for the whole game; created with the lobby."""

    #: ONLINE-36/37, Q16: the nights in a row whose shot missed
    misfires: int = 0

    def clone(self) -> OnlineState:
        return OnlineState(misfires=self.misfires)


@dataclass
class Ballot:
    """ONLINE: an open vote with preliminary and final taps (ONLINE-16..18, Q02..Q04, Q09).

    ``stage``: 'day' (any living player or PASS) | 'revote' (``candidates`` only) | 'lift'
    (Lift or Leave ``candidates``).  ``taps``: voter -> (choice, final); the choice is a user
    id or None (PASS) -- for 'lift' True (Lift) or False (Leave).  ``n``: N of the tie table,
    the living non-AFK players when the day's vote opened (Q08); ``base``: N of the lift
    threshold, counted when the lift vote opens (Q09)."""

    stage: str
    candidates: list[int]
    n: int
    base: int = 0
    #: voter -> (choice, final): a candidate or None (PASS); on the lift ballot, Lift or not
    taps: dict[int, tuple[int | None, bool]] = field(default_factory=dict)

    def clone(self) -> Ballot:
        return Ballot(stage=self.stage, candidates=list(self.candidates), n=self.n,
                      base=self.base, taps=dict(self.taps))
