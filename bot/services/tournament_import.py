"""Reading a tournament export back (issue 22 item 5, docs/tournaments.md *Re-import*): the
``/tournament import`` document (``format`` 1, as :meth:`TournamentService.export` writes it)
checked field by field into an :class:`ImportPlan`, free of Telegram and of the database.

Every refusal is an :class:`ImportRefused` naming the field (``games[2].sheet[4].total``) and
a reason code (:data:`REASONS`), so the bot says which part of the file is wrong. The checks:
the envelope (``format``, ``kind``), each value's type and range, the schedule
(``Schedule.from_dict``), every game at a slot of the schedule and not still open, its sheet's
players the slot's (its substitutes in their places), every sheet line's total the sum of its
points, and the standings what the sheets give
(``engine.tournament.standings`` with the file's tie-breaks). The checks against this
database (the tournament's id, the games stored here and their logs) are the service's
(:func:`bot.services.tournament_restore.restore`)."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from engine import Role, Team
from engine.scoring import BadScoring, ScoreSheet, SeatScore, system_from_settings
from engine.tournament import (
    DEFAULT_TIE_BREAKS,
    BadSchedule,
    BadTieBreak,
    Played,
    Schedule,
    check_tie_breaks,
    standings,
)

from ..storage.models_tournament import TOURNAMENT_STATUSES
from .tournaments import MAX_GAMES, PRESETS

__all__ = ["KIND", "REASONS", "ImportPlan", "ImportRefused", "PlannedGame", "SheetLine",
           "read_export"]

KIND = "mafia-bot tournament"
#: a stored game of an export is closed: a game still open cannot be imported
CLOSED_GAMES = ("finished", "cancelled")
#: the reason codes of :class:`ImportRefused` (the bot words each)
REASONS = ("not_json", "not_ours", "version", "missing", "type", "value", "duplicate",
           "no_slot", "open_game", "total", "standings", "schedule", "players")
INT64 = 2**63


class ImportRefused(ValueError):
    """The file cannot be imported: ``field`` (a JSON path, "" for the whole file), ``reason``
    (one of :data:`REASONS`), ``value`` (what was found, shortened; may be "")."""

    def __init__(self, field: str, reason: str, value: object = "") -> None:
        super().__init__(field, reason, value)
        self.field, self.reason = field, reason
        self.value = str(value)[:60]


@dataclass(frozen=True)
class SheetLine:
    """One published line of a game's sheet (the export's ``sheet`` item)."""

    seat: int
    user_id: int
    name: str
    role: str
    team: str
    won: bool
    fouls: int
    win_points: float
    best_move_points: float
    penalty: float
    additional: float
    total: float


@dataclass(frozen=True)
class PlannedGame:
    """A game of the export: its slot, stored id, status, substitutes and sheet (None: none
    published); ``index`` its place in ``games`` (for the refusals' field names)."""

    index: int
    round: int
    table: int
    game_id: int
    status: str
    substitutes: dict[int, int]
    sheet: tuple[SheetLine, ...] | None


@dataclass(frozen=True)
class ImportPlan:
    """A checked export: everything a tournament's rows need (``data``: the file as read)."""

    id: int
    chat_id: int
    name: str
    preset: str
    games_per_player: int
    scoring: dict[str, Any]
    judges: list[int]
    status: str
    seed: int
    created_by: int
    created_at: datetime
    tie_breaks: list[str] | None
    players: list[tuple[int, str, bool]]
    tables: dict[int, int]
    schedule: dict[str, Any] | None
    games: list[PlannedGame]
    data: dict[str, Any]


def _get(obj: dict[str, Any], key: str, where: str) -> Any:
    if key not in obj:
        raise ImportRefused(f"{where}{key}", "missing")
    return obj[key]


def _int(value: Any, field: str, lo: int = -INT64, hi: int = INT64 - 1) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ImportRefused(field, "type", value)
    if not lo <= value <= hi:
        raise ImportRefused(field, "value", value)
    return value


def _str(value: Any, field: str, limit: int) -> str:
    if not isinstance(value, str):
        raise ImportRefused(field, "type", value)
    if len(value) > limit:
        raise ImportRefused(field, "value", value)
    return value


def _num(value: Any, field: str) -> float:
    if not isinstance(value, int | float) or isinstance(value, bool) or \
            not math.isfinite(value) or abs(value) > 1000:
        raise ImportRefused(field, "type" if not isinstance(value, int | float) else "value", value)
    return float(value)


def _dict(value: Any, field: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ImportRefused(field, "type", value)
    return value


def _list(value: Any, field: str) -> list[Any]:
    if not isinstance(value, list):
        raise ImportRefused(field, "type", value)
    return value


def read_export(raw: bytes | str, *, check_standings: bool = True) -> ImportPlan:
    """The checked :class:`ImportPlan` of an export file; :class:`ImportRefused` otherwise.
    ``check_standings=False`` leaves the file's standings unchecked (:func:`standings_of`)."""
    try:
        data = json.loads(raw)
    except ValueError as exc:  # UnicodeDecodeError too
        raise ImportRefused("", "not_json", exc) from None
    if not isinstance(data, dict) or data.get("kind") != KIND:
        raise ImportRefused("kind", "not_ours", data.get("kind", "") if isinstance(data, dict)
                            else "")
    if data.get("format") != 1:
        raise ImportRefused("format", "version", data.get("format"))
    head = _dict(_get(data, "tournament", ""), "tournament")
    w = "tournament."
    scoring = _dict(_get(head, "scoring", w), w + "scoring")
    try:
        system_from_settings(scoring)
    except BadScoring as exc:
        raise ImportRefused(f"{w}scoring.{exc.field}", "value", exc.value) from None
    preset = _str(_get(head, "preset", w), w + "preset", 16)
    if preset not in PRESETS:
        raise ImportRefused(w + "preset", "value", preset)
    status = _str(_get(head, "status", w), w + "status", 16)
    if status not in TOURNAMENT_STATUSES:
        raise ImportRefused(w + "status", "value", status)
    try:
        created_at = datetime.fromisoformat(_str(_get(head, "created_at", w), w + "created_at", 40))
    except ValueError:
        raise ImportRefused(w + "created_at", "value", head.get("created_at")) from None
    if created_at.tzinfo is None:
        raise ImportRefused(w + "created_at", "value", head.get("created_at"))
    tie_breaks = head.get("tie_breaks")
    if tie_breaks is not None:
        try:
            tie_breaks = list(check_tie_breaks(_list(tie_breaks, w + "tie_breaks")))
        except (BadTieBreak, TypeError) as exc:
            raise ImportRefused(w + "tie_breaks", "value", exc) from None
    name = _str(_get(head, "name", w), w + "name", 128)
    if not name.strip():
        raise ImportRefused(w + "name", "value", name)
    chat_id = _int(_get(head, "chat_id", w), w + "chat_id", hi=-1)
    players = _players(_list(_get(data, "players", ""), "players"))
    tables = _tables(_dict(_get(data, "tables", ""), "tables"), chat_id)
    raw_schedule = _get(data, "schedule", "")
    schedule = None
    if raw_schedule is not None:
        try:
            schedule = Schedule.from_dict(_dict(raw_schedule, "schedule"))
        except BadSchedule as exc:
            raise ImportRefused("schedule", "schedule", exc) from None
        if schedule.tables > len(tables):
            raise ImportRefused("schedule.tables", "value", schedule.tables)
        if not set(schedule.players) <= {p[0] for p in players}:
            raise ImportRefused("schedule.players", "value", "")
    if (schedule is None) != (status in ("registration", "closed")):
        raise ImportRefused(w + "status", "value", status)
    games = _games(_list(_get(data, "games", ""), "games"), schedule)
    plan = ImportPlan(
        id=_int(_get(head, "id", w), w + "id", lo=1), chat_id=chat_id, name=name, preset=preset,
        games_per_player=_int(_get(head, "games_per_player", w), w + "games_per_player", 1,
                              MAX_GAMES),
        scoring=scoring, status=status, seed=_int(_get(head, "seed", w), w + "seed"),
        judges=[_int(j, f"{w}judges[{i}]", lo=1)
                for i, j in enumerate(_list(_get(head, "judges", w), w + "judges"))],
        created_by=_int(_get(head, "created_by", w), w + "created_by", lo=1),
        created_at=created_at, tie_breaks=tie_breaks, players=players, tables=tables,
        schedule=raw_schedule, games=games, data=data)
    if check_standings and not _same_standings(_list(_get(data, "standings", ""), "standings"),
                                               standings_of(plan)):
        raise ImportRefused("standings", "standings", "")
    return plan


def _players(items: list[Any]) -> list[tuple[int, str, bool]]:
    out, seen = [], set()
    for i, item in enumerate(items):
        w = f"players[{i}]."
        p = _dict(item, f"players[{i}]")
        uid = _int(_get(p, "user_id", w), w + "user_id", lo=1)
        if uid in seen:
            raise ImportRefused(w + "user_id", "duplicate", uid)
        seen.add(uid)
        withdrawn = _get(p, "withdrawn", w)
        if not isinstance(withdrawn, bool):
            raise ImportRefused(w + "withdrawn", "type", withdrawn)
        out.append((uid, _str(_get(p, "name", w), w + "name", 256), withdrawn))
    return out


def _tables(items: dict[str, Any], home: int) -> dict[int, int]:
    out: dict[int, int] = {}
    for key, chat in items.items():
        if not key.isdigit() or not key.isascii():
            raise ImportRefused(f"tables.{key}", "value", key)
        out[int(key)] = _int(chat, f"tables.{key}", hi=-1)
    if sorted(out) != list(range(1, len(out) + 1)) or out.get(1) != home:
        raise ImportRefused("tables", "value", ", ".join(f"{k}: {v}" for k, v in out.items()))
    if len(set(out.values())) != len(out):  # trial22: name the group («appears twice ()»)
        twice = next(c for c in out.values() if list(out.values()).count(c) > 1)
        raise ImportRefused("tables", "duplicate", str(twice))
    return out


def _games(items: list[Any], schedule: Schedule | None) -> list[PlannedGame]:
    slots = {} if schedule is None else {(g.round, g.table): g for g in schedule.games}
    out: list[PlannedGame] = []
    seen_slots: set[tuple[int, int]] = set()
    seen_ids: set[int] = set()
    for i, item in enumerate(items):
        w = f"games[{i}]."
        g = _dict(item, f"games[{i}]")
        r, t = _int(_get(g, "round", w), w + "round", 1), _int(_get(g, "table", w), w + "table", 1)
        if (r, t) not in slots:
            raise ImportRefused(f"games[{i}]", "no_slot", f"{r}/{t}")
        if (r, t) in seen_slots:
            raise ImportRefused(f"games[{i}]", "duplicate", f"{r}/{t}")
        seen_slots.add((r, t))
        gid = _int(_get(g, "game_id", w), w + "game_id", lo=1)
        if gid in seen_ids:
            raise ImportRefused(w + "game_id", "duplicate", gid)
        seen_ids.add(gid)
        status = _str(_get(g, "status", w), w + "status", 16)
        if status not in CLOSED_GAMES:
            raise ImportRefused(w + "status", "open_game", status)
        subs = {}
        for k, v in _dict(_get(g, "substitutes", w), w + "substitutes").items():
            if not k.isdigit() or not k.isascii():
                raise ImportRefused(f"{w}substitutes.{k}", "value", k)
            subs[int(k)] = _int(v, f"{w}substitutes.{k}", lo=1)
        raw = _get(g, "sheet", w)
        sheet = None
        if raw is not None:
            if status != "finished":
                raise ImportRefused(w + "sheet", "value", status)
            sheet = tuple(_line(x, f"{w}sheet[{j}]") for j, x in enumerate(_list(raw, w + "sheet")))
            seats = [x.seat for x in sheet]
            if sorted(seats) != list(range(1, len(seats) + 1)) or not sheet:
                raise ImportRefused(w + "sheet", "value", seats)
            playing = {subs.get(u, u) for u in slots[(r, t)].seats}  # the schedule's, replaced
            if {x.user_id for x in sheet} != playing:
                raise ImportRefused(w + "sheet", "players", f"{r}/{t}")
        out.append(PlannedGame(i, r, t, gid, status, subs, sheet))
    return out


def _line(item: Any, where: str) -> SheetLine:
    x = _dict(item, where)
    w = where + "."
    role, team = _str(_get(x, "role", w), w + "role", 16), _str(_get(x, "team", w), w + "team", 16)
    if role not in {r.value for r in Role}:
        raise ImportRefused(w + "role", "value", role)
    if team not in {t.value for t in Team}:
        raise ImportRefused(w + "team", "value", team)
    won = _get(x, "won", w)
    if not isinstance(won, bool):
        raise ImportRefused(w + "won", "type", won)
    nums = {k: _num(_get(x, k, w), w + k)
            for k in ("win_points", "best_move_points", "penalty", "additional", "total")}
    if abs(sum(v for k, v in nums.items() if k != "total") - nums["total"]) > 0.005:
        raise ImportRefused(w + "total", "total", nums["total"])
    return SheetLine(seat=_int(_get(x, "seat", w), w + "seat", 1, 10),
                     user_id=_int(_get(x, "user_id", w), w + "user_id", lo=1),
                     name=_str(_get(x, "name", w), w + "name", 256), role=role, team=team,
                     won=won, fouls=_int(_get(x, "fouls", w), w + "fouls", 0, 99), **nums)


def score_sheet_of(lines: tuple[SheetLine, ...], system: Any) -> ScoreSheet:
    """The ``engine.scoring.ScoreSheet`` the standings read, as the service builds it from the
    stored points (``TournamentService.sheets``)."""
    seats = tuple(SeatScore(
        seat=x.seat, user_id=x.user_id, name=x.name, role=Role(x.role), team=Team(x.team),
        won=x.won, fouls=x.fouls, left=None, best_move=None, procedural_loss=False,
        win_points=x.win_points, best_move_points=x.best_move_points, penalty=x.penalty,
        additional=x.additional, total=x.total) for x in lines)
    winner = next((s.team for s in seats if s.won), seats[0].team)
    return ScoreSheet(system=system, winner=winner, procedural_loss=None, seats=seats)


def _same_standings(given: list[Any], computed: list[Any]) -> bool:
    """The file's standings are the computed ones; a file from before TOUR-X10 has no
    ``per_game`` in its rows (then it is not compared; the order still is)."""
    if all(isinstance(r, dict) and "per_game" not in r for r in given):
        computed = [{k: v for k, v in r.items() if k != "per_game"} for r in computed]
    return given == computed


def standings_of(plan: ImportPlan) -> list[Any]:
    """The standings (``Row.to_dict()`` as JSON reads back) the file's sheets give with its
    tie-breaks: a file's ``standings`` must be these (a hand-edited sheet or table is refused
    rather than half-believed)."""
    system = system_from_settings(plan.scoring)
    played = [Played(score_sheet_of(g.sheet, system), frozenset(g.substitutes.values()))
              for g in plan.games if g.sheet is not None and g.status == "finished"]
    players = [uid for uid, _name, withdrawn in plan.players if not withdrawn]
    rows = standings(played, tuple(plan.tie_breaks or DEFAULT_TIE_BREAKS), players)
    return list(json.loads(json.dumps([r.to_dict() for r in rows])))
