"""A tournament's rounds in the group (issue 22, docs/tournaments.md): the standings posted when a
round ends, and the pictures of the standings and of the schedule (bot/history/tournament_picture.py)
with their texts as the fallback.

:class:`RoundEnd` listens to the score sheets (``SheetService.published``, wired in bot/app.py):
when the published sheet is a tournament game's and every game of its round now has a published
sheet, the home group gets one message: the standings picture captioned with what is next (the
next round, with the home table's «▶️ Start round N»: bot/handlers/tournament_start.py; or the
final table: the tournament is finished). A round is posted once, across
workers too: its number goes to the tournament's ``ui["rounds_posted"]`` by a compare-and-set
(``Storage.claim_round_post``) before the post, and only the worker whose write landed posts.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from aiogram.methods import SendPhoto
from aiogram.types import BufferedInputFile, InlineKeyboardMarkup

from engine.tournament import Row, Schedule

from ..history.tournament_picture import (
    ScheduleCard,
    ScheduleRound,
    StandingLine,
    StandingsCard,
    draw_schedule,
    draw_standings,
)
from ..storage import TournamentRecord
from ..ui.names import isolate
from ..ui.scoring import num
from . import tournament_texts as tx
from .common import Gettext
from .tournament_start import start_markup
from .tournament_tables import gettext_for

if TYPE_CHECKING:
    from ..presentation.presenter import Presenter
    from ..services.tournaments import TournamentService
    from ..storage import Storage
    from ..telegram.sender import Sender
    from ..ui.i18n import Translator

logger = logging.getLogger(__name__)
#: Telegram's limit of a photo's caption (characters)
CAPTION_CHARS = 1024


def post_picture(sender: Sender, chat_id: int, png: bytes | None, filename: str, caption: str,
                 fallback: Sequence[str], markup: InlineKeyboardMarkup | None = None) -> None:
    """One photo ``png`` captioned ``caption`` (HTML, ≤ 1,024 characters); when there is no
    picture or the photo does not go, the ``fallback`` texts instead (one message each).
    ``markup``: the photo's buttons (the last text's)."""
    def texts() -> None:
        for i, page in enumerate(fallback, start=1):
            sender.send(chat_id, page, markup if i == len(fallback) else None)

    if png is None:
        texts()
        return
    fut = sender.call(SendPhoto(chat_id=chat_id, photo=BufferedInputFile(png, filename),
                                caption=caption[:CAPTION_CHARS], parse_mode="HTML",
                                reply_markup=markup), chat_id)

    def sent(f: asyncio.Future[Any]) -> None:
        if not f.cancelled() and f.exception() is None and f.result() is not None:
            return
        logger.info("the picture %s did not go to %s; its text", filename, chat_id)
        texts()

    fut.add_done_callback(sent)


# --- the cards -----------------------------------------------------------------------------------
def standings_card(_: Gettext, t: TournamentRecord, rows: Sequence[Row], names: Mapping[int, str],
                   subtitle: str, *, final: bool, locale: str) -> StandingsCard:
    title = (_("Final table of «{name}»") if final else _("Standings of «{name}»")).format(
        name=t.name)
    lines = tuple(StandingLine(
        place=r.place, name=r.name or names.get(r.user_id, str(r.user_id)),
        points=num(locale, r.points), games=str(r.games), wins=str(r.wins),
        additional=num(locale, r.additional), best_move=num(locale, r.best_move),
        substitute=bool(r.substitute_games),
        per_game=num(locale, r.average) if r.per_game and r.games else "") for r in rows)
    per_game = any(r.per_game for r in rows)
    notes = [tx.per_game_note(_)] if per_game else []
    if any(x.substitute for x in lines):
        notes.append(_("* played as a substitute"))
    return StandingsCard(
        title=title, subtitle=subtitle,
        heads=("#", _("Player"), _("Points"), _("Games"), _("Wins"), _("Additional"),
               _("Best move")),
        rows=lines, note="\n".join(notes), per_game_head=_("Per game") if per_game else "")


def schedule_card(_: Gettext, t: TournamentRecord, schedule: Schedule, names: Mapping[int, str]
                  ) -> ScheduleCard:
    rounds = []
    for r in range(1, schedule.rounds + 1):
        out = schedule.sitting_out(r)
        rounds.append(ScheduleRound(
            label=_("Round {r}").format(r=r),
            tables=tuple((_("Table {t}").format(t=g.table),
                          tuple(names.get(u, str(u)) for u in g.seats))
                         for g in schedule.round(r)),
            sitting_out=_("Sitting out: {names}").format(
                names=", ".join(names.get(u, str(u)) for u in out)) if out else ""))
    return ScheduleCard(
        title=_("Seating of «{name}»").format(name=t.name),
        subtitle=_("Rounds: {rounds} · tables at once: {tables} · seed {seed}").format(
            rounds=schedule.rounds, tables=schedule.tables, seed=schedule.seed),
        rounds=tuple(rounds))


def send_schedule(sender: Sender, chat_id: int, _: Gettext, t: TournamentRecord,
                  schedule: Schedule, names: Mapping[int, str],
                  markup: InlineKeyboardMarkup | None = None, *, note: str = "") -> None:
    """The schedule as one picture (its pages of text when the picture is too large for
    Telegram or does not go); ``note`` (HTML), when given, closes the caption and the first
    page."""
    pages = tx.schedule_pages(_, t, schedule, names)
    if note:
        pages[0] = f"{pages[0]}\n\n{note}"
    png = draw_schedule(schedule_card(_, t, schedule, names))
    caption = _("📋 <b>Seating of «{name}»</b> — rounds: {rounds}, tables at once: {tables}. "
                "As text: /tournament schedule text").format(
        name=isolate(t.name, limit=128), rounds=schedule.rounds, tables=schedule.tables)
    if note:
        caption += "\n\n" + note
    post_picture(sender, chat_id, png, f"tournament-{t.id}-schedule.png", caption, pages, markup)


async def send_standings(sender: Sender, chat_id: int, _: Gettext, t: TournamentRecord,
                         rows: Sequence[Row], names: Mapping[int, str], state: str, *,
                         final: bool, games: int, locale: str,
                         markup: InlineKeyboardMarkup | None = None) -> None:
    """``/tournament``: the standings picture captioned with its title and ``state`` (the
    rounds: bot/handlers/tournament_texts.py ``rounds_text``); the text when no game has its
    sheet yet (nothing to draw) or the photo does not go."""
    text = tx.standings_text(_, t, rows, names, final=final, locale=locale) + "\n\n" + state
    if not games:
        sender.send(chat_id, text, markup)
        return
    subtitle = _("Published games: {n}").format(n=games)
    png = await asyncio.to_thread(draw_standings, standings_card(_, t, rows, names, subtitle,
                                                                 final=final, locale=locale))
    caption = f"{text.splitlines()[0]}\n{subtitle}\n\n{state}"
    post_picture(sender, chat_id, png, f"tournament-{t.id}-standings.png", caption, [text],
                 markup)


# --- the end of a round --------------------------------------------------------------------------
class RoundEnd:
    """``on_published(game_id)``: a ``SheetService.published`` listener (see the module)."""

    def __init__(self, storage: Storage, tr: Translator, sender: Sender,
                 tournaments: TournamentService, presenter: Presenter | None = None) -> None:
        self.storage, self.tr, self.sender, self.tournaments = storage, tr, sender, tournaments
        self.presenter = presenter  # the Mini App's tournament page button (when it is on)
        self._lock = asyncio.Lock()

    async def on_published(self, game_id: int) -> None:
        slot = await self.storage.tournament_of_game(game_id)
        if slot is None:
            return
        async with self._lock:  # two tables' sheets at once in this process: one look
            t = await self.storage.get_tournament(slot.tournament_id)
            schedule = None if t is None else self.tournaments.schedule(t)
            if t is None or schedule is None:
                return
            posted = {int(x) for x in t.ui.get("rounds_posted") or []}
            if slot.round in posted or not await self._complete(t, schedule, slot.round):
                return
            due = await self.tournaments.due(t)
            # across workers: the storage's compare-and-set lets one of them post
            claimed = await self.storage.claim_round_post(t.id, slot.round, finished=due is None)
            if claimed is None:
                return
            await self._post(claimed, schedule, slot.round, due)

    async def recover(self, chats: Callable[[int], bool] | None = None) -> int:
        """Start-up (trial22): post the end of every complete round not posted yet — the process
        stopped between a sheet's publication and its round's post, which no later publication
        would make. ``chats``: only the tournaments whose home group it accepts. Never raises;
        returns the rounds looked at again."""
        seen = 0
        try:
            for t in await self.storage.running_tournaments():
                if chats is not None and not chats(t.chat_id):
                    continue
                posted = {int(x) for x in t.ui.get("rounds_posted") or []}
                games = await self.storage.tournament_games(t.id)
                for r in sorted({g.round for g in games} - posted):
                    last = max((g for g in games if g.round == r), key=lambda g: g.table_no)
                    seen += 1
                    await self.on_published(last.game_id)  # posts it only when complete
        except Exception:
            logger.exception("the tournaments' round ends could not be recovered")
        return seen

    async def _complete(self, t: TournamentRecord, schedule: Schedule, r: int) -> bool:
        """Every game of round ``r`` finished with a published sheet."""
        played = {(g.round, g.table_no): g for g in await self.storage.tournament_games(t.id)}
        for g in schedule.round(r):
            opened = played.get((r, g.table))
            if opened is None or opened.status != "finished":
                return False
            sheet = await self.storage.get_sheet(opened.game_id)
            if sheet is None or not sheet.published:
                return False
        return True

    async def _post(self, t: TournamentRecord, schedule: Schedule, r: int, due: int | None
                    ) -> None:
        locale, _ = await gettext_for(self.storage, self.tr, t.chat_id)
        names = {p.user_id: p.name for p in await self.storage.tournament_players(
            t.id, withdrawn=True)}
        rows = await self.tournaments.standings(t)
        final = due is None
        after = _("After round {r} of {n}").format(r=r, n=schedule.rounds)
        if final:
            # trial22: a tie for the first place names every winner, not the first row's
            top = [isolate(row.name or names.get(row.user_id, "")) for row in rows
                   if row.place == 1]
            head = _("🏁 <b>Final table of «{name}»</b>").format(name=isolate(t.name, limit=128))
            nxt = (_("The tournament is over. Winner: {name}. Congratulations!").format(
                name=top[0] if top else "") if len(top) <= 1 else
                _("The tournament is over. Shared first place: {names}. Congratulations!")
                .format(names=", ".join(top)))
        else:
            head = _("📊 <b>Standings of «{name}»</b>").format(name=isolate(t.name, limit=128))
            playing = sorted(g.table for g in schedule.round(due)) if due else []
            nxt = (_("Next: round {r} of {n} — /newgame in each table's group.") if
                   len(playing) >= schedule.tables else  # trial22: not every table plays it
                   _("Next: round {r} of {n} — /newgame at table {tables} only.")).format(
                r=due, n=schedule.rounds, tables=", ".join(map(str, playing)))
        caption = f"{head}\n{after}\n\n{nxt}"
        text = tx.standings_text(_, t, rows, names, final=final, locale=locale) + \
            f"\n\n{after}\n{nxt}"
        card = standings_card(_, t, rows, names, after, final=final, locale=locale)
        png = await asyncio.to_thread(draw_standings, card)
        markup = None if self.presenter is None else self.presenter.tournament_markup(_, t.id)
        # the home table's «▶️ Start round N» (its lobby opens in this group only)
        markup = await start_markup(self.storage, self.tournaments, _, t, t.chat_id, markup)
        post_picture(self.sender, t.chat_id, png, f"tournament-{t.id}-round-{r}.png", caption,
                     [text], markup)
