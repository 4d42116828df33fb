"""A party game killed (SIGKILL) at each kind of step — a speech turn, a vote, a last word, a
night — and started again each time (issue 19, item 2): what the group saw before the kill is not
posted again, and no message of an older phase keeps a live button. Runs once, on SQLite."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from bot.storage import Storage
from bot.ui.callbacks import Act
from engine import GameState, Phase

from .botproc import BotProcess
from .conftest import Table, short_game_plan
from .fake_api import FakeBotAPI

pytestmark = pytest.mark.asyncio(loop_scope="module")

GROUP = -1001000000219
KILL_AT = (Phase.SPEECH, Phase.VOTING, Phase.LAST_WORD, Phase.NIGHT)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def reshow_api() -> AsyncIterator[FakeBotAPI]:
    api = FakeBotAPI("123456:TEST")
    await api.start()
    yield api
    await api.stop()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def reshow_proc(reshow_api: FakeBotAPI, tmp_path_factory: pytest.TempPathFactory
                      ) -> AsyncIterator[BotProcess]:
    workdir = tmp_path_factory.mktemp("e2e-reshow")
    proc = BotProcess(reshow_api, f"sqlite+aiosqlite:///{workdir / 'reshow.db'}", workdir)
    await proc.start(timeout=60)
    yield proc
    await proc.stop()


def group_sends(api: FakeBotAPI) -> list[str]:
    return [c.params.get("text") or "" for c in api.calls
            if c.method == "sendMessage" and c.ok and str(c.params.get("chat_id")) == str(GROUP)]


def stale_buttons(api: FakeBotAPI, phase_seq: int) -> list[tuple[int, str]]:
    """Live action buttons in the group of another phase (``s=0``: the game's own controls)."""
    out = []
    for message in api.messages(GROUP):
        for b in message.buttons:
            data = b.get("callback_data") or ""
            if data.startswith("a:") and Act.unpack(data).s not in (0, phase_seq):
                out.append((message.message_id, data))
    return out


async def test_kills_at_each_step_kind_post_nothing_twice(reshow_api: FakeBotAPI,
                                                           reshow_proc: BotProcess) -> None:
    api, proc = reshow_api, reshow_proc
    storage = Storage(proc.database_url)
    await storage.start()
    try:
        table = Table(api, proc, storage, GROUP, first_user_id=2201)
        await table.join_all()
        await table.start_game()
        plan = short_game_plan(await table.state())
        restarts = 0
        for phase in KILL_AT:
            def reached(s: GameState, wanted: Phase = phase) -> bool:
                return s.phase is wanted

            st = await table.play(plan, until=reached)
            if st.over:
                break
            await api.settle(quiet=1.0, timeout=30)  # the step's messages are out
            seen = group_sends(api)
            assert await proc.kill() == -9
            await proc.start(timeout=60)
            restarts += 1
            def recovered(n: int = restarts) -> bool:
                return proc.all_logs().count("open game(s) recovered") >= n

            await table.wait(recovered, "recover the game")
            await api.settle(quiet=1.5, timeout=30)
            again = [text for text in group_sends(api)[len(seen):] if text in seen]
            assert again == [], f"posted again after a kill at {phase.value}: {again}"
            st = await table.state()
            assert stale_buttons(api, st.phase_seq) == [], phase.value
        assert restarts >= 3
        end = await table.play(plan)
        assert end.phase is Phase.ENDED
    finally:
        await storage.close()
