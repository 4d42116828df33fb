"""One fact, one line: how each fact of a replay or protocol reads (HTML, localized), plus the
small pieces every history page uses (player labels, role/team/preset names, dates, lengths).

``_`` is a gettext function (:meth:`bot.ui.i18n.Translator.get`); every name is HTML-escaped here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from html import escape
from typing import TYPE_CHECKING

from babel.dates import format_datetime

from engine import Role, Team

from ..ui.i18n import N_
from ..ui.names import isolate
from ..ui.texts import (
    ELIMINATION_CAUSES,
    INACTIVE_REASONS,
    NO_ELIMINATION,
    ROLE_ICONS,
    ROLE_NAMES,
    TEAM_NAMES,
)
from . import protocol as P

if TYPE_CHECKING:
    from ..storage.history import HistoryRecord

NAME_LIMIT = 40  # characters of a player's name shown in protocols
PRESET_NAMES = {"party": N_("Party"), "club": N_("Club (sport)"), "online": N_("Online (sport)"),
                "forum": N_("Forum mafia"), "noir": N_("NOIR: FBI vs Mafia")}
Gettext = Callable[[str], str]
NGettext = Callable[[str, str, int], str]


# --- small pieces ------------------------------------------------------------------------------
class Labels:
    """Player labels from ``players`` (user_id -> (seat, name)), HTML-escaped."""

    def __init__(self, players: dict[int, tuple[int, str]], host: int | None = None,
                 host_name: str = "") -> None:
        self.players, self.host, self.host_name = players, host, host_name

    def seat(self, uid: int | None) -> str:
        p = self.players.get(uid) if uid is not None else None
        if p is None:
            return self.full(uid)
        return f"№{p[0]}"

    def full(self, uid: int | None) -> str:
        if uid is None:
            return "—"
        p = self.players.get(uid)
        if p is None:
            return isolate(self.host_name, limit=NAME_LIMIT) if uid == self.host and self.host_name \
                else "?"
        return f"№{p[0]} {isolate(p[1], fallback='', limit=NAME_LIMIT)}".rstrip()

    def seats(self, uids: Iterable[int]) -> str:
        return ", ".join(self.seat(u) for u in uids) or "—"


def role_text(_: Gettext, role: str | None) -> str:
    if role is None:
        return "?"
    try:
        r = Role(role)
    except ValueError:
        return escape(role)
    name = _(ROLE_NAMES[r]) if r in ROLE_NAMES else escape(role)
    return f"{ROLE_ICONS.get(r, '▫️')} {name}"


def team_text(_: Gettext, team: str | None) -> str:
    try:
        return _(TEAM_NAMES[Team(team)])
    except ValueError:
        return escape(str(team))


def preset_text(_: Gettext, ruleset: str) -> str:
    return _(PRESET_NAMES[ruleset]) if ruleset in PRESET_NAMES else escape(ruleset)


def winner_text(_: Gettext, winner: str | None) -> str:
    if winner == "town":
        return _("🏆 <b>Town wins!</b>")
    if winner == "mafia":
        return _("🏆 <b>Mafia wins!</b>")
    if winner is None:
        return _("No winner.")
    return _("🏆 <b>{team} wins!</b>").format(team=team_text(_, winner))


def when(locale: str, moment: datetime | None) -> str:
    """``12 Jan 2026, 14:05 UTC`` in the locale's words."""
    if moment is None:
        return "—"
    return format_datetime(moment, "d MMM y, HH:mm", tzinfo=None, locale=locale) + " UTC"


def duration_text(_: Gettext, seconds: int | None) -> str:
    if seconds is None:
        return "—"
    minutes = max(0, round(seconds / 60))
    if minutes < 60:
        return _("{m} min").format(m=minutes)
    return _("{h} h {m} min").format(h=minutes // 60, m=minutes % 60)


def game_summary_line(_: Gettext, ngettext: NGettext, info: HistoryRecord) -> str:
    """``8 players · 3 days · 41 min`` for a history record (see ``bot.storage.history``)."""
    return " · ".join((
        ngettext("{n} player", "{n} players", info.players).format(n=info.players),
        ngettext("{n} day", "{n} days", info.days).format(n=info.days),
        duration_text(_, info.duration),
    ))


# --- facts -------------------------------------------------------------------------------------
def fact_lines(_: Gettext, L: Labels, fact: P.Fact, *, relay: bool = True) -> list[str]:
    """Lines for one fact of a replay chapter or protocol round (empty: nothing to show)."""
    f = fact
    if isinstance(f, P.TeamMet):
        line = _("🕶 The mafia met: {list}.").format(list=", ".join(L.full(u) for u in f.members))
        if f.don is not None:
            line += " " + _("The Don: {player}.").format(player=L.seat(f.don))
        return [line]
    if isinstance(f, P.Turn):
        if f.phase == "best_move":
            return []  # the best move itself follows
        icon = {"speech": "🎙", "defence": "🛡", "last_word": "🕯"}.get(f.phase, "▫️")
        if f.phase == "last_word":
            return [_("🕯 Last word: {player}").format(player=L.full(f.user_id))]
        return [f"{icon} {L.full(f.user_id)}"]
    if isinstance(f, P.Skipped):
        return [_("⏭ {player} is inactive: turn skipped.").format(player=L.full(f.user_id))]
    if isinstance(f, P.Nomination):
        return [_("🎯 {player} nominated {target}.").format(player=L.seat(f.by),
                                                            target=L.full(f.target))]
    if isinstance(f, P.Vote):
        return vote_lines(_, L, f)
    if isinstance(f, P.Tie):
        text = _("⚖️ Tie between {list}: they defend again, then a new vote among them.") \
            if f.next != "lift" else \
            _("⚖️ Tie between {list}: they defend again, then a vote on lifting them all.")
        return [text.format(list=", ".join(L.full(u) for u in f.candidates))]
    if isinstance(f, P.Misfire):
        return [_("🕶 The mafia missed ({n} in a row).").format(n=f.count)]
    if isinstance(f, P.ExcludeVote):
        verdict = _("Accepted: {yes} of {needed} needed.") if f.passed else \
            _("Rejected: {yes} «yes», {needed} needed.")
        return [_("⚖️ Eliminate all of {list}?").format(list=", ".join(L.full(u) for u in f.candidates)),
                _("Yes ({n}): {list}").format(n=len(f.yes_votes), list=L.seats(f.yes_votes)),
                _("No ({n}): {list}").format(n=len(f.no_votes), list=L.seats(f.no_votes)),
                verdict.format(yes=len(f.yes_votes), needed=f.needed)]
    if isinstance(f, P.NoElimination):
        reason = NO_ELIMINATION.get(f.reason)
        return ["🌗 " + (_(reason) if reason else escape(f.reason))]
    if isinstance(f, P.Eliminated):
        if f.cause == "night":
            return []  # the morning's news says it
        text = ELIMINATION_CAUSES.get(f.cause, N_("{player} is out."))
        return ["☠️ " + _(text).format(player=L.full(f.user_id))]
    if isinstance(f, P.NightMove):
        if f.action == "heal":
            return [_("💉 {player} protected {target}.").format(player=L.full(f.user_id),
                                                                target=L.full(f.target))]
        return [f"▫️ {L.full(f.user_id)}: {escape(f.action)} → {L.full(f.target)}"]
    if isinstance(f, P.Picks):
        picks = ", ".join(f"{L.seat(m)} → {L.seat(t) if t is not None else '…'}"
                          for m, t in f.picks)
        shot = _("the shot: {player}").format(player=L.full(f.agreed)) if f.agreed is not None \
            else _("no agreement, no shot")
        return [_("🕶 Mafia's picks: {picks}; {shot}.").format(picks=picks, shot=shot)]
    if isinstance(f, P.Shot):
        if f.target is None:
            return []
        return [_("🕶 {player} shot at {target}.").format(player=L.full(f.user_id),
                                                         target=L.full(f.target))]
    if isinstance(f, P.DonCheck):
        text = _("🔎 The Don {player} checked {target}: the sheriff.") if f.is_sheriff else \
            _("🔎 The Don {player} checked {target}: not the sheriff.")
        return [text.format(player=L.full(f.checker), target=L.full(f.target))]
    if isinstance(f, P.Check):
        text = _("🔎 {player} checked {target}: mafia.") if f.is_mafia else \
            _("🔎 {player} checked {target}: not mafia.")
        return [text.format(player=L.full(f.checker), target=L.full(f.target))]
    if isinstance(f, P.Relay):
        return [f"🕶 {L.full(f.sender)}: {escape(f.text)}"] if relay else []
    if isinstance(f, P.Morning):
        if f.killed is None:
            text = _("☀️ Morning. Nobody was killed tonight.")
            if f.saved:
                text += " " + _("The doctor saved the victim.")
            return [text]
        return [_("☀️ Morning. {player} was killed tonight.").format(player=L.full(f.killed))]
    if isinstance(f, P.Presence):
        if f.active:
            return [_("🟢 {player} is back.").format(player=L.full(f.user_id))]
        text = INACTIVE_REASONS.get(f.reason, INACTIVE_REASONS["away"])
        return ["💤 " + _(text).format(player=L.full(f.user_id))]
    if isinstance(f, P.PauseFact):
        if not f.paused:
            return [_("▶️ The game goes on.")]
        if f.reason == "host_lost":
            return [_("⏸ The game waited for the host.")]
        return [_("⏸ {player} paused the game.").format(player=L.full(f.by))]
    if isinstance(f, P.NominationUndone):
        return [_("↩️ The nomination of {player} was withdrawn.").format(player=L.full(f.target))]
    if isinstance(f, P.Foul):
        text = {"foul": _("⚠️ Foul: {player}"), "warning": _("⚠️ Warning: {player}")}.get(
            f.kind, _("↩️ Foul taken back: {player}"))
        line = text.format(player=L.full(f.user_id))
        return [line + (f" ({escape(f.reason)})" if f.reason else "")]
    if isinstance(f, P.BestMove):
        if not f.targets:
            return [_("🎯 {player} made no best move.").format(player=L.full(f.user_id))]
        line = _("🎯 Best move of {player}: {list}").format(player=L.full(f.user_id),
                                                            list=L.seats(f.targets))
        if f.hits is not None:
            line += " " + _("({n} of them mafia)").format(n=f.hits)
        return [line]
    if isinstance(f, P.AfterGame):
        if f.kind == "bonus":
            if not f.hits:
                return [_("🎲 Bonus round: nobody guessed.")]
            return [_("🎲 Bonus round: {list}").format(list=", ".join(
                _("{player} — {n} right").format(player=L.full(u), n=n) for u, n in f.hits))]
        if not f.winners:
            return [_("🏅 Nobody voted for the best player.")]
        return [_("🏅 Best player: {list}.").format(list=", ".join(L.full(u) for u in f.winners))]
    if isinstance(f, P.Cancelled):
        return [_("✖️ The game was cancelled.")]
    return []


def vote_lines(_: Gettext, L: Labels, v: P.Vote) -> list[str]:
    head = _("🗳 Vote:") if v.stage == "vote" else _("🗳 Revote:")
    lines = [head]
    for cand, voters in v.tally:
        lines.append(f"    {L.full(cand)} — {len(voters)}" + (f": {L.seats(voters)}" if voters else ""))
    passed = [voter for voter, target, _final in v.taps if target is None]
    if passed:
        lines.append("    " + _("Pass: {list}").format(list=L.seats(passed)))
    loose = [voter for voter, _target, final in v.taps if not final]
    if loose:
        lines.append("    " + _("Preliminary taps only (counted as cast): {list}")
                     .format(list=L.seats(loose)))
    return lines


def result_lines(_: Gettext, L: Labels, result: P.Result, dead: set[int]) -> list[str]:
    lines = [winner_text(_, result.winner), "", _("Roles:")]
    for _seat, uid, role in result.roles:
        mark = " ☠️" if uid in dead else ""
        lines.append(f"{L.full(uid)} — {role_text(_, role)}{mark}")
    return lines
