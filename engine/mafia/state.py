"""The mafia presets' game state: plain mutable dataclasses, only ever changed on a private copy
inside :func:`engine.apply`.  A preset keeps its own fields in an extension object on the state
that has a ``clone()`` (``GameState.forum``: ``engine.forum.state.ForumState``; ``club``:
``engine.club.state.ClubState``; ``online`` and ``ballot``: ``engine.online.state``); the shared
``GameState`` and ``Player`` name no preset's fields."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from ..core.serialize import snapshot
from ..core.state import PauseState, Timer
from ..core.state import copy_plain as _copy_plain
from ..core.state import shallow as _shallow
from .roles import Role, Team


class Phase(str, Enum):  # noqa: UP042  StrEnum would change str() and f"{member}" from "Cls.NAME" to the value
    """The shared mafia phases.  A preset's own phases are a ``str`` enum of its package
    (``engine.online.phases.OnlinePhase``, ``engine.forum.phases.ForumPhase``); ``GameState.phase``
    holds a member of either, and its ``value`` is what the log stores (``PhaseStarted.phase``)."""

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
    afk: bool = False  # ONLINE-48: OFFLINE long enough to be AFK (implies not active)
    #: the team the game moved him to, overriding his role's (None: his role's); a preset sets
    #: it (FORUM-42: a Werewolf who became the Mafia)
    side: Team | None = None

    @property
    def dealt_role(self) -> Role:
        """His role, once the deal has given him one (every seated player of a started game).
        Raises ``LookupError`` before that."""
        if self.role is None:
            raise LookupError(f"player {self.user_id} has no role yet")
        return self.role

    @property
    def team(self) -> Team | None:
        if self.side is not None:
            return self.side
        return self.role.team if self.role else None


@dataclass
class VoteRound:
    candidates: list[int]
    index: int = 0
    votes: dict[int, int] = field(default_factory=dict)  # voter -> candidate
    previous_tie: tuple[int, ...] | None = None

    @property
    def current(self) -> int:
        return self.candidates[self.index]

    def clone(self) -> VoteRound:
        return VoteRound(candidates=list(self.candidates), index=self.index,
                         votes=dict(self.votes), previous_tie=self.previous_tie)


@dataclass
class GameState:
    ruleset: str
    organiser: int | None
    settings: dict[str, Any]
    timings: dict[str, int]
    options: dict[str, Any]
    players: dict[int, Player] = field(default_factory=dict)
    host: int | None = None
    host_name: str = ""
    host_active: bool = True
    phase: Enum = Phase.LOBBY  # a Phase or a preset's own phase enum member
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
    ballot: Any = None  # ONLINE: the open day vote, revote or lift vote (engine/online/state.py)
    online: Any = None  # the online preset's own state (engine/online/state.py), or None
    club: Any = None  # the club preset's own state (engine/club/state.py), or None
    forum: Any = None  # the forum preset's own state (engine/forum/state.py), or None
    winner: Team | None = None
    commands: int = 0  # number of commands applied (== log length)

    def clone(self) -> GameState:
        """An independent deep copy, much faster than ``copy.deepcopy`` (which ``apply`` used to
        spend ~85% of its time in).  Every mutable field is copied; ``tests/engine/test_purity.py``
        checks that no mutable object is shared with the original, so a new mutable field that is
        not copied here fails that test."""
        c = _shallow(self)
        c.settings = _copy_plain(self.settings)
        c.timings = dict(self.timings)
        c.options = _copy_plain(self.options)
        c.players = {uid: _shallow(p) for uid, p in self.players.items()}
        c.timer = _shallow(self.timer) if self.timer is not None else None
        c.pause = _shallow(self.pause) if self.pause is not None else None
        c.queue = list(self.queue)
        c.nominations = list(self.nominations)
        c.nominated_by = dict(self.nominated_by)
        c.vote = self.vote.clone() if self.vote is not None else None
        c.exclude_candidates = list(self.exclude_candidates)
        c.exclude_votes = dict(self.exclude_votes)
        c.ready = set(self.ready)
        c.night_actions = dict(self.night_actions)  # values are immutable tuples
        c.mafia_picks = dict(self.mafia_picks)
        c.ballot = self.ballot.clone() if self.ballot is not None else None
        c.online = self.online.clone() if self.online is not None else None
        c.club = self.club.clone() if self.club is not None else None
        c.forum = self.forum.clone() if self.forum is not None else None
        return c

    # --- queries ---------------------------------------------------------------------------
    def vote_round(self) -> VoteRound:
        """The open vote round (``vote``), in a phase that has one. Raises ``LookupError`` when
        none is open."""
        if self.vote is None:
            raise LookupError("no vote round is open")
        return self.vote

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

    def to_dict(self) -> dict[str, Any]:
        """The whole state as plain JSON data (format 1), for comparing two states: the
        recorded logs in ``tests/engine/fixtures/logs/`` keep the final state of each game in
        this form.  Keys are the field names; ``players`` is a list in seat order (the lobby's
        unseated users last, by user id)."""
        data: dict[str, Any] = snapshot(self)
        players = sorted(self.players.values(), key=lambda p: (p.seat == 0, p.seat, p.user_id))
        data["players"] = [snapshot(p) for p in players]
        return data


def state_to_dict(state: GameState) -> dict[str, Any]:
    """:meth:`GameState.to_dict` of ``state``."""
    return state.to_dict()

