"""Localized texts of /stats, /me, /top and /nextgame (HTML, well under 4096 characters)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape

from babel.numbers import format_decimal

from ..storage.history import ChatOverview, RoleTotals
from ..ui.names import isolate
from . import games
from .render import duration_text, preset_text, team_text
from .stats import MIN_GAMES_FOR_TOP, Standing, percent

Gettext = Callable[[str], str]
NGettext = Callable[[str, str, int], str]
TOP_SIZE = 15
NAME_LIMIT = 40


def _num(locale: str, value: float) -> str:
    return format_decimal(value, "#,##0.#", locale=locale)


def _form(value: float) -> int:
    """The count that picks the plural form of an average as :func:`_num` shows it (one decimal
    at most): the whole number, or 2 for a fraction (English plural, Russian genitive singular
    as in «1,5 дня»)."""
    shown = round(value, 1)
    return int(shown) if shown == int(shown) else 2


def _name(name: str) -> str:
    return isolate(name, limit=NAME_LIMIT)


def _chat(_: Gettext, title: str) -> str:
    return f"«{escape(title)}»" if title else _("this group")


def _role_lines(_: Gettext, ngettext: NGettext, roles: Sequence[RoleTotals],
                survival: bool = True) -> list[str]:
    """One line per role; ``survival`` False for a game where nobody leaves (NOIR: a player is
    arrested or loses his suspect and plays on), which gets no "survived" share."""
    lines = []
    for r in sorted(roles, key=lambda r: (-r.games, r.role)):
        text = _("{role} — {games} · {wins}% wins · {survived}% survived") if survival else \
            _("{role} — {games} · {wins}% wins")
        lines.append(text.format(
            role=games.role_text(_, r.role, team=r.team),
            games=ngettext("{n} game", "{n} games", r.games).format(n=r.games),
            wins=percent(r.wins, r.games), survived=percent(r.survived, r.games)))
    return lines


def stats_text(_: Gettext, ngettext: NGettext, locale: str, title: str, ov: ChatOverview,
               roles: Sequence[RoleTotals], board: Sequence[Standing],
               others: Sequence[str] = ()) -> str:
    """/stats: the mafia presets' games (``ov``, ``roles`` of plain teams, the rating
    ``board``), then ``others``: the sections of the games shown apart (:func:`game_section`)."""
    head = _("📊 <b>Statistics of {chat}</b>").format(chat=_chat(_, title))
    if not ov.games and others:
        return "\n\n".join([head, *others])
    if not ov.games:
        return head + "\n\n" + _("No finished games here yet. /newgame starts one.")
    lines = [head, ngettext("{n} game played", "{n} games played", ov.games).format(n=ov.games)]
    teams = {r.team for r in roles} | {t for t in ov.wins if t is not None}
    wins = [f"{team_text(_, team)} {percent(ov.wins.get(team, 0), ov.games)}%"
            for team in sorted(teams, key=lambda t: (-ov.wins.get(t, 0), t))]
    if wins:
        lines.append("🏆 " + " · ".join(wins))
    lines.append(_("Average game: {players} · {days} · {duration}").format(
        players=ngettext("{n} player", "{n} players", _form(ov.avg_players)).format(
            n=_num(locale, ov.avg_players)),
        days=ngettext("{n} day", "{n} days", _form(ov.avg_days)).format(n=_num(locale, ov.avg_days)),
        duration=duration_text(_, None if ov.avg_duration is None else int(ov.avg_duration))))
    lines += ["", _("<b>By role</b>")] + _role_lines(_, ngettext, roles)
    fouls = sum(r.fouls for r in roles)
    lines.append(_("⚠️ Fouls: {n}").format(n=fouls))
    active = sorted(board, key=lambda s: (-s.games, s.user_id))[:3]
    if active:
        lines += ["", _("<b>Most games</b>: {list}").format(
            list=", ".join(f"{_name(s.name)} ({s.games})" for s in active))]
    lines += ["", _("/top — the rating · /me — your statistics")]
    return "\n\n".join(["\n".join(lines), *others])


def game_section(_: Gettext, ngettext: NGettext, locale: str, ruleset: str, ov: ChatOverview,
                 roles: Sequence[RoleTotals]) -> str:
    """/stats of a game shown apart from the mafia presets (NOIR): games, wins by team (a
    draw is a game without a winner), the average game in its own rounds, per role."""
    lines = [f"<b>{preset_text(_, ruleset)}</b> · "
             + ngettext("{n} game played", "{n} games played", ov.games).format(n=ov.games)]
    wins = [f"{games.team_text(_, team)} {percent(n, ov.games)}%"
            for team, n in sorted(ov.wins.items(), key=lambda kv: (-kv[1], str(kv[0])))
            if team is not None]
    if None in ov.wins:
        wins.append(_("draws {p}%").format(p=percent(ov.wins[None], ov.games)))
    if wins:
        lines.append("🏆 " + " · ".join(wins))
    rounds = games.rounds_text(ngettext, ruleset, round(ov.avg_days)) or ""
    lines.append(_("Average game: {players} · {rounds} · {duration}").format(
        players=ngettext("{n} player", "{n} players", _form(ov.avg_players)).format(
            n=_num(locale, ov.avg_players)),
        rounds=rounds,
        duration=duration_text(_, None if ov.avg_duration is None else int(ov.avg_duration))))
    if roles:
        lines += _role_lines(_, ngettext, roles, survival=False)
    lines.append(_("Not rated: the rating counts the mafia presets only."))
    return "\n".join(lines)


def top_text(_: Gettext, ngettext: NGettext, locale: str, title: str, board: Sequence[Standing],
             min_games: int = MIN_GAMES_FOR_TOP) -> str:
    lines = [_("🏆 <b>Rating of {chat}</b>").format(chat=_chat(_, title)),
             ngettext("Elo with separate town and mafia tracks; players with at least {n} game.",
                      "Elo with separate town and mafia tracks; players with at least {n} games.",
                      min_games).format(n=min_games), ""]
    ranked = [s for s in board if s.games >= min_games][:TOP_SIZE]
    if not ranked:
        lines.append(ngettext("Nobody has played {n} game here yet.",
                              "Nobody has played {n} games here yet.", min_games)
                     .format(n=min_games))
        return "\n".join(lines)
    for i, s in enumerate(ranked, start=1):
        tracks = " · ".join(f"{team_text(_, team)} {round(r)}"
                            for team, (r, _g, _w) in sorted(s.tracks.items()))
        lines.append(f"{i}. {_name(s.name)} — <b>{round(s.rating)}</b> · {tracks} · "
                     + ngettext("{n} game", "{n} games", s.games).format(n=s.games))
    return "\n".join(lines)


def me_section(_: Gettext, ngettext: NGettext, locale: str, title: str, me: Standing | None, rank: int | None,
               ranked_count: int, roles: Sequence[RoleTotals],
               min_games: int = MIN_GAMES_FOR_TOP) -> str:
    """One community's part of /me: the mafia presets, then each game shown apart."""
    apart: dict[str, list[RoleTotals]] = {}
    for r in roles:
        scope = games.scope_of(r.team)
        if scope is not None:
            apart.setdefault(scope, []).append(r)
    roles = [r for r in roles if games.scope_of(r.team) is None]
    lines = [f"<b>{_chat(_, title)}</b>"]
    if roles or not apart:
        lines += _me_lines(_, ngettext, me, rank, ranked_count, roles, min_games)
    for scope, rows in apart.items():
        lines += [f"<b>{preset_text(_, scope)}</b>"] + _totals_lines(_, ngettext, rows, False)
        lines += _role_lines(_, ngettext, rows, survival=False)
    return "\n".join(lines)


def _totals_lines(_: Gettext, ngettext: NGettext, roles: Sequence[RoleTotals],
                  survival: bool = True) -> list[str]:
    """Games, wins, survival (unless ``survival`` is False) and wins by team of ``roles``'
    totals."""
    n_games = sum(r.games for r in roles)
    wins = sum(r.wins for r in roles)
    survived = sum(r.survived for r in roles)
    teams: dict[str, list[int]] = {}
    for r in roles:
        t = teams.setdefault(r.team, [0, 0])
        t[0] += r.games
        t[1] += r.wins
    head = _("{games} · wins {w} ({p}%) · survived {s}%") if survival else \
        _("{games} · wins {w} ({p}%)")
    return [head.format(
        games=ngettext("{n} game", "{n} games", n_games).format(n=n_games), w=wins,
        p=percent(wins, n_games), s=percent(survived, n_games)),
        " · ".join(_("{team}: {games}, {p}% wins").format(
            team=games.team_text(_, team), games=ngettext("{n} game", "{n} games", g).format(n=g),
            p=percent(w, g)) for team, (g, w) in sorted(teams.items(), key=lambda kv: -kv[1][0]))]


def _me_lines(_: Gettext, ngettext: NGettext, me: Standing | None, rank: int | None, ranked_count: int,
              roles: Sequence[RoleTotals], min_games: int) -> list[str]:
    """The mafia presets' part of a /me section: rating and place, totals, roles, fouls."""
    lines = []
    if me is not None:
        if rank is not None:
            lines.append(_("Rating {r} (#{k} of {n})").format(r=round(me.rating), k=rank,
                                                              n=ranked_count))
        else:
            lines.append(_("Rating {r} (provisional: {g} of {n} games)").format(
                r=round(me.rating), g=me.games, n=min_games))
    lines += _totals_lines(_, ngettext, roles)
    lines += _role_lines(_, ngettext, roles)
    lines.append(_("⚠️ Fouls: {n}").format(n=sum(r.fouls for r in roles)))
    return lines


def me_text(_: Gettext, name: str, sections: Sequence[str]) -> str:
    head = _("👤 <b>{name}</b> — statistics").format(name=_name(name))
    if not sections:
        return head + "\n\n" + _("You have no finished games yet.")
    return "\n\n".join([head, *sections])
