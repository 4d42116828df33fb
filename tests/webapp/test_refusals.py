"""The Mini App's refusals (docs/miniapp.md): JSON with the words in the user's language
(initData's ``language_code``; the stream's ``lang``), and the buttons' own answers for a stale
«Start» and an unknown code."""

from __future__ import annotations

from tests.bot.helpers import start_game

from .support import auth, served, sign_init_data


def ru(h, msgid: str) -> str:
    text = h.app.webapp.tr.get("ru")(msgid)
    assert text != msgid  # translated: the check below can fail
    return text


async def test_an_unparseable_game_is_refused_in_the_users_language(sqlite_url):
    async with served(sqlite_url) as (h, client):
        resp = await client.get("/webapp/api/table", params={"g": "abc"},
                                headers=auth(h, h.users[0], lang="ru"))
        assert resp.status == 404
        assert (await resp.json())["text"] == ru(h, "You are not in a running game.")
        forged = {"Authorization": "tma " + sign_init_data(h.users[0], h.clock(), lang="ru",
                                                           tamper=True)}
        resp = await client.get("/webapp/api/table", headers=forged)
        assert resp.status == 401  # a forgery's language is not trusted: the default one
        assert (await resp.json())["text"] == "Open this page from the bot's button."


async def test_the_streams_401_is_in_the_pages_language(sqlite_url):
    async with served(sqlite_url) as (h, client):
        game_id = await start_game(h)
        resp = await client.get("/webapp/api/stream",
                                params={"g": str(game_id), "ticket": "x", "lang": "ru"})
        assert resp.status == 401
        assert (await resp.json())["text"] == ru(h, "Open this page from the bot's button.")


async def test_a_body_over_the_limit_is_refused_as_json(sqlite_url):
    async with served(sqlite_url) as (h, client):
        game_id = await start_game(h)
        big = b'{"g": %d, "a": "%s"}' % (game_id, b"x" * (2 * 1024 * 1024))
        resp = await client.post("/webapp/api/act", data=big,
                                 headers={**auth(h, h.users[0], lang="ru"),
                                          "Content-Type": "application/json"})
        assert resp.status == 413
        assert await resp.json() == {"error": "too large",
                                     "text": ru(h, "This request is too large.")}


async def test_start_after_the_start_is_answered_as_the_lobby_does(sqlite_url):
    async with served(sqlite_url) as (h, client):
        game_id = await start_game(h)
        before = await h.log_len(game_id)
        resp = await client.post("/webapp/api/act", json={"g": game_id, "a": "start"},
                                 headers=auth(h, h.users[0]))
        assert await resp.json() == {"ok": False,
                                     "text": "This game has already started or ended."}
        assert await h.log_len(game_id) == before
