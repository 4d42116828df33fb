"""The texts of /tournament (issue 22): the registration message, the schedule in pages, the
standings and the state of the rounds; the CSV of the standings. HTML; names isolated
(bot/ui/names.py); every page within Telegram's 4,096 characters."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping, Sequence
from html import escape

from engine.scoring import BadScoring, system_from_settings
from engine.tournament import Row, Schedule

from ..services.tournaments import SEED_LIMIT
from ..storage import TournamentGame, TournamentPlayer, TournamentRecord
from ..ui.names import isolate
from ..ui.scoring import num, system_name

Gettext = Callable[[str], str]
#: a page of the schedule stays well within Telegram's 4,096 characters (entities included)
PAGE_CHARS = 3500
#: names listed on the registration message (the rest are counted)
LISTED = 60


def preset_name(_: Gettext, preset: str) -> str:
    return {"club": _("club"), "online": _("online")}.get(preset, preset)


def heading(_: Gettext, t: TournamentRecord) -> str:
    try:  # trial22: the system's name as every screen writes it, not «fiim» / «plain»
        scoring = system_name(_, system_from_settings(t.scoring))
    except BadScoring:
        scoring = str(t.scoring.get("name") or t.scoring.get("base") or "")
    return _("🏆 <b>Tournament «{name}»</b> (#{id})\n{preset} · games per player: {games} · "
             "scoring: {scoring}").format(
        name=isolate(t.name, limit=128), id=t.id, preset=preset_name(_, t.preset),
        games=t.games_per_player, scoring=scoring)


def registration_text(_: Gettext, t: TournamentRecord, players: Sequence[TournamentPlayer]
                      ) -> str:
    lines = [heading(_, t), ""]
    lines.append(_("Registered: {n}").format(n=len(players)))
    lines += [f"{i}. {isolate(p.name)}" for i, p in enumerate(players[:LISTED], start=1)]
    if len(players) > LISTED:
        lines.append(_("… and {n} more").format(n=len(players) - LISTED))
    lines.append("")
    if t.status == "registration":
        lines.append(_("Registration is open: press «Register» (the bot opens in private)."))
    elif t.status == "closed":
        lines.append(_("Registration is closed. The organiser adds or withdraws players "
                       "(/tournament add, /tournament withdraw) and draws the seating."))
    else:
        lines.append(_("The seating is drawn: /tournament schedule."))
    return "\n".join(lines)


def bad_seed(_: Gettext, value: str) -> str:
    """The refusal of ``/tournament draw <value>`` whose seed is no whole number within
    ``-SEED_LIMIT..SEED_LIMIT`` (the value named, cut to 40 characters)."""
    return _("❌ The seed «{value}» is not a whole number from −{n} to {n}: /tournament draw "
             "[seed].").format(value=escape(value[:40]), n=SEED_LIMIT)


def schedule_pages(_: Gettext, t: TournamentRecord, schedule: Schedule,
                   names: Mapping[int, str], tables: Mapping[int, int] | None = None
                   ) -> list[str]:
    """The schedule as pages of at most :data:`PAGE_CHARS` characters: a block per round
    (each table's seats 1..10 with names; who sits out), never split inside a round."""
    blocks = []
    for r in range(1, schedule.rounds + 1):
        lines = [_("<b>Round {r}</b>").format(r=r)]
        for g in schedule.round(r):
            seats = ", ".join(f"{i}. {isolate(names.get(u, str(u)), limit=24)}"
                              for i, u in enumerate(g.seats, start=1))
            lines.append(_("Table {t}: {seats}").format(t=g.table, seats=seats))
        out = schedule.sitting_out(r)
        if out:
            lines.append(_("Sitting out: {names}").format(
                names=", ".join(isolate(names.get(u, str(u)), limit=24) for u in out)))
        blocks.append("\n".join(lines))
    head = _("📋 <b>Seating of «{name}»</b>").format(name=isolate(t.name, limit=128)) + "\n" + \
        _("Rounds: {rounds} · tables at once: {tables} · seed {seed}").format(
            rounds=schedule.rounds, tables=schedule.tables, seed=schedule.seed)
    pages: list[str] = []
    page = head
    for block in blocks:
        if len(page) + 2 + len(block) > PAGE_CHARS and page:
            pages.append(page)
            page = block
        else:
            page = f"{page}\n\n{block}"
    pages.append(page)
    return pages


def per_game_note(_: Gettext) -> str:
    """TOUR-X10: why the table is ranked by the points per game (shown under the table)."""
    return _("Ranked by points per game: not everyone has played the same number of games.")


def standings_text(_: Gettext, t: TournamentRecord, rows: Sequence[Row],
                   names: Mapping[int, str], *, final: bool, locale: str) -> str:
    """The standings as text (HTML): one line per row, points as ``bot.ui.scoring.num`` writes
    them in ``locale`` (``1,5``, ``−0,5`` in Russian); while the rows are ranked by points per
    game (TOUR-X10) each line shows them and a note under the table says so."""
    title = _("🏁 <b>Final table of «{name}»</b>") if final else \
        _("📊 <b>Standings of «{name}»</b>")
    lines = [title.format(name=isolate(t.name, limit=128))]
    for row in rows:  # every row: a long table is split at line breaks by the Sender
        sub = " *" if row.substitute_games else ""
        lines.append(_("{place}. {name} — {points} ({games} g., {wins} w., add. {add}, "
                       "best move {bm}){sub}").format(
            place=row.place, name=isolate(row.name or names.get(row.user_id, str(row.user_id))),
            points=num(locale, row.points), games=row.games, wins=row.wins,
            add=num(locale, row.additional), bm=num(locale, row.best_move), sub=sub))
        if row.per_game and row.games:
            lines[-1] += _(" · {avg} per game").format(avg=num(locale, row.average))
    if any(r.per_game for r in rows):
        lines.append(per_game_note(_))
    if any(r.substitute_games for r in rows):
        lines.append(_("* played as a substitute"))
    return "\n".join(lines)


def rounds_text(_: Gettext, schedule: Schedule | None, due: int | None,
                played: Sequence[TournamentGame]) -> str:
    """Which round is in progress, which of its tables play or are done, what is next."""
    if schedule is None:
        return _("The seating is not drawn yet.")
    if due is None:
        return _("Every round is played.")
    state = {(g.round, g.table_no): g.status for g in played}
    parts = []
    for g in schedule.round(due):
        status = state.get((due, g.table))
        label = {"finished": _("done"), "running": _("playing"), "lobby": _("in the lobby")
                 }.get(status or "", _("waiting: /newgame in its group"))
        parts.append(_("table {t}: {state}").format(t=g.table, state=label))
    lines = [_("Round {r} of {n}: {tables}").format(r=due, n=schedule.rounds,
                                                   tables="; ".join(parts))]
    if due < schedule.rounds:
        lines.append(_("Next: round {r}.").format(r=due + 1))
    else:
        lines.append(_("This is the last round."))
    return "\n".join(lines)


def standings_csv(rows: Sequence[Row]) -> bytes:
    """The standings as CSV (UTF-8 with BOM, for spreadsheets): place, user_id, name, points,
    games, wins, additional, best_move, penalties, fouls, substitute_games, average (points per
    game), per_game (1 while the table is ranked by them, TOUR-X10)."""
    out = io.StringIO()
    w = csv.writer(out)
    cols = ("place", "user_id", "name", "points", "games", "wins", "additional", "best_move",
            "penalties", "fouls", "substitute_games", "average", "per_game")
    w.writerow(cols)
    for r in rows:
        w.writerow([*(getattr(r, c) for c in cols[:-2]), round(r.average, 4), int(r.per_game)])
    return ("\ufeff" + out.getvalue()).encode()
