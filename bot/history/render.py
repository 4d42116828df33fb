"""Localized text pages of /history: the game list, protocols and replays.

Every page is at most :data:`PAGE_LIMIT` UTF-16 code units of HTML, so it fits one Telegram
message (4096) with room for the header the handler adds.  Pages are cut at line breaks (a line
longer than a page only between entities and tags), so no HTML tag is ever split.  ``_`` is a
gettext function, ``ngettext`` its plural twin (:meth:`bot.ui.i18n.Translator.get` / ``nget``).
How single facts read is in :mod:`.lines`; keyboards are in :mod:`.keyboards`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import TYPE_CHECKING

from ..telegram.limits import MESSAGE_LIMIT, utf16_len
from . import games
from . import protocol as P
from .lines import (  # noqa: F401 - re-exported for the handlers and /stats texts
    Gettext,
    Labels,
    NGettext,
    duration_text,
    fact_lines,
    game_summary_line,
    preset_text,
    result_lines,
    role_text,
    team_text,
    when,
    winner_text,
)
from .render_points import list_mark, player_mark

if TYPE_CHECKING:
    from ..storage.history import HistoryRecord

#: Body budget of one page; the handler's header line(s) and the page counter fit in the rest.
PAGE_LIMIT = MESSAGE_LIMIT - 500


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
def list_text(_: Gettext, ngettext: NGettext, locale: str, infos: Sequence[HistoryRecord], page: int,
              pages: int, total: int,
              points: Mapping[int, Mapping[int, float]] | None = None) -> str:
    """The list page; ``points``: game id -> user id -> published points (a game with a
    published score sheet gets its best points)."""
    head = ngettext("📚 <b>Game history</b> · {n} game", "📚 <b>Game history</b> · {n} games",
                    total).format(n=total)
    if not infos:
        return head + "\n\n" + _("No finished games here yet. /newgame starts one.")
    lines = [head + " · " + _("page {k}/{n}").format(k=page + 1, n=pages), ""]
    for info in infos:
        lines.append(f"<b>#{info.game_id}</b> · {when(locale, info.finished_at)} · "
                     f"{preset_text(_, info.ruleset)}")
        lines.append(f"    {summary_line(_, ngettext, info)} · "
                     + _short_winner(_, info.winner)
                     + list_mark(_, locale, (points or {}).get(info.game_id)))
    lines.append("")
    lines.append(_("Choose a game to see its protocol."))
    return "\n".join(lines)


def my_games_text(_: Gettext, ngettext: NGettext, locale: str,
                  rows: Sequence[tuple[HistoryRecord, str | None, bool]], page: int, pages: int,
                  total: int) -> str:
    """The private /history: the user's own games, ``rows`` of (record, role, won)."""
    head = ngettext("🧠 <b>Your games</b> · {n} game", "🧠 <b>Your games</b> · {n} games",
                    total).format(n=total)
    if not rows:
        return head + "\n\n" + _("You have no finished games yet.")
    lines = [head + " · " + _("page {k}/{n}").format(k=page + 1, n=pages), ""]
    for info, role, won in rows:
        lines.append(f"<b>#{info.game_id}</b> · {when(locale, info.finished_at)} · "
                     f"«{escape(info.title)}»")
        lines.append(f"    {preset_text(_, info.ruleset)} · "
                     f"{games.role_text(_, role, ruleset=info.ruleset)} · "
                     + (_("won") if won else _("lost")))
    lines.append("")
    lines.append(_("Choose a game to replay what you knew in it."))
    return "\n".join(lines)


def _short_winner(_: Gettext, winner: str | None) -> str:
    return "🏆 " + games.team_text(_, winner) if winner else "—"


def summary_line(_: Gettext, ngettext: NGettext, info: HistoryRecord) -> str:
    """``8 players · 3 days · 41 min``; a game with its own rounds (NOIR: turns) says those."""
    rounds = games.rounds_text(ngettext, info.ruleset, info.days)
    if rounds is None:
        return game_summary_line(_, ngettext, info)
    return " · ".join((ngettext("{n} player", "{n} players", info.players).format(n=info.players),
                       rounds, duration_text(_, info.duration)))


def hooked_protocol_pages(_: Gettext, ngettext: NGettext, locale: str, info: HistoryRecord,
                          hook: games.HistoryHook, entries: Sequence[P.Entry]) -> list[str]:
    """The protocol of a game with its own history (NOIR): the shared header, then the
    hook's blocks, cut into pages like the mafia protocol."""
    head = "\n".join((
        _("📜 <b>Game #{id}</b> · {preset}").format(id=info.game_id,
                                                    preset=preset_text(_, info.ruleset)),
        when(locale, info.finished_at),
        summary_line(_, ngettext, info),
        "🏆 " + games.team_text(_, info.winner) if info.winner else _("No winner."),
    ))
    return paginate([head, *hook.protocol_blocks(_, ngettext, entries)])


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
        for _seat, uid in (seating.seats if seating else ()):
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
def protocol_pages(_: Gettext, ngettext: NGettext, locale: str, info: HistoryRecord,
                   pr: P.Protocol, points: Mapping[int, float] | None = None) -> list[str]:
    """The whole protocol, cut into pages; ``points``: user id -> his points of the game's
    published score sheet (shown on his line)."""
    L = Labels({p.user_id: (p.seat, p.name) for p in pr.players}, pr.host, pr.host_name)
    blocks = ["\n".join((
        _("📜 <b>Game #{id}</b> · {preset}").format(id=info.game_id,
                                                    preset=preset_text(_, info.ruleset)),
        when(locale, info.finished_at),
        game_summary_line(_, ngettext, info),
        winner_text(_, pr.result.winner if pr.result else info.winner),
    ))]
    seating = [_("<b>Seating and roles</b>") + (" · " + _("📋 points") if points else "")]
    for p in pr.players:
        line = f"{L.full(p.user_id)} — {role_text(_, p.role)}"
        if p.out is not None:
            kind, number, _cause = p.out
            line += " · " + (_("☠️ day {n}") if kind == "day" else _("☠️ night {n}")).format(n=number)
        if p.fouls:
            line += f" · ⚠️ {p.fouls}"
        seating.append(line + player_mark(locale, points, p.user_id))
    if pr.host is not None:
        seating.append(_("🎩 Host: {name}").format(name=L.full(pr.host)))
    blocks.append("\n".join(seating))
    for rnd in pr.rounds:
        blocks.append("\n".join(round_lines(_, L, rnd)))
    tail = []
    tail.append(_("⚠️ Fouls: {list}").format(
        list=", ".join(f"{L.seat(p.user_id)} ×{p.fouls}" for p in pr.players if p.fouls) or "—"))
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
