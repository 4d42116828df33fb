"""NOIR in /history, /stats, /me and /top through the whole bot (updates fed to the dispatcher,
buttons pressed as sent): a NOIR game played through the service is recorded when it ends; its
protocol of moves; the boards' replay as one photo edited in place (⏮ ◀ ▶ ⏭, the text grid when
the photo cannot go); stale and forged replay buttons; "what I knew" and the export in private;
the statistics apart from the mafia presets and no rating; a running NOIR game is not shown."""

from __future__ import annotations

import random

from aiogram.methods import EditMessageMedia
from sqlalchemy import update

from bot.history import export as X
from bot.history.service import HistoryService
from bot.storage.models import GameLogEntry
from bot.ui.callbacks import Hist
from engine.noir import CancelGame, Join, Role
from tests.bot.harness import GROUP, Harness, make_harness
from tests.engine.noir.playout import random_action
from tests.fakes.updates import FakeUser
from tests.history.helpers import bulk_store, sample_playouts
from tests.history.noir_helpers import finished, state_of, store_noir
from tests.history.test_bot import (
    OTHER_GROUP,
    button,
    buttons_of,
    last_group_message,
    message_now,
    sent_document,
)

OUT_OF_DATE = "This button is out of date."


async def noir_game(h: Harness, seed: int, n: int = 6, *, moves: int | None = None) -> int:
    """A NOIR game through the service (lobby, deal, random legal actions and timeouts) until
    it ends (or ``moves`` commands). Returns its id."""
    from bot.games.noir.deal import deal

    users = h.users[:n]
    gid = await h.service.new_game(GROUP, users[0].id, "en", {}, "noir")
    for u in users:
        await h.service.execute(gid, Join(user_id=u.id, name=u.first_name))
    await h.service.execute(gid, lambda g: deal(g.state, users[0].id, random.Random(g.seed)))
    rng = random.Random(seed)
    for _i in range(moves or 2_000):
        st = (await h.service.live(gid)).state
        if st.over:
            break
        who = st.by_role(Role.SUIT).user_id if st.window is not None else st.current
        cmd = random_action(rng, st, who) if rng.random() > 0.05 else None
        if cmd is None or (st.window is not None and not st.window.suit_can):
            # a deadline is held while the step's messages wait in the Sender (the visible
            # clock): let them leave first, as time passing would
            await h.app.sender.drain()
            await h.service.visible.settle()
            await h.service.on_deadline(gid, st.timer.seq)
        else:
            await h.service.execute(gid, cmd)
    await h.app.sender.drain()
    return gid


def history_of(h: Harness) -> HistoryService:
    """The bot's game history (the harness always has one)."""
    assert h.app.history is not None
    return h.app.history


def photo_of(h: Harness, message: dict) -> bytes:
    return h.session.photos[message["photo"][-1]["file_id"]]


async def test_a_noir_game_through_the_bot(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=6)
    try:
        running = await noir_game(h, 3, moves=6)  # no leak: a running game is not in /history
        await h.command(h.users[0], "/history")
        assert "No finished games here yet" in last_group_message(h)["text"]
        assert await history_of(h).load(running) is None
        await h.service.execute(running, CancelGame(reason="test"))
        assert await history_of(h).load(running) is None  # cancelled: not in the history

        gid = await noir_game(h, 4)
        record = await h.app.storage.get_game(gid)
        assert record is not None and record.status == "finished"
        info = await h.app.storage.history_record(gid)  # recorded by the service's listener
        assert info is not None and info.ruleset == "noir"
        st = (await h.service.live(gid)).state
        assert info.winner == (f"noir:{st.outcome}" if st.outcome != "draw" else None)

        await h.command(h.users[0], "/history")
        listing = last_group_message(h)
        mid = listing["message_id"]
        assert "NOIR: FBI vs Mafia" in listing["text"] and f"{st.turn_seq} turns" in \
            listing["text"]
        await h.press(h.users[0], GROUP, mid, button(listing, f"#{gid}"))
        protocol = message_now(h, GROUP, mid)
        pages = [protocol["text"]]  # paged like the mafia protocol
        while any(b["text"] == "▶️" for b in buttons_of(message_now(h, GROUP, mid))):
            await h.press(h.users[0], GROUP, mid, button(message_now(h, GROUP, mid), "▶️"))
            pages.append(message_now(h, GROUP, mid)["text"])
        if len(pages) > 1:  # a short game fits one page (the deal is the game's own seed)
            assert f"page {len(pages)}/{len(pages)}" in pages[-1]
        else:
            assert "page 1/" not in pages[0]
        assert f"Arrests {st.arrests}/{st.table.arrests_needed} · Dead {st.points}/" \
               f"{st.table.points_needed}" in pages[-1]
        for seat, uid in enumerate(st.order, 1):
            assert f"{seat}. {st.players[uid].name} (" in pages[0]
        assert "Turn 1 · " in "".join(pages)

        # the boards' replay: one new photo message, edited in place
        photos_before = len(h.sent(GROUP, ("sendPhoto",)))
        await h.press(h.users[1], GROUP, mid, button(protocol, "Replay"))
        await h.app.sender.drain()
        sent = h.sent(GROUP, ("sendPhoto",))
        assert len(sent) == photos_before + 1
        board = last_group_message(h)
        bid = board["message_id"]
        assert "step 1/" in board["caption"] and "The deal" in board["caption"]
        assert [b["text"] for b in buttons_of(board)] == ["▶️", "⏭"]
        n = int(board["caption"].split("step 1/")[1].split()[0])
        first_png = photo_of(h, board)
        await h.press(h.users[1], GROUP, bid, button(board, "▶️"))
        await h.app.sender.drain()
        board = message_now(h, GROUP, bid)
        assert "step 2/" in board["caption"] and photo_of(h, board) != first_png
        assert [b["text"] for b in buttons_of(board)] == ["⏮", "◀️", "▶️", "⏭"]
        await h.press(h.users[1], GROUP, bid, button(board, "⏭"))
        await h.app.sender.drain()
        board = message_now(h, GROUP, bid)
        assert f"step {n}/{n}" in board["caption"]
        assert [b["text"] for b in buttons_of(board)] == ["⏮", "◀️"]
        assert "Arrests" in board["caption"] and "🕵" in board["caption"]
        edits = h.sent(GROUP, ("editMessageMedia",))
        assert {c.request.message_id if isinstance(c.request, EditMessageMedia) else None
                for c in edits[-2:]} == {bid}
        # a forged step beyond the end shows the last; the same message, no new one
        await h.press(h.users[2], GROUP, bid, Hist(a="rb", g=gid, p=10_000).pack())
        await h.app.sender.drain()
        assert f"step {n}/{n}" in message_now(h, GROUP, bid)["caption"]
        assert len(h.sent(GROUP, ("sendPhoto",))) == photos_before + 1
        # from another group, or in private: out of date
        assert await h.press(h.users[2], OTHER_GROUP, 1, Hist(a="rb", g=gid).pack()) == OUT_OF_DATE
        assert await h.press(h.users[2], h.users[2].id, 1, Hist(a="rb", g=gid).pack()) == \
            OUT_OF_DATE

        # "what I knew": his identity cards, in private
        player = h.users[0]
        assert await h.press(player, GROUP, mid, button(protocol, "What I knew")) == \
            "Sent to your private chat with me."
        dm = h.messages(player.id)[-1]
        assert "What you knew" in dm["text"] and "Your role:" in dm["text"]

        # the export replays to the same game
        await h.press(h.users[2], GROUP, mid, button(protocol, "Export"))
        doc = sent_document(h, h.users[2].id)
        document = X.load_document(doc.data)
        assert document["game"]["ruleset"] == "noir"
        imported = X.replay_document(doc.data)
        assert imported.events_match and imported.state == st
    finally:
        await h.stop()


async def test_the_replay_falls_back_to_the_text_grid(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=6)
    try:
        gid = await store_noir(h.app.storage, GROUP, finished(8))
        assert await history_of(h).record(gid)
        await h.command(h.users[0], "/history")
        mid = last_group_message(h)["message_id"]
        await h.press(h.users[0], GROUP, mid, Hist(a="p", g=gid).pack())
        h.session.fail("sendPhoto", chat_id=GROUP, error_code=400,
                       description="Bad Request: not enough rights to send photos to the chat")
        await h.press(h.users[0], GROUP, mid, Hist(a="r", g=gid).pack())
        await h.app.sender.drain()
        board = last_group_message(h)
        assert "photo" not in board and "step 1/" in board["text"]
        assert "x dead · # arrested" in board["text"]
        await h.press(h.users[0], GROUP, board["message_id"], button(board, "▶️"))
        await h.app.sender.drain()
        assert "step 2/" in message_now(h, GROUP, board["message_id"])["text"]
        # a log that no longer replays (tampered with): answered, nothing sent
        po = finished(9)
        broken = await store_noir(h.app.storage, GROUP, po)
        assert await history_of(h).record(broken)
        seq = next(i for i, (_b, c, _a, _e) in enumerate(po.steps) if type(c).__name__ == "Shift")
        entries = await h.app.storage.load_entries(broken)
        bad = dict(entries[seq][1], by=7)
        async with h.app.storage.engine.begin() as c:
            await c.execute(update(GameLogEntry.__table__).where(
                GameLogEntry.__table__.c.game_id == broken,
                GameLogEntry.__table__.c.seq == seq).values(command=bad))
        sent = len(h.session.calls.calls_to("sendPhoto"))
        assert await h.press(h.users[0], GROUP, mid, Hist(a="r", g=broken).pack()) == \
            "Nothing to show."
        assert len(h.session.calls.calls_to("sendPhoto")) == sent
        # a mafia game's protocol has no boards' replay: a forged "rb" is out of date
        mafia = await bulk_store(h.app.storage, GROUP, sample_playouts()[0])
        assert await history_of(h).record(mafia)
        assert await h.press(h.users[0], GROUP, mid, Hist(a="rb", g=mafia).pack()) == OUT_OF_DATE
    finally:
        await h.stop()


async def test_stats_me_and_top_keep_noir_apart(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=6)
    try:
        h.session.chat_titles[GROUP] = "Test group"
        await h.command(h.users[0], "/stats")
        noir = [finished(s) for s in (11, 12, 13)]
        for po in noir:
            gid = await store_noir(h.app.storage, GROUP, po)
            assert await history_of(h).record(gid)
        await h.command(h.users[0], "/stats")
        text = last_group_message(h)["text"]
        assert "NOIR: FBI vs Mafia · 3 games played" in text
        outcomes = [state_of(po).outcome for po in noir]
        for team, name in (("agents", "Agents"), ("mafia", "Mafia")):
            if team in outcomes:
                assert f"{name} {round(100 * outcomes.count(team) / 3)}%" in text
        assert "No finished games here yet" not in text
        assert "Not rated" in text
        assert "survived" not in text  # NOIR: nobody leaves the game, no survival share
        assert "% wins" in text
        assert not await h.app.storage.rating_tracks(chat_id=GROUP)  # NOIR feeds no Elo
        totals = await h.app.storage.role_totals(chat_id=GROUP)
        assert {t.team for t in totals} <= {"noir:agents", "noir:mafia"}
        assert sum(t.games for t in totals) == sum(po.n for po in noir)
        await h.command(h.users[0], "/top")
        assert "Nobody has played" in last_group_message(h)["text"]

        # a mafia game beside them: the rating counts it alone; /stats shows both, apart
        mafia = sample_playouts()[0]
        gid = await bulk_store(h.app.storage, GROUP, mafia)
        assert await history_of(h).record(gid)
        tracks = await h.app.storage.rating_tracks(chat_id=GROUP)
        assert {t.team for t in tracks} <= {"town", "mafia"}
        assert {t.user_id for t in tracks} == {p.user_id for p in mafia.final.seated()}
        await h.command(h.users[0], "/stats")
        text = last_group_message(h)["text"]
        assert "1 game played" in text and "NOIR: FBI vs Mafia · 3 games played" in text
        # /me of a NOIR player: his NOIR games, no rating line for them
        uid = state_of(noir[0]).order[0]
        me = FakeUser(uid, f"P{uid}", username=f"p{uid}")
        h.session.register_user(me)
        await h.command(me, "/me")
        mine = last_group_message(h)["text"]
        played = sum(1 for po in noir if uid in state_of(po).order)
        assert "NOIR: FBI vs Mafia" in mine and "Rating" not in mine and "survived" not in mine
        assert (f"{played} games" if played > 1 else "1 game") in mine
        # his private /history: his NOIR games with his role; one opens his identity cards
        await h.dm(me, "/history")
        listing = h.messages(me.id)[-1]
        role = state_of(noir[0]).players[uid].role
        assert role is not None
        assert "NOIR: FBI vs Mafia · 🕵 " + role.value.capitalize() in listing["text"]
        await h.press(me, me.id, listing["message_id"], buttons_of(listing)[-1]["callback_data"])
        knew = message_now(h, me.id, listing["message_id"])["text"]
        assert "What you knew" in knew and "The deal" in knew and "Your role:" in knew
        # an admin's deletion rebuilds the ratings beside the NOIR results
        assert await history_of(h).delete(gid, None) == GROUP
        assert not await h.app.storage.rating_tracks(chat_id=GROUP)
        assert sum(t.games for t in await h.app.storage.role_totals(chat_id=GROUP)) == \
            sum(po.n for po in noir)
    finally:
        await h.stop()
