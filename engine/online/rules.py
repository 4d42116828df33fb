"""The online sport preset's rule set and tempo (rule IDs in docs/rules/online-sport.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..mafia.roles import Role
from ..mafia.rules import RuleSet, Tempo, limits

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


def online_roles(n: int, options: dict[str, Any]) -> list[Role]:
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
    misfires_to_lose=3,
    don_check_optional=True,
    afk_after=500,
    timing_limits=limits("defence", "last_word", "vote", "night", "meeting",
                         discussion=(30, 1800), lift=(5, 120), best_move=(10, 120)),
)
