"""How the forum preset names a card in its messages."""

from __future__ import annotations

from engine import Role

from ...ui.texts import ROLE_ICONS, ROLE_NAMES
from ..hints import Gettext


def card(_: Gettext, role: Role) -> str:
    """"🕶 Mafia": the role's icon and translated name."""
    return f"{ROLE_ICONS[role]} {_(ROLE_NAMES[role])}"
