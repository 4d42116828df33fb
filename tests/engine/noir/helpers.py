"""Building NOIR games for the rule tests: a known deal, cells by name, turns by role.

The default deal puts suspect ``r * size + c`` at row r, column c (so "A1" is 0, "B1" is 1, "A2"
is ``size``) and the turn order Killer, Undercover, Psycho, Detective, Bomber, Suit (then Sniper,
Profiler with 8).  ``ids`` places identities by cell name.  Tests set up tokens by editing
``g.st`` between commands (apply works on a copy, so this is the position the next command
sees)."""

from __future__ import annotations

import pytest

from engine.noir import (
    TABLES,
    Command,
    CreateGame,
    Event,
    IllegalCommand,
    Join,
    NoirState,
    Role,
    StartGame,
    apply,
    legal_actions,
)
from engine.noir.grid import cell_name, positions

ORDER6 = (Role.KILLER, Role.UNDERCOVER, Role.PSYCHO, Role.DETECTIVE, Role.BOMBER, Role.SUIT)
ORDER8 = ORDER6 + (Role.SNIPER, Role.PROFILER)
DEFAULT_IDS = {Role.KILLER: "A1", Role.UNDERCOVER: "F1", Role.PSYCHO: "A6", Role.DETECTIVE: "F6",
               Role.BOMBER: "C3", Role.SUIT: "D4", Role.SNIPER: "G7", Role.PROFILER: "G1"}


def uid(i: int) -> int:
    return 100 + i


def sid(name: str, size: int = 6) -> int:
    """The suspect that starts at cell ``name`` in the default layout."""
    return (int(name[1:]) - 1) * size + ord(name[0]) - 65


class G:
    def __init__(self, n: int = 6, ids: dict | None = None, settings: dict | None = None,
                 deck_rest: list[int] | None = None, seed: int = 7) -> None:
        size = TABLES[n].size
        order = ORDER6 if n == 6 else ORDER8
        where = {**DEFAULT_IDS, **(ids or {})}
        idents = [sid(where[r], size) for r in order]
        assert len(set(idents)) == len(idents), "two identities on one cell"
        rest = [s for s in range(size * size) if s not in idents]
        if deck_rest is not None:
            rest = list(deck_rest) + [s for s in rest if s not in deck_rest]
        self.users = {r: uid(i + 1) for i, r in enumerate(order)}
        self.size = size
        self.log: list[Command] = []
        self._st: NoirState | None = None
        self.events: list[Event] = []
        self.do(CreateGame(user_id=uid(1), settings=settings or {}))
        for r in order:
            self.do(Join(user_id=self.users[r], name=r.value))
        self.start = StartGame(user_id=uid(1), order=tuple(self.users[r] for r in order),
                               roles=order, layout=tuple(range(size * size)),
                               deck=tuple(idents + rest), seed=seed)
        self.do(self.start)

    @property
    def st(self) -> NoirState:
        """The current state (the game exists once the CreateGame is applied)."""
        assert self._st is not None, "no game yet"
        return self._st

    # --- driving -------------------------------------------------------------------------------
    def do(self, cmd: Command) -> list[Event]:
        self._st, self.events = apply(self._st, cmd)
        self.log.append(cmd)
        return self.events

    def refuse(self, cmd, exc=IllegalCommand):
        before = self._st
        with pytest.raises(exc):
            apply(self._st, cmd)
        assert self._st is before

    def u(self, role: Role) -> int:
        return self.users[role]

    def p(self, role: Role):
        return self.st.players[self.users[role]]

    def turn_to(self, role: Role) -> None:
        """Jump to ``role``'s choosing step (no turn-start effects)."""
        st = self.st
        st.turn = st.order.index(self.users[role])
        st.step = "act"
        st.token_used = False
        st.turn_seq += 1

    def legal(self, role: Role):
        return legal_actions(self.st, self.users[role])

    def of(self, kind):
        return [e for e in self.events if isinstance(e, kind)]

    # --- cells ---------------------------------------------------------------------------------
    def s(self, name: str) -> int:
        """The suspect now at cell ``name``."""
        r, c = int(name[1:]) - 1, ord(name[0]) - 65
        return self.st.grid[r][c]

    def cell(self, suspect: int) -> str:
        return cell_name(*positions(self.st)[suspect])

    def cells(self, suspects) -> set[str]:
        return {self.cell(x) for x in suspects}

    def ident(self, role: Role) -> int:
        return self.p(role).identity
