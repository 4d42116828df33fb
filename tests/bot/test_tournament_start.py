"""«▶️ Start round N» and the draw's seed (issue 22, docs/tournaments.md) through feed_update:
the button rides on the schedule posted at the draw, the round-end standings and /tournament in
each table's group; it does what /newgame does there (the scheduled seats, PARTY-X26) for its own
group's table only, and every press is answered (not allowed, played, not due, open, waiting for
the other tables, stale or forged data). ``/tournament draw <seed>``: a public, repeatable draw
(TOUR-X04), a bad seed named."""

from __future__ import annotations

import json
from typing import Any

import pytest
from aiogram.methods import SendDocument

from bot.services.tournaments import SEED_LIMIT, parse_seed
from bot.ui.callbacks import TourGo
from engine.tournament import draw
from tests.bot.driver import play_to_end
from tests.bot.harness import GROUP, Harness, make_harness, request_of
from tests.bot.test_tournament import TABLE2
from tests.bot.test_tournament_rounds import drawn, photos
from tests.fakes.calls import Call
from tests.fakes.telegram import plain_text

NOT_ALLOWED = "Only the tournament's organiser, a judge or a group admin can do that."
OUT_OF_DATE = "This button is out of date."
OPEN = "A game is already open in this chat. Finish it or /cancel it first."


def starts(markup: Any) -> list[TourGo]:
    """The «▶️ Start round N» buttons of a message's markup (a Call's, or a stored dict's)."""
    if markup is None:
        return []
    rows = markup["inline_keyboard"] if isinstance(markup, dict) else markup.inline_keyboard
    out = []
    for row in rows:
        for b in row:
            data = b.get("callback_data") if isinstance(b, dict) else b.callback_data
            if data and data.startswith("tg:"):
                out.append(TourGo.unpack(data))
    return out


def last_with_start(h: Harness, chat_id: int) -> tuple[int, TourGo]:
    """(message id, its start button) of the newest message in ``chat_id`` that has one."""
    calls: list[Call] = [c for c in h.sent(chat_id, ("sendMessage", "sendPhoto")) if starts(c.reply_markup)]
    assert calls, "no «Start round» button in the chat"
    call = calls[-1]
    assert call.result is not None
    return call.result.message_id, starts(call.reply_markup)[0]


async def settle(h: Harness) -> None:
    assert h.app.sheets is not None
    await h.app.sheets.settle()
    await h.app.sender.drain()


async def test_PARTY_X26_start_round_from_the_schedule_and_the_round_end_post(sqlite_url):
    h = await make_harness(sqlite_url, n_users=11)
    try:
        admin, t = await drawn(h, games=2)
        stranger = h.users[10]  # not registered, no admin
        mid, go = last_with_start(h, GROUP)  # the schedule's photo: round 1 at the home table
        assert (go.t, go.r, go.n) == (t.id, 1, 1)
        assert h.sent(GROUP, ("sendPhoto",))[-1].result.message_id == mid
        assert await h.press(stranger, GROUP, mid, go.pack()) == NOT_ALLOWED
        assert await h.game() is None

        assert await h.press(admin, GROUP, mid, go.pack()) == "▶️ Round 1: the lobby is open."
        g = await h.game()
        seats = t.schedule["rounds"][0][0]
        assert g is not None and g.state.settings["seat_order"] == seats
        assert set(g.state.players) == set(seats)  # every scheduled player seated at once
        assert h.sent_texts(GROUP)[-1] == \
            "🏆 «Spring Cup», round 1, table 1: the scheduled players are seated."
        assert (await h.app.storage.tournament_of_game(g.id)).round == 1
        assert await h.press(admin, GROUP, mid, go.pack()) == OPEN  # pressed twice: one lobby
        assert (await h.game()).id == g.id

        await h.command(admin, "/startgame")
        await play_to_end(h, seed=5)
        await settle(h)
        post = photos(h)[-1]
        assert plain_text(post.caption or "").startswith("📊 Standings of «Spring Cup»\nAfter round 1")
        [go2] = starts(post.reply_markup)  # the round-end post: round 2 at the home table
        assert (go2.t, go2.r, go2.n) == (t.id, 2, 1)
        post_mid = h.sent(GROUP, ("sendPhoto",))[-1].result.message_id
        # the schedule's old button: round 1 is over
        assert await h.press(admin, GROUP, mid, go.pack()) == "Round 1 is played already."
        forged = TourGo(t=t.id, r=3, n=1).pack()
        assert await h.press(admin, GROUP, post_mid, forged) == \
            "Round 3 is not due yet: round 2 is being played."
        assert await h.game() is None  # refused: nothing opened

        assert await h.press(admin, GROUP, post_mid, go2.pack()) == "▶️ Round 2: the lobby is open."
        g2 = await h.game()
        assert g2.id != g.id and g2.state.settings["seat_order"] == t.schedule["rounds"][1][0]
        await h.command(admin, "/startgame")
        await play_to_end(h, seed=6)
        await settle(h)
        final = photos(h)[-1]
        assert plain_text(final.caption or "").startswith("🏁 Final table of «Spring Cup»")
        assert starts(final.reply_markup) == []  # nothing more to start
        assert await h.press(admin, GROUP, post_mid, go2.pack()) == \
            "Every round of «Spring Cup» is played: /tournament."
    finally:
        await h.stop()


async def test_the_round_end_as_text_carries_the_button_too(sqlite_url):
    h = await make_harness(sqlite_url, n_users=10)
    try:
        h.session.fail("sendPhoto", chat_id=GROUP, error_code=400, times=None,
                       description="Bad Request: not enough rights to send photos to the chat")
        admin, t = await drawn(h, games=2)
        await settle(h)  # the schedule's text pages, sent when its photo failed
        mid, go = last_with_start(h, GROUP)
        assert h.message(GROUP, mid)["text"].startswith("📋 Seating") and go.r == 1
        assert await h.press(admin, GROUP, mid, go.pack()) == "▶️ Round 1: the lobby is open."
        await h.command(admin, "/startgame")
        await play_to_end(h, seed=5)
        await settle(h)
        mid2, go2 = last_with_start(h, GROUP)
        assert h.message(GROUP, mid2)["text"].startswith("📊 Standings of «Spring Cup»")
        assert (go2.t, go2.r, go2.n) == (t.id, 2, 1)
    finally:
        await h.stop()


async def _two_tables(h: Harness):
    admin = h.users[0]
    h.session.set_member(GROUP, admin.id, "administrator")
    h.session.set_member(TABLE2, admin.id, "administrator")
    await h.command(admin, "/tournament new Duo club 1 plain")
    t = await h.app.storage.tournament_for_chat(GROUP)
    assert t is not None
    await h.command(admin, f"/tournament table {t.id}", chat_id=TABLE2)
    for u in h.users[:20]:
        await h.dm(u, f"/start tour_{t.id}")
    await h.command(admin, "/tournament close")
    await h.command(admin, "/tournament draw")
    t = await h.app.storage.get_tournament(t.id)
    assert t is not None and t.schedule is not None and len(t.schedule["rounds"][0]) == 2
    return admin, t


async def test_PARTY_X26_each_tables_group_starts_its_own_table_only(db_url):
    h = await make_harness(db_url, n_users=22)
    try:
        admin, t = await _two_tables(h)
        judge2 = h.users[21]  # an admin of table 2's group only: may send /newgame there
        h.session.set_member(TABLE2, judge2.id, "administrator")
        player = h.users[5]

        await h.command(judge2, "/tournament", chat_id=TABLE2)
        mid2, go2 = last_with_start(h, TABLE2)
        assert (go2.t, go2.r, go2.n) == (t.id, 1, 2)
        await h.command(admin, "/tournament")
        mid1, go1 = last_with_start(h, GROUP)
        assert (go1.t, go1.r, go1.n) == (t.id, 1, 1)

        # a button of another group's table, forged or stale: answered, no lobby anywhere
        assert await h.press(admin, GROUP, mid1, go2.pack()) == OUT_OF_DATE
        assert await h.press(admin, TABLE2, mid2, go1.pack()) == OUT_OF_DATE
        ghost = TourGo(t=t.id + 99, r=1, n=1).pack()
        assert await h.press(admin, GROUP, mid1, ghost) == OUT_OF_DATE
        assert await h.press(admin, GROUP, mid1, "tg:1:x:1") == OUT_OF_DATE  # no such data
        assert await h.game() is None and await h.game(TABLE2) is None

        home_before = len(h.sent(GROUP))
        assert await h.press(player, TABLE2, mid2, go2.pack()) == NOT_ALLOWED
        assert await h.press(judge2, TABLE2, mid2, go2.pack()) == "▶️ Round 1: the lobby is open."
        g = await h.game(TABLE2)
        assert g is not None and g.state.settings["seat_order"] == t.schedule["rounds"][0][1]
        assert await h.game() is None and len(h.sent(GROUP)) == home_before  # the home: nothing
        assert h.sent_texts(TABLE2)[-1].startswith("🏆 «Duo», round 1, table 2: the scheduled")
        await h.command(judge2, "/tournament", chat_id=TABLE2)  # open: no button now
        assert starts(h.sent(TABLE2, ("sendMessage",))[-1].reply_markup) == []
        assert await h.press(judge2, TABLE2, mid2, go2.pack()) == OPEN

        # table 2's game is over while table 1 has not begun: it waits for the other table
        st = h.app.storage
        await st.set_status(g.id, "finished", "town")
        assert await h.press(judge2, TABLE2, mid2, go2.pack()) == \
            "This table's game of round 1 is played: wait for the other tables."
        await h.command(admin, "/newgame", chat_id=TABLE2)  # /newgame says the same
        assert h.sent_texts(TABLE2)[-1] == \
            "This table's game of round 1 is played: wait for the other tables."
        # the home table's button still opens the home table's game, in the home group
        assert await h.press(admin, GROUP, mid1, go1.pack()) == "▶️ Round 1: the lobby is open."
        home = await h.game()
        assert home is not None and home.state.settings["seat_order"] == t.schedule["rounds"][0][0]
    finally:
        await h.stop()


async def test_TOUR_X04_the_organiser_draws_with_his_seed_and_a_bad_seed_is_named(db_url):
    h = await make_harness(db_url, n_users=10)
    try:
        admin, _t = await drawn_closed(h)
        t = await h.app.storage.tournament_for_chat(GROUP)
        for bad in ("abc", "1.5", str(SEED_LIMIT + 1), "12 13"):
            await h.command(admin, f"/tournament draw {bad}")
            assert h.sent_texts(GROUP)[-1] == (
                f"❌ The seed «{bad}» is not a whole number from −{SEED_LIMIT} to {SEED_LIMIT}: "
                "/tournament draw [seed].")
        assert (await h.app.storage.get_tournament(t.id)).status == "closed"  # nothing drawn
        await h.command(h.users[3], "/tournament draw 20261205")
        assert h.sent_texts(GROUP)[-1] == NOT_ALLOWED

        await h.command(admin, "/tournament draw 20261205")
        t = await h.app.storage.get_tournament(t.id)
        players = [p.user_id for p in await h.app.storage.tournament_players(t.id)]
        assert t.status == "drawn" and t.seed == 20261205
        assert t.schedule == draw(players, 1, 1, 20261205).to_dict()  # anyone can repeat it
        await h.command(admin, "/tournament schedule text")
        assert "seed 20261205" in h.sent_texts(GROUP)[-1]
        await h.command(admin, "/tournament export")
        [doc] = [request_of(c, SendDocument) for c in h.session.calls
                 if c.method == "sendDocument" and c.chat_id == admin.id][:1]
        data = json.loads(doc.document.data)
        assert data["tournament"]["seed"] == data["schedule"]["seed"] == 20261205
        await h.command(admin, "/tournament draw 7")
        assert h.sent_texts(GROUP)[-1] == "The seating is drawn already: /tournament schedule."
        assert (await h.app.storage.get_tournament(t.id)).seed == 20261205
    finally:
        await h.stop()


async def drawn_closed(h: Harness):
    admin = h.users[0]
    h.session.set_member(GROUP, admin.id, "administrator")
    await h.command(admin, "/tournament new Spring Cup club 1 plain")
    t = await h.app.storage.tournament_for_chat(GROUP)
    assert t is not None
    for u in h.users[:10]:
        await h.dm(u, f"/start tour_{t.id}")
    await h.command(admin, "/tournament close")
    return admin, t


@pytest.mark.parametrize(("word", "value"), [
    ("0", 0), ("42", 42), ("-42", -42), ("−42", -42), (str(SEED_LIMIT), SEED_LIMIT),
    (str(-SEED_LIMIT), -SEED_LIMIT)])
def test_TOUR_X04_a_seed_is_a_bounded_whole_number(word, value):
    assert parse_seed(word) == value


@pytest.mark.parametrize("word", ["", "-", "+5", "1.5", "1e3", "٣", "abc", str(SEED_LIMIT + 1),
                                  str(-SEED_LIMIT - 1), "9" * 400, "--5"])
def test_TOUR_X04_a_bad_seed_is_refused(word):
    with pytest.raises(ValueError):
        parse_seed(word)
