"""Fixtures for the end-to-end tests: the stand-in Bot API, the bot as an OS process, and
:class:`Table`, which plays a game through the buttons the bot sent, as the players would.

Per test module (``loop_scope="module"``, mark the module with
``pytestmark = pytest.mark.asyncio(loop_scope="module")``): one FakeBotAPI (``bot_api``), one
database (``e2e_database_url``: a SQLite file, and a fresh PostgreSQL database too when
``TEST_DATABASE_URL`` is set) and one bot process (``bot_proc``), stopped with SIGTERM at the end
(a non-zero exit fails the module).  Importing aiogram costs ~3 s per process, hence the scope.
A long whole-game module adds ``ONCE`` (:data:`ONCE`) to its ``pytestmark``: it runs on one
backend only (PostgreSQL when ``TEST_DATABASE_URL`` is set, else SQLite), to keep CI short.

Who acts next is read from the game's log in the database with the project's own code
(``Storage.load_log`` + ``engine.replay``): the simulated players know their roles and seats
(they read them from their role cards), and the test needs to know whose turn it is.  Every action
is a press of a button the bot really sent to the right chat, checked against the bot's answer.
"""

from __future__ import annotations

import os
import re
from collections.abc import AsyncIterator, Callable, Generator
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

import pluggy
import pytest
import pytest_asyncio

from bot.handlers.game import CONFIRM
from bot.storage import Storage
from bot.ui.callbacks import Act
from bot.ui.i18n import Translator
from bot.ui.texts import ROLE_ICONS, ROLE_NAMES
from engine import GameState, Phase, Role, Team, command_from_dict, replay
from engine.mafia.state import VoteRound
from tests.fixtures_db import fresh_postgres_database

from .botproc import BotProcess
from .cluster import cluster_api, cluster_db, cluster_prefix, cluster_redis  # noqa: F401 - fixtures
from .fake_api import FakeBotAPI
from .model import CallbackAnswer, StoredMessage, unisolated
from .users import SimUser

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL") or None
TIMEOUT = 20.0  # seconds for any single reaction of the bot
NAMES = ("Anna", "Boris", "Vera", "Gleb", "Dina", "Egor")

_BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgres", id="postgres",
                 marks=pytest.mark.skipif(TEST_DATABASE_URL is None, reason="TEST_DATABASE_URL is not set")),
]
#: the mark of a module that plays on one database backend only (see the module's docstring)
ONCE = pytest.mark.e2e_once


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "e2e_once: an e2e module run on one database backend "
                                       "(PostgreSQL when TEST_DATABASE_URL is set, else SQLite)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip the SQLite run of an ``e2e_once`` module when PostgreSQL is there (the PostgreSQL
    run is skipped anyway without it)."""
    if TEST_DATABASE_URL is None:
        return
    skip = pytest.mark.skip(reason="an e2e_once module: played on PostgreSQL only")
    for item in items:
        callspec = getattr(item, "callspec", None)
        if item.get_closest_marker("e2e_once") is not None and callspec is not None \
                and callspec.params.get("e2e_database_url") == "sqlite":
            item.add_marker(skip)


# --- fixtures ------------------------------------------------------------------------------------

@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def bot_api(e2e_database_url: str) -> AsyncIterator[FakeBotAPI]:
    """A fresh Telegram for each database backend (the world and the database go together)."""
    api = FakeBotAPI("123456:TEST")
    await api.start()
    yield api
    await api.stop()


@pytest_asyncio.fixture(scope="module", loop_scope="module", params=_BACKENDS)
async def e2e_database_url(request: pytest.FixtureRequest,
                           tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[str]:
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('e2e-db') / 'e2e.db'}"
        return
    async with fresh_postgres_database("e2e") as url:
        yield url


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def bot_proc(bot_api: FakeBotAPI, e2e_database_url: str,
                   tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotProcess]:
    proc = BotProcess(bot_api, e2e_database_url, tmp_path_factory.mktemp("e2e-bot"))
    await proc.start()
    yield proc
    status = await proc.stop()
    if status not in (0, None, -9):  # -9: a test left it killed
        pytest.fail(f"the bot exited with status {status} on SIGTERM\n{proc.log_tail()}")
    if proc.problems():
        pytest.fail("the bot logged problems:\n" + "\n".join(proc.problems()))


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def reader(bot_proc: BotProcess) -> AsyncIterator[Storage]:
    """The test's own connection to the bot's database (after the bot has migrated it)."""
    storage = Storage(bot_proc.database_url)
    await storage.start()
    yield storage
    await storage.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]
                               ) -> Generator[None, pluggy.Result[pytest.TestReport], None]:
    outcome = yield
    report = outcome.get_result()
    proc = next((v for v in getattr(item, "funcargs", {}).values() if isinstance(v, BotProcess)), None)
    if report.failed and isinstance(proc, BotProcess):
        tail = "\n".join(proc.all_logs().splitlines()[-150:])
        report.sections.append(("bot process log (last lines)", tail))


# --- playing through the buttons -------------------------------------------------------------------

@dataclass
class Plan:
    """What the simulated players decide.  Each callable gets the current state and returns a
    user id.  ``nominations[day]``: whom the speakers of that day nominate, in order (each speaker
    nominates the next one not yet nominated, then ends his speech)."""

    nominations: dict[int, list[Callable[[GameState], int]]] = field(default_factory=dict)
    kill: Callable[[GameState], int] | None = None
    check: Callable[[GameState], int] | None = None
    heal: Callable[[GameState], int] | None = None


def ids(st: GameState, role: Role, *, alive: bool = True) -> list[int]:
    """User ids of the players with ``role`` in seat order (living ones only by default)."""
    return [p.user_id for p in st.seated() if p.role is role and (p.alive or not alive)]


def vote_round(st: GameState) -> VoteRound:
    """The vote in progress (the test fails when there is none)."""
    assert st.vote is not None, f"no vote in the phase {st.phase.value}"
    return st.vote


def seat_label(st: GameState, user_id: int) -> str:
    """How the bot names a seated player: ``№3 ⁨Anna⁩`` (the name bidi-isolated, bot/ui/names.py)."""
    p = st.players[user_id]
    return f"№{p.seat} \u2068{p.name}\u2069"


class BotRunner(Protocol):
    """What :class:`Table` needs of the bot it plays against: one process (:class:`BotProcess`)
    or several workers (``cluster.Workers``, the supervisor test's ``Supervised``)."""

    async def wait_until(self, predicate: Callable[[], Any], timeout: float, *,
                         what: str = ...) -> Any:
        """``api.wait_for(predicate)`` within ``timeout`` seconds, failing fast if the bot exits."""


R = TypeVar("R", bound=BotRunner)


class Table(Generic[R]):
    """A group with simulated players and the bot process; plays through the bot's buttons."""

    def __init__(self, api: FakeBotAPI, proc: R, reader: Storage, chat_id: int,
                 first_user_id: int, title: str = "Mafia night", *,
                 names: tuple[str, ...] = NAMES, host_name: str | None = None) -> None:
        """``names``: the players (the first one organises the game and is the group's admin);
        ``host_name``: a group member who will host the game without playing (``self.host``,
        user id right after the players'; None: no such member)."""
        self.api, self.proc, self.reader, self.chat_id = api, proc, reader, chat_id
        self.users = [api.user(first_user_id + i, name, name.lower()) for i, name in enumerate(names)]
        self.by_id = {u.id: u for u in self.users}
        self.host: SimUser | None = None
        if host_name is not None:
            self.host = api.user(first_user_id + len(names), host_name, host_name.lower())
        others = self.users[1:] + ([self.host] if self.host is not None else [])
        api.group(chat_id, title, members=others, admins=self.users[:1])
        self.game_id: int | None = None
        self.tr = Translator()
        self.locale = "ru"

    # --- observing -----------------------------------------------------------------------------

    def _(self, message: str) -> str:
        return self.tr.get(self.locale)(message)

    async def wait(self, predicate, what: str, timeout: float = TIMEOUT):
        return await self.proc.wait_until(predicate, timeout, what=what)

    async def wait_message(self, chat_id: int, containing: str, timeout: float = TIMEOUT) -> StoredMessage:
        return await self.wait(lambda: self.api.last_message(chat_id, containing),
                               f"send {containing!r} to {chat_id}", timeout)

    def message_with(self, chat_id: int, data: str) -> int | None:
        """Id of the newest bot message in ``chat_id`` with a button carrying ``data``."""
        for message in reversed(self.api.messages(chat_id)):
            if any(b.get("callback_data") == data for b in message.buttons):
                return message.message_id
        return None

    async def state(self) -> GameState:
        assert self.game_id is not None
        log = await self.reader.load_log(self.game_id)
        st, _events = replay(command_from_dict(c) for c in log)
        assert isinstance(st, GameState), "a mafia game's log"
        return st

    def act(self, st: GameState, action: str, target: int | None = None) -> str:
        assert self.game_id is not None
        seat = st.players[target].seat if target is not None else 0
        return Act(g=self.game_id, s=st.phase_seq, a=action, t=seat).pack()

    # --- acting --------------------------------------------------------------------------------

    async def press(self, user: SimUser, chat_id: int, data: str) -> CallbackAnswer:
        """Wait until the bot offers the button ``data`` in ``chat_id``, press it, return the answer."""
        message_id = await self.wait(lambda: self.message_with(chat_id, data),
                                     f"offer the button {data} in chat {chat_id}")
        answer = await user.press(chat_id, message_id, data, timeout=TIMEOUT)
        assert answer is not None
        return answer

    async def do(self, user: SimUser, chat_id: int, st: GameState, action: str,
                 target: int | None = None) -> None:
        """Press the action's button and check the bot accepted it (its confirmation mark)."""
        answer = await self.press(user, chat_id, self.act(st, action, target))
        assert answer.text == CONFIRM[action], (
            f"{user.first_name} pressed {action} in {st.phase.value}: the bot answered {answer.text!r}")

    async def open_lobby(self, command: str = "/newgame") -> StoredMessage:
        """The organiser sends ``command`` (``/newgame club`` for another preset)."""
        organiser = self.users[0]
        await organiser.say(self.chat_id, command)
        lobby = await self.wait(lambda: self._lobby_message(), "post the lobby")
        start = next(b["callback_data"] for b in lobby.buttons
                     if b.get("callback_data", "").endswith(":start:"))
        self.game_id = int(start.split(":")[1])
        return lobby

    def _lobby_message(self) -> StoredMessage | None:
        for message in reversed(self.api.messages(self.chat_id)):
            if any("start=join_" in (b.get("url") or "") for b in message.buttons):
                return message
        return None

    async def join_all(self, command: str = "/newgame") -> None:
        lobby = await self.open_lobby(command)
        url = next(b["url"] for b in lobby.buttons if "start=join_" in (b.get("url") or ""))
        for user in self.users:
            await user.follow_deep_link(url)
            await self.wait_message(user.id, "✅")  # "You joined the game in «...»"
        # the newest lobby: a send repeated after a dropped connection may leave an old copy;
        # joins edit it at most once per LIVE_GAP (issue 11): the last one within seconds
        n = len(self.users)
        await self.wait(lambda: self._lobby_lists(self._lobby_message() or lobby, n),
                        f"list {n} players in the lobby")

    async def become_host(self) -> StoredMessage:
        """``self.host`` follows the open lobby's «Be the host» deep link; returns the bot's
        private answer (🎩)."""
        assert self.host is not None
        lobby = self._lobby_message()
        assert lobby is not None
        url = next(b["url"] for b in lobby.buttons if "start=host_" in (b.get("url") or ""))
        await self.host.follow_deep_link(url)
        return await self.wait_message(self.host.id, "🎩")

    def _lobby_lists(self, lobby: StoredMessage, n: int) -> bool:
        text = unisolated(lobby.text)
        return all(f"{i}. {u.first_name}" in text for i, u in enumerate(self.users[:n], start=1))

    async def start_game(self) -> dict[int, StoredMessage]:
        """The organiser presses Start; returns every player's role card (private message)."""
        organiser = self.users[0]
        lobby = self._lobby_message()
        assert lobby is not None
        answer = await organiser.press(self.chat_id, lobby.message_id, self._("▶️ Start"), timeout=TIMEOUT)
        assert answer is not None, "Start not answered"
        assert not answer.text, f"Start refused: {answer.text!r}"
        cards = {}
        for user in self.users:
            cards[user.id] = await self.wait_message(user.id, "🎭")
        return cards

    async def step(self, plan: Plan) -> GameState:
        """Take the actions the current phase needs (one turn, or every pending player); returns
        the state they were decided on.  Raises AssertionError when the bot refuses a press."""
        st = await self.state()
        user = {uid: self.by_id[uid] for uid in st.players}
        if st.phase is Phase.READY:
            for p in st.alive_active():
                if p.user_id not in st.ready:
                    chat = p.user_id if st.ready_purpose == "intro" else self.chat_id
                    await self.do(user[p.user_id], chat, st, "ready")
        elif st.phase is Phase.NIGHT:
            await self._night(st, plan, user)
        elif st.phase in (Phase.SPEECH, Phase.DEFENCE, Phase.LAST_WORD):
            assert st.speaker is not None
            speaker = user[st.speaker]
            wanted = [pick(st) for pick in plan.nominations.get(st.day, [])]
            wanted = [uid for uid in wanted if uid not in st.nominations]
            if st.phase is Phase.SPEECH and wanted and not st.nominated_in_speech:
                await self.do(speaker, self.chat_id, st, "nom", wanted[0])
                st = await self.state()
            await self.do(speaker, self.chat_id, st, "end")
        elif st.phase is Phase.VOTING:
            assert st.vote is not None
            for p in st.alive_active():
                if p.user_id not in st.vote.votes:
                    await self.do(user[p.user_id], self.chat_id, st, "vote", st.vote.current)
                    st = await self.state()
                    if st.phase is not Phase.VOTING:
                        break
        else:
            raise AssertionError(f"the plan does not cover the phase {st.phase.value}")
        return st

    async def _night(self, st: GameState, plan: Plan, user: dict[int, SimUser]) -> None:
        first = st.night <= 1
        for p in st.alive_active():
            if p.team is Team.MAFIA and not first:
                assert plan.kill is not None
                target = plan.kill(st)
                if st.mafia_picks.get(p.user_id) != target:
                    await self.do(user[p.user_id], p.user_id, st, "kill", target)
            elif p.user_id in st.night_actions:
                continue
            elif p.role is Role.COMMISSAR and not first and plan.check is not None:
                await self.do(user[p.user_id], p.user_id, st, "check", plan.check(st))
            elif p.role is Role.DOCTOR and not first and plan.heal is not None:
                await self.do(user[p.user_id], p.user_id, st, "heal", plan.heal(st))
            else:
                await self.do(user[p.user_id], p.user_id, st, "sleep")

    async def play(self, plan: Plan, until: Callable[[GameState], bool] | None = None,
                   max_steps: int = 80) -> GameState:
        """Step until the game is over (or ``until(state)``); returns the final state."""
        for _ in range(max_steps):
            st = await self.state()
            if st.over or (until is not None and until(st)):
                return st
            await self.step(plan)
        raise AssertionError(f"the game did not end within {max_steps} steps")

    # --- roles in group messages -------------------------------------------------------------

    def role_label(self, role: Role | None) -> str:
        """How the bot shows ``role`` (icon and name); the test fails on None (roles not dealt)."""
        assert role is not None, "roles are not dealt"
        return f"{ROLE_ICONS[role]} {self._(ROLE_NAMES[role])}"

    def role_leaks(self, messages: list[StoredMessage]) -> list[str]:
        """Lines of ``messages`` (every version, edits included) that tie a player to a role: a
        role with its icon (how the bot shows a role), a player's name right next to a role name
        ("№3 Anna — Мафия", "Мафия: Anna"), or a check's verdict about a player (the Commissar's,
        the Sheriff's, the Don's).  ("The mafia killed №3 Anna" or "Mafia: 2 · Commissar" name no
        one's role.)"""
        words = "|".join(re.escape(self._(name)) for name in ROLE_NAMES.values())
        icons = "|".join(re.escape(icon) for icon in ROLE_ICONS.values())
        names = "|".join(re.escape(u.first_name) for u in self.users)
        patterns = [rf"(?:{icons})\s*(?:{words})", rf"\b(?:{names})\W{{0,4}}(?:{words})",
                    rf"(?:{words})\W{{0,4}}(?:№\d+\s+)?(?:{names})\b"]
        verdicts = [self._(v).replace("<b>", "").replace("</b>", "").split("{player}")[1]
                    for v in ("🔎 {player} is <b>mafia</b>.", "🔎 {player} is <b>not mafia</b>.",
                              "⭐ {player} is <b>black</b>.", "⭐ {player} is <b>red</b>.",
                              "🎩 {player} <b>is the Sheriff</b>.", "🎩 {player} is not the Sheriff.")]
        patterns += [rf"\b(?:{names}){re.escape(v)}" for v in verdicts]
        leak = re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE)
        leaks = []
        for message in messages:
            versions = [edit.text for edit in message.edits] + [message.text, message.caption]
            for text in filter(None, versions):
                leaks += [line for line in text.splitlines() if leak.search(line)]
        return leaks


def short_game_plan(st) -> Plan:
    """A six-player party game the mafia wins on day 1 (from a dealt state ``st``): a civilian
    and the Commissar nominated and voted out, the other civilian shot, the Doctor saving
    himself, the Commissar checking a mafioso."""
    civilians, mafia = ids(st, Role.CIVILIAN), ids(st, Role.MAFIA)
    (commissar,), (doctor,) = ids(st, Role.COMMISSAR), ids(st, Role.DOCTOR)
    return Plan(nominations={1: [lambda s: civilians[0], lambda s: commissar]},
                kill=lambda s: civilians[1], heal=lambda s: doctor, check=lambda s: mafia[0])
