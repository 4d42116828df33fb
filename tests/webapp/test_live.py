"""The Mini App's live stream (server-sent events, bot/webapp/server.py): the viewer's table at
once, then again after every stored command -- fed by GameService.listeners, no polling."""

from __future__ import annotations

import asyncio
import json

from tests.bot.driver import press_action
from tests.bot.harness import GROUP
from tests.bot.helpers import start_game, to_day, to_voting

from .support import auth, served, sign_init_data


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


async def ticket_of(client, h, user, game_id) -> str:
    """The stream ticket the table answer carries (the table request is signed by initData)."""
    resp = await client.get("/webapp/api/table", params={"g": str(game_id)},
                            headers=auth(h, user))
    return (await resp.json())["ticket"]


class stream:
    """``async with stream(client, h, user, game_id) as resp``: an open event stream."""

    def __init__(self, client, h, user, game_id) -> None:
        self.args = client, h, user, game_id

    async def __aenter__(self):
        client, h, user, game_id = self.args
        ticket = await ticket_of(client, h, user, game_id)
        self.resp = await client.get("/webapp/api/stream",
                                     params={"g": str(game_id), "ticket": ticket})
        return self.resp

    async def __aexit__(self, *exc):
        self.resp.close()


async def test_the_stream_needs_a_ticket_of_that_game_and_not_expired(sqlite_url):
    async with served(sqlite_url) as (h, client):
        game_id = await start_game(h)
        u = h.users[0]

        async def status(**params) -> int:
            resp = await client.get("/webapp/api/stream", params={"g": str(game_id), **params})
            status = resp.status
            resp.close()
            return status

        assert await status() == 401
        assert await status(auth=sign_init_data(u, h.clock())) == 401  # initData is no ticket
        ticket = await ticket_of(client, h, u, game_id)
        user, game, expiry, sig = ticket.split(".")
        assert await status(ticket=f"{int(user) + 1}.{game}.{expiry}.{sig}") == 401  # forged
        assert await status(ticket=f"{user}.{game}.{int(expiry) + 60}.{sig}") == 401
        other = await client.get("/webapp/api/stream", params={"g": "999", "ticket": ticket})
        assert other.status == 401  # another game's
        h.clock.advance(6 * 60)
        assert await status(ticket=ticket) == 401  # expired
        assert await status(ticket=await ticket_of(client, h, u, game_id)) == 200


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
            assert "seq" not in table  # no command count: it would time hidden actions
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
            assert h.app.webapp.streams.count(game_id)
        await press_action(h, h.users[0], h.users[0].id, "ready")  # wakes the closed stream
        for _ in range(50):
            if not h.app.webapp.streams.count(game_id):
                break
            await asyncio.sleep(0.02)
        assert not h.app.webapp.streams.count(game_id)


async def test_shutting_the_server_down_ends_the_open_streams(sqlite_url):
    async with served(sqlite_url) as (h, client):
        game_id = await start_game(h)
        async with stream(client, h, h.users[0], game_id) as resp:
            await next_table(resp)
            h.app.webapp.close_streams()  # what the web server's on_shutdown does
            assert await asyncio.wait_for(resp.content.read(), 10) == b""  # the end
        assert not h.app.webapp.streams.count(game_id)


async def test_a_hidden_night_pick_reaches_only_those_who_see_it(sqlite_url):
    """No timing side channel: a stream gets a table only when the viewer's own table changed.
    The mafia's pick at night changes a mafioso's table (the picks), not a civilian's nor an
    onlooker's: their streams' next event is the pause that follows, not the pick."""
    from engine import Phase, Role, Team
    from tests.bot.helpers import drive_until

    async with served(sqlite_url) as (h, client):
        game_id = await start_game(h)
        st = await drive_until(h, lambda s: s.phase is Phase.NIGHT and s.night >= 2)
        alive = st.alive_active()
        mafia = [p for p in alive if p.team is Team.MAFIA]
        civilian = next(p for p in alive if p.role is Role.CIVILIAN)
        picker, mate = mafia[0], (mafia[1] if len(mafia) > 1 else mafia[0])
        target = next(p for p in alive if p.team is not Team.MAFIA)
        onlooker = h.users[0] if all(p.user_id != h.users[0].id for p in alive) else None
        async with stream(client, h, h.user(civilian.user_id), game_id) as civ, \
                stream(client, h, h.user(mate.user_id), game_id) as maf:
            watch = stream(client, h, onlooker, game_id) if onlooker else None
            look = await watch.__aenter__() if watch else None
            before = await next_table(civ)
            mate_before = await next_table(maf)
            if look is not None:
                await next_table(look)
            assert before["table"] is not None and "seq" not in before
            answer = await press_action(h, h.user(picker.user_id), picker.user_id, "kill",
                                        seat=target.seat)
            assert answer == "🕶", answer
            assert (await h.game()).state.phase is Phase.NIGHT  # the night goes on
            after = await next_table(maf)  # the mafioso sees the pick
            assert after["table"] != mate_before["table"]
            await h.command(h.users[1], "/pause")
            nxt = await next_table(civ)  # the pick brought him nothing: the next is the pause
            assert nxt["table"]["paused"] and nxt["deadline"] is None
            assert {k: v for k, v in nxt["table"].items() if k != "paused"} \
                == {k: v for k, v in before["table"].items() if k != "paused"}
            if look is not None:
                assert (await next_table(look))["table"]["paused"]
                await watch.__aexit__(None, None, None)
