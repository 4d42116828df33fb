"""The judge's ``/panel`` console of the club preset (CLUB-36..39, CLUB-Q08, CLUB-X16..X20;
issue 21 parts 5 and 6): its text -- per seat the role (the host only), fouls, who nominated
him today, the votes he received, how and when he left; the checks with their night; today's
protocol -- and its keyboard.

The keyboard is a fixed grid, so nothing moves under the judge's finger between presses:

* the clock: «+30 s», «🔁 Restart» / «⏭ End turn», «↩️ Undo» (two rows of two, always there;
  a press outside a turn is answered with the reason);
* one row per seated player, in seat order, alive or not: ⚠️ foul, 🟥 disqualify, 🏳 procedural
  loss of his team -- a gone seat keeps its row, with placeholders («✖ №4», «·») where a foul
  and a disqualification no longer apply.

A destructive press (🟥, 🏳, 🔁, ⏭, ↩️: codes ``?dq``, ``?pl``, ``?rst``, ``?endt``, ``?undo``;
and ⚠️ on a seat with three fouls, ``?foul``: the fourth removes him, CLUB-38) asks first: the
same grid comes back with the pressed cell turned into «✖ Cancel», its neighbour in the row into
«✅ …» (the real code), every other cell a placeholder -- so a double tap cancels, and nothing
lands from one tap.
"""

from __future__ import annotations

from dataclasses import dataclass

from aiogram.types import InlineKeyboardMarkup

from engine import GameState, Team
from engine.club.clock import TURN_PHASES

from ...ui.callbacks import Act
from ...ui.keyboards import button, markup_of
from ...ui.texts import ROLE_ICONS, ROLE_NAMES, label
from ..hints import Gettext
from ..mafia.views import phase_name
from .record import REMOVED_AT, SILENCE_AT, Record

#: the codes a press asks to confirm first -> the code the confirmation carries
ASK = {"?dq": "dq", "?pl": "pl", "?rst": "rst", "?endt": "endt", "?undo": "undo",
       "?foul": "foul"}
#: confirmation codes bound to the turn they were asked in (``Act.s``: its ``phase_seq``)
TURN_BOUND = frozenset({"rst", "endt"})
#: a cell that does nothing (a placeholder keeps the grid's shape)
NOP = "nop"
#: the press that leaves the question
CANCEL = "cx"


@dataclass(frozen=True)
class Cell:
    code: str
    seat: int
    text: str


def grid(_: Gettext, st: GameState) -> list[list[Cell]]:
    """The console's cells, row by row (see the module's note)."""
    rows = [[Cell("add", 0, _("⏱ +30 s")), Cell("?rst", 0, _("🔁 Restart"))],
            [Cell("?endt", 0, _("⏭ End turn")), Cell("?undo", 0, _("↩️ Undo"))]]
    fouls = st.club.fouls if st.club is not None else {}
    for p in st.seated():
        if p.alive:
            n = fouls.get(p.user_id, 0)
            marks = "⚠️" * min(n, REMOVED_AT)
            foul = "?foul" if n >= REMOVED_AT - 1 else "foul"  # the fourth removes him: ask
            rows.append([Cell(foul, p.seat, f"⚠️ №{p.seat} {marks}".strip()),
                         Cell("?dq", p.seat, f"🟥 №{p.seat}"), Cell("?pl", p.seat, f"🏳 №{p.seat}")])
        else:
            rows.append([Cell(NOP, p.seat, f"✖ №{p.seat}"), Cell(NOP, p.seat, "·"),
                         Cell("?pl", p.seat, f"🏳 №{p.seat}")])
    return rows


def keyboard(_: Gettext, game_id: int, st: GameState,
             asking: tuple[str, int] | None = None) -> InlineKeyboardMarkup:
    """The console's keyboard; ``asking`` (an ``ASK`` code, its seat): the confirmation grid."""
    rows = grid(_, st)
    where = None
    if asking is not None:
        where = next(((r, c) for r, row in enumerate(rows) for c, cell in enumerate(row)
                      if (cell.code, cell.seat) == asking), None)
    out = []
    for r, row in enumerate(rows):
        line = []
        for c, cell in enumerate(row):
            code, seat, text = cell.code, cell.seat, cell.text
            s = 0
            if where is not None and asking is not None:
                yes = (where[0], where[1] - 1 if where[1] > 0 else where[1] + 1)
                if (r, c) == where:
                    code, seat, text = CANCEL, 0, _("✖ Cancel")
                elif (r, c) == yes:
                    code, seat, text = ASK[asking[0]], asking[1], _("✅ Confirm")
                    s = st.phase_seq if code in TURN_BOUND else 0
                else:
                    code, seat, text = NOP, 0, "·"
            line.append(button(text, Act(g=game_id, s=s, a=code, t=seat).pack()))
        out.append(line)
    return markup_of(out)


def turn_open(st: GameState) -> bool:
    """Whether a speech, defence or last word runs (the clock's tools apply, CLUB-X18..X20)."""
    return st.phase in TURN_PHASES and st.speaker is not None and st.timer is not None


def question(_: Gettext, st: GameState, code: str, seat: int) -> str:
    """What the console asks before the destructive ``code`` (an ``ASK`` value) on ``seat``."""
    who = label(st, st.by_seat(seat).user_id) if seat else label(st, st.speaker)
    if code == "foul":
        text = fourth_foul_question(_)
    elif code == "dq":
        text = _("🟥 Disqualify {player}? He leaves the game at once, without a last word.")
    elif code == "pl":
        text = _("🏳 A procedural loss for the team of {player}? The game ends at once: the "
                 "other team wins.")
    elif code == "rst":
        text = _("🔁 Restart the turn of {player} in full?")
    elif code == "endt":
        text = _("⏭ End the turn of {player} now?")
    else:
        last = st.club.undo if st.club is not None else None
        what = {"foul": _("the foul of {player}"), "fourth_foul": _("the fourth foul of {player}"),
                "disqualification": _("the disqualification of {player}"),
                "nomination": _("taking the nomination of {player} off")}
        text = (_("↩️ Take back {what}?").format(what=what.get(last.action, "{player}"))
                if last is not None else _("↩️ Take back your last action?"))
        who = label(st, last.player) if last is not None else ""
    return text.format(player=who) + "\n" + _("Press ✅ Confirm or ✖ Cancel.")


def fourth_foul_question(_: Gettext) -> str:
    """The question before a fourth foul (CLUB-38), with ``{player}`` to fill."""
    return _("⚠️ Fourth foul to {player}? He leaves the game at once, without a last word.")


def _when(_: Gettext, when: tuple[str, int] | None) -> str:
    if when is None:
        return ""
    return ", " + (_("night {n}") if when[0] == "night" else _("day {d}")).format(n=when[1],
                                                                                d=when[1])


def text(_: Gettext, st: GameState, rec: Record, *, roles: bool) -> str:
    """The console's text (HTML). ``roles``: the viewer is the game's host -- roles and checks
    are shown to him only (an admin judging a hostless game may be a player)."""
    left = {"killed": _("🔪 killed"), "voted": _("🗳 voted out"),
            "disqualified": _("🟥 disqualified"), "removed": _("🚪 out")}
    lines = [_("⚖️ <b>Judge's console</b> · {phase}").format(phase=_phase(_, st))]
    lines.append(_("⚠️ foul · 🟥 disqualify · 🏳 procedural loss · ⚠️×{a}: loses his next "
                   "speech (may still nominate) · ⚠️×{b}: removed").format(a=SILENCE_AT,
                                                                          b=REMOVED_AT))
    lines.append("")
    for s in rec.seats:
        parts = [label(st, s.user_id)]
        p = st.players[s.user_id]
        if roles and p.role is not None:
            black = " ⚫" if p.team is Team.MAFIA else ""
            parts.append(f"{ROLE_ICONS[p.role]} {_(ROLE_NAMES[p.role])}{black}")
        if s.fouls:
            parts.append("⚠️" * min(s.fouls, REMOVED_AT) + (" 🤐" if s.fouls == SILENCE_AT else ""))
        if s.nominated_by is not None:
            parts.append(_("🎯 by №{seat}").format(seat=s.nominated_by))
        if s.votes is not None:
            parts.append(_("🗳 {n}").format(n=s.votes))
        if not s.alive:
            parts.append(left.get(s.left or "removed", left["removed"]) + _when(_, s.when))
        lines.append(" · ".join(parts))
    if roles and rec.checks:
        lines += ["", _("<b>Checks</b>")]
        for c in rec.checks:
            icon = "🎩" if c["kind"] == "sheriff" else "⭐"
            verdict = ((_("the Sheriff") if c["result"] else _("not the Sheriff"))
                       if c["kind"] == "sheriff" else (_("black") if c["result"] else _("red")))
            lines.append(_("night {n}").format(n=c["night"]) +
                         f": {icon} №{c['checker']} → №{c['target']}: {verdict}")
    if rec.day:
        lines += ["", _("<b>Day {d}</b>").format(d=rec.day)]
        lines += [protocol_line(_, entry) for entry in rec.protocol] or [_("nothing yet")]
    return "\n".join(lines)


def protocol_line(_: Gettext, entry: tuple) -> str:
    """One entry of the day's protocol (``Record.protocol``) in words."""
    kind = entry[0]
    if kind == "nom":
        return _("🎯 №{by} nominates №{target}").format(by=entry[1], target=entry[2])
    if kind == "vote":
        return "🗳 " + "; ".join(f"№{c}: {len(v)}" + (f" ({', '.join(f'№{x}' for x in v)})"
                                                     if v else "") for c, v in entry[1])
    if kind == "exclude":
        return _("🗳 eliminate all: {yes} of {needed} needed").format(yes=entry[1],
                                                                       needed=entry[2])
    if kind == "out":
        return {"voted": _("🚪 №{seat} voted out"),
                "disqualified": _("🟥 №{seat} disqualified")}.get(
            entry[2], _("🚪 №{seat} out")).format(seat=entry[1])
    return _("— nobody leaves today")


def _phase(_: Gettext, st: GameState) -> str:
    name = phase_name(_, st)
    if st.phase in TURN_PHASES and st.speaker is not None:
        name += " · " + _("🎙 {player}").format(player=label(st, st.speaker))
    return name


__all__ = ["ASK", "CANCEL", "NOP", "TURN_BOUND", "fourth_foul_question", "grid", "keyboard",
           "protocol_line", "question", "text", "turn_open"]
