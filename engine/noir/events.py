"""NOIR events: frozen dataclasses named by what happened, each with one audience.

Roles are public (NOIR-05): public events name players and roles freely and name the suspects
an action touched (actions are public, NOIR-Q22).  Only :class:`IdentityCard`, :class:`HandDealt`
and :class:`CancelOffered` go to one player (``Private``); no public event before
:class:`GameEnded` carries an identity (tested by the playouts).  Seconds are seconds.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.audience import PUBLIC, Private, Public


@dataclass(frozen=True, kw_only=True)
class Event:
    audience: Public | Private = PUBLIC


# --- lobby and setup ---------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class GameCreated(Event):
    organiser: int | None
    timings: tuple[tuple[str, int], ...]


@dataclass(frozen=True, kw_only=True)
class PlayerJoined(Event):
    user_id: int
    name: str
    count: int


@dataclass(frozen=True, kw_only=True)
class PlayerLeft(Event):
    user_id: int
    count: int


@dataclass(frozen=True, kw_only=True)
class GameStarted(Event):
    """``order``: (user_id, role) in turn order; ``layout`` the suspects in reading order."""

    order: tuple[tuple[int, str], ...]
    rows: int
    cols: int
    layout: tuple[int, ...]
    arrests_needed: int
    points_needed: int


@dataclass(frozen=True, kw_only=True)
class IdentityCard(Event):
    """Private to ``audience.user_id``: his role and suspect and his teammates' (user_id, role,
    suspect); sent at the start and again whenever one of them changes (NOIR-05, 15)."""

    role: str
    suspect: int | None
    teammates: tuple[tuple[int, str, int | None], ...]


@dataclass(frozen=True, kw_only=True)
class HandDealt(Event):
    """Private to the Profiler: his cards (NOIR-36, Q17)."""

    cards: tuple[int, ...]


# --- turns and time ----------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class TurnStarted(Event):
    player: int
    role: str
    turn_seq: int


@dataclass(frozen=True, kw_only=True)
class TimerArmed(Event):
    """The shell arms a deadline: ``TurnTimeout(timer_seq)`` after ``seconds``."""

    kind: str
    timer_seq: int
    seconds: int


@dataclass(frozen=True, kw_only=True)
class TurnTimedOut(Event):
    """NOIR-Q21: ``auto`` True when the turn passed without a wait (two timeouts in a row)."""

    player: int
    auto: bool
    auto_pass: bool


@dataclass(frozen=True, kw_only=True)
class PlayerReturned(Event):
    player: int


@dataclass(frozen=True, kw_only=True)
class Paused(Event):
    by: int | None
    remaining: int | None


@dataclass(frozen=True, kw_only=True)
class Resumed(Event):
    by: int | None


# --- actions -----------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class Shifted(Event):
    player: int
    line: str
    index: int
    by: int


@dataclass(frozen=True, kw_only=True)
class Collapsed(Event):
    player: int
    axis: str
    end: str
    removed: tuple[int, ...]
    rows: int
    cols: int


@dataclass(frozen=True, kw_only=True)
class Swapped(Event):
    player: int
    first: int
    second: int


@dataclass(frozen=True, kw_only=True)
class ThreatsPlaced(Event):
    player: int
    targets: tuple[int, ...]
    auto: bool = False


@dataclass(frozen=True, kw_only=True)
class ThreatsSkipped(Event):
    """NOIR-Q08: no cell could take a threat."""

    player: int


@dataclass(frozen=True, kw_only=True)
class BombPlaced(Event):
    player: int
    target: int


@dataclass(frozen=True, kw_only=True)
class Detonated(Event):
    player: int
    bomb: int
    chain: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class Shot(Event):
    player: int
    target: int


@dataclass(frozen=True, kw_only=True)
class KillAttempted(Event):
    player: int
    target: int


@dataclass(frozen=True, kw_only=True)
class TokenMoved(Event):
    player: int
    kind: str
    source: int
    dest: int


@dataclass(frozen=True, kw_only=True)
class ShieldPlaced(Event):
    player: int
    target: int


@dataclass(frozen=True, kw_only=True)
class ShieldRemoved(Event):
    player: int
    target: int


@dataclass(frozen=True, kw_only=True)
class IdentityChanged(Event):
    """Public: the player took a new identity (which one is his team's secret)."""

    player: int
    role: str
    reason: str  # 'chose' | 'arrested' | 'killed'


@dataclass(frozen=True, kw_only=True)
class Accused(Event):
    player: int
    target: int
    hit: bool


@dataclass(frozen=True, kw_only=True)
class AutopsyDone(Event):
    """NOIR-30, Q15: the roles of the mafiosi adjacent to the dead ``target``."""

    player: int
    target: int
    mafiosi: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class Interrogated(Event):
    """NOIR-32, Q16: the roles of every player whose identity is adjacent to ``suspect``."""

    player: int
    suspect: int
    near: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class Profiled(Event):
    """NOIR-36, Q17: the roles of the mafiosi adjacent to ``card``."""

    player: int
    card: int
    mafiosi: tuple[str, ...]


# --- kills, arrests, the Suit's window ---------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class WindowOpened(Event):
    """NOIR-Q11: a protected suspect is attacked; the game waits ``seconds`` whatever happens."""

    suspect: int
    cause: str
    seconds: int
    timer_seq: int


@dataclass(frozen=True, kw_only=True)
class CancelOffered(Event):
    """Private to the Suit when he is in line (NOIR-34)."""

    suspect: int
    seconds: int


@dataclass(frozen=True, kw_only=True)
class KillCancelled(Event):
    suspect: int
    cause: str


@dataclass(frozen=True, kw_only=True)
class SuspectKilled(Event):
    """``cause``: kill | shot | bomb | threat; ``agent_role`` set when he was an agent's
    identity (NOIR-12); ``points`` the mafia's total after it."""

    suspect: int
    cause: str
    agent_role: str | None
    points: int


@dataclass(frozen=True, kw_only=True)
class Arrested(Event):
    """NOIR-13, 16: ``role`` the arrested mafioso (public), ``by`` 'accusation' | 'kill'."""

    role: str
    suspect: int
    by: str
    arrests: int


@dataclass(frozen=True, kw_only=True)
class TokensCleared(Event):
    """NOIR-17: an arrested Bomber's bombs / Psycho's threats leave the board."""

    kind: str
    suspects: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class GameEnded(Event):
    """NOIR-10, 11, Q19: ``outcome`` agents | mafia | draw; ``identities`` (user_id, role,
    suspect) revealed at the end."""

    outcome: str
    arrests: int
    points: int
    identities: tuple[tuple[int, str, int | None], ...]


@dataclass(frozen=True, kw_only=True)
class GameCancelled(Event):
    by: int | None
    reason: str


EVENT_TYPES: dict[str, type[Event]] = {c.__name__: c for c in (
    GameCreated, PlayerJoined, PlayerLeft, GameStarted, IdentityCard, HandDealt, TurnStarted,
    TimerArmed, TurnTimedOut, PlayerReturned, Paused, Resumed, Shifted, Collapsed, Swapped,
    ThreatsPlaced, ThreatsSkipped, BombPlaced, Detonated, Shot, KillAttempted, TokenMoved,
    ShieldPlaced, ShieldRemoved, IdentityChanged, Accused, AutopsyDone, Interrogated, Profiled,
    WindowOpened, CancelOffered, KillCancelled, SuspectKilled, Arrested, TokensCleared, GameEnded,
    GameCancelled,
)}
