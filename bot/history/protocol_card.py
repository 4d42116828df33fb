"""The protocol as clubs print it (issue 21, item 3): a finished club or online game's seats,
roles, fouls, how and when each player left, the score sheet's points, and each night and day
in short, translated once into a :class:`Card` that both the picture
(:mod:`.protocol_picture`) and the text fallback (:func:`text_pages`) draw.

Everything comes from :func:`bot.history.protocol.build_protocol` (the facts) and, when the game
has one, its :class:`engine.scoring.ScoreSheet` (the points); nothing is re-derived from the log
here.  A :class:`Span` carries the team of the seat it names, so the picture can print mafia
seats in red; the text fallback prints plain numbers.  Pure: the same protocol, sheet and
gettext give the same card.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from html import escape as _escape

from engine.core.serialize import command_from_dict
from engine.mafia.roles import Role
from engine.scoring import NotFinished, ScoreSheet, ScoringSystem, sheet_of_log
from engine.scoring.sheet import LEFT_BY_CAUSE

from ..ui.i18n import N_
from ..ui.scoring import num, system_name
from ..ui.texts import NO_ELIMINATION, ROLE_NAMES
from . import protocol as P
from .lines import PRESET_NAMES, Gettext, team_text
from .render import paginate

#: SCORE-X06's ways of leaving, as the protocol's column says them
LEFT_WORDS = {"killed": N_("shot dead"), "voted_out": N_("voted out"),
              "disqualified": N_("disqualified"), "fourth_foul": N_("4th foul")}


@dataclass(frozen=True)
class Span:
    """A piece of a line; ``team``: the team of the seat it names (None: not a seat);
    ``strong``: drawn heavier (a nominee in a vote)."""

    text: str
    team: str | None = None
    strong: bool = False


Line = tuple[Span, ...]
#: a space no line is broken at (a nominee's votes stay on one line)
NBSP = "\u00a0"


@dataclass(frozen=True)
class SeatRow:
    """One seat: ``out`` the round he left (``D3`` / ``N5``, empty: at the table), ``how`` the
    way (translated), ``points`` the sheet's columns as text (empty without a sheet)."""

    seat: int
    name: str
    role: str
    role_key: str | None
    team: str | None
    fouls: int
    out: str
    how: str
    points: tuple[str, ...]
    won: bool


@dataclass(frozen=True)
class Cell:
    """One night or day: its title and its lines (empty: nothing happened)."""

    title: str
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class Card:
    """The whole protocol, translated: ``heads`` the titles of the seat columns (number, name,
    role, fouls, out), ``columns`` the point columns' (empty without a sheet), ``totals`` their
    sums under ``total_label``, ``grid`` one (night, day) pair per number, ``notes`` the best
    move, the judge and the scoring system."""

    title: str
    subtitle: str
    heads: tuple[str, str, str, str, str]
    total_label: str
    columns: tuple[str, ...]
    rows: tuple[SeatRow, ...]
    totals: tuple[str, ...]
    grid: tuple[tuple[Cell | None, Cell | None], ...]
    notes: tuple[Line, ...]
    legend: str


def sheet_of_entries(entries: Sequence[P.Entry], system: ScoringSystem,
                     additional: dict[int, object] | None = None) -> ScoreSheet | None:
    """The score sheet of a stored log (SCORE-X09), or None for a game that has none (not a
    finished mafia game).  Raises what :func:`engine.scoring.sheet_of_log` raises for a
    corrupt log or bad additional points."""
    try:
        return sheet_of_log([command_from_dict(e.command) for e in entries], system, additional)
    except NotFinished:
        return None


def build_card(_: Gettext, locale: str, pr: P.Protocol, sheet: ScoreSheet | None = None, *,
               game_id: int | None = None) -> Card:
    """The card of protocol ``pr`` (a full protocol of a finished game) with the points of
    ``sheet`` (None: no point columns)."""
    team = {p.user_id: p.team for p in pr.players}
    seat = {p.user_id: p.seat for p in pr.players}

    def s(uid: int | None) -> Span:
        return Span(str(seat[uid]), team.get(uid)) if uid in seat else Span("?")

    def seats(uids: Sequence[int], space: str = " ") -> list[Span]:
        out: list[Span] = []
        for i, u in enumerate(uids):
            out += [Span("," + space)] if i else []
            out.append(s(u))
        return out or [Span("—")]

    preset = _(PRESET_NAMES[pr.ruleset]) if pr.ruleset in PRESET_NAMES else pr.ruleset
    title = (_("Protocol of game #{id}").format(id=game_id) if game_id is not None
             else _("Game protocol")) + " · " + preset
    winner = pr.result.winner if pr.result else None
    sub = [_("{team} wins").format(team=team_text(_, winner)) if winner else _("No winner")]
    if pr.result:
        sub.append(_("days played: {n}").format(n=pr.result.days))
    columns: tuple[str, ...] = ()
    lines_by_user = {}
    if sheet is not None:
        lines_by_user = {line.user_id: line for line in sheet.seats}
        columns = (_("Win"), _("BM"), _("Pen."), _("Add."), _("Total"))
    rows = []
    for p in pr.players:
        line = lines_by_user.get(p.user_id)
        points: tuple[str, ...] = ()
        if line is not None:
            points = tuple(num(locale, v) for v in (
                line.win_points, line.best_move_points, line.penalty, line.additional, line.total))
        when = ""
        if p.out is not None:
            when = (_("D{n}") if p.out[0] == "day" else _("N{n}")).format(n=p.out[1])
        word = LEFT_WORDS.get(p.left or "")
        how = _(word) if word else (_("left") if p.left else "")
        role = _role_name(_, p.role)
        rows.append(SeatRow(p.seat, p.name, role, p.role, p.team, p.fouls, when, how, points,
                            won=pr.won(p)))
    totals: tuple[str, ...] = ()
    if sheet is not None:
        sums = [sum(getattr(x, k) for x in sheet.seats) for k in
                ("win_points", "best_move_points", "penalty", "additional", "total")]
        totals = tuple(num(locale, round(v, 4)) for v in sums)
    cells: dict[tuple[str, int], Cell] = {}
    for rnd in pr.rounds:
        cells[(rnd.kind, rnd.number)] = _cell(_, rnd, s, seats)
    last = max((n for _k, n in cells), default=0)
    grid = tuple((cells.get(("night", n)), cells.get(("day", n))) for n in range(1, last + 1))
    notes: list[Line] = []
    if pr.best_moves:
        for bm in pr.best_moves:
            notes.append(_best_move(_, bm, s, seats))
    elif sheet is not None and sheet.system.has_best_move:
        notes.append((Span(_("Best move: none.")),))
    if pr.host is not None:
        notes.append((Span(_("Judge: {name}").format(name=pr.host_name or "?")),))
    if sheet is not None:
        notes.append((Span(_("Scoring: {system}").format(
            system=system_name(_, sheet.system))),))
    legend = _("D3 / N5: the day / night a player left. Mafia seats are red. Nominations, "
               "shots and checks: who → whom. Votes: nominee — votes: voters.")
    if sheet is not None:
        legend += " " + _("BM: best move, Pen.: penalty, Add.: the judge's additional points.")
    heads = ("№", _("Player"), _("Role"), _("Fouls"), _("Left"))
    return Card(title, " · ".join(sub), heads, _("Sum"), columns, tuple(rows), totals, grid,
                tuple(notes), legend)


def _role_name(_: Gettext, role: str | None) -> str:
    try:
        return _(ROLE_NAMES[Role(role)]) if role is not None else "?"
    except (ValueError, KeyError):
        return role or "?"


def _best_move(_: Gettext, bm: P.BestMove, s: Callable[[int], Span],
               seats: Callable[..., list[Span]]) -> Line:
    if not bm.targets:
        return (Span(_("Best move of {seat}: none.").format(seat=s(bm.user_id).text)),)
    tail = [Span(" " + _("({n} black)").format(n=bm.hits))] if bm.hits is not None else []
    return (Span(_("Best move of {seat}:").format(seat=s(bm.user_id).text) + " "),
            *seats(bm.targets), *tail)


def _cell(_: Gettext, rnd: P.Round, s: Callable[[int], Span],
          seats: Callable[..., list[Span]]) -> Cell:
    """One round's lines: nominations, votes, ties, shots, checks, who left, fouls."""
    out: list[Line] = []

    def arrows(label: str, pairs: Sequence[tuple[int, int | None]]) -> Line:
        spans = [Span(label + " ")]
        for i, (a, b) in enumerate(pairs):
            spans += [Span(", ")] if i else []
            spans += [s(a), Span("→"), s(b) if b is not None else Span("–")]
        return tuple(spans)

    noms = [(f.by, f.target) for f in rnd.of(P.Nomination)]
    if noms:
        out.append(arrows(_("Nominated:"), noms))
    shots = [(f.user_id, f.target) for f in rnd.of(P.Shot)]
    if shots:
        out.append(arrows(_("Shots:"), shots))
    fouls: list[int] = []
    for f in rnd.facts:
        if isinstance(f, P.TeamMet):
            out.append((Span(_("Mafia met:") + " "), *seats(f.members)))
        elif isinstance(f, P.Picks):
            out.append(arrows(_("Picks:"), f.picks))
        elif isinstance(f, P.Morning):
            out.append((Span(_("Killed:") + " "), s(f.killed)) if f.killed is not None
                       else (Span(_("Nobody killed.")),))
        elif isinstance(f, P.Misfire):
            out.append((Span(_("Miss ({n} in a row).").format(n=f.count)),))
        elif isinstance(f, P.DonCheck):
            verdict = _("sheriff") if f.is_sheriff else _("not the sheriff")
            out.append((Span(_("Don's check:") + " "), s(f.checker), Span("→"), s(f.target),
                        Span(": " + verdict)))
        elif isinstance(f, P.Check):
            verdict = _("mafia") if f.is_mafia else _("not mafia")
            out.append((Span(_("Sheriff's check:") + " "), s(f.checker), Span("→"), s(f.target),
                        Span(": " + verdict)))
        elif isinstance(f, P.NightMove) and f.action == "heal" and f.target is not None:
            out.append((Span(_("Protected:") + " "), s(f.target)))
        elif isinstance(f, P.NominationUndone):
            out.append((Span(_("Nomination withdrawn:") + " "), s(f.target)))
        elif isinstance(f, P.Vote):
            spans = [Span((_("Vote:") if f.stage == "vote" else _("Revote:")) + " ")]
            for i, (cand, voters) in enumerate(f.tally):
                spans += [Span(" · ")] if i else []
                spans += [replace(s(cand), strong=True), Span(f"{NBSP}—{NBSP}{len(voters)}")]
                if voters:
                    spans += [Span(NBSP + "(")] + seats(voters, NBSP) + [Span(")")]
            out.append(tuple(spans))
        elif isinstance(f, P.Tie):
            label = _("Tie:") if f.next != "lift" else _("Tie, a vote on lifting all:")
            out.append((Span(label + " "), *seats(f.candidates)))
        elif isinstance(f, P.ExcludeVote):
            verdict = _("accepted") if f.passed else _("rejected")
            out.append((Span(_("Lift all:") + " "), *seats(f.candidates), Span(" — " + _(
                "yes {yes}, no {no}: {verdict}").format(yes=len(f.yes_votes), no=len(f.no_votes),
                                                        verdict=verdict))))
        elif isinstance(f, P.NoElimination):
            text = NO_ELIMINATION.get(f.reason)
            out.append((Span(_(text) if text else _("Nobody leaves.")),))
        elif isinstance(f, P.Eliminated) and f.cause != "night":
            cause = LEFT_BY_CAUSE.get(f.cause, f.cause)
            word = LEFT_WORDS.get(cause)
            out.append((Span(_("Out:") + " "), s(f.user_id),
                        Span(" — " + (_(word) if word else _("left")))))
        elif isinstance(f, P.Foul) and f.kind == "foul":
            fouls.append(f.user_id)
        elif isinstance(f, P.Foul) and f.kind == "cancelled":
            out.append((Span(_("Foul taken back:") + " "), s(f.user_id)))
    if fouls:
        counted: list[Span] = [Span(_("Fouls:") + " ")]
        for i, uid in enumerate(dict.fromkeys(fouls)):
            n = fouls.count(uid)
            counted += [Span(", ")] if i else []
            counted += [s(uid), *([Span(f" ×{n}")] if n > 1 else [])]
        out.append(tuple(counted))
    title = (_("Night {n}") if rnd.kind == "night" else _("Day {n}")).format(n=rnd.number)
    return Cell(title, tuple(out) or ((Span(_("Nothing happened.")),),))


# --- the text fallback -------------------------------------------------------------------------
def escape(text: str) -> str:
    return _escape(text, quote=False)


def _plain(line: Line) -> str:
    return escape("".join(sp.text for sp in line))


def text_pages(_: Gettext, card: Card) -> list[str]:
    """The card as HTML pages for a chat where the picture cannot go (each page fits one
    message, :func:`bot.history.render.paginate`): one line per seat, then each night and
    day, then the notes."""
    head = f"📜 <b>{escape(card.title)}</b>\n{escape(card.subtitle)}"
    seats = []
    for r in card.rows:
        parts = [f"<b>{r.seat}</b>. {escape(r.name)} — {escape(r.role)}"]
        if r.fouls:
            parts.append(_("fouls: {n}").format(n=r.fouls))
        if r.out:
            parts.append(escape(f"{r.out} {r.how}"))
        if r.points:
            cols = ", ".join(f"{escape(c)} {v}" for c, v in zip(card.columns[:-1], r.points[:-1],
                                                                strict=True) if v != "0")
            parts.append(f"<b>{r.points[-1]}</b>" + (f" ({cols})" if cols else ""))
        seats.append(" · ".join(parts))
    if card.totals:
        seats.append(_("Total: {points}").format(points=card.totals[-1]))
    blocks = [head, "\n".join(seats)]
    for pair in card.grid:
        for cell in pair:
            if cell is not None:
                body = [_plain(line) for line in cell.lines]
                blocks.append("\n".join([f"<b>{escape(cell.title)}</b>", *body]))
    blocks.append("\n".join([*(_plain(n) for n in card.notes), escape(card.legend)]))
    return paginate(blocks)
