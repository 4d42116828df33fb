"""Writing an imported tournament (issue 22 item 5; a mixin of :class:`bot.storage.Storage`):
every row of a checked export (``bot.services.tournament_import.ImportPlan``) in one
transaction, so a failure leaves nothing behind.

A game of the export that this database does not hold becomes an **archive** game: a ``games``
row with the exported id and status (``finished_at`` empty, ``ui`` {"tournament", "round",
"imported": true, "fouls": {user id: fouls}}) with its published sheet (``score_sheets``,
``player_points``) and no log; it is kept out of the history (a ``game_deletions`` row, by
nobody), which has nothing to replay. A game the database holds already is only pointed at.
The ids keep the file's (the export's bytes come back the same); on PostgreSQL the id
sequences are moved past them.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import timedelta
from typing import Any

from sqlalchemy import insert, text

from bot.storage.models import (
    Game,
    GameDeletion,
    PlayerPointsRow,
    ScoreSheetRow,
    utcnow,
)
from bot.storage.models_tournament import (
    TournamentGameRow,
    TournamentPlayerRow,
    TournamentRow,
    TournamentTableRow,
)
from bot.storage.store import Storage as CoreStorage

__all__ = ["TournamentImportStorage"]


class TournamentImportStorage(CoreStorage):
    """``import_tournament``; ``self`` is the Storage (``_write``)."""

    async def import_tournament(self, plan: Any, locale: str, held: Collection[int],
                                rounds_posted: Collection[int]) -> None:
        """Insert the tournament of ``plan`` (a checked
        ``bot.services.tournament_import.ImportPlan``; the storage layer does not import the
        services') with its players (in the file's order), tables and
        games; ``held``: the game ids this database has already (not written again);
        ``rounds_posted``: the rounds whose end needs no post any more. Raises what the
        database raises (a duplicate id...); then nothing is written."""
        now = utcnow()
        ui: dict[str, Any] = {"rounds_posted": sorted(rounds_posted), "imported_at": now.isoformat()}
        if plan.tie_breaks is not None:
            ui["tie_breaks"] = list(plan.tie_breaks)
        async with self._write() as c:
            await c.execute(insert(TournamentRow.__table__).values(
                id=plan.id, chat_id=plan.chat_id, name=plan.name, preset=plan.preset,
                games_per_player=plan.games_per_player, scoring=dict(plan.scoring),
                judges=list(plan.judges), status=plan.status, seed=plan.seed,
                schedule=plan.schedule, created_by=plan.created_by, created_at=plan.created_at,
                ui=ui))
            if plan.players:
                await c.execute(insert(TournamentPlayerRow.__table__), [
                    {"tournament_id": plan.id, "user_id": uid, "name": name,
                     "withdrawn": withdrawn,
                     "registered_at": plan.created_at + timedelta(microseconds=i)}
                    for i, (uid, name, withdrawn) in enumerate(plan.players)])
            await c.execute(insert(TournamentTableRow.__table__), [
                {"tournament_id": plan.id, "table_no": n, "chat_id": chat}
                for n, chat in sorted(plan.tables.items())])
            for g in plan.games:
                if g.game_id not in held:
                    await self._archive_game(c, plan, g, locale, now)
                await c.execute(insert(TournamentGameRow.__table__).values(
                    tournament_id=plan.id, round=g.round, table_no=g.table, game_id=g.game_id,
                    substitutes={str(k): v for k, v in g.substitutes.items()}))
            if c.dialect.name == "postgresql":  # explicit ids: the sequences move past them
                for table in ("games", "tournaments"):
                    await c.execute(text(
                        f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                        f"GREATEST((SELECT MAX(id) FROM {table}), 1))"))

    @staticmethod
    async def _archive_game(c: Any, plan: Any, g: Any, locale: str, now: Any) -> None:
        chat = plan.tables[g.table]
        fouls = {str(x.user_id): x.fouls for x in g.sheet or ()}
        await c.execute(insert(Game.__table__).values(
            id=g.game_id, chat_id=chat, ruleset=plan.preset, status=g.status, locale=locale,
            settings={"scoring": dict(plan.scoring)}, seed=0, creator_id=plan.created_by,
            created_at=now, started_at=None, finished_at=None, winner=None,
            ui={"tournament": plan.id, "round": g.round, "imported": True, "fouls": fouls},
            log_len=0))
        if g.status == "finished":  # no log here to put in the history
            await c.execute(insert(GameDeletion.__table__).values(
                game_id=g.game_id, chat_id=chat, deleted_by=None, deleted_at=now))
        if g.sheet is None:
            return
        await c.execute(insert(ScoreSheetRow.__table__).values(
            game_id=g.game_id, chat_id=chat, judge_id=None, system=dict(plan.scoring),
            additional={str(x.user_id): x.additional for x in g.sheet if x.additional},
            status="published", created_at=now, updated_at=now, publish_by=None,
            published_at=now, corrections_until=None, ui={"imported": True}))
        await c.execute(insert(PlayerPointsRow.__table__), [
            {"game_id": g.game_id, "chat_id": chat, "published_at": now, "user_id": x.user_id,
             "name": x.name, "seat": x.seat, "role": x.role, "team": x.team, "won": x.won,
             "win_points": x.win_points, "best_move_points": x.best_move_points,
             "penalty": x.penalty, "additional": x.additional, "total": x.total}
            for x in g.sheet])
