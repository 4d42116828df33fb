"""/history and the community commands through the whole bot (updates fed to the dispatcher,
buttons pressed as sent): games played by the driver show up with a protocol that matches the
engine's record, a replay stepped in place, "what I knew" and the export in private, admin-only
deletion, /nextgame, /stats, /me, /top; SQLite always, PostgreSQL with TEST_DATABASE_URL."""

from __future__ import annotations

from typing import Any

from aiogram.methods import AnswerCallbackQuery, SendDocument
from aiogram.types import BufferedInputFile
from sqlalchemy import delete

from bot.history import export as X
from bot.history import protocol as P
from bot.history.render import Labels, replay_pages, role_text
from bot.storage.models import GameSummaryRow, PlayerResultRow
from bot.ui.callbacks import Hist
from engine import Role, command_from_dict, replay
from tests.bot.driver import play_to_end
from tests.bot.harness import GROUP, Harness, make_harness
from tests.bot.helpers import start_game
from tests.fakes.telegram import CANT_INITIATE, plain_text
from tests.fakes.updates import FakeUser

OTHER_GROUP = -1009876543210


async def play_game(h: Harness, seed: int):
    game_id = await start_game(h)
    await play_to_end(h, seed)
    log = await h.app.storage.load_log(game_id)
    state, _events = replay(command_from_dict(c) for c in log)
    assert state.over
    return game_id, state


def last_group_message(h: Harness) -> dict:
    return h.messages(GROUP)[-1]


def message_now(h: Harness, chat_id: int, message_id: int) -> dict[str, Any]:
    """The message ``message_id`` of ``chat_id`` as it reads now (it must exist)."""
    message = h.session.message(chat_id, message_id)
    assert message is not None, f"no message {message_id} in chat {chat_id}"
    return message


def buttons_of(message: dict) -> list[dict]:
    return [b for row in (message.get("reply_markup") or {}).get("inline_keyboard", []) for b in row]


def button(message: dict, text: str) -> str:
    return next(b["callback_data"] for b in buttons_of(message) if text in b["text"])


def answer_url(h: Harness) -> str | None:
    request = h.session.calls.calls_to("answerCallbackQuery")[-1].request
    assert isinstance(request, AnswerCallbackQuery)
    return request.url


def sent_document(h: Harness, chat_id: int) -> BufferedInputFile:
    """The file of the last document sent to ``chat_id``."""
    request = h.session.calls.calls_to("sendDocument", chat_id)[-1].request
    assert isinstance(request, SendDocument) and isinstance(request.document, BufferedInputFile)
    return request.document


async def open_history(h: Harness, user=None) -> int:
    await h.command(user or h.users[0], "/history")
    return last_group_message(h)["message_id"]


async def test_history_protocol_replay_knew_and_export(db_url: str):
    h = await make_harness(db_url, n_users=7)
    try:
        first, _ = await play_game(h, 3)
        game_id, st = await play_game(h, 4)
        mid = await open_history(h)
        listing = message_now(h, GROUP, mid)
        assert "2 games" in listing["text"]
        assert [b["text"] for b in buttons_of(listing)] == [f"#{game_id}", f"#{first}"]

        # the protocol: every player's seat, name, role and fate, as the engine has them
        await h.press(h.users[0], GROUP, mid, button(listing, f"#{game_id}"))
        shown = message_now(h, GROUP, mid)
        text = shown["text"]
        _ = h.app.translator.get("en")
        assert ("Town wins!" if st.winner.value == "town" else "Mafia wins!") in text
        for p in st.seated():
            line = f"№{p.seat} {p.name} — {plain_text(role_text(_, p.role.value))}"
            assert any(ln.startswith(line) for ln in text.splitlines()), line
            assert (f"{line} · ☠️" in text) == (not p.alive)

        # the replay: one message, edited in place step by step, as many steps as chapters
        edits_before = len(h.sent(GROUP, ("editMessageText",)))
        await h.press(h.users[1], GROUP, mid, button(shown, "Replay"))
        entries = P.entries_from(await h.app.storage.load_entries(game_id))
        steps = len(replay_pages(_, P.build_replay(entries)))
        seen = [message_now(h, GROUP, mid)["text"]]
        while any(b["text"] == "▶️" for b in buttons_of(message_now(h, GROUP, mid))):
            await h.press(h.users[1], GROUP, mid, button(message_now(h, GROUP, mid), "▶️"))
            seen.append(message_now(h, GROUP, mid)["text"])
        assert len(seen) == steps and f"step {steps}/{steps}" in seen[-1]
        assert "Result" in seen[-1] and "Seating" in seen[0]
        edits = h.sent(GROUP, ("editMessageText",))[edits_before:]
        assert len(edits) == steps and {c.message_id for c in edits} == {mid}
        await h.press(h.users[1], GROUP, mid, button(message_now(h, GROUP, mid), "◀️"))
        assert f"step {steps - 1}/{steps}" in message_now(h, GROUP, mid)["text"]
        await h.press(h.users[1], GROUP, mid, button(message_now(h, GROUP, mid), "Protocol"))
        assert message_now(h, GROUP, mid)["text"] == text

        # "what I knew": in private, for every player; only his own secrets before the result
        L = Labels({p.user_id: (p.seat, p.name) for p in st.seated()})
        for p in st.seated():
            user = h.user(p.user_id)
            assert await h.press(user, GROUP, mid, button(shown, "What I knew")) == \
                "Sent to your private chat with me."
            dm = h.messages(user.id)[-1]
            pages = [dm["text"]]
            while any(b["text"] == "▶️" for b in buttons_of(message_now(h, user.id, dm["message_id"]))):
                await h.press(user, user.id, dm["message_id"],
                              button(message_now(h, user.id, dm["message_id"]), "▶️"))
                pages.append(message_now(h, user.id, dm["message_id"])["text"])
            assert "What you knew" in pages[0]
            mates = {q.user_id for q in st.seated() if q.team.value == "mafia"} \
                if p.team.value == "mafia" else set()
            for page in pages:
                if "Result" in page:
                    continue
                for q in st.seated():
                    if q.user_id == p.user_id or q.user_id in mates:
                        continue
                    for role in Role:
                        assert f"{plain_text(L.full(q.user_id))} — {plain_text(role_text(_, role.value))}" \
                            not in page
            assert f"{plain_text(L.full(p.user_id))} — {plain_text(role_text(_, p.role.value))}" \
                in pages[0]

        # the export: a document in the presser's private chat that replays to the same game
        assert await h.press(h.users[2], GROUP, mid, button(shown, "Export")) == \
            "Sent to your private chat with me."
        doc = sent_document(h, h.users[2].id)
        assert doc.filename == f"mafia-game-{game_id}.json"
        imported = X.replay_document(doc.data)
        assert imported.events_match and imported.state == st
        assert X.load_document(doc.data)["game"]["chat_id"] == GROUP

        # back to the list, on the page it came from
        await h.press(h.users[0], GROUP, mid, button(shown, "All games"))
        assert "2 games" in message_now(h, GROUP, mid)["text"]
    finally:
        await h.stop()


async def test_closed_private_chat_gets_a_deep_link(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=5)
    try:
        game_id, st = await play_game(h, 7)
        mid = await open_history(h)
        await h.press(h.users[0], GROUP, mid, Hist(a="p", g=game_id).pack())
        shy = h.users[3]
        h.session.fail("sendMessage", chat_id=shy.id, error_code=403, description=CANT_INITIATE)
        assert await h.press(shy, GROUP, mid, Hist(a="kn", g=game_id).pack()) is None
        assert answer_url(h) == f"https://t.me/{h.app.presenter.bot_username}?start=knew_{game_id}"
        h.session.fail("sendDocument", chat_id=shy.id, error_code=403, description=CANT_INITIATE)
        await h.press(shy, GROUP, mid, Hist(a="x", g=game_id).pack())
        url = answer_url(h)
        assert url is not None and url.endswith(f"?start=export_{game_id}")
        h.session.clear_failures()
        # the deep link opens the private chat with the request
        await h.dm(shy, f"/start knew_{game_id}")
        assert "What you knew" in h.texts(shy.id)[-1]
        await h.dm(shy, f"/start export_{game_id}")
        assert h.session.calls.calls_to("sendDocument", shy.id, ok_only=True)
        # a stranger to the game and its group gets neither
        stranger = FakeUser(424242, "Stranger", username="stranger")
        h.session.register_user(stranger)
        h.session.set_member(GROUP, stranger.id, "left")
        await h.dm(stranger, f"/start knew_{game_id}")
        await h.dm(stranger, f"/start export_{game_id}")
        assert h.texts(stranger.id)[-1].startswith("Only the players and the members")
        assert not h.session.calls.calls_to("sendDocument", stranger.id)
        await h.dm(stranger, "/start knew_999999")
        assert h.texts(stranger.id)[-1] == "This game is not in the history."
    finally:
        await h.stop()


async def test_only_group_admins_delete_and_nothing_else_rewrites(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=5)
    try:
        game_id, _st = await play_game(h, 11)
        mid = await open_history(h)
        admin, player = h.users[0], h.users[1]
        h.session.set_member(GROUP, admin.id, "administrator")
        await h.press(player, GROUP, mid, Hist(a="p", g=game_id).pack())
        protocol_text = message_now(h, GROUP, mid)["text"]
        for forged in ("d", "dy"):
            assert await h.press(player, GROUP, mid, Hist(a=forged, g=game_id).pack()) == \
                "Only a group admin can do that."
        assert await h.app.storage.history_record(game_id) is not None
        # from another group, the game's buttons do nothing
        assert await h.press(admin, OTHER_GROUP, 1, Hist(a="dy", g=game_id).pack()) == \
            "This button is out of date."
        assert await h.press(admin, OTHER_GROUP, 1, Hist(a="p", g=game_id).pack()) == \
            "This button is out of date."

        await h.press(admin, GROUP, mid, Hist(a="d", g=game_id).pack())
        confirm = message_now(h, GROUP, mid)
        assert f"Delete game #{game_id}" in confirm["text"]
        await h.press(admin, GROUP, mid, button(confirm, "Keep it"))
        assert message_now(h, GROUP, mid)["text"] == protocol_text
        await h.press(admin, GROUP, mid, Hist(a="d", g=game_id).pack())
        assert await h.press(admin, GROUP, mid, button(message_now(h, GROUP, mid), "Yes")) == \
            "The game was deleted from the history."
        assert "No finished games here yet" in message_now(h, GROUP, mid)["text"]
        assert await h.press(player, GROUP, mid, Hist(a="p", g=game_id).pack()) == \
            "This game is not in the history."
        await h.command(player, "/stats")
        assert "No finished games here yet" in h.texts(GROUP)[-1]
        await h.dm(player, f"/start export_{game_id}")
        assert h.texts(player.id)[-1] == "This game is not in the history."
    finally:
        await h.stop()


async def test_nextgame_messages_the_subscribers_of_the_next_lobby(db_url: str):
    h = await make_harness(db_url, n_users=5)
    try:
        fan, opener, late = h.users[1], h.users[0], h.users[2]
        await h.command(fan, "/nextgame")
        assert "I will message you privately" in h.texts(GROUP)[-1]
        await h.command(opener, "/nextgame")  # the one who opens it gets no message
        await h.command(opener, "/newgame")
        game_id = (await h.game()).id
        dm = h.messages(fan.id)[-1]
        assert "A new game is open in «Test group»" in dm["text"]
        assert buttons_of(dm)[0]["url"].endswith(f"?start=join_{game_id}")
        assert not any("A new game is open" in t for t in h.texts(opener.id))
        # a subscription made while a lobby is open waits for the following game
        await h.command(late, "/nextgame")
        assert "I will tell you about the one after it" in h.texts(GROUP)[-1]
        assert not any("A new game is open" in t for t in h.texts(late.id))
        await h.command(opener, "/cancel")
        await h.command(opener, "/newgame")
        assert "A new game is open" in h.texts(late.id)[-1]
        assert sum("A new game is open" in t for t in h.texts(fan.id)) == 1  # used up
        # and it can be cancelled
        await h.command(opener, "/cancel")
        await h.command(fan, "/nextgame")
        await h.command(fan, "/nextgame off")
        assert "no message about the next game" in h.texts(GROUP)[-1]
        await h.command(opener, "/newgame")
        assert sum("A new game is open" in t for t in h.texts(fan.id)) == 1
        await h.dm(fan, "/nextgame")
        assert h.texts(fan.id)[-1] == "Send this command in a group where I host games."
    finally:
        await h.stop()


async def test_stats_me_and_top(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=5)
    try:
        await h.command(h.users[0], "/stats")
        assert "No finished games here yet" in h.texts(GROUP)[-1]
        await h.dm(h.users[0], "/me")
        assert "You have no finished games yet." in h.texts(h.users[0].id)[-1]
        games = []
        for seed in (21, 22, 23, 24, 25):
            games.append(await play_game(h, seed))
        await h.command(h.users[0], "/stats")
        stats = h.texts(GROUP)[-1]
        assert "Statistics of «Test group»" in stats and "5 games played" in stats
        town = sum(st.winner.value == "town" for _, st in games)
        assert f"Town {round(100 * town / 5)}%" in stats
        await h.command(h.users[0], "/top")
        top = h.texts(GROUP)[-1].splitlines()
        ranked = [ln for ln in top if ln[:2] in ("1.", "2.", "3.", "4.", "5.")]
        assert len(ranked) == 5  # five players, five games each
        ratings = [int(ln.split(" — ")[1].split(" · ")[0]) for ln in ranked]
        assert ratings == sorted(ratings, reverse=True)
        me = h.users[3]
        await h.dm(me, "/me")
        mine = h.texts(me.id)[-1]
        assert "«Test group»" in mine and "5 games" in mine and "Rating" in mine
        wins = sum(st.players[me.id].team is st.winner for _, st in games)
        assert f"wins {wins} ({round(100 * wins / 5)}%)" in mine
        await h.command(me, "/me")
        assert "5 games" in h.texts(GROUP)[-1]
        await h.dm(me, "/stats")
        assert h.texts(me.id)[-1] == "Send this command in a group where I host games."
    finally:
        await h.stop()


async def test_a_game_missing_from_the_history_is_recorded_at_restart(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=5)
    game_id, _st = await play_game(h, 31)
    async with h.app.storage.engine.begin() as c:  # as if the bot stopped before recording it
        for table in (PlayerResultRow.__table__, GameSummaryRow.__table__):
            await c.execute(delete(table).where(table.c.game_id == game_id))
    await h.stop()
    h = await make_harness(sqlite_url, n_users=5, session=h.session)
    try:
        await open_history(h)
        assert f"#{game_id}" in h.texts(GROUP)[-1]
    finally:
        await h.stop()


async def test_private_history_lists_my_games_and_replays_what_i_knew(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=5)
    try:
        game_id, st = await play_game(h, 41)
        me = h.users[2]
        await h.dm(me, "/history")
        listing = h.messages(me.id)[-1]
        mid = listing["message_id"]
        p = st.players[me.id]
        _ = h.app.translator.get("en")
        assert "Your games · 1 game" in listing["text"] and "«Test group»" in listing["text"]
        assert plain_text(role_text(_, p.role.value)) in listing["text"]
        assert ("won" if p.team is st.winner else "lost") in listing["text"]
        await h.press(me, me.id, mid, button(listing, f"#{game_id}"))
        shown = message_now(h, me.id, mid)
        assert "What you knew" in shown["text"] and "Seating" in shown["text"]
        await h.press(me, me.id, mid, button(shown, "My games"))
        assert message_now(h, me.id, mid)["text"] == listing["text"]
        # someone who never played has no games; the list's buttons do nothing in a group
        stranger = FakeUser(515151, "Nobody", username="nobody")
        h.session.register_user(stranger)
        await h.dm(stranger, "/history")
        assert "You have no finished games yet." in h.texts(stranger.id)[-1]
        assert await h.press(me, GROUP, 1, Hist(a="m").pack()) == "This button is out of date."
    finally:
        await h.stop()
