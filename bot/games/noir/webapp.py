"""NOIR's live table for the Mini App (``bot/webapp/``, docs/miniapp.md, issue 13): the board
as JSON for the page to draw as an HTML grid, and the player's taps as the DM menu's buttons.

The board is :func:`engine.noir.public_board` (the group's board, NOIR-42, Q22, Q28): the grid
with the suspects' translated short names, dead / arrested marks, bombs, threats, shields,
interrogation marks, the last action outlined, the coordinates, the score line, the turn order
with its roles, whose turn it is.  Per viewer, on the server: a playing player also gets his own
identity card (:func:`engine.noir.private_card`: his suspect, his teammates' suspects, his hand,
NOIR-05, 36) -- never anyone else's; an onlooker only the board; after the end everybody gets
every identity (the group's result names them all).

The buttons are the DM menu's own (:func:`bot.games.noir.menus.view` of the player's draft,
``drafting.py``), turned from its inline keyboard into page buttons with the same ``Act`` code,
argument and step stamp: the page offers exactly what the menu offers, and a tap goes through
the same codec (``codec.py``), so a stale tap is "out of date" and a forged one refused.  The
cell picker's legal cells become taps on the board's cells (``kind`` 'cell', ``t`` the
suspect); the picker's cells that cannot be chosen now (code ``u``) are left out."""

from __future__ import annotations

import hashlib
import html
import json
import re
from collections.abc import Sequence
from typing import Any

from engine.noir import (
    NoirState,
    PrivateCard,
    PublicBoard,
    Role,
    cell_name,
    legal_actions,
    private_card,
    public_board,
)

from ...ui.names import isolate_plain
from ..hints import Gettext
from ..spec import Viewer, act_of
from . import board as drawing
from . import choices
from .drafting import draft
from .live import NoirLive
from .menus import view as menu_view
from .names import role_name, suspect_name
from .views import last_action_line, score_line

Event = dict[str, Any]
_TAG = re.compile(r"<[^>]+>")
#: the DM picker's legend (menus.py); the page marks its cells itself
LEGEND = "⭐ you · 👥 your team · ✅ picked · ✖ dead · 🔒 arrested · «·» cannot be chosen"


def plain(text: str) -> str:
    """The menu's HTML as plain text (the page sets text, never HTML)."""
    return html.unescape(_TAG.sub("", text))


class NoirWebView:
    """NOIR's view for the page: ``table`` and ``buttons`` (the shapes in docs/miniapp.md)."""

    # --- the table -------------------------------------------------------------------------
    def table(self, _: Gettext, st: NoirState, viewer: Viewer, events: Sequence[Event],
              g: NoirLive | None = None) -> dict[str, Any]:
        """The board as ``viewer`` may see it: ``kind`` 'noir', ``grid`` rows of cells
        {s, name, cell, dead, arrested, bomb, threat, shield, asked, last} (+ ``own``/``mate``
        for a player's own and his teammates' suspects, ``picked`` for his draft's),
        ``columns`` letters, ``score``, ``order`` [{name, role, current, me, away}], ``turn``
        (whose turn, in words), ``last`` (the last action, in words), ``paused``, ``window``,
        ``outcome``/``winner``; ``me`` (a playing player's identity card) or ``identities``
        (everyone's, after the end); ``prompt`` (his menu's text) while he has something to do.
        """
        b = public_board(st)
        names = {s: suspect_name(_, s) for row in b.grid for s in row}
        last = drawing.outlined(b)
        marks = {"dead": set(b.dead), "arrested": set(b.arrested), "bomb": set(b.bombs),
                 "threat": set(b.threats), "shield": set(b.shields),
                 "asked": set(b.interrogated)}
        playing = viewer.kind == "player" and viewer.user_id in st.players and not st.over
        card = private_card(st, viewer.user_id) if playing else None
        own = card.suspect if card is not None else None
        mates = {m[2] for m in card.teammates if m[2] is not None} if card is not None else set()
        picked: set[int] = set()
        if playing and g is not None:
            la = legal_actions(st, viewer.user_id)
            if la.any:
                picked = choices.cells(st, la, draft(g, viewer.user_id))[1]
        grid = []
        for r, row in enumerate(b.grid):
            line = []
            for c, s in enumerate(row):
                cell: dict[str, Any] = {"s": s, "name": names[s], "cell": cell_name(r, c)}
                for key, members in marks.items():
                    if s in members:
                        cell[key] = True
                if s in last:
                    cell["last"] = True
                if s == own:
                    cell["own"] = True
                elif s in mates:
                    cell["mate"] = True
                if s in picked:
                    cell["picked"] = True
                line.append(cell)
            grid.append(line)
        out: dict[str, Any] = {
            "kind": "noir", "phase": st.phase, "phase_name": self.phase_name(_, st),
            "over": st.over, "grid": grid,
            "columns": [cell_name(0, c)[0] for c in range(len(b.grid[0]) if b.grid else 0)],
            "score": score_line(_, b) if b.order else None,
            "arrests": [b.arrests, b.arrests_needed], "points": [b.points, b.points_needed],
            "order": [{"name": st.players[u].name, "role": self.role_json(_, role),
                       "current": u == b.current, "me": u == viewer.user_id,
                       "away": st.players[u].auto_pass}
                      for u, role in b.order],
            "turn": self.turn_line(_, st, b), "last": last_action_line(_, b),
            "paused": {"text": _("⏸ Paused")} if b.paused else None,
            "window": ({"suspect": b.window[0], "name": suspect_name(_, b.window[0])}
                       if b.window else None),
            "outcome": b.outcome, "winner": self.outcome_text(_, b.outcome),
            "players": [],  # the mafia page's seats: NOIR has none
        }
        if card is not None:
            out["me"] = self.card_json(_, st, card)
            if g is not None:
                text, markup = menu_view(_, st, viewer.user_id, draft(g, viewer.user_id), g.id)
                if markup is not None:  # his menu's text, without the DM picker's legend
                    legend = plain(_(LEGEND))
                    out["prompt"] = "\n".join(line for line in plain(text).splitlines()
                                              if line != legend)
        if st.phase == "ended":
            out["identities"] = [self.who(_, st, p.user_id, p.role.value, p.identity)
                                 for p in st.players.values() if p.role is not None]
        return out

    @staticmethod
    def role_json(_: Gettext, role: str) -> dict[str, Any]:
        return {"id": role, "name": role_name(_, role), "team": Role(role).team.value}

    def who(self, _: Gettext, st: NoirState, uid: int, role: str, suspect: int | None
            ) -> dict[str, Any]:
        """A player, his role and his suspect (its cell while it is on the grid)."""
        out: dict[str, Any] = {"name": st.players[uid].name, "role": self.role_json(_, role),
                               "suspect": None}
        if suspect is not None:
            out["suspect"] = {"s": suspect, "name": suspect_name(_, suspect),
                              "cell": self.cell_of(st, suspect)}
        return out

    def card_json(self, _: Gettext, st: NoirState, card: PrivateCard) -> dict[str, Any]:
        """A player's own identity card (NOIR-05, 36): his role and suspect, his teammates'
        suspects, the Profiler's hand."""
        me = self.who(_, st, card.user_id, card.role, card.suspect)
        me["mates"] = [self.who(_, st, u, role, s) for u, role, s in card.teammates]
        me["hand"] = [{"s": s, "name": suspect_name(_, s), "cell": self.cell_of(st, s)}
                      for s in card.hand]
        return me

    @staticmethod
    def cell_of(st: NoirState, suspect: int) -> str | None:
        for r, row in enumerate(st.grid):
            if suspect in row:
                return cell_name(r, row.index(suspect))
        return None

    @staticmethod
    def phase_name(_: Gettext, st: NoirState) -> str:
        if st.phase == "lobby":
            return _("Lobby")
        if st.over:
            return _("The game is over.")
        return "NOIR"

    @staticmethod
    def outcome_text(_: Gettext, outcome: str | None) -> str | None:
        return {"agents": _("The agents win."), "mafia": _("The mafia wins."),
                "draw": _("A draw: both thresholds at once.")}.get(outcome or "")

    @staticmethod
    def turn_line(_: Gettext, st: NoirState, b: PublicBoard) -> str | None:
        """Whose turn it is (or the Suit's window), without the seconds (the page counts)."""
        if b.outcome or b.current is None or st.over:
            return None
        if b.window is not None:
            return _("The Suit may cancel the kill of {suspect}.").format(
                suspect=suspect_name(_, b.window[0]))
        return _("{name}'s turn.").format(name=isolate_plain(st.players[b.current].name))

    # --- the buttons -----------------------------------------------------------------------
    def buttons(self, _: Gettext, st: NoirState, viewer: Viewer, g: NoirLive | None = None
                ) -> list[dict[str, Any]]:
        """The DM menu's buttons of ``viewer``'s current draft as page buttons [{a, t, s, d,
        label, kind}] (``d``: :meth:`draft_tag`): ``kind`` 'cell' for a legal cell of the
        picker (``t``: the suspect), 'back' for «Back», 'turn' for the rest; «I'm back»
        ('control', ``s`` 0) for a player whose turns pass by themselves (NOIR-Q21)."""
        p = st.players.get(viewer.user_id)
        if g is None or p is None or viewer.kind != "player" or st.phase != "play":
            return []
        out: list[dict[str, Any]] = []
        d = draft(g, viewer.user_id)
        tag = self.draft_tag(g, viewer.user_id)
        _text, markup = menu_view(_, st, viewer.user_id, d, g.id)
        grid = [set(row) for row in st.grid]
        for row in markup.inline_keyboard if markup is not None else ():
            acts = [act_of(btn) for btn in row]
            picker = all(a.a in ("c", "u") for a in acts) and {a.t for a in acts} in grid
            for btn, act in zip(row, acts, strict=True):
                if act.a == "u":
                    continue  # a cell that cannot be chosen now: drawn, not tappable
                kind = "cell" if picker else "back" if act.a == "b" else "turn"
                label = suspect_name(_, act.t) if picker else btn.text
                out.append({"a": act.a, "t": act.t, "s": act.s, "d": tag, "label": label,
                            "kind": kind})
        if p.auto_pass:
            out.append({"a": "z", "t": 0, "s": 0, "label": _("👋 I'm back"), "kind": "control"})
        return out

    @staticmethod
    def draft_tag(g: NoirLive, uid: int) -> str:
        """A short tag of ``uid``'s draft: the page sends it back with a tap, and a tap made
        on another draft than the one it was drawn for (the DM menu moved on meanwhile: the
        same step stamp, another sub-view) is out of date instead of meaning something else."""
        raw = json.dumps(draft(g, uid), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(raw.encode()).hexdigest()[:10]


VIEW = NoirWebView()

__all__ = ["NoirWebView", "VIEW", "plain"]
