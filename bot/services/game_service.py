"""GameService: the application service between handlers and the engine (design.md §1).

One command at a time per game (an ``asyncio.Lock`` per game id): load the state (cached; rebuilt
by replaying the log after a restart), ``engine.apply``, append command + events to the log in one
transaction, re-arm the deadline, then hand the events to the presenter, which only enqueues
messages on the :class:`~bot.telegram.sender.Sender`.  A failed send therefore never loses a command.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections import defaultdict
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any, cast

from engine import Command, GameOver, GameState, apply, decode_log, game_of
from engine.core.events import EventLike

from ..storage import KEEP, GameRecord, LogConflict, PlayerOp, Storage
from ..storage.fencing import Fence, StaleEpoch
from ..telegram.shown import KEY as SHOWN
from ..telegram.shown import Watermarks, replay_unshown
from ..telegram.update_context import ACTING, current_update
from ..ui.names import with_names
from .base import MaybeState
from .deadlines import Deadlines
from .index import GameIndex, members_of
from .lifecycle import GameLifecycle
from .live import LiveGame
from .ops import GameOps, NotOwner, random_seed
from .roster import ADDS, HOSTS, JOINS, LEAVES, STARTS
from .visible_clock import VisibleClock

logger = logging.getLogger(__name__)

Clock = Callable[[], datetime]


def utcnow() -> datetime:
    return datetime.now(UTC)


class GameService(GameOps, GameIndex, GameLifecycle):
    """Runs commands for games. All public coroutines are safe to call concurrently."""

    def __init__(self, storage: Storage, presenter: Any, *, deadlines: Deadlines | None = None,
                 clock: Clock = utcnow, lobby_timeout: int = 1800) -> None:
        self.storage = storage
        self.presenter = presenter
        self.deadlines = deadlines
        self.clock = clock
        self.lobby_timeout = lobby_timeout
        self.games: dict[int, LiveGame] = {}
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._user_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = \
            weakref.WeakValueDictionary()
        #: user id -> ids of the games in memory he plays or hosts (for :meth:`seen`); may
        #: hold ids of games that ended or that he left (checked there), never misses one.
        self._by_user: defaultdict[int, set[int]] = defaultdict(set)
        #: ``await listener(game, before, after, events)`` after each stored command (under the
        #: game's lock, after the presenter); e.g. the history (bot/history/service.py).
        self.listeners: list[Callable[..., Any]] = []
        #: many workers (bot/cluster/): ``owns(chat_id)`` is True while this worker holds the
        #: chat's shard; a game of another chat is neither loaded nor changed here (NotOwner).
        #: None: one process, every game is ours.
        self.owns: Callable[[int], bool] | None = None
        #: many workers (issue 19): ``fence(chat_id)`` is the ``(shard, epoch)`` this worker
        #: serves the chat's shard by (epoch 0: none), stored with every write of its games and
        #: checked by the database (bot/storage/fencing.py). None: one process.
        self.fence: Callable[[int], Fence] | None = None
        #: ``still_ours(fence)``: True while that fence is this worker's (``update_context.ACTING``)
        self.still_ours: Callable[[Fence], bool] | None = None
        #: game id -> deadlines that failed in a row because the database did (ops.py)
        self._deadline_retries: dict[int, int] = {}
        #: the "shown" watermark of every game in memory (bot/telegram/shown.py)
        self.shown = Watermarks()
        self.shown.on_advance = lambda g: self.persist_ui_soon(g)  # stored at once (issue 19)
        #: a new deadline moves on by the time its step's messages waited (bot/services/visible_clock.py)
        self.visible = VisibleClock(self)
        #: ``sender(game, before, after, events)``: synchronous senders of a step's messages
        #: besides the presenter, run again with it for a step lost in a crash (bot/telegram/shown.py)
        self.step_senders: list[Callable[..., None]] = []
        #: ``seed_for(chat_id)``: a new game's seed (its deal and draws); random in production,
        #: derived from the run's seed in the benchmarks so a seed replays the same games
        self.seed_for: Callable[[int], int] = random_seed
        self._init_index()  # chat / user -> open game, from memory (bot/services/index.py)
        moved = getattr(storage, "chat_moved_listeners", None)
        if moved is not None:
            moved.append(self.chat_moved)

    # --- loading ---------------------------------------------------------------------------
    async def _load(self, game_id: int) -> LiveGame:
        g = self.games.get(game_id)
        if g is not None:
            return g
        rec = await self.storage.get_game(game_id)
        if rec is None:
            raise KeyError(game_id)
        if self.owns is not None and not self.owns(rec.chat_id):
            raise NotOwner(rec.chat_id)
        g = await self._rebuild(rec)
        if game_id in self.games:  # loaded meanwhile by another caller: that one stands
            return self.games[game_id]
        self.games[game_id] = g
        self._index(g)
        self.reshow(g)
        return g

    def _adopt(self, game_id: int, chat_id: int, locale: str, seed: int) -> LiveGame:
        """Hold a lobby just created in the store (no log yet) without reading it back."""
        g = self.games.get(game_id)
        if g is None:
            g = self.games[game_id] = LiveGame(id=game_id, chat_id=chat_id, locale=locale,
                                               seed=seed)
            self._index(g)
        return g

    async def _rebuild(self, rec: GameRecord, log: list[dict] | None = None) -> LiveGame:
        """The game of ``rec`` replayed from its log (``log``: its commands, if already loaded)."""
        g = LiveGame(id=rec.id, chat_id=rec.chat_id, locale=rec.locale, seed=rec.seed,
                     deadline=rec.deadline_at, ui=dict(rec.ui or {}))
        if log is None:
            log = await self.storage.load_log(rec.id)
        if log:  # each game's commands by its own type table
            commands = decode_log(log)
            g.members = members_of(commands)
            g.state, g.unshown = replay_unshown(commands, g.ui.get(SHOWN, len(log)))
            g.ui[SHOWN] = g.ui.get(SHOWN, len(log))  # stored before the watermark: all shown
            if g.state.over:  # only an open game is shown again (a finished one is read)
                g.unshown = []
        g.raw_names = {int(uid): name for uid, name in (g.ui.get("names") or {}).items()}
        g.state = self._named(g, g.state)
        return g

    async def state(self, game_id: int) -> GameState | None:
        return (await self._load(game_id)).state

    async def live(self, game_id: int) -> LiveGame:
        return await self._load(game_id)

    # --- the one way to change a game ------------------------------------------------------
    async def execute(self, game_id: int, command: Command | Callable[[LiveGame], Command]
                      ) -> list[EventLike]:
        """Apply ``command`` (or ``command(live_game)``, built under the lock) to the game.

        Returns the events. Raises :class:`engine.IllegalCommand` when the rules refuse it
        (nothing is stored or sent), ``KeyError`` for an unknown game id and
        :class:`NotOwner` when another worker serves the game's chat (issue 12). The command is
        stored with the Telegram update being handled (``bot.telegram.update_context``); an update
        handled again after its worker died applies nothing twice: when the log already has a
        command of it, nothing is applied and ``[]`` is returned.
        """
        tag = current_update()
        async with self._locks[game_id]:
            g = await self._load(game_id)
            if tag is not None and tag.redelivered and \
                    await self.storage.update_applied(game_id, tag.update_id):
                logger.info("game %s: update %s was applied before; not again", game_id,
                            tag.update_id)
                return []
            cmd = command(g) if callable(command) and not isinstance(command, Command) else command
            for attempt in range(2):
                before = g.state
                applied, events = apply(before, cmd)
                # the game's own state type (GameState, or NOIR's of the same shape): apply() says
                # only ``object``
                new = cast(GameState, applied)
                game = game_of(new)
                status, winner = self._status_change(game, before, new)
                stored = game_of(before, cmd).to_dict(cmd)
                deadline = self._plan_deadline(g, before, new)
                players = self._player_ops(g, new, cmd)
                if self.owns is not None and not self.owns(g.chat_id):
                    self._drop(g)  # its shard was lost, or its chat moved to another shard
                    raise NotOwner(g.chat_id)
                fence = self.fence(g.chat_id) if self.fence is not None else None
                if fence is not None and self.still_ours is not None:  # the Sender drops
                    ACTING.set(partial(self.still_ours, fence))  # them once it is stale
                if self.shown.lagging(g):  # rides in the same transaction (group commit)
                    self.persist_ui_soon(g)
                try:
                    await self.storage.append(
                        game_id, before.commands if before else 0, stored,
                        [game.to_dict(e) for e in events], status=status, winner=winner,
                        deadline=deadline if deadline is not None else KEEP,
                        players=players,
                        update_id=tag.update_id if tag is not None else None, fence=fence)
                    break
                except StaleEpoch:  # another worker took the shard over: nothing was stored
                    self._drop(g)
                    raise NotOwner(g.chat_id) from None
                except LogConflict:
                    if attempt:
                        raise
                    logger.warning("game %s: log conflict, reloading", game_id)
                    self.complete = False  # another process writes games: ask the store
                    self.games.pop(game_id, None)
                    g = await self._load(game_id)
            if isinstance(cmd, ADDS) and cmd.name and cmd.user_id is not None:
                g.raw_names[cmd.user_id] = cmd.name  # a rejoin brings his name of today
            g.state = new = self._named(g, new)
            for op in players:  # the game_players rows just stored, mirrored (index.py)
                (g.members.discard if op.name is None else g.members.add)(op.user_id)
            self._index(g)
            self._arm(g, deadline)
            with self.shown.step(g, new.commands) as step:  # tracked till its messages leave
                try:
                    self.presenter.present(g, before, new, events)
                except Exception:  # a rendering bug must never lose the stored command
                    logger.exception("game %s: presenting %s failed", game_id,
                                     type(cmd).__name__)
                for listener in self.listeners:
                    try:
                        await listener(g, before, new, events)
                    except Exception:  # a listener's bug must not fail the command either
                        logger.exception("game %s: listener %r failed", game_id, listener)
            self.visible.watch(g, deadline, step.futures)  # the clock starts when they are seen
            if new.over:
                self._forget_later(game_id)
            return events

    @staticmethod
    def _status_change(game: Any, before: GameState | None, new: GameState
                       ) -> tuple[str | None, str | None]:
        """The games row's new (status, winner), asked of the game object (any game)."""
        status = game.status(new)
        if status == "cancelled":
            return "cancelled", None
        if status == "finished":
            return "finished", game.winner(new)
        if before is not None and status == "running" and game.status(before) == "lobby":
            return "running", None
        return None, None

    def _player_ops(self, g: LiveGame, new: GameState, cmd: Command) -> tuple[PlayerOp, ...]:
        """The ``game_players`` rows the command changes, stored with it (one transaction);
        the dealt seats with the names shown at the table."""
        uid = cmd.user_id  # None: the system's commands (timers), which seat nobody
        if uid is not None and isinstance(cmd, JOINS):  # exclusive: one active game per user,
            return (PlayerOp(uid, cmd.name, exclusive=True),)  # on every worker (issue 12)
        if uid is not None and isinstance(cmd, HOSTS):
            return (PlayerOp(uid, cmd.name or "host", exclusive=True),)
        if uid is not None and isinstance(cmd, LEAVES):
            return (PlayerOp(uid, None),)
        if isinstance(cmd, STARTS):
            st = self._named(g, new)
            return tuple(PlayerOp(uid, pname, seat) for uid, pname, seat in game_of(st).seats(st))
        return ()

    def _plan_deadline(self, g: LiveGame, before: GameState | None, new: GameState
                       ) -> tuple[int | None, datetime | None] | None:
        """The engine's timer (seconds) as a deadline to store with the command:
        ``(timer_seq, deadline_at)``, ``(None, None)`` to clear it, or None for no change."""
        if self.deadlines is None:
            return None
        old_seq = before.timer.seq if before and before.timer else None
        lobby = game_of(new).status(new) == "lobby"
        if new.over or (new.timer is None and not lobby):
            if g.deadline is not None or old_seq is not None:
                return (None, None)
            return None
        if new.timer is not None and new.timer.seq != old_seq:
            return (new.timer.seq, self.clock() + timedelta(seconds=new.timer.seconds))
        return None

    def _arm(self, g: LiveGame, deadline: tuple[int | None, datetime | None] | None) -> None:
        """Schedule (or cancel) the deadline stored with the command."""
        if deadline is None or self.deadlines is None:
            return
        seq, at = deadline
        g.deadline = at
        if at is None:
            self.deadlines.cancel(g.id)
        else:
            self.deadlines.arm(g.id, seq, at)

    def _forget_later(self, game_id: int) -> None:
        self._unindex(self.games.pop(game_id, None))
        self.shown.forget(game_id)
        self._locks.pop(game_id, None)

    # --- names (bot/ui/names.py) ---------------------------------------------------------------
    def _named(self, g: LiveGame, st: MaybeState) -> MaybeState:
        """``st`` with the current display names of ``g.raw_names`` (presentation only)."""
        if st is None:
            return st
        for uid, p in st.players.items():
            g.raw_names.setdefault(uid, p.name)
        if st.host is not None and st.host not in st.players and st.host_name:
            g.raw_names.setdefault(st.host, st.host_name)
        tr = getattr(self.presenter, "tr", None)
        _ = tr.get(g.locale) if tr is not None else (lambda s: s)
        return with_names(st, g.raw_names, _)

    async def refresh_names(self, game_id: int) -> None:
        """Re-make the display names (after a change of the game's language)."""
        async with self._locks[game_id]:
            g = await self._load(game_id)
            g.state = self._named(g, g.state)


__all__ = ["GameService", "LiveGame", "NotOwner", "utcnow", "GameOver"]

