"""The suspects' names (the engine numbers them 0 .. n²-1; NOIR-X24) and the roles' names.

Short on purpose: a name fits a cell of the board picture and of the text grid (≤ 7 letters)."""

from __future__ import annotations

from collections.abc import Callable

from ...ui.i18n import N_

#: suspect id -> its name (msgid); 49 = the 7x7 grid of 8 players
SUSPECTS: tuple[str, ...] = (
    N_("Abel"), N_("Ada"), N_("Alma"), N_("Amos"), N_("Anna"), N_("Arno"), N_("Bella"),
    N_("Boris"), N_("Carla"), N_("Clara"), N_("Cyril"), N_("Dana"), N_("Dora"), N_("Edgar"),
    N_("Elsa"), N_("Emil"), N_("Erna"), N_("Felix"), N_("Fanny"), N_("Greta"), N_("Gus"),
    N_("Hanna"), N_("Hugo"), N_("Ida"), N_("Igor"), N_("Inga"), N_("Ivan"), N_("Jakob"),
    N_("Karl"), N_("Klara"), N_("Lena"), N_("Leon"), N_("Lola"), N_("Mark"), N_("Mila"),
    N_("Nina"), N_("Oscar"), N_("Olga"), N_("Paul"), N_("Rosa"), N_("Roman"), N_("Sara"),
    N_("Simon"), N_("Tina"), N_("Tom"), N_("Vera"), N_("Victor"), N_("Yana"), N_("Zoya"),
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
