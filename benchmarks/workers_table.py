"""The simulated players of ``python -m benchmarks --workers N`` (:mod:`benchmarks.workers_bench`).

They are the end-to-end tests' :class:`tests.e2e.conftest.Table` (party preset, six players:
they press only buttons the bot really sent and read whose turn it is from the game log), made
patient for a benchmark that kills a worker: a button that never comes (the killed worker died
with the message in its Sender's queue, and recovery does not send a phase's prompts again) is
waited for :data:`BUTTON_WAIT` seconds, then the players wait for the phase's timer as people
would, and the miss is counted; joining and starting are read from the log, not from the
messages. Times are in seconds.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any


def plan_for(st) -> Any:
    """What the simulated table decides, whatever the deal: each day a speaker nominates the
    first living townsman who is not himself, the mafia shoots the last, the doctor heals the
    first, the commissar checks the first living mafioso."""
    from engine import Team
    from tests.e2e.conftest import Plan

    def town(s) -> list[int]:
        return [p.user_id for p in s.seated() if p.alive and p.team is not Team.MAFIA]

    def nominee(s) -> int:
        return next((u for u in town(s) if u != s.speaker), town(s)[0])

    def mafioso(s) -> int:
        return next(p.user_id for p in s.seated() if p.alive and p.team is Team.MAFIA)

    return Plan(nominations={day: [nominee] for day in range(1, 20)},
                kill=lambda s: town(s)[-1], heal=lambda s: town(s)[0], check=mafioso)


class Watch:
    """What :class:`tests.e2e.conftest.Table` needs of its bot process (``wait_until``), for
    many processes: it fails only once every worker is dead."""

    def __init__(self, api, procs) -> None:
        self.api, self.procs = api, procs

    async def wait_until(self, predicate, timeout: float, *, what: str = "meet the condition"):
        deadline = time.monotonic() + timeout
        while True:
            if not any(p.running for p in self.procs):
                raise RuntimeError(f"every worker is dead; nobody could {what}")
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"the workers did not {what} within {timeout} s")
            try:
                return await self.api.wait_for(predicate, min(left, 1.0))
            except TimeoutError:
                continue


BUTTON_WAIT = 20.0  #: seconds a player waits for a button before he waits for the timer instead
LOBBY_TRIES = 3  #: times the organiser opens a lobby that does not show
TIMER_WAIT = 240.0  #: seconds he then waits for the game to move on (its phase's timer)


class Moved(Exception):
    """The button never came and the game moved on without it (its timer fired)."""


def bench_table_class():
    """:class:`tests.e2e.conftest.Table` whose players, when a button they expect never comes
    (the worker that was to send it died with the message in its queue), wait for the
    phase's timer as people would, and count it (``missing``, ``missing_notes``)."""
    from tests.e2e.conftest import Table
    from tests.e2e.model import StoredMessage

    class BenchTable(Table):
        missing = 0
        missing_notes: list[str] = []

        async def do(self, user, chat_id, st, action, target=None) -> None:
            data = self.act(st, action, target)
            try:
                await self.wait(lambda: self.message_with(chat_id, data),
                                f"offer the button {data} in chat {chat_id}", BUTTON_WAIT)
            except TimeoutError:
                newest = [(m.text or m.caption or "")[:40].replace("\n", " ")
                          for m in self.api.messages(chat_id)[-2:]]
                self.missing += 1
                self.missing_notes = [*self.missing_notes, f"game {self.game_id}: no {data} in "
                                      f"chat {chat_id} (its newest bot messages: {newest})"]
                deadline = time.monotonic() + TIMER_WAIT
                while (await self.state()).phase_seq == st.phase_seq:
                    if time.monotonic() > deadline:
                        raise
                    await asyncio.sleep(0.5)
                raise Moved() from None
            try:
                await super().do(user, chat_id, st, action, target)
            except TimeoutError:  # no answer: counted as lost (its callback query unanswered)
                self.missing_notes = [*self.missing_notes, f"game {self.game_id}: {data} by "
                                      f"{user.id} was not answered"]
                raise Moved() from None

        async def open_lobby(self, command: str = "/newgame"):
            """The organiser sends ``command``; if no lobby comes within :data:`BUTTON_WAIT`
            (the worker died with it in its queue) he does what a person would: /cancel, then
            ``command`` again (three tries)."""
            for attempt in range(LOBBY_TRIES):
                try:
                    return await super().open_lobby(command)
                except TimeoutError:
                    if attempt == LOBBY_TRIES - 1:
                        raise
                    self.missing += 1
                    self.missing_notes = [*self.missing_notes, f"chat {self.chat_id}: no lobby "
                                          f"after {command} (sent /cancel and {command} again)"]
                    await self.users[0].say(self.chat_id, "/cancel")
                    await asyncio.sleep(2.0)
            raise AssertionError("unreachable")

        async def join_all(self, command: str = "/newgame") -> None:
            """Everyone follows the lobby's deep link; joined = in the log (his "✅" may be lost
            with a killed worker's queue)."""
            lobby = await self.open_lobby(command)
            url = next(b["url"] for b in lobby.buttons if "start=join_" in (b.get("url") or ""))
            for user in self.users:
                await user.follow_deep_link(url)
                await self._until(lambda st, uid=user.id: uid in st.players, f"seat {user.id}")

        async def start_game(self) -> dict[int, StoredMessage]:
            """The organiser presses Start; started = the log left the lobby. Returns no role
            card (an empty dict): none is waited for, a killed worker may have lost one."""
            from engine import Phase

            lobby = self._lobby_message()
            assert lobby is not None
            answer = await self.users[0].press(self.chat_id, lobby.message_id,
                                               self._("▶️ Start"), timeout=TIMER_WAIT)
            assert answer is not None, "Start got no answer"
            assert not answer.text, f"Start refused: {answer.text!r}"
            await self._until(lambda st: st.phase is not Phase.LOBBY, "deal the roles")
            return {}

        async def _until(self, predicate, what: str, timeout: float = TIMER_WAIT) -> None:
            deadline = time.monotonic() + timeout
            while not predicate(await self.state()):
                if time.monotonic() > deadline:
                    raise TimeoutError(f"game {self.game_id}: did not {what} within {timeout} s")
                await asyncio.sleep(0.2)

        async def play(self, plan, until=None, max_steps: int = 200):
            for _ in range(max_steps):
                st = await self.state()
                if st.over:
                    return st
                try:
                    await self.step(plan)
                except Moved:
                    continue
            raise AssertionError(f"the game did not end within {max_steps} steps")

    return BenchTable
