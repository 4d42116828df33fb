"""The club preset's live table for the Mini App: the mafia table plus each seat's fouls
(CLUB-36, public) and the judge's console -- a foul, a disqualification, a foul taken back per
seat, a nomination taken back (CLUB-36..39, CLUB-Q06, CLUB-Q15)."""

from __future__ import annotations

from engine import GameState, Phase
from engine.club.state import fouls_of

from ..hints import Gettext
from ..mafia.webapp import MafiaWebView


class ClubWebView(MafiaWebView):
    """Judge's buttons carry an ``icon`` (the page's console shows one row per seat)."""

    def player_extra(self, _: Gettext, st: GameState, uid: int) -> dict:
        return {"fouls": fouls_of(st, uid)}

    def judge_buttons(self, _: Gettext, st: GameState) -> list[dict]:
        out = []
        for p in st.alive():
            out.append({"a": "foul", "t": p.seat, "label": f"⚠️ №{p.seat}", "icon": "⚠️",
                        "kind": "judge"})
            out.append({"a": "dq", "t": p.seat, "label": f"🟥 №{p.seat}", "icon": "🟥",
                        "kind": "judge"})
            if fouls_of(st, p.user_id):
                out.append({"a": "unfoul", "t": p.seat, "label": f"↩️⚠️ №{p.seat}",
                            "icon": "↩️⚠️", "kind": "judge"})
        if st.phase is Phase.SPEECH:
            for uid in st.nominations:
                seat = st.players[uid].seat
                out.append({"a": "unnom", "t": seat,
                            "label": _("↩️ Take back the nomination of №{seat}").format(seat=seat),
                            "icon": "↩️🎯", "kind": "judge"})
        return out


VIEW = ClubWebView()
