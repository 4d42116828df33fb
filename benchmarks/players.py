"""Simulated players: one group chat and its users playing a party game through the bot's buttons.

Theory of operation
-------------------
Each :class:`Table` owns a *virtual clock* (``vnow``, seconds since its ``/newgame``). The bot's
clock (``GameService.clock``) reads the clock of the table whose task is running, through the
context variable :data:`CURRENT`, so phase deadlines are stamped in game time too.

At every step the table looks at the engine state (``legal_actions``) and plans, once per phase
window, when each human would act: a button press 2-8 s after the window opened, a night move
3-25 s, a speech ended after 5-40 s (now and then a speaker talks until the timer). The earliest
planned action happens next, unless the phase deadline (``ManualDeadlines``) comes first, in which
case the clock jumps to the deadline and it is fired; a clock of what the bot's messages show (a
held live edit, a job on the same ``ManualDeadlines``) due before either fires first, so
the benchmark counts the edits a real game makes. Actions are real updates: a command in the
group, a deep link in the private chat, or a press of an inline button the bot actually sent
(found in the fake session's messages), fed through ``Dispatcher.feed_update``.

Every Telegram API call the bot makes is attributed to its table (group chat id, private chat id,
or the running task) and stamped with the table's game time, so the busiest 60 s of a group can be
measured while the sender's real rate limits are switched off for speed.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from enum import Enum
from time import perf_counter
from typing import Any

from aiogram.types import Update

from bot.app import App
from bot.handlers.game import CONFIRM
from bot.services.game_service import LiveGame
from bot.ui.callbacks import Act
from engine import GameState, Phase, legal_actions
from tests.fakes.updates import FakeUser, Updates

from .bench_session import CURRENT, READ_METHODS, BenchSession, Recorder, Stuck, table_clock
from .buttons import NEWGAME, Planned, press_planned
from .buttons import options as generic_options
from .presses import DELAYS, Option, PlanKey

__all__ = ["CURRENT", "READ_METHODS", "BenchSession", "Recorder", "Stuck", "Table", "table_clock"]

TALK_TO_TIMER = 0.1  #: share of speeches that run until the timer instead of ending early
NOMINATE = 0.35  #: chance that a speaker nominates somebody
EXCLUDE_YES = 0.6  #: chance of «yes» in a vote on eliminating all the tied


class Table:
    """One group chat with its players, playing one game on a shared :class:`App`."""

    def __init__(self, index: int, app: App, session: BenchSession, updates: Updates,
                 group_id: int, users: list[FakeUser], rng: random.Random, epoch: datetime,
                 recorder: Recorder, preset: str = "party") -> None:
        self.index, self.app, self.session, self.updates = index, app, session, updates
        self.preset = preset
        self.group_id, self.users, self.rng = group_id, users, rng
        self.epoch, self.recorder = epoch, recorder
        self.by_id = {u.id: u for u in users}
        self.chats = [group_id, *self.by_id]
        for chat in self.chats:
            session.owners[chat] = self
        session.chat_titles[group_id] = f"Bench table {index + 1}"
        self.vnow = 0.0
        self.game_id: int | None = None
        self.live: LiveGame | None = None
        # figures
        self.calls: Counter[str] = Counter()  # group / private / callback / other
        self.methods: Counter[tuple[str, str]] = Counter()  # (kind, Bot API method) -> calls
        self.group_calls: list[tuple[float, str]] = []  # (game time, method) of each group call
        self.updates_fed = 0
        self.presses = self.refused = self.missing = self.deadlines_fired = 0
        self.refusals: Counter[str] = Counter()
        self.state_bytes = 0
        self.ended_at: float | None = None
        self.last_answer: str | None = None
        # plans for the current phase window
        self._key: tuple | None = None
        self._phase: Enum | None = None  # a Phase or a preset's own phase
        self.window_start = 0.0
        self.plan: dict[PlanKey, Any] = {}  # see presses.PlanningTable
        self.measure_state: Callable[[GameState], int] | None = None

    # --- clock and call attribution ----------------------------------------------------------
    def now(self) -> datetime:
        """The table's game time as an aware datetime (what the bot's clock returns)."""
        return self.epoch + timedelta(seconds=self.vnow)

    def record_call(self, method: str, chat_id: Any, request: Any) -> None:
        if method == "answerCallbackQuery":
            kind = "callback"
            self.last_answer = request.text
        elif not isinstance(chat_id, int) or method.startswith(READ_METHODS):
            kind = "other"
        elif chat_id < 0:
            kind = "group"
            self.group_calls.append((self.vnow, method))
        else:
            kind = "private"
        self.calls[kind] += 1
        self.methods[(kind, method)] += 1

    @property
    def group_times(self) -> list[float]:
        return [at for at, _method in self.group_calls]

    # --- feeding updates ---------------------------------------------------------------------
    async def feed(self, update: Update) -> None:
        started = perf_counter()
        await self.app.dp.feed_update(self.app.bot, update)
        self.recorder.latencies.append(perf_counter() - started)
        self.recorder.updates.append(update)
        self.updates_fed += 1
        await self.settle()

    async def settle(self) -> None:
        """Wait until the sender has performed everything queued for this table's chats.

        Not ``Sender.drain``: that waits for the chats of every table, and with many tables
        playing at once the sender is seldom idle."""
        lanes = self.app.sender._lanes  # noqa: SLF001 - no per-chat drain in the public API
        while tasks := [lane.task for chat in self.chats
                        if (lane := lanes.get(chat)) is not None and lane.task is not None]:
            await asyncio.wait(tasks)

    async def fire_deadline(self) -> None:
        await self.app.deadlines.fire_now(self.game_id)
        self.deadlines_fired += 1
        await self.settle()

    def clock_job(self) -> tuple[float, str] | None:
        """``(game time, job id)`` of the game's earliest clock of what its messages show (a
        held live edit, ``clock:{game}:live:…``, armed on ``ManualDeadlines``), or None.
        It fires in game time, as production fires it on the wall clock."""
        job = self.app.deadlines.next_job(f"clock:{self.game_id}:")
        return None if job is None else ((job[0] - self.epoch).total_seconds(), job[1])

    async def fire_clock_job(self, job_id: str) -> None:
        await self.app.deadlines.fire_job(job_id)
        await self.settle()

    def deadline(self) -> float | None:
        """The game time (seconds) of the pending phase deadline, or None."""
        pending = self.app.deadlines.pending.get(self.game_id)
        if pending is None:
            return None
        return (pending[1] - self.epoch).total_seconds()

    @property
    def finished(self) -> bool:
        """True when the game was played to its end (not cancelled, not stuck)."""
        return self.ended_at is not None and self.live is not None and \
            self.live.state is not None and self.live.state.phase is Phase.ENDED

    @property
    def state(self) -> GameState | None:
        live = self.app.service.games.get(self.game_id) if self.game_id is not None else None
        if live is not None:
            self.live = live
        return self.live.state if self.live else None

    # --- the game ----------------------------------------------------------------------------
    async def play(self, max_steps: int = 5000) -> None:
        """Open a lobby, let everyone join through the deep link, start, play to the end.

        Raises :class:`Stuck` when the game can go nowhere, ``RuntimeError`` after ``max_steps``."""
        CURRENT.set(self)  # this coroutine runs as its own task (asyncio.gather)
        organiser = self.users[0]
        await self.feed(self.updates.group_command(self.group_id, organiser,
                                                   NEWGAME.get(self.preset, "/newgame")))
        self.game_id = await self.app.service.game_for_chat(self.group_id)
        if self.game_id is None:
            raise Stuck(f"table {self.index + 1}: /newgame opened no game")
        joins = [(self.rng.uniform(*DELAYS["join"]), u) for u in self.users]
        for at, user in sorted(joins, key=lambda pair: pair[0]):
            self.vnow = at
            await self.feed(self.updates.private_text(user, f"/start join_{self.game_id}"))
        self.vnow += self.rng.uniform(*DELAYS["start"])
        await self.feed(self.updates.group_command(self.group_id, organiser, "/startgame"))
        for _ in range(max_steps):
            if not await self.step():
                self.ended_at = self.vnow
                return
        raise RuntimeError(f"table {self.index + 1}: no end after {max_steps} steps")

    async def step(self) -> bool:
        """Do the next thing (an action or the deadline); False when the game is over."""
        st = self.state
        if st is None or st.over:
            return False
        key = (st.phase_seq, st.timer.seq if st.timer else None, st.pause is not None)
        if key != self._key:
            self._key, self.window_start, self.plan = key, self.vnow, {}
            if st.phase is not self._phase and self.measure_state is not None:
                self.state_bytes = max(self.state_bytes, self.measure_state(st))
            self._phase = st.phase
        options = [] if st.pause else self._options(st)
        best = min(options, key=lambda o: o.due) if options else None
        deadline = self.deadline()
        if best is None and deadline is None:
            # BOT-X01: a deadline that came while its messages were still on their way was
            # held; the service's visible clock arms it again in the background: wait for it
            await self.app.service.visible.settle()
            deadline = self.deadline()
        clock = self.clock_job()
        due = [t for t in (deadline, best.due if best else None) if t is not None]
        if clock is not None and all(clock[0] <= t for t in due):
            self.vnow = max(self.vnow, clock[0])
            await self.fire_clock_job(clock[1])
            return True
        if deadline is not None and (best is None or deadline <= best.due):
            self.vnow = max(self.vnow, deadline)
            await self.fire_deadline()
            return True
        if best is None:
            raise Stuck(f"table {self.index + 1}: nothing to do in {st.phase.value} "
                        f"(phase_seq {st.phase_seq}) and no deadline")
        self.vnow = max(self.vnow, best.due)
        if isinstance(best, Planned):
            await self.press_planned(best, st)
            return True
        self.plan[(best.user.id, best.kind)] = None  # each plan happens once per window
        await self.press(best, st.phase_seq)
        return True

    async def press_planned(self, planned: Planned, st: GameState) -> None:
        """Press the exact button the generic planner chose (``buttons.press_planned``)."""
        await press_planned(self, planned, st)

    async def press(self, option: Option, phase_seq: int) -> None:
        found = self._find_button(option.chat_id, option.action, phase_seq, option.seat)
        if found is None:
            self.missing += 1
            return
        message_id, data = found
        self.last_answer = None
        self.presses += 1
        await self.feed(self.updates.callback(option.user, (option.chat_id, message_id), data))
        if self.last_answer is not None and self.last_answer not in CONFIRM.values():
            self.refused += 1
            self.refusals[self.last_answer] += 1

    def _find_button(self, chat_id: int, action: str, phase_seq: int,
                     seat: int | None) -> tuple[int, str] | None:
        """The newest button of ``action`` for this phase in the chat: (message id, data)."""
        for message_id in reversed(self.session.chat_messages.get(chat_id, ())):
            message = self.session.messages.get((chat_id, message_id))
            if not message:
                continue
            for row in (message.get("reply_markup") or {}).get("inline_keyboard", ()):
                for button in row:
                    data = button.get("callback_data") or ""
                    if not data.startswith("a:"):
                        continue
                    act = Act.unpack(data)
                    if act.a == action and act.s in (0, phase_seq) and seat in (None, act.t):
                        return message_id, data
        return None

    # --- planning ----------------------------------------------------------------------------
    def _due(self, user_id: int, kind: str, delay: tuple[float, float], chance: float = 1.0
             ) -> float | None:
        """When ``user_id`` does ``kind`` in this window (drawn once; None = he does not)."""
        key = (user_id, kind)
        if key not in self.plan:
            act = chance >= 1.0 or self.rng.random() < chance
            self.plan[key] = self.window_start + self.rng.uniform(*delay) if act else None
        return self.plan[key]

    def _pick(self, user_id: int, kind: str, choices: tuple[int, ...]) -> int:
        key = (user_id, kind)
        if key not in self.plan:
            self.plan[key] = self.rng.choice(choices)
        return self.plan[key]

    def _decide(self, user_id: int, kind: str, chance: float) -> bool:
        key = (user_id, kind)
        if key not in self.plan:
            self.plan[key] = self.rng.random() < chance
        return self.plan[key]

    def _options(self, st: GameState) -> Sequence[Option | Planned]:
        if self.preset != "party":
            return generic_options(self, st)
        handlers: dict[Enum, Callable[[GameState], list[Option]]] = {
            Phase.READY: self._ready, Phase.NIGHT: self._night, Phase.SPEECH: self._turn,
            Phase.DEFENCE: self._turn, Phase.LAST_WORD: self._turn, Phase.VOTING: self._voting,
            Phase.EXCLUDE_VOTE: self._exclude_vote,
        }
        handler = handlers.get(st.phase)
        return handler(st) if handler else []

    def _option(self, uid: int, kind: str, delay: tuple[float, float], chat_id: int, action: str,
                seat: int | None = None, chance: float = 1.0) -> Option | None:
        due = self._due(uid, kind, delay, chance)
        if due is None or uid not in self.by_id:
            return None
        return Option(due, self.by_id[uid], kind, chat_id, action, seat)

    def _ready(self, st: GameState) -> list[Option]:
        chat_of = (lambda uid: uid) if st.ready_purpose == "intro" else (lambda uid: self.group_id)
        out: list[Option | None] = []
        for p in st.alive_active():
            if legal_actions(st, p.user_id).ready:
                out.append(self._option(p.user_id, "ready", DELAYS["press"],
                                        chat_of(p.user_id), "ready"))
        return [o for o in out if o]

    def _night(self, st: GameState) -> list[Option]:
        out: list[Option | None] = []
        victim = None
        for p in st.alive():
            la = legal_actions(st, p.user_id)
            if la.night_action and la.night_targets:
                if la.night_action == "kill":  # the mafia agrees on one victim per night
                    victim = victim or self._pick(0, "victim", la.night_targets)
                    target = victim if victim in la.night_targets else la.night_targets[0]
                    if st.mafia_picks.get(p.user_id) == target:
                        continue
                else:
                    target = self._pick(p.user_id, "target", la.night_targets)
                out.append(self._option(p.user_id, "night", DELAYS["night"], p.user_id,
                                        la.night_action, st.players[target].seat))
            elif la.sleep:
                out.append(self._option(p.user_id, "night", DELAYS["night"], p.user_id, "sleep"))
        return [o for o in out if o]

    def _turn(self, st: GameState) -> list[Option]:
        uid = st.speaker
        if uid is None:
            return []
        la = legal_actions(st, uid)
        out: list[Option | None] = []
        end = self._option(uid, "end", DELAYS[st.phase.value], self.group_id, "end",
                           chance=1.0 - TALK_TO_TIMER)
        if la.end_speech and end:
            out.append(end)
        if st.phase is Phase.SPEECH and la.nominate:
            if end:
                latest = end.due - self.window_start - 1.0
            else:  # he talks until the timer: a speech always runs on one
                assert st.timer is not None
                latest = st.timer.seconds - 2.0
            target = self._pick(uid, "nominee", la.nominate)
            out.append(self._option(uid, "nom", (2.0, max(2.5, latest)), self.group_id, "nom",
                                    st.players[target].seat, chance=NOMINATE))
        return [o for o in out if o]

    def _voting(self, st: GameState) -> list[Option]:
        vote = st.vote_round()
        left = len(vote.candidates) - vote.index
        chance = 0.92 if left == 1 else 1.0 / left  # spread the votes over the candidates
        out: list[Option | None] = []
        for p in st.alive_active():
            la = legal_actions(st, p.user_id)
            if la.vote is not None:
                out.append(self._option(p.user_id, "vote", DELAYS["vote"], self.group_id, "vote",
                                        st.players[la.vote].seat, chance=chance))
        return [o for o in out if o]

    def _exclude_vote(self, st: GameState) -> list[Option]:
        out: list[Option | None] = []
        for p in st.alive_active():
            if legal_actions(st, p.user_id).exclude_vote:
                action = "exy" if self._decide(p.user_id, "yes", EXCLUDE_YES) else "exn"
                out.append(self._option(p.user_id, "exclude", DELAYS["press"], self.group_id,
                                        action))
        return [o for o in out if o]
