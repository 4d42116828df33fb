"""The "shown" watermark: after a crash, the steps whose messages never left are shown again.

``GameService.execute`` stores a command, then the presenter only *enqueues* its messages on the
:class:`bot.telegram.sender.Sender`; a process killed (SIGKILL, a worker of many) with messages still
queued loses them -- a speech turn's message with its buttons, a vote, a night prompt -- while
the log goes on. Every message this bot sends is harmless twice (docs/architecture.md, "After
a crash"), so the cure is to show such a step again, never to lose it:

* **Tracking** (:class:`Watermarks`, one per ``GameService``): while a step is presented (the
  presenter and the listeners awaited after it, :meth:`Watermarks.step`), every future the
  Sender creates or hands back (``send``, ``edit``, ``call`` ..., also a send merged into a
  queued one and an edit folded into a queued one) is collected through a context variable
  (:func:`note`, called by the Sender). A collection closes with its step: a task started
  meanwhile (a held live edit, a lane worker) inherits the variable, but adds nothing after that.
  When every future of the steps ``<= N`` has resolved (sent, or dropped for good), the game's
  watermark is ``N`` (commands counted from 1, i.e. the log length up to which all is shown),
  kept in ``g.ui["shown"]`` (int). Per chat too (issue 19): a chat all of whose messages of the
  steps ``<= M`` have left, ahead of the game's watermark, is noted in ``g.ui["shown_in"]``
  (``{str(chat_id): M}``; absent when no chat is ahead). Either moving is stored at once
  (``Watermarks.on_advance``: ``GameService.persist_ui_soon``, one ``ui`` write riding the next
  group commit), so what was visibly sent is not shown again after a crash but for the few
  milliseconds between a message leaving and that write; also with the next command's log write
  when it lags by :data:`SAVE_LAG` (:meth:`Watermarks.lagging`), and at a graceful stop or
  hand-over after the Sender drained (:meth:`Watermarks.unsaved`).
* **Re-presenting** (:func:`replay_unshown`, :func:`reshow`): a game rebuilt from the store by
  its owner (restart, many-worker takeover, a load on demand) whose ``ui["shown"]`` is below its
  log length has its last unshown steps (at most :data:`RESHOW_MAX`) replayed and presented
  again in order -- ``engine.apply`` is deterministic, so the same events -- before anything
  new happens to it. A game stored without ``"shown"`` (before this change) counts as fully
  shown. A step is presented again only to the chats that had not had all of it
  (``"shown_in"``): the Sender drops its calls to the others at once (:func:`suppressed`), and
  the presenter keeps the standing messages it knows for them. A standing message a re-shown
  step sends afresh supersedes the one stored for its key, which loses its buttons
  (``Presenter.keep``, :func:`reshowing`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from engine import apply
from engine.core.commands import CommandLike

logger = logging.getLogger(__name__)

#: At most this many unshown steps are presented again after a crash (the newest ones): the
#: rest would only repeat what later messages say anyway.
RESHOW_MAX = 10
#: A watermark this many commands ahead of the one last stored rides with the next command's
#: log write (same group-commit transaction), so a game whose ``ui`` is rarely written (night
#: presses edit, they send nothing new) shows at most this many steps again after a crash.
SAVE_LAG = 3
#: ``g.ui`` key of the watermark: the number of log commands every message of which has left
KEY = "shown"
#: ``g.ui`` key of the chats ahead of the watermark: ``{str(chat_id): commands}``
CHATS_KEY = "shown_in"

Step = tuple[Any, Any, list]  # (state before, state after, events) of one stored command


class _Collector:
    """The futures of one step still being presented (``open`` until the step ends) and the
    chat each was queued for (``chats``; a future merged into another step's has none)."""

    __slots__ = ("chats", "futures", "open")

    def __init__(self) -> None:
        self.futures: list[asyncio.Future[Any]] = []
        self.chats: dict[asyncio.Future[Any], int] = {}
        self.open = True


class _Suppress:
    """The chats a re-shown step is not sent to again (``open`` while it is presented)."""

    __slots__ = ("chats", "open")

    def __init__(self, chats: frozenset[int]) -> None:
        self.chats, self.open = chats, True


_collecting: ContextVar[_Collector | None] = ContextVar("bot_shown_collecting", default=None)
_suppressing: ContextVar[_Suppress | None] = ContextVar("bot_shown_suppressing", default=None)


def note_chat(future: asyncio.Future[Any], chat_id: int) -> None:
    """Called by the Sender for each queued operation: ``future`` goes to ``chat_id``."""
    collector = _collecting.get()
    if collector is not None and collector.open:
        collector.chats[future] = chat_id


def suppressed(chat_id: int) -> bool:
    """True while a step is presented again to chats other than ``chat_id``, which had all of
    it before the crash: the Sender drops the call at once (its future resolves to None)."""
    suppress = _suppressing.get()
    return suppress is not None and suppress.open and chat_id in suppress.chats


def reshowing() -> bool:
    """True while a step lost in a crash is being presented again."""
    suppress = _suppressing.get()
    return suppress is not None and suppress.open


def note(future: asyncio.Future[Any]) -> asyncio.Future[Any]:
    """Called by the Sender for every future it hands out: collect it into the step being
    presented, if any (and if not already resolved). Returns ``future``."""
    collector = _collecting.get()
    if collector is not None and collector.open and not future.done():
        collector.futures.append(future)
    return future


@dataclass
class _Marks:
    """One game's tracking: ``last`` is the newest step closed (its log length after it),
    ``pending`` maps a step's log length to its futures not yet resolved, ``saved`` is the
    watermark last handed to the store."""

    g: Any
    last: int = 0
    pending: dict[int, set[asyncio.Future[Any]]] = field(default_factory=dict)
    saved: int | None = None
    #: per pending step: its unresolved futures by chat (None: chat unknown), every chat it had
    by_chat: dict[int, dict[int | None, set[asyncio.Future[Any]]]] = field(default_factory=dict)
    chats: dict[int, set[int]] = field(default_factory=dict)


class Watermarks:
    """Per game in memory, the log length up to which every message has left the Sender."""

    def __init__(self) -> None:
        self._games: dict[int, _Marks] = {}
        #: ``on_advance(g)``: ``g.ui``'s watermarks moved (the service stores ``g.ui`` soon)
        self.on_advance: Callable[[Any], None] | None = None

    @contextmanager
    def step(self, g: Any, commands: int) -> Iterator[_Collector]:
        """Collect the Sender's futures while the step that made the log ``commands`` long
        (``after.commands``) is presented; the game's watermark moves once they resolve.
        Yields the collection (``.futures``: the step's futures, complete once it closed)."""
        collector = _Collector()
        token = _collecting.set(collector)
        try:
            yield collector
        finally:
            _collecting.reset(token)
            collector.open = False
            self._close(g, commands, collector.futures, collector.chats)

    def _close(self, g: Any, commands: int, futures: list[asyncio.Future[Any]],
               chats: dict[asyncio.Future[Any], int] | None = None) -> None:
        marks = self._games.get(g.id)
        if marks is None:
            marks = self._games[g.id] = _Marks(g, saved=g.ui.get(KEY))
        marks.g = g  # a game reloaded (a log conflict) is a new object
        marks.last = max(marks.last, commands)
        chats = chats or {}
        waiting = {f for f in futures if not f.done()}
        if waiting:
            marks.pending.setdefault(commands, set()).update(waiting)
            by_chat = marks.by_chat.setdefault(commands, {})
            for f in waiting:
                by_chat.setdefault(chats.get(f), set()).add(f)
                f.add_done_callback(partial(self._resolved, g.id, commands))
            marks.chats.setdefault(commands, set()).update(chats.values())
        self._advance(marks)

    def _resolved(self, game_id: int, commands: int, future: asyncio.Future[Any]) -> None:
        marks = self._games.get(game_id)
        if marks is None:
            return
        waiting = marks.pending.get(commands)
        if waiting is not None:
            waiting.discard(future)
            for chat_futures in marks.by_chat.get(commands, {}).values():
                chat_futures.discard(future)
            if not waiting:
                del marks.pending[commands]
                marks.by_chat.pop(commands, None)
                marks.chats.pop(commands, None)
            self._advance(marks)

    def _advance(self, marks: _Marks) -> None:
        ui = marks.g.ui
        mark = min(marks.pending) - 1 if marks.pending else marks.last
        moved = mark > (ui.get(KEY) or 0)
        if moved:
            ui[KEY] = mark
        stored = ui.get(CHATS_KEY) or {}
        ahead = {chat: m for chat, m in stored.items() if m > mark}
        for chat in set().union(*marks.chats.values()):
            blocking = [n for n, by_chat in marks.by_chat.items()
                        if by_chat.get(chat) or by_chat.get(None)]
            chat_mark = min(blocking) - 1 if blocking else marks.last
            if chat_mark > max(mark, ahead.get(str(chat), 0)):
                ahead[str(chat)] = chat_mark
        if ahead != stored:
            moved = True
            if ahead:
                ui[CHATS_KEY] = ahead
            else:
                ui.pop(CHATS_KEY, None)
        if moved and self.on_advance is not None:
            self.on_advance(marks.g)  # stored now: what was seen is not shown again (issue 19)

    def stored(self, g: Any) -> None:
        """``g.ui`` is being written: its watermark is saved (:meth:`unsaved` skips it)."""
        marks = self._games.get(g.id)
        if marks is not None:
            marks.saved = g.ui.get(KEY)

    def lagging(self, g: Any) -> bool:
        """True when ``g``'s watermark is :data:`SAVE_LAG` or more commands ahead of the one last
        stored: the caller stores ``g.ui`` with the command it is about to append."""
        marks = self._games.get(g.id)
        mark = g.ui.get(KEY)
        return marks is not None and mark is not None and \
            mark - (marks.saved or 0) >= SAVE_LAG

    def unsaved(self, games: Iterable[Any]) -> list[Any]:
        """Those of ``games`` (LiveGames) whose watermark moved since their ``ui`` was last
        written: a graceful stop writes them once more, after the Sender drained."""
        out = []
        for g in games:
            marks = self._games.get(g.id)
            if marks is not None and g.ui.get(KEY) != marks.saved:
                out.append(g)
        return out

    def forget(self, game_id: int) -> None:
        """The game left memory (over, handed over, dropped): stop tracking it."""
        self._games.pop(game_id, None)


def replay_unshown(commands: Sequence[CommandLike], shown: int | None, keep: int = RESHOW_MAX
                   ) -> tuple[Any, list[Step]]:
    """Replay ``commands`` (a game's decoded log, non-empty). Returns the final state and the
    steps ``(before, after, events)`` of the commands past ``shown`` (the watermark; None: all
    shown), the newest ``keep`` at most, oldest first."""
    first = len(commands) if shown is None else max(shown, len(commands) - keep, 0)
    state: Any = None
    steps: list[Step] = []
    for index, cmd in enumerate(commands):
        before = state
        state, events = apply(state, cmd)
        if index >= first:
            steps.append((before, state, events))
    return state, steps


def reshow(service: Any, g: Any, steps: list[Step],
           also: Sequence[Callable[[Any, Any, Any, list], None]] = ()) -> None:
    """Present ``steps`` of ``g`` again, in order, as :meth:`GameService.execute` did: each with
    ``g.state`` at its own ``after`` (named), tracked by ``service.shown``; ``also``: other
    synchronous senders of a step's messages (e.g. ``Onlookers.step_messages``). History, stats,
    the Mini App and the AFK clocks are not run again: they are not messages of the step, and
    recording them twice would be wrong. Leaves ``g.state`` as it was. Never raises."""
    if not steps:
        return
    final = g.state
    had = {int(chat): m for chat, m in (g.ui.get(CHATS_KEY) or {}).items()}
    try:
        for before, after, events in steps:
            before, after = service._named(g, before), service._named(g, after)  # noqa: SLF001
            g.state = after
            suppress = _Suppress(frozenset(c for c, m in had.items() if after.commands <= m))
            token = _suppressing.set(suppress)
            try:
                with service.shown.step(g, after.commands):
                    for present in (service.presenter.present, *also):
                        try:
                            present(g, before, after, events)
                        except Exception:  # a rendering bug must not stop the recovery
                            logger.exception("game %s: presenting step %s again failed", g.id,
                                             after.commands)
            finally:
                suppress.open = False
                _suppressing.reset(token)
    finally:
        g.state = final
    logger.info("game %s: %d step(s) shown again after a crash (log %d..%d; not to %d chat(s) "
                "that had them)", g.id, len(steps), steps[0][1].commands, steps[-1][1].commands,
                len(had))


__all__ = ["CHATS_KEY", "KEY", "RESHOW_MAX", "SAVE_LAG", "Watermarks", "note", "note_chat",
           "replay_unshown", "reshow", "reshowing", "suppressed"]
