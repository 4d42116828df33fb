"""Rule sets as frozen data plus a registry (in the spirit of python-chess ``variant.py``).

A :class:`RuleSet` holds what differs between presets: table sizes, the role table, tempo presets
(seconds) and the per-preset switches of ``catalogue.md`` §6.  Shared mechanics read these fields;
a new preset is a new instance (and a hook where an algorithm really differs).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .errors import BadSetup
from .forum_setup import DEFAULT_OPTIONS as FORUM_DEFAULT_OPTIONS
from .forum_setup import check_options as check_forum_options
from .forum_setup import forum_roles
from .roles import Role

TIMING_KEYS = ("speech", "defence", "last_word", "vote", "night", "ready_wait", "meeting", "silenced")


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


#: the timings of the online preset (docs/rules/online-sport.md); it has no speeches
ONLINE_TIMING_KEYS = ("discussion", "defence", "last_word", "vote", "lift", "night", "meeting",
                      "best_move")


@dataclass(frozen=True)
class OnlineTempo(Tempo):
    """ONLINE, seconds: ``discussion`` the day's open discussion and vote, ``vote`` a revote,
    ``lift`` the Lift/Leave vote, ``meeting`` night 1, ``best_move`` the first victim's best
    move; ``speech`` (and the ready-wait, the silenced turn) are unused and not offered."""

    discussion: int = 180
    lift: int = 30
    best_move: int = 30

    def as_dict(self) -> dict[str, int]:
        return {k: getattr(self, k) for k in ONLINE_TIMING_KEYS}


#: the timings of the forum preset (docs/rules/forum.md); no speeches, no defences
FORUM_TIMING_KEYS = ("forum_day", "forum_vote", "last_word", "meeting", "cop", "forum_night",
                     "bonus_offer", "bonus", "best_player")


@dataclass(frozen=True)
class ForumTempo(Tempo):
    """FORUM, seconds (FORUM-Q27): ``forum_day`` the day's discussion, ``forum_vote`` its vote
    (and the revote, the host's decision), ``meeting`` night 1, ``cop`` the Cop's turn,
    ``forum_night`` a night from night 2, then the bonus round's offer and round and the vote
    for the best player."""

    forum_day: int = 600
    forum_vote: int = 120
    forum_night: int = 180
    cop: int = 60
    bonus_offer: int = 120
    bonus: int = 180
    best_player: int = 120

    def as_dict(self) -> dict[str, int]:
        return {k: getattr(self, k) for k in FORUM_TIMING_KEYS}


#: Limits for a single overridden timing, seconds.
TIMING_LIMITS = {"speech": (10, 600), "defence": (10, 300), "last_word": (10, 300),
                 "vote": (5, 120), "night": (20, 600), "ready_wait": (30, 600),
                 "meeting": (20, 300), "silenced": (5, 60),
                 "discussion": (30, 1800), "lift": (5, 120), "best_move": (10, 120),
                 # FORUM-Q27: a forum day and night from a minute up to 24 hours
                 "forum_day": (60, 86400), "forum_vote": (30, 86400), "forum_night": (60, 86400),
                 "cop": (10, 600), "bonus_offer": (30, 600), "bonus": (30, 3600),
                 "best_player": (30, 3600)}


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
    #: '' = the shared day and night of flow.py; 'online' = engine/online.py (the open day vote,
    #: ties by table size, the lift decision, misfires, the best move)
    hooks: str = ""
    #: misfires in a row that give Town the win (online ONLINE-36); 0 = no such rule
    misfires_to_lose: int = 0
    #: the Don may skip his Sheriff search with a Sleep tap (online ONLINE-Q15)
    don_check_optional: bool = False
    #: seconds OFFLINE after which the shell sends MarkAfk (online ONLINE-48); 0 = no AFK status
    afk_after: int = 0
    #: refuses malformed ``settings['options']`` with BadSetup (at CreateGame and ChangeSettings)
    check_options: Callable[[dict], None] | None = None

    def roles_for(self, n: int, options: dict | None = None) -> list[Role]:
        """The multiset of roles for ``n`` players. Raises :class:`BadSetup` outside the range."""
        if not self.min_players <= n <= self.max_players:
            raise BadSetup(f"{self.name} needs {self.min_players}-{self.max_players} players, got {n}")
        return self.role_table(n, {**self.default_options, **(options or {})})

    def timings(self, settings: dict) -> dict[str, int]:
        """Resolve ``settings['tempo']`` plus ``settings['timings']`` overrides into seconds.

        Raises :class:`BadSetup` for an unknown tempo or key, or a value outside ``TIMING_LIMITS``.
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

def club_roles(n: int, options: dict) -> list[Role]:
    """CLUB-02: 7 red (6 Civilians and the Sheriff), 3 black (2 Mafia and the Don)."""
    return [Role.DON, Role.MAFIA, Role.MAFIA, Role.SHERIFF] + [Role.CIVILIAN] * (n - 4)


CLUB = RuleSet(
    name="club",
    aliases=("club-sport", "sport", "клуб", "спорт"),
    min_players=10,
    max_players=10,
    role_table=club_roles,
    tempos={
        "short": Tempo(speech=45, defence=20, last_word=45, vote=10, night=30, meeting=45),
        "normal": Tempo(speech=60, defence=30, last_word=60, vote=10, night=45, meeting=60),
        "detailed": Tempo(speech=90, defence=45, last_word=90, vote=15, night=60, meeting=90),
    },
    sole_nominee_leaves=True,
    ready_gates=False,
    intro="meeting",
    vote_style="club",
    sole_nominee_day1=False,
    night_close_early=False,
    checks_at_dawn=True,
    final_shots=True,
    relay="intro",
    fouls=True,
    exclude_base_active=False,
    missed_deadlines_to_inactive=0,  # CLUB-X04: a fixed-length night asks nobody to tap
)

def online_roles(n: int, options: dict) -> list[Role]:
    """ONLINE-Q01 (6..10 seats): n // 3 blacks, the Don among them; the Sheriff; civilians."""
    blacks = n // 3
    return [Role.DON] + [Role.MAFIA] * (blacks - 1) + [Role.SHERIFF] + \
        [Role.CIVILIAN] * (n - blacks - 1)


ONLINE = RuleSet(
    name="online",
    aliases=("online-sport", "онлайн"),
    min_players=6,
    max_players=10,
    role_table=online_roles,
    tempos={
        "short": OnlineTempo(speech=0, defence=30, last_word=45, vote=20, night=45, meeting=45,
                             discussion=120, lift=20, best_move=30),
        "normal": OnlineTempo(speech=0, defence=30, last_word=60, vote=30, night=60, meeting=60,
                              discussion=180, lift=30, best_move=30),
        "detailed": OnlineTempo(speech=0, defence=30, last_word=90, vote=45, night=90, meeting=90,
                                discussion=300, lift=45, best_move=30),
    },
    ready_gates=False,
    missed_deadlines_to_inactive=1,  # ONLINE-Q20: a missed required action -> OFFLINE
    intro="meeting",
    vote_style="online",
    night_close_early=True,
    final_shots=True,
    relay="intro",
    hooks="online",
    misfires_to_lose=3,
    don_check_optional=True,
    afk_after=500,
)

FORUM = RuleSet(
    name="forum",
    aliases=("forum-mafia", "форум"),
    min_players=4,  # FORUM-01, Q01
    max_players=12,
    role_table=forum_roles,
    tempos={
        "short": ForumTempo(speech=0, defence=0, last_word=45, vote=0, night=0, meeting=60,
                            forum_day=300, forum_vote=90, forum_night=120, cop=45, bonus=120,
                            best_player=90),
        "normal": ForumTempo(speech=0, defence=0, last_word=60, vote=0, night=0, meeting=90),
        "detailed": ForumTempo(speech=0, defence=0, last_word=90, vote=0, night=0, meeting=120,
                               forum_day=1200, forum_vote=300, forum_night=300, cop=90,
                               bonus=300, best_player=180),
    },
    last_word_for_all=False,  # FORUM-13, 15, Q09: Town status only
    ready_gates=False,
    default_options=dict(FORUM_DEFAULT_OPTIONS),
    intro="forum",
    vote_style="forum",
    relay="always",  # FORUM-06: the Mafia talk every night
    hooks="forum",
    check_options=check_forum_options,
)

RULESETS: dict[str, RuleSet] = {PARTY.name: PARTY, CLUB.name: CLUB, ONLINE.name: ONLINE,
                                FORUM.name: FORUM}


def find_ruleset(name: str) -> RuleSet:
    """Look a rule set up by name or alias (case-insensitive). Raises ``KeyError``."""
    key = name.strip().lower()
    for rs in RULESETS.values():
        if key == rs.name or key in rs.aliases:
            return rs
    raise KeyError(name)
