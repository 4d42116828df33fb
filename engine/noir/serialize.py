"""Plain JSON dicts for NOIR commands, events and state (format version 1).

Commands and events are encoded by the core's functions (:mod:`engine.core.serialize`:
``{"type": ClassName, **fields}``, enums as values, tuples as lists, sets as sorted lists,
audiences as ``{"kind": ...}``) with NOIR's own type tables, so a NOIR class may share a name
with a mafia one; ``command_from_dict`` / ``event_from_dict`` raise ValueError on an unknown
type.  ``state_to_dict`` / ``state_from_dict`` round-trip a :class:`NoirState` exactly.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from engine.core.serialize import from_dict, to_dict
from engine.core.serialize import plain as _plain

from .commands import COMMAND_TYPES, Command
from .events import EVENT_TYPES, Event
from .rules import Role
from .state import NoirState, Player, Timer, Window

__all__ = ["FORMAT_VERSION", "command_from_dict", "event_from_dict", "state_from_dict",
           "state_to_dict", "to_dict"]

FORMAT_VERSION = 1


def command_from_dict(data: Mapping[str, Any]) -> Command:
    """A NOIR command from its dict. Raises ValueError on a type NOIR does not have."""
    return from_dict(data, COMMAND_TYPES, "NOIR command")


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """A NOIR event from its dict. Raises ValueError on a type NOIR does not have."""
    return from_dict(data, EVENT_TYPES, "NOIR event")


# --- state -------------------------------------------------------------------------------------
_SETS = ("dead", "arrested", "removed", "bombs", "threats", "shields", "interrogated")
_TUPLES = ("turn_shift", "prev_shift", "paused", "last_action")


def state_to_dict(st: NoirState) -> dict[str, Any]:
    """The whole state as JSON-safe data (``players`` as a list in join order)."""
    data: dict[str, Any] = {f.name: _plain(getattr(st, f.name)) for f in dataclasses.fields(st)}
    data["players"] = [_plain(p) for p in st.players.values()]
    data["queue"] = [list(q) for q in st.queue]
    data["version"] = FORMAT_VERSION
    return data


def state_from_dict(data: dict[str, Any]) -> NoirState:
    """Inverse of :func:`state_to_dict`; ValueError on another format version."""
    if data.get("version") != FORMAT_VERSION:
        raise ValueError(f"unknown NOIR state version {data.get('version')!r}")
    d = {k: v for k, v in data.items() if k != "version"}
    d["players"] = {p["user_id"]: Player(
        user_id=p["user_id"], name=p["name"], role=Role(p["role"]) if p["role"] else None,
        identity=p["identity"], misses=p["misses"], auto_pass=p["auto_pass"],
        pauses_used=p["pauses_used"]) for p in data["players"]}
    for name in _SETS:
        d[name] = set(data[name])
    for name in _TUPLES:
        d[name] = tuple(data[name]) if data[name] is not None else None
    d["last_action"] = d["last_action"] or ()
    d["queue"] = [tuple(q) for q in data["queue"]]
    d["grid"] = [list(r) for r in data["grid"]]
    d["timer"] = Timer(**data["timer"]) if data["timer"] else None
    d["window"] = Window(**data["window"]) if data["window"] else None
    return NoirState(**d)
