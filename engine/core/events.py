"""The event base class, the one event every game shares, and the registry of event types.

Every event carries its audience (:mod:`.audience`).  Every subclass of :class:`Event`, in any
game's package, is registered in :data:`EVENT_TYPES` under its class name when it is defined (the
``"type"`` of a stored event, so it must be unique).
"""

from __future__ import annotations

from dataclasses import Field, dataclass
from typing import Any, ClassVar, Protocol

from .audience import PUBLIC, Audience
from .commands import _register

#: class name -> event class, every game's events (filled by ``Event.__init_subclass__``)
EVENT_TYPES: dict[str, type[Event]] = {}


class EventLike(Protocol):
    """What the core asks of any game's event (NOIR's have a base class of their own): who may
    see it; an event is a dataclass (its fields are stored)."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    @property
    def audience(self) -> Audience: ...


@dataclass(frozen=True, kw_only=True)
class Event:
    audience: Audience = PUBLIC

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _register(EVENT_TYPES, cls)


@dataclass(frozen=True, kw_only=True)
class GameCreated(Event):
    """The answer to :class:`~engine.core.commands.CreateGame`."""

    ruleset: str
    organiser: int | None  # None: the shell created it
