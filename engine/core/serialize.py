"""JSON-safe dicts for commands and events (the log's storage format, version 1).

``to_dict(obj)`` -> ``{"type": ClassName, **fields}``; enums become their values, tuples lists,
sets sorted lists, audiences ``{"kind": ...}``.  :func:`from_dict` inverts it with a game's own
type table (``{class name: class}``) and raises ``ValueError`` on a type the table lacks;
``command_from_dict`` / ``event_from_dict`` are it with the mafia presets' tables.  Every game
encodes with these functions (NOIR passes its own tables: ``engine/noir/serialize.py``).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from enum import Enum
from functools import cache
from typing import Any, ClassVar, Protocol, TypeVar

from .audience import HOST, PUBLIC, Audience, HostOnly, Private, Public, TeamChat, team_named
from .commands import COMMAND_TYPES, Command
from .events import EVENT_TYPES, Event

FORMAT_VERSION = 1


class _Dataclass(Protocol):
    """Any dataclass (what ``dataclasses.fields`` takes): every stored command and event."""

    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]


_T = TypeVar("_T", bound=_Dataclass)
#: the audience classes: a field whose hint names only these (and None) holds an audience
_AUDIENCES = (Public, Private, TeamChat, HostOnly)


@cache
def _field_names(cls: type[_Dataclass]) -> tuple[str, ...]:
    """The dataclass's field names, in order (``dataclasses.fields`` is slow on the hot path)."""
    return tuple(f.name for f in dataclasses.fields(cls))


_SCALARS = (str, int, float, bool, type(None))
_AS_IS, _ENUM, _DATACLASS, _SEQUENCE, _SET, _DICT = range(6)


@cache
def _kind(cls: type) -> int:
    """How :func:`_plain` converts an instance of ``cls``, decided once per class (the checks
    below, in this order, were made for every value: ~30 per command and its events)."""
    if issubclass(cls, _SCALARS) and not issubclass(cls, Enum):
        return _AS_IS
    if issubclass(cls, Enum):
        return _ENUM
    if dataclasses.is_dataclass(cls) and not issubclass(cls, type):  # an instance, not a class
        return _DATACLASS
    if issubclass(cls, (list, tuple)):
        return _SEQUENCE
    if issubclass(cls, (set, frozenset)):
        return _SET
    if issubclass(cls, dict):
        return _DICT
    return _AS_IS


def _plain(value: Any) -> Any:
    kind = _kind(value.__class__)
    if kind == _AS_IS:
        return value
    if kind == _ENUM:
        return value.value
    if kind == _DATACLASS:
        return {name: _plain(getattr(value, name)) for name in _field_names(value.__class__)}
    if kind == _SEQUENCE:
        return [_plain(v) for v in value]
    if kind == _SET:
        return sorted(_plain(v) for v in value)
    return {k: _plain(v) for k, v in value.items()}


def plain(value: object) -> Any:
    """``value`` as JSON-safe data: enums -> values, dataclasses -> dicts of their fields,
    tuples -> lists, sets -> sorted lists; dict keys are kept as they are."""
    return _plain(value)


def to_dict(obj: object) -> dict[str, Any]:
    """``obj`` (a command or event dataclass) as the log stores it: ``{"type": ClassName,
    **fields}``, its fields made JSON-safe by :func:`plain`."""
    data: dict[str, Any] = _plain(obj)
    data["type"] = type(obj).__name__
    return data


def _audience(data: dict[str, Any]) -> Audience:
    kind = data.get("kind")
    if kind == "public":
        return PUBLIC
    if kind == "host":
        return HOST
    if kind == "private":
        return Private(int(data["user_id"]))
    if kind == "team":
        return TeamChat(team_named(data["team"]))
    raise ValueError(f"bad audience {data!r}")


def _convert(value: Any, hint: Any) -> Any:
    if value is None:
        return None
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if all(a in _AUDIENCES for a in args):
            return _audience(value)
        return _convert(value, args[0]) if len(args) == 1 else value
    if origin is tuple:
        items = typing.get_args(hint)
        if len(items) == 2 and items[1] is Ellipsis:
            return tuple(_convert(v, items[0]) for v in value)
        return tuple(_convert(v, a) for v, a in zip(value, items, strict=False))
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint(value)
    return value


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _build(cls: type[_T], data: Mapping[str, Any]) -> _T:
    hints = _hints(cls)
    kwargs: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.name in data:
            kwargs[f.name] = _convert(data[f.name], hints[f.name])
    return cls(**kwargs)


def from_dict(data: Mapping[str, Any], types: Mapping[str, type[_T]], what: str = "command") -> _T:
    """The command or event ``data`` (a :func:`to_dict` result) rebuilt with the class that
    ``types`` names for ``data["type"]``.  Raises ``ValueError`` ("unknown {what} type ...")
    when ``types`` has no such class."""
    cls = types.get(str(data.get("type")))
    if cls is None:
        raise ValueError(f"unknown {what} type {data.get('type')!r}")
    return _build(cls, data)


def command_from_dict(data: Mapping[str, Any]) -> Command:
    """A mafia preset's command from its dict. Raises ``ValueError`` on an unknown type."""
    return from_dict(data, COMMAND_TYPES, "command")


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """A mafia preset's event from its dict. Raises ``ValueError`` on an unknown type."""
    return from_dict(data, EVENT_TYPES, "event")


def snapshot(value: Any) -> Any:
    """Plain JSON data for a piece of state: enums -> values, sets -> sorted lists, dict keys
    -> strings (JSON keeps no other), tuples -> lists, dataclasses -> dicts of their fields
    (an empty field marked ``omit_empty`` in its metadata left out)."""
    if isinstance(value, Enum):
        return value.value
    if dataclasses.is_dataclass(value):
        # a field marked ``metadata={"omit_empty": True}`` is left out while empty: a field
        # added later keeps the snapshots of games that never use it as they were (REV-X01)
        return {f.name: snapshot(getattr(value, f.name)) for f in dataclasses.fields(value)
                if not (f.metadata.get("omit_empty") and not getattr(value, f.name))}
    if isinstance(value, (set, frozenset)):
        return sorted((snapshot(v) for v in value), key=repr)
    if isinstance(value, (list, tuple)):
        return [snapshot(v) for v in value]
    if isinstance(value, dict):
        return {str(snapshot(k)): snapshot(v) for k, v in value.items()}
    return value

