"""NOIR's page (bot/games/noir/webapp.py, docs/miniapp.md): the board drawn from the public
board, each viewer's identity filtered on the server (NOIR-05), the player's taps as his DM
menu's buttons through the same codec (stale and forged taps refused, NOIR-Q22), and the
stream bringing a board change."""

from __future__ import annotations

import json

import pytest

from bot.games.noir import choices
from bot.games.noir.drafting import stamp
from bot.games.noir.names import SUSPECTS
from engine.noir import Role, legal_actions
from tests.bot import noir_driver as nd
from tests.bot.harness import GROUP, make_harness
from tests.fakes.updates import FakeUser

from .support import WEBAPP_URL, auth, served
from .test_live import next_table, stream

WATCHER = FakeUser(900_000_000_778, "Watcher")


async def table_of(client, h, user, game_id) -> dict:
    resp = await client.get("/webapp/api/table", params={"g": str(game_id)},
                            headers=auth(h, user))
    assert resp.status == 200, await resp.text()
    return await resp.json()


async def post(client, h, user, game_id, **body) -> dict:
    resp = await client.post("/webapp/api/act", json={"g": game_id, **body},
                             headers=auth(h, user))
    assert resp.status == 200, await resp.text()
    return await resp.json()


async def noir_game(h, n: int = 6) -> int:
    gid = await nd.open_lobby(h, n)
    await nd.press_start(h)
    return gid


def named_suspects(data: dict) -> set[int]:
    """Every suspect the table ties to a player (his card, his teammates', the identities)."""
    t = data["table"]
    out = set()
    me = t.get("me")
    if me:
        out |= {w["suspect"]["s"] for w in [me, *me["mates"]] if w["suspect"]}
    out |= {w["suspect"]["s"] for w in t.get("identities") or () if w["suspect"]}
    out |= {c["s"] for row in t["grid"] for c in row if c.get("own") or c.get("mate")}
    return out


async def test_the_board_is_drawn_from_the_public_board(sqlite_url):
    async with served(sqlite_url) as (h, client):
        gid = await noir_game(h)
        st = (await h.service.live(gid)).state
        data = await table_of(client, h, WATCHER, gid)
        t = data["table"]
        assert data["ruleset"] == "noir" and t["kind"] == "noir"
        assert [[c["s"] for c in row] for row in t["grid"]] == st.grid
        assert t["grid"][0][0]["cell"] == "A1" and t["columns"][:3] == ["A", "B", "C"]
        assert t["grid"][0][0]["name"] == SUSPECTS[st.grid[0][0]]
        assert t["score"].startswith("Arrests 0/")
        assert [o["name"] for o in t["order"]] == [st.players[u].name for u in st.order]
        assert t["order"][0]["role"]["id"] == "killer" and t["order"][0]["current"]
        assert t["turn"] == f"\u2068{st.players[st.current].name}\u2069's turn."  # bidi-isolated
        assert data["deadline"] is not None and data["seconds"] == st.timer.seconds
        assert data["buttons"] == [] and "me" not in t and "identities" not in t
        assert named_suspects(data) == set()


async def test_each_player_sees_his_identity_and_his_teammates_only(sqlite_url):
    async with served(sqlite_url) as (h, client):
        gid = await noir_game(h)
        st = (await h.service.live(gid)).state
        for uid, p in st.players.items():
            data = await table_of(client, h, h.user(uid), gid)
            me = data["table"]["me"]
            assert me["role"]["id"] == p.role.value and me["suspect"]["s"] == p.identity
            mates = {m.identity for m in st.players.values() if m.team == p.team and m is not p}
            assert {m["suspect"]["s"] for m in me["mates"]} == mates
            assert named_suspects(data) == mates | {p.identity}
            hidden = {o.identity for o in st.players.values() if o.team != p.team}
            assert not hidden & named_suspects(data)
            for o in st.players.values():  # no opponent's name next to any suspect of his
                if o.team != p.team:
                    assert o.name not in json.dumps(me)
            assert "identities" not in data["table"]
            if p.role is Role.PROFILER:
                assert [c["s"] for c in me["hand"]] == st.hand


async def test_a_kill_tapped_on_the_board_lands_in_the_game(sqlite_url):
    async with served(sqlite_url) as (h, client):
        gid = await noir_game(h)
        g = await h.service.live(gid)
        st = g.state
        killer = h.user(st.current)
        assert st.players[killer.id].role is Role.KILLER
        s0 = stamp(st)
        data = await table_of(client, h, killer, gid)
        assert "prompt" in data["table"] and "Your turn" in data["table"]["prompt"]
        opens = {b["t"]: b for b in data["buttons"] if b["a"] == "o"}
        assert all(b["s"] == s0 for b in data["buttons"])
        kill = opens[choices.VIEWS.index("kill")]
        answer = await post(client, h, killer, gid, a="o", t=kill["t"], s=kill["s"])
        assert answer["ok"]
        data = await table_of(client, h, killer, gid)  # the draft: the cells to pick
        cells = [b for b in data["buttons"] if b["kind"] == "cell"]
        legal = set(legal_actions(st, killer.id).kill)
        assert {b["t"] for b in cells} == legal and all(b["a"] == "c" for b in cells)
        assert any(b["a"] == "b" for b in data["buttons"])  # «Back»
        target = sorted(legal)[0]
        before = await h.log_len(gid)
        forged = next(s for row in st.grid for s in row if s not in legal)
        assert (await post(client, h, killer, gid, a="c", t=forged, s=s0))["text"] \
            == "You can't choose that now."
        assert (await post(client, h, h.user(st.order[1]), gid, a="c", t=target, s=s0))["text"] \
            == "This button is out of date."  # not his turn
        assert await h.log_len(gid) == before
        assert await post(client, h, killer, gid, a="c", t=target, s=s0) == \
            {"ok": True, "text": "✅"}
        assert await h.log_len(gid) == before + 1
        st = (await h.service.live(gid)).state
        assert target in st.dead or target in st.arrested or st.window is not None \
            or target not in {s for row in st.grid for s in row}
        again = await post(client, h, killer, gid, a="c", t=target, s=s0)
        assert again == {"ok": False, "text": "This button is out of date."}  # stale
        assert await h.log_len(gid) == before + 1
        t = (await table_of(client, h, WATCHER, gid))["table"]
        assert t["last"] is not None and "kill" in t["last"]


async def test_the_stream_brings_the_board_change(sqlite_url):
    async with served(sqlite_url) as (h, client):
        gid = await noir_game(h)
        st = (await h.service.live(gid)).state
        killer = h.user(st.current)
        async with stream(client, h, WATCHER, gid) as resp:
            first = await next_table(resp)
            assert first["table"]["kind"] == "noir" and first["table"]["last"] is None
            s0 = stamp(st)
            await post(client, h, killer, gid, a="o", t=choices.VIEWS.index("kill"), s=s0)
            target = sorted(legal_actions(st, killer.id).kill)[0]
            await post(client, h, killer, gid, a="c", t=target, s=s0)
            nxt = await next_table(resp)
            assert nxt["table"]["last"] is not None
            cell = next(c for row in nxt["table"]["grid"] for c in row if c["s"] == target)
            assert cell.get("last")


async def test_after_the_end_everybody_sees_every_identity(sqlite_url):
    h = await make_harness(sqlite_url, n_users=7, webapp_url=WEBAPP_URL)
    from aiohttp.test_utils import TestClient, TestServer

    from .support import web_app_of
    client = TestClient(TestServer(web_app_of(h)))
    await client.start_server()
    try:
        gid = await noir_game(h)
        await nd.play(h, seed=11)
        g = await h.service.live(gid)
        st = g.state
        assert st.phase == "ended"
        for user in (WATCHER, h.user(st.order[0])):
            t = (await table_of(client, h, user, gid))["table"]
            assert {w["name"]: w["suspect"]["s"] if w["suspect"] else None
                    for w in t["identities"]} == {p.name: p.identity
                                                  for p in st.players.values()}
            assert t["winner"] and "me" not in t and "prompt" not in t
        assert GROUP
    finally:
        await client.close()
        await h.stop()


@pytest.mark.parametrize("players,seed", [(6, 7), (8, 3)])
async def test_NOIR_a_whole_game_played_from_the_page_every_offered_tap_accepted(
        sqlite_url, players, seed):
    """Every turn played by tapping the page's buttons and cells only (a seeded choice among
    what the page offers, «Back» now and then): every offered tap is accepted, the game ends."""
    import random

    rng = random.Random(seed)
    async with served(sqlite_url, n_users=players) as (h, client):
        gid = await noir_game(h, players)
        answered: set = set()
        used: set[str] = set()
        for _ in range(4000):
            g = await h.service.live(gid)
            st = g.state
            if st.over:
                break
            if st.paused is not None:
                await h.fire()
                continue
            actors = [u for u in st.order if legal_actions(st, u).any
                      and (stamp(st), u) not in answered]
            if not actors:
                await h.fire()
                continue
            uid = actors[0]
            if legal_actions(st, uid).step == "cancel":
                answered.add((stamp(st), uid))
            data = await table_of(client, h, h.user(uid), gid)
            buttons = data["buttons"]
            assert buttons, (st.step, legal_actions(st, uid))
            forward = [b for b in buttons if b["a"] != "b"]
            b = rng.choice(forward if forward and rng.random() < 0.9 else buttons)
            used.add(b["a"])
            answer = await post(client, h, h.user(uid), gid, a=b["a"], t=b["t"], s=b["s"])
            assert answer["ok"], (b, answer)
        st = (await h.service.live(gid)).state
        assert st.phase == "ended", st.phase
        assert {"o", "c", "b"} <= used, used
        rec = await h.service.storage.get_game(gid)
        assert rec.status == "finished"


async def test_a_tap_drawn_for_another_draft_is_out_of_date(sqlite_url):
    """The page shows the Killer's kill picker; meanwhile his DM menu went «Back» (the same
    step stamp, another draft): the page's tap of a cell is out of date, not read against the
    DM's draft; once the page is drawn again its taps count."""
    async with served(sqlite_url) as (h, client):
        gid = await noir_game(h)
        st = (await h.service.live(gid)).state
        killer = h.user(st.current)
        s0 = stamp(st)
        await post(client, h, killer, gid, a="o", t=choices.VIEWS.index("kill"), s=s0)
        page = await table_of(client, h, killer, gid)
        cell = next(b for b in page["buttons"] if b["kind"] == "cell")
        assert cell["d"]
        back = next(x for x in nd.menu_buttons(h, killer.id, s0) if x[2].a == "b")
        await h.press(killer, killer.id, back[0], back[1])
        before = await h.log_len(gid)
        stale = await post(client, h, killer, gid, a="c", t=cell["t"], s=s0, d=cell["d"])
        assert stale == {"ok": False, "text": "This button is out of date."}
        assert await h.log_len(gid) == before
        page = await table_of(client, h, killer, gid)
        assert "Choose your action" in page["table"]["prompt"]
        assert not [b for b in page["buttons"] if b["kind"] == "cell"]
        kill = next(b for b in page["buttons"] if b["a"] == "o"
                    and b["t"] == choices.VIEWS.index("kill"))
        assert (await post(client, h, killer, gid, **{k: kill[k] for k in "atsd"}))["ok"]
        page = await table_of(client, h, killer, gid)
        fresh = next(b for b in page["buttons"] if b["kind"] == "cell")
        assert fresh["d"] == cell["d"]  # the same draft again: the same tag
        assert await post(client, h, killer, gid, **{k: fresh[k] for k in "atsd"}) == \
            {"ok": True, "text": "✅"}
        assert await h.log_len(gid) == before + 1


async def test_the_identity_card_and_the_board_open_the_page(sqlite_url):
    async with served(sqlite_url) as (h, client):
        gid = await noir_game(h)
        st = (await h.service.live(gid)).state
        for uid in st.order:
            urls = [b["web_app"]["url"] for _m, b in h.buttons(uid) if "web_app" in b]
            assert urls == [f"{WEBAPP_URL}/webapp/?g={gid}"], uid
        links = [b["url"] for _m, b in h.buttons(GROUP) if "startapp" in (b.get("url") or "")]
        assert links and all(link.endswith(f"?startapp=g{gid}") for link in links)
        assert not any("web_app" in b for _m, b in h.buttons(GROUP))
