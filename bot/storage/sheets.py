"""Score-sheet queries of :class:`bot.storage.Storage` (a mixin over the core queries in store.py).

A finished club or online game has one score sheet (issue 21, docs/rules/scoring.md): the
scoring system it uses and the judge's additional points; everything else on the sheet comes
from the game's log (``engine.scoring.sheet_of_log``).  A draft is published once (by the judge,
or by itself when ``publish_by`` passes); a published sheet may be corrected until
``corrections_until``.  Every change is kept in ``score_sheet_changes``; ``player_points`` holds
the published points per player (rewritten with each correction) for /top, /me, /history and the
tournaments' standings.

Times are timezone-aware UTC datetimes; points are floats (the systems' figures have at most two
decimals); ``additional`` maps user ids to points.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Integer, and_, delete, func, insert, select, update

from bot.storage.models import Game, PlayerPointsRow, ScoreSheetChange, ScoreSheetRow, utcnow
from bot.storage.store import Storage as CoreStorage

__all__ = ["PointsRow", "PointsTotals", "SheetChange", "SheetRecord", "SheetStorage"]

sheets = ScoreSheetRow.__table__
changes = ScoreSheetChange.__table__
points = PlayerPointsRow.__table__


@dataclass(frozen=True, slots=True)
class SheetRecord:
    """A stored score sheet (see :class:`bot.storage.models.ScoreSheetRow`); ``additional`` with
    int user ids."""

    game_id: int
    chat_id: int
    judge_id: int | None
    system: dict[str, Any]
    additional: dict[int, float]
    status: str  # 'draft' | 'published'
    created_at: datetime
    updated_at: datetime
    publish_by: datetime | None
    published_at: datetime | None
    corrections_until: datetime | None
    ui: dict[str, Any]

    @property
    def published(self) -> bool:
        return self.status == "published"


@dataclass(frozen=True, slots=True)
class SheetChange:
    """One logged change of a sheet: ``kind`` 'additional' | 'published' | 'auto_published' |
    'corrected'; ``by`` the user (None: the bot)."""

    game_id: int
    at: datetime
    by: int | None
    kind: str
    data: dict[str, Any]


@dataclass(frozen=True, slots=True)
class PointsRow:
    """One seat's published points (``engine.scoring.SeatScore`` flattened; ``role``/``team``
    their string values)."""

    user_id: int
    name: str
    seat: int
    role: str
    team: str
    won: bool
    win_points: float
    best_move_points: float
    penalty: float
    additional: float
    total: float


@dataclass(frozen=True, slots=True)
class PointsTotals:
    """A player's published points summed over games (of one chat, or everywhere), optionally
    per role: ``games``, ``wins``, ``total`` and its columns."""

    user_id: int
    name: str
    role: str | None
    games: int
    wins: int
    total: float
    win_points: float
    best_move_points: float
    penalty: float
    additional: float


def _record(row: Any) -> SheetRecord:
    return SheetRecord(
        game_id=int(row.game_id), chat_id=int(row.chat_id),
        judge_id=None if row.judge_id is None else int(row.judge_id), system=dict(row.system),
        additional={int(k): float(v) for k, v in (row.additional or {}).items()},
        status=row.status, created_at=row.created_at, updated_at=row.updated_at,
        publish_by=row.publish_by, published_at=row.published_at,
        corrections_until=row.corrections_until, ui=dict(row.ui or {}))


def _json_points(additional: Mapping[int, float]) -> dict[str, float]:
    return {str(uid): float(v) for uid, v in sorted(additional.items())}


class SheetStorage(CoreStorage):
    """Score-sheet queries; ``self`` is the Storage (``_read``, ``_write``)."""

    async def create_sheet(self, game_id: int, chat_id: int, judge_id: int | None,
                           system: Mapping[str, Any], publish_by: datetime | None,
                           *, ui: Mapping[str, Any] | None = None) -> SheetRecord:
        """The game's sheet as a draft, created once: a second call returns the stored sheet
        unchanged (a restart, another worker). ``publish_by``: when it publishes itself (None:
        only by a call of :meth:`publish_sheet`)."""
        async with self._write() as c:
            row = (await c.execute(select(sheets).where(sheets.c.game_id == game_id))).first()
            if row is None:
                now = utcnow()
                await c.execute(insert(sheets).values(
                    game_id=game_id, chat_id=chat_id, judge_id=judge_id, system=dict(system),
                    additional={}, status="draft", created_at=now, updated_at=now,
                    publish_by=publish_by, published_at=None, corrections_until=None,
                    ui=dict(ui or {})))
                row = (await c.execute(select(sheets).where(sheets.c.game_id == game_id))).one()
        return _record(row)

    async def get_sheet(self, game_id: int) -> SheetRecord | None:
        """The game's sheet, or None (no sheet: not a scored game, or not finished)."""
        async with self._read() as c:
            row = (await c.execute(select(sheets).where(sheets.c.game_id == game_id))).first()
        return None if row is None else _record(row)

    async def set_sheet_additional(self, game_id: int, by: int | None,
                                   additional: Mapping[int, float]) -> SheetRecord | None:
        """Replace a draft's additional points (logged as 'additional'). Returns the sheet, or
        None when it is not a draft any more (published meanwhile: nothing written)."""
        async with self._write() as c:
            done = await c.execute(
                update(sheets).where(sheets.c.game_id == game_id, sheets.c.status == "draft")
                .values(additional=_json_points(additional), updated_at=utcnow()))
            if not done.rowcount:
                return None
            await c.execute(insert(changes).values(
                game_id=game_id, at=utcnow(), by=by, kind="additional",
                data={"additional": _json_points(additional)}))
            row = (await c.execute(select(sheets).where(sheets.c.game_id == game_id))).one()
        return _record(row)

    async def set_sheet_ui(self, game_id: int, ui: Mapping[str, Any]) -> None:
        """Replace the sheet's UI state (its messages)."""
        async with self._write() as c:
            await c.execute(update(sheets).where(sheets.c.game_id == game_id).values(ui=dict(ui)))

    async def publish_sheet(self, game_id: int, by: int | None, additional: Mapping[int, float],
                            rows: Sequence[PointsRow], corrections_until: datetime | None,
                            *, auto: bool = False) -> SheetRecord | None:
        """Publish a draft with ``additional`` and its computed ``rows`` (one per seat), logged
        as 'published' (by the judge) or 'auto_published' (``auto``: its time ran out).
        Exactly once: returns None when the sheet is not a draft (published already, by another
        press or worker) and writes nothing."""
        now = utcnow()
        async with self._write() as c:
            done = await c.execute(
                update(sheets).where(sheets.c.game_id == game_id, sheets.c.status == "draft")
                .values(status="published", additional=_json_points(additional), updated_at=now,
                        published_at=now, corrections_until=corrections_until))
            if not done.rowcount:
                return None
            row = (await c.execute(select(sheets).where(sheets.c.game_id == game_id))).one()
            await self._write_points(c, game_id, int(row.chat_id), rows, now)
            await c.execute(insert(changes).values(
                game_id=game_id, at=now, by=by, kind="auto_published" if auto else "published",
                data={"additional": _json_points(additional)}))
        return _record(row)

    async def correct_sheet(self, game_id: int, by: int, additional: Mapping[int, float],
                            rows: Sequence[PointsRow], *, now: datetime | None = None
                            ) -> SheetRecord | None:
        """Correct a published sheet's additional points (and so its points) while its window
        is open (``now`` <= ``corrections_until``), logged as 'corrected' with the points before
        and after. Returns None when it is not published or the window has closed."""
        now = now or utcnow()
        async with self._write() as c:
            old = (await c.execute(select(sheets).where(
                sheets.c.game_id == game_id, sheets.c.status == "published"))).first()
            if old is None or old.corrections_until is None or now > old.corrections_until:
                return None
            await c.execute(update(sheets).where(sheets.c.game_id == game_id).values(
                additional=_json_points(additional), updated_at=now))
            await self._write_points(c, game_id, int(old.chat_id), rows, old.published_at)
            await c.execute(insert(changes).values(
                game_id=game_id, at=now, by=by, kind="corrected",
                data={"before": dict(old.additional or {}), "after": _json_points(additional)}))
            row = (await c.execute(select(sheets).where(sheets.c.game_id == game_id))).one()
        return _record(row)

    @staticmethod
    async def _write_points(c: Any, game_id: int, chat_id: int, rows: Sequence[PointsRow],
                            published_at: datetime) -> None:
        await c.execute(delete(points).where(points.c.game_id == game_id))
        if rows:
            await c.execute(insert(points), [
                {"game_id": game_id, "chat_id": chat_id, "published_at": published_at,
                 "user_id": r.user_id, "name": r.name, "seat": r.seat, "role": r.role,
                 "team": r.team, "won": r.won, "win_points": r.win_points,
                 "best_move_points": r.best_move_points, "penalty": r.penalty,
                 "additional": r.additional, "total": r.total} for r in rows])

    async def sheet_changes(self, game_id: int) -> list[SheetChange]:
        """The sheet's logged changes, oldest first."""
        async with self._read() as c:
            rows = (await c.execute(select(changes).where(changes.c.game_id == game_id)
                                    .order_by(changes.c.id))).all()
        return [SheetChange(int(r.game_id), r.at, None if r.by is None else int(r.by), r.kind,
                            dict(r.data or {})) for r in rows]

    async def draft_sheets(self) -> list[SheetRecord]:
        """Every draft (to schedule their publication after a start), soonest due first."""
        async with self._read() as c:
            rows = (await c.execute(select(sheets).where(sheets.c.status == "draft")
                                    .order_by(sheets.c.publish_by, sheets.c.game_id))).all()
        return [_record(r) for r in rows]

    async def finished_without_sheet(self, rulesets: Sequence[str], since: datetime
                                     ) -> list[tuple[int, int, datetime]]:
        """Finished games of ``rulesets`` that ended at ``since`` or later and have no sheet
        (the process stopped between a game's end and its sheet): ``(game id, chat id,
        finished_at)``, oldest first."""
        games = Game.__table__
        query = (select(games.c.id, games.c.chat_id, games.c.finished_at)
                 .where(games.c.status == "finished", games.c.ruleset.in_(list(rulesets)),
                        games.c.finished_at >= since,
                        ~select(sheets.c.game_id).where(sheets.c.game_id == games.c.id).exists())
                 .order_by(games.c.finished_at, games.c.id))
        async with self._read() as c:
            return [(int(r[0]), int(r[1]), r[2]) for r in (await c.execute(query)).all()]

    async def game_points(self, game_ids: Sequence[int]) -> dict[int, dict[int, float]]:
        """Published totals: game id -> user id -> points (games without a published sheet are
        absent)."""
        if not game_ids:
            return {}
        async with self._read() as c:
            rows = (await c.execute(select(points.c.game_id, points.c.user_id, points.c.total)
                                    .where(points.c.game_id.in_(list(game_ids))))).all()
        out: dict[int, dict[int, float]] = {}
        for gid, uid, total in rows:
            out.setdefault(int(gid), {})[int(uid)] = float(total)
        return out

    async def game_points_rows(self, game_id: int) -> list[PointsRow]:
        """The published lines of one game, in seat order ([] if not published)."""
        async with self._read() as c:
            rows = (await c.execute(select(points).where(points.c.game_id == game_id)
                                    .order_by(points.c.seat))).all()
        return [PointsRow(int(r.user_id), r.name, int(r.seat), r.role, r.team, bool(r.won),
                          float(r.win_points), float(r.best_move_points), float(r.penalty),
                          float(r.additional), float(r.total)) for r in rows]

    async def points_totals(self, chat_id: int | None = None, user_id: int | None = None,
                            *, per_role: bool = False, game_ids: Sequence[int] | None = None
                            ) -> list[PointsTotals]:
        """Published points summed per player (and per role with ``per_role``), of one chat
        and/or one user and/or the games ``game_ids`` (at least one of them); the name is the
        player's newest. Sorted by total, highest first, then user id."""
        if chat_id is None and user_id is None and game_ids is None:
            raise ValueError("give chat_id, user_id or game_ids")
        p = points
        conds = []
        if chat_id is not None:
            conds.append(p.c.chat_id == chat_id)
        if user_id is not None:
            conds.append(p.c.user_id == user_id)
        if game_ids is not None:
            conds.append(p.c.game_id.in_(list(game_ids)))
        keys = [p.c.user_id, p.c.role] if per_role else [p.c.user_id]
        query = (select(*keys, func.count(), func.sum(func.cast(p.c.won, Integer)),
                        func.sum(p.c.total), func.sum(p.c.win_points),
                        func.sum(p.c.best_move_points), func.sum(p.c.penalty),
                        func.sum(p.c.additional), func.max(p.c.published_at))
                 .where(and_(*conds)).group_by(*keys))
        names = (select(p.c.user_id, p.c.name).where(and_(*conds))
                 .order_by(p.c.published_at, p.c.game_id))
        async with self._read() as c:
            rows = (await c.execute(query)).all()
            newest = {int(uid): name for uid, name in (await c.execute(names)).all()}
        out = []
        for r in rows:
            uid = int(r[0])
            rest = r[2:] if per_role else r[1:]
            out.append(PointsTotals(
                user_id=uid, name=newest.get(uid, ""), role=r[1] if per_role else None,
                games=int(rest[0]), wins=int(rest[1] or 0), total=float(rest[2] or 0),
                win_points=float(rest[3] or 0), best_move_points=float(rest[4] or 0),
                penalty=float(rest[5] or 0), additional=float(rest[6] or 0)))
        out.sort(key=lambda t: (-t.total, t.user_id, t.role or ""))
        return out
