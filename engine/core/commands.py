"""The command base class, the one command every game shares, and the registry of command types.

A command is the only input of :func:`engine.apply`.  Every subclass of :class:`Command`, in any
game's package, is registered in :data:`COMMAND_TYPES` under its class name when it is defined
(an abstract base says ``register=False``):
the name is the ``"type"`` of a stored command (``engine.core.serialize``), so it must be unique.
"""

from __future__ import annotations

from dataclasses import Field, dataclass, field
from typing import Any, ClassVar, Protocol, TypeVar

_T = TypeVar("_T")

#: class name -> command class, every game's commands (filled by ``Command.__init_subclass__``)
COMMAND_TYPES: dict[str, type[Command]] = {}


class CommandLike(Protocol):
    """What the core asks of any game's command (NOIR's have a base class of their own): the
    acting user (``None`` = the system); a command is a dataclass (its fields are stored)."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    @property
    def user_id(self) -> int | None: ...


def _register(registry: dict[str, type[_T]], cls: type[_T]) -> None:
    old = registry.get(cls.__name__)
    if old is not None:
        raise TypeError(f"two types named {cls.__name__}: {old.__module__}, {cls.__module__}")
    registry[cls.__name__] = cls


@dataclass(frozen=True, kw_only=True)
class Command:
    """Base class; ``user_id`` is the acting Telegram user (``None`` = the system)."""

    user_id: int | None = None

    def __init_subclass__(cls, register: bool = True, **kwargs: Any) -> None:
        """``class X(Command, register=False)``: an abstract base, never stored itself."""
        super().__init_subclass__(**kwargs)
        if register:
            _register(COMMAND_TYPES, cls)


@dataclass(frozen=True, kw_only=True)
class CreateGame(Command):
    """First command of every log. ``ruleset``: the game's registered name or an alias;
    ``settings``: tempo name, timing overrides (seconds), options -- read by that game."""

    ruleset: str
    settings: dict[str, Any] = field(default_factory=dict)
