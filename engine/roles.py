"""Roles and teams shared by every preset."""

from __future__ import annotations

from enum import Enum


class Team(str, Enum):
    TOWN = "town"
    MAFIA = "mafia"


class Role(str, Enum):
    CIVILIAN = "civilian"
    MAFIA = "mafia"
    COMMISSAR = "commissar"
    DOCTOR = "doctor"
    SHERIFF = "sheriff"
    DON = "don"

    @property
    def team(self) -> Team:
        return Team.MAFIA if self in MAFIA_ROLES else Team.TOWN


MAFIA_ROLES = frozenset({Role.MAFIA, Role.DON})
