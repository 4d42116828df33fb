"""The club preset's button codes: the Sheriff's and the Don's checks (CLUB-31..33) and the
judge's console (``bot/games/club/console.py``) -- a foul and a disqualification per seat
(CLUB-36..39, CLUB-41, CLUB-Q08), a foul taken back (``unfoul``, CLUB-Q15), a nomination taken
back (``unnom``, CLUB-Q06; the Mini App's console offers these two, the group has /unfoul and
/unnominate), the judge's clock -- ``add`` (+30 s, CLUB-X18), ``rst`` (CLUB-X19), ``endt``
(CLUB-X20) -- his Undo (``undo``, CLUB-X16) and a team's procedural loss (``pl``, CLUB-X17).

The destructive ones (``dq``, ``pl``, ``rst``, ``endt``, ``undo``) are confirmed first: the
``/panel`` console's buttons carry ``?<code>`` (the console asks, ``cx`` cancels, ``nop`` is a
placeholder), the Mini App asks in the page; ``rst`` and ``endt`` carry the turn's
``phase_seq`` (0: any) and a press for a turn that is over is out of date."""

from __future__ import annotations

from engine import (
    AddTime,
    CancelFoul,
    DeclareProceduralLoss,
    Disqualify,
    EndTurn,
    IssueFoul,
    NightAction,
    NotAllowed,
    PhaseClosed,
    RestartTurn,
    UndoJudgeAction,
    UndoNomination,
)

from ..mafia.codec import MafiaCodec, need
from ..spec import Press
from .console import ASK, CANCEL, NOP, TURN_BOUND, turn_open

#: the judge's clock and Undo: refusals worded for the console (``bot/ui/texts.py`` REASONS)
CLOCK = frozenset({"add", "rst", "endt"})


class ClubCodec(MafiaCodec):
    PHASE_BOUND = MafiaCodec.PHASE_BOUND | {"scheck", "dcheck"}
    CONFIRM = {**MafiaCodec.CONFIRM, "scheck": "⭐", "dcheck": "🎩", "foul": "⚠️", "dq": "🟥",
               "unfoul": "↩️", "unnom": "↩️", "add": "⏱", "rst": "🔁", "endt": "⏭",
               "undo": "↩️", "pl": "🏳"}
    TARGETED = MafiaCodec.TARGETED | {"scheck", "dcheck", "foul", "dq", "unfoul", "unnom", "pl"}
    JUDGE = frozenset({"foul", "dq", "unfoul", "unnom", "add", "rst", "endt", "undo", "pl",
                       CANCEL, NOP, *ASK})

    COMMANDS = {
        **MafiaCodec.COMMANDS,
        "scheck": lambda uid, target, data:
            NightAction(user_id=uid, action="sheriff_check", target=target),
        "dcheck": lambda uid, target, data:
            NightAction(user_id=uid, action="don_check", target=target),
        "foul": lambda uid, target, data: IssueFoul(user_id=uid, player=need(target)),
        "dq": lambda uid, target, data: Disqualify(user_id=uid, player=need(target)),
        "unfoul": lambda uid, target, data: CancelFoul(user_id=uid, player=need(target)),
        "unnom": lambda uid, target, data: UndoNomination(user_id=uid, target=need(target)),
        "pl": lambda uid, target, data: DeclareProceduralLoss(user_id=uid, player=need(target)),
        "rst": lambda uid, target, data: RestartTurn(user_id=uid),
        "endt": lambda uid, target, data: EndTurn(user_id=uid),
        "undo": lambda uid, target, data: UndoJudgeAction(user_id=uid),
        "add": lambda uid, target, data: AddTime(user_id=uid),
    }

    async def run(self, press: Press) -> str:
        """The console's own presses (ask, cancel, placeholder, +30 s with the time left) and
        the confirmed ones; refusals are raised as ``IllegalCommand`` (the handler words them),
        the clock's outside a turn as ``PhaseClosed("no turn")``."""
        _, data, st, g = press._, press.data, press.st, press.g
        code = data.a
        if (code in ASK or code in (CANCEL, NOP)) and st.host is not None \
                and press.user_id != st.host:
            raise NotAllowed("only the host gives fouls")  # CLUB-41: as the engine says
        if code == NOP:
            return _("Press ✅ Confirm or ✖ Cancel.") if g.refs.get(
                f"ask:console:{press.user_id}") else "·"
        if code == CANCEL:
            press.presenter.ask_console(g, _, st, press.user_id, None)
            return _("Cancelled.")
        if code in ASK:
            asked = ASK[code]
            if asked in TURN_BOUND and not turn_open(st):
                raise PhaseClosed("no turn")
            if asked == "undo" and (st.club is None or st.club.undo is None):
                raise NotAllowed("nothing to undo")
            press.presenter.ask_console(g, _, st, press.user_id, (code, data.t))
            return _("Press ✅ Confirm or ✖ Cancel.")
        confirming = code in ASK.values() and bool(g.refs.get(f"ask:console:{press.user_id}"))
        if confirming:
            press.presenter.ask_console(g, _, st, press.user_id, None)
        if code in TURN_BOUND and data.s and data.s != st.phase_seq:
            return _("This button is out of date.")  # the turn it was asked for is over
        try:
            if code == "add":
                remaining = None
                if g.deadline is not None:
                    remaining = max(0.0, (g.deadline - press.service.clock()).total_seconds())
                await press.service.execute(g.id, AddTime(user_id=press.user_id,
                                                          remaining=remaining))
                return self.CONFIRM["add"]
            return await super().run(press)
        except PhaseClosed as exc:
            if code in CLOCK:
                raise PhaseClosed("no turn") from exc
            raise
