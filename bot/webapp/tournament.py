"""A tournament's pages on the Mini App (issue 22 item 6; docs/miniapp.md "Tournaments"): its
schedule, its standings and the viewer's own games, as JSON for ``static/tournament.js``.

Read from the store only (any worker answers; nothing is changed). Who may look: a member of the
tournament's home group or of a linked table's group (the game page's membership check,
:meth:`WebApp.in_group`); the export's links go to its organisers only (the creator, a judge, an
admin of the home group: as ``/tournament export``).

The answer (``parts``: any of :data:`PARTS`; a part not asked for is absent)::

    {"tournament": {"id", "name", "status", "status_text", "subtitle", "rounds", "due"},
     "viewer": {"registered": bool, "organiser": bool}, "locale": str,
     "texts": {key: words},
     "schedule": null (not drawn) | {"rounds": [{"round", "current": bool, "mine": bool,
         "tables": [{"table", "group", "mine": bool, "game": null | {"id", "status",
                     "published": bool, "status_text"},
                     "seats": [{"seat", "name", "me": bool, "substitute": null | {"for": name}}]}],
         "sitting_out": [{"name", "me"}]}]},
     "standings": {"rows": [{"place", "name", "points", "games", "wins", "additional",
                             "best_move", "penalties", "fouls", "per_game": str (points per game
                             while ranked by them, else ""), "substitute": bool, "me": bool}],
                   "final": bool, "published": int, "tie_breaks": str, "state": str, "note": str,
                   "per_game": bool (TOUR-X10: ranked by points per game), "per_game_note": str},
     "mine": {"summary": null | str, "games": [{"round", "table", "group", "seat", "game",
              "status", "status_text", "published", "substitute": null | {"for": name},
              "replaced_by": null | name, "result": null | {"won", "role", "team", "total",
              "line"}}], "sitting_out": [round numbers]},
     "export": null | {"json": url, "csv": url}}

Points are strings as ``/tournament`` writes them (``tournament_texts.points``: at most two
decimals), so the page shows the same figures as the group's text and picture.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import Role
from engine.scoring import BadScoring, ScoreSheet, system_from_settings
from engine.tournament import Row, Schedule

from ..handlers import tournament_texts as tx
from ..handlers.tournament_settings import tie_breaks_of
from ..services.game_service import NotOwner
from ..services.tournaments import due_round
from ..storage import TournamentGame, TournamentRecord
from ..ui.i18n import N_
from ..ui.scoring import num, system_name
from ..ui.texts import ROLE_NAMES, TEAM_NAMES
from .texts import Gettext, tournament_texts

#: the parts a request may ask for
PARTS = ("schedule", "standings", "mine")
STATUS_WORDS = {"registration": N_("Registration is open"),
                "closed": N_("Registration is closed"),
                "drawn": N_("The seating is drawn"), "running": N_("In progress"),
                "finished": N_("Finished")}
GAME_WORDS = {"waiting": N_("waiting"), "lobby": N_("in the lobby"), "running": N_("playing"),
              "finished": N_("finished, the sheet is not published yet"),
              "published": N_("published"), "cancelled": N_("cancelled")}
TIE_WORDS = {"wins": N_("wins"), "additional": N_("additional points"),
             "best_move": N_("best-move points"), "penalties": N_("penalties"),
             "fouls": N_("fewer fouls"), "average": N_("average points")}


@dataclass
class Facts:
    """What every part reads, read once per request."""

    t: TournamentRecord
    schedule: Schedule | None
    played: list[TournamentGame]
    pairs: list[tuple[TournamentGame, ScoreSheet]]
    names: dict[int, str]
    titles: dict[int, str]
    registered: set[int] = field(default_factory=set)

    @property
    def sheets(self) -> dict[int, ScoreSheet]:
        return {g.game_id: s for g, s in self.pairs}

    @property
    def due(self) -> int | None:
        return None if self.schedule is None else due_round(self.schedule, self.played)

    def opened(self, round_no: int, table: int) -> TournamentGame | None:
        """The game opened for (round, table): the last one, as the standings count it."""
        return next((g for g in self.played if (g.round, g.table_no) == (round_no, table)), None)

    def name(self, uid: int) -> str:
        return self.names.get(uid, str(uid))


async def may_see(webapp: Any, t: TournamentRecord, tables: Mapping[int, int], uid: int) -> bool:
    """A member of the home group or of a linked table's group."""
    chats = [t.chat_id, *(c for _n, c in sorted(tables.items()) if c != t.chat_id)]
    for chat in chats:
        if await webapp.in_group(chat, uid):
            return True
    return False


async def may_export(webapp: Any, t: TournamentRecord, uid: int) -> bool:
    """The tournament's organiser (``/tournament export``'s rule)."""
    return uid == t.created_by or uid in t.judges or \
        await webapp.in_group(t.chat_id, uid, admin=True)


async def facts(webapp: Any, t: TournamentRecord, tables: Mapping[int, int]) -> Facts:
    """The tournament's schedule, games, published sheets, names and tables' group titles."""
    storage, service = webapp.service.storage, webapp.tournaments
    played = await storage.tournament_games(t.id)
    pairs = await service.sheets(t)
    players = await storage.tournament_players(t.id, withdrawn=True)
    names = {p.user_id: p.name for p in players}
    for _g, sheet in pairs:  # substitutes: the name they played under
        for s in sheet.seats:
            names.setdefault(s.user_id, s.name)
    for g in played:  # a substitute of a game still open: the live game knows his name
        if g.status in ("lobby", "running") and any(u not in names for u in g.substitutes.values()):
            try:
                st = (await webapp.load(g.game_id)).state
            except (KeyError, NotOwner):
                continue
            for u in g.substitutes.values():
                if st is not None and u in st.players:
                    names.setdefault(u, st.players[u].name)
    titles = {n: await storage.chat_title(c) for n, c in tables.items()}
    return Facts(t, service.schedule(t), played, pairs, names, titles,
                 {p.user_id for p in players if not p.withdrawn})


def game_state(f: Facts, g: TournamentGame | None) -> str:
    """waiting (not opened) | lobby | running | finished | published | cancelled."""
    if g is None:
        return "waiting"
    if g.status == "finished" and g.game_id in f.sheets:
        return "published"
    return g.status


def _game(_: Gettext, f: Facts, g: TournamentGame | None) -> dict[str, Any] | None:
    if g is None:
        return None
    state = game_state(f, g)
    return {"id": g.game_id, "status": state, "published": state == "published",
            "status_text": _(GAME_WORDS.get(state, state))}


def schedule_json(_: Gettext, f: Facts, uid: int) -> dict[str, Any] | None:
    """Rounds × tables × seats with names; the viewer's seat, the substitutes, each game's
    state and id (the page links ``?g=<id>``); who sits out. None before the draw."""
    if f.schedule is None:
        return None
    due = f.due
    rounds = []
    for r in range(1, f.schedule.rounds + 1):
        tables = []
        for sg in f.schedule.round(r):
            opened = f.opened(r, sg.table)
            subs = opened.substitutes if opened is not None and opened.status != "cancelled" \
                else {}
            seats: list[dict[str, Any]] = []
            for i, scheduled in enumerate(sg.seats, start=1):
                plays = subs.get(scheduled, scheduled)
                seats.append({"seat": i, "name": f.name(plays), "me": plays == uid,
                              "substitute": None if plays == scheduled else
                              {"for": f.name(scheduled), "me": scheduled == uid}})
            tables.append({"table": sg.table, "group": f.titles.get(sg.table, ""),
                           "game": _game(_, f, opened), "seats": seats,
                           "mine": uid in sg.seats or uid in subs.values()})
        out = [{"name": f.name(u), "me": u == uid} for u in f.schedule.sitting_out(r)]
        rounds.append({"round": r, "current": r == due, "tables": tables, "sitting_out": out,
                       "mine": any(t["mine"] for t in tables)})
    return {"rounds": rounds}


def tie_breaks_text(_: Gettext, t: TournamentRecord) -> str:
    words = []
    for name in tie_breaks_of(t):
        if name.startswith("wins_as:"):
            role = name.partition(":")[2]
            try:
                label = _(ROLE_NAMES[Role(role)])
            except (ValueError, KeyError):
                label = role
            words.append(_("wins as {role}").format(role=label))
        else:
            words.append(_(TIE_WORDS[name]) if name in TIE_WORDS else name)
    return _("Tie-breaks after the points: {list}.").format(list=", ".join(words))


def standings_json(_: Gettext, locale: str, f: Facts, rows: Sequence[Row], uid: int
                   ) -> dict[str, Any]:
    """The rows of ``/tournament`` (the same service, the same tie-breaks, the same figures,
    written by the same formatter: ``bot.ui.scoring.num``)."""
    due = f.due
    out = [{"place": r.place, "name": r.name or f.name(r.user_id), "points": num(locale, r.points),
            "games": r.games, "wins": r.wins, "additional": num(locale, r.additional),
            "best_move": num(locale, r.best_move), "penalties": num(locale, r.penalties),
            "fouls": r.fouls, "substitute": bool(r.substitute_games), "me": r.user_id == uid,
            "per_game": num(locale, r.average) if r.per_game and r.games else ""}
           for r in rows]
    per_game = any(r.per_game for r in rows)
    return {"rows": out, "final": f.schedule is not None and due is None,
            "published": len(f.pairs), "tie_breaks": tie_breaks_text(_, f.t),
            "state": tx.rounds_text(_, f.schedule, due, f.played),
            "note": _("* played as a substitute") if any(r["substitute"] for r in out) else "",
            "per_game": per_game, "per_game_note": tx.per_game_note(_) if per_game else ""}


def _result(_: Gettext, locale: str, sheet: ScoreSheet | None, uid: int) -> dict[str, Any] | None:
    line = next((s for s in sheet.seats if s.user_id == uid), None) if sheet else None
    if line is None:
        return None
    parts = [(_("win"), line.win_points), (_("BM"), line.best_move_points),
             (_("pen."), line.penalty), (_("add."), line.additional)]
    return {"won": line.won, "role": _(ROLE_NAMES[line.role]) if line.role in ROLE_NAMES
            else line.role.value,
            "team": _(TEAM_NAMES[line.team]) if line.team in TEAM_NAMES else str(line.team),
            "total": num(locale, line.total),
            "line": " · ".join(f"{word} {num(locale, v)}" for word, v in parts if v)}


def mine_json(_: Gettext, locale: str, f: Facts, rows: Sequence[Row], uid: int) -> dict[str, Any]:
    """The viewer's games: per round his table (and its group), seat, the game's state, his
    result and points once its sheet is published; as a substitute too; the rounds he sits
    out; his line of the standings."""
    games, out = [], []
    mine = next((r for r in rows if r.user_id == uid), None)
    summary = None
    if mine is not None and (mine.games or uid in f.registered):
        summary = _("Place {place} of {n} · points {points} · games {games} · wins {wins}"
                    ).format(place=mine.place, n=len(rows), points=num(locale, mine.points),
                             games=mine.games, wins=mine.wins)
    for r in range(1, (f.schedule.rounds if f.schedule else 0) + 1):
        assert f.schedule is not None
        found = False
        for sg in f.schedule.round(r):
            opened = f.opened(r, sg.table)
            subs = opened.substitutes if opened is not None and opened.status != "cancelled" \
                else {}
            for i, scheduled in enumerate(sg.seats, start=1):
                plays = subs.get(scheduled, scheduled)
                if uid not in (plays, scheduled):
                    continue
                found = True
                state = game_state(f, opened)
                games.append({
                    "round": r, "table": sg.table, "group": f.titles.get(sg.table, ""),
                    "seat": i, "game": opened.game_id if opened is not None else None,
                    "status": state, "status_text": _(GAME_WORDS.get(state, state)),
                    "published": state == "published",
                    "substitute": {"for": f.name(scheduled)} if plays == uid != scheduled
                    else None,
                    "replaced_by": f.name(plays) if scheduled == uid != plays else None,
                    "result": _result(_, locale, f.sheets.get(opened.game_id) if opened else None, uid)
                    if plays == uid else None})
        if not found and uid in f.schedule.sitting_out(r):
            out.append(r)
    return {"summary": summary, "games": games, "sitting_out": out}


def head_json(_: Gettext, t: TournamentRecord, f: Facts) -> dict[str, Any]:
    rounds = f.schedule.rounds if f.schedule is not None else None
    try:  # the system's name as every screen writes it (bot.ui.scoring.system_name)
        scoring = system_name(_, system_from_settings(t.scoring))
    except BadScoring:
        scoring = str(t.scoring.get("name") or t.scoring.get("base") or "")
    subtitle = _("{preset} · games per player: {games} · scoring: {scoring}").format(
        preset=tx.preset_name(_, t.preset), games=t.games_per_player, scoring=scoring)
    return {"id": t.id, "name": t.name, "status": t.status,
            "status_text": _(STATUS_WORDS.get(t.status, t.status)), "subtitle": subtitle,
            "rounds": rounds, "due": f.due}


async def tournament_json(webapp: Any, _: Gettext, locale: str, t: TournamentRecord,
                          tables: Mapping[int, int], uid: int, parts: Sequence[str],
                          export: dict[str, str] | None) -> dict[str, Any]:
    """The answer (the module's shape) for ``uid``, who may see it (:func:`may_see`)."""
    f = await facts(webapp, t, tables)
    out: dict[str, Any] = {
        "tournament": head_json(_, t, f), "locale": locale, "texts": tournament_texts(_),
        "viewer": {"registered": uid in f.registered, "organiser": export is not None},
        "export": export}
    rows = await webapp.tournaments.standings(t, f.pairs) \
        if "standings" in parts or "mine" in parts else []
    if "schedule" in parts:
        out["schedule"] = schedule_json(_, f, uid)
    if "standings" in parts:
        out["standings"] = standings_json(_, locale, f, rows, uid)
    if "mine" in parts:
        out["mine"] = mine_json(_, locale, f, rows, uid)
    return out


__all__ = ["PARTS", "may_export", "may_see", "tournament_json"]
