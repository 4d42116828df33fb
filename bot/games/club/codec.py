"""The club preset's button codes: the Sheriff's and the Don's checks (CLUB-31..33) and the
judge's console — a foul and a disqualification per seat (CLUB-36..39, CLUB-41, CLUB-Q08), a
foul taken back (``unfoul``, CLUB-Q15) and a nomination taken back (``unnom``, CLUB-Q06; the
Mini App's console offers these two, the group has /unfoul and /unnominate)."""

from __future__ import annotations

from engine import CancelFoul, Disqualify, IssueFoul, NightAction, UndoNomination

from ..mafia.codec import MafiaCodec, need


class ClubCodec(MafiaCodec):
    PHASE_BOUND = MafiaCodec.PHASE_BOUND | {"scheck", "dcheck"}
    CONFIRM = {**MafiaCodec.CONFIRM, "scheck": "⭐", "dcheck": "🎩", "foul": "⚠️", "dq": "🟥",
               "unfoul": "↩️", "unnom": "↩️"}
    TARGETED = MafiaCodec.TARGETED | {"scheck", "dcheck", "foul", "dq", "unfoul", "unnom"}
    JUDGE = frozenset({"foul", "dq", "unfoul", "unnom"})

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
    }
