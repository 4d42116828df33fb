"""The finished sport game's score sheet on the Mini App (issue 21 part 2; docs/miniapp.md
"The score sheet"; SCORE-X12..X15): what the page shows of it, per viewer, and the judge's
presses, which run :meth:`bot.history.sheets.SheetService.act` -- the private sheet's own path
(his private message is edited to match).

The sheet's JSON (``table["sheet"]``; absent: the game has no sheet)::

    {"mode": "draft" | "published" | "correcting" | "closed", "judge": bool,
     "title": str, "head": str (winner, system; not in a draft to others), "note": str,
     "step": str (the system's step, formatted) | None,
     "columns": [str] * 5 (win, best move, penalty, additional, total),
     "seats": [{"seat", "name", "role": {"id", "name"}, "team", "fouls", "left": str | None,
                "points": [str] * 5, "total": float}] (empty: a draft, to anybody but the judge),
     "buttons": [{"a", "t", "label"[, "confirm"]}]  (the judge's only; per seat ``-`` / ``+``)}

Points are strings as the private sheet writes them (``bot.ui.scoring.num``: locale's separator, a true
minus sign). Only the sheet's judge (``judge_id``) gets buttons; anybody else sees the published
points, the same to all (the finished game's audience: its players and the group's members).
"""

from __future__ import annotations

from typing import Any

from ..history import sheet_view as V
from ..history.lines import team_text
from ..history.protocol_card import LEFT_WORDS
from ..ui.i18n import N_
from ..ui.scoring import num, system_name
from ..ui.texts import ROLE_NAMES
from .texts import Gettext

#: the judge's modes in which the seats' points may change
EDITING = (V.DRAFT, V.CORRECTING)
NOTES = {
    V.DRAFT: N_("A draft: set the additional points with − / +, then publish. Unpublished, it "
                "publishes itself without them at {time}."),
    V.CORRECTING: N_("Correcting the published sheet (until {time}): save to publish the "
                     "change."),
    V.PUBLISHED: N_("Published. You may correct it until {time}."),
    V.CLOSED: N_("Published."),
}
#: a draft to anybody but the judge
DRAFT_NOTE = N_("📊 Score sheet: a draft. The points come with its publication.")


def sheet_json(_: Gettext, locale: str, mode: str, sheet: Any, rec: Any, judge: bool
               ) -> dict[str, Any] | None:
    """The sheet as the page draws it (the module's shape): ``mode``, ``sheet`` and ``rec``
    from :meth:`SheetService.page`; ``judge``: the viewer is the sheet's judge. None: no
    sheet."""
    if rec is None:
        return None
    out: dict[str, Any] = {"mode": mode, "judge": judge, "seats": [], "buttons": [],
                           "title": _("📋 Score sheet"), "step": None, "columns": [
                               _("win"), _("BM"), _("pen."), _("add."), _("total")]}
    if sheet is None:
        out["note"] = _(DRAFT_NOTE)
        return out
    at = rec.publish_by if mode == V.DRAFT else rec.corrections_until
    when = at.strftime("%H:%M UTC" if mode == V.DRAFT else "%d.%m %H:%M UTC") if at else "?"
    out["note"] = _(NOTES[mode]).format(time=when)
    out["head"] = _("{team} wins · scoring: {system}").format(
        team=team_text(_, sheet.winner.value), system=system_name(_, sheet.system))
    editing = judge and mode in EDITING
    if editing:
        out["step"] = num(locale, sheet.system.additional_step)
    for line in sheet.seats:
        word = LEFT_WORDS.get(line.left or "")
        out["seats"].append({
            "seat": line.seat, "name": line.name,
            "role": {"id": line.role.value, "name": _(ROLE_NAMES[line.role])
                     if line.role in ROLE_NAMES else line.role.value},
            "team": line.team.value, "fouls": line.fouls,
            "left": (_(word) if word else _("left")) if line.left else None,
            "points": [num(locale, v) for v in (
                line.win_points, line.best_move_points, line.penalty, line.additional,
                line.total)],
            "total": line.total})
        if editing:
            out["buttons"] += [{"a": "-", "t": line.seat, "label": "−"},
                               {"a": "+", "t": line.seat, "label": "+"}]
    if judge:
        out["buttons"] += _judge_buttons(_, mode)
    return out


def _judge_buttons(_: Gettext, mode: str) -> list[dict[str, Any]]:
    """The sheet's own buttons in ``mode``: Publish (confirmed), Correct, Save (confirmed) /
    Cancel."""
    if mode == V.DRAFT:
        return [{"a": "pub", "t": 0, "label": _("✅ Publish"), "confirm": _(
            "Publish the score sheet? The group gets it with its picture; after that a change "
            "is a correction.")}]
    if mode == V.PUBLISHED:
        return [{"a": "cor", "t": 0, "label": _("✏️ Correct")}]
    if mode == V.CORRECTING:
        return [{"a": "sv", "t": 0, "label": _("💾 Save"), "confirm": _(
            "Save the correction? The group is told of the changed totals.")},
                {"a": "cx", "t": 0, "label": _("✖️ Cancel")}]
    return []


async def sheet_of(sheets: Any, _: Gettext, locale: str, game_id: int, user_id: int
                   ) -> dict[str, Any] | None:
    """The game's sheet for ``user_id`` (:func:`sheet_json`); None: no sheet."""
    mode, sheet, rec = await sheets.page(game_id, user_id)
    return sheet_json(_, locale, mode, sheet, rec, rec is not None and rec.judge_id == user_id)


__all__ = ["sheet_json", "sheet_of"]
