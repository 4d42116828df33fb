"""Localized text pages of /history: the game list, protocols and replays (facts -> lines).

Every page is at most :data:`PAGE_LIMIT` UTF-16 code units of HTML, so it fits one Telegram
message (4096) with room for the header the handler adds.  Pages are cut at line breaks only, so
no HTML tag is ever split.  ``_`` is a gettext function, ``ngettext`` its plural twin
(:meth:`bot.i18n.Translator.get` / ``nget``).  Keyboards live in :mod:`bot.history.keyboards`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from html import escape

from babel.dates import format_datetime

from engine import Role, Team

from ..i18n import N_
from ..telegram_limits import MESSAGE_LIMIT, utf16_len
from ..texts import (
    ELIMINATION_CAUSES, INACTIVE_REASONS, NO_ELIMINATION, ROLE_ICONS, ROLE_NAMES, TEAM_NAMES,
)
from . import protocol as P

#: Body budget of one page; the handler's header line(s) and the page counter fit in the rest.
PAGE_LIMIT = MESSAGE_LIMIT - 500
NAME_LIMIT = 40  # characters of a player's name shown in protocols

PRESET_NAMES = {"party": N_("Party")}
Gettext = Callable[[str], str]


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
            return escape(self.host_name[:NAME_LIMIT]) if uid == self.host and self.host_name \
                else "?"
        return f"№{p[0]} {escape(p[1][:NAME_LIMIT])}"

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


def game_summary_line(_: Gettext, ngettext, info) -> str:
    """``8 players · 3 days · 41 min`` for a history record (see ``bot.storage.history``)."""
    return " · ".join((
        ngettext("{n} player", "{n} players", info.players).format(n=info.players),
        ngettext("{n} day", "{n} days", info.days).format(n=info.days),
        duration_text(_, info.duration),
    ))


def paginate(blocks: Sequence[str], limit: int = PAGE_LIMIT) -> list[str]:
    """Join text blocks (separated by a blank line) into pages of at most ``limit`` UTF-16 units.

    A block goes to the next page rather than being cut; a block longer than a page is cut at
    line breaks (and, for a single overlong line, inside it). Never returns an empty list.
    """
    pages: list[str] = []
    current = ""
    for block in blocks:
        if not block:
            continue
        candidate = f"{current}\n\n{block}" if current else block
        if utf16_len(candidate) <= limit:
            current = candidate
            continue
        if current:
            pages.append(current)
            current = ""
        for line in block.split("\n"):
            while utf16_len(line) > limit:
                cut = _safe_cut(line, limit)
                if current:
                    pages.append(current)
                    current = ""
                pages.append(line[:cut])
                line = line[cut:]
            candidate = f"{current}\n{line}" if current else line
            if utf16_len(candidate) <= limit:
                current = candidate
            else:
                pages.append(current)
                current = line
    if current or not pages:
        pages.append(current)
    return pages


def _safe_cut(line: str, limit: int) -> int:
    """Where to cut an overlong line: within ``limit`` UTF-16 units, never inside an HTML
    entity (``&lt;``) or tag, preferably at a space."""
    cut = min(len(line), limit)
    while cut > 0 and utf16_len(line[:cut]) > limit:
        cut -= 1
    head = line[:cut]
    amp, semi = head.rfind("&"), head.rfind(";")
    if amp > semi:
        cut = amp
    lt, gt = head.rfind("<"), head.rfind(">")
    if lt > gt:
        cut = min(cut, lt)
    space = line.rfind(" ", max(0, cut - 80), cut)
    return space + 1 if space > 0 else max(cut, 1)


# --- the list of games -------------------------------------------------------------------------
def list_text(_: Gettext, ngettext, locale: str, infos: Sequence, page: int, pages: int,
              total: int) -> str:
    head = ngettext("📚 <b>Game history</b> · {n} game", "📚 <b>Game history</b> · {n} games",
                    total).format(n=total)
    if not infos:
        return head + "\n\n" + _("No finished games here yet. /newgame starts one.")
    lines = [head + " · " + _("page {k}/{n}").format(k=page + 1, n=pages), ""]
    for info in infos:
        lines.append(f"<b>#{info.game_id}</b> · {when(locale, info.finished_at)} · "
                     f"{preset_text(_, info.ruleset)}")
        lines.append(f"    {game_summary_line(_, ngettext, info)} · "
                     + _short_winner(_, info.winner))
    lines.append("")
    lines.append(_("Choose a game to see its protocol."))
    return "\n".join(lines)


def _short_winner(_: Gettext, winner: str | None) -> str:
    return "🏆 " + team_text(_, winner) if winner else "—"


# --- facts -------------------------------------------------------------------------------------
def fact_lines(_: Gettext, L: Labels, fact, *, relay: bool = True) -> list[str]:
    """Lines for one fact of a replay chapter or protocol round (empty: nothing to show)."""
    f = fact
    if isinstance(f, P.TeamMet):
        line = _("🕶 The mafia met: {list}.").format(list=", ".join(L.full(u) for u in f.members))
        if f.don is not None:
            line += " " + _("The Don: {player}.").format(player=L.seat(f.don))
        return [line]
    if isinstance(f, P.Turn):
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
        return [_("⚖️ Tie between {list}: they defend again, then a new vote among them.")
                .format(list=", ".join(L.full(u) for u in f.candidates))]
    if isinstance(f, P.ExcludeVote):
        verdict = _("Accepted: {yes} of {needed} needed.") if f.passed else \
            _("Rejected: {yes} «yes», {needed} needed.")
        return [_("⚖️ Eliminate all of {list}?").format(list=", ".join(L.full(u) for u in f.candidates)),
                _("Yes ({n}): {list}").format(n=len(f.yes_votes), list=L.seats(f.yes_votes)),
                _("No ({n}): {list}").format(n=len(f.no_votes), list=L.seats(f.no_votes)),
                verdict.format(yes=len(f.yes_votes), needed=f.needed)]
    if isinstance(f, P.NoElimination):
        text = NO_ELIMINATION.get(f.reason)
        return ["🌗 " + (_(text) if text else escape(f.reason))]
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
    if isinstance(f, P.Foul):
        text = _("⚠️ Foul: {player}") if f.kind == "foul" else _("⚠️ Warning: {player}")
        line = text.format(player=L.full(f.user_id))
        return [line + (f" ({escape(f.reason)})" if f.reason else "")]
    if isinstance(f, P.BestMove):
        return [_("🎯 Best move of {player}: {list}").format(player=L.full(f.user_id),
                                                             list=L.seats(f.targets))]
    if isinstance(f, P.Cancelled):
        return [_("✖️ The game was cancelled.")]
    return []


def vote_lines(_: Gettext, L: Labels, v: P.Vote) -> list[str]:
    head = _("🗳 Vote:") if v.stage == "vote" else _("🗳 Revote:")
    lines = [head]
    for cand, voters in v.tally:
        lines.append(f"    {L.full(cand)} — {len(voters)}" + (f": {L.seats(voters)}" if voters else ""))
    return lines


def result_lines(_: Gettext, L: Labels, result: P.Result, dead: set[int]) -> list[str]:
    lines = [winner_text(_, result.winner), "", _("Roles:")]
    for seat_no, uid, role in result.roles:
        mark = " ☠️" if uid in dead else ""
        lines.append(f"{L.full(uid)} — {role_text(_, role)}{mark}")
    return lines


# --- the replay --------------------------------------------------------------------------------
def chapter_title(_: Gettext, ch: P.Chapter) -> str:
    if ch.kind == "setup":
        return _("🪑 <b>Seating</b>")
    if ch.kind == "night":
        return _("🌙 <b>Night {n}</b>").format(n=ch.night)
    if ch.kind == "end":
        return _("🏁 <b>Result</b>")
    day = _("☀️ <b>Day {n}</b>").format(n=ch.day)
    if ch.kind == "speeches":
        return day + " · " + _("speeches")
    if ch.kind == "vote":
        if not ch.has(P.Vote):
            return day + " · " + _("defence")
        return day + " · " + (_("vote") if ch.round <= 1 else _("revote"))
    if ch.kind == "exclude":
        return day + " · " + _("eliminating the tied group")
    return day + " · " + escape(ch.kind)


def chapter_blocks(_: Gettext, rp: P.Replay, ch: P.Chapter, dead: set[int]) -> list[str]:
    """Text blocks of one chapter (title, who is alive, its facts)."""
    L = Labels(rp.players, rp.host, rp.host_name)
    head = [chapter_title(_, ch)]
    if ch.kind not in ("setup", "end") and ch.alive:
        head.append(_("Alive: {list}").format(list=" ".join(L.seat(u) for u in ch.alive)))
    if ch.kind == "setup":
        roles = {f.user_id: f.role for f in ch.facts if isinstance(f, P.RoleFact)}
        seating = next((f for f in ch.facts if isinstance(f, P.Seating)), None)
        body = []
        for seat_no, uid in (seating.seats if seating else ()):
            role = f" — {role_text(_, roles[uid])}" if uid in roles else ""
            body.append(f"{L.full(uid)}{role}")
        if rp.host is not None:
            body.append(_("🎩 Host: {name}").format(name=L.full(rp.host)))
        if seating is not None:
            body.append(_("Mafiosi at the table: {n}").format(n=seating.mafia_count))
        return ["\n".join(head), "\n".join(body)]
    if ch.kind == "end":
        body = []
        for f in ch.facts:
            if isinstance(f, P.Result):
                body += result_lines(_, L, f, dead)
                body += ["", _("Days played: {n}.").format(n=f.days)]
            else:
                body += fact_lines(_, L, f)
        return ["\n".join(head), "\n".join(body)]
    body = []
    for f in ch.facts:
        body += fact_lines(_, L, f, relay=not rp.full)
    return ["\n".join(head), "\n".join(body) if body else _("Nothing happened.")]


def replay_pages(_: Gettext, rp: P.Replay) -> list[str]:
    """Every chapter as one page (or several when a chapter is longer than a page)."""
    dead: set[int] = set()
    pages: list[str] = []
    for ch in rp.chapters:
        for f in ch.facts:
            if isinstance(f, P.Eliminated):
                dead.add(f.user_id)
        pages += paginate(chapter_blocks(_, rp, ch, dead))
    return pages or [_("Nothing to show.")]


# --- the protocol ------------------------------------------------------------------------------
def protocol_pages(_: Gettext, ngettext, locale: str, info, pr: P.Protocol) -> list[str]:
    """The whole protocol, cut into pages."""
    L = Labels({p.user_id: (p.seat, p.name) for p in pr.players}, pr.host, pr.host_name)
    blocks = ["\n".join((
        _("📜 <b>Game #{id}</b> · {preset}").format(id=info.game_id,
                                                    preset=preset_text(_, info.ruleset)),
        when(locale, info.finished_at),
        game_summary_line(_, ngettext, info),
        winner_text(_, pr.result.winner if pr.result else info.winner),
    ))]
    seating = [_("<b>Seating and roles</b>")]
    for p in pr.players:
        line = f"{L.full(p.user_id)} — {role_text(_, p.role)}"
        if p.out is not None:
            kind, number, _cause = p.out
            line += " · " + (_("☠️ day {n}") if kind == "day" else _("☠️ night {n}")).format(n=number)
        if p.fouls:
            line += f" · ⚠️ {p.fouls}"
        seating.append(line)
    if pr.host is not None:
        seating.append(_("🎩 Host: {name}").format(name=L.full(pr.host)))
    blocks.append("\n".join(seating))
    for rnd in pr.rounds:
        blocks.append("\n".join(round_lines(_, L, rnd)))
    tail = []
    if pr.best_moves:
        tail += [fact_lines(_, L, b)[0] for b in pr.best_moves]
    tail.append(_("⚠️ Fouls: {list}").format(
        list=", ".join(f"{L.seat(f.user_id)}" for f in pr.fouls) or "—"))
    tail.append(_("🕯 Last words in order: {list}").format(list=L.seats(pr.last_words)))
    blocks.append("\n".join(tail))
    return paginate(blocks)


def round_lines(_: Gettext, L: Labels, rnd: P.Round) -> list[str]:
    title = _("🌙 <b>Night {n}</b>") if rnd.kind == "night" else _("☀️ <b>Day {n}</b>")
    lines = [title.format(n=rnd.number)]
    noms = rnd.of(P.Nomination)
    if noms:
        lines.append(_("🎯 Nominations: {list}").format(
            list=", ".join(f"{L.seat(n.by)} → {L.seat(n.target)}" for n in noms)))
    for f in rnd.facts:
        if isinstance(f, P.Nomination):
            continue
        lines += fact_lines(_, L, f, relay=False)
    for uid in rnd.last_words:
        lines.append(_("🕯 Last word: {player}").format(player=L.full(uid)))
    if len(lines) == 1:
        lines.append(_("Nothing happened."))
    return lines


def with_header(header: str, page: str, k: int, n: int, _: Gettext) -> str:
    """A page under its header line, with ``(k/n)`` when there are several pages."""
    counter = " " + _("({k}/{n})").format(k=k + 1, n=n) if n > 1 else ""
    return f"{header}{counter}\n\n{page}"
