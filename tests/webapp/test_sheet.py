"""The finished sport game's score sheet on the Mini App (issue 21 part 2; docs/miniapp.md "The
score sheet"; SCORE-X12..X15): the judge sees it with his buttons and fills it from the page
(his private sheet message follows), publishes it; a player, a group member or a stranger never
gets the buttons, and a forged press from any of them is refused with 403; the published sheet
is the same read-only table to everybody who may see the game."""

from __future__ import annotations

from bot.history.sheet_view import DRAFT
from bot.ui.callbacks import Sheet
from bot.ui.timings import SHEET_CORRECTIONS_FOR
from tests.bot.harness import GROUP
from tests.bot.test_sheets import JUDGE, judged_game, photos, seat_user, sheet_message
from tests.fakes.telegram import plain_text
from tests.fakes.updates import FakeUser

from .support import auth, served

STRANGER = FakeUser(900_000_000_777, "Stranger")
WATCHER = FakeUser(900_000_000_778, "Watcher")


async def table(client, h, user, game_id) -> dict:
    resp = await client.get("/webapp/api/table", params={"g": str(game_id)}, headers=auth(h, user))
    assert resp.status == 200
    return await resp.json()


async def sheet_press(client, h, user, game_id, a: str, t: int = 0):
    return await client.post("/webapp/api/sheet", json={"g": game_id, "a": a, "t": t},
                             headers=auth(h, user))


async def test_SCORE_X12_X11_the_judge_fills_and_publishes_the_sheet_from_the_page(sqlite_url):
    async with served(sqlite_url, n_users=10) as (h, client):
        game_id = await judged_game(h)
        data = await table(client, h, JUDGE, game_id)
        sheet = data["sheet"]
        assert sheet["mode"] == DRAFT and sheet["judge"] and sheet["step"] == "0.1"
        assert len(sheet["seats"]) == 10
        st = (await h.service.live(game_id)).state
        first = sheet["seats"][0]
        p1 = st.by_seat(1)
        assert (first["seat"], first["name"], first["role"]["id"]) == (1, p1.name, p1.role.value)
        assert len(first["points"]) == len(sheet["columns"]) == 5
        codes = [(b["a"], b["t"]) for b in sheet["buttons"]]
        assert ("-", 3) in codes and ("+", 3) in codes and ("pub", 0) in codes
        publish = next(b for b in sheet["buttons"] if b["a"] == "pub")
        assert publish["confirm"].startswith("Publish the score sheet?")

        answer = await (await sheet_press(client, h, JUDGE, game_id, "+", 3)).json()
        assert answer["ok"] and answer["text"] == "Seat 3: 0.1"
        line = next(x for x in answer["sheet"]["seats"] if x["seat"] == 3)
        assert line["points"][3] == "0.1"
        u3 = await seat_user(h, game_id, 3)
        assert (await h.app.storage.get_sheet(game_id)).additional == {u3: 0.1}
        # the judge's private sheet follows the page (edited in place, seat 3 chosen)
        await h.app.sender.drain()
        assert "👉 3." in plain_text(sheet_message(h)["text"])
        # ... and the page follows his private presses
        await h.press(JUDGE, JUDGE.id, sheet_message(h)["message_id"],
                      Sheet(a="+", g=game_id, t=3).pack())
        line = next(x for x in (await table(client, h, JUDGE, game_id))["sheet"]["seats"]
                    if x["seat"] == 3)
        assert line["points"][3] == "0.2"
        answer = await (await sheet_press(client, h, JUDGE, game_id, "-", 3)).json()
        assert answer["text"] == "Seat 3: 0.1"

        answer = await (await sheet_press(client, h, JUDGE, game_id, "pub")).json()
        assert answer == {"ok": True, "text": "Published.", "sheet": answer["sheet"]}
        assert answer["sheet"]["mode"] == "published"
        assert [b["a"] for b in answer["sheet"]["buttons"]] == ["cor"]  # no − / + any more
        rows = {r.user_id: r for r in await h.app.storage.game_points_rows(game_id)}
        assert rows[u3].additional == 0.1
        assert len(photos(h)) == 1
        # a stale + after the publication changes nothing
        stale = await (await sheet_press(client, h, JUDGE, game_id, "+", 3)).json()
        assert stale["text"] == "The sheet is already published."
        assert (await h.app.storage.get_sheet(game_id)).additional == {u3: 0.1}


async def test_SCORE_X15_nobody_but_the_judge_gets_the_buttons_and_a_forged_press_is_403(
        sqlite_url):
    async with served(sqlite_url, n_users=10) as (h, client):
        game_id = await judged_game(h)
        player = h.users[0]
        h.session.set_member(GROUP, WATCHER.id, "member")
        for user in (player, WATCHER):
            sheet = (await table(client, h, user, game_id))["sheet"]
            assert sheet["mode"] == DRAFT and not sheet["judge"]
            assert sheet["seats"] == [] and sheet["buttons"] == []  # a draft: no points yet
            assert "a draft" in sheet["note"]
        for user, a in ((player, "+"), (WATCHER, "pub"), (player, "pub")):
            resp = await sheet_press(client, h, user, game_id, a, 3)
            assert resp.status == 403
            body = await resp.json()
            assert body["error"] == "not the judge"
            assert body["text"] == f"Only the judge of game #{game_id} may fill in its score sheet."
        rec = await h.app.storage.get_sheet(game_id)
        assert rec.additional == {} and not rec.published
        h.session.set_member(GROUP, STRANGER.id, "left")
        assert (await sheet_press(client, h, STRANGER, game_id, "pub")).status == 403
        # a code the page has not (choosing a seat is the private message's) / garbage
        assert (await sheet_press(client, h, JUDGE, game_id, "s", 3)).status == 404
        assert (await sheet_press(client, h, JUDGE, game_id, "+", 100)).status == 404
        resp = await client.post("/webapp/api/sheet", json={"g": game_id, "a": "+", "t": "x"},
                                 headers=auth(h, JUDGE))
        assert resp.status == 400
        assert not (await h.app.storage.get_sheet(game_id)).published


async def test_SCORE_X13_X16_the_published_sheet_is_read_only_to_all_and_corrected_by_the_judge(
        sqlite_url):
    async with served(sqlite_url, n_users=10) as (h, client):
        game_id = await judged_game(h)
        await sheet_press(client, h, JUDGE, game_id, "+", 2)
        await sheet_press(client, h, JUDGE, game_id, "pub")
        h.session.set_member(GROUP, WATCHER.id, "member")
        seen = []
        for user in (h.users[0], WATCHER):
            sheet = (await table(client, h, user, game_id))["sheet"]
            assert sheet["mode"] == "closed" and not sheet["judge"] and sheet["buttons"] == []
            seen.append(sheet)
        assert seen[0] == seen[1]  # the same table to every onlooker
        line = next(x for x in seen[0]["seats"] if x["seat"] == 2)
        assert line["points"][3] == "0.1"
        # a correction from the page: the others keep seeing the published points until saved
        await sheet_press(client, h, JUDGE, game_id, "cor")
        answer = await (await sheet_press(client, h, JUDGE, game_id, "+", 2)).json()
        assert answer["sheet"]["mode"] == "correcting" and answer["text"] == "Seat 2: 0.2"
        assert (await table(client, h, WATCHER, game_id))["sheet"] == seen[1]
        answer = await (await sheet_press(client, h, JUDGE, game_id, "sv")).json()
        assert answer["text"] == "Saved."
        line = next(x for x in (await table(client, h, WATCHER, game_id))["sheet"]["seats"]
                    if x["seat"] == 2)
        assert line["points"][3] == "0.2"
        # its window over: read-only to the judge too
        h.clock.advance(SHEET_CORRECTIONS_FOR.total_seconds() + 60)
        sheet = (await table(client, h, JUDGE, game_id))["sheet"]
        assert sheet["mode"] == "closed" and sheet["judge"] and sheet["buttons"] == []


async def test_a_running_game_has_no_sheet(sqlite_url):
    async with served(sqlite_url, n_users=10) as (h, client):
        from .test_act import club_with_judge

        game_id = await club_with_judge(h, JUDGE)
        assert "sheet" not in await table(client, h, JUDGE, game_id)
        resp = await sheet_press(client, h, JUDGE, game_id, "pub")
        assert resp.status == 404 and (await resp.json())["error"] == "no sheet"
