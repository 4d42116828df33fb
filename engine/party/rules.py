"""The party preset's rule set (rule IDs in docs/rules/party.md): 5..12 players, the Commissar
and the Doctor, defences before the vote, readiness gates."""

from __future__ import annotations

from typing import Any

from ..mafia.roles import Role
from ..mafia.rules import RuleSet, Tempo


def party_roles(n: int, options: dict[str, Any]) -> list[Role]:
    """PARTY-Q01: mafia = n // 3; Commissar always; Doctor unless switched off."""
    roles = [Role.MAFIA] * (n // 3) + [Role.COMMISSAR]
    if options.get("doctor", True):
        roles.append(Role.DOCTOR)
    roles += [Role.CIVILIAN] * (n - len(roles))
    return roles


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
