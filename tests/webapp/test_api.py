"""The Mini App's API (bot/webapp/, docs/miniapp.md) through aiohttp's test client against the
whole bot: the initData signature, who sees what (filtered on the server, per audience), and
what is offered only when WEBAPP_URL is set."""

from __future__ import annotations

import json
from collections.abc import Set
from datetime import timedelta

from engine import Phase, Role, Team
from tests.bot.driver import press_action
from tests.bot.harness import GROUP, make_harness
from tests.bot.helpers import drive_until, start_game, to_day
from tests.fakes.updates import FakeUser

from .support import WEBAPP_URL, auth, served, sign_init_data

STRANGER = FakeUser(900_000_000_777, "Stranger")
WATCHER = FakeUser(900_000_000_778, "Watcher")


async def get_table(client, h, user, game_id=None, **kw):
    params = {"g": str(game_id)} if game_id is not None else {}
    return await client.get("/webapp/api/table", params=params, headers=auth(h, user, **kw))


def others_hidden(table: dict, me_seat: int | None, allowed: Set[int] = frozenset()) -> None:
    """No seat but ``me_seat`` and ``allowed`` carries a role or a team."""
    for p in table["players"]:
        if p["seat"] == me_seat or p["seat"] in allowed:
            continue
        assert "role" not in p and "team" not in p, p


# --- off unless configured -------------------------------------------------------------------
async def test_without_WEBAPP_URL_nothing_mentions_the_mini_app(sqlite_url):
    h = await make_harness(sqlite_url, n_users=7)
    try:
        assert h.app.webapp is None
        await start_game(h)
        for chat in [GROUP, *(u.id for u in h.users)]:
            for _mid, b in h.buttons(chat):
                assert "web_app" not in b and "startapp" not in (b.get("url") or ""), b
    finally:
        await h.stop()


async def test_with_WEBAPP_URL_the_role_card_and_the_table_open_it(sqlite_url):
    async with served(sqlite_url) as (h, _client):
        game_id = await start_game(h)
        for u in h.users:  # the role card: a web_app button (private chats allow them)
            urls = [b["web_app"]["url"] for _m, b in h.buttons(u.id) if "web_app" in b]
            assert urls == [f"{WEBAPP_URL}/webapp/?g={game_id}"]
        links = [b["url"] for _m, b in h.buttons(GROUP) if "startapp" in (b.get("url") or "")]
        assert links == [f"https://t.me/{h.app.presenter.bot_username}?startapp=g{game_id}"]
        for _m, b in h.buttons(GROUP):  # a group allows no web_app button
            assert "web_app" not in b
        await to_day(h)  # the intro gate closed: the role card keeps the Mini App's button
        for u in h.users:
            assert any("web_app" in b for _m, b in h.buttons(u.id))


async def test_the_page_is_served(sqlite_url):
    async with served(sqlite_url) as (_h, client):
        resp = await client.get("/webapp/")
        assert resp.status == 200
        html = await resp.text()
        assert "telegram-web-app.js" in html and "static/app.js?v=" in html
        assert "script-src 'self' https://telegram.org" in resp.headers["Content-Security-Policy"]
        assert (await client.get("/webapp/static/app.js")).status == 200
        assert (await client.get("/webapp?g=3", allow_redirects=False)).headers["Location"] \
            == "/webapp/?g=3"


# --- authentication --------------------------------------------------------------------------
async def test_initData_is_required_and_checked(sqlite_url):
    async with served(sqlite_url) as (h, client):
        game_id = await start_game(h)
        u = h.users[1]
        assert (await client.get("/webapp/api/table", params={"g": str(game_id)})).status == 401
        assert (await get_table(client, h, u, game_id, tamper=True)).status == 401  # forged
        assert (await get_table(client, h, u, game_id, token="1:other")).status == 401
        old = {"Authorization": "tma " + sign_init_data(u, h.clock() - timedelta(hours=25))}
        resp = await client.get("/webapp/api/table", params={"g": str(game_id)}, headers=old)
        assert resp.status == 401 and (await resp.json())["error"] == "expired"
        garbage = {"Authorization": "tma hash=1&user=%7B"}
        resp = await client.get("/webapp/api/table", params={"g": str(game_id)}, headers=garbage)
        assert resp.status == 401
        resp = await get_table(client, h, u, game_id)
        assert resp.status == 200
        assert (await client.post("/webapp/api/act", json={"g": game_id, "a": "ready"})).status \
            == 401


async def test_a_stranger_is_refused_and_a_missing_game_is_404(sqlite_url):
    async with served(sqlite_url) as (h, client):
        game_id = await start_game(h)
        h.session.set_member(GROUP, STRANGER.id, "left")
        resp = await get_table(client, h, STRANGER, game_id)
        assert resp.status == 403
        assert (await resp.json())["text"] == \
            "Only the game's players and the group's members see this table."
        assert (await get_table(client, h, h.users[0], 987654)).status == 404
        assert (await get_table(client, h, h.users[0], "x1")).status == 404
        assert (await get_table(client, h, STRANGER)).status == 404  # no game of his own


async def test_the_game_comes_from_the_link_or_is_the_users_own(sqlite_url):
    async with served(sqlite_url) as (h, client):
        game_id = await start_game(h)
        resp = await get_table(client, h, WATCHER, start_param=f"g{game_id}")  # the group link
        assert resp.status == 200 and (await resp.json())["game"] == game_id
        resp = await get_table(client, h, h.users[2])  # the menu button: his running game
        assert resp.status == 200 and (await resp.json())["game"] == game_id


# --- who sees what ---------------------------------------------------------------------------
async def test_each_player_sees_his_own_role_and_nobody_elses(sqlite_url):
    async with served(sqlite_url) as (h, client):
        game_id = await start_game(h)
        st = (await h.game()).state
        for p in st.seated():
            data = await (await get_table(client, h, h.user(p.user_id), game_id)).json()
            assert data["viewer"] == {"kind": "player", "judge": False}
            t = data["table"]
            assert t["me"]["seat"] == p.seat and t["me"]["role"]["id"] == p.role.value
            mine = next(x for x in t["players"] if x["me"])
            assert mine["seat"] == p.seat and mine["role"]["id"] == p.role.value
            others_hidden(t, p.seat)
            assert t["checks"] == [] and "picks" not in t
            assert [(b["a"], b["s"]) for b in data["buttons"]] == [
                ("ready", st.phase_seq), ("pause", 0)]
            assert data["buttons"][0]["label"] == "✅ I have read my role"


async def test_the_mafia_see_their_team_after_they_meet(sqlite_url):
    async with served(sqlite_url) as (h, client):
        game_id = await start_game(h)
        st = await drive_until(h, lambda s: s.phase is Phase.NIGHT and s.night == 2, seed=3)
        mafia = {p.seat for p in st.mafia_alive()}
        shooter = st.mafia_alive()[0]
        victim = next(p for p in st.alive() if p.team is not Team.MAFIA)
        assert await press_action(h, h.user(shooter.user_id), shooter.user_id, "kill",
                                  victim.seat) == "🕶"
        st = (await h.game()).state
        for p in st.alive():
            t = (await (await get_table(client, h, h.user(p.user_id), game_id)).json())["table"]
            if p.team is Team.MAFIA:
                others_hidden(t, p.seat, allowed=mafia)
                assert {x["seat"] for x in t["players"] if x.get("team", {}).get("id") == "mafia"} \
                    == mafia
                assert [shooter.seat, victim.seat] in t["picks"]  # the team's picks tonight
            else:
                others_hidden(t, p.seat)
                assert "picks" not in t


async def test_the_commissar_sees_his_checks_and_only_he(sqlite_url):
    async with served(sqlite_url) as (h, client):
        game_id = await start_game(h)
        st = await drive_until(h, lambda s: s.phase is Phase.NIGHT and s.night == 2, seed=3)
        cop = next((p for p in st.alive() if p.role is Role.COMMISSAR), None)
        assert cop is not None, "the seed keeps the Commissar alive to night 2"
        target = next(p for p in st.alive() if p.user_id != cop.user_id)
        assert await press_action(h, h.user(cop.user_id), cop.user_id, "check",
                                  target.seat) == "🔎"
        for p in (await h.game()).state.alive():
            t = (await (await get_table(client, h, h.user(p.user_id), game_id)).json())["table"]
            if p.user_id == cop.user_id:
                assert t["checks"] == [{"checker": cop.seat, "target": target.seat,
                                        "kind": "mafia", "result": target.team is Team.MAFIA,
                                        "night": 2}]
            else:
                assert t["checks"] == []


async def test_an_onlooker_and_an_eliminated_player_see_the_public_table(sqlite_url):
    async with served(sqlite_url) as (h, client):
        game_id = await start_game(h)
        data = await (await get_table(client, h, WATCHER, game_id)).json()
        assert data["viewer"]["kind"] == "onlooker" and data["buttons"] == []
        others_hidden(data["table"], None)
        assert "me" not in data["table"]
        st = await drive_until(h, lambda s: any(not p.alive for p in s.seated()), seed=4)
        out = next(p for p in st.seated() if not p.alive)
        data = await (await get_table(client, h, h.user(out.user_id), game_id)).json()
        assert data["viewer"]["kind"] == "onlooker"
        others_hidden(data["table"], None)
        row = next(r for r in data["table"]["players"] if r["seat"] == out.seat)
        assert row["left"] in ("killed", "voted")
        assert data["table"]["me"] == {"seat": out.seat, "alive": False,  # how he left only
                                       "left": row["left"]}
        assert "role" not in data["table"]["me"]


async def test_the_host_sees_every_role(sqlite_url):
    host = FakeUser(900_000_000_555, "Judge")
    async with served(sqlite_url) as (h, client):
        h.session.register_user(host)
        await h.command(h.users[0], "/newgame")
        g = await h.game()
        await h.dm(host, f"/start host_{g.id}")
        for u in h.users:
            await h.dm(u, f"/start join_{g.id}")
        await h.command(h.users[0], "/startgame")
        st = (await h.game()).state
        assert st.host == host.id
        data = await (await get_table(client, h, host, g.id)).json()
        assert data["viewer"] == {"kind": "host", "judge": True}
        roles = {p["seat"]: p["role"]["id"] for p in data["table"]["players"]}
        assert roles == {p.seat: p.role.value for p in st.seated()}
        assert any(b["a"] == "next" for b in data["buttons"])
        assert any("web_app" in b for _m, b in h.buttons(host.id))  # the host's console


async def test_after_the_end_everyone_sees_every_role(sqlite_url):
    async with served(sqlite_url) as (h, client):
        game_id = await start_game(h)
        from tests.bot.driver import play_to_end

        await play_to_end(h, seed=2)
        st = (await h.service.live(game_id)).state
        assert st.over
        data = await (await get_table(client, h, WATCHER, game_id)).json()
        t = data["table"]
        assert t["over"] and t["winner"] and data["buttons"] == []
        assert {p["seat"]: p["role"]["id"] for p in t["players"]} == \
            {p.seat: p.role.value for p in st.seated()}


async def test_the_page_texts_come_in_the_games_language(sqlite_url):
    async with served(sqlite_url, default_locale="ru") as (h, client):
        game_id = await start_game(h)
        data = await (await get_table(client, h, h.users[0], game_id)).json()
        assert data["locale"] == "ru" and data["texts"]["players"] == "Игроки"
        json.dumps(data)  # plain JSON
