"""Who may see an event.  Every event carries exactly one audience.

* :data:`PUBLIC` -- the group chat (and onlookers).
* :class:`Private` -- one user's private chat with the bot.
* :class:`TeamChat` -- every *living* member of a team (the mafia's relay).
* :data:`HOST` -- the human host's private chat, if the game has one.

The invariant tested by the playouts: no ``PUBLIC`` event before ``GameEnded`` names a hidden role.
"""

from __future__ import annotations

from dataclasses import dataclass

from .roles import Team


@dataclass(frozen=True)
class Public:
    kind: str = "public"


@dataclass(frozen=True)
class Private:
    user_id: int
    kind: str = "private"


@dataclass(frozen=True)
class TeamChat:
    team: Team
    kind: str = "team"


@dataclass(frozen=True)
class HostOnly:
    kind: str = "host"


PUBLIC = Public()
HOST = HostOnly()
Audience = Public | Private | TeamChat | HostOnly
