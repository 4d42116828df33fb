"""``/tournament import``'s checks against this database, then the write (issue 22 item 5,
docs/tournaments.md *Re-import*): the file read by :func:`bot.services.tournament_import.
read_export` is imported into the group it is sent in, which must be the tournament's home.

* The tournament's id exists here: when it is this group's and its export now is the file
  (the same data), the answer is "already here" and nothing is written; otherwise refused
  (never a second copy, never an overwrite).
* A table's group playing another open tournament is refused (one per group).
* A game the database holds already must be that table's group's game with the file's status;
  a published sheet of it must be what its stored log scores (``engine.scoring.sheet_of_log``
  with its system and the file's additional points — as the game export's import checks a
  sheet against its log, bot/history/export.py) and published here.
* Then everything is written in one transaction (``Storage.import_tournament``).

Refusals are :class:`bot.services.tournament_import.ImportRefused` (the field, the reason
code); the further codes here: ``home``, ``exists``, ``busy``, ``other_game``, ``log``,
``not_published``."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from sqlalchemy.exc import IntegrityError

from engine.core.serialize import command_from_dict
from engine.scoring import BadScoring, NotFinished, sheet_of_log, system_from_settings
from engine.tournament import Schedule

from ..storage import TournamentRecord
from ..ui.scoring import chat_system
from .tournament_import import ImportPlan, ImportRefused, PlannedGame, read_export

if TYPE_CHECKING:
    from .tournaments import TournamentService

__all__ = ["ALREADY", "IMPORTED", "restore"]

IMPORTED, ALREADY = "imported", "already"


async def restore(tournaments: TournamentService, raw: bytes, chat_id: int, locale: str
                  ) -> tuple[str, TournamentRecord]:
    """Import the export ``raw`` into the group ``chat_id``: (:data:`IMPORTED` or
    :data:`ALREADY`, the tournament). Raises ``ImportRefused``."""
    plan = read_export(raw)
    storage = tournaments.storage
    if plan.chat_id != chat_id:
        raise ImportRefused("tournament.chat_id", "home", plan.chat_id)
    old = await storage.get_tournament(plan.id)
    if old is not None:
        now = json.loads(json.dumps(await tournaments.export(old), ensure_ascii=False))
        if old.chat_id == chat_id and now == plan.data:
            return ALREADY, old
        raise ImportRefused("tournament.id", "exists", plan.id)
    if plan.status != "finished":
        for n, chat in sorted(plan.tables.items()):
            other = await storage.tournament_for_chat(chat)
            if other is not None and other.status != "finished":
                raise ImportRefused(f"tables.{n}", "busy", other.name)
    held = set()
    for g in plan.games:
        if await _check_held(tournaments, plan, g):
            held.add(g.game_id)
    try:
        await storage.import_tournament(plan, locale, held, _rounds_done(plan))
    except IntegrityError:  # another import of the same id (or game) landed meanwhile
        raise ImportRefused("", "conflict") from None
    t = await storage.get_tournament(plan.id)
    assert t is not None  # just written
    return IMPORTED, t


def _rounds_done(plan: ImportPlan) -> list[int]:
    """The rounds every game of which is finished with a sheet: their end was posted."""
    if plan.schedule is None:
        return []
    schedule = Schedule.from_dict(plan.schedule)
    done = {(g.round, g.table) for g in plan.games if g.status == "finished" and g.sheet}
    return [r for r in range(1, schedule.rounds + 1)
            if all((r, g.table) in done for g in schedule.round(r))]


async def _check_held(tournaments: TournamentService, plan: ImportPlan, g: PlannedGame) -> bool:
    """Whether the database holds game ``g`` (then checked against the file); False: it does
    not (an archive game will be written)."""
    storage = tournaments.storage
    rec = await storage.get_game(g.game_id)
    if rec is None:
        return False
    where = f"games[{g.index}]"
    if rec.chat_id != plan.tables[g.table] or rec.status != g.status or \
            await storage.tournament_of_game(g.game_id) is not None:
        raise ImportRefused(f"{where}.game_id", "other_game", g.game_id)
    if g.sheet is None:
        return True
    stored = await storage.game_points_rows(g.game_id)
    if not stored:
        raise ImportRefused(f"{where}.sheet", "not_published", g.game_id)
    if rec.ui.get("imported"):  # an archive game of an earlier import: no log to score
        return True
    sheet = await storage.get_sheet(g.game_id)
    try:
        system = system_from_settings(sheet.system) if sheet is not None else \
            chat_system(rec.settings)
        entries = await storage.load_entries(g.game_id)
        scored = sheet_of_log([command_from_dict(command) for _seq, command, _ev in entries],
                              system, {x.user_id: x.additional for x in g.sheet if x.additional})
    except (BadScoring, NotFinished, ValueError, KeyError, TypeError):
        raise ImportRefused(f"{where}.sheet", "log", g.game_id) from None
    mine = sorted((x.user_id, x.seat, x.role, x.team, x.won, x.fouls, x.win_points,
                   x.best_move_points, x.penalty, x.additional, x.total) for x in g.sheet)
    theirs = sorted((s.user_id, s.seat, s.role.value, s.team.value, s.won, s.fouls, s.win_points,
                     s.best_move_points, s.penalty, s.additional, s.total) for s in scored.seats)
    if mine != theirs:
        raise ImportRefused(f"{where}.sheet", "log", g.game_id)
    return True
