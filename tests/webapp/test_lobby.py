"""The lobby from the Mini App (docs/miniapp.md): «Join», «Leave» and «Start» on the page go the
deep link's and the lobby buttons' own way (``bot.handlers.lobby.join_lobby`` /
``lobby_press``): the same checks, the same engine commands, the same answers."""

from __future__ import annotations

from tests.bot.harness import GROUP
from tests.fakes.updates import FakeUser

from .support import auth, served

STRANGER = FakeUser(900_000_000_777, "Stranger")


async def table_of(client, h, user, game_id):
    return await client.get("/webapp/api/table", params={"g": str(game_id)},
                            headers=auth(h, user))


async def post(client, h, user, game_id, a) -> dict:
    resp = await client.post("/webapp/api/act", json={"g": game_id, "a": a, "t": 0, "s": 0},
                             headers=auth(h, user))
    assert resp.status == 200, await resp.text()
    return await resp.json()


async def test_join_leave_and_start_from_the_page(sqlite_url):
    async with served(sqlite_url) as (h, client):
        organiser, guest = h.users[0], h.users[1]
        await h.command(organiser, "/newgame")
        g = await h.game()
        data = await (await table_of(client, h, guest, g.id)).json()
        assert data["lobby"] == {"players": [], "joined": False, "host": None}
        assert [b["a"] for b in data["buttons"]] == ["join"]
        answer = await post(client, h, guest, g.id, "join")
        assert answer["ok"] and "You joined the game" in answer["text"]
        assert guest.id in (await h.game()).state.players
        data = await (await table_of(client, h, guest, g.id)).json()
        assert data["lobby"]["joined"] and data["lobby"]["players"] == ["Player2"]
        assert [b["a"] for b in data["buttons"]] == ["leave"]
        before = await h.log_len(g.id)
        assert not (await post(client, h, guest, g.id, "join"))["ok"]  # joined already
        assert await h.log_len(g.id) == before
        refused = await post(client, h, guest, g.id, "start")
        assert refused == {"ok": False, "text": "Only the organiser or a group admin can do that."}
        assert (await post(client, h, guest, g.id, "leave")) == {"ok": True,
                                                                 "text": "You left the game."}
        assert guest.id not in (await h.game()).state.players
        for u in h.users:
            assert (await post(client, h, u, g.id, "join"))["ok"]
        data = await (await table_of(client, h, organiser, g.id)).json()
        assert [b["a"] for b in data["buttons"]] == ["leave", "start"]
        assert (await post(client, h, organiser, g.id, "zzz"))["text"] \
            == "This button is out of date."
        assert (await post(client, h, organiser, g.id, "start"))["ok"]
        st = (await h.game()).state
        assert st.phase.value != "lobby" and len(st.seated()) == len(h.users)


async def test_a_stranger_cannot_join_from_the_page(sqlite_url):
    async with served(sqlite_url) as (h, client):
        await h.command(h.users[0], "/newgame")
        g = await h.game()
        h.session.set_member(GROUP, STRANGER.id, "left")
        resp = await client.post("/webapp/api/act", json={"g": g.id, "a": "join"},
                                 headers=auth(h, STRANGER))
        assert resp.status == 403
        assert STRANGER.id not in (await h.game()).state.players


async def test_a_noir_lobby_started_from_the_page(sqlite_url):
    async with served(sqlite_url) as (h, client):
        await h.command(h.users[0], "/newgame noir")
        g = await h.game()
        for u in h.users[:6]:
            assert (await post(client, h, u, g.id, "join"))["ok"]
        answer = await post(client, h, h.users[0], g.id, "start")
        assert answer["ok"], answer
        data = await (await table_of(client, h, h.users[0], g.id)).json()
        assert "lobby" not in data and data["table"]["kind"] == "noir"
        assert data["table"]["me"]["suspect"] is not None


BLOCKED = "Forbidden: bot can't initiate conversation with a user"


async def test_a_join_from_the_page_needs_the_bot_to_reach_the_user(sqlite_url):
    """A user who never started the bot (sendChatAction: 403) is not let in: his role card
    could not reach him. He is told to press Start in the bot's chat, with the lobby's link."""
    async with served(sqlite_url) as (h, client):
        await h.command(h.users[0], "/newgame")
        g = await h.game()
        guest = h.users[1]
        h.session.fail("sendChatAction", chat_id=guest.id, error_code=403, description=BLOCKED,
                       times=None)
        before = await h.log_len(g.id)
        answer = await post(client, h, guest, g.id, "join")
        link = f"https://t.me/{h.session.bot_username}?start=join_{g.id}"
        assert answer["ok"] is False and answer["url"] == link
        assert "press «Start»" in answer["text"] and link in answer["text"]
        assert guest.id not in (await h.game()).state.players
        assert await h.log_len(g.id) == before


async def test_allows_write_to_pm_lets_the_user_join_without_a_probe(sqlite_url):
    async with served(sqlite_url) as (h, client):
        await h.command(h.users[0], "/newgame")
        g = await h.game()
        guest = h.users[1]
        h.session.fail("sendChatAction", chat_id=guest.id, error_code=403, description=BLOCKED,
                       times=None)
        resp = await client.post("/webapp/api/act", json={"g": g.id, "a": "join"},
                                 headers=auth(h, guest, write=True))
        answer = await resp.json()
        assert answer["ok"] and "You joined the game" in answer["text"]
        assert guest.id in (await h.game()).state.players
        assert not h.session.calls.calls_to("sendChatAction")


async def test_a_user_who_started_the_bot_joins_from_the_page(sqlite_url):
    """No ``allows_write_to_pm`` in initData, but the bot can write to him (he pressed Start
    once): the probe succeeds, he joins."""
    async with served(sqlite_url) as (h, client):
        await h.command(h.users[0], "/newgame")
        g = await h.game()
        guest = h.users[1]
        answer = await post(client, h, guest, g.id, "join")
        assert answer["ok"], answer
        assert [c.chat_id for c in h.session.calls.calls_to("sendChatAction")] == [guest.id]
