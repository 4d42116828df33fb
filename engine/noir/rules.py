"""NOIR's rule set: roles, teams, the table per player count, thresholds, timings, reaches.

Everything here is data (docs/rules/noir.md).  Seconds are seconds.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any


class Team(str, Enum):  # noqa: UP042  StrEnum would change str() and f"{member}" from "Cls.NAME" to the value
    MAFIA = "mafia"
    AGENTS = "agents"


class Role(str, Enum):  # noqa: UP042  StrEnum would change str() and f"{member}" from "Cls.NAME" to the value
    """Russian names: Бандит, Маньяк, Подрывник, Снайпер / Агент под прикрытием, Детектив,
    Оперативник, Криминалист."""

    KILLER = "killer"
    PSYCHO = "psycho"
    BOMBER = "bomber"
    SNIPER = "sniper"
    UNDERCOVER = "undercover"
    DETECTIVE = "detective"
    SUIT = "suit"
    PROFILER = "profiler"

    @property
    def team(self) -> Team:
        return Team.MAFIA if self in MAFIA_ROLES else Team.AGENTS


MAFIA_ROLES = frozenset({Role.KILLER, Role.PSYCHO, Role.BOMBER, Role.SNIPER})


@dataclass(frozen=True)
class Table:
    """One player count (NOIR-01, 02, 04, 10, 11): a ``size`` x ``size`` grid, the role set, and
    the two thresholds (arrests for the agents, points for the mafia)."""

    players: int
    size: int
    roles: tuple[Role, ...]
    arrests_needed: int
    points_needed: int


TABLES = {
    6: Table(6, 6, (Role.KILLER, Role.PSYCHO, Role.BOMBER,
                    Role.UNDERCOVER, Role.DETECTIVE, Role.SUIT), 4, 18),
    8: Table(8, 7, (Role.KILLER, Role.PSYCHO, Role.BOMBER, Role.SNIPER,
                    Role.UNDERCOVER, Role.DETECTIVE, Role.SUIT, Role.PROFILER), 5, 25),
}

#: default durations in seconds (NOIR-Q21 turn, NOIR-Q11 the Suit's window, a pause's cap)
DEFAULT_TIMINGS = {"turn": 120, "cancel": 30, "pause": 900}
#: accepted range of each timing override, seconds
TIMING_LIMITS = {"turn": (30, 600), "cancel": (10, 120), "pause": (60, 3600)}
#: NOIR-Q01: the strict accusation (naming the role) is an option, off by default
DEFAULT_OPTIONS = {"strict_accusation": False}

PAUSES_PER_PLAYER = 3  # NOIR-X17, as the other presets
MAX_SHIELDS = 6  # NOIR-33
HAND_SIZE = 4  # NOIR-36, Q17
LINE_REACH = 3  # NOIR-22, 26, 31: "в пределах 3 клеток"
MISSES_FOR_AUTO_PASS = 2  # NOIR-Q21
POINTS_FOR_AGENT = 2  # NOIR-12
#: NOIR-18: who may shift by 2 as well as by 1
LONG_SHIFTERS = frozenset({Role.KILLER, Role.SNIPER, Role.SUIT})


def shift_reach(role: Role) -> int:
    return 2 if role in LONG_SHIFTERS else 1


def timings(settings: dict[str, Any]) -> dict[str, int]:
    """The game's timings: defaults overridden by ``settings["timings"]`` (seconds).

    Raises ValueError on an unknown name or a value outside :data:`TIMING_LIMITS`."""
    out = dict(DEFAULT_TIMINGS)
    for name, value in (settings.get("timings") or {}).items():
        if name not in TIMING_LIMITS or not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"bad timing {name!r}")
        lo, hi = TIMING_LIMITS[name]
        if not lo <= value <= hi:
            raise ValueError(f"timing {name!r} must be {lo}..{hi} s")
        out[name] = value
    return out


def options(settings: dict[str, Any]) -> dict[str, bool]:
    """Options: defaults overridden by ``settings["options"]``; ValueError on an unknown one."""
    out = dict(DEFAULT_OPTIONS)
    for name, value in (settings.get("options") or {}).items():
        if name not in DEFAULT_OPTIONS or not isinstance(value, bool):
            raise ValueError(f"bad option {name!r}")
        out[name] = value
    return out
