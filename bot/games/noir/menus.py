"""NOIR's DM menu (NOIR-Q22, issue 9): one message per turn of a player, edited in place as he
goes from the menu of his legal actions to a sub-view (a cell picker, a line, a direction, two
cards...) and finally to what he did.  Pure: ``view`` is a function of the state, the player,
his draft and the deadline (the codes are listed in ``codec.py``)."""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from engine.noir import LegalActions, NoirState, Role, cell_name, legal_actions, positions

from ...ui.callbacks import Act
from . import choices
from .drafting import stamp
from .names import role_name, suspect_name
from .picker import cell_rows

Gettext = Callable[[str], str]


def _labels(_: Gettext) -> dict[str, str]:
    return {"shift": _("↔️ Shift"), "collapse": _("🧹 Collapse"), "accuse": _("☝️ Accuse"),
            "kill": _("🔪 Kill"), "swap": _("🔁 Swap"), "bomb": _("💣 Place a bomb"),
            "det": _("💥 Detonate"), "shoot": _("🎯 Shoot"), "move": _("🔀 Move a token"),
            "autopsy": _("🔬 Autopsy"), "int": _("🗂 Interrogate"), "protect": _("🛡 Protect"),
            "unprotect": _("🚫 Take a shield off"), "prof": _("🧾 Profile")}


def _prompts(_: Gettext) -> dict[str, str]:
    return {"kill": _("Whom do you kill? (an adjacent suspect)"),
            "shoot": _("Whom do you shoot? (up to 3 cells along a diagonal)"),
            "bomb": _("Where does the bomb go? (your suspect or a neighbour)"),
            "autopsy": _("Which dead neighbour do you examine?"),
            "protect": _("Whom do you protect with a shield?"),
            "unprotect": _("Which shield do you take off?"),
            "accuse": _("Whom do you accuse?")}


def where(_: Gettext, st: NoirState, suspect: int) -> str:
    """"Cobra (B3)": a suspect and his cell now (no cell once a collapse removed him)."""
    pos = positions(st).get(suspect)
    name = escape(suspect_name(_, suspect))
    return f"{name} ({cell_name(*pos)})" if pos else name


def _btn(text: str, gid: int, seq: int, code: str, t: int = 0) -> InlineKeyboardButton:
    return InlineKeyboardButton(text=text, callback_data=Act(g=gid, s=seq, a=code, t=t).pack())


def _back(_: Gettext, gid: int, seq: int) -> list[InlineKeyboardButton]:
    return [_btn(_("⬅️ Back"), gid, seq, "b")]


def header(_: Gettext, st: NoirState, uid: int, until: str | None) -> str:
    p = st.players[uid]
    assert p.role is not None  # every seated player has his role from the start (NOIR-02)
    head = _("🎲 <b>Your turn</b> — {role}.").format(role=role_name(_, p.role.value))
    if until:
        head += " " + _("Until {time}.").format(time=until)
    if p.identity is not None:
        head += "\n" + _("You are {suspect}.").format(suspect=where(_, st, p.identity))
    return head


def view(_: Gettext, st: NoirState, uid: int, d: dict[str, Any], gid: int,
         until: str | None = None) -> tuple[str, InlineKeyboardMarkup | None]:
    """The menu message of player ``uid`` for his draft ``d``: (HTML text, keyboard); the
    keyboard is None when he has nothing to do now."""
    la = legal_actions(st, uid)
    seq = stamp(st)
    if la.step == "cancel":
        w = st.window
        assert w is not None  # the step 'cancel' is the Suit's open window (NOIR-34)
        text = _("🛡 The shielded {suspect} is about to die. You are in line with him: cancel "
                 "the kill? The window closes by itself; your last answer counts.").format(
            suspect=where(_, st, w.suspect))
        if until:
            text += " " + _("Until {time}.").format(time=until)
        answer = _("Your answer now: cancel.") if w.answer else _("Your answer now: let it happen.")
        answers = [[_btn(_("🛡 Cancel the kill"), gid, seq, "x", 1),
                 _btn(_("Let it happen"), gid, seq, "x", 0)]]
        return text + "\n" + answer, InlineKeyboardMarkup(inline_keyboard=answers)
    if not la.any:
        return "", None
    text = header(_, st, uid, until)
    legend = _("⭐ you · 👥 your team · ✅ picked · ✖ dead · 🔒 arrested · «·» cannot be chosen")
    if la.step == "threats":
        picked = list(d.get("v") or [])
        legal, chosen = choices.cells(st, la, d)
        text += "\n" + _("Place 1 to {n} threats (up to 3 cells in a straight line), then "
                         "«Done».").format(n=la.threats_max)
        if picked:
            text += "\n" + _("Picked: {list}.").format(
                list=", ".join(where(_, st, s) for s in picked))
        cells = cell_rows(_, st, uid, gid, seq, legal, chosen)
        if picked:
            cells.append([_btn(_("✅ Done"), gid, seq, "d")])
        return text + "\n" + legend, InlineKeyboardMarkup(inline_keyboard=cells)
    k = d.get("k", "")
    if not k:
        return _menu(_, st, uid, la, gid, seq, text)
    rows: list[list[InlineKeyboardButton]] = []
    legal, chosen = choices.cells(st, la, d)
    if k == "shift":
        text += "\n" + _shift_rows(_, st, la, d, gid, seq, rows)
    elif k == "collapse":
        text += "\n" + _("Which dead suspects go?")
        names: dict[tuple[str, ...], str] = {("columns", "first"): _("The topmost dead of each column"),
                 ("columns", "last"): _("The bottommost dead of each column"),
                 ("rows", "first"): _("The leftmost dead of each row"),
                 ("rows", "last"): _("The rightmost dead of each row")}
        for i, opt in enumerate(la.collapse):
            rows.append([_btn(names.get(tuple(opt), str(opt)), gid, seq, "k", i)])
    elif k in ("int", "prof"):
        text += "\n" + (_("Two cards: keep one (it is revealed), the other goes under the deck.")
                        if k == "int" else _("Play one card of your hand on its suspect."))
        rows.append([_btn(where(_, st, c), gid, seq, "c", c) for c in choices.cards(la, d)])
    elif k == "accuse" and "self" in d:
        text += "\n" + _("Accuse your own suspect, {suspect}? It is allowed but arrests nobody, "
                         "and everyone sees whom you named.").format(suspect=where(_, st, d["self"]))
        rows.append([_btn(_("☝️ Yes, accuse"), gid, seq, "c", d["self"])])
    elif k == "accuse" and "t" in d:
        text += "\n" + _("You accuse {suspect}. Which role do you name?").format(
            suspect=where(_, st, d["t"]))
        mafia = [r for r in st.table.roles if r.team.value == "mafia"]
        rows.append([_btn(role_name(_, r.value), gid, seq, "r", i) for i, r in enumerate(mafia)])
    elif k == "move" and "kind" not in d:
        text += "\n" + _("Which kind of token do you move?")
        kinds = {"bomb": _("💣 Bomb"), "threat": _("❗ Threat"), "shield": _("🛡 Shield")}
        rows.append([_btn(kinds[kd], gid, seq, "m", choices.TOKEN_KINDS.index(kd))
                     for kd in choices.token_kinds(la)])
    else:
        text += "\n" + _prompt(_, st, k, d)
        rows.extend(cell_rows(_, st, uid, gid, seq, legal, chosen))
        if choices.can_detonate(st, d):
            rows.append([_btn(_("💥 Detonate"), gid, seq, "d")])
        text += "\n" + legend
    rows.append(_back(_, gid, seq))
    return text, InlineKeyboardMarkup(inline_keyboard=rows)


def _prompt(_: Gettext, st: NoirState, k: str, d: dict[str, Any]) -> str:
    if k == "swap":
        if "a" in d:
            return _("Swap {suspect} with which neighbour?").format(suspect=where(_, st, d["a"]))
        return _("Pick the first of two neighbours to swap.")
    if k == "det":
        if "b" not in d:
            return _("Which bomb goes off?")
        links = d.get("c") or ()
        blast = " → ".join([where(_, st, d["b"]), *(where(_, st, s) for s in links)])
        return _detonate_prompt(_, st, d).format(chain=blast)
    if k == "move":
        if "src" in d:
            return _("Move it to which neighbour?")
        return _("Which token do you move?")
    return _prompts(_).get(k, "")


def _detonate_prompt(_: Gettext, st: NoirState, d: dict[str, Any]) -> str:
    """The chain's prompt says exactly what its buttons allow (NOIR-25, X15): a neighbour is
    required while none is taken and one is open; «Detonate» only once it may go off."""
    if choices.can_detonate(st, d):
        return (_("Blast: {chain}. Pick the next suspect the blast takes, or «Detonate».")
                if choices.can_extend(st, d)
                else _("Blast: {chain}. It goes no further: press «Detonate»."))
    return _("Blast: {chain}. Pick the neighbour the blast takes.")


def _menu(_: Gettext, st: NoirState, uid: int, la: LegalActions, gid: int, seq: int, text: str
          ) -> tuple[str, InlineKeyboardMarkup]:
    labels = _labels(_)
    buttons = [_btn(labels[v], gid, seq, "o", i) for i, v in enumerate(choices.VIEWS)
               if v and choices.offered(la, v)]
    if la.change_identity:
        buttons.append(_btn(_("🎭 Change identity"), gid, seq, "n"))
    if st.players[uid].role == Role.SUIT and (la.protect or la.unprotect):
        text += "\n" + _("First you may place or take off one shield; your turn goes on.")
    text += "\n" + _("Choose your action:")
    rows = [buttons[i:i + 2] for i in range(0, len(buttons), 2)]
    return text, InlineKeyboardMarkup(inline_keyboard=rows)


def _shift_rows(_: Gettext, st: NoirState, la: LegalActions, d: dict[str, Any], gid: int,
                seq: int, rows: list[list[InlineKeyboardButton]]) -> str:
    line = d.get("line")
    if line is None:
        rows.append([_btn(_("A row"), gid, seq, "l", 0), _btn(_("A column"), gid, seq, "l", 1)]
                    if choices.shift_indexes(la, "row") and choices.shift_indexes(la, "column")
                    else [_btn(_("A row") if choices.shift_indexes(la, "row") else _("A column"),
                               gid, seq, "l", 0 if choices.shift_indexes(la, "row") else 1)])
        return _("Shift a row or a column?")
    if "i" not in d:
        idx = choices.shift_indexes(la, line)
        name = (lambda i: str(i + 1)) if line == "row" else (lambda i: chr(65 + i))
        for i in range(0, len(idx), 7):
            rows.append([_btn(name(x), gid, seq, "i", x) for x in idx[i:i + 7]])
        return _("Which row?") if line == "row" else _("Which column?")
    i = d["i"]
    arrows = {"row": {-2: "⬅️⬅️ 2", -1: "⬅️ 1", 1: "➡️ 1", 2: "➡️➡️ 2"},
              "column": {-2: "⬆️⬆️ 2", -1: "⬆️ 1", 1: "⬇️ 1", 2: "⬇️⬇️ 2"}}[line]
    rows.append([_btn(arrows[b], gid, seq, "y", b + 2) for b in choices.shift_bys(la, line, i)])
    members = st.grid[i] if line == "row" else [r[i] for r in st.grid]
    what = (_("Row {n}") if line == "row" else _("Column {n}")).format(
        n=str(i + 1) if line == "row" else chr(65 + i))
    return _("{line}: {names}. Which way?").format(
        line=what, names=", ".join(escape(suspect_name(_, s)) for s in members))
