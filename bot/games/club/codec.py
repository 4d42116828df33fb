"""The club preset's button codes: the Sheriff's and the Don's checks (CLUB-31..33) and the
judge's console — a foul and a disqualification per seat (CLUB-36..39, CLUB-41, CLUB-Q08)."""

from __future__ import annotations

from engine import Disqualify, IssueFoul, NightAction

from ..mafia.codec import MafiaCodec


class ClubCodec(MafiaCodec):
    PHASE_BOUND = MafiaCodec.PHASE_BOUND | {"scheck", "dcheck"}
    CONFIRM = {**MafiaCodec.CONFIRM, "scheck": "⭐", "dcheck": "🎩", "foul": "⚠️", "dq": "🟥"}
    TARGETED = MafiaCodec.TARGETED | {"scheck", "dcheck", "foul", "dq"}
    JUDGE = frozenset({"foul", "dq"})

    def commands(self, data, uid, target):
        return {
            **super().commands(data, uid, target),
            "scheck": lambda: NightAction(user_id=uid, action="sheriff_check", target=target),
            "dcheck": lambda: NightAction(user_id=uid, action="don_check", target=target),
            "foul": lambda: IssueFoul(user_id=uid, player=target),
            "dq": lambda: Disqualify(user_id=uid, player=target),
        }
