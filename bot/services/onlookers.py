"""Onlookers: people who follow a running game from their private chat (ONLINE-43/44/45, Q21).

An onlooker is a non-player who asked to watch (``/spectate`` or the deep link
``?start=spectate_<game>``), or an eliminated player (added automatically, PARTY-49).  The list
lives in ``g.ui["onlookers"]`` (user ids, persisted with the game's presentation state, so a
restart keeps it).  Onlookers get:

* a copy of the game's public announcements: every plain text the presenter posts in the group
  (no keyboards, no edits), gathered per step into one private message each -- **only those who
  do not see the group** (BOT-X02): the voluntary onlookers, who may not be members of it, and an
  eliminated player who left the group or was removed from it (``g.ui["outside"]``, kept from
  the ``left_chat_member`` / ``chat_member`` updates by ``bot/handlers/private.py``; coming back
  to the group stops the copies again).  An eliminated player in the group sees every
  announcement there (ONLINE-Q21: the "Game" view is the group itself); a private copy would
  only notify him twice (~10 calls a party game, more in the forum);
* the onlookers' chat: what one of them writes to the bot goes to the other onlookers only,
  never to a living player of that game (ONLINE-Q21: the dead know things).

They cannot act (the buttons refuse them, ``bot/handlers/onlookers.py``).  When the game ends
the voluntary ones get a copy of the final message (the eliminated read it in the group, like
everyone else), and the lists are dropped.

This module also tells a player whose last word begins that he may send it here
(``bot/handlers/discipline.py`` publishes it, ONLINE-42).
"""

from __future__ import annotations

import asyncio
import logging
from html import escape
from typing import TYPE_CHECKING, Any

from aiolimiter import AsyncLimiter

from engine import GameState, Phase
from engine.mafia import events as ev

from ..ui.texts import label
from .discipline import LAST_WORD_LIMIT
from .live import LiveGame

if TYPE_CHECKING:
    from ..telegram.sender import Sender
    from ..ui.i18n import Translator
    from .game_service import GameService

logger = logging.getLogger(__name__)

KEY = "onlookers"
#: ``g.ui`` key: the players of the game who left its group (or were removed) and are not back
OUTSIDE = "outside"
#: Characters of one message in the onlookers' chat.
RELAY_LIMIT = 1000
#: Messages one onlooker may send to the onlookers' chat per minute (each one fans out).
RELAY_PER_MINUTE = 10


def onlookers_of(g: LiveGame) -> list[int]:
    """The user ids following game ``g`` (a LiveGame), oldest first."""
    return list(g.ui.get(KEY) or [])


def running(g: LiveGame) -> bool:
    st = g.state
    return st is not None and not st.over and getattr(st.phase, "value", st.phase) != \
        Phase.LOBBY.value  # NOIR's phase is a plain string


def seated(st: GameState | None, user_id: int) -> bool:
    """A player of a started game (a game without seats, NOIR, seats every player)."""
    p = st.players.get(user_id) if st is not None else None
    return bool(p and getattr(p, "seat", True))


def _plays(st: GameState, user_id: int) -> bool:
    """A living player (NOIR's players never leave the table)."""
    alive = getattr(st, "is_alive", None)
    return alive(user_id) if alive is not None else user_id in st.players


def outside(g: LiveGame) -> list[int]:
    """The players of ``g`` who left its group and have not come back (``g.ui["outside"]``)."""
    return list(g.ui.get(OUTSIDE) or [])


def gets_copies(g: LiveGame, user_id: int) -> bool:
    """BOT-X02: onlooker ``user_id`` of ``g`` gets private copies of the group's announcements:
    he is no player of the game (a voluntary onlooker), or an eliminated player who is not in
    the group (he left it or was removed). A living player never does."""
    st = g.state
    if st is None:
        return True
    if _plays(st, user_id):
        return False
    return not seated(st, user_id) or user_id in outside(g)


class Onlookers:
    """Keeps the onlooker lists of the service's games and talks to onlookers.

    ``fan_out`` is the presenter's ``on_group_text`` hook; ``on_step`` is a service listener.
    Every method that changes a list persists ``g.ui`` (``service.persist_ui_soon``).
    """

    def __init__(self, service: GameService, sender: Sender, translator: Translator) -> None:
        self.service = service
        self.sender = sender
        self.tr = translator
        self._pending: dict[int, tuple[Any, list[int], list[str]]] = {}
        self._limits: dict[int, AsyncLimiter] = {}

    # --- the lists ---------------------------------------------------------------------------
    def add(self, g: LiveGame, user_id: int) -> bool:
        """Make ``user_id`` an onlooker of ``g``; he stops following any other game. Returns
        False if he already follows ``g``."""
        for other in list(self.service.games.values()):
            if other is not g and user_id in onlookers_of(other):
                self.remove(other, user_id)
        ids = onlookers_of(g)
        if user_id in ids:
            return False
        g.ui[KEY] = ids + [user_id]
        self.service.persist_ui_soon(g)
        return True

    def remove(self, g: LiveGame, user_id: int) -> bool:
        ids = onlookers_of(g)
        if user_id not in ids:
            return False
        ids.remove(user_id)
        g.ui[KEY] = ids or None  # None removes the key from the stored ui as well
        self.service.persist_ui_soon(g)
        return True

    def watched_by(self, user_id: int) -> LiveGame | None:
        """The running game ``user_id`` follows as an onlooker, or None."""
        for g in list(self.service.games.values()):
            if user_id in onlookers_of(g) and running(g):
                return g
        return None

    def unreachable(self, user_id: int) -> None:
        """A private message to ``user_id`` failed with 403: stop sending him copies."""
        for g in list(self.service.games.values()):
            if not seated(g.state, user_id):  # an eliminated player stays (he may come back)
                self.remove(g, user_id)

    def left_group(self, g: LiveGame, user_id: int) -> bool:
        """Player ``user_id`` of ``g`` left its group or was removed (PARTY-Q20 b): once
        eliminated he gets the copies of the announcements (BOT-X02). Returns False if nothing
        changed (no player of ``g``, or noted already)."""
        ids = outside(g)
        if user_id in ids or not seated(g.state, user_id):
            return False
        g.ui[OUTSIDE] = ids + [user_id]
        self.service.persist_ui_soon(g)
        return True

    def back_in_group(self, g: LiveGame, user_id: int) -> bool:
        """``user_id`` is a member of the group of ``g`` again: no more copies for him."""
        ids = outside(g)
        if user_id not in ids:
            return False
        ids.remove(user_id)
        g.ui[OUTSIDE] = ids or None
        self.service.persist_ui_soon(g)
        return True

    # --- copies of the group's announcements ----------------------------------------------------
    def fan_out(self, g: LiveGame, text: str) -> None:
        """Queue a copy of a plain group text for the onlookers of ``g`` who do not see the
        group (:func:`gets_copies`, BOT-X02); the texts of one step go out together as one
        private message per onlooker, without a notification."""
        ids = onlookers_of(g)
        if not ids:
            return
        pending = self._pending.get(g.id)
        if pending is None:
            recipients = [u for u in ids if gets_copies(g, u)]
            self._pending[g.id] = (g, recipients, [text])
            asyncio.get_running_loop().call_soon(self._flush, g.id)
        else:
            pending[2].append(text)

    def _flush(self, game_id: int) -> None:
        g, recipients, texts = self._pending.pop(game_id, (None, [], []))
        body = "\n\n".join(texts)
        for uid in recipients:
            self.sender.send(uid, body, disable_notification=True)

    # --- the onlookers' chat -------------------------------------------------------------------
    async def may_relay(self, user_id: int) -> bool:
        """True if ``user_id`` has relay budget left this minute (and takes one unit of it);
        never waits."""
        limiter = self._limits.get(user_id)
        if limiter is None:
            limiter = self._limits[user_id] = AsyncLimiter(RELAY_PER_MINUTE, 60)
        if not limiter.has_capacity():
            return False
        await limiter.acquire()  # returns at once: the capacity is there
        return True

    def relay(self, g: LiveGame, user_id: int, name: str, text: str) -> int:
        """Send ``text`` from onlooker ``user_id`` (shown as ``name``, already HTML-safe) to the
        other onlookers of ``g``, never to a living player. Returns the number of recipients."""
        st = g.state
        author = label(st, user_id) if st is not None and seated(st, user_id) else name
        body = f"👁 {author}: {escape(text[:RELAY_LIMIT])}"
        recipients = [u for u in onlookers_of(g)
                      if u != user_id and (st is None or not _plays(st, u))]
        for uid in recipients:
            self.sender.send(uid, body)
        return len(recipients)

    # --- service listener ----------------------------------------------------------------------
    async def on_step(self, g: LiveGame, before: GameState | None, after: GameState, events: list) -> None:
        """``GameService.listeners``: :meth:`step_messages`."""
        self.step_messages(g, before, after, events)

    def step_messages(self, g: LiveGame, before: GameState | None, after: GameState, events: list) -> None:
        """The eliminated join the onlookers; a last word's speaker learns he may send it here;
        the lists are dropped when the game is over (after the final message was copied). Safe to
        run twice for one step (``GameService.step_senders``: a step lost in a crash is shown
        again): one joins once, the last word's hint is only sent again."""
        _ = self.tr.get(g.locale)
        for e in events:
            if isinstance(e, ev.PlayerEliminated) and not after.over and seated(after, e.user_id):
                if self.add(g, e.user_id):
                    self.sender.send(e.user_id, _(
                        "👁 You follow the rest of the game as an onlooker: I send you its "
                        "announcements here, and what you write to me reaches only the other "
                        "onlookers, never the living players. /unspectate stops it.")
                        if gets_copies(g, e.user_id) else _(
                        "👁 You follow the rest of the game as an onlooker: watch it in the "
                        "group; what you write to me here reaches only the other onlookers, "
                        "never the living players. /unspectate stops it."))
            elif isinstance(e, ev.PhaseStarted) and e.phase == Phase.LAST_WORD.value \
                    and after.phase is Phase.LAST_WORD and after.phase_seq == e.phase_seq \
                    and after.speaker is not None:
                self.sender.send(after.speaker, _(
                    "🟢 Your last word. Write it here and I publish it in the group (up to {n} "
                    "characters), or write in the group yourself. Press «End speech» there when "
                    "you are done.").format(n=LAST_WORD_LIMIT))
        if after.over and (g.ui.get(KEY) or g.ui.get(OUTSIDE)):
            for uid in onlookers_of(g):
                self._limits.pop(uid, None)
            g.ui[KEY] = g.ui[OUTSIDE] = None
            self.service.persist_ui_soon(g)


__all__ = ["KEY", "OUTSIDE", "Onlookers", "RELAY_LIMIT", "gets_copies", "onlookers_of",
           "outside", "running", "seated"]
