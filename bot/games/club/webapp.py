"""The club preset's live table for the Mini App: the mafia table plus the judge's record --
per seat the fouls (CLUB-36), who nominated him today, the votes he received, how and when he
left; today's protocol (all public: the group saw each of them) -- and the judge's console: a
foul, a disqualification, a foul taken back, a team's procedural loss per seat, a nomination
taken back, and the clock and Undo (CLUB-36..39, CLUB-Q06, CLUB-Q15, CLUB-X16..X20).

The console's buttons never move (issue 21): every seat keeps its row when he leaves (its
tools ``disabled``), the clock's four buttons are always there (``disabled`` outside a turn,
Undo when there is nothing to take back).  Destructive ones carry ``confirm`` (the page asks
first), the foul of a seat with three fouls too (the fourth removes him, CLUB-38)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from engine import GameState, Phase
from engine.club.state import fouls_of

from ..hints import Gettext
from ..mafia.webapp import MafiaWebView
from ..spec import Viewer
from .console import fourth_foul_question, protocol_line, turn_open
from .record import REMOVED_AT, record

if TYPE_CHECKING:
    from ..hints import Live


class ClubWebView(MafiaWebView):
    """Judge's buttons carry an ``icon`` (the page's console shows one row per seat; the
    clock's, ``clock`` True, one row above them)."""

    def player_extra(self, _: Gettext, st: GameState, uid: int) -> dict:
        return {"fouls": fouls_of(st, uid)}

    def table(self, _: Gettext, st: GameState, viewer: Viewer, events: Sequence[dict[str, Any]],
              g: Live | None = None) -> dict:
        """The mafia table plus per seat ``nominated_by`` (seat), ``votes`` (today's last
        round he stood in), ``left_when`` ({kind: night | day, n}), and ``protocol`` {day,
        lines} (today's, in words; None before the first day)."""
        out = super().table(_, st, viewer, events, g)
        rec = record(st, events)
        by_seat = {s.seat: s for s in rec.seats}
        for row in out["players"]:
            s = by_seat.get(row["seat"])
            if s is None:
                continue
            row["nominated_by"] = s.nominated_by
            row["votes"] = s.votes
            row["left_when"] = {"kind": s.when[0], "n": s.when[1]} if s.when else None
        out["protocol"] = ({"day": rec.day, "title": _("Day {d}").format(d=rec.day),
                            "lines": [protocol_line(_, e) for e in rec.protocol]}
                           if rec.day else None)
        return out

    def judge_buttons(self, _: Gettext, st: GameState) -> list[dict]:
        turn = turn_open(st)
        silenced = turn and st.timer is not None and st.timer.kind == "silenced"
        club = st.club
        undo = club.undo if club is not None else None
        can_undo = undo is not None and undo.before.phase_seq == st.phase_seq
        who = self.seat(st, st.speaker)
        speaker = f"№{who}" if who else ""
        out: list[dict] = [
            {"a": "add", "t": 0, "label": _("⏱ +30 s"), "icon": "⏱ +30", "kind": "judge",
             "clock": True, "disabled": not turn or silenced,
             "title": _("Add 30 s to the turn of {player}").format(player=speaker)},
            {"a": "rst", "t": 0, "s": st.phase_seq, "label": _("🔁 Restart"), "icon": "🔁",
             "kind": "judge", "clock": True, "disabled": not turn,
             "title": _("Restart the turn of {player}").format(player=speaker),
             "confirm": _("Restart the turn of {player} in full?").format(player=speaker)},
            {"a": "endt", "t": 0, "s": st.phase_seq, "label": _("⏭ End turn"), "icon": "⏭",
             "kind": "judge", "clock": True, "disabled": not turn,
             "title": _("End the turn of {player}").format(player=speaker),
             "confirm": _("End the turn of {player} now?").format(player=speaker)},
            {"a": "undo", "t": 0, "label": _("↩️ Undo"), "icon": "↩️", "kind": "judge",
             "clock": True, "disabled": not can_undo, "title": _("Take back your last action"),
             "confirm": _("Take back your last action (a foul, a removed nomination or a "
                          "disqualification)?")},
        ]
        for p in st.seated():
            gone = not p.alive
            n = fouls_of(st, p.user_id)  # the count on the button (its slot is fixed)
            foul: dict[str, Any] = {"a": "foul", "t": p.seat, "label": f"⚠️ №{p.seat}",
                                    "icon": f"⚠️{n}" if n else "⚠️", "kind": "judge"}
            if gone:
                foul["disabled"] = True
            elif n >= REMOVED_AT - 1:  # the fourth removes him (CLUB-38): the page asks first
                foul["confirm"] = fourth_foul_question(_).format(player=f"№{p.seat} {p.name}")
            out.append(foul)
            if n and not gone:
                out.append({"a": "unfoul", "t": p.seat, "label": f"↩️⚠️ №{p.seat}",
                            "icon": "↩️⚠️", "kind": "judge"})
            out.append({"a": "dq", "t": p.seat, "label": f"🟥 №{p.seat}", "icon": "🟥",
                        "kind": "judge", **({"disabled": True} if gone else {})})
            out.append({"a": "pl", "t": p.seat, "label": f"🏳 №{p.seat}", "icon": "🏳",
                        "kind": "judge"})
        if st.phase is Phase.SPEECH:
            for uid in st.nominations:
                seat = st.players[uid].seat
                out.append({"a": "unnom", "t": seat,
                            "label": _("↩️ Take back the nomination of №{seat}").format(seat=seat),
                            "icon": "↩️🎯", "kind": "judge"})
        return out


VIEW = ClubWebView()
