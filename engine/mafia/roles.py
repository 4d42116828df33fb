"""Roles and teams shared by every preset."""

from __future__ import annotations

from enum import Enum

from ..core.audience import register_teams


class Team(str, Enum):  # noqa: UP042  StrEnum would change str() and f"{member}" from "Cls.NAME" to the value
    TOWN = "town"
    MAFIA = "mafia"


class Role(str, Enum):  # noqa: UP042  StrEnum would change str() and f"{member}" from "Cls.NAME" to the value
    CIVILIAN = "civilian"
    MAFIA = "mafia"
    COMMISSAR = "commissar"
    DOCTOR = "doctor"
    SHERIFF = "sheriff"
    DON = "don"
    #: the forum preset's optional roles (docs/rules/forum.md); all of Town status on paper
    MANIAC = "maniac"
    PUTANA = "putana"
    JOURNALIST = "journalist"
    SLEEPWALKER = "sleepwalker"
    WEREWOLF = "werewolf"
    COP = "cop"

    @property
    def team(self) -> Team:
        return Team.MAFIA if self in MAFIA_ROLES else Team.TOWN


MAFIA_ROLES = frozenset({Role.MAFIA, Role.DON})

register_teams(Team)  # a stored TeamChat audience names one of these
