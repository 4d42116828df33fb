"""The event streams' limits (issue 20, docs/miniapp.md "Limits"): a cap per user and per game,
each distinct view computed once per stored command however many streams show it, the viewer's
right re-checked while his stream lives (a member who left the group is refused at once), and
the streams of a finished game end."""

from __future__ import annotations

import asyncio

from tests.bot.driver import press_action
from tests.bot.harness import GROUP
from tests.bot.helpers import start_game, to_day, to_voting
from tests.fakes.updates import FakeUser

from .support import auth, served
from .test_live import next_table, ticket_of

WATCHERS = [FakeUser(900_000_001_000 + i, f"Watcher{i}") for i in range(6)]


async def open_stream(client, h, user, game_id):
    ticket = await ticket_of(client, h, user, game_id)
    return await client.get("/webapp/api/stream", params={"g": str(game_id), "ticket": ticket})


async def ended(resp) -> bool:
    """Whether the stream ends (EOF) within a few seconds, its remaining events read."""
    try:
        while await asyncio.wait_for(resp.content.readline(), 5):
            pass
    except TimeoutError:
        return False
    return True


async def test_a_user_holds_three_streams_of_a_game_a_fourth_ends_his_oldest(sqlite_url):
    async with served(sqlite_url) as (h, client):
        game_id = await start_game(h)
        streams = []
        for _ in range(4):
            resp = await open_stream(client, h, WATCHERS[0], game_id)
            assert resp.status == 200
            await next_table(resp)
            streams.append(resp)
        assert await ended(streams[0])  # the oldest ended
        assert h.app.webapp.streams.count(game_id) == 3
        for resp in streams:
            resp.close()


async def test_a_game_full_of_streams_refuses_one_more_with_429(sqlite_url):
    async with served(sqlite_url) as (h, client):
        game_id = await start_game(h)
        h.app.webapp.streams.per_game = 2
        opened = [await open_stream(client, h, w, game_id) for w in WATCHERS[:2]]
        for resp in opened:
            await next_table(resp)
        refused = await open_stream(client, h, WATCHERS[2], game_id)
        assert refused.status == 429
        assert (await refused.json())["text"] == \
            "Too many open pages of this game; close one and try again."
        opened[0].close()
        for _ in range(100):  # the closed one is noticed at its next write
            await press_action(h, h.users[0], h.users[0].id, "ready")
            if h.app.webapp.streams.count(game_id) < 2:
                break
            await asyncio.sleep(0.02)
        again = await open_stream(client, h, WATCHERS[2], game_id)
        assert again.status == 200
        again.close()
        opened[1].close()


async def test_one_view_is_computed_once_per_command_for_all_its_streams(sqlite_url):
    async with served(sqlite_url) as (h, client):
        game_id = await start_game(h)
        await to_day(h)
        st = await to_voting(h)
        webapp = h.app.webapp
        calls: list[str] = []
        table = webapp.table

        async def counted(g, viewer):
            calls.append(viewer.kind)
            return await table(g, viewer)

        webapp.table = counted
        watchers = [await open_stream(client, h, w, game_id) for w in WATCHERS]
        for resp in watchers:
            await next_table(resp)
        calls.clear()
        voter = next(p for p in st.alive() if p.user_id != st.vote.current)
        assert await press_action(h, h.user(voter.user_id), GROUP, "vote") == "🗳"
        tables = [await next_table(resp) for resp in watchers]
        assert all(t["table"] == tables[0]["table"] for t in tables)
        assert calls == ["onlooker"]  # six streams, one computation
        for resp in watchers:
            resp.close()


async def test_a_member_who_leaves_the_group_loses_the_table_and_his_stream(sqlite_url):
    async with served(sqlite_url) as (h, client):
        game_id = await start_game(h)
        watcher = WATCHERS[0]
        h.session.register_user(watcher)
        resp = await open_stream(client, h, watcher, game_id)
        await next_table(resp)
        h.session.set_member(GROUP, watcher.id, "left")
        await h.feed(h.updates.left_chat_member(GROUP, watcher))
        assert await ended(resp)  # at once, not after the membership cache's minutes
        table = await client.get("/webapp/api/table", params={"g": str(game_id)},
                                 headers=auth(h, watcher))
        assert table.status == 403
        # back in the group: let in at once
        h.session.set_member(GROUP, watcher.id, "member")
        await h.feed(h.updates.new_chat_members(GROUP, [watcher]))
        table = await client.get("/webapp/api/table", params={"g": str(game_id)},
                                 headers=auth(h, watcher))
        assert table.status == 200


async def test_a_finished_games_streams_end_after_its_last_table(sqlite_url):
    async with served(sqlite_url) as (h, client):
        game_id = await start_game(h)
        resp = await open_stream(client, h, WATCHERS[0], game_id)
        await next_table(resp)
        await h.command(h.users[0], "/stop")
        assert (await h.service.live(game_id)).state.over
        lines = []
        while line := await asyncio.wait_for(resp.content.readline(), 10):
            lines.append(line.decode().rstrip("\n"))
        assert "event: end" in lines  # the page does not reconnect
        assert h.app.webapp.streams.count(game_id) == 0
        again = await open_stream(client, h, WATCHERS[0], game_id)
        assert await ended(again)  # a stream of a finished game: its table, then the end
