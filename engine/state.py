"""Game state: plain mutable dataclasses, only ever changed on a private copy inside :func:`apply`."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from .roles import Role, Team


class Phase(str, Enum):
    LOBBY = "lobby"
    READY = "ready"  # readiness gate before the mafia acts (PARTY-37)
    NIGHT = "night"
    SPEECH = "speech"
    DEFENCE = "defence"
    VOTING = "voting"
    EXCLUDE_VOTE = "exclude_vote"
    LAST_WORD = "last_word"
    ENDED = "ended"
    CANCELLED = "cancelled"


GAME_OVER_PHASES = (Phase.ENDED, Phase.CANCELLED)


@dataclass
class Player:
    user_id: int
    name: str
    seat: int = 0
    role: Role | None = None
    alive: bool = True
    active: bool = True
    misses: int = 0  # consecutive missed required actions (PARTY-Q20 c)
    pauses_used: int = 0

    @property
    def team(self) -> Team | None:
        return self.role.team if self.role else None


@dataclass
class Timer:
    """A deadline the shell must arm: fire ``PhaseTimeout(seq)`` after ``seconds``."""

    seq: int
    seconds: int
    kind: str


@dataclass
class PauseState:
    by: int | None
    reason: str
    frozen_kind: str | None  # kind of the timer that was running
    frozen_remaining: int | None


@dataclass
class VoteRound:
    candidates: list[int]
    index: int = 0
    votes: dict[int, int] = field(default_factory=dict)  # voter -> candidate
    previous_tie: tuple[int, ...] | None = None

    @property
    def current(self) -> int:
        return self.candidates[self.index]


@dataclass
class GameState:
    ruleset: str
    organiser: int | None
    settings: dict
    timings: dict[str, int]
    options: dict
    players: dict[int, Player] = field(default_factory=dict)
    host: int | None = None
    host_name: str = ""
    host_active: bool = True
    phase: Phase = Phase.LOBBY
    phase_seq: int = 0
    timer_seq: int = 0
    timer: Timer | None = None
    pause: PauseState | None = None
    day: int = 0
    night: int = 0
    speaker: int | None = None
    queue: list[int] = field(default_factory=list)  # speakers still to come in this phase
    nominated_in_speech: bool = False
    nominations: list[int] = field(default_factory=list)  # candidates in nomination order
    nominated_by: dict[int, int] = field(default_factory=dict)  # target -> nominator
    vote: VoteRound | None = None
    exclude_candidates: list[int] = field(default_factory=list)
    exclude_votes: dict[int, bool] = field(default_factory=dict)
    after_last_words: str = "day"  # 'day' | 'night'
    ready: set[int] = field(default_factory=set)
    ready_purpose: str = ""
    continue_allowed: bool = False
    night_actions: dict[int, tuple[str, int | None]] = field(default_factory=dict)
    mafia_picks: dict[int, int] = field(default_factory=dict)
    last_opener_seat: int = 0
    winner: Team | None = None
    commands: int = 0  # number of commands applied (== log length)

    # --- queries ---------------------------------------------------------------------------
    def seated(self) -> list[Player]:
        return sorted((p for p in self.players.values() if p.seat), key=lambda p: p.seat)

    def alive(self) -> list[Player]:
        return [p for p in self.seated() if p.alive]

    def alive_active(self) -> list[Player]:
        return [p for p in self.seated() if p.alive and p.active]

    def is_alive(self, user_id: int) -> bool:
        p = self.players.get(user_id)
        return bool(p and p.alive and p.seat)

    def by_seat(self, seat: int) -> Player:
        for p in self.players.values():
            if p.seat == seat:
                return p
        raise KeyError(seat)

    def mafia_alive(self) -> list[Player]:
        return [p for p in self.alive() if p.team is Team.MAFIA]

    @property
    def over(self) -> bool:
        return self.phase in (Phase.ENDED, Phase.CANCELLED)
