"""/tournament (issue 22) through feed_update: creation by a group admin only, registration by
deep link and its closing, the organiser's additions and withdrawals, the seeded draw and its
schedule, linking a table (admin of both groups), the round's lobby with the scheduled seats
(PARTY-X26) and a substitute, the standings from published sheets, the export."""

from __future__ import annotations

import csv
import io
import json

from aiogram.methods import SendDocument, SendPhoto

from bot.storage import PointsRow
from bot.ui.callbacks import Tour
from engine import Phase
from engine.tournament import draw
from tests.bot.harness import GROUP, Harness, make_harness, request_of
from tests.fakes.telegram import plain_text

TABLE2 = GROUP - 7


async def _create(h: Harness, text: str = "/tournament new Spring Cup club 1 plain"):
    admin = h.users[0]
    h.session.set_member(GROUP, admin.id, "administrator")
    await h.command(admin, text)
    t = await h.app.storage.tournament_for_chat(GROUP)
    assert t is not None
    return admin, t


async def _registered(h: Harness, n: int):
    admin, t = await _create(h)
    for u in h.users[:n]:
        await h.dm(u, f"/start tour_{t.id}")
    return admin, t


async def test_only_a_group_admin_creates_a_tournament_and_players_register_by_link(db_url):
    h = await make_harness(db_url, n_users=3)
    try:
        stranger = h.users[1]
        await h.command(stranger, "/tournament new Cup")
        assert h.sent_texts(GROUP)[-1] == "Only a group admin can start a tournament."
        assert await h.app.storage.tournament_for_chat(GROUP) is None

        admin, t = await _create(h)
        assert (t.name, t.preset, t.games_per_player, t.scoring["name"]) == \
            ("Spring Cup", "club", 1, "plain")
        msg = h.message(GROUP, t.ui["message"])
        urls = [b.get("url") for row in msg["reply_markup"]["inline_keyboard"] for b in row]
        assert f"https://t.me/{h.session.bot_username}?start=tour_{t.id}" in urls

        await h.dm(stranger, f"/start tour_{t.id}")
        assert h.sent_texts(stranger.id)[-1] == "✅ You are registered for «Spring Cup»."
        assert "1. Player2" in h.message(GROUP, t.ui["message"])["text"]
        await h.dm(stranger, f"/start tour_{t.id}")
        assert h.sent_texts(stranger.id)[-1] == "You are registered for «Spring Cup» already."

        close = Tour(a="close", t=t.id).pack()
        assert await h.press(stranger, GROUP, t.ui["message"], close) == \
            "Only the tournament's organiser, a judge or a group admin can do that."
        assert (await h.press(admin, GROUP, t.ui["message"], close)).startswith(
            "🔒 Registration closed. Players: 1.")
        await h.dm(h.users[2], f"/start tour_{t.id}")
        assert h.sent_texts(h.users[2].id)[-1] == "The registration for «Spring Cup» is closed."
        await h.command(admin, "/tournament new Other")
        assert h.sent_texts(GROUP)[-1].startswith("A tournament is already under way")
    finally:
        await h.stop()


async def test_the_organiser_adds_and_withdraws_until_the_draw_which_follows_the_seed(db_url):
    h = await make_harness(db_url, n_users=12)
    try:
        admin, t = await _registered(h, 9)
        await h.command(h.users[5], f"/tournament add {h.users[11].id} Late")
        assert h.sent_texts(GROUP)[-1].startswith("Only the tournament's organiser")
        await h.command(admin, f"/tournament add {h.users[11].id} Late")
        assert h.sent_texts(GROUP)[-1] == "✅ Late is registered."
        await h.command(admin, f"/tournament withdraw {h.users[3].id}")
        assert h.sent_texts(GROUP)[-1] == f"{h.users[3].first_name} is withdrawn."
        await h.command(admin, "/tournament draw")
        assert h.sent_texts(GROUP)[-1] == "Close the registration first."
        await h.command(admin, "/tournament close")
        await h.command(admin, "/tournament draw")
        assert h.sent_texts(GROUP)[-1] == "A tournament needs at least 10 players."
        await h.command(admin, f"/tournament add {h.users[10].id} Tenth")
        await h.press(admin, GROUP, t.ui["message"], Tour(a="draw", t=t.id).pack())
        t = await h.app.storage.get_tournament(t.id)
        assert t is not None and t.status == "drawn"
        players = [p.user_id for p in await h.app.storage.tournament_players(t.id)]
        assert h.users[3].id not in players and len(players) == 10
        assert t.schedule == draw(players, 1, 1, t.seed).to_dict()
        [photo] = [request_of(c, SendPhoto) for c in h.sent(GROUP, ("sendPhoto",))]
        assert plain_text(photo.caption or "").startswith(
            "📋 Seating of «Spring Cup» — rounds: 1, tables")
        await h.command(admin, "/tournament schedule text")
        schedule_text = h.sent_texts(GROUP)[-1]
        assert schedule_text.startswith("📋 Seating")
        assert "Round 1" in schedule_text and "Table 1: 1. " in schedule_text
        await h.command(admin, f"/tournament add {h.users[3].id}")
        assert h.sent_texts(GROUP)[-1].startswith("The seating is drawn: players can no longer")
    finally:
        await h.stop()


async def test_a_table_is_linked_by_an_admin_of_both_groups(db_url):
    h = await make_harness(db_url, n_users=3)
    try:
        admin, t = await _create(h)
        other = h.users[1]
        h.session.set_member(TABLE2, other.id, "administrator")
        await h.command(other, f"/tournament table {t.id}", chat_id=TABLE2)
        assert h.sent_texts(TABLE2)[-1] == "Only an admin of both groups can link a table."
        h.session.set_member(TABLE2, admin.id, "administrator")
        await h.command(admin, f"/tournament table {t.id}", chat_id=TABLE2)
        assert h.sent_texts(TABLE2)[-1] == "🪑 This group is table 2 of «Spring Cup»."
        assert await h.app.storage.tournament_tables(t.id) == {1: GROUP, 2: TABLE2}
    finally:
        await h.stop()


async def _drawn(h: Harness, n: int = 10):
    admin, t = await _registered(h, n)
    await h.command(admin, "/tournament close")
    await h.command(admin, "/tournament draw")
    t = await h.app.storage.get_tournament(t.id)
    assert t is not None and t.schedule is not None
    return admin, t


async def test_newgame_opens_the_round_with_the_scheduled_seats_and_a_substitute(db_url):
    h = await make_harness(db_url, n_users=11)
    try:
        admin, t = await _drawn(h)
        seats = t.schedule["rounds"][0][0]
        absent = seats[2]
        h.app.sender.blocked.add(absent)  # never reachable in private: joins by pressing
        await h.command(admin, "/newgame")
        assert h.sent_texts(GROUP)[-1].startswith("🏆 «Spring Cup», round 1, table 1")
        assert "Still to join" in h.sent_texts(GROUP)[-1]
        g = await h.game()
        assert g.state.ruleset == "club" and g.state.settings["seat_order"] == seats
        assert set(g.state.players) == set(seats) - {absent}
        [slot] = await h.app.storage.tournament_games(t.id)
        assert (slot.round, slot.table_no, slot.game_id) == (1, 1, g.id)

        sub = h.users[10]
        await h.command(admin, f"/tournament sub 3 {sub.id} Sub")
        assert h.sent_texts(GROUP)[-1].startswith("🔁 Sub takes seat 3")
        g = await h.game()
        order = [*seats[:2], sub.id, *seats[3:]]
        assert g.state.settings["seat_order"] == order and sub.id in g.state.players
        assert (await h.app.storage.tournament_of_game(g.id)).substitutes == {absent: sub.id}

        await h.command(admin, "/startgame")
        g = await h.game()
        assert g.state.phase is not Phase.LOBBY
        assert [p.user_id for p in sorted(g.state.players.values(), key=lambda p: p.seat)] == order
    finally:
        await h.stop()


async def _finish_with_sheet(h: Harness, t, round_no: int, seats: list[int], won: set[int],
                             extra: dict[int, float] | None = None) -> int:
    st = h.app.storage
    gid = await st.create_game(GROUP, "club", t.created_by, "en", {}, round_no)
    await st.set_tournament_game(t.id, round_no, 1, gid)
    await st.set_status(gid, "running")
    await st.set_status(gid, "finished", "town")
    await st.create_sheet(gid, GROUP, t.created_by, t.scoring, None)
    names = {p.user_id: p.name for p in await st.tournament_players(t.id)}
    rows = [PointsRow(u, names[u], i, "civilian" if u in won else "mafia",
                      "town" if u in won else "mafia", u in won, float(u in won), 0.0, 0.0,
                      (extra or {}).get(u, 0.0), float(u in won) + (extra or {}).get(u, 0.0))
            for i, u in enumerate(seats, start=1)]
    await st.publish_sheet(gid, t.created_by, extra or {}, rows, None)
    return gid


async def test_standings_follow_the_published_sheets_and_the_export_carries_them(db_url):
    h = await make_harness(db_url, n_users=10)
    try:
        admin, t = await _drawn(h)
        await h.command(admin, "/tournament")
        assert "Round 1 of 1: table 1: waiting" in h.sent_texts(GROUP)[-1]
        seats = t.schedule["rounds"][0][0]
        winners = set(seats[:7])
        best = seats[0]
        await _finish_with_sheet(h, t, 1, seats, winners, {best: 0.5})
        await h.command(admin, "/tournament")  # the picture, captioned with the rounds
        await h.app.sender.drain()
        photo = [request_of(c, SendPhoto) for c in h.sent(GROUP, ("sendPhoto",))][-1]
        caption = plain_text(photo.caption or "")
        assert caption.startswith("🏁 Final table of «Spring Cup»\nPublished games: 1")
        assert "Every round is played." in caption
        h.session.fail("sendPhoto", chat_id=GROUP, error_code=400, times=None,
                       description="Bad Request: not enough rights to send photos to the chat")
        await h.command(admin, "/tournament")  # the text when the photo cannot go
        await h.app.sender.drain()
        text = h.sent_texts(GROUP)[-1]
        assert text.startswith("🏁 Final table of «Spring Cup»")
        first = text.splitlines()[1]
        assert first.startswith("1. ") and "— 1.5 (1 g., 1 w., add. 0.5" in first
        assert "Every round is played." in text
        assert (await h.app.storage.get_tournament(t.id)).status == "finished"

        await h.command(admin, "/tournament export")
        assert h.sent_texts(GROUP)[-1] == "📄 Sent to you in private."
        docs = [request_of(c, SendDocument) for c in h.session.calls
                if c.method == "sendDocument" and c.chat_id == admin.id]
        data = json.loads(docs[0].document.data)
        assert data["format"] == 1 and data["schedule"] == t.schedule
        assert len(data["players"]) == 10 and data["games"][0]["status"] == "finished"
        assert {s["user_id"]: s["total"] for s in data["games"][0]["sheet"]}[best] == 1.5
        assert data["standings"][0]["user_id"] == best and data["standings"][0]["points"] == 1.5
        table = list(csv.reader(io.StringIO(docs[1].document.data.decode("utf-8-sig"))))
        assert table[0][:4] == ["place", "user_id", "name", "points"]
        assert table[1][1] == str(best) and len(table) == 11
    finally:
        await h.stop()
