"""``engine.core.serialize.plain`` decides the conversion once per class; it must give what the
chain of checks it replaced gave for every kind of value (the log's format depends on it)."""

from __future__ import annotations

import dataclasses
from enum import Enum, IntEnum

from engine import Role
from engine.core.serialize import plain, to_dict


class Colour(Enum):
    RED = "red"


class Level(IntEnum):
    LOW = 1


class Name(str):
    pass


@dataclasses.dataclass(frozen=True)
class Inner:
    level: Level
    tags: frozenset


@dataclasses.dataclass(frozen=True)
class Outer:
    name: Name
    colour: Colour
    inner: Inner
    seats: tuple
    by_user: dict
    nothing: None = None


def reference(value):
    """The conversion as it was written before (checks in this order for every value)."""
    scalars = (str, int, float, bool, type(None))
    if isinstance(value, scalars) and not isinstance(value, Enum):
        return value
    if isinstance(value, Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: reference(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (list, tuple)):
        return [reference(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(reference(v) for v in value)
    if isinstance(value, dict):
        return {k: reference(v) for k, v in value.items()}
    return value


def test_plain_matches_the_chain_of_checks_for_every_kind_of_value():
    outer = Outer(Name("Anna"), Colour.RED, Inner(Level.LOW, frozenset({3, 1, 2})),
                  (1, [Level.LOW, Role.MAFIA], {"x": Colour.RED}), {7: {5, 4}, "k": (None, 1.5)})
    values = [outer, Level.LOW, Role.DOCTOR, Name("x"), True, 3, 2.5, None, "s", Outer, Colour,
              [outer, (outer,)], {outer.inner}, {"a": [outer]}, object]
    for value in values:
        assert plain(value) == reference(value), value
        assert type(plain(value)) is type(reference(value)), value
    data = to_dict(outer)
    assert data == {**reference(outer), "type": "Outer"}
    assert data["name"] == "Anna" and data["inner"] == {"level": 1, "tags": [1, 2, 3]}
