"""A tournament's pages on the Mini App (issue 22 item 6; docs/miniapp.md "Tournaments"): the
schedule (rounds × tables × seats, the viewer's seat, a substitute, each game's state), the
standings (the same rows and figures as ``/tournament``'s text, TOUR-X07..X09), the viewer's own
games (seat, result, points; a substitute's and a replaced player's), the organiser's export
links; who may look (the groups' members; a stranger 403), bad ids 400/404, never 500; the
button on the group's tournament messages."""

from __future__ import annotations

import csv
import io
import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from aiogram.methods import SendPhoto

from bot.storage import PointsRow
from bot.webapp.auth import Unauthorized, check_ticket, make_ticket
from tests.bot.harness import GROUP, request_of
from tests.bot.test_tournament import TABLE2
from tests.fakes.session import TEST_TOKEN
from tests.fakes.telegram import plain_text

from .support import auth, served


async def drawn(h, players: int = 11, games: int = 2):
    """A drawn tournament of ``players`` registered users (users[0] its creator, an admin)."""
    admin = h.users[0]
    h.session.set_member(GROUP, admin.id, "administrator")
    await h.command(admin, f"/tournament new Spring Cup club {games} plain")
    t = await h.app.storage.tournament_for_chat(GROUP)
    for u in h.users[:players]:
        await h.dm(u, f"/start tour_{t.id}")
    await h.command(admin, "/tournament close")
    await h.command(admin, "/tournament draw")
    t = await h.app.storage.get_tournament(t.id)
    assert t is not None and t.schedule is not None
    return admin, t


async def published(h, t, round_no: int, seats: list[int], subs: dict[int, int] | None = None,
                    extra: dict[int, float] | None = None, sub_name: str | None = None) -> int:
    """A finished game of (round, table 1) with its published sheet: the first seven seats
    (town) win; ``subs`` {scheduled: substitute} (named ``sub_name``, else Sub<id>);
    ``extra`` additional points."""
    st, subs, extra = h.app.storage, subs or {}, extra or {}
    gid = await st.create_game(GROUP, "club", t.created_by, "en", {}, round_no)
    await st.set_tournament_game(t.id, round_no, 1, gid, subs)
    await st.update_tournament(t.id, expect_status="drawn", status="running")  # as /newgame
    await st.set_status(gid, "running")
    await st.set_status(gid, "finished", "town")
    await st.create_sheet(gid, GROUP, t.created_by, t.scoring, None)
    names = {p.user_id: p.name for p in await st.tournament_players(t.id)}
    rows = []
    for i, scheduled in enumerate(seats, start=1):
        u = subs.get(scheduled, scheduled)
        won = i <= 7
        rows.append(PointsRow(u, names.get(u, sub_name or f"Sub{u % 1000}"), i,
                              "civilian" if won else "mafia", "town" if won else "mafia", won,
                              float(won), 0.0, 0.0, extra.get(u, 0.0), float(won) + extra.get(u, 0.0)))
    await st.publish_sheet(gid, t.created_by, extra, rows, None)
    return gid


async def get(client, h, user, path: str = "/webapp/api/tournament", **params):
    headers = auth(h, user, **params.pop("_auth", {}))
    return await client.get(path, params=params, headers=headers)


async def test_TOUR_X07_the_pages_show_the_schedule_the_standings_and_my_games(sqlite_url):
    async with served(sqlite_url, n_users=13) as (h, client):
        admin, t = await drawn(h)
        first = t.schedule["rounds"][0][0]
        others = [u for u in first if u != admin.id]  # the organiser sees more (the export)
        best, absent, sub = others[0], others[2], h.users[11]
        seat, sub_seat = first.index(best) + 1, first.index(absent) + 1  # 1 or 2; 3 or 4
        gid = await published(h, t, 1, first, {absent: sub.id}, {best: 0.5})
        player = h.user(best)

        resp = await get(client, h, player, t=str(t.id))
        assert resp.status == 200 and resp.headers["Cache-Control"] == "no-store"
        data = await resp.json()
        assert data["tournament"]["name"] == "Spring Cup" and data["tournament"]["rounds"] == 3
        # the system's name as every screen writes it (bot.ui.scoring.system_name)
        assert data["tournament"]["subtitle"].endswith("scoring: Plain (a win = 1)")
        assert data["texts"]["tab_mine"] == "My games" and data["export"] is None
        # the schedule: names in seat order, his seat marked, the substitute marked
        names = {p.user_id: p.name for p in await h.app.storage.tournament_players(t.id)}
        r1 = data["schedule"]["rounds"][0]
        table = r1["tables"][0]
        expected = [names[u] for u in first]
        expected[sub_seat - 1] = f"Sub{sub.id % 1000}"  # the substitute, as he played (his sheet's name)
        assert [s["name"] for s in table["seats"]] == expected
        assert [s["seat"] for s in table["seats"]] == list(range(1, 11))
        assert [s["me"] for s in table["seats"]] == [u == best for u in first]
        seat3 = table["seats"][sub_seat - 1]
        assert seat3["substitute"] == {"for": names[absent], "me": False}
        assert table["game"] == {"id": gid, "status": "published", "published": True,
                                 "status_text": "published"}
        assert table["mine"] and r1["mine"] and not r1["current"]
        r2 = data["schedule"]["rounds"][1]
        assert r2["current"] and r2["tables"][0]["game"] is None
        assert [len(r["sitting_out"]) for r in data["schedule"]["rounds"]] == [1, 1, 1]

        # the standings: the rows, places and figures of /tournament's text
        rows = data["standings"]["rows"]
        assert len(rows) == 12 and rows[0]["name"] == names[best] and rows[0]["me"]
        assert (rows[0]["points"], rows[0]["additional"], rows[0]["games"], rows[0]["wins"]) == \
            ("1.5", "0.5", 1, 1)
        assert any(r["substitute"] for r in rows) and data["standings"]["note"]
        assert data["standings"]["tie_breaks"] == ("Tie-breaks after the points: wins, "
                                                   "additional points, best-move points, "
                                                   "penalties.")
        assert data["standings"]["state"].startswith("Round 2 of 3: table 1: waiting")
        h.session.fail("sendPhoto", chat_id=GROUP, error_code=400, times=None,
                       description="Bad Request: not enough rights to send photos to the chat")
        await h.command(admin, "/tournament")
        await h.app.sender.drain()
        text = next(x for x in reversed(h.sent_texts(GROUP)) if x.startswith("📊 Standings"))
        lines = [x for x in text.splitlines()[1:] if re.match(r"\d+\. ", x)]
        assert len(lines) == len(rows)
        for line, row in zip(lines, rows, strict=True):
            assert line.startswith(f"{row['place']}. {row['name'].removesuffix(' *')} — "
                                   f"{row['points']} ({row['games']} g., {row['wins']} w., "
                                   f"add. {row['additional']}, best move {row['best_move']})")

        # my games: his seat, result and points per round; the rounds to come
        mine = data["mine"]
        assert mine["summary"] == "Place 1 of 12 · points 1.5 · games 1 · wins 1"
        g1 = mine["games"][0]
        assert (g1["round"], g1["table"], g1["seat"], g1["game"], g1["status"]) == \
            (1, 1, seat, gid, "published")
        assert g1["result"] == {"won": True, "role": "Civilian", "team": "Town", "total": "1.5",
                                "line": "win 1 · add. 0.5"}
        later = [g for g in mine["games"] if g["round"] > 1]
        assert all(g["status"] == "waiting" and g["result"] is None for g in later)
        assert len(mine["games"]) + len(mine["sitting_out"]) == 3

        # the replaced player: his seat, replaced, no result; the substitute: his game
        replaced = (await (await get(client, h, h.user(absent), t=str(t.id))).json())["mine"]
        g = next(x for x in replaced["games"] if x["round"] == 1)
        assert g["replaced_by"] == f"Sub{sub.id % 1000}" and g["result"] is None
        subbed = (await (await get(client, h, sub, t=str(t.id))).json())["mine"]
        assert [(x["round"], x["seat"], x["substitute"]) for x in subbed["games"]] == \
            [(1, sub_seat, {"for": names[absent]})]
        assert subbed["games"][0]["result"]["won"] is True

        # one part alone
        part = await (await get(client, h, player, "/webapp/api/tournament/standings",
                                t=str(t.id))).json()
        assert "standings" in part and "schedule" not in part and "mine" not in part
        assert part["standings"] == data["standings"]


async def test_the_organiser_downloads_the_export_from_the_page(sqlite_url):
    async with served(sqlite_url, n_users=12) as (h, client):
        admin, t = await drawn(h)
        first = t.schedule["rounds"][0][0]
        await published(h, t, 1, first)
        data = await (await get(client, h, admin, t=str(t.id))).json()
        assert data["viewer"]["organiser"] and set(data["export"]) == {"json", "csv"}
        link = data["export"]["json"]
        resp = await client.get("/webapp/" + link)  # no initData: the link's ticket
        assert resp.status == 200
        assert resp.headers["Content-Disposition"] == f'attachment; filename="tournament-{t.id}.json"'
        body = await resp.json()
        now = await h.app.storage.get_tournament(t.id)
        assert body == json.loads(json.dumps(await h.app.webapp.tournaments.export(now)))
        assert body["format"] == 1 and body["schedule"] == t.schedule
        resp = await client.get("/webapp/" + data["export"]["csv"])
        table = list(csv.reader(io.StringIO((await resp.read()).decode("utf-8-sig"))))
        assert table[0][:4] == ["place", "user_id", "name", "points"] and len(table) == 12
        # a forged ticket, a stream ticket, another tournament's, a player's own: refused
        query = parse_qs(urlsplit(link).query)
        ticket = query["ticket"][0]
        for bad, status in ((ticket[:-1] + ("0" if ticket[-1] != "0" else "1"), 401),
                            (make_ticket(TEST_TOKEN, admin.id, t.id, h.clock()), 401),
                            (make_ticket(TEST_TOKEN, h.users[3].id, t.id, h.clock(), "export"),
                             403)):
            resp = await client.get("/webapp/api/tournament/export",
                                    params={"t": str(t.id), "f": "json", "ticket": bad})
            assert resp.status == status, bad
            assert "text" in await resp.json()
        resp = await client.get("/webapp/api/tournament/export",
                                params={"t": str(t.id), "f": "xml", "ticket": ticket})
        assert resp.status == 400
        with pytest.raises(Unauthorized):  # ... nor does an export ticket open a game's stream
            check_ticket(TEST_TOKEN, ticket, t.id, h.clock())
        assert check_ticket(TEST_TOKEN, ticket, t.id, h.clock(), "export") == admin.id
        # a player sees no links
        player = await (await get(client, h, h.users[3], t=str(t.id))).json()
        assert player["export"] is None and not player["viewer"]["organiser"]


async def test_only_the_groups_members_see_the_pages_and_bad_ids_are_refused(sqlite_url):
    async with served(sqlite_url, n_users=12) as (h, client):
        admin, t = await drawn(h, players=10, games=1)
        stranger = h.users[11]
        h.session.set_member(GROUP, stranger.id, "left")
        resp = await get(client, h, stranger, t=str(t.id))
        assert resp.status == 403
        assert (await resp.json())["text"] == \
            "Only the members of the tournament's groups see its pages."
        ru = await get(client, h, stranger, t=str(t.id), _auth={"lang": "ru"})
        assert (await ru.json())["text"] != "Only the members of the tournament's groups see its pages."
        # a member of a linked table's group may look
        h.session.set_member(TABLE2, admin.id, "administrator")
        await h.app.storage.link_tournament_table(t.id, TABLE2)
        h.app.webapp._members.clear()
        assert (await get(client, h, stranger, t=str(t.id))).status == 200
        h.session.set_member(TABLE2, stranger.id, "kicked")
        h.app.webapp._members.clear()
        assert (await get(client, h, stranger, t=str(t.id))).status == 403
        # no initData
        assert (await client.get("/webapp/api/tournament", params={"t": str(t.id)})).status == 401
        # bad and unknown ids: 400 / 404 with words, never 500
        member = h.users[2]
        for value, status in (("abc", 400), ("²", 400), ("1" * 19, 400), ("", 400), ("-1", 400),
                              (str(t.id + 1), 404), ("9" * 18, 404)):
            resp = await get(client, h, member, t=value)
            assert resp.status == status, value
            assert (await resp.json())["text"]
        assert (await get(client, h, member)).status == 404  # none given
        resp = await get(client, h, member, _auth={"start_param": f"t{t.id}"})  # the link's
        assert resp.status == 200 and (await resp.json())["tournament"]["id"] == t.id
        assert (await get(client, h, member, "/webapp/api/tournament/nope", t=str(t.id))).status == 404
        assert (await client.get("/webapp/api/tournament/export", params={"t": "x"})).status == 400


async def test_before_the_draw_the_pages_list_the_players(sqlite_url):
    async with served(sqlite_url, n_users=4) as (h, client):
        admin = h.users[0]
        h.session.set_member(GROUP, admin.id, "administrator")
        await h.command(admin, "/tournament new Cup")
        t = await h.app.storage.tournament_for_chat(GROUP)
        await h.dm(h.users[1], f"/start tour_{t.id}")
        data = await (await get(client, h, h.users[1], t=str(t.id))).json()
        assert data["schedule"] is None and data["tournament"]["status"] == "registration"
        assert [r["name"] for r in data["standings"]["rows"]] == [h.users[1].first_name]
        assert data["mine"] == {"summary": "Place 1 of 1 · points 0 · games 0 · wins 0",
                                "games": [], "sitting_out": []}


async def test_the_groups_tournament_messages_open_the_pages(sqlite_url):
    async with served(sqlite_url, n_users=11) as (h, client):
        admin, t = await drawn(h, players=10, games=1)
        link = f"https://t.me/{h.session.bot_username}?startapp=t{t.id}"

        def buttons(markup) -> list[str]:
            # the link buttons (the schedule and /tournament carry «▶️ Start round 1» too)
            return [b.url for row in (markup.inline_keyboard if markup else []) for b in row
                    if b.url]

        schedule = [request_of(c, SendPhoto) for c in h.sent(GROUP, ("sendPhoto",))][-1]
        assert plain_text(schedule.caption or "").startswith("📋 Seating of «Spring Cup»")
        assert buttons(schedule.reply_markup) == [link]
        await h.command(admin, "/tournament")  # no sheet yet: the text, with the button
        await h.app.sender.drain()
        last = h.messages(GROUP)[-1]
        assert last["text"].startswith("📊 Standings")
        urls = [b["url"] for row in last["reply_markup"]["inline_keyboard"] for b in row
                if b.get("url")]
        assert urls == [link]
        # the round's end: the standings post carries it too (no message more)
        gid = await published(h, t, 1, t.schedule["rounds"][0][0])
        before = len(h.sent(GROUP, ("sendPhoto", "sendMessage")))
        await h.app.sheets.published[0](gid)
        await h.app.sender.drain()
        calls = h.sent(GROUP, ("sendPhoto", "sendMessage"))[before:]
        assert len(calls) == 1
        post = request_of(calls[0], SendPhoto)
        assert plain_text(post.caption or "").startswith("🏁 Final table of «Spring Cup»")
        assert buttons(post.reply_markup) == [link]


async def test_TOUR_X10_uneven_games_show_the_points_per_game_everywhere(sqlite_url):
    """After two rounds of 11 players some played two games, some one: the table is ranked by
    points per game, and the page, /tournament's text and the CSV say so and show them."""
    async with served(sqlite_url, n_users=12) as (h, client):
        admin, t = await drawn(h)
        first, second = (t.schedule["rounds"][r][0] for r in (0, 1))
        await published(h, t, 1, first)
        data = (await (await get(client, h, admin, t=str(t.id))).json())["standings"]
        assert not data["per_game"] and data["per_game_note"] == ""  # everybody played one
        assert all(r["per_game"] == "" for r in data["rows"])
        # x won round 1 and loses round 2 with 0.25 additional (1.25 in 2 games); y sat out
        # round 1 and wins round 2 (1.0 in 1 game): y ranks above x on fewer points
        x = next(u for u in first[:7] if u in second)
        y = next(u for u in second if u not in first)
        second = [y, *(u for u in second if u not in (x, y)), x]  # the first seven win
        await published(h, t, 2, second, extra={x: 0.25})
        data = (await (await get(client, h, admin, t=str(t.id))).json())["standings"]
        assert data["per_game"] and data["per_game_note"].startswith("Ranked by points per game")
        rows = data["rows"]
        assert {r["games"] for r in rows} == {1, 2}
        assert all(r["per_game"] for r in rows if r["games"])
        per_game = [float(r["per_game"]) for r in rows]
        assert per_game == sorted(per_game, reverse=True)
        names = {p.user_id: p.name for p in await h.app.storage.tournament_players(t.id)}
        rx, ry = (next(r for r in rows if r["name"] == names[u]) for u in (x, y))
        assert (rx["points"], rx["per_game"], ry["points"], ry["per_game"]) == \
            ("1.25", "0.62", "1", "1")  # num: 0.625 as the sheets round
        assert ry["place"] < rx["place"]
        h.session.fail("sendPhoto", chat_id=GROUP, error_code=400, times=None,
                       description="Bad Request: not enough rights to send photos to the chat")
        await h.command(admin, "/tournament")
        await h.app.sender.drain()
        text = next(x for x in reversed(h.sent_texts(GROUP)) if x.startswith("📊 Standings"))
        lines = [x for x in text.splitlines()[1:] if re.match(r"\d+\. ", x)]
        for line, row in zip(lines, rows, strict=True):
            assert line.endswith(f" · {row['per_game']} per game"), line
        assert data["per_game_note"] in text
