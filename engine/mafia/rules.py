"""Rule sets as frozen data: what differs between the mafia presets as *numbers and switches*.

A :class:`RuleSet` holds table sizes, the role table, tempo presets (seconds) and the per-preset
switches of ``catalogue.md`` §6; the shared mechanics read these fields.  Where a preset's
*algorithm* differs, its variant class overrides a method (``engine.mafia.variant``).  Each
preset's package defines its rule set (``engine.party.rules.PARTY``...); :data:`RULESETS` and
:func:`find_ruleset` read the game registry (``engine.core.game``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import BadSetup
from ..core.game import GAMES, find_game
from ..core.state import GameStateLike
from .roles import Role

TIMING_KEYS = ("speech", "defence", "last_word", "vote", "night", "ready_wait", "meeting", "silenced")



#: REV-X01 (docs/rules/README.md): the rules revision a new game is played by. The shell stamps it
#: on every new game (``CreateGame.settings["revision"]``); a log without it replays under
#: revision 1, the rules it was played by. Revision 2: ONLINE-X17 (online night 1 asks nothing
#: of the reds). Revision 3: FORUM-X24 (a player the forum's host removed is no winner).
REVISION = 3


def rules_revision(settings: dict[str, Any]) -> int:
    """REV-X01: the rules revision of a game whose stored settings are ``settings`` (1 when the
    log predates revisions); a malformed value counts as 1."""
    value = settings.get("revision", 1)
    return value if isinstance(value, int) and not isinstance(value, bool) else 1

@dataclass(frozen=True)
class Tempo:
    """Durations in seconds (PARTY-Q16)."""

    speech: int
    defence: int
    last_word: int
    vote: int  # one candidate's voting window
    night: int
    ready_wait: int = 120  # PARTY-39: fixed under every preset
    meeting: int = 60  # CLUB-08: the mafia's night-0 meeting
    silenced: int = 10  # CLUB-Q14: the nomination-only turn of a player with 3 fouls

    def as_dict(self) -> dict[str, int]:
        return {k: getattr(self, k) for k in TIMING_KEYS}


#: Limits (seconds, inclusive) of the shared mafia timings a preset may let a chat override; a
#: preset's rule set lists the keys it uses (``RuleSet.timing_limits``), its own among them.
SHARED_TIMING_LIMITS = {"speech": (10, 600), "defence": (10, 300), "last_word": (10, 300),
                        "vote": (5, 120), "night": (20, 600), "ready_wait": (30, 600),
                        "meeting": (20, 300)}


def limits(*keys: str, **own: tuple[int, int]) -> dict[str, tuple[int, int]]:
    """A preset's timing limits: the shared ``keys`` from :data:`SHARED_TIMING_LIMITS`, then its
    ``own`` keys (seconds, ``(lo, hi)``).  Raises KeyError for an unknown shared key."""
    return {**{k: SHARED_TIMING_LIMITS[k] for k in keys}, **own}


@dataclass(frozen=True)
class RuleSet:
    name: str
    aliases: tuple[str, ...]
    min_players: int
    max_players: int
    role_table: Callable[[int, dict[str, Any]], list[Role]]
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
    default_options: dict[str, Any] = field(default_factory=dict[str, Any])
    #: night 1: 'ready' (party: readiness, then the acquaintance) | 'meeting' (club: a fixed
    #: one-minute mafia meeting with the relay open, CLUB-08)
    intro: str = "ready"
    #: 'party': nominees defend, then vote; a vote not cast is lost (PARTY-17).
    #: 'club': vote right after the speeches; silent votes go to the last nominee (CLUB-24)
    vote_style: str = "party"
    #: a lone nominee on day 1 leaves (party PARTY-11) or is not voted on (club CLUB-Q02)
    sole_nominee_day1: bool = True
    #: the night may end before its timer once everybody has acted (party) or never (club)
    night_close_early: bool = True
    #: check results are sent at once (party) or at dawn after the shot (club CLUB-33)
    checks_at_dawn: bool = False
    #: a mafia pick can be changed until the night closes (party) or is final (club CLUB-Q09)
    final_shots: bool = False
    #: nights on which the mafia relay is open: 'always' (party) | 'intro' (club, online)
    relay: str = "always"
    #: fouls, silencing and disqualification (club CLUB-36..39)
    fouls: bool = False
    #: the majority base of the exclude-all vote: living active players (party) | living (club)
    exclude_base_active: bool = True
    #: misfires in a row that give Town the win (online ONLINE-36); 0 = no such rule
    misfires_to_lose: int = 0
    #: the Don may skip his Sheriff search with a Sleep tap (online ONLINE-Q15)
    don_check_optional: bool = False
    #: seconds OFFLINE after which the shell sends MarkAfk (online ONLINE-48); 0 = no AFK status
    afk_after: int = 0
    #: refuses malformed ``settings['options']`` with BadSetup (at CreateGame and ChangeSettings)
    check_options: Callable[[dict[str, Any]], None] | None = None
    #: the timings a chat may override in this preset: key -> (lo, hi) seconds, inclusive
    timing_limits: Mapping[str, tuple[int, int]] = field(
        default_factory=lambda: limits("speech", "defence", "last_word", "vote", "night",
                                       "ready_wait"))

    def roles_for(self, n: int, options: dict[str, Any] | None = None) -> list[Role]:
        """The multiset of roles for ``n`` players. Raises :class:`BadSetup` outside the range."""
        if not self.min_players <= n <= self.max_players:
            raise BadSetup(f"{self.name} needs {self.min_players}-{self.max_players} players, got {n}")
        return self.role_table(n, {**self.default_options, **(options or {})})

    def timings(self, settings: dict[str, Any]) -> dict[str, int]:
        """Resolve ``settings['tempo']`` plus ``settings['timings']`` overrides into seconds.

        Raises :class:`BadSetup` for an unknown tempo or key, or a value outside its limits
        (:data:`TIMING_LIMITS`: every registered preset's ``timing_limits``).
        A valid timing this preset does not use (``discussion`` in a party game, ``speech`` in an
        online one: a chat's defaults serve every preset) is ignored.
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
            if key in out:
                out[key] = value
        return out


class _TimingLimits(Mapping[str, tuple[int, int]]):
    """key -> (lo, hi) seconds of every timing some registered mafia preset lets a chat
    override (a live view of the presets' ``timing_limits``, in registry order).  A key two
    presets share has the same limits in both (``tests/engine/test_rulesets.py`` checks it)."""

    def _limits(self) -> dict[str, tuple[int, int]]:
        out: dict[str, tuple[int, int]] = {}
        for rs in RULESETS.values():
            for key, value in rs.timing_limits.items():
                out.setdefault(key, value)
        return out

    def __getitem__(self, key: str) -> tuple[int, int]:
        return self._limits()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._limits())

    def __len__(self) -> int:
        return len(self._limits())


class _RuleSets(Mapping[str, "RuleSet"]):
    """name -> rule set of every registered mafia preset (a live view of the game registry)."""

    def _games(self) -> dict[str, RuleSet]:
        # a mafia preset's game object has ``rules`` (the registry holds other games too)
        return {name: rules for name, g in GAMES.items()
                if isinstance(rules := getattr(g, "rules", None), RuleSet)}

    def __getitem__(self, name: str) -> RuleSet:
        return self._games()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._games())

    def __len__(self) -> int:
        return len(self._games())


RULESETS: Mapping[str, RuleSet] = _RuleSets()
#: the limits of every preset's overridable timings, seconds (see :class:`_TimingLimits`)
TIMING_LIMITS: Mapping[str, tuple[int, int]] = _TimingLimits()


def find_ruleset(name: str) -> RuleSet:
    """Look a rule set up by name or alias (case-insensitive). Raises ``KeyError``."""
    rules = getattr(find_game(name), "rules", None)
    if not isinstance(rules, RuleSet):
        raise KeyError(name)
    return rules


def rules_of(st: GameStateLike) -> RuleSet:
    """The rule set of the game ``st`` belongs to."""
    return RULESETS[st.ruleset]
