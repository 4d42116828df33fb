"""Who may see an event.  Every event carries exactly one audience.

* :data:`PUBLIC` -- the group chat (and onlookers).
* :class:`Private` -- one user's private chat with the bot.
* :class:`TeamChat` -- every *living* member of a team (the mafia's relay); the team is a member
  of the enum the game family registers with :func:`register_teams` (``engine.mafia.roles.Team``).
* :data:`HOST` -- the human host's private chat, if the game has one.

The invariant tested by the playouts: no ``PUBLIC`` event before ``GameEnded`` names a hidden role.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

_teams: list[type[Enum]] = []


def register_teams(enum: type[Enum]) -> None:
    """Make ``enum`` the type of :attr:`TeamChat.team` when a stored audience is read back."""
    if enum not in _teams:
        _teams.append(enum)


def team_named(value: str) -> Enum:
    """The registered team whose value is ``value``. Raises ``ValueError`` if there is none."""
    for enum in _teams:
        try:
            return enum(value)
        except ValueError:
            continue
    raise ValueError(f"unknown team {value!r}")


@dataclass(frozen=True)
class Public:
    kind: str = "public"


@dataclass(frozen=True)
class Private:
    user_id: int
    kind: str = "private"


@dataclass(frozen=True)
class TeamChat:
    team: Enum
    kind: str = "team"


@dataclass(frozen=True)
class HostOnly:
    kind: str = "host"


PUBLIC = Public()
HOST = HostOnly()
Audience = Public | Private | TeamChat | HostOnly
