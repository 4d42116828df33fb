"""The Mini App on many workers (issue 12, bot/cluster/miniapp.py): whichever worker a request
reaches, the table is the owner's, a press is applied once by the owner, a stream follows the
owner's commands, and a press the owner cannot answer is refused (503) and never applied.
Needs TEST_REDIS_URL and TEST_DATABASE_URL."""

from __future__ import annotations

import asyncio
import time
from contextlib import AsyncExitStack

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.cluster.routing import shard_of
from bot.webapp import setup
from engine.noir import NoirState
from tests.bot.driver import join_all
from tests.bot.harness import GROUP
from tests.cluster.workers import Cluster, ClusterHarness, Node, live_state, relay_of, stored_game
from tests.fakes.session import TEST_TOKEN
from tests.webapp.support import sign_init_data
from tests.webapp.test_live import next_table

pytestmark = pytest.mark.usefixtures("redis")


@pytest.fixture
async def cluster(pg_url: str, redis_url: str, prefix: str):
    c = Cluster(pg_url, redis_url, prefix, workers=2, shards=8,
                webapp_url="https://example.org")
    await c.start()
    try:
        yield c
    finally:
        await c.stop()


@pytest.fixture
async def clients(cluster: Cluster):
    """node name -> an aiohttp test client of that worker's web server (the Mini App)."""
    async with AsyncExitStack() as stack:
        out = {}
        for node in cluster.nodes:
            app = web.Application()
            setup(app, node.app.webapp, TEST_TOKEN)
            client = TestClient(TestServer(app))
            await client.start_server()
            stack.push_async_callback(client.close)
            out[node.name] = client
        yield out


def auth(cluster: Cluster, user) -> dict[str, str]:
    return {"Authorization": "tma " + sign_init_data(user, cluster.clock())}


async def started(cluster: Cluster) -> tuple[int, Node, Node]:
    """A game dealt in GROUP: (game id, its owner, the other worker)."""
    h = ClusterHarness(cluster)
    game_id = await join_all(h)
    await h.command(cluster.users[0], "/startgame")
    owner = cluster.owner_of(GROUP)
    return game_id, owner, next(n for n in cluster.nodes if n is not owner)


async def table(client, cluster: Cluster, user, game_id: int) -> dict:
    resp = await client.get("/webapp/api/table", params={"g": str(game_id)},
                            headers=auth(cluster, user))
    assert resp.status == 200, await resp.text()
    return await resp.json()


async def act(client, cluster: Cluster, user, game_id: int, **body):
    resp = await client.post("/webapp/api/act", json={"g": game_id, **body},
                             headers=auth(cluster, user))
    return resp.status, await resp.json()


async def log_len(node: Node, game_id: int) -> int:
    return (await stored_game(node.app.storage, game_id)).log_len


def players(cluster: Cluster, st) -> list:
    return [u for u in cluster.users if u.id in st.players]


async def test_the_table_on_any_worker_is_the_owner_s(cluster, clients) -> None:
    game_id, owner, other = await started(cluster)
    st = await live_state(owner, game_id)
    for user in players(cluster, st):
        here = await table(clients[owner.name], cluster, user, game_id)
        there = await table(clients[other.name], cluster, user, game_id)
        assert there == here
    assert game_id not in other.app.service.games  # read, never loaded as its own
    # the ui record (names, drafts) changes without a command: read afresh too
    first = await relay_of(other).snapshot(game_id)
    live = await owner.app.service.live(game_id)
    await owner.app.storage.ui_soon(game_id, {**live.ui, "drafts": {"x": {"seq": 1, "v": 2}}})
    assert (await relay_of(other).snapshot(game_id)).ui["drafts"] == {"x": {"seq": 1, "v": 2}}
    assert await relay_of(other).snapshot(game_id) is not first
    await owner.app.storage.ui_soon(game_id, live.ui)
    # a command later, the other worker shows it at once (no stale view)
    user = players(cluster, st)[0]
    before = await table(clients[other.name], cluster, user, game_id)
    status, answer = await act(clients[owner.name], cluster, user, game_id, a="ready",
                               s=st.phase_seq)
    assert (status, answer["ok"]) == (200, True), answer
    after = await table(clients[other.name], cluster, user, game_id)
    assert after != before
    assert after == await table(clients[owner.name], cluster, user, game_id)


async def test_a_press_on_another_worker_is_applied_once_by_the_owner(cluster, clients) -> None:
    game_id, owner, other = await started(cluster)
    st = await live_state(owner, game_id)
    user = players(cluster, st)[0]
    length = await log_len(owner, game_id)
    status, answer = await act(clients[other.name], cluster, user, game_id, a="ready",
                               s=st.phase_seq)
    assert (status, answer) == (200, {"ok": True, "text": "✅"})
    assert await log_len(owner, game_id) == length + 1
    assert relay_of(other).counts["forwarded"] == 1 and relay_of(owner).counts["answered"] == 1
    assert (await live_state(owner, game_id)).commands == length + 1
    assert game_id not in other.app.service.games
    # pressed again through the other worker: the owner's refusal, nothing stored
    status, again = await act(clients[other.name], cluster, user, game_id, a="ready",
                              s=st.phase_seq)
    assert status == 200 and again["ok"] is False
    await cluster.settle()
    assert await log_len(owner, game_id) == length + 1


async def test_a_stream_on_another_worker_follows_the_owner_s_commands(cluster, clients) -> None:
    game_id, owner, other = await started(cluster)
    st = await live_state(owner, game_id)
    viewer, presser = players(cluster, st)[:2]
    client = clients[other.name]
    ticket = (await table(client, cluster, viewer, game_id))["ticket"]
    resp = await client.get("/webapp/api/stream", params={"g": str(game_id), "ticket": ticket})
    try:
        assert resp.status == 200
        first = await next_table(resp)
        # the viewer's own press, applied by the owner (through its own web server)
        status, answer = await act(clients[owner.name], cluster, viewer, game_id, a="ready",
                                   s=st.phase_seq)
        assert (status, answer["ok"]) == (200, True)
        second = await next_table(resp)
        assert second["buttons"] != first["buttons"]
        mine = await table(clients[owner.name], cluster, viewer, game_id)
        assert {k: v for k, v in second.items() if k != "now"} == \
            {k: v for k, v in mine.items() if k not in ("now", "ticket")}
        # another player's press through the other worker reaches the stream too
        status, answer = await act(client, cluster, presser, game_id, a="ready",
                                   s=st.phase_seq)
        assert (status, answer["ok"]) == (200, True)
        third = await next_table(resp)
        assert third != second
    finally:
        resp.close()
    for _ in range(50):  # the stream's end unsubscribes the channel
        if not relay_of(other)._following:
            break
        await asyncio.sleep(0.02)
    assert not relay_of(other)._following


async def test_a_press_the_owner_cannot_answer_is_refused_and_never_applied(
        cluster, clients) -> None:
    game_id, owner, other = await started(cluster)
    st = await live_state(owner, game_id)
    user = players(cluster, st)[0]
    length = await log_len(owner, game_id)
    lease = owner.worker.leases.key(shard_of(GROUP, cluster.shards))
    await cluster.kill(owner)
    await owner.redis.pexpire(lease, 60_000)  # hung, not yet expired: nobody takes the shard
    relay_of(other).timeout = 2.0
    began = time.monotonic()
    status, answer = await act(clients[other.name], cluster, user, game_id, a="ready",
                               s=st.phase_seq)
    assert status == 503
    assert answer["text"] == "The game did not answer in time; nothing was done. " \
                             "Please try again."
    assert time.monotonic() - began < 2.0 + 1.5
    assert await log_len(other, game_id) == length
    # the lease runs out: the other worker takes the game over and finds the press in the
    # shard's stream, given up by its requester: dropped, not applied
    await owner.redis.delete(lease)
    await cluster.wait_served(timeout=10)
    await cluster.settle()
    assert relay_of(other).counts["dropped"] == 1
    assert await log_len(other, game_id) == length
    assert game_id in other.app.service.games
    # and now it is the owner, a press through it is applied there
    status, answer = await act(clients[other.name], cluster, user, game_id, a="ready",
                               s=st.phase_seq)
    assert (status, answer["ok"]) == (200, True)
    assert await log_len(other, game_id) == length + 1


async def test_a_press_the_owner_took_and_never_answered_is_told_as_unknown(
        cluster, clients, monkeypatch) -> None:
    """The owner claimed the call (so the requester may not give it up) and fell silent: the
    page is not told "nothing was done" but to look at the table."""
    import bot.cluster.miniapp as miniapp

    game_id, owner, other = await started(cluster)
    st = await live_state(owner, game_id)
    taken = asyncio.Event()

    async def silent(args):  # claims as run_act does, then hangs
        assert await owner.redis.set(args["c"], "taken", nx=True)
        taken.set()
        await asyncio.sleep(2.0)

    owner.worker.calls["act"] = silent
    relay_of(other).timeout = 1.0
    monkeypatch.setattr(miniapp, "GRACE", 0.5)
    status, answer = await act(clients[other.name], cluster, players(cluster, st)[0], game_id,
                               a="ready", s=st.phase_seq)
    assert taken.is_set()
    assert status == 503
    assert answer["text"] == "The game did not answer in time. Look at the table before you " \
                             "try again."


async def test_a_draft_tap_on_another_worker_shows_in_its_next_table(cluster, clients) -> None:
    """NOIR's Killer opens «Kill» (a draft in the game's ``ui``, no command) through the worker
    not serving the game: the table it reads next has the cells to pick, as the owner's has;
    the kill tapped there lands in the owner's game."""
    from bot.games.noir import choices
    from bot.games.noir.drafting import stamp
    from tests.bot import noir_driver as nd

    h = ClusterHarness(cluster)
    game_id = await nd.open_lobby(h, 6)
    await nd.press_start(h)
    owner = cluster.owner_of(GROUP)
    other = next(n for n in cluster.nodes if n is not owner)
    st = (await owner.app.service.live(game_id)).state
    assert isinstance(st, NoirState)
    killer = next(u for u in cluster.users if u.id == st.current)
    client = clients[other.name]
    data = await table(client, cluster, killer, game_id)
    kill = next(b for b in data["buttons"]
                if b["a"] == "o" and b["t"] == choices.VIEWS.index("kill"))
    length = await log_len(owner, game_id)
    status, answer = await act(client, cluster, killer, game_id, a="o", t=kill["t"],
                               s=kill["s"], d=kill.get("d"))
    assert (status, answer["ok"]) == (200, True), answer
    assert await log_len(owner, game_id) == length  # a draft: nothing in the log
    there = await table(client, cluster, killer, game_id)
    cells = [b for b in there["buttons"] if b["kind"] == "cell"]
    assert cells
    assert there == await table(clients[owner.name], cluster, killer, game_id)
    cell = cells[0]
    status, answer = await act(client, cluster, killer, game_id, a=cell["a"], t=cell["t"],
                               s=stamp(st), d=cell.get("d"))
    assert (status, answer) == (200, {"ok": True, "text": "✅"})
    assert await log_len(owner, game_id) == length + 1
