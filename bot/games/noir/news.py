"""NOIR's group announcements (NOIR-13..17, 30, 32, 36, Q15, Q21, X05): what the group learns
beside the board, from the public events of one step only (never a hidden identity: a role is
public, a suspect on the grid is public, who hides behind a living suspect is not), and the
final result with every identity revealed (after ``GameEnded`` nothing is secret)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from html import escape

from engine.core.audience import Public
from engine.noir import (
    Accused,
    Arrested,
    AutopsyDone,
    Event,
    GameEnded,
    Interrogated,
    KillCancelled,
    NoirState,
    Paused,
    PlayerReturned,
    Profiled,
    Resumed,
    SuspectKilled,
    TurnTimedOut,
)

from ...ui.names import isolate
from .names import role_name, suspect_name

Gettext = Callable[[str], str]


def _roles(_: Gettext, roles: Iterable[str]) -> str:
    return ", ".join(role_name(_, r) for r in roles)


def _name(_: Gettext, suspect: int) -> str:
    return escape(suspect_name(_, suspect))


def _who(st: NoirState, uid: int | None) -> str:
    p = st.players.get(uid) if uid is not None else None
    return isolate(p.name) if p is not None else "?"


def news_lines(_: Gettext, st: NoirState, events: Sequence[Event]) -> list[str]:
    """One line per public event the group should read (HTML); [] when the board says it all."""
    out: list[str] = []
    for e in events:
        if not isinstance(e.audience, Public):
            continue
        line = None
        if isinstance(e, Arrested):
            line = _("🚔 Arrest! The {role} was hiding as {suspect}; a new identity follows. "
                     "Arrests {n}/{need}.").format(role=role_name(_, e.role), suspect=_name(_, e.suspect),
                                                   n=e.arrests, need=st.table.arrests_needed)
        elif isinstance(e, SuspectKilled):
            line = _("☠️ {suspect} is dead.").format(suspect=_name(_, e.suspect))
            if e.agent_role:
                line += " " + _("It was the identity of the {role}: +{p} for the mafia.").format(
                    role=role_name(_, e.agent_role), p=e.points)
        elif isinstance(e, KillCancelled):
            line = _("🛡 The Suit cancelled the kill of {suspect}.").format(suspect=_name(_, e.suspect))
        elif isinstance(e, Accused) and not e.hit:
            line = _("☝️ {player} accused {suspect}: no mafioso there.").format(
                player=_who(st, e.player), suspect=_name(_, e.target))
        elif isinstance(e, AutopsyDone):
            line = _("🔬 Autopsy of {suspect}: mafiosi next to him: {roles}.").format(
                suspect=_name(_, e.target), roles=_roles(_, e.mafiosi) or _("none"))
        elif isinstance(e, Interrogated):
            line = _("🗂 Interrogation of {suspect}: next to him: {roles}.").format(
                suspect=_name(_, e.suspect), roles=_roles(_, e.near) or _("nobody"))
        elif isinstance(e, Profiled):
            line = _("🧾 Profile of {suspect}: mafiosi next to him: {roles}.").format(
                suspect=_name(_, e.card), roles=_roles(_, e.mafiosi) or _("none"))
        elif isinstance(e, TurnTimedOut) and not e.auto:
            line = _("⌛ {player}'s time is up: the turn passes.").format(player=_who(st, e.player))
            if e.auto_pass:
                line += " " + _("Two in a row: the turns of {player} pass by themselves until "
                                "he is back.").format(player=_who(st, e.player))
        elif isinstance(e, PlayerReturned):
            line = _("👋 {player} is back.").format(player=_who(st, e.player))
        elif isinstance(e, Paused):
            line = _("⏸ The game is paused. /resume goes on.")
        elif isinstance(e, Resumed):
            line = _("▶️ The game goes on.")
        if line:
            out.append(line)
    return out


def result_text(_: Gettext, st: NoirState, e: GameEnded) -> str:
    """The end (NOIR-10, 11, Q19): the outcome, the score, and who was who."""
    head = {"agents": _("🏆 <b>The agents win!</b>"), "mafia": _("🏆 <b>Mafia wins!</b>"),
            "draw": _("🤝 <b>A draw</b>: both thresholds at once.")}[e.outcome]
    lines = [head, _("Arrests {a}/{an} · Dead {p}/{pn}").format(
        a=e.arrests, an=st.table.arrests_needed, p=e.points, pn=st.table.points_needed), "",
        _("Identities:")]
    for uid, role, suspect in e.identities:
        who = suspect_name(_, suspect) if suspect is not None else "—"
        lines.append(f"{_who(st, uid)} — {role_name(_, role)}: {escape(who)}")
    lines += ["", _("Thanks for the game! /newgame starts another.")]
    return "\n".join(lines)


def cancelled_text(_: Gettext, reason: str) -> str:
    if reason == "expired":
        return _("⌛ The lobby expired: not enough players.")
    if reason == "abandoned":
        return _("💤 Every player is away: the game is abandoned. /newgame starts another.")
    return _("✖️ The game was cancelled.")
