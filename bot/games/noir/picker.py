"""NOIR's cell picker (NOIR-Q22): an inline keyboard with one button per cell of the current
grid, row by row (≤ 7 a row, ≤ 49 cells + one row of controls, under Telegram's 100 buttons).

Every cell is a button: a legal one carries ``Act(a="c", t=suspect)``, any other
``Act(a="u", t=suspect)`` which is answered "You can't choose that cell now." and changes
nothing.  A button reads "⭐B3 Cobra": the marks, the cell, the suspect's whole name (issue 20,
NOIR-X33: no name is longer than ``WIDTH`` letters in any catalogue, ``names.py``, so none is
cut; the cell comes first and names the suspect even where a phone's client cuts the text).
Marks: ⭐ the player's own suspect, 👥 a teammate's, ✅ already picked in this draft, ✖ dead,
🔒 arrested; a cell that cannot be picked now starts with "·"."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from aiogram.types import InlineKeyboardButton

from engine.noir import NoirState, cell_name

from ...ui.callbacks import Act
from .names import suspect_name

#: the longest suspect name, in letters, a button is meant for (phones show 7 buttons a row);
#: every name of every catalogue fits (NOIR-X33, tested), the label never cuts one
WIDTH = 5
OWN, MATE, PICKED, DEAD, ARRESTED, NOPE = "⭐", "👥", "✅", "✖", "🔒", "·"


def cell_label(_: Callable[[str], str], st: NoirState, suspect: int, *, own: int | None,
               mates: set[int], picked: set[int], legal: bool, cell: str) -> str:
    """One cell's button text: its marks, its ``cell`` ("B3"), then the suspect's whole name."""
    mark = ""
    if suspect in picked:
        mark = PICKED
    elif suspect == own:
        mark = OWN
    elif suspect in mates:
        mark = MATE
    if suspect in st.dead:
        mark += DEAD
    elif suspect in st.arrested:
        mark += ARRESTED
    name = f"{cell} {suspect_name(_, suspect)}"
    return f"{mark}{name}" if legal else f"{NOPE}{mark}{name}"


def cell_rows(_: Callable[[str], str], st: NoirState, uid: int, game_id: int, seq: int,
              legal: Iterable[int], picked: Iterable[int] = ()) -> list[list[InlineKeyboardButton]]:
    """The grid as rows of buttons for player ``uid``; ``legal``: the suspects he may pick now,
    ``picked``: the ones this draft already holds (shown ✅; pickable again only if legal)."""
    legal, picked = set(legal), set(picked)
    me = st.players[uid]
    mates = {p.identity for p in st.players.values()
             if p.team == me.team and p is not me and p.identity is not None}
    rows = []
    for r, line in enumerate(st.grid):
        row = []
        for c, s in enumerate(line):
            ok = s in legal
            text = cell_label(_, st, s, own=me.identity, mates=mates, picked=picked, legal=ok,
                              cell=cell_name(r, c))
            data = Act(g=game_id, s=seq, a="c" if ok else "u", t=s).pack()
            row.append(InlineKeyboardButton(text=text, callback_data=data))
        rows.append(row)
    return rows
