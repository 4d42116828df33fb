"""The score sheet after a sport game (issue 21, docs/rules/scoring.md SCORE-X10..X16;
docs/history.md): created when a club or online game ends, filled in by its judge in his
private chat, published to the group with the protocol picture, corrected for a while.

* :meth:`SheetService.on_step` (a GameService listener, after the history's) opens the sheet
  of a game that just ended (:meth:`open`).  The system is the game's ``settings["scoring"]``
  (FIIM when absent; a bad stored value: FIIM and a warning).  With a judge (the game's host)
  and a system with additional points: a draft, the judge's private message (one message,
  edited on every press), and a job ``sheet:{game}`` that publishes it at ``publish_by``
  (:data:`bot.ui.timings.SHEET_PUBLISH_AFTER` after the end) with no additional points.
  Otherwise the automatic points are published at once.
* Publishing (:meth:`_publish`) stores the points per player (``player_points``, exactly once)
  and sends the group one photo: the protocol picture with the short table as its caption (the
  caption alone as text when the photo cannot go).
* :meth:`press`: the judge's buttons (:class:`bot.ui.callbacks.Sheet`; the press flow is
  :class:`bot.history.sheet_press.SheetPresses`); only the judge may press them.  Every press
  of the draft stores its additional points (a restart keeps them); a correction in progress
  lives in the sheet's ``ui["pending"]`` until saved.
* :meth:`recover` (start-up): every draft's job again; an overdue one is published at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from aiogram.methods import SendPhoto
from aiogram.types import BufferedInputFile

import engine
from engine.core.serialize import command_from_dict
from engine.scoring import BadScoring, ScoreSheet

from ..storage import SheetRecord, Storage
from ..telegram.sender import Sender
from ..ui.i18n import Translator
from ..ui.timings import SHEET_CORRECTIONS_FOR, SHEET_PUBLISH_AFTER
from . import protocol as P
from . import sheet_view as V
from .protocol_card import build_card, sheet_of_entries
from .protocol_picture import draw
from .service import HistoryService
from .sheet_points import Jobs, job_id, rows_of, system_of
from .sheet_press import SheetPresses

logger = logging.getLogger(__name__)
#: the presets whose games are scored (sport mafia)
SCORED = ("club", "online")


class SheetService(SheetPresses):
    """``deadlines``: arms the publication jobs; ``clock``: aware UTC now (the service's)."""

    def __init__(self, storage: Storage, sender: Sender, translator: Translator,
                 history: HistoryService, deadlines: Jobs, clock: Callable[[], datetime], *,
                 publish_after: timedelta = SHEET_PUBLISH_AFTER,
                 corrections_for: timedelta = SHEET_CORRECTIONS_FOR) -> None:
        self.storage, self.sender, self.tr, self.history = storage, sender, translator, history
        self.deadlines, self.clock = deadlines, clock
        self.publish_after, self.corrections_for = publish_after, corrections_for
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._tasks: set[asyncio.Task[None]] = set()
        #: called with the game id after each publication (not a correction), in order, each
        #: one's failure logged: the tournament's round end (bot/handlers/tournament_rounds.py)
        self.published: list[Callable[[int], Awaitable[None]]] = []

    # --- opening and publishing ----------------------------------------------------------------
    async def on_step(self, g: Any, before: object, new: Any, events: Sequence[object]) -> None:
        """GameService listener: a club or online game that just ended gets its sheet. Never
        raises."""
        try:
            if any(isinstance(e, engine.GameEnded) for e in events) and \
                    getattr(new, "ruleset", None) in SCORED:
                await self.open(g.id, getattr(new, "host", None))
        except Exception:
            logger.exception("game %s: opening its score sheet failed", g.id)

    async def open(self, game_id: int, judge: int | None) -> SheetRecord | None:
        """SCORE-X10/X11: create the finished game's sheet (once: a second call returns the
        stored one) and publish it at once, or hand the draft to ``judge`` (due
        ``publish_after`` from now: from when he gets it). None: no sheet (not a finished club
        or online game)."""
        game = await self.storage.get_game(game_id)
        if game is None or game.status != "finished" or game.ruleset not in SCORED:
            return None
        system = system_of(game.settings, game_id)
        async with self._locks[game_id]:
            old = await self.storage.get_sheet(game_id)
            if old is not None:
                return old
            judged = judge is not None and system.has_additional
            due = self.clock() + self.publish_after if judged else None
            rec = await self.storage.create_sheet(game_id, game.chat_id, judge if judged else None,
                                                  system.to_settings(), due)
            if rec.judge_id is None:
                await self._publish(rec, None, auto=True)
                return await self.storage.get_sheet(game_id)
            self._arm(rec)
            sheet = await self._score(rec, {})
            if sheet is not None:
                await self._show(rec, sheet, V.DRAFT, game.locale)
        return rec

    def _arm(self, rec: SheetRecord) -> None:
        if rec.publish_by is not None:
            self.deadlines.arm_job(job_id(rec.game_id), rec.publish_by, self.publish_due,
                                   rec.game_id)

    async def publish_due(self, game_id: int) -> bool:
        """SCORE-X11: the job at ``publish_by``: a draft still unpublished goes out with no
        additional points. Never raises; True when it published."""
        try:
            async with self._locks[game_id]:
                rec = await self.storage.get_sheet(game_id)
                if rec is None or rec.published:
                    return False
                return await self._publish(rec, None, auto=True)
        except Exception:
            logger.exception("game %s: publishing its score sheet failed", game_id)
            return False

    async def recover(self, chats: Callable[[int], bool] | None = None) -> int:
        """Start-up: open the sheet of a game that ended without one in the last
        ``corrections_for`` (the process stopped in between); arm every draft's publication
        again (``chats``: only those chats'); an overdue one is published at once; a judge who
        never got his draft (no message remembered) gets it. Returns the drafts seen."""
        since = self.clock() - self.corrections_for
        for game_id, chat_id, _ended in await self.storage.finished_without_sheet(SCORED, since):
            if chats is None or chats(chat_id):  # ended, and the process stopped before its sheet
                state = engine.replay([command_from_dict(e.command)
                                       for e in await self._entries(game_id)])[0]
                await self.open(game_id, getattr(state, "host", None))  # 15 min from now
        drafts = [r for r in await self.storage.draft_sheets() if chats is None or chats(r.chat_id)]
        for rec in drafts:
            if rec.publish_by is None or rec.publish_by <= self.clock():
                await self.publish_due(rec.game_id)
                continue
            self._arm(rec)
            if rec.judge_id is not None and "message_id" not in rec.ui:
                # trial22: the process stopped before the judge got his draft: without it he
                # could not fill it (only its publication by itself, 15 min later, was left)
                sheet = await self._score(rec, rec.additional)
                if sheet is not None:
                    await self._show(rec, sheet, V.DRAFT, await self._locale(rec.game_id))
        return len(drafts)

    async def _publish(self, rec: SheetRecord, by: int | None, *, auto: bool) -> bool:
        """Publish the draft ``rec`` with its additional points (the caller holds its lock);
        ``auto``: by itself, a judge's draft with none (SCORE-X11)."""
        additional = {} if auto else rec.additional
        sheet = await self._score(rec, additional)
        if sheet is None:
            return False
        until = self.clock() + self.corrections_for if rec.judge_id is not None else None
        done = await self.storage.publish_sheet(rec.game_id, by, additional, rows_of(sheet), until,
                                                auto=auto)
        if done is None:  # published meanwhile (another worker)
            return False
        self.deadlines.cancel_job(job_id(rec.game_id))
        locale = await self._locale(rec.game_id)
        _ = self.tr.get(locale)
        caption = V.published_caption(_, locale, rec.game_id, sheet, auto=auto,
                                      judged=rec.judge_id is not None)
        await self._post_picture(rec.chat_id, rec.game_id, locale, sheet, caption)
        if done.judge_id is not None:
            await self._show(done, sheet, V.PUBLISHED, locale)
        for listener in self.published:
            try:
                await listener(rec.game_id)
            except Exception:
                logger.exception("game %s: a listener of its sheet's publication failed",
                                 rec.game_id)
        return True

    async def _post_picture(self, chat_id: int, game_id: int, locale: str, sheet: ScoreSheet,
                            caption: str) -> None:
        """SCORE-X14: one group message: the protocol picture with ``caption``; the caption as
        text when the photo does not go."""
        _ = self.tr.get(locale)
        entries = await self._entries(game_id)
        card = build_card(_, locale, P.build_protocol(entries), sheet, game_id=game_id)
        png = await asyncio.to_thread(draw, card)
        fut = self.sender.call(SendPhoto(chat_id=chat_id, photo=BufferedInputFile(png, "sheet.png"),
                                         caption=caption, parse_mode="HTML"), chat_id)

        def sent(f: asyncio.Future[Any]) -> None:
            if not f.cancelled() and f.exception() is None and f.result() is not None:
                return
            logger.info("game %s: the sheet's picture did not go to %s; its text", game_id, chat_id)
            self.sender.send(chat_id, caption)

        fut.add_done_callback(sent)

    # --- reading --------------------------------------------------------------------------------
    async def _entries(self, game_id: int) -> list[P.Entry]:
        loaded = await self.history.load(game_id)
        if loaded is not None:
            return loaded.entries
        return P.entries_from(await self.storage.load_entries(game_id))

    async def _score(self, rec: SheetRecord, additional: Mapping[int, float]) -> ScoreSheet | None:
        """The sheet of ``rec``'s game with ``additional`` (None: the log has no sheet; bad
        stored points are logged and left out)."""
        # trial22: ``rec.system`` is the system's own dict (``to_settings``), not a game's
        # settings: read as settings, every sheet was scored with FIIM
        system = system_of({"scoring": rec.system}, rec.game_id)
        entries = await self._entries(rec.game_id)
        try:
            return sheet_of_entries(entries, system, dict(additional))
        except BadScoring as e:
            logger.warning("game %s: stored additional points refused (%s); none", rec.game_id, e)
            return sheet_of_entries(entries, system, None)

    async def _locale(self, game_id: int) -> str:
        game = await self.storage.get_game(game_id)
        return self.tr.locale(game.locale if game is not None else None)

    async def view(self, game_id: int) -> tuple[ScoreSheet | None, SheetRecord | None]:
        """/history: the game's stored sheet and, when published, its points (SCORE-X16)."""
        rec = await self.storage.get_sheet(game_id)
        if rec is None or not rec.published:
            return None, rec
        return await self._score(rec, rec.additional), rec

    # --- the judge's message --------------------------------------------------------------------
    async def _show(self, rec: SheetRecord, sheet: ScoreSheet, mode: str, locale: str,
                    seat: int = 0, at: tuple[int, int] | None = None) -> None:
        """Show the judge his sheet in ``mode``: an edit of ``at`` (chat, message) or of the
        stored message, else a new message (remembered in the sheet's ``ui``)."""
        _ = self.tr.get(locale)
        text = V.judge_text(_, locale, rec.game_id, await self._ruleset(rec.game_id), sheet, rec,
                            mode, seat)
        markup = V.judge_keyboard(_, locale, rec.game_id, sheet, mode, seat)
        if at is None and "message_id" in rec.ui:
            at = (int(rec.ui["chat_id"]), int(rec.ui["message_id"]))
        if at is not None:
            self.sender.edit(at[0], at[1], text, markup)
            return
        assert rec.judge_id is not None  # only a judge's sheet is shown
        fut = self.sender.send(rec.judge_id, text, markup, merge=False)
        task = asyncio.create_task(self._remember(rec.game_id, rec.judge_id, fut))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _remember(self, game_id: int, chat_id: int, fut: asyncio.Future[Any]) -> None:
        try:
            message = await fut
        except Exception:  # noqa: BLE001 - a lost message: the job publishes the draft anyway
            return
        if message is not None:
            await self._set_ui(game_id, chat_id=chat_id, message_id=int(message.message_id))

    async def _set_ui(self, game_id: int, **changes: Any) -> dict[str, Any]:
        rec = await self.storage.get_sheet(game_id)
        ui = dict(rec.ui) if rec is not None else {}
        for key, value in changes.items():
            if value is None:
                ui.pop(key, None)
            else:
                ui[key] = value
        await self.storage.set_sheet_ui(game_id, ui)
        return ui

    async def _ruleset(self, game_id: int) -> str:
        game = await self.storage.get_game(game_id)
        return game.ruleset if game is not None else ""

    async def settle(self) -> None:
        """Wait for the judge's messages being remembered (tests; a clean stop)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
