"""NOIR's button codec (issue 9): every press of a NOIR DM button, turned into a draft step or
into ONE engine command.

Callback data is :class:`bot.ui.callbacks.Act` ``(g, s, a, t)``: ``g`` the game, ``s`` the stamp of
the step the button was offered in (``drafting.stamp``: the turn and its step, or the Suit's
window), ``a`` the code, ``t`` its argument.  A press whose ``s`` is not the current stamp, or
from a player with nothing to do now, is answered "This button is out of date." and changes
nothing; a forged argument (a cell, card, line or option not legal now: ``choices.py``) gets a
clear refusal and changes nothing.

====  ================================  ==============================================
code  meaning                           ``t``
====  ================================  ==============================================
o     open a sub-view of the menu       index in ``choices.VIEWS`` (1 shift .. 14 prof)
b     back to the menu (draft dropped)  0
c     a cell of the picker, or a card   the suspect (0..48); his own suspect, accused,
      (also: yes to accusing himself)   asks first (NOIR-Q24) and a second ``c`` confirms
u     a cell that cannot be chosen now  the suspect (answered, nothing changes)
l     shift: the line                   0 row, 1 column
i     shift: which row / column         its index from 0 (row 1 / column A = 0)
y     shift: direction and distance     ``by + 2`` (0 = -2, 1 = -1, 3 = +1, 4 = +2)
k     collapse                          index in ``LegalActions.collapse``
r     strict accusation: the role       index among the table's mafia roles
d     done: the Psycho's threats, or    0
      the Bomber's detonation
n     change identity                   0
m     Sniper: the kind of token         0 bomb, 1 threat, 2 shield
x     the Suit's answer in a window     1 cancel the kill, 0 let it happen
z     «I'm back» after auto-pass        0 (``s`` = 0: valid whenever)
====  ================================  ==============================================

Answers: a draft step shows no popup (the menu message is edited in place); a command "✅"
(the menu then shows what he did, without buttons); the Suit's answer "Your answer is
noted."; refusals as above, or the engine's (``bot.ui.texts.ERRORS``, ``noir_*`` codes).

The cell picker's ``c`` means what the draft waits for: the target of a kill, shot, bomb,
autopsy, shield or accusation; the Psycho's swap (first, then second) and threats (a toggle,
up to ``threats_max``); the Bomber's bomb, then each chain link (``chain_links``); the Sniper's
token source, then its destination; the Detective's kept card; the Profiler's card.
"""

from __future__ import annotations

from typing import Any

from engine.noir import (
    Accuse,
    AnswerCancel,
    ChangeIdentity,
    Collapse,
    Detonate,
    Interrogate,
    LegalActions,
    MoveToken,
    NoirState,
    PlaceThreats,
    Profile,
    ReturnToGame,
    Shift,
    Swap,
    legal_actions,
)
from engine.noir import commands as C
from engine.noir.errors import WrongPhase

from ..hints import Gettext
from ..spec import Press
from . import choices
from .drafting import draft, set_draft, stamp
from .live import NoirLive
from .menus import where

#: what a press comes to: a new draft, one engine command, or None (not legal now)
Outcome = dict[str, Any] | C.Command | None


class NoirCodec:
    PHASE_BOUND: frozenset[str] = frozenset()  # NOIR checks its own stamp (drafting.stamp)
    JUDGE: frozenset[str] = frozenset()
    CONFIRM: dict[str, str] = {}

    async def run(self, press: Press) -> str | None:
        """Carry a press out; returns the callback answer (None: no popup). Raises
        ``IllegalCommand`` as the engine does (the handler answers it)."""
        _, g, uid, data = press._, press.g, press.user_id, press.data
        if g.state is None or uid not in g.state.players:
            return _("This button is out of date.")
        await press.service.touch(g.id, uid)  # NOIR-Q21: any press of his brings him back
        if data.a == "z":
            await press.service.execute(g.id, ReturnToGame(user_id=uid))
            return _("Welcome back: your turns wait for you again.")
        st = g.state
        if st.paused is not None:
            return _("The game is paused.")
        la = legal_actions(st, uid)
        if data.s != stamp(st) or not la.any:
            return _("This button is out of date.")
        if data.a == "u":
            return _("You can't choose that cell now.")
        d = draft(g, uid)
        outcome = self.decide(st, la, d, data.a, data.t, uid)
        if outcome is None:
            return _("You can't choose that now.")
        if isinstance(outcome, dict):
            set_draft(g, uid, outcome)
            press.service.persist_ui_soon(g)
            press.presenter.refresh_menu(g, uid)
            return None
        g.refs[f"done:{uid}"] = outcome

        def checked(live: NoirLive) -> C.Command:
            """Under the game's lock: a press that raced another is stale."""
            if live.state is None or stamp(live.state) != data.s:
                raise WrongPhase("stale button")
            return outcome

        try:
            await press.service.execute(g.id, checked)
        finally:
            g.refs.pop(f"done:{uid}", None)
        if isinstance(outcome, AnswerCancel):
            press.presenter.refresh_menu(g, uid)
            return _("Your answer is noted.")
        return "✅"

    def decide(self, st: NoirState, la: LegalActions, d: dict[str, Any], code: str, t: int,
               uid: int) -> Outcome:
        """The press ``code``/``t`` on draft ``d``: a new draft (dict), one engine command, or
        None when it is not legal now.  Pure."""
        if la.step == "cancel":
            return AnswerCancel(user_id=uid, cancel=bool(t)) if code == "x" and t in (0, 1) \
                else None
        if la.step == "threats":
            picked = list(d.get("v") or [])
            if code == "c" and t in choices.cells(st, la, d)[0]:
                picked = [s for s in picked if s != t] if t in picked else picked + [t]
                return {"k": "threats", "v": picked}
            if code == "d" and picked:
                return PlaceThreats(user_id=uid, targets=tuple(picked))
            return None
        if code == "b":
            return {}
        if code == "o":
            view = choices.VIEWS[t] if 0 < t < len(choices.VIEWS) else ""
            return {"k": view} if view and choices.offered(la, view) else None
        if code == "n":
            return ChangeIdentity(user_id=uid) if la.change_identity else None
        k = d.get("k")
        if code == "c":
            return self._cell(st, la, d, t, uid)
        if k == "shift":
            return self._shift(la, d, code, t, uid)
        if code == "k" and k == "collapse" and 0 <= t < len(la.collapse):
            axis, end = la.collapse[t]
            return Collapse(user_id=uid, axis=axis, end=end)
        if code == "r" and k == "accuse" and "t" in d:
            mafia = [r for r in st.table.roles if r.team.value == "mafia"]
            return Accuse(user_id=uid, target=d["t"], role=mafia[t]) if 0 <= t < len(mafia) \
                else None
        if code == "d" and choices.can_detonate(st, d):
            return Detonate(user_id=uid, bomb=d["b"], chain=tuple(d.get("c") or ()))
        if code == "m" and k == "move" and "kind" not in d and 0 <= t < len(choices.TOKEN_KINDS):
            kind = choices.TOKEN_KINDS[t]
            return {"k": "move", "kind": kind} if kind in choices.token_kinds(la) else None
        return None

    def _cell(self, st: NoirState, la: LegalActions, d: dict[str, Any], t: int, uid: int
              ) -> Outcome:
        k = d.get("k")
        if k in ("int", "prof"):
            if t not in choices.cards(la, d):
                return None
            return Interrogate(user_id=uid, keep=t) if k == "int" else Profile(user_id=uid, card=t)
        legal, _picked = choices.cells(st, la, d)
        if t not in legal:
            return None
        if k in choices.DIRECT:
            cls = {"kill": C.Kill, "shoot": C.Shoot, "bomb": C.PlaceBomb, "autopsy": C.Autopsy,
                   "protect": C.Protect, "unprotect": C.Unprotect}[k]
            return cls(user_id=uid, target=t)
        if k == "accuse":
            if t == st.players[uid].identity and d.get("self") != t:
                return {"k": "accuse", "self": t}  # NOIR-Q24: asked to confirm first
            if st.options.get("strict_accusation"):
                return {"k": "accuse", "t": t}
            return Accuse(user_id=uid, target=t)
        if k == "swap":
            return Swap(user_id=uid, first=d["a"], second=t) if "a" in d else {"k": "swap", "a": t}
        if k == "det":
            if "b" not in d:
                return {"k": "det", "b": t, "c": []}
            return {"k": "det", "b": d["b"], "c": [*(d.get("c") or ()), t]}
        if k == "move":
            if "src" not in d:
                return {**d, "src": t}
            return MoveToken(user_id=uid, kind=d["kind"], source=d["src"], dest=t)
        return None

    @staticmethod
    def _shift(la: LegalActions, d: dict[str, Any], code: str, t: int, uid: int) -> Outcome:
        if code == "l" and "line" not in d and t in (0, 1):
            chosen = choices.LINES[t]
            return {"k": "shift", "line": chosen} if choices.shift_indexes(la, chosen) else None
        line = d.get("line")
        if code == "i" and line and "i" not in d and t in choices.shift_indexes(la, line):
            return {"k": "shift", "line": line, "i": t}
        if code == "y" and line and "i" in d and t - 2 in choices.shift_bys(la, line, d["i"]):
            return Shift(user_id=uid, line=line, index=d["i"], by=t - 2)
        return None


def done_text(_: Gettext, st: NoirState, cmd: C.Command) -> str:
    """What a player did, for his menu's final text (``st``: the state before the command)."""
    if isinstance(cmd, Shift):
        line = (_("row {n}") if cmd.line == "row" else _("column {n}")).format(
            n=str(cmd.index + 1) if cmd.line == "row" else chr(65 + cmd.index))
        return _("✅ You shifted {line} by {by}.").format(line=line, by=f"{cmd.by:+d}")
    if isinstance(cmd, Collapse):
        return _("✅ You collapsed the grid.")
    if isinstance(cmd, ChangeIdentity):
        return _("✅ You changed your identity.")
    if isinstance(cmd, PlaceThreats):
        return _("✅ Threats placed: {list}.").format(
            list=", ".join(where(_, st, s) for s in cmd.targets))
    if isinstance(cmd, Detonate):
        return _("✅ Detonated: {list}.").format(
            list=" → ".join(where(_, st, s) for s in (cmd.bomb, *cmd.chain)))
    if isinstance(cmd, Swap):
        return _("✅ You swapped {a} and {b}.").format(a=where(_, st, cmd.first),
                                                      b=where(_, st, cmd.second))
    if isinstance(cmd, MoveToken):
        return _("✅ Token moved: {a} → {b}.").format(a=where(_, st, cmd.source),
                                                     b=where(_, st, cmd.dest))
    if isinstance(cmd, Interrogate):
        return _("✅ You interrogated {suspect}.").format(suspect=where(_, st, cmd.keep))
    if isinstance(cmd, Profile):
        return _("✅ You profiled {suspect}.").format(suspect=where(_, st, cmd.card))
    verbs: tuple[tuple[type[C.Command], str], ...] = (
        (C.Kill, _("✅ You killed {suspect}.")), (C.Shoot, _("✅ You shot {suspect}.")),
        (C.PlaceBomb, _("✅ Bomb placed on {suspect}.")),
        (C.Autopsy, _("✅ You examined {suspect}.")),
        (C.Protect, _("✅ Shield placed on {suspect}.")),
        (C.Unprotect, _("✅ Shield taken off {suspect}.")),
        (Accuse, _("✅ You accused {suspect}.")))
    target = getattr(cmd, "target", None)
    verb = next((text for kind, text in verbs if isinstance(cmd, kind)), None)
    if verb is not None and target is not None:
        return verb.format(suspect=where(_, st, target))
    return "✅"
