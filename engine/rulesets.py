"""Rule sets as frozen data plus a registry (in the spirit of python-chess ``variant.py``).

A :class:`RuleSet` holds what differs between presets: table sizes, the role table, tempo presets
(seconds) and the per-preset switches of ``catalogue.md`` §6.  Shared mechanics read these fields;
a new preset is a new instance (and a hook where an algorithm really differs).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .errors import BadSetup
from .roles import Role

TIMING_KEYS = ("speech", "defence", "last_word", "vote", "night", "ready_wait")


@dataclass(frozen=True)
class Tempo:
    """Durations in seconds (PARTY-Q16)."""

    speech: int
    defence: int
    last_word: int
    vote: int  # one candidate's voting window
    night: int
    ready_wait: int = 120  # PARTY-39: fixed under every preset

    def as_dict(self) -> dict[str, int]:
        return {k: getattr(self, k) for k in TIMING_KEYS}


#: Limits for a single overridden timing, seconds.
TIMING_LIMITS = {"speech": (10, 600), "defence": (10, 300), "last_word": (10, 300),
                 "vote": (5, 120), "night": (20, 600), "ready_wait": (30, 600)}


def party_roles(n: int, options: dict) -> list[Role]:
    """PARTY-Q01: mafia = n // 3; Commissar always; Doctor unless switched off."""
    roles = [Role.MAFIA] * (n // 3) + [Role.COMMISSAR]
    if options.get("doctor", True):
        roles.append(Role.DOCTOR)
    roles += [Role.CIVILIAN] * (n - len(roles))
    return roles


@dataclass(frozen=True)
class RuleSet:
    name: str
    aliases: tuple[str, ...]
    min_players: int
    max_players: int
    role_table: Callable[[int, dict], list[Role]]
    tempos: dict[str, Tempo]
    default_tempo: str = "normal"
    #: catalogue.md §6 switches
    sole_nominee_leaves: bool = True
    last_word_for_all: bool = True
    ready_gates: bool = True
    pauses_per_player: int = 3
    pause_limit: int = 900  # seconds a pause may last before it resumes by itself (PARTY-Q19)
    host_wait: int = 600  # seconds the game waits for a lost host (PARTY-Q22)
    missed_deadlines_to_inactive: int = 2  # PARTY-Q20 (c)
    default_options: dict = field(default_factory=dict)

    def roles_for(self, n: int, options: dict | None = None) -> list[Role]:
        """The multiset of roles for ``n`` players. Raises :class:`BadSetup` outside the range."""
        if not self.min_players <= n <= self.max_players:
            raise BadSetup(f"{self.name} needs {self.min_players}-{self.max_players} players, got {n}")
        return self.role_table(n, {**self.default_options, **(options or {})})

    def timings(self, settings: dict) -> dict[str, int]:
        """Resolve ``settings['tempo']`` plus ``settings['timings']`` overrides into seconds.

        Raises :class:`BadSetup` for an unknown tempo or key, or a value outside ``TIMING_LIMITS``.
        """
        tempo = settings.get("tempo", self.default_tempo)
        if tempo not in self.tempos:
            raise BadSetup(f"unknown tempo {tempo!r}")
        out = self.tempos[tempo].as_dict()
        for key, value in (settings.get("timings") or {}).items():
            if key not in TIMING_LIMITS:
                raise BadSetup(f"unknown timing {key!r}")
            lo, hi = TIMING_LIMITS[key]
            if not isinstance(value, int) or not lo <= value <= hi:
                raise BadSetup(f"{key} must be {lo}..{hi} s")
            out[key] = value
        return out


PARTY = RuleSet(
    name="party",
    aliases=("classic", "вечеринка"),
    min_players=5,
    max_players=12,
    role_table=party_roles,
    tempos={
        "short": Tempo(speech=30, defence=20, last_word=20, vote=10, night=45),
        "normal": Tempo(speech=60, defence=30, last_word=60, vote=15, night=60),
        "detailed": Tempo(speech=90, defence=45, last_word=90, vote=20, night=120),
    },
    default_options={"doctor": True, "announce_save": False},
)

RULESETS: dict[str, RuleSet] = {PARTY.name: PARTY}


def find_ruleset(name: str) -> RuleSet:
    """Look a rule set up by name or alias (case-insensitive). Raises ``KeyError``."""
    key = name.strip().lower()
    for rs in RULESETS.values():
        if key == rs.name or key in rs.aliases:
            return rs
    raise KeyError(name)
