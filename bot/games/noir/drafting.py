"""NOIR's step stamp and drafts (issue 9): what binds a button to the step it was offered in,
and the multi-part choices kept until they become one engine command.

The **stamp** (``Act.s`` of every NOIR button but «I'm back») names one step of one turn::

    turn_seq * 4 + 0     the player's step 'act' (the Suit: before his shield step)
    turn_seq * 4 + 1     the Suit's step 'act' after his shield step (NOIR-33)
    turn_seq * 4 + 2     the Psycho's step 'threats' (NOIR-22)
    -(turn_seq * 64 + suspect + 1)   the Suit's cancel window for ``suspect`` (NOIR-34, Q11)

A pause or another player's «I'm back» leaves it unchanged, so a menu stays valid across them;
a press with any other stamp is out of date.  Two windows of one turn are for two different
suspects (a chain link or a threatened neighbour dies once), so they never share a stamp.

A **draft** is a dict (JSON) in ``games.ui["drafts"]["noir:<user>"]`` through
:mod:`bot.ui.drafts`, stamped with the same number, so it reads as empty once the step moved on and
survives a restart (``GameService.persist_ui_soon`` writes it)::

    {"k": "shift"} -> {"k": "shift", "line": "row"} -> {"k": "shift", "line": "row", "i": 2}
    {"k": "swap", "a": 17}              the Psycho's first suspect
    {"k": "threats", "v": [3, 9]}       the Psycho's threats so far
    {"k": "det", "b": 12, "c": [13]}    the Bomber's bomb and the chain so far
    {"k": "move", "kind": "bomb", "src": 4}
    {"k": "accuse", "t": 8}             the target, waiting for the role (strict accusation)
    {"k": "kill"} / "shoot" / "bomb" / "autopsy" / "protect" / "unprotect" / "accuse"
    {"k": "collapse"} / "int" / "prof"  a list of options to pick from
"""

from __future__ import annotations

from typing import Any

from engine.noir import NoirState

from ...ui import drafts
from .live import NoirLive


def stamp(st: NoirState) -> int:
    """The stamp of the step ``st`` waits for (see the module docstring)."""
    if st.window is not None:
        return -(st.turn_seq * 64 + st.window.suspect + 1)
    sub = 2 if st.step == "threats" else 1 if st.token_used else 0
    return st.turn_seq * 4 + sub


def _key(uid: int) -> str:
    return f"noir:{uid}"


def draft(g: NoirLive, uid: int) -> dict[str, Any]:
    """``uid``'s draft of the current step (an empty dict when there is none)."""
    v = drafts.get(g, _key(uid), stamp(g.state)) if g.state is not None else None
    return dict(v) if isinstance(v, dict) else {}


def set_draft(g: NoirLive, uid: int, value: dict[str, Any] | None) -> None:
    """Store ``uid``'s draft for the current step (None or {} clears it); a game not loaded
    (``g.state`` None) has no step to draft for: nothing is stored."""
    if g.state is not None:
        drafts.put(g, _key(uid), value or None, stamp(g.state))
