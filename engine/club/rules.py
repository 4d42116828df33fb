"""The club (sport) preset's rule set (rule IDs in docs/rules/club.md): ten players, the Don
and the Sheriff, the mafia's meeting, the vote right after the speeches, fouls."""

from __future__ import annotations

from typing import Any

from ..mafia.roles import Role
from ..mafia.rules import RuleSet, Tempo, limits


def club_roles(n: int, options: dict[str, Any]) -> list[Role]:
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
    # CLUB-Q14: the nomination-only turn of a player with three fouls
    timing_limits=limits("speech", "defence", "last_word", "vote", "night", "meeting",
                         silenced=(5, 60)),
)
