"""Playing one tournament game through the bot's buttons, for tests/e2e/test_tournament.py: a
:class:`Board` is one table's group with its judge (the game's host) and the players it knows;
:meth:`Board.play` plays a club game to the end, fast but by the rules (real days and nights):
every speaker ends his speech at once, the first two speakers nominate, two players vote in the
first nominee's window and the judge's «Next» closes it (the silent votes go to the last nominee,
CLUB-24), the blacks shoot a red each night from night 2 and the judge's «Next» ends every night
(the meeting included).  ``town``: the last nominee is a black (the town wins on day 3); else a
red (the mafia wins after night 3)."""

from __future__ import annotations

import asyncio
import re
from typing import TYPE_CHECKING

from bot.handlers.game import CONFIRM
from bot.storage import Storage
from bot.ui.callbacks import Act, LobbyAct, Sheet
from engine import GameState, Phase, Team, command_from_dict, replay

from .conftest import TIMEOUT
from .model import CallbackAnswer, StoredMessage, unisolated

if TYPE_CHECKING:
    from .botproc import BotProcess
    from .fake_api import FakeBotAPI
    from .users import SimUser


class Board:
    """One table's group (``chat_id``) and its judge; ``people``: every simulated user by id."""

    def __init__(self, api: FakeBotAPI, proc: BotProcess, reader: Storage, chat_id: int,
                 judge: SimUser, people: dict[int, SimUser]) -> None:
        self.api, self.proc, self.reader, self.chat_id = api, proc, reader, chat_id
        self.judge, self.people = judge, people
        self.game_id: int | None = None
        self.presses = 0

    # --- observing -----------------------------------------------------------------------------
    async def wait(self, predicate, what: str, timeout: float = TIMEOUT):
        return await self.proc.wait_until(predicate, timeout, what=what)

    async def state(self) -> GameState:
        assert self.game_id is not None
        log = await self.reader.load_log(self.game_id)
        st, _events = replay(command_from_dict(c) for c in log)
        assert isinstance(st, GameState), "a mafia game's log"
        return st

    def message_with(self, chat_id: int, data: str) -> int | None:
        for message in reversed(self.api.messages(chat_id)):
            if any(b.get("callback_data") == data for b in message.buttons):
                return message.message_id
        return None

    def lobby(self, after: int = 0) -> StoredMessage | None:
        """The newest lobby post (its «Join» deep link) with a message id above ``after``."""
        for message in reversed(self.api.messages(self.chat_id)):
            if message.message_id > after and any(
                    "start=join_" in (b.get("url") or "") for b in message.buttons):
                return message
        return None

    # --- acting --------------------------------------------------------------------------------
    async def press(self, user: SimUser, chat_id: int, data: str) -> CallbackAnswer:
        message_id = await self.wait(lambda: self.message_with(chat_id, data),
                                     f"offer the button {data} in chat {chat_id}")
        answer = await user.press(chat_id, message_id, data, timeout=TIMEOUT)
        assert answer is not None
        self.presses += 1
        return answer

    async def do(self, uid: int, chat_id: int, st: GameState, action: str,
                 target: int | None = None) -> None:
        assert self.game_id is not None
        seat = st.players[target].seat if target is not None else 0
        data = Act(g=self.game_id, s=st.phase_seq, a=action, t=seat).pack()
        answer = await self.press(self.people[uid], chat_id, data)
        assert answer.text == CONFIRM[action], (
            f"{self.people[uid].first_name} pressed {action} in {st.phase.value}: {answer.text!r}")

    async def next(self, st: GameState) -> None:
        """The judge's «Next» in his private chat (bound to the running phase)."""
        assert self.game_id is not None
        data = Act(g=self.game_id, s=st.phase_seq, a="next").pack()
        answer = await self.press(self.judge, self.judge.id, data)
        assert answer.text == "⏭", answer.text
        await self.moved(st)

    async def moved(self, st: GameState) -> GameState:
        """Wait until the game leaves the phase of ``st``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + TIMEOUT
        while True:
            new = await self.state()
            if new.phase_seq != st.phase_seq:
                return new
            assert loop.time() < deadline and self.proc.running, (
                f"the game stayed in {st.phase.value}\n{self.proc.log_tail()}")
            await asyncio.sleep(0.05)

    async def open_round(self, organiser: SimUser, names: list[str]) -> StoredMessage:
        """``/newgame`` in the table's group: the round's lobby, every scheduled player seated
        at once in the schedule's order (``names``, seat 1 first); the judge hosts it with the
        lobby's «Be the host» deep link."""
        before = max((m.message_id for m in self.api.messages(self.chat_id)), default=0)
        await organiser.say(self.chat_id, "/newgame")
        lobby = await self.wait(lambda: self.lobby(before), "post the round's lobby")
        start = next(b["callback_data"] for b in lobby.buttons
                     if b.get("callback_data", "").endswith(":start:"))
        self.game_id = int(start.split(":")[1])
        url = next(b["url"] for b in lobby.buttons if "start=host_" in (b.get("url") or ""))
        await self.judge.follow_deep_link(url)
        await self.wait(lambda: self.api.last_message(self.judge.id, "🎩"), "take the judge")
        await self.seated(names)
        return lobby

    async def seated(self, names: list[str]) -> None:
        """The lobby lists ``names`` and nobody else (in the order they joined: the deal
        seats them in the schedule's order, PARTY-X26)."""
        def listed() -> bool:
            lobby = self.lobby()
            text = unisolated(lobby.text if lobby else "")
            return sorted(re.findall(r"^\d+\. (.+)$", text, re.M)) == sorted(names)
        await self.wait(listed, f"list {names} in the lobby")

    async def start(self) -> GameState:
        lobby = self.lobby()
        assert lobby is not None and self.game_id is not None
        data = LobbyAct(g=self.game_id, a="start").pack()
        answer = await self.judge.press(self.chat_id, lobby.message_id, data, timeout=TIMEOUT)
        assert answer is not None and not answer.text, f"Start refused: {answer and answer.text!r}"
        return await self.wait_state(lambda s: s.phase is Phase.NIGHT, "deal the roles")

    async def wait_state(self, predicate, what: str) -> GameState:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + TIMEOUT
        while True:
            st = await self.state()
            if predicate(st):
                return st
            assert loop.time() < deadline and self.proc.running, (
                f"the game did not {what} (phase {st.phase.value})\n{self.proc.log_tail()}")
            await asyncio.sleep(0.05)

    # --- one game -------------------------------------------------------------------------------
    async def play(self, *, town: bool) -> GameState:
        for _ in range(200):
            st = await self.state()
            if st.over:
                return st
            await self.step(st, town)
        raise AssertionError("the game did not end within 200 steps")

    async def step(self, st: GameState, town: bool) -> None:
        reds = [p.user_id for p in st.seated() if p.alive and p.team is Team.TOWN]
        blacks = [p.user_id for p in st.seated() if p.alive and p.team is Team.MAFIA]
        if st.phase is Phase.NIGHT:
            if st.night > 1:
                victim = reds[-1]  # the red in the last seat: never nominated first
                for uid in blacks:
                    if st.mafia_picks.get(uid) != victim:
                        await self.do(uid, uid, st, "kill", victim)
            await self.next(st)
        elif st.phase is Phase.SPEECH:
            assert st.speaker is not None
            if not st.nominated_in_speech:
                target = self.nominee(st, town, reds, blacks)
                if target is not None:
                    await self.do(st.speaker, self.chat_id, st, "nom", target)
                    st = await self.state()
            assert st.speaker is not None
            await self.do(st.speaker, self.chat_id, st, "end")
            await self.moved(st)
        elif st.phase is Phase.VOTING:
            assert st.vote is not None
            first = st.vote.current
            # the town votes its black out in his window; else two votes, and the silent
            # ones go to the last nominee when the judge closes the window
            everyone = town and first in blacks
            voters = reds + blacks if everyone else [first, next(u for u in reds if u != first)]
            if not everyone and len(reds + blacks) <= 4:  # 2 against 2 would be a tie
                voters = [first]
            for uid in voters:
                if uid not in st.vote.votes:
                    await self.do(uid, self.chat_id, st, "vote", first)
                    new = await self.state()
                    if new.phase_seq != st.phase_seq or new.vote is None:
                        return
                    st = new
            await self.next(st)
        elif st.phase is Phase.LAST_WORD:
            assert st.speaker is not None
            await self.do(st.speaker, self.chat_id, st, "end")
            await self.moved(st)
        else:
            raise AssertionError(f"unexpected phase {st.phase.value}")

    @staticmethod
    def nominee(st: GameState, town: bool, reds: list[int], blacks: list[int]) -> int | None:
        """Whom the speaker nominates (None: nobody): two nominees a day; in a town game one
        of them a black (the town votes him out), else two reds (the last one leaves)."""
        others = [u for u in reds + blacks if u != st.speaker and u not in st.nominations]
        if town and not set(blacks) & set(st.nominations):
            black = next((u for u in blacks if u in others), None)
            if black is not None:
                return black
        if len(st.nominations) >= 2 or (town and len(st.nominations) >= 1
                                         and not set(blacks) & set(st.nominations)):
            return None
        return next((u for u in reds if u in others), None)

    # --- the score sheet ------------------------------------------------------------------------
    async def sheet(self, action: str, seat: int = 0) -> str | None:
        """The judge presses his sheet's button ``action`` (Sheet ``a``) for ``seat``."""
        assert self.game_id is not None
        answer = await self.press(self.judge, self.judge.id,
                                  Sheet(a=action, g=self.game_id, t=seat).pack())
        return answer.text
