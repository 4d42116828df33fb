"""The forum preset's table: who plays, how many mafiosi, which optional roles (rule IDs in
docs/rules/forum.md).  Only data and checks: the rule set itself is ``engine.forum.rules.FORUM``.

Options (``settings["options"]``; unknown keys are ignored, because a chat's defaults serve every
preset):

* ``roles`` -- the optional roles in play, a list of names from :data:`OPTIONAL_ROLES`
  (FORUM-03, 33); default ``["commissar", "doctor"]`` (FORUM-X01);
* ``mafia`` -- the number of mafiosi, 0 = the default table (FORUM-04, Q02);
* ``alternate_nights`` -- the Maniac and the Putana act on odd nights from 3 (True, FORUM-Q12)
  or every night from 2 (False);
* ``announce_save`` -- the morning says "the Doctor saved someone" (FORUM-Q11);
* ``bonus_round`` -- a bonus round may be offered after the win (FORUM-56, Q23);
* ``bonus_all_roles`` -- the bonus round guesses every role, not only the Mafia (FORUM-56);
* ``warnings_to_remove`` -- warnings that remove a player, 0 = never (FORUM-Q17).
"""

from __future__ import annotations

import math
from typing import Any

from ..core.errors import BadSetup
from ..mafia.roles import Role

#: the optional roles in the order they are dealt and woken (FORUM-03, 33, 50)
OPTIONAL_ROLES: dict[str, Role] = {
    "commissar": Role.COMMISSAR, "doctor": Role.DOCTOR, "maniac": Role.MANIAC,
    "putana": Role.PUTANA, "journalist": Role.JOURNALIST, "sleepwalker": Role.SLEEPWALKER,
    "werewolf": Role.WEREWOLF, "cop": Role.COP,
}

DEFAULT_OPTIONS = {
    "roles": ["commissar", "doctor"], "mafia": 0, "alternate_nights": True,
    "announce_save": False, "bonus_round": True, "bonus_all_roles": True,
    "warnings_to_remove": 0,
}
#: FORUM-Q17: the largest warning threshold an organiser may set
MAX_WARNINGS_TO_REMOVE = 10


def default_mafia(n: int) -> int:
    """FORUM-Q02: 4..6 -> 1, 7..10 -> 2, 11..12 -> 3."""
    return 1 if n <= 6 else 2 if n <= 10 else 3


def allowed_mafia(n: int) -> tuple[int, ...]:
    """FORUM-04, Q02: every m with 3 <= (n-m)/m <= 4 (n/5 <= m <= n/4); where no whole number
    fits (6, 7, 11 players) the two neighbours."""
    lo, hi = math.ceil(n / 5), math.floor(n / 4)
    if lo <= hi:
        return tuple(range(lo, hi + 1))
    return (hi, lo)


def check_options(options: dict[str, Any]) -> None:
    """Refuse malformed forum options (:class:`BadSetup`); the table size is checked at the deal."""
    roles = options.get("roles", DEFAULT_OPTIONS["roles"])
    if not isinstance(roles, (list, tuple)) or not all(isinstance(r, str) for r in roles):
        raise BadSetup("roles must be a list of role names")
    unknown = [r for r in roles if r not in OPTIONAL_ROLES]
    if unknown:
        raise BadSetup(f"unknown optional roles {unknown}")
    if len(set(roles)) != len(roles):
        raise BadSetup("a role is listed twice")
    mafia = options.get("mafia", 0)
    if not isinstance(mafia, int) or isinstance(mafia, bool) or not 0 <= mafia <= 3:
        raise BadSetup("mafia must be 0 (the table) or 1..3")
    for key in ("alternate_nights", "announce_save", "bonus_round", "bonus_all_roles"):
        if not isinstance(options.get(key, True), bool):
            raise BadSetup(f"{key} must be true or false")
    limit = options.get("warnings_to_remove", 0)
    if not isinstance(limit, int) or isinstance(limit, bool) \
            or not 0 <= limit <= MAX_WARNINGS_TO_REMOVE:
        raise BadSetup(f"warnings_to_remove must be 0..{MAX_WARNINGS_TO_REMOVE}")


def forum_roles(n: int, options: dict[str, Any]) -> list[Role]:
    """The multiset of roles for ``n`` players (FORUM-02..04, 33, Q02, X01, X02): the mafiosi,
    the optional roles in :data:`OPTIONAL_ROLES` order, then Civilians -- at least one."""
    check_options(options)
    m = options.get("mafia") or default_mafia(n)
    if m not in allowed_mafia(n):
        raise BadSetup(f"{m} mafiosi do not fit {n} players (allowed: {allowed_mafia(n)})")
    chosen = set(options.get("roles", DEFAULT_OPTIONS["roles"]))
    specials = [role for name, role in OPTIONAL_ROLES.items() if name in chosen]
    if m + len(specials) > n - 1:
        raise BadSetup(f"{n} players cannot hold {m} mafiosi, {len(specials)} roles and a civilian")
    return [Role.MAFIA] * m + specials + [Role.CIVILIAN] * (n - m - len(specials))
