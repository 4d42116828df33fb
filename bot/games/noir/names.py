"""The suspects' names (the engine numbers them 0 .. n²-1; NOIR-X24) and the roles' names.

Short on purpose: a name fits a cell of the board picture and of the text grid (≤ 7 letters).
The names are noir nicknames, not first names (a player's own name must not look like a
suspect's in a news line), and tell apart at a glance in both languages (issue 20): no two
share their first 3 letters, none is an anagram of another's first 5 letters (Клара / Карла),
and no two differ by one letter, so the picker's short form names one suspect.  They are
not stored: the log names suspects by number (NOIR-X24), so an old game replays with these
names."""

from __future__ import annotations

from collections.abc import Callable

from ...ui.i18n import N_

#: suspect id -> its name (msgid, English); 49 = the 7x7 grid of 8 players
SUSPECTS: tuple[str, ...] = (
    N_("Ace"), N_("Ashes"), N_("Bishop"), N_("Bosun"), N_("Brass"), N_("Bullet"), N_("Cipher"),
    N_("Cobra"), N_("Cricket"), N_("Dagger"), N_("Dandy"), N_("Dice"), N_("Doc"), N_("Echo"),
    N_("Fedora"), N_("Fixer"), N_("Flint"), N_("Fox"), N_("Ghost"), N_("Hawk"), N_("Hustler"),
    N_("Jazz"), N_("Joker"), N_("Judge"), N_("Lantern"), N_("Madame"), N_("Major"), N_("Mask"),
    N_("Mirror"), N_("Monk"), N_("Needle"), N_("Neon"), N_("Onyx"), N_("Owl"), N_("Parson"),
    N_("Pike"), N_("Prince"), N_("Raven"), N_("Razor"), N_("Saint"), N_("Scar"), N_("Shadow"),
    N_("Silk"), N_("Smoke"), N_("Swan"), N_("Tailor"), N_("Trigger"), N_("Whisky"), N_("Widow"),
)

ROLES: dict[str, str] = {
    "killer": N_("Killer"), "psycho": N_("Psycho"), "bomber": N_("Bomber"),
    "sniper": N_("Sniper"), "undercover": N_("Undercover"), "detective": N_("Detective"),
    "suit": N_("Suit"), "profiler": N_("Profiler"),
}


def suspect_name(_: Callable[[str], str], suspect: int) -> str:
    """The translated name of ``suspect``. Raises IndexError for an id no grid has."""
    return _(SUSPECTS[suspect])


def role_name(_: Callable[[str], str], role: str) -> str:
    """The translated name of a role value ("killer" ...). Raises KeyError for an unknown one."""
    return _(ROLES[role])
