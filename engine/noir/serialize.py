"""Plain JSON dicts for NOIR commands, events and state (format version 1), in the style of
``engine/serialize.py``: ``to_dict(obj) -> {"type": ClassName, **fields}`` (enums as values,
tuples as lists, audiences as ``{"kind": ...}``); ``command_from_dict`` / ``event_from_dict``
invert it with NOIR's own type tables and raise ValueError on an unknown type.
``state_to_dict`` / ``state_from_dict`` round-trip a :class:`NoirState` exactly.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from enum import Enum
from functools import lru_cache

from engine.core.audience import PUBLIC, Private

from .commands import COMMAND_TYPES
from .events import EVENT_TYPES
from .rules import Role
from .state import NoirState, Player, Timer, Window

FORMAT_VERSION = 1


def _plain(value):
    if value is None or type(value) in (int, str, bool, float):
        return value
    if isinstance(value, Enum):
        return value.value
    if dataclasses.is_dataclass(value):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(_plain(v) for v in value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def to_dict(obj) -> dict:
    """A command or an event as a JSON-safe dict."""
    data = _plain(obj)
    data["type"] = type(obj).__name__
    return data


def _audience(data: dict):
    if data.get("kind") == "public":
        return PUBLIC
    if data.get("kind") == "private":
        return Private(int(data["user_id"]))
    raise ValueError(f"bad audience {data!r}")


def _convert(value, hint):
    if value is None:
        return None
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if all(isinstance(a, type) and a.__module__ == "engine.core.audience" for a in args):
            return _audience(value)
        return _convert(value, args[0]) if len(args) == 1 else value
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_convert(v, args[0]) for v in value)
        return tuple(_convert(v, a) for v, a in zip(value, args))
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint(value)
    return value


@lru_cache(maxsize=None)
def _hints(cls) -> dict:
    return typing.get_type_hints(cls)


def _build(cls, data: dict):
    hints = _hints(cls)
    return cls(**{f.name: _convert(data[f.name], hints[f.name])
                  for f in dataclasses.fields(cls) if f.name in data})


def command_from_dict(data: dict):
    cls = COMMAND_TYPES.get(data.get("type"))
    if cls is None:
        raise ValueError(f"unknown NOIR command type {data.get('type')!r}")
    return _build(cls, data)


def event_from_dict(data: dict):
    cls = EVENT_TYPES.get(data.get("type"))
    if cls is None:
        raise ValueError(f"unknown NOIR event type {data.get('type')!r}")
    return _build(cls, data)


# --- state -------------------------------------------------------------------------------------
_SETS = ("dead", "arrested", "removed", "bombs", "threats", "shields", "interrogated")
_TUPLES = ("turn_shift", "prev_shift", "paused", "last_action")


def state_to_dict(st: NoirState) -> dict:
    """The whole state as JSON-safe data (``players`` as a list in join order)."""
    data = {f.name: _plain(getattr(st, f.name)) for f in dataclasses.fields(st)}
    data["players"] = [_plain(p) for p in st.players.values()]
    data["queue"] = [list(q) for q in st.queue]
    data["version"] = FORMAT_VERSION
    return data


def state_from_dict(data: dict) -> NoirState:
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
