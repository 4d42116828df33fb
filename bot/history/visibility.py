"""Reading a game's log and who saw what (visibility; pure, no I/O).

See :mod:`bot.history.protocol` for the theory of operation (step 1).  A disqualification the
judge took back (``JudgeActionUndone``, CLUB-X16) puts the player back among the living, so he
sees his team's chat again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .facts import Entry, Event


# --- reading the log ---------------------------------------------------------------------------
def entries_from(rows: Iterable[Any]) -> list[Entry]:
    """Entries from ``(seq, command, events)`` rows (or :class:`Entry` objects), in seq order."""
    out = [r if isinstance(r, Entry) else Entry(int(r[0]), r[1], list(r[2])) for r in rows]
    out.sort(key=lambda e: e.seq)
    return out


def all_events(entries: Sequence[Entry]) -> list[tuple[int, Event]]:
    """Every event as ``(seq, event)``, in log order."""
    return [(en.seq, e) for en in entries for e in en.events]


#: ``JudgeActionUndone.action`` values that took back a removal from the game (CLUB-X16)
REMOVALS = ("disqualification", "fourth_foul")


def _audience(e: Event) -> dict[str, Any]:
    return e.get("audience") or {"kind": "public"}


class _Tracker:
    """Who was seated, alive, on which team, and who hosted, event by event."""

    def __init__(self) -> None:
        self.team: dict[int, str | None] = {}
        self.alive: set[int] = set()
        self.host: int | None = None

    def observe(self, e: Event) -> None:
        t = e.get("type")
        if t == "GameStarted":
            self.alive = {int(uid) for _, uid in e.get("seating", ())}
        elif t == "RoleAssigned":
            self.team[int(e["user_id"])] = e.get("team")
        elif t == "PlayerEliminated":
            self.alive.discard(int(e["user_id"]))
        elif t == "JudgeActionUndone" and e.get("action") in REMOVALS:
            self.alive.add(int(e["player"]))
        elif t == "HostAssigned":
            self.host = e.get("user_id")
        elif t == "HostModeEnded":
            self.host = None

    def sees(self, viewer: int | None, e: Event) -> bool:
        a = _audience(e)
        kind = a.get("kind")
        if kind == "public":
            return True
        if viewer is None:
            return False
        if kind == "private":
            return a.get("user_id") == viewer
        if kind == "team":
            return viewer in self.alive and self.team.get(viewer) == a.get("team")
        if kind == "host":
            return viewer == self.host
        return False


def visible_events(entries: Sequence[Entry], viewer: int | None) -> list[tuple[int, Event]]:
    """The events ``viewer`` received when they happened (``None``: an onlooker, public only)."""
    tracker = _Tracker()
    out = []
    for seq, e in all_events(entries):
        if tracker.sees(viewer, e):
            out.append((seq, e))
        tracker.observe(e)
    return out


def participants(entries: Sequence[Entry]) -> set[int]:
    """Users who were seated in the game or hosted it at some point."""
    out: set[int] = set()
    for _, e in all_events(entries):
        if e.get("type") == "GameStarted":
            out |= {int(uid) for _, uid in e.get("seating", ())}
        elif e.get("type") == "HostAssigned" and e.get("user_id") is not None:
            out.add(int(e["user_id"]))
    return out


__all__ = ["all_events", "entries_from", "participants", "visible_events"]
