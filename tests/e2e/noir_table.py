"""Playing NOIR end to end (issue 9): :class:`NoirTable` opens ``/newgame noir`` in a group,
six simulated people join by the deep link and start, then each one, on his turn, picks an
action among exactly the legal ones (:func:`choose`, seeded) and carries it out by pressing the
buttons of the DM menu and the cell picker the bot sent him (:meth:`NoirTable.perform`).

Who acts and what is legal is read from the game's log in the database with the project's own
code (``Storage.load_log`` + ``engine.core.game.replay`` + ``engine.noir.legal_actions``); the
players know their teammates (their identity cards say so) and, being a test, the agents also
know where the mafiosi hide, so that a game ends in a few dozen commands.  Each press is of a
button the bot really sent to that player's private chat, and its answer is checked: nothing
for a step of a draft, "✅" for the press that completes the command.

The button protocol is the codec's (``bot/games/noir/codec.py``): ``Act(g, s, a, t)`` with ``s``
the step stamp (``drafting.stamp``), ``a`` the code, ``t`` its argument.

Not covered here (the bot tests cover them through ``feed_update``): the Suit's shields and
cancel window (a window lasts 10 s at least), the strict accusation, the 8-player table (Sniper,
Profiler), timeouts and pauses.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Callable, Iterable
from typing import Any

from bot.games.noir.choices import TOKEN_KINDS, VIEWS
from bot.games.noir.drafting import stamp
from bot.games.noir.names import ROLES, SUSPECTS
from bot.ui.callbacks import Act
from engine.core.game import apply as core_apply
from engine.core.game import decode_log
from engine.core.state import GameStateLike
from engine.noir import LegalActions, NoirState, Team, chain_links, legal_actions
from engine.noir import apply as noir_apply
from engine.noir import commands as C
from engine.noir.common import accuse_targets

from .botproc import BotProcess
from .conftest import TIMEOUT, Table
from .model import StoredMessage, unisolated

#: the players (none is also a suspect's name, in any language: see identity_leaks)
NOIR_NAMES = ("Xenia", "Yuri", "Wanda", "Quentin", "Ulrich", "Zeno")


def _cells_in(field: str) -> Callable[[LegalActions], set[int]]:
    """The suspects of the LegalActions tuple ``field``, as a set."""
    return lambda la: set(getattr(la, field))


#: the suspects the first cell picker of a view offers, from the player's LegalActions
FIRST_CELLS: dict[str, Callable[[LegalActions], set[int]]] = {
    **{view: _cells_in(field) for view, field in (
        ("kill", "kill"), ("shoot", "shoot"), ("bomb", "place_bomb"), ("autopsy", "autopsy"),
        ("protect", "protect"), ("unprotect", "unprotect"), ("accuse", "accuse"), ("det", "detonate"))},
    "swap": lambda la: {x for pair in la.swap for x in pair},
}


def actor(st: NoirState) -> int | None:
    """Who must act now: the Suit inside a cancel window he may answer in, else the current
    player (None when nobody can: the game is over, or a window the Suit cannot cancel in)."""
    if st.phase != "play":
        return None
    if st.window is not None:
        suit = next((p for p in st.players.values() if p.role is not None and p.role.value == "suit"), None)
        return suit.user_id if suit is not None and st.window.suit_can else None
    return st.current


def choose(st: NoirState, uid: int, la: LegalActions, rng: random.Random) -> C.Command:
    """A seeded pick among ``la`` (the player's legal actions now), played to end a game soon:
    the mafia kills agents' suspects first and never its own; an agent accuses a mafioso's
    suspect when one is in reach, else mostly shifts one into some agent's reach, and never
    accuses his own or a teammate's suspect.  The Suit never places a shield (a kill of a
    shielded suspect opens a cancel window of fixed length, 10 s at least: the test stays
    short)."""
    mafia = {p.identity for p in st.players.values() if p.team is Team.MAFIA and p.identity is not None}
    agents = {p.identity for p in st.players.values() if p.team is Team.AGENTS and p.identity is not None}
    if la.step == "threats":
        cells = [c for c in la.threats if c not in mafia] or list(la.threats)
        return C.PlaceThreats(user_id=uid, targets=tuple(rng.sample(cells, min(len(cells), la.threats_max))))
    if la.step == "cancel":
        return C.AnswerCancel(user_id=uid, cancel=rng.random() < 0.5)
    r = rng.random()
    if st.players[uid].team is Team.AGENTS:
        hits = [t for t in la.accuse if t in mafia]
        if hits:
            return C.Accuse(user_id=uid, target=rng.choice(hits))
        if la.autopsy and r < 0.2:
            return C.Autopsy(user_id=uid, target=rng.choice(la.autopsy))
        if la.interrogate and r < 0.2:
            return C.Interrogate(user_id=uid, keep=rng.choice(la.interrogate))
        if la.unprotect and r < 0.2:
            return C.Unprotect(user_id=uid, target=rng.choice(la.unprotect))
        shifts = [sh for sh in la.shifts if _in_reach(st, uid, sh) > 0]
        if shifts:  # one that brings a mafioso within an agent's reach
            line, index, by = rng.choice(shifts)
            return C.Shift(user_id=uid, line=line, index=index, by=by)
        wasted = [t for t in la.accuse if t not in agents]  # never his own or a teammate's
        if wasted and (r >= 0.5 or not la.shifts):
            return C.Accuse(user_id=uid, target=rng.choice(wasted))
        return _shift(uid, la, rng)
    good = [t for t in la.kill if t in agents] or [t for t in la.kill if t not in mafia]
    if good:
        return C.Kill(user_id=uid, target=rng.choice(good))
    if la.detonate:
        bomb = rng.choice(la.detonate)
        links = chain_links(st, bomb, ())
        safe = [x for x in links if x not in mafia]
        if safe or not links:
            return C.Detonate(user_id=uid, bomb=bomb, chain=tuple(safe[:1]))
    bombs = [t for t in la.place_bomb if t not in mafia]
    if bombs:
        return C.PlaceBomb(user_id=uid, target=rng.choice(bombs))
    if la.swap and r < 0.5:
        first, second = rng.choice(la.swap)
        return C.Swap(user_id=uid, first=first, second=second)
    if la.collapse and r < 0.8:
        axis, end = rng.choice(la.collapse)
        return C.Collapse(user_id=uid, axis=axis, end=end)
    if la.change_identity and not la.shifts:
        return C.ChangeIdentity(user_id=uid)
    return _shift(uid, la, rng)


def _in_reach(st: NoirState, uid: int, shift: tuple[str, int, int]) -> int:
    """How many mafiosi's suspects some agent could accuse after ``uid`` makes ``shift``."""
    after, _events = noir_apply(st, C.Shift(user_id=uid, line=shift[0], index=shift[1], by=shift[2]))
    if after.phase != "play":
        return 0
    mafia = {p.identity for p in after.players.values() if p.team is Team.MAFIA}
    reach = {t for p in after.players.values() if p.team is Team.AGENTS for t in accuse_targets(after, p)}
    return len(mafia & reach)


def _shift(uid: int, la: LegalActions, rng: random.Random) -> C.Command:
    line, index, by = rng.choice(la.shifts)
    return C.Shift(user_id=uid, line=line, index=index, by=by)


def presses(st: NoirState, la: LegalActions, cmd: C.Command) -> list[tuple[str, int]]:
    """The buttons ``(code, t)`` that carry ``cmd`` out, in order, from the player's menu."""

    def view(name: str) -> tuple[str, int]:
        return ("o", VIEWS.index(name))

    match cmd:
        case C.Kill() | C.Shoot() | C.PlaceBomb() | C.Autopsy() | C.Protect() | C.Unprotect() | C.Accuse():
            name = {C.Kill: "kill", C.Shoot: "shoot", C.PlaceBomb: "bomb", C.Autopsy: "autopsy",
                    C.Protect: "protect", C.Unprotect: "unprotect", C.Accuse: "accuse"}[type(cmd)]
            return [view(name), ("c", cmd.target)]
        case C.Shift():
            return [view("shift"), ("l", ("row", "column").index(cmd.line)), ("i", cmd.index),
                    ("y", cmd.by + 2)]
        case C.Collapse():
            return [view("collapse"), ("k", list(la.collapse).index((cmd.axis, cmd.end)))]
        case C.Swap():
            return [view("swap"), ("c", cmd.first), ("c", cmd.second)]
        case C.Detonate():
            return [view("det"), ("c", cmd.bomb), *(("c", x) for x in cmd.chain), ("d", 0)]
        case C.MoveToken():
            return [view("move"), ("m", TOKEN_KINDS.index(cmd.kind)), ("c", cmd.source), ("c", cmd.dest)]
        case C.Interrogate():
            return [view("int"), ("c", cmd.keep)]
        case C.Profile():
            return [view("prof"), ("c", cmd.card)]
        case C.ChangeIdentity():
            return [("n", 0)]
        case C.PlaceThreats():
            return [*(("c", x) for x in cmd.targets), ("d", 0)]
        case C.AnswerCancel():
            return [("x", int(cmd.cancel))]
    raise AssertionError(f"no buttons for {cmd!r}")


class NoirTable(Table[BotProcess]):
    """A group with six simulated NOIR players and the bot process."""

    def __init__(self, *args: Any, seed: int = 0, **kwargs: Any) -> None:
        kwargs.setdefault("names", NOIR_NAMES)
        kwargs.setdefault("title", "Noir night")
        super().__init__(*args, **kwargs)
        self.rng = random.Random(seed)
        self.done: list[C.Command] = []
        self.history: list[NoirState] = []
        """Every state of the game after each command, as of the latest :meth:`state`."""
        self.seen: dict[tuple[int, int], tuple[str, int]] = {}
        """(message id, version) of the group's bot messages -> (text, commands logged when seen)."""

    async def state(self) -> NoirState:  # type: ignore[override]  # a NoirState, not a GameState
        assert self.game_id is not None
        commands = decode_log(await self.reader.load_log(self.game_id))
        st: GameStateLike | None = None
        states: list[NoirState] = []
        for cmd in commands:
            st, _events = core_apply(st, cmd)
            assert isinstance(st, NoirState)
            states.append(st)
        self.history = states
        assert isinstance(st, NoirState)
        if st.phase != "lobby":
            self.observe()
        return st

    async def start_game(self) -> dict[int, StoredMessage]:
        """The organiser presses Start; returns every player's identity card (DM)."""
        organiser = self.users[0]
        lobby = self._lobby_message()
        assert lobby is not None
        answer = await organiser.press(self.chat_id, lobby.message_id, self._("▶️ Start"), timeout=TIMEOUT)
        assert answer is not None, "Start not answered"
        assert not answer.text, f"Start refused: {answer.text!r}"
        card = self._("Your role: {role}.").split("{")[0]
        return {u.id: await self.wait_message(u.id, card) for u in self.users}

    # --- acting --------------------------------------------------------------------------------

    async def perform(self, st: NoirState, uid: int, cmd: C.Command, *, clumsy: bool = False,
                      restart_after: int | None = None) -> None:
        """Carry ``cmd`` out by pressing the buttons of ``uid``'s menu; checks the menu offers
        exactly his legal views and cells, and the bot's answer to every press.  A ``clumsy``
        player first presses a cell that cannot be chosen (if the picker shows one: "You can't
        choose that cell now.") and taps the last button twice at once (the second press: "This
        button is out of date.", the command is done once).  ``restart_after`` n: once the
        bot answered press n (from 1) and showed the next step, it is killed (SIGKILL) and
        started again; the draft must have survived."""
        assert self.game_id is not None
        la = legal_actions(st, uid)
        user, seq = self.by_id[uid], stamp(st)
        steps = presses(st, la, cmd)
        for n, (code, t) in enumerate(steps):
            data = Act(g=self.game_id, s=seq, a=code, t=t).pack()
            if n == 0 and la.step == "act":
                self.check_menu(la, await self.menu(uid, data))
            if n == 0 and la.step == "threats":
                assert self.cells(await self.menu(uid, data)) == set(la.threats), la
            if n == 1 and steps[0][0] == "o" and VIEWS[steps[0][1]] in FIRST_CELLS:
                expected = FIRST_CELLS[VIEWS[steps[0][1]]](la)
                assert self.cells(await self.menu(uid, data)) == expected, (VIEWS[steps[0][1]], la)
            last = n == len(steps) - 1
            if clumsy and n >= 1:
                await self.press_unpickable(uid)
            if clumsy and last:
                await self.double_tap(uid, data)
                break
            if restart_after is not None and n == restart_after:
                await self.menu(uid, data)  # the bot showed this step: its draft is stored
                await self.proc.kill()
                await self.proc.start(timeout=60)
            answer = await self.press(user, uid, data)
            allowed = {None, ""} if not last else {"✅", self._("Your answer is noted.")}
            assert answer.text in allowed, f"{cmd!r}: press {n + 1} ({code}, {t}) answered {answer.text!r}"
        self.done.append(cmd)

    async def press_unpickable(self, uid: int) -> None:
        """Press a cell of ``uid``'s picker marked as not choosable now, if it shows one."""
        menu = self.api.last_message(uid)
        dead = [b["callback_data"] for b in (menu.buttons if menu else [])
                if b.get("callback_data", "").startswith("a:") and Act.unpack(b["callback_data"]).a == "u"]
        if dead:
            answer = await self.press(self.by_id[uid], uid, dead[0])
            assert answer.text == self._("You can't choose that cell now."), answer.text

    async def double_tap(self, uid: int, data: str) -> None:
        """Press ``data`` twice before the bot answers: one press does it, the other is stale."""
        user = self.by_id[uid]
        message_id = await self.wait(lambda: self.message_with(uid, data), f"offer {data} to {uid}")
        await user.press(uid, message_id, data, wait_answer=False)
        await user.press(uid, message_id, data, wait_answer=False)
        waiters = list(self.api.callback_waiters.values())[-2:]
        answers = sorted([(await asyncio.wait_for(w, TIMEOUT)).text or "" for w in waiters])
        assert answers == sorted(["✅", self._("This button is out of date.")]), answers

    async def menu(self, uid: int, data: str) -> StoredMessage:
        """The DM message of ``uid`` offering the button ``data`` (waits for it)."""
        message_id = await self.wait(lambda: self.message_with(uid, data), f"offer {data} to {uid}")
        return self.api.message(uid, message_id)

    def check_menu(self, la: LegalActions, menu: StoredMessage) -> None:
        """The menu offers a view (and «Change identity») exactly when the player has a legal
        action of that kind."""
        offered = {VIEWS[Act.unpack(b["callback_data"]).t] for b in menu.buttons
                   if b.get("callback_data", "").startswith("a:") and Act.unpack(b["callback_data"]).a == "o"}
        fields = {"shift": la.shifts, "collapse": la.collapse, "accuse": la.accuse, "kill": la.kill,
                  "swap": la.swap, "bomb": la.place_bomb, "det": la.detonate, "shoot": la.shoot,
                  "move": la.move_token, "autopsy": la.autopsy, "int": la.interrogate,
                  "protect": la.protect, "unprotect": la.unprotect, "prof": la.profile}
        assert offered == {v for v, legal in fields.items() if legal}, (offered, la)
        codes = {Act.unpack(b["callback_data"]).a for b in menu.buttons
                 if b.get("callback_data", "").startswith("a:")}
        assert ("n" in codes) == la.change_identity, (codes, la)

    @staticmethod
    def cells(message: StoredMessage) -> set[int]:
        """The suspects a picker message lets the player choose (its ``c`` buttons)."""
        acts = [Act.unpack(b["callback_data"]) for b in message.buttons
                if b.get("callback_data", "").startswith("a:")]
        return {a.t for a in acts if a.a == "c"}

    async def play(self, max_commands: int = 150) -> NoirState:  # type: ignore[override]  # agents choose: no Plan
        """Act until the game is over; returns the final state."""
        for _ in range(max_commands):
            st = await self.state()
            if st.phase != "play":
                return st
            uid = actor(st)
            if uid is None:  # a window nobody may answer: it closes by itself
                await self.wait_commands(len(self.history))
                continue
            await self.perform(st, uid, choose(st, uid, legal_actions(st, uid), self.rng))
        raise AssertionError(f"the game did not end within {max_commands} commands")

    async def wait_commands(self, count: int, timeout: float = 45.0) -> None:
        """Wait until the game's log holds more than ``count`` commands."""
        assert self.game_id is not None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while len(await self.reader.load_log(self.game_id)) <= count:
            if loop.time() > deadline:
                raise AssertionError(f"the game's log stayed at {count} commands for {timeout} s")
            await asyncio.sleep(0.3)

    # --- secrets in the group ------------------------------------------------------------------

    def observe(self) -> None:
        """Note every version of the group's bot messages not seen before, with the number of
        commands the log held when it was first seen (see :meth:`identity_leaks`)."""
        k = len(self.history)
        for message in self.api.chat(self.chat_id).messages.values():
            if message.from_bot:
                for i, text in enumerate(versions(message)):
                    self.seen.setdefault((message.message_id, i), (text, k))

    def identity_leaks(self, ended: Iterable[str] = ()) -> list[str]:
        """Lines the group saw that tie a player to his identity: a line naming the player (by
        his name, or by his role: roles are public) and a suspect that was his identity at some
        point of the game so far and was still in play (living, unarrested) when the line was
        first seen.  A suspect named beside a player otherwise is public play: "Xenia accused
        Anna: no mafioso there", "The Killer was hiding as Anna" once Anna is arrested.  Versions
        holding one of the ``ended`` texts (the result) are left out: after the end nothing is
        secret.  The players' names are chosen so that no suspect is called so."""
        assert self.history, "call state() first"
        suspects = {self._(name): s for s, name in enumerate(SUSPECTS)}

        def word(names: Iterable[str]) -> re.Pattern[str]:
            alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
            return re.compile("(?<!\\w)(" + alternatives + ")(?!\\w)")

        suspect_re = word(suspects)
        assert not any(suspect_re.search(u.first_name) for u in self.users)
        leaks = []
        for text, k in self.seen.values():
            if any(e in text for e in ended):
                continue
            states = self.history[:max(k, 1)]
            now = states[-1]
            held = {(uid, p.identity) for st in states for uid, p in st.players.items()
                    if p.identity is not None}
            tags = {uid: {p.name} | ({self._(ROLES[p.role.value])} if p.role else set())
                    for uid, p in now.players.items()}
            for line in text.splitlines():
                named = {suspects[m] for m in suspect_re.findall(line)}
                for uid, words in tags.items():
                    if (any(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", line) for w in words)
                            and any((uid, s) in held and now.killable(s) for s in named)):
                        leaks.append(line)
        return leaks


def versions(message: StoredMessage) -> list[str]:
    """Every text and caption ``message`` ever showed, oldest first (bidi marks removed)."""
    texts = [t for e in message.edits for t in (e.text, e.caption)] + [message.text, message.caption]
    return [unisolated(t) for t in texts if t]


def pictures(message: StoredMessage) -> list[bytes]:
    """Every picture ``message`` ever showed, oldest first."""
    shown = [e.photo_bytes for e in message.edits] + [message.photo_bytes]
    out: list[bytes] = []
    for data in shown:
        if data is not None and (not out or out[-1] is not data):
            out.append(data)
    return out
