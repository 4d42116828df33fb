"""Many workers in one process (issue 12): full bot stacks sharing PostgreSQL and Redis, updates
entering through the webhook inbox. Needs TEST_REDIS_URL and TEST_DATABASE_URL."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.cluster.routing import shard_of
from bot.ui.callbacks import Act
from engine import Phase
from tests.bot.driver import join_all, play_to_end, step
from tests.bot.harness import GROUP
from tests.cluster.workers import Cluster, ClusterHarness, stored_game

pytestmark = pytest.mark.usefixtures("redis")


@pytest.fixture
async def cluster(pg_url: str, redis_url: str, prefix: str):
    c = Cluster(pg_url, redis_url, prefix, workers=2, shards=8)
    await c.start()
    try:
        yield c
    finally:
        await c.stop()


async def test_shards_are_split_between_the_workers(cluster: Cluster) -> None:
    a, b = cluster.nodes
    assert a.worker.serving and b.worker.serving
    assert a.worker.serving.isdisjoint(b.worker.serving)
    assert a.worker.serving | b.worker.serving == set(range(cluster.shards))


async def test_a_whole_game_across_workers(cluster: Cluster) -> None:
    h = ClusterHarness(cluster)
    game_id = await join_all(h)
    await h.command(cluster.users[0], "/startgame")
    owner = cluster.owner_of(GROUP)
    other = next(n for n in cluster.nodes if n is not owner)
    await play_to_end(h, seed=3)
    st = (await stored_game(owner.app.storage, game_id))
    assert st.status == "finished"
    assert game_id not in other.app.service.games  # only the owner ever held it
    # updates came in through both workers' inboxes
    assert h.sent_via[owner.name] > 10 and h.sent_via[other.name] > 10


async def test_the_same_update_twice_is_handled_once(cluster: Cluster) -> None:
    h = ClusterHarness(cluster)
    update = cluster.updates.group_command(GROUP, cluster.users[0], "/newgame")
    a, b = cluster.nodes
    assert await cluster.send(update, via=a) is True
    assert await cluster.send(update, via=b) is False  # Telegram's retry: seen
    await cluster.settle()
    lobbies = [t for t in h.texts(GROUP) if "/newgame" not in t and "join" in t.lower()]
    assert len(lobbies) == 1
    g = await h.game()
    assert g.state.commands == 1


async def test_two_presses_at_once_have_one_effect(cluster: Cluster) -> None:
    h = ClusterHarness(cluster)
    await join_all(h)
    g = await h.game()
    await h.command(cluster.users[0], "/startgame")
    rng = random.Random(5)  # play to the first vote
    for _ in range(400):
        st = (await h.game()).state
        if st.phase is Phase.VOTING or st.over:
            break
        await step(h, rng)
    assert st.phase is Phase.VOTING
    voter = next(u for u in cluster.users if st.players.get(u.id) and st.players[u.id].alive
                 and u.id not in st.vote.votes)
    mid, data = next((mid, b["callback_data"]) for mid, b in h.buttons(GROUP)
                     if (b.get("callback_data") or "").startswith("a:")
                     and Act.unpack(b["callback_data"]).a == "vote")
    a, b = cluster.nodes
    before = (await h.game()).state.commands
    one = cluster.updates.callback(voter, (GROUP, mid), data)
    two = cluster.updates.callback(voter, (GROUP, mid), data)
    # the same vote button pressed twice at once (two updates), through two workers
    await asyncio.gather(cluster.send(one, via=a), cluster.send(two, via=b))
    await cluster.settle()
    after = (await h.game()).state
    assert after.commands == before + 1
    assert g.id == (await h.game()).id


async def test_a_killed_worker_s_game_goes_on_elsewhere(cluster: Cluster) -> None:
    h = ClusterHarness(cluster)
    game_id = await join_all(h)
    await h.command(cluster.users[0], "/startgame")
    owner = cluster.owner_of(GROUP)
    survivor = next(n for n in cluster.nodes if n is not owner)
    await cluster.kill(owner)
    took = await cluster.wait_served(timeout=10)
    assert took <= 10
    assert shard_of(GROUP, cluster.shards) in survivor.worker.serving
    assert game_id in survivor.app.service.games  # recovered with the shard
    await play_to_end(h, seed=4)
    assert (await stored_game(survivor.app.storage, game_id)).status == "finished"


async def test_an_update_its_dead_worker_never_acknowledged_is_not_applied_twice(
        cluster: Cluster) -> None:
    """The owner applied a press but died before XACK: the next owner handles the entry
    again (redelivered) and the log, which has a command of that update, gets nothing more."""
    from bot.cluster.inbox import stream_key
    from bot.cluster.worker import GROUP as STREAMS

    h = ClusterHarness(cluster)
    game_id = await join_all(h)
    owner = cluster.owner_of(GROUP)
    survivor = next(n for n in cluster.nodes if n is not owner)
    start = cluster.updates.group_command(GROUP, cluster.users[0], "/startgame")
    await h.feed(start)
    applied = await stored_game(owner.app.storage, game_id)
    assert await owner.app.storage.update_applied(game_id, start.update_id)
    # the same entry again, read by the owner and left unacknowledged: it dies holding it
    key = stream_key(cluster.prefix, shard_of(GROUP, cluster.shards))
    data = start.model_dump_json(exclude_none=True, by_alias=True)
    owner.worker.serving.discard(shard_of(GROUP, cluster.shards))  # its reader skips it
    await asyncio.sleep(0.8)  # once its blocking read (0.5 s) is over
    await owner.redis.xadd(key, {"u": data, "h": 0})
    read = await owner.redis.xreadgroup(STREAMS, owner.name, {key: ">"}, count=10)
    assert read and len(read[0][1]) == 1
    await cluster.kill(owner)
    await cluster.wait_served(timeout=10)
    await cluster.settle()
    assert survivor.worker.counts["redelivered"] == 1
    assert (await stored_game(survivor.app.storage, game_id)).log_len == applied.log_len


async def test_a_press_while_the_database_is_down_is_retried_and_applied_once(
        cluster: Cluster, monkeypatch: pytest.MonkeyPatch) -> None:
    """PostgreSQL refuses the command's write: nothing is told done, the update stays
    unacknowledged and is tried again (redelivered) until the write succeeds — once."""
    import bot.cluster.worker as worker_module

    h = ClusterHarness(cluster)
    game_id = await join_all(h)
    owner = cluster.owner_of(GROUP)
    storage = owner.app.storage
    real_append = storage.append
    failures: list[int] = []

    async def failing_append(*args, **kwargs):
        if len(failures) < 2:
            failures.append(1)
            raise ConnectionRefusedError(111, "Connect call failed")
        return await real_append(*args, **kwargs)

    monkeypatch.setattr(storage, "append", failing_append)
    monkeypatch.setattr(worker_module, "DB_RETRY_SECONDS", 30.0)
    length = (await stored_game(storage, game_id)).log_len
    await h.command(cluster.users[0], "/startgame")
    assert len(failures) == 2
    assert owner.worker.counts["retried"] == 2
    assert (await stored_game(storage, game_id)).log_len == length + 1
    assert (await h.game()).state.phase is not Phase.LOBBY


async def test_redis_down_holds_updates_answers_presses_and_moves_the_games_safely(
        pg_url: str, redis_url: str, prefix: str) -> None:
    """One worker loses Redis (issue 19): its webhook answers 200 and holds the updates in
    memory, a press answered in the response itself (answerCallbackQuery, within Telegram's
    window); it stops serving its shards when their leases run out, the other worker takes them
    over and the game goes on there; when Redis is back the held updates are queued, in order,
    and the worker serves again."""
    from urllib.parse import urlparse

    from aiohttp import web
    from aiohttp.test_utils import TestClient, TestServer

    from tests.cluster.tcp_proxy import TcpProxy

    target = urlparse(redis_url)
    proxy = TcpProxy(target.hostname or "127.0.0.1", target.port or 6379)
    port = await proxy.start()
    c = Cluster(pg_url, redis_url, prefix, workers=1, shards=8)
    await c.start()
    cut_off = await c.add_node("cut", redis_url=f"redis://127.0.0.1:{port}{target.path or '/0'}")
    try:
        await c.wait_served()
        h = ClusterHarness(c)
        game_id = await join_all(h)
        await h.command(c.users[0], "/startgame")
        owner = c.owner_of(GROUP)
        web_app = web.Application()
        web_app.router.add_post("/webhook", cut_off.inbox.handle)
        client = TestClient(TestServer(web_app))
        await client.start_server()
        try:
            proxy.cut()
            update = c.updates.group_command(GROUP, c.users[1], "/help")
            response = await client.post("/webhook", json=update.model_dump(
                mode="json", exclude_none=True, by_alias=True))
            assert response.status == 200 and list(cut_off.inbox.held) == [update.model_dump(
                mode="json", exclude_none=True, by_alias=True)]
            press = c.updates.callback(c.users[2], (GROUP, 1), "x:stale")
            started = asyncio.get_running_loop().time()
            response = await client.post("/webhook", json=press.model_dump(
                mode="json", exclude_none=True, by_alias=True))
            assert response.status == 200 and press.callback_query is not None
            assert await response.json() == {"method": "answerCallbackQuery",
                                             "callback_query_id": press.callback_query.id}
            assert asyncio.get_running_loop().time() - started < 5  # Telegram's window: ~10 s
            # the cut-off worker gives its shards up; the other serves every shard
            await c.wait_until(lambda: not cut_off.worker.leases.held, timeout=10)
            cut_off.alive = False
            await c.wait_served(timeout=15)
            assert game_id not in cut_off.app.service.games or owner is not cut_off
            survivor = c.owner_of(GROUP)
            assert survivor is not cut_off and game_id in survivor.app.service.games
            await play_to_end(h, seed=6)
            assert (await stored_game(survivor.app.storage, game_id)).status == "finished"
            proxy.restore()
            cut_off.alive = True
            await c.wait_until(lambda: not cut_off.inbox.held, timeout=15)  # queued, in order
            assert cut_off.inbox.counts["queued"] >= 2
            await c.wait_until(lambda: cut_off.worker.serving, timeout=15)
        finally:
            await client.close()
    finally:
        await c.stop()
        await proxy.stop()


async def test_postgresql_cut_off_a_press_waits_and_is_applied_once(
        pg_url: str, redis_url: str, prefix: str) -> None:
    """The owner loses PostgreSQL (a TCP proxy cut): a press in that time is not lost and not
    doubled — its update stays unacknowledged, is tried again, and is applied once when the
    database is back."""
    from sqlalchemy.engine import make_url

    from tests.cluster.tcp_proxy import TcpProxy

    url = make_url(pg_url)
    proxy = TcpProxy(url.host or "127.0.0.1", url.port or 5432)
    port = await proxy.start()
    c = Cluster(pg_url, redis_url, prefix, workers=0, shards=4)
    await c.start()
    node = await c.add_node("cut", db_url=url.set(port=port).render_as_string(hide_password=False))
    try:
        await c.wait_served()
        h = ClusterHarness(c)
        game_id = await join_all(h)
        await h.command(c.users[0], "/startgame")
        rng = random.Random(7)
        for _ in range(200):
            st = (await h.game()).state
            if st.phase is Phase.SPEECH:
                break
            await step(h, rng)
        assert st.phase is Phase.SPEECH
        length = (await stored_game(node.app.storage, game_id)).log_len
        mid, data = next((mid, b["callback_data"]) for mid, b in h.buttons(GROUP)
                         if (b.get("callback_data") or "").startswith("a:")
                         and Act.unpack(b["callback_data"]).a == "end")
        speaker = next(u for u in c.users if u.id == st.speaker)
        proxy.cut()
        # as Telegram does: a press is answered once; a second answer is "query is too old",
        # raised from the answer aiogram sends in a ``finally`` -- over the database's error
        from tests.fakes.telegram import QUERY_TOO_OLD
        c.session.fail("answerCallbackQuery", description=QUERY_TOO_OLD, times=None)
        press = c.updates.callback(speaker, (GROUP, mid), data)
        await c.send(press, via=node)
        await asyncio.sleep(4.0)  # tried and failed a few times (0.5 s, 1 s, 2 s...)
        assert node.worker.counts["retried"] >= 2
        c.session.clear_failures()
        proxy.restore()
        await c.settle(timeout=40)
        after = (await stored_game(node.app.storage, game_id)).log_len
        assert after == length + 1
        assert await node.app.storage.update_applied(game_id, press.update_id)
        st2 = (await h.game()).state
        assert st2.phase_seq > st.phase_seq  # the speech ended by the press
        # the press's update is in the log once at most
        from sqlalchemy import text
        async with node.app.storage.engine.connect() as conn:
            rows = (await conn.execute(text(
                "select count(*) from game_log where game_id = :g and update_id is not null "
                "group by update_id having count(*) > 1"), {"g": game_id})).all()
        assert rows == []
    finally:
        await c.stop()
        await proxy.stop()
