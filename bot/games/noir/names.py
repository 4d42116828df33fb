"""The suspects' names (the engine numbers them 0 .. n²-1; NOIR-X24) and the roles' names.

Short on purpose (NOIR-X33): every name has at most ``picker.WIDTH`` (5) letters in every
catalogue, so a picker button shows it whole ("⭐B3 Cobra", never "Кинжа") and a cell of the
board picture and of the text grid holds it.  The names are noir nicknames, not first names (a
player's own name must not look like a suspect's in a news line), and tell apart at a glance in
both languages (issue 20): no two share their first 3 letters, none is an anagram of another,
and no two differ by one letter.  They are not stored: the log names suspects by number
(NOIR-X24), so an old game replays with these names."""

from __future__ import annotations

from collections.abc import Callable

from ...ui.i18n import N_

#: suspect id -> its name (msgid, English); 49 = the 7x7 grid of 8 players
SUSPECTS: tuple[str, ...] = (
    N_("Ace"), N_("Ashes"), N_("Baron"), N_("Blues"), N_("Bull"), N_("Cobra"), N_("Count"),
    N_("Dame"), N_("Dandy"), N_("Dice"), N_("Doc"), N_("Echo"), N_("Fox"), N_("Gin"), N_("Hyena"),
    N_("Jazz"), N_("Judge"), N_("Key"), N_("Knife"), N_("Lamp"), N_("Lefty"), N_("Major"),
    N_("Mask"), N_("Mist"), N_("Mole"), N_("Monk"), N_("Moon"), N_("Mute"), N_("Neon"),
    N_("Noose"), N_("Onyx"), N_("Owl"), N_("Pawn"), N_("Pike"), N_("Rat"), N_("Raven"), N_("Rook"),
    N_("Scar"), N_("Shark"), N_("Silk"), N_("Slim"), N_("Smoke"), N_("Steel"), N_("Storm"),
    N_("Tango"), N_("Tiger"), N_("Torch"), N_("Widow"), N_("Wolf"),
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
