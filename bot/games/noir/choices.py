"""What a NOIR draft may take next: pure functions of the state, the player's
:class:`engine.noir.LegalActions` and his draft (``drafting.py``).  The menus offer exactly
these and the codec accepts exactly these, so a button never offers what the engine refuses
and a forged one is refused before the engine sees it (NOIR-Q22)."""

from __future__ import annotations

from typing import Any

from engine.noir import LegalActions, NoirState, chain_links

#: the sub-views of the menu (``Act(a="o", t=index)``); index 0 is the menu itself
VIEWS = ("", "shift", "collapse", "accuse", "kill", "swap", "bomb", "det", "shoot", "move",
         "autopsy", "int", "protect", "unprotect", "prof")
#: views whose cells go straight into one command: view -> LegalActions field
DIRECT = {"kill": "kill", "shoot": "shoot", "bomb": "place_bomb", "autopsy": "autopsy",
          "protect": "protect", "unprotect": "unprotect"}
#: the token kinds the Sniper may move (``Act(a="m", t=index)``)
TOKEN_KINDS = ("bomb", "threat", "shield")
LINES = ("row", "column")


def offered(la: LegalActions, view: str) -> bool:
    """Whether the menu offers ``view`` now."""
    if view == "shift":
        return bool(la.shifts)
    if view in DIRECT:
        return bool(getattr(la, DIRECT[view]))
    field = {"collapse": "collapse", "accuse": "accuse", "swap": "swap", "det": "detonate",
             "move": "move_token", "int": "interrogate", "prof": "profile"}.get(view)
    return bool(field and getattr(la, field))


def cells(st: NoirState, la: LegalActions, d: dict[str, Any]) -> tuple[set[int], set[int]]:
    """(the suspects pickable on the grid now, the ones already picked) for draft ``d``;
    two empty sets when the draft shows no grid."""
    k = d.get("k")
    if la.step == "threats":
        picked = set(d.get("v") or [])
        room = len(picked) < la.threats_max
        return ({s for s in la.threats if s in picked or room}, picked)
    if k in DIRECT:
        return set(getattr(la, DIRECT[k])), set()
    if k == "accuse" and "t" not in d:
        return set(la.accuse), set()  # with "self": his own suspect, to confirm (NOIR-Q24)
    if k == "swap":
        if "a" not in d:
            return {x for pair in la.swap for x in pair}, set()
        a = d["a"]
        return ({y for x, y in la.swap if x == a} | {x for x, y in la.swap if y == a}, {a})
    if k == "det":
        if "b" not in d:
            return set(la.detonate), set()
        chain = tuple(d.get("c") or ())
        return set(chain_links(st, d["b"], chain)), {d["b"], *chain}
    if k == "move" and "kind" in d:
        kind = d["kind"]
        if "src" not in d:
            return {s for kd, s, _t in la.move_token if kd == kind}, set()
        return {t for kd, s, t in la.move_token if kd == kind and s == d["src"]}, {d["src"]}
    return set(), set()


def cards(la: LegalActions, d: dict[str, Any]) -> tuple[int, ...]:
    """The cards the Detective (``int``) or the Profiler (``prof``) chooses from."""
    return la.interrogate if d.get("k") == "int" else la.profile if d.get("k") == "prof" else ()


def shift_indexes(la: LegalActions, line: str) -> list[int]:
    return sorted({i for ln, i, _b in la.shifts if ln == line})


def shift_bys(la: LegalActions, line: str, index: int) -> list[int]:
    return sorted(b for ln, i, b in la.shifts if ln == line and i == index)


def token_kinds(la: LegalActions) -> list[str]:
    present = {kd for kd, _s, _t in la.move_token}
    return [k for k in TOKEN_KINDS if k in present]


def can_detonate(st: NoirState, d: dict[str, Any]) -> bool:
    """NOIR-25, X15: the chain so far may go off (it has a link, or no neighbour is open)."""
    if d.get("k") != "det" or "b" not in d:
        return False
    chain = tuple(d.get("c") or ())
    return bool(chain) or not chain_links(st, d["b"], ())


def can_extend(st: NoirState, d: dict[str, Any]) -> bool:
    """NOIR-25, X15: the chain of draft ``d`` (a bomb picked) may take one more suspect."""
    if d.get("k") != "det" or "b" not in d:
        return False
    return bool(chain_links(st, d["b"], tuple(d.get("c") or ())))
