"""The judge's presses on a score sheet (issue 21, SCORE-X12/X13/X15; docs/history.md): a part of
:class:`bot.history.sheets.SheetService`, which opens, publishes and shows the sheets.

A press (:meth:`SheetPresses.press` from the private message's buttons, :meth:`SheetPresses.act`
from the Mini App) is refused to anybody but the game's judge, then runs under the sheet's lock:
a step of a seat's additional points (stored at once in a draft; a correction in progress lives
in the sheet's ``ui["pending"]``), publish, correct, save or cancel the correction; the judge's
message is shown again in its new mode. :meth:`SheetPresses.page` is the Mini App's view.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from engine.scoring import ScoreSheet

from ..storage import SheetRecord, Storage
from ..telegram.sender import Sender
from ..ui.callbacks import Sheet
from ..ui.i18n import Translator
from ..ui.scoring import num
from . import sheet_view as V
from .sheet_points import WEB_ACTIONS, additional_of, mode_of, rows_of, stepped

#: the judge's steps of a seat's additional points: show the seat, more, less, none
STEPS = ("s", "+", "-", "0")


class SheetPresses:
    """The presses of :class:`bot.history.sheets.SheetService`; the attributes and the methods
    below the line are the service's (declared here for the checker, defined there)."""

    storage: Storage
    sender: Sender
    tr: Translator
    clock: Callable[[], datetime]  #: aware UTC now
    _locks: defaultdict[int, asyncio.Lock]

    async def _locale(self, game_id: int) -> str:
        raise NotImplementedError

    async def _score(self, rec: SheetRecord, additional: Mapping[int, float]) -> ScoreSheet | None:
        raise NotImplementedError

    async def _set_ui(self, game_id: int, **changes: Any) -> dict[str, Any]:
        raise NotImplementedError

    async def _show(self, rec: SheetRecord, sheet: ScoreSheet, mode: str, locale: str,
                    seat: int = 0, at: tuple[int, int] | None = None) -> None:
        raise NotImplementedError

    async def _publish(self, rec: SheetRecord, by: int | None, *, auto: bool) -> bool:
        raise NotImplementedError

    # --- the judge's presses --------------------------------------------------------------------
    async def press(self, user_id: int, chat_id: int, message_id: int, data: Sheet) -> str | None:
        """SCORE-X12/X13/X15: one press of the judge's sheet; returns the callback answer."""
        return (await self._press(user_id, data, (chat_id, message_id)))[1]

    async def act(self, game_id: int, user_id: int, action: str, seat: int = 0
                  ) -> tuple[str, str | None]:
        """SCORE-X12/X13/X15 from the Mini App (docs/miniapp.md): ``action`` one of
        :data:`WEB_ACTIONS` on seat ``seat``, as the private sheet's button of that code; his
        private message is edited to match. Returns (``ok`` | ``denied``: not the judge |
        ``missing``: no sheet, or a code the page has not, answer)."""
        if action not in WEB_ACTIONS or not 0 <= seat <= 99:
            _ = self.tr.get(await self._locale(game_id))
            return "missing", _("This button is out of date.")
        return await self._press(user_id, Sheet(a=action, g=game_id, t=seat), None)

    async def page(self, game_id: int, user_id: int
                   ) -> tuple[str, ScoreSheet | None, SheetRecord | None]:
        """The Mini App's sheet for ``user_id``: (mode, sheet, record). The judge: his mode
        (:func:`.sheet_points.mode_of`) and, correcting, the pending points; anybody else: the
        published points read-only (mode PUBLISHED or CLOSED), a draft without its sheet."""
        rec = await self.storage.get_sheet(game_id)
        if rec is None:
            return V.CLOSED, None, None
        mode = mode_of(rec, self.clock())
        if rec.judge_id != user_id:
            mode = V.DRAFT if not rec.published else V.CLOSED
            return mode, (await self._score(rec, rec.additional) if rec.published else None), rec
        return mode, await self._score(rec, additional_of(rec, mode)), rec

    async def _press(self, user_id: int, data: Sheet, at: tuple[int, int] | None
                     ) -> tuple[str, str | None]:
        rec = await self.storage.get_sheet(data.g)
        if rec is None:
            _ = self.tr.get(None)
            return "missing", _("This button is out of date.")
        locale = await self._locale(rec.game_id)
        _ = self.tr.get(locale)
        if rec.judge_id is None or user_id != rec.judge_id:
            return "denied", _("Only the judge of game #{id} may fill in its score sheet."
                               ).format(id=rec.game_id)
        async with self._locks[rec.game_id]:
            rec = await self.storage.get_sheet(data.g)
            assert rec is not None  # sheets are never deleted
            if at is not None and (rec.ui.get("chat_id"), rec.ui.get("message_id")) != at:
                await self._set_ui(rec.game_id, chat_id=at[0], message_id=at[1])
                rec = await self.storage.get_sheet(data.g)
                assert rec is not None
            return "ok", await self._act(_, locale, rec, data, at)

    async def _act(self, _: Any, locale: str, rec: SheetRecord, data: Sheet,
                   at: tuple[int, int] | None) -> str | None:
        mode = mode_of(rec, self.clock())
        correcting = rec.published and isinstance(rec.ui.get("pending"), dict)
        additional = additional_of(rec, mode)
        sheet = await self._score(rec, additional)
        if sheet is None:
            return _("This button is out of date.")
        if mode == V.CLOSED:
            if correcting:
                await self._set_ui(rec.game_id, pending=None)
            await self._show(rec, sheet, V.CLOSED, locale, at=at)
            return _("The sheet can no longer be corrected: its 24 hours are over.")
        a = data.a
        if a in STEPS:
            if mode == V.PUBLISHED:  # a draft's button pressed after the publication
                await self._show(rec, sheet, mode, locale, at=at)
                return _("The sheet is already published.")
            line = next((x for x in sheet.seats if x.seat == data.t), None)
            if line is None:
                return _("This button is out of date.")
            answer = None
            if a != "s":
                value = stepped(sheet.system, line.additional, a)
                if value is None:
                    return _("That is the end of the system's range.")
                additional.pop(line.user_id, None)
                if value:
                    additional[line.user_id] = value
                if mode == V.DRAFT:
                    if await self.storage.set_sheet_additional(rec.game_id, rec.judge_id,
                                                               additional) is None:
                        return _("The sheet is already published.")
                else:
                    await self._set_ui(rec.game_id, pending={str(k): v for k, v in additional.items()})
                rec = await self.storage.get_sheet(rec.game_id) or rec
                sheet = await self._score(rec, additional) or sheet
                answer = _("Seat {n}: {points}").format(n=line.seat,
                                                        points=num(locale, value))
            await self._show(rec, sheet, mode, locale, data.t, at=at)
            return answer
        if a == "pub" and mode == V.DRAFT:
            await self._publish(rec, rec.judge_id, auto=False)
            return _("Published.")
        if a == "cor" and mode == V.PUBLISHED:
            await self._set_ui(rec.game_id, pending={str(k): v for k, v in rec.additional.items()})
            await self._show(rec, sheet, V.CORRECTING, locale, at=at)
            return None
        if a in ("sv", "cx") and mode == V.CORRECTING:
            return await self._save(_, locale, rec, sheet, additional, at, cancel=a == "cx")
        if a == "pub" or (a in ("sv", "cx") and mode == V.PUBLISHED):
            await self._show(rec, sheet, mode, locale, at=at)
            return _("The sheet is already published.")
        return _("This button is out of date.")

    async def _save(self, _: Any, locale: str, rec: SheetRecord, sheet: ScoreSheet,
                    additional: dict[int, float], at: tuple[int, int] | None, *, cancel: bool
                    ) -> str | None:
        """SCORE-X13: save (or drop) the correction in progress."""
        if cancel or additional == rec.additional:
            await self._set_ui(rec.game_id, pending=None)
            old = await self._score(rec, rec.additional) or sheet
            await self._show(rec, old, V.PUBLISHED, locale, at=at)
            return _("No change.") if not cancel else None
        before = {r.user_id: r.total for r in await self.storage.game_points_rows(rec.game_id)}
        done = await self.storage.correct_sheet(rec.game_id, rec.judge_id or 0, additional,
                                                rows_of(sheet), now=self.clock())
        await self._set_ui(rec.game_id, pending=None)
        if done is None:
            await self._show(rec, sheet, V.CLOSED, locale, at=at)
            return _("The sheet can no longer be corrected: its 24 hours are over.")
        self.sender.send(rec.chat_id, V.corrected_text(_, locale, rec.game_id, before, sheet))
        await self._show(done, sheet, V.PUBLISHED, locale, at=at)
        return _("Saved.")
