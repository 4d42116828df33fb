"""Protocols and replays of finished games, derived from the stored log alone (pure, no I/O).

Theory of operation
-------------------
A game's log is a list of :class:`Entry` (one stored command and the events it produced, as the
JSON-safe dicts of :mod:`engine.serialize`).  Everything here reads only that, so any preset whose
engine emits the shared events (``GameStarted``, ``RoleAssigned``, ``PhaseStarted``,
``NominationAccepted``, ``VoteResult``, ``PlayerEliminated``, ``NightResult``, ``GameEnded``...)
gets protocols, replays and statistics without new code; an event type this module does not know
is skipped (it stays in the JSON export).

1. **Visibility** -- :func:`visible_events` keeps the events one user received *at the time*:
   ``public`` ones, his ``private`` ones, his team's chat while he was alive and on that team,
   and the host's events while he hosted.  The full view keeps every event.
2. **Replay** -- :func:`build_replay` walks (possibly filtered) events and groups them into
   :class:`Chapter` s: the seating, each night (ready gate, night moves, the morning and its last
   word), each day's speeches, each vote round with its defences, the vote on eliminating a tied
   group, and the result.  A chapter holds *facts* (small frozen dataclasses below) in log order.
   Because a viewer's replay is built from his filtered events only, it cannot show what he
   did not see: "what I knew" is the same replay with less input.
3. **Protocol** -- :func:`build_protocol` folds a full replay into the game's record: seating and
   roles, each day (nominations, vote rounds with voters and stage, eliminations, last words),
   each night (mafia picks, checks, protections, the announced result), fouls, best moves, result.

A judge's action taken back (``JudgeActionUndone``, CLUB-X16) leaves the replay with its facts
(a fourth foul: the foul and the removal), so the protocol, its card and the score sheet agree.

Modules: :mod:`.facts` (the facts, :class:`Chapter`, :class:`Replay`), :mod:`.visibility` (step
1), :mod:`.replay` (step 2) and this one (step 3); everything is re-exported here, so
``protocol.X`` names it all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TypeVar

from engine.mafia.roles import Role
from engine.scoring.sheet import LEFT_BY_CAUSE

from .facts import *  # noqa: F403 - re-exported: callers use ``protocol.Vote`` etc.
from .facts import (
    BestMove,
    Cancelled,
    Eliminated,
    Entry,
    Fact,
    Foul,
    PauseFact,
    Presence,
    Relay,
    Replay,
    Result,
    RoleFact,
    Turn,
)
from .replay import (  # noqa: F401 - re-exported
    CHAPTER_OF_PHASE,
    TURN_PHASES,
    all_events,
    build_replay,
    entries_from,
    participants,
    visible_events,
)

#: the foul that removes a player (CLUB-38); his disqualification then reads 'fourth_foul'
FOURTH_FOUL = 4


def team_of(role: str | None) -> str | None:
    """The team of a role value known to the engine (None for an unknown one)."""
    try:
        return Role(role).team.value if role is not None else None
    except ValueError:
        return None


_F = TypeVar("_F")  # a fact's class (:meth:`Round.of`)


# --- the protocol ------------------------------------------------------------------------------
@dataclass
class PlayerLine:
    user_id: int
    seat: int
    name: str
    role: str | None
    team: str | None
    alive: bool = True
    out: tuple[str, int, str] | None = None  # ("day" | "night", number, cause)
    fouls: int = 0
    #: how he left, in the score sheet's words (SCORE-X06): None (at the table at the end) |
    #: 'killed' | 'voted_out' | 'disqualified' | 'fourth_foul' | another preset's cause
    left: str | None = None


@dataclass
class Round:
    """One day or night of the protocol."""

    kind: str  # "day" | "night"
    number: int
    facts: list[Fact] = field(default_factory=list)
    last_words: list[int] = field(default_factory=list)

    def of(self, cls: type[_F]) -> list[_F]:
        return [f for f in self.facts if isinstance(f, cls)]


@dataclass
class Protocol:
    ruleset: str
    players: list[PlayerLine]
    rounds: list[Round]
    host: int | None
    host_name: str
    last_words: list[int]
    fouls: list[Foul]
    best_moves: list[BestMove]
    result: Result | None
    cancelled: Cancelled | None = None

    def player(self, user_id: int) -> PlayerLine | None:
        return next((p for p in self.players if p.user_id == user_id), None)

    def won(self, p: PlayerLine) -> bool:
        """Whether ``p`` won: his team is the winner -- except in the forum, where a player
        the host removed is no winner though his side won (FORUM-X24)."""
        winner = self.result.winner if self.result else None
        if winner is None or p.team != winner:
            return False
        return not (self.ruleset == "forum" and p.left == "disqualified")


def build_protocol(entries: Sequence[Entry] | Replay) -> Protocol:
    """The game's protocol from its full log (or from a full :class:`Replay`)."""
    rp = entries if isinstance(entries, Replay) else build_replay(entries)
    roles: dict[int, tuple[str | None, str | None]] = {}
    rounds: list[Round] = []
    last_words: list[int] = []
    fouls: list[Foul] = []
    best: list[BestMove] = []
    result = cancelled = None
    out: dict[int, tuple[str, int, str]] = {}
    fourth: set[int] = set()  # players whose last foul was their fourth (CLUB-38)
    for ch in rp.chapters:
        if ch.kind == "setup":
            for f in ch.facts:
                if isinstance(f, RoleFact):
                    roles[f.user_id] = (f.role, f.team)
            continue
        if ch.kind == "end":
            for f in ch.facts:
                if isinstance(f, Result):
                    result = f
                    for _, uid, revealed in f.roles:
                        roles.setdefault(uid, (revealed, None))
                elif isinstance(f, Cancelled):
                    cancelled = f
            continue
        kind, number = ("night", ch.night) if ch.kind == "night" else ("day", ch.day)
        if not rounds or (rounds[-1].kind, rounds[-1].number) != (kind, number):
            rounds.append(Round(kind, number))
        rnd = rounds[-1]
        for f in ch.facts:
            if isinstance(f, Turn):
                if f.phase == "last_word":
                    rnd.last_words.append(f.user_id)
                    last_words.append(f.user_id)
                continue
            if isinstance(f, (Presence, PauseFact, Relay)):
                continue
            if isinstance(f, Eliminated):
                out.setdefault(f.user_id, (kind, number, f.cause))
            elif isinstance(f, Foul):
                fouls.append(f)
                if f.kind == "foul" and f.count is not None and f.count >= FOURTH_FOUL:
                    fourth.add(f.user_id)
                elif f.kind == "cancelled":
                    fourth.discard(f.user_id)
            elif isinstance(f, BestMove):
                best.append(f)
            rnd.facts.append(f)
    fouls_of: dict[int, int] = {}
    for f in fouls:
        if f.kind in ("foul", "cancelled"):
            step = 1 if f.kind == "foul" else -1
            fouls_of[f.user_id] = f.count if f.count is not None \
                else max(0, fouls_of.get(f.user_id, 0) + step)
    def scored(f: _F) -> _F:  # a best move's hits, now that the roles are known
        if not isinstance(f, BestMove) or f.hits is not None:
            return f
        return replace(f, hits=sum(1 for t in f.targets
                                   if (roles.get(t, (None, None))[1] or team_of(roles.get(t, (None,))[0]))
                                   == "mafia"))

    best = [scored(f) for f in best]
    for rnd in rounds:
        rnd.facts = [scored(f) for f in rnd.facts]
    players = []
    for uid, (seat, name) in sorted(rp.players.items(), key=lambda kv: kv[1][0]):
        known = roles.get(uid)
        p_role = known[0] if known else None
        p_team = (known[1] if known else None) or team_of(p_role)
        left: str | None = None
        if uid in out:
            left = LEFT_BY_CAUSE.get(out[uid][2], out[uid][2])
            if left == "disqualified" and uid in fourth:
                left = "fourth_foul"
        players.append(PlayerLine(uid, seat, name, p_role, p_team, alive=uid not in out,
                                  out=out.get(uid), fouls=fouls_of.get(uid, 0), left=left))
    return Protocol(ruleset=rp.ruleset, players=players, rounds=rounds, host=rp.host,
                    host_name=rp.host_name, last_words=last_words, fouls=fouls, best_moves=best,
                    result=result, cancelled=cancelled)
