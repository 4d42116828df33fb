"""HistoryService: keeps the derived history tables up to date and serves /history's views.

* ``on_step`` is a :class:`bot.services.game_service.GameService` listener, awaited after every
  stored command:
  a ``GameCreated`` DMs the chat's /nextgame subscribers, a ``GameEnded`` records the game's
  summary, player results and rating change (:meth:`record`).
* :meth:`backfill` (at start-up) records finished games that have no summary yet (e.g. the bot
  stopped between the last command and the recording) and rebuilds those chats' ratings.
* The views (protocol, replay, "what I knew", export) are built from the stored log on demand;
  a finished game's log never changes, so the parsed entries of recent games are cached.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any, Protocol

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError

import engine
import engine.noir

from ..storage import GameRecord, Storage
from ..storage.history import HistoryRecord
from . import games
from . import protocol as P
from .export import dumps, export_document, sheet_document
from .keyboards import link_keyboard
from .stats import rate, summarize, summarize_outcome

logger = logging.getLogger(__name__)
MEMBER_STATUSES = ("creator", "administrator", "member", "restricted")
#: the events that open a lobby and end a game, of every game (NOIR has events of its own)
CREATED = (engine.GameCreated, engine.noir.GameCreated)
ENDED = (engine.GameEnded, engine.noir.GameEnded)


class Sender(Protocol):
    """What the /nextgame DMs use of :class:`bot.telegram.sender.Sender`."""

    def send(self, chat_id: int, text: str, reply_markup: Any = None) -> Any: ...


class Translator(Protocol):
    """What the /nextgame DMs use of :class:`bot.ui.i18n.Translator`."""

    def get(self, locale: str | None) -> Callable[[str], str]: ...


class Presenter(Protocol):
    """What the /nextgame DMs use of :class:`bot.presentation.presenter.Presenter`: deep links and the
    chat titles it knows (chat id -> title)."""

    titles: dict[int, str]

    def deep_link(self, payload: str) -> str: ...


class SteppedGame(Protocol):
    """What :meth:`HistoryService.on_step` reads of the game held in memory
    (:class:`bot.services.game_service.GameService`'s games)."""

    @property
    def id(self) -> int: ...
    @property
    def chat_id(self) -> int: ...
    @property
    def locale(self) -> str: ...
    @property
    def ui(self) -> dict[str, Any]: ...


class OrganisedState(Protocol):
    """A game state as :meth:`HistoryService.on_step` reads it: who opened the lobby."""

    @property
    def organiser(self) -> int | None: ...


@dataclass
class Loaded:
    """A game of the history: its list entry, its games row and its parsed log.  ``hook``: the
    game's own history rendering (NOIR; :mod:`.games`), None for the mafia presets."""

    info: HistoryRecord
    game: GameRecord
    entries: list[P.Entry]
    _steps: list[Any] | None = field(default=None, repr=False)

    @property
    def hook(self) -> games.HistoryHook | None:
        return games.hook(self.info.ruleset)

    def replay(self, viewer: int | None = None, *, full: bool | None = None) -> P.Replay:
        return P.build_replay(self.entries, viewer, full=full)

    def protocol(self) -> P.Protocol:
        return P.build_protocol(self.entries)

    def participants(self) -> set[int]:
        if self.hook is not None:
            return self.hook.participants(self.entries)
        return P.participants(self.entries)

    def steps(self) -> list[Any]:
        """The boards of a hooked game's replay, computed once (the log never changes).
        ``AssertionError`` for a game without a hook (the mafia presets have no boards)."""
        if self._steps is None:
            hook = self.hook
            assert hook is not None, self.info.ruleset
            self._steps = hook.steps(self.entries)
        return self._steps


class HistoryService:
    """``presenter`` (for deep links and chat titles), ``sender`` and ``translator`` are needed
    for the /nextgame DMs only."""

    def __init__(self, storage: Storage, *, sender: Sender | None = None,
                 translator: Translator | None = None, presenter: Presenter | None = None,
                 cache_size: int = 32) -> None:
        self.storage = storage
        self.sender = sender
        self.tr = translator
        self.presenter = presenter
        self._cache: OrderedDict[int, Loaded] = OrderedDict()
        self._cache_size = cache_size

    # --- keeping the tables -----------------------------------------------------------------
    async def on_step(self, g: SteppedGame, before: object, new: OrganisedState,
                      events: Sequence[object]) -> None:
        """GameService listener (see the module docstring). Never raises."""
        try:
            if any(isinstance(e, CREATED) for e in events):
                await self.notify_subscribers(g.chat_id, g.id, g.locale, skip=new.organiser)
            if any(isinstance(e, ENDED) for e in events):
                await self.record(g.id, title=g.ui.get("title", ""))
        except Exception:
            logger.exception("game %s: history hook failed", g.id)

    async def record(self, game_id: int, title: str = "") -> bool:
        """Record a finished game (summary, results, ratings). False if it is not finished,
        already recorded or deleted from the history."""
        game = await self.storage.get_game(game_id)
        if game is None or game.status != "finished":
            return False
        entries = P.entries_from(await self.storage.load_entries(game_id))
        title = title or (game.ui or {}).get("title", "") or self._title(game.chat_id)
        hook = games.hook(game.ruleset)
        if hook is not None:  # a game with its own history (NOIR)
            outcome = hook.outcome(entries)
            if outcome is None:
                logger.warning("game %s is finished but its log has no result", game_id)
                return False
            summary, players = summarize_outcome(game, outcome, title)
            return await self.storage.record_game(summary, players, rate)
        pr = P.build_protocol(entries)
        if pr.result is None:
            logger.warning("game %s is finished but its log has no result", game_id)
            return False
        summary, players = summarize(game, pr, title)
        return await self.storage.record_game(summary, players, rate)

    async def backfill(self) -> int:
        """Record every finished game that has no summary; rebuild the touched chats' ratings
        (they were applied out of order). Returns the number of games recorded."""
        done = 0
        chats: set[int] = set()
        for game_id in await self.storage.unrecorded_games():
            try:
                if await self.record(game_id):
                    done += 1
                    rec = await self.storage.get_game(game_id)
                    assert rec is not None  # just recorded: games are never deleted
                    chats.add(rec.chat_id)
            except Exception:
                logger.exception("game %s: cannot record it in the history", game_id)
        for chat_id in chats:
            await self.storage.rebuild_ratings(chat_id, rate)
        if done:
            logger.info("history: recorded %s finished game(s)", done)
        return done

    async def notify_subscribers(self, chat_id: int, game_id: int, locale: str,
                                 skip: int | None = None) -> int:
        """DM the chat's /nextgame subscribers about lobby ``game_id`` (``skip``: the user who
        opened it); the subscriptions are used up (one made from now on waits for the
        following game). Returns how many were used up."""
        subs = await self.storage.take_subscriptions(chat_id)
        if self.sender is None or self.tr is None or self.presenter is None:
            return len(subs)
        _ = self.tr.get(locale)
        url = self.presenter.deep_link(f"join_{game_id}")
        for user_id, title in subs:
            if user_id == skip:
                continue
            text = _("🎲 A new game is open in «{chat}». Join it before it starts!").format(
                chat=escape(title or self._title(chat_id)))
            self.sender.send(user_id, text, link_keyboard(_("➕ Join"), url))
        return len(subs)

    def _title(self, chat_id: int) -> str:
        return self.presenter.titles.get(chat_id, "") if self.presenter is not None else ""

    async def delete(self, game_id: int, by: int | None) -> int | None:
        """Remove the game from the history (admins only: checked by the caller). Returns its
        chat id, or None if it was not in the history."""
        self._cache.pop(game_id, None)
        return await self.storage.delete_from_history(game_id, by, rate)

    # --- views ------------------------------------------------------------------------------
    async def load(self, game_id: int) -> Loaded | None:
        """The game if it is in the history (finished, recorded, not deleted), else None."""
        info = await self.storage.history_record(game_id)
        if info is None:
            self._cache.pop(game_id, None)
            return None
        cached = self._cache.get(game_id)
        if cached is not None:
            self._cache.move_to_end(game_id)
            return cached
        game = await self.storage.get_game(game_id)
        if game is None:
            return None
        loaded = Loaded(info, game, P.entries_from(await self.storage.load_entries(game_id)))
        self._cache[game_id] = loaded
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return loaded

    async def may_view(self, bot: Bot, loaded: Loaded, user_id: int) -> bool:
        """A player or host of the game, or a member of its group."""
        if user_id in loaded.participants():
            return True
        try:
            member = await bot.get_chat_member(loaded.info.chat_id, user_id)
        except TelegramAPIError:
            return False
        return member.status in MEMBER_STATUSES

    async def export_bytes(self, loaded: Loaded) -> bytes:
        """The export (:mod:`.export`, version 2): the log and the game's score sheet."""
        gid = loaded.game.id
        players = await self.storage.list_players(gid)
        record = await self.storage.get_sheet(gid)
        sheet = None if record is None else sheet_document(
            record, await self.storage.sheet_changes(gid),
            await self.storage.game_points_rows(gid) if record.published else [])
        return dumps(export_document(loaded.game, players, loaded.entries, sheet=sheet))


def export_filename(game_id: int) -> str:
    return f"mafia-game-{game_id}.json"
