"""What the score sheets' service (bot/history/sheets.py) computes without I/O: the game's
scoring system from its settings, the stored lines of a sheet, the judge's steps of additional
points, the publication job's id (SCORE-X10, X12)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime
from typing import Any, Protocol

from engine.scoring import FIIM, BadScoring, ScoreSheet, ScoringSystem, system_from_settings

from ..storage import PointsRow, SheetRecord
from .sheet_view import CLOSED, CORRECTING, DRAFT, PUBLISHED

logger = logging.getLogger("bot.history.sheets")

__all__ = ["WEB_ACTIONS", "Jobs", "additional_of", "job_id", "mode_of", "rows_of", "stepped",
           "system_of"]
#: the sheet's codes the Mini App may send (:class:`bot.ui.callbacks.Sheet` but the seat's
#: choice, which only the private message needs)
WEB_ACTIONS = frozenset({"+", "-", "0", "pub", "cor", "sv", "cx"})


class Jobs(Protocol):
    """What the sheets use of :class:`bot.services.deadlines.Deadlines`."""

    def arm_job(self, job_id: str, run_at: datetime, func: Callable[..., Awaitable[Any]],
                *args: Any) -> None: ...
    def cancel_job(self, job_id: str) -> None: ...


def job_id(game_id: int) -> str:
    return f"sheet:{game_id}"


def system_of(settings: Mapping[str, Any] | None, game_id: int = 0) -> ScoringSystem:
    """SCORE-X10: the game's system from its stored ``settings["scoring"]`` (FIIM when absent;
    a value that does not read as a system: FIIM, with a warning)."""
    raw = (settings or {}).get("scoring") or {"base": "fiim"}
    try:
        if not isinstance(raw, Mapping):
            raise BadScoring("scoring", "not_a_number", raw)
        return system_from_settings(raw)
    except BadScoring as e:
        logger.warning("game %s: bad scoring settings %r (%s); FIIM instead", game_id, raw, e)
        return FIIM


def rows_of(sheet: ScoreSheet) -> list[PointsRow]:
    """The sheet's lines as stored per player."""
    return [PointsRow(line.user_id, line.name, line.seat, line.role.value, line.team.value,
                      line.won, line.win_points, line.best_move_points, line.penalty,
                      line.additional, line.total) for line in sheet.seats]


def stepped(system: ScoringSystem, current: float, action: str) -> float | None:
    """SCORE-X12: the seat's additional points after ``action`` (``+`` the next value of the
    system's steps, ``-`` the previous, ``0`` none); None: no such value (the range's end)."""
    if action == "0":
        return 0.0
    values = system.additional_values()
    if action == "+":
        up = [v for v in values if v > current + 1e-9]
        return up[0] if up else None
    down = [v for v in values if v < current - 1e-9]
    return down[-1] if down else None


def mode_of(rec: SheetRecord, now: datetime) -> str:
    """SCORE-X12/X13: the judge's mode of the sheet ``rec`` at ``now``: DRAFT (not published),
    CLOSED (published, its correction window over or none), CORRECTING (a correction pending in
    ``rec.ui["pending"]``), else PUBLISHED."""
    if not rec.published:
        return DRAFT
    if rec.corrections_until is None or now > rec.corrections_until:
        return CLOSED
    return CORRECTING if isinstance(rec.ui.get("pending"), dict) else PUBLISHED


def additional_of(rec: SheetRecord, mode: str) -> dict[int, float]:
    """The additional points the judge works on in ``mode``: a correction's pending ones, else
    the stored ones (user id -> points)."""
    pending = rec.ui.get("pending")
    if mode == CORRECTING and isinstance(pending, dict):
        return {int(k): float(v) for k, v in pending.items()}
    return dict(rec.additional)
