"""NOIR's texts, pure functions of the state (no hidden identity in anything the group sees):
the board's caption (score with thresholds, turn order with roles, last action, whose turn and
for how long) and a player's identity card (DM)."""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from engine.noir import NoirState, PrivateCard, PublicBoard

from ...ui.names import isolate
from .menus import where
from .names import role_name, suspect_name

Gettext = Callable[[str], str]


def score_line(_: Gettext, b: PublicBoard) -> str:
    """NOIR-Q28: "Arrests 2/4 · Dead 11/18" (the mafia's points: an agent's death counts 2)."""
    return _("Arrests {a}/{an} · Dead {p}/{pn}").format(
        a=b.arrests, an=b.arrests_needed, p=b.points, pn=b.points_needed)


def last_action_line(_: Gettext, b: PublicBoard) -> str | None:
    """The last action in words, or None before the first one."""
    if not b.last_action:
        return None
    kind, rest = str(b.last_action[0]), b.last_action[1:]
    who = [suspect_name(_, s) for s in rest if isinstance(s, int)]
    if kind == "shift":
        line, index, by = rest
        assert isinstance(index, int)  # ("shift", line, index, by): engine/noir/common.py
        where = str(index + 1) if line == "row" else chr(65 + index)
        what = _("row {n}") if line == "row" else _("column {n}")
        return _("Last: shift of {line} by {by}").format(line=what.format(n=where), by=f"{by:+d}")
    labels = {
        "kill": _("kill"), "accuse": _("accusation"), "autopsy": _("autopsy"),
        "interrogate": _("interrogation"), "shield": _("protection"),
        "unshield": _("protection removed"), "profile": _("profiling"),
        "collapse": _("collapse"), "identity": _("change of identity"), "swap": _("swap"),
        "threats": _("threats"), "bomb": _("bomb placed"), "detonate": _("detonation"),
        "shot": _("shot"), "token": _("token moved"),
    }
    label = labels.get(kind, kind)
    if kind in ("collapse", "identity") or not who:
        return _("Last: {action}").format(action=label)
    return _("Last: {action} — {suspects}").format(action=label, suspects=", ".join(who))


def caption(_: Gettext, st: NoirState, b: PublicBoard, until: str | None = None) -> str:
    """The board's caption (HTML): score, turn order with roles (the current one bold), the
    last action, and whose turn it is for how many seconds and ``until`` when ("12:02:30 UTC",
    the running timer's deadline; or paused / the result)."""
    lines = [f"<b>{escape(score_line(_, b))}</b>"]
    order = []
    for uid, role in b.order:
        item = f"{isolate(st.players[uid].name)} ({role_name(_, role)})"
        order.append(f"<b>▶ {item}</b>" if uid == b.current else item)
    if order:
        lines.append(" → ".join(order))
    last = last_action_line(_, b)
    if last:
        lines.append(escape(last))
    if b.outcome:
        lines.append("<b>" + {"agents": _("The agents win."), "mafia": _("The mafia wins."),
                              "draw": _("A draw: both thresholds at once.")}[b.outcome] + "</b>")
    elif b.paused:
        lines.append(_("The game is paused."))
    elif b.current is not None:
        secs = b.timer[2] if b.timer else None
        name = isolate(st.players[b.current].name)
        if b.window is not None:
            lines.append(_("The Suit may cancel the kill of {suspect}: {s} s.").format(
                suspect=escape(suspect_name(_, b.window[0])), s=secs))
        elif secs:
            lines.append(_("{name}'s turn: {s} s.").format(name=name, s=secs))
        else:
            lines.append(_("{name}'s turn.").format(name=name))
        if until and secs:
            lines[-1] += " " + _("Until {time}.").format(time=until)
    return "\n".join(lines)


def identity_text(_: Gettext, st: NoirState, card: PrivateCard) -> str:
    """A player's identity card (NOIR-05): his role, his suspect, his teammates' suspects, each
    with his cell now ("Cobra (B3)", NOIR-03)."""
    lines = [_("Your role: {role}.").format(role=role_name(_, card.role))]
    if card.suspect is not None:
        lines.append(_("You are {suspect}.").format(
            suspect=f"<b>{where(_, st, card.suspect)}</b>"))
    for uid, role, suspect in card.teammates:
        who = isolate(st.players[uid].name)
        if suspect is None:
            lines.append(_("{name} ({role}): no identity.").format(name=who, role=role_name(_, role)))
        else:
            lines.append(_("{name} ({role}) is {suspect}.").format(
                name=who, role=role_name(_, role), suspect=where(_, st, suspect)))
    if card.hand:
        lines.append(_("Your cards: {cards}.").format(
            cards=", ".join(where(_, st, s) for s in card.hand)))
    if card.suspect is not None or any(s is not None for _u, _r, s in card.teammates):
        # the card is not edited as the grid moves (a private edit per player per shift):
        # it says so, and the turn's picker marks where they stand then (fresh20)
        lines.append(_("Cells as of this card: shifts and swaps move them; on your turn the "
                       "picker marks ⭐ you and 👥 your teammates where they stand."))
    return "\n".join(lines)
