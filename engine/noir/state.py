"""NOIR's game state: plain mutable dataclasses, only ever changed on a private copy inside
:func:`engine.noir.apply` (:meth:`NoirState.clone` copies everything mutable).

Suspects are ints ``0 .. size*size-1`` (the bot names them); the grid is a list of rows, each a
list of suspect ids, ``grid[r][c]`` with ``r = 0`` the top row (row "1") and ``c = 0`` the left
column ("A").  Dead suspects stay on the grid until a collapse removes them (NOIR-39).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from .rules import TABLES, Role, Table, Team

#: a shift (NOIR-18): (line 'row' | 'column', index from 0, by ±1 or ±2)
ShiftMove = tuple[str, int, int]


@dataclass
class Player:
    user_id: int
    name: str
    role: Role | None = None
    identity: int | None = None  # NOIR-03: the suspect he hides behind (secret)
    misses: int = 0  # consecutive turn timeouts (NOIR-Q21)
    auto_pass: bool = False  # NOIR-Q21: two timeouts in a row -> his turns pass by themselves
    pauses_used: int = 0

    @property
    def dealt_role(self) -> Role:
        """His role, once the game has started (NOIR-05). Raises ``LookupError`` before."""
        if self.role is None:
            raise LookupError(f"player {self.user_id} has no role yet")
        return self.role

    @property
    def team(self) -> Team | None:
        return self.role.team if self.role else None


@dataclass
class Timer:
    """A deadline the shell arms: send ``TurnTimeout(timer_seq=seq)`` after ``seconds``.
    ``kind``: 'turn' | 'cancel' (the Suit's window) | 'pause' (a pause's cap)."""

    seq: int
    seconds: int
    kind: str


@dataclass
class Window:
    """NOIR-34, Q11: a kill of a protected suspect waits for the Suit's fixed reaction window.
    ``suit_can``: the Suit is in line and may cancel; ``answer``: his latest answer."""

    suspect: int
    cause: str
    suit_can: bool
    answer: bool = False


@dataclass
class NoirState:
    organiser: int | None
    settings: dict[str, Any]
    timings: dict[str, int]
    options: dict[str, bool]
    phase: str = "lobby"  # lobby | play | ended | cancelled
    players: dict[int, Player] = field(default_factory=dict)  # join order
    order: list[int] = field(default_factory=list)  # NOIR-07, 08, Q18: turn order, Killer first
    grid: list[list[int]] = field(default_factory=list)
    size: int = 0  # the side of the starting grid (6 or 7)
    dead: set[int] = field(default_factory=set)
    arrested: set[int] = field(default_factory=set)
    removed: set[int] = field(default_factory=set)  # dead suspects taken off by a collapse
    bombs: set[int] = field(default_factory=set)
    threats: set[int] = field(default_factory=set)
    shields: set[int] = field(default_factory=set)  # the Suit's protection tokens
    interrogated: set[int] = field(default_factory=set)  # NOIR-Q16 marks
    deck: list[int] = field(default_factory=list)  # top first
    hand: list[int] = field(default_factory=list)  # the Profiler's cards (NOIR-36)
    arrests: int = 0
    points: int = 0
    seed: int = 0  # chance as data: picks the timeout's threat (NOIR-Q08)
    turn: int = 0  # index into ``order``
    turn_seq: int = 0
    step: str = ""  # act | threats | window | "" (between turns / over)
    token_used: bool = False  # the Suit's once-a-turn token step (NOIR-33)
    turn_shift: ShiftMove | None = None  # (line, index, by) shifted this turn
    prev_shift: ShiftMove | None = None  # the previous turn's shift (NOIR-38)
    queue: list[tuple[int, str]] = field(default_factory=list)  # kills still to resolve
    after: str = ""  # what follows the queue: 'end' | 'psycho'
    window: Window | None = None
    timer: Timer | None = None
    timer_seq: int = 0
    paused: tuple[str | None, int | None] | None = None  # (frozen timer kind, remaining s)
    last_action: tuple[str | int, ...] = ()  # (kind, suspects...) for the board's outline
    outcome: str | None = None  # agents | mafia | draw
    commands: int = 0

    #: the registered game's name (``engine.core.game.find_game``), as every game's state has it
    ruleset: ClassVar[str] = "noir"
    #: NOIR has no host (the organiser plays); the shared adapter's host questions get these
    host: ClassVar[None] = None
    host_name: ClassVar[str] = ""
    host_active: ClassVar[bool] = True

    # --- reading -----------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        """The game has ended or was cancelled (the core refuses further commands)."""
        return self.phase in ("ended", "cancelled")

    @property
    def table(self) -> Table:
        return TABLES[len(self.order)]

    @property
    def rows(self) -> int:
        return len(self.grid)

    @property
    def cols(self) -> int:
        return len(self.grid[0]) if self.grid else 0

    @property
    def current(self) -> int | None:
        """The user id whose turn it is (None outside play)."""
        return self.order[self.turn] if self.phase == "play" and self.order else None

    def turn_player(self) -> Player:
        """The player whose turn it is. Raises ``LookupError`` outside play."""
        uid = self.current
        if uid is None:
            raise LookupError("no turn outside play")
        return self.players[uid]

    def by_role(self, role: Role) -> Player | None:
        for p in self.players.values():
            if p.role == role:
                return p
        return None

    def owner(self, suspect: int) -> Player | None:
        """The player whose identity ``suspect`` is, if any."""
        for p in self.players.values():
            if p.identity == suspect:
                return p
        return None

    def alive(self, suspect: int) -> bool:
        return suspect not in self.dead

    def killable(self, suspect: int) -> bool:
        """NOIR-14, Q27: living and not arrested."""
        return suspect not in self.dead and suspect not in self.arrested

    def team_of(self, team: Team) -> list[Player]:
        return [self.players[u] for u in self.order if self.players[u].team == team]

    # --- copying -----------------------------------------------------------------------------
    def clone(self) -> NoirState:
        w = self.window
        return NoirState(
            organiser=self.organiser, settings=_deep(self.settings), timings=dict(self.timings),
            options=dict(self.options), phase=self.phase,
            players={u: Player(p.user_id, p.name, p.role, p.identity, p.misses, p.auto_pass,
                               p.pauses_used) for u, p in self.players.items()},
            order=list(self.order), grid=[list(r) for r in self.grid], size=self.size,
            dead=set(self.dead), arrested=set(self.arrested), removed=set(self.removed),
            bombs=set(self.bombs), threats=set(self.threats), shields=set(self.shields),
            interrogated=set(self.interrogated), deck=list(self.deck), hand=list(self.hand),
            arrests=self.arrests, points=self.points, seed=self.seed, turn=self.turn,
            turn_seq=self.turn_seq, step=self.step, token_used=self.token_used,
            turn_shift=self.turn_shift, prev_shift=self.prev_shift, queue=list(self.queue),
            after=self.after,
            window=Window(w.suspect, w.cause, w.suit_can, w.answer) if w else None,
            timer=Timer(self.timer.seq, self.timer.seconds, self.timer.kind) if self.timer
            else None,
            timer_seq=self.timer_seq, paused=self.paused, last_action=self.last_action,
            outcome=self.outcome, commands=self.commands,
        )


def _deep(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _deep(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_deep(v) for v in value]
    return value
