"""The game service's operations for handlers, timers and delivery failures (a mixin of
:class:`bot.services.game_service.GameService`, kept apart to keep that module small): a new lobby, the deal,
pause with the time left, deadlines, unreachable and returning players.
"""

from __future__ import annotations

import contextlib
import logging
import random
import secrets
from datetime import timedelta

from engine import REVISION, Command, IllegalCommand, find_game, game_of
from engine.core.commands import CreateGame
from engine.core.events import EventLike
from engine.core.state import GameStateLike

from ..games import bot_game
from ..storage.failures import database_failure
from ..ui.scoring import SCORED_PRESETS, chat_system
from .base import ServiceBase
from .live import LiveGame


def current_timeout(state: GameStateLike | None, timer_seq: int) -> Command:
    """The timeout command for timer ``timer_seq`` of ``state`` (built under the game's lock).
    Raises :class:`StaleTimer` when that timer is no longer the running one: the engine would
    take it as a no-op (design §2, NOIR-X19), so it is neither stored nor counted."""
    timer = getattr(state, "timer", None)
    if state is None or timer is None or getattr(timer, "seq", None) != timer_seq:
        raise StaleTimer(f"timer {timer_seq} is not the running one")
    return game_of(state).timeout(timer_seq)


class StaleTimer(IllegalCommand):
    """A deadline of a timer that is no longer current (answered by nobody: only the
    scheduler sends timeouts)."""

    code = "stale_timer"


logger = logging.getLogger("bot.services.game_service")


class NotOwner(Exception):
    """Many workers (issue 12): the game's chat is in a shard this worker does not hold (now),
    so it may neither load nor change the game. ``chat_id``: the game's chat."""

    def __init__(self, chat_id: int) -> None:
        super().__init__(f"chat {chat_id} is served by another worker")
        self.chat_id = chat_id


def scored(ruleset: str, settings: dict) -> dict:
    """SCORE-X22: a club or online game is scored with the system its chat has chosen (FIIM by
    default), stamped into its ``CreateGame.settings["scoring"]`` (the dict of
    ``ScoringSystem.to_settings``), so a later /settings change leaves it as it began; any other
    game carries no ``scoring``. ``settings``: the chat's, as the lobby handler passes them."""
    out = {k: v for k, v in settings.items() if k != "scoring"}
    if ruleset in SCORED_PRESETS:
        out["scoring"] = chat_system(settings).to_settings()
    return out


def random_seed(chat_id: int) -> int:
    """A new game's seed (62 random bits from :mod:`secrets`; ``chat_id`` is not used): the deal
    and every other draw of the game come from ``random.Random(seed)``, so a stored game replays."""
    return secrets.randbits(62)


class GameOps(ServiceBase):
    """High-level operations used by handlers (mixed into ``GameService``)."""

    async def new_game(self, chat_id: int, user_id: int, locale: str, settings: dict,
                       ruleset: str = "party", ui: dict | None = None) -> int:
        """Create a lobby; ``ui``: presentation data it starts with (e.g. the chat's title), in
        place before any other update can reach the game. Raises ``storage.ActiveGameExists``
        if the chat has one already, ``NotOwner`` (before anything is stored) when another
        worker serves the chat (issue 12)."""
        if self.owns is not None and not self.owns(chat_id):
            raise NotOwner(chat_id)
        rs = find_game(ruleset)
        settings = scored(rs.name, settings)
        seed = self.seed_for(chat_id)
        game_id = await self.storage.create_game(chat_id, rs.name, user_id, locale, settings, seed)
        try:
            async with self._locks[game_id]:  # held at once: no read of what was just written
                self._adopt(game_id, chat_id, locale, seed).ui.update(ui or {})
            await self.execute(game_id, CreateGame(  # REV-X01: played by today's rules
                user_id=user_id, ruleset=rs.name, settings={**settings, "revision": REVISION}))
        except BaseException:  # e.g. NotOwner: the shard moved meanwhile; never an empty lobby
            await self._abandon(game_id)
            raise
        if self.deadlines is not None:
            g = self.games[game_id]
            g.deadline = self.clock() + timedelta(seconds=self.lobby_timeout)
            await self.storage.set_deadline(game_id, None, g.deadline)
            self.deadlines.arm(game_id, None, g.deadline)
        return game_id

    async def _abandon(self, game_id: int) -> None:
        """A lobby row whose ``CreateGame`` could not be stored: marked cancelled (best effort),
        so the chat is free for the next /newgame."""
        self.games.pop(game_id, None)
        try:
            rec = await self.storage.get_game(game_id)
            if rec is not None and rec.log_len == 0:
                await self.storage.set_status(game_id, "cancelled")
        except Exception:  # noqa: BLE001 - the original error is what the caller must see
            logger.exception("game %s: could not cancel the unstarted lobby", game_id)
            self.complete = False  # it may be open in the store, not in memory: ask the store

    async def start(self, game_id: int, user_id: int) -> list[EventLike]:
        """Deal with the game's seed (replayable) and start. Raises IllegalCommand."""

        def build(g: LiveGame) -> Command:
            st = g.state
            assert st is not None  # a loaded game has its state (CreateGame is its first command)
            return bot_game(st.ruleset).deal(st, user_id, random.Random(g.seed))

        return await self.execute(game_id, build)

    async def pause(self, game_id: int, user_id: int) -> list[EventLike]:
        """Pause with the remaining time measured now (the engine never reads the clock)."""

        def build(g: LiveGame) -> Command:
            remaining = None
            if g.deadline is not None:
                remaining = max(0.0, (g.deadline - self.clock()).total_seconds())
            return game_of(g.state).pause(user_id, remaining)

        return await self.execute(game_id, build)

    async def on_deadline(self, game_id: int, timer_seq: int | None) -> None:
        """Deadline job entry point; never raises."""
        try:
            if timer_seq is None:
                st = await self.state(game_id)
                if st is not None and game_of(st).status(st) == "lobby":
                    await self.execute(game_id, game_of(st).cancel("expired"))
                return
            if self.visible.holds(game_id, timer_seq):  # BOT-X01: its message is not seen yet
                logger.info("game %s: deadline %s held until its messages have left", game_id,
                            timer_seq)
                return
            await self.execute(game_id, lambda g: current_timeout(g.state, timer_seq))
        except (IllegalCommand, KeyError, NotOwner):  # NotOwner: it moved to another worker
            pass
        except Exception as error:
            if database_failure(error) is None:
                logger.exception("game %s: deadline %s failed", game_id, timer_seq)
                return
            self._retry_deadline(game_id, timer_seq, error)
        else:
            self._deadline_retries.pop(game_id, None)

    def _retry_deadline(self, game_id: int, timer_seq: int | None, error: BaseException) -> None:
        """The database failed while a deadline fired: fire it again later (5 s, doubling up to
        60 s) rather than leave the game waiting for a press that may never come."""
        tries = self._deadline_retries.get(game_id, 0)
        self._deadline_retries[game_id] = tries + 1
        delay = min(5.0 * 2 ** tries, 60.0)
        logger.warning("game %s: deadline %s: the database failed (%s); trying again in %.0f s",
                       game_id, timer_seq, error, delay)
        if self.deadlines is not None:
            self.deadlines.arm(game_id, timer_seq, self.clock() + timedelta(seconds=delay))

    async def user_unreachable(self, user_id: int, reason: str = "blocked") -> None:
        """A DM failed with 403 or the user left the group: mark him inactive (PARTY-Q20).
        (Many workers: only the worker serving his game does; another one leaves it.)"""
        game_id = await self.game_for_user(user_id)
        if game_id is None:
            return
        try:
            await self._user_unreachable(game_id, user_id, reason)
        except NotOwner:
            logger.debug("user %s unreachable: game %s is served elsewhere", user_id, game_id)

    async def _user_unreachable(self, game_id: int, user_id: int, reason: str) -> None:
        st = await self.state(game_id)
        cmd = game_of(st).gone(st, user_id, reason) if st is not None else None
        if cmd is not None:
            with contextlib.suppress(IllegalCommand):
                await self.execute(game_id, cmd)
        elif st is not None and not st.over and game_of(st).status(st) == "running":
            tell = getattr(self.presenter, "unreachable", None)  # e.g. NOIR: the group is told
            if tell is not None:
                tell(await self.live(game_id), user_id)

    async def touch(self, game_id: int, user_id: int) -> None:
        """Any update from an inactive player or lost host brings him back (PARTY-44)."""
        st = await self.state(game_id)
        cmd = game_of(st).back(st, user_id) if st is not None and not st.over else None
        if cmd is not None:
            with contextlib.suppress(IllegalCommand):
                await self.execute(game_id, cmd)
        reached = getattr(self.presenter, "reached", None)  # e.g. NOIR: a 403 is over
        g = self.games.get(game_id)
        if reached is not None and g is not None and g.state is not None and not g.state.over:
            async with self._locks[game_id]:
                reached(g, user_id)

    async def touch_user(self, user_id: int) -> None:
        """Any update from a user brings him back if he was inactive in his game (PARTY-44)."""
        game_id = await self.game_for_user(user_id)
        if game_id is not None:
            # many workers: his game is served elsewhere, and sees him there
            with contextlib.suppress(NotOwner):
                await self.touch(game_id, user_id)
