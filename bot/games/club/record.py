"""The judge's record of a club game, per seat and for the day (issue 21 part 6; CLUB-36..39,
CLUB-Q06, CLUB-X16): what the web consoles of sport clubs show, read from the state and the
game's stored events (dicts, as the log holds them) -- the ``/panel`` console's text and the
Mini App's table are both drawn from it.

Pure: :func:`record` takes the state and the events a viewer may see (all of them for the
judge; the public ones for the others: nothing here is private but what those events carry --
the roles come from the caller, the checks from the events).  The state is the truth for who is
alive and for the fouls (an undone disqualification left its events in the log: the seat is
alive again, so it shows no way out).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import GameState
from engine.club.state import fouls_of

#: ``PlayerEliminated.cause`` -> how the seat left
LEFT = {"night": "killed", "vote": "voted", "sole_nominee": "voted", "exclude_all": "voted",
        "disqualified": "disqualified", "fourth_foul": "disqualified"}
#: CLUB-37, CLUB-38: what the third and the fourth foul mean
SILENCE_AT, REMOVED_AT = 3, 4


@dataclass
class Seat:
    """One seat: ``seat`` number, ``user_id``, ``name`` (raw), ``alive``, ``fouls`` (0..4),
    ``nominated_by``: the seat that nominated him today (None: not nominated),
    ``votes``: the votes he received in today's last vote round he stood in (None: none),
    ``left``: 'killed' | 'voted' | 'disqualified' | 'removed' or None, ``when``: ('night' |
    'day', n) of his leaving or None."""

    seat: int
    user_id: int
    name: str
    alive: bool
    fouls: int
    nominated_by: int | None = None
    votes: int | None = None
    left: str | None = None
    when: tuple[str, int] | None = None


@dataclass
class Record:
    """``seats`` in seat order; ``checks``: [{night, kind ('mafia': the Sheriff's | 'sheriff':
    the Don's), checker, target (seats), result}] as the events tell them; ``day``: the day the
    protocol is of (0: none yet); ``protocol``: today's entries in order -- ('nom', by, target),
    ('vote', [(candidate, [voters])]), ('exclude', yes, needed, passed), ('out', seat, left),
    ('none', reason) (seats)."""

    seats: list[Seat]
    checks: list[dict[str, Any]] = field(default_factory=list)
    day: int = 0
    protocol: list[tuple[Any, ...]] = field(default_factory=list)


def _seat(st: GameState, uid: Any) -> int | None:
    p = st.players.get(int(uid)) if uid is not None else None
    return p.seat if p is not None and p.seat else None


def record(st: GameState, events: Iterable[Mapping[str, Any]]) -> Record:
    """The record of ``st`` from ``events`` (dicts in log order; see the module's note)."""
    day = night = 0
    phase = ""
    left: dict[int, tuple[str, tuple[str, int]]] = {}
    checks: list[dict[str, Any]] = []
    proto_day = 0
    protocol: list[tuple[Any, ...]] = []
    undone: dict[int, tuple[int, tuple[Any, ...]]] = {}  # target -> (index, entry) taken back
    votes: dict[int, int] = {}
    for e in events:
        t = e.get("type")
        if t == "PhaseStarted":
            day, night, phase = int(e.get("day") or 0), int(e.get("night") or 0), str(e["phase"])
            if phase != "night" and day > proto_day:
                proto_day, protocol, votes, undone = day, [], {}, {}
        elif t == "NominationAccepted":
            protocol.append(("nom", _seat(st, e["by"]), _seat(st, e["target"])))
        elif t == "NominationUndone":
            for i, entry in enumerate(protocol):
                if entry[0] == "nom" and entry[2] == _seat(st, e["target"]):
                    undone[int(e["target"])] = (i, protocol.pop(i))
                    break
        elif t == "VoteResult":
            tally = [(_seat(st, c), sorted(s for s in (_seat(st, v) for v in voters) if s))
                     for c, voters in e["tally"]]
            protocol.append(("vote", tally))
            for c, voters in e["tally"]:
                votes[int(c)] = len(voters)
        elif t == "ExcludeVoteResult":
            protocol.append(("exclude", int(e["yes"]), int(e["needed"]), bool(e["passed"])))
        elif t == "DayWithoutElimination":
            protocol.append(("none", str(e.get("reason", ""))))
        elif t == "PlayerEliminated":
            how = LEFT.get(str(e.get("cause", "")), "removed")
            when = ("night", night) if how == "killed" or phase == "night" else ("day", day)
            left[int(e["user_id"])] = (how, when)
            if phase != "night" and how != "killed":
                protocol.append(("out", _seat(st, e["user_id"]), how))
        elif t == "JudgeActionUndone":
            player = int(e["player"])
            if e.get("action") == "nomination" and player in undone:
                i, entry = undone.pop(player)
                protocol.insert(min(i, len(protocol)), entry)
            elif e.get("action") in ("disqualification", "fourth_foul"):
                left.pop(player, None)
                seat = _seat(st, player)
                protocol = [x for x in protocol if not (x[0] == "out" and x[1] == seat)]
        elif t in ("CheckResult", "DonCheckResult"):
            sheriff = t == "DonCheckResult"
            checks.append({"night": night, "kind": "sheriff" if sheriff else "mafia",
                           "checker": _seat(st, e["checker"]), "target": _seat(st, e["target"]),
                           "result": bool(e["is_sheriff" if sheriff else "is_mafia"])})
    today = proto_day == st.day
    seats = []
    for p in st.seated():
        s = Seat(seat=p.seat, user_id=p.user_id, name=p.name, alive=p.alive,
                 fouls=fouls_of(st, p.user_id))
        if today and p.user_id in st.nominated_by and p.user_id in st.nominations:
            s.nominated_by = _seat(st, st.nominated_by[p.user_id])
        if today and p.user_id in votes:
            s.votes = votes[p.user_id]
        if not p.alive:
            gone = left.get(p.user_id)  # None: before the log this record was read from
            s.left, s.when = (gone[0], gone[1]) if gone is not None else ("removed", None)
        seats.append(s)
    return Record(seats=seats, checks=checks, day=proto_day if today else 0,
                  protocol=protocol if today else [])


__all__ = ["LEFT", "REMOVED_AT", "SILENCE_AT", "Record", "Seat", "record"]
