"""The Mini App's live stream (server-sent events, bot/webapp/server.py): the viewer's table at
once, then again after every stored command -- fed by GameService.listeners, no polling."""

from __future__ import annotations

import asyncio
import json

from tests.bot.driver import press_action
from tests.bot.harness import GROUP
from tests.bot.helpers import start_game, to_day, to_voting

from .support import served, sign_init_data


async def next_table(resp) -> dict:
    """The next ``table`` event of an open stream (keep-alive comments skipped)."""
    event, data = None, None
    while True:
        line = (await asyncio.wait_for(resp.content.readline(), 10)).decode().rstrip("\n")
        if line.startswith("event: "):
            event = line[7:]
        elif line.startswith("data: "):
            data = line[6:]
        elif line == "" and event == "table" and data is not None:
            return json.loads(data)


def stream(client, h, user, game_id):
    return client.get("/webapp/api/stream", params={
        "g": str(game_id), "auth": sign_init_data(user, h.clock())})


async def test_the_stream_needs_initData(sqlite_url):
    async with served(sqlite_url) as (h, client):
        game_id = await start_game(h)
        resp = await client.get("/webapp/api/stream", params={"g": str(game_id)})
        assert resp.status == 401
        resp = await client.get("/webapp/api/stream", params={
            "g": str(game_id), "auth": sign_init_data(h.users[0], h.clock(), tamper=True)})
        assert resp.status == 401


async def test_a_vote_reaches_every_open_stream_as_it_is_cast(sqlite_url):
    async with served(sqlite_url) as (h, client):
        game_id = await start_game(h)
        await to_day(h)
        st = await to_voting(h)
        watcher, voter = h.users[0], next(p for p in st.alive() if p.user_id != st.vote.current)
        async with stream(client, h, watcher, game_id) as resp:
            assert resp.status == 200
            assert resp.headers["Content-Type"].startswith("text/event-stream")
            first = await next_table(resp)
            cand = str(st.players[st.vote.current].seat)
            assert first["table"]["vote"]["votes"][cand] == []
            assert first["deadline"] == (await h.game()).deadline.timestamp()
            assert await press_action(h, h.user(voter.user_id), GROUP, "vote") == "🗳"
            table = await next_table(resp)
            assert table["seq"] == first["seq"] + 1
            assert table["table"]["vote"]["votes"][cand] == [voter.seat]


async def test_the_stream_follows_phases_and_the_pause(sqlite_url):
    async with served(sqlite_url) as (h, client):
        game_id = await start_game(h)
        st = await to_day(h)
        async with stream(client, h, h.users[0], game_id) as resp:
            first = await next_table(resp)
            assert first["table"]["phase"] == "speech"
            assert first["table"]["speaker"] == st.players[st.speaker].seat
            await h.command(h.users[1], "/pause")
            paused = await next_table(resp)
            assert paused["table"]["paused"] and paused["deadline"] is None
            await h.command(h.users[1], "/resume")
            resumed = await next_table(resp)
            assert resumed["table"]["paused"] is None and resumed["deadline"] is not None


async def test_a_stream_ends_cleanly_when_the_client_leaves(sqlite_url):
    async with served(sqlite_url) as (h, client):
        game_id = await start_game(h)
        async with stream(client, h, h.users[0], game_id) as resp:
            await next_table(resp)
            assert h.app.webapp._streams[game_id]
        await press_action(h, h.users[0], h.users[0].id, "ready")  # wakes the closed stream
        for _ in range(50):
            if not h.app.webapp._streams.get(game_id):
                break
            await asyncio.sleep(0.02)
        assert not h.app.webapp._streams.get(game_id)
