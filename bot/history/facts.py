"""The facts a replay is made of, and the replay itself (plain frozen dataclasses).

See :mod:`bot.history.protocol` for how they are built from a game's log.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Event = dict[str, Any]

__all__ = [
    "AfterGame",
    "BestMove",
    "Cancelled",
    "Chapter",
    "Check",
    "DonCheck",
    "Eliminated",
    "Entry",
    "Event",
    "ExcludeVote",
    "Fact",
    "Foul",
    "Misfire",
    "Morning",
    "NightMove",
    "NoElimination",
    "Nomination",
    "NominationUndone",
    "PauseFact",
    "Picks",
    "Presence",
    "Relay",
    "Replay",
    "Result",
    "RoleFact",
    "Seating",
    "Shot",
    "Skipped",
    "TeamMet",
    "Tie",
    "Turn",
    "Vote",
]


@dataclass(frozen=True)
class Entry:
    """One stored command (``seq`` from 0) with the events it produced."""

    seq: int
    command: dict[str, Any]
    events: list[Event]


# --- facts -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Seating:
    seats: tuple[tuple[int, int], ...]  # (seat, user_id)
    mafia_count: int


@dataclass(frozen=True)
class RoleFact:
    user_id: int
    role: str
    team: str | None


@dataclass(frozen=True)
class TeamMet:
    members: tuple[int, ...]
    don: int | None = None


@dataclass(frozen=True)
class Turn:
    phase: str  # speech | defence | last_word | another preset's turn phase
    user_id: int


@dataclass(frozen=True)
class Skipped:
    user_id: int
    reason: str


@dataclass(frozen=True)
class Nomination:
    by: int
    target: int


@dataclass(frozen=True)
class Vote:
    """A vote round's result. ``taps``: for open ballots with preliminary and final taps
    (``VoteTapped``), every voter's last tap as (voter, target or None = pass, final)."""

    stage: str  # "vote" (the day's first round) | "revote"
    round: int
    tally: tuple[tuple[int, tuple[int, ...]], ...]  # (candidate, voters) in ballot order
    leaders: tuple[int, ...]
    taps: tuple[tuple[int, int | None, bool], ...] = ()


@dataclass(frozen=True)
class Tie:
    """A tie: the candidates defend and then ``next`` comes: a "revote" or a "lift" vote."""

    candidates: tuple[int, ...]
    next: str = "revote"


@dataclass(frozen=True)
class ExcludeVote:
    candidates: tuple[int, ...]
    yes_votes: tuple[int, ...]
    no_votes: tuple[int, ...]
    needed: int
    passed: bool


@dataclass(frozen=True)
class NoElimination:
    reason: str
    candidates: tuple[int, ...]


@dataclass(frozen=True)
class Eliminated:
    user_id: int
    cause: str


@dataclass(frozen=True)
class NightMove:
    """A night action other than the mafia's shot and the check (e.g. the Doctor's protection)."""

    user_id: int
    action: str
    target: int | None


@dataclass(frozen=True)
class Picks:
    """The mafia's picks as they stood when the night closed; ``agreed``: the shot, if any."""

    picks: tuple[tuple[int, int | None], ...]
    agreed: int | None


@dataclass(frozen=True)
class Shot:
    """One mafioso's shot, for presets whose mafia shoots blind (no ``MafiaPicks``)."""

    user_id: int
    target: int | None


@dataclass(frozen=True)
class Check:
    checker: int
    target: int
    is_mafia: bool


@dataclass(frozen=True)
class DonCheck:
    checker: int
    target: int
    is_sheriff: bool


@dataclass(frozen=True)
class Relay:
    sender: int
    text: str


@dataclass(frozen=True)
class Misfire:
    count: int  # misses in a row so far


@dataclass(frozen=True)
class Morning:
    killed: int | None
    saved: bool  # as announced


@dataclass(frozen=True)
class Presence:
    user_id: int
    active: bool
    reason: str = ""


@dataclass(frozen=True)
class PauseFact:
    by: int | None
    paused: bool  # False: resumed
    reason: str = ""


@dataclass(frozen=True)
class Foul:
    """A foul, a warning or a cancelled foul (``FoulIssued`` / ``WarningIssued`` /
    ``FoulCancelled``); ``count``: the player's fouls after it, when the event says."""

    user_id: int
    kind: str  # "foul" | "warning" | "cancelled"
    count: int | None
    reason: str


@dataclass(frozen=True)
class NominationUndone:
    target: int
    nominator: int | None


@dataclass(frozen=True)
class BestMove:
    """The first victim's guess of the mafia (``BestMove`` events of presets that have it)."""

    user_id: int
    targets: tuple[int, ...]
    hits: int | None


@dataclass(frozen=True)
class AfterGame:
    """FORUM-56/57: the bonus round (``hits``: (player, right guesses)) or the best player
    (``winners``), both after the win."""

    kind: str  # 'bonus' | 'best_player'
    hits: tuple[tuple[int, int], ...] = ()
    winners: tuple[int, ...] = ()


@dataclass(frozen=True)
class Result:
    winner: str | None
    roles: tuple[tuple[int, int, str], ...]  # (seat, user_id, role)
    days: int


@dataclass(frozen=True)
class Cancelled:
    reason: str


Fact = Any  # one of the dataclasses above


@dataclass
class Chapter:
    """One step of the replay. ``kind``: setup | night | speeches | vote | exclude | end | the
    name of a phase this module does not know. ``round``: vote rounds of the day so far (1 = the
    day's first vote). ``alive``: seated players alive when the chapter began, in seat order."""

    kind: str
    day: int
    night: int
    round: int = 0
    alive: tuple[int, ...] = ()
    facts: list[Fact] = field(default_factory=list)

    def has(self, cls: type | tuple[type, ...]) -> bool:
        return any(isinstance(f, cls) for f in self.facts)


@dataclass
class Replay:
    """``players``: user_id -> (seat, name) for the seated; ``viewer``: whose view (None = full)."""

    ruleset: str
    players: dict[int, tuple[int, str]]
    host: int | None
    host_name: str
    chapters: list[Chapter]
    viewer: int | None = None
    full: bool = True

    def seat(self, user_id: int | None) -> int | None:
        p = self.players.get(user_id) if user_id is not None else None
        return p[0] if p else None

    def name(self, user_id: int | None) -> str:
        if user_id is not None and user_id in self.players:
            return self.players[user_id][1]
        if user_id is not None and user_id == self.host:
            return self.host_name
        return "?"
