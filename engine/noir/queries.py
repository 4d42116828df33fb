"""What a player may do now, exactly: :func:`legal_actions` feeds the bot's menus and cell
pickers, :func:`chain_links` the link-by-link detonation draft (re-exported from mafia)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .agents import (
    autopsy_targets,
    interrogation_cards,
    profile_cards,
    protect_targets,
    unprotect_targets,
)
from .common import accuse_targets, legal_shifts
from .grid import collapse_options
from .mafia import (
    bomb_targets,
    can_change_identity,
    chain_links,
    kill_targets,
    shot_targets,
    swap_pairs,
    token_moves,
)
from .rules import Role
from .state import NoirState
from .turns import threat_cells

__all__ = ["LegalActions", "legal_actions", "chain_links"]


@dataclass(frozen=True)
class LegalActions:
    """Everything ``player`` may send now; empty tuples mean "not offered".

    ``step``: 'act' | 'threats' (the Psycho picks 1..``threats_max`` of ``threats``) | 'cancel'
    (the Suit may answer) | '' (nothing).  Suspects are ints; ``shifts`` (line, index, by);
    ``collapse`` (axis, end); ``swap`` pairs; ``move_token`` (kind, source, dest);
    ``interrogate`` the cards the Detective chooses from; ``profile`` the playable hand."""

    player: int
    step: str = ""
    shifts: tuple[tuple[str, int, int], ...] = ()
    collapse: tuple[tuple[str, str], ...] = ()
    accuse: tuple[int, ...] = ()
    kill: tuple[int, ...] = ()
    change_identity: bool = False
    swap: tuple[tuple[int, int], ...] = ()
    threats: tuple[int, ...] = ()
    threats_max: int = 0
    place_bomb: tuple[int, ...] = ()
    detonate: tuple[int, ...] = ()
    shoot: tuple[int, ...] = ()
    move_token: tuple[tuple[str, int, int], ...] = ()
    autopsy: tuple[int, ...] = ()
    interrogate: tuple[int, ...] = ()
    protect: tuple[int, ...] = ()
    unprotect: tuple[int, ...] = ()
    profile: tuple[int, ...] = ()
    cancel: bool = False

    @property
    def any(self) -> bool:
        return self.step != ""


def legal_actions(st: NoirState, player: int) -> LegalActions:
    """The exact legal actions of ``player`` (a user id) in ``st``; nothing when paused, over,
    or not his turn (except the Suit's answer inside a window he may cancel in)."""
    p = st.players.get(player)
    if p is None or st.phase != "play" or st.paused is not None:
        return LegalActions(player=player)
    if st.window is not None:
        ok = p.role == Role.SUIT and st.window.suit_can
        return LegalActions(player=player, step="cancel" if ok else "", cancel=ok)
    if st.current != player:
        return LegalActions(player=player)
    if st.step == "threats":
        cells = tuple(threat_cells(st, p))
        return LegalActions(player=player, step="threats", threats=cells,
                            threats_max=min(3, len(cells)))
    role = p.role
    kw: dict[str, Any] = {"shifts": tuple(legal_shifts(st, p)), "collapse": tuple(collapse_options(st)),
                "accuse": tuple(accuse_targets(st, p))}
    if role == Role.KILLER:
        kw["kill"] = tuple(kill_targets(st, p))
        kw["change_identity"] = can_change_identity(st)
    elif role == Role.PSYCHO:
        kw["swap"] = tuple(swap_pairs(st, p))
    elif role == Role.BOMBER:
        kw["place_bomb"] = tuple(bomb_targets(st, p))
        kw["detonate"] = tuple(b for row in st.grid for b in row if b in st.bombs)
    elif role == Role.SNIPER:
        kw["shoot"] = tuple(shot_targets(st, p))
        kw["move_token"] = tuple(token_moves(st))
    elif role == Role.UNDERCOVER:
        kw["change_identity"] = can_change_identity(st)
        kw["autopsy"] = tuple(autopsy_targets(st, p))
    elif role == Role.DETECTIVE:
        kw["interrogate"] = tuple(interrogation_cards(st))
    elif role == Role.SUIT:
        kw["protect"] = tuple(protect_targets(st, p))
        kw["unprotect"] = tuple(unprotect_targets(st))
    elif role == Role.PROFILER:
        kw["profile"] = tuple(profile_cards(st))
    return LegalActions(player=player, step="act", **kw)
