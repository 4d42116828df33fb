"""The online preset's live table for the Mini App: the mafia table plus the open ballot (taps,
preliminary or final, public: ONLINE-16..20), the lift vote (ONLINE-24) and the best move's
picks (ONLINE-08), and their buttons."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import GameState
from engine.mafia.queries import LegalActions
from engine.online.actions import OnlineActions

from ...ui.keyboards import plain_label
from ..hints import Gettext
from ..mafia.webapp import MafiaWebView
from ..spec import Viewer

if TYPE_CHECKING:
    from ..hints import Live


class OnlineWebView(MafiaWebView):
    def table_extra(self, _: Gettext, st: GameState, viewer: Viewer) -> dict:
        b = st.ballot
        if b is None:
            return {}
        taps = []
        for voter, (choice, final) in sorted(b.taps.items(),
                                             key=lambda kv: st.players[kv[0]].seat):
            value: int | str | None
            if isinstance(choice, bool):  # the lift vote: True = Lift
                value = "lift" if choice else "leave"
            else:
                value = self.seat(st, choice) if choice is not None else "pass"
            taps.append({"voter": st.players[voter].seat, "choice": value, "final": bool(final)})
        return {"ballot": {"stage": b.stage,
                           "candidates": [self.seat(st, c) for c in b.candidates],
                           "taps": taps}}

    def own_buttons(self, _: Gettext, st: GameState, viewer: Viewer, la: LegalActions,
                    g: Live | None = None) -> list[dict]:
        out: list[dict] = []
        if not isinstance(la, OnlineActions):
            return out  # not an online game's actions: no online buttons
        if la.ballot or la.ballot_pass:
            for uid in la.ballot:
                out.append({"a": "tv", "t": st.players[uid].seat,
                            "label": "🗳 " + plain_label(st, uid), "kind": "vote"})
            if la.ballot_pass:
                out.append({"a": "tv", "t": 0, "label": _("✋ PASS"), "kind": "vote"})
        if la.lift_vote:
            out.append({"a": "lift", "t": 0, "label": _("⬆️ Lift"), "kind": "vote"})
            out.append({"a": "leave", "t": 0, "label": _("⬇️ Leave"), "kind": "vote"})
        if la.best_move:
            for uid in la.best_move:
                out.append({"a": "bm", "t": st.players[uid].seat,
                            "label": "🎯 " + plain_label(st, uid), "kind": "turn"})
            out.append({"a": "bmx", "t": 0, "label": _("⏭ Skip the best move"), "kind": "turn"})
        return out


VIEW = OnlineWebView()
